package redact

import "strings"

// Credentials written in pieces. A token cut in two, so that no pattern
// sees it whole, is still a token to whoever puts the pieces together.
// joinedAt joins the two ways text is cut that a reader undoes without
// thinking, and looks at the result:
//
//   - string literals joined in code: by + ("sk-ant-api03-" + "..."),
//     by . (PHP), by || (SQL), by a comma (an array joined, Rust's
//     concat!), or by nothing but blanks and line breaks (C, Python,
//     the shell's "a"'b'), over line breaks too (literals.go);
//   - a token broken at a line's end: the run of token characters that
//     ends a line and the one that starts the next;
//   - a token spelt out, one separator between every two of its
//     characters ("g h p _ 1 a 2 b ...", "g-h-p-_-1-..."): spacedAt.
//
// The pieces are a credential when together they hold one and none of
// them alone does (then the pattern that sees it cuts out less). The span
// runs from the first piece to the last.
const (
	// maxJoinedPieces bounds the literals of one concatenation.
	maxJoinedPieces = 16
	// maxJoinedLen bounds the characters of a literal, of a run of token
	// characters, and (give or take a literal) of a joined text.
	maxJoinedLen = 4 << 10
	// minBrokenPiece and minBrokenToken are the shortest pieces, and the
	// shortest token, looked at across a line break: two words of prose
	// on either side of one are passed over.
	minBrokenPiece = 4
	minBrokenToken = 20
)

// joinedAt finds the first credential written in pieces at or after
// from (a token broken at a line's end, spelt out), or given as a string
// literal of code (literalsAt).
func joinedAt(s string, from int) match {
	return firstOf(firstOf(literalsAt(s, from), lineBreakAt(s, from)), spacedAt(s, from))
}

// lineBreakAt finds the first line break at or after from between two
// runs of token characters that together hold a credential which neither
// holds alone; the span is the two runs and the break.
func lineBreakAt(s string, from int) match {
	for i := from; i < len(s); {
		k := strings.IndexByte(s[i:], '\n')
		if k < 0 {
			break
		}
		nl := i + k
		i = nl + 1
		leftEnd := nl
		if leftEnd > 0 && s[leftEnd-1] == '\r' {
			leftEnd--
		}
		left := leftEnd
		for left > from && leftEnd-left < maxJoinedLen && tokenByte[s[left-1]] {
			left--
		}
		right := nl + 1
		for right < len(s) && right-nl < maxJoinedLen && tokenByte[s[right]] {
			right++
		}
		if leftEnd-left < minBrokenPiece || right-nl-1 < minBrokenPiece || leftEnd-left+right-nl-1 < minBrokenToken {
			continue
		}
		a, b := s[left:leftEnd], s[nl+1:right]
		if digestBeside(a, b) || digestBeside(b, a) {
			continue // sha256:<digest> then "Status: ...": two words
		}
		if spansIn(a, false) != nil || spansIn(b, false) != nil || spansOf(a+b) == nil {
			continue
		}
		return match{p: pJoined, at: left, start: left, end: right}
	}
	return noMatch
}

// digestBeside reports whether a is a hex digest (16 hexadecimal digits
// or more) and b, across a line break from it, is not hexadecimal: a
// token broken in two keeps its alphabet on both sides, a digest ends
// its line and prose begins the next.
func digestBeside(a, b string) bool {
	return len(a) >= 16 && isHexRun(a) && !isHexRun(b)
}

// tokenByte marks the bytes that may be part of a token: ASCII letters
// and digits, and - _ . + / = ~.
var tokenByte = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = isASCIILetter(byte(c)) || isDigit(byte(c)) || strings.IndexByte("-_.+/=~", byte(c)) >= 0
	}
	return t
}()

// minSpaced is the fewest characters of a token spelt out that spacedAt
// looks at: shorter runs of single characters are initials, a list of
// options, a row of dashes.
const minSpaced = 16

// isSpacer reports whether c may stand between the characters of a token
// spelt out: a blank, '-' or '.'.
func isSpacer(c byte) bool { return c == ' ' || c == '-' || c == '.' }

// spacedChar reports whether c may be a character of a token spelt out
// with sep between its characters: printable ASCII, not a blank, not sep.
func spacedChar(c, sep byte) bool { return c > ' ' && c < 0x7f && c != sep }

// spacedAt finds the first token spelt out at or after from: a run of
// minSpaced characters or more, each alone between one and the same
// separator (a blank, '-' or '.': "g h p _ 1 a 2 b ..."), whose
// characters joined hold a credential. The span is the run.
//
// It runs on every payload, so it passes over text a window at a time:
// in such a run every two bytes in a row are a separator and a
// character, so where the last two bytes of a window of the run's
// length are not, no run covers the window and the next one starts
// after them.
func spacedAt(s string, from int) match {
	const n = 2*minSpaced - 1
	for i := from; i+n <= len(s); {
		k := i + n - 1
		a, b := s[k-1], s[k]
		sep := byte(0)
		switch {
		case a == ' ' || b == ' ':
			sep = ' '
		case isSpacer(a) != isSpacer(b):
			sep = a
			if isSpacer(b) {
				sep = b
			}
		}
		if sep == 0 || (a == sep) == (b == sep) || !spacedChar(a, sep) && !spacedChar(b, sep) {
			i = k
			continue
		}
		j := k
		for j > i && alternates(s[j-1], s[j], sep) {
			j--
		}
		if j > i {
			i = j
			continue
		}
		m, end := spacedRun(s, from, i, k, sep)
		if m.p >= 0 {
			return m
		}
		i = max(end, k+1)
	}
	return noMatch
}

// alternates reports whether a and b are a separator sep and a character
// of a token spelt out with it, in either order.
func alternates(a, b, sep byte) bool {
	return a == sep && spacedChar(b, sep) || b == sep && spacedChar(a, sep)
}

// glued reports whether c, a character at an end of a run spelt out,
// belongs with its neighbour out of the run, nb, rather than to the run:
// nb is part of a word, or c is punctuation next to more ("out): x o x
// b ..."; "(x o x b ...)" keeps its x).
func glued(nb, c, sep byte) bool {
	return isASCIIWord(nb) || !isASCIIWord(c) && spacedChar(nb, sep)
}

// spacedRun matches the run of single characters between sep that
// s[i:k+1] is part of, found no further back than from: its characters
// joined (a character next to a word's, part of the word, is not the
// run's) must be minSpaced or more and hold a credential. end is where
// the run stops, matched or not.
func spacedRun(s string, from, i, k int, sep byte) (m match, end int) {
	for i > from && alternates(s[i-1], s[i], sep) {
		i--
	}
	for k+1 < len(s) && alternates(s[k], s[k+1], sep) {
		k++
	}
	start, stop := i, k+1
	end = stop
	if s[start] == sep {
		start++
	} else if start > 0 && glued(s[start-1], s[start], sep) {
		start += 2 // the last letter of a word: "hello w o r l d", "out): x o x b"
	}
	if s[stop-1] == sep {
		stop--
	} else if stop < len(s) && glued(s[stop], s[stop-1], sep) {
		stop -= 2
	}
	if stop-start < 2*minSpaced-1 || stop-start > 2*maxJoinedLen {
		return noMatch, end
	}
	b := make([]byte, 0, (stop-start+1)/2)
	for p := start; p < stop; p += 2 {
		b = append(b, s[p])
	}
	if spansIn(string(b), false) == nil {
		return noMatch, end
	}
	return match{p: pJoined, at: start, start: start, end: stop}, end
}
