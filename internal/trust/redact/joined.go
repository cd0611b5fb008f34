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
//     ends a line and the one that starts the next.
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
// from, or given as a string literal of code (literalsAt).
func joinedAt(s string, from int) match {
	return firstOf(literalsAt(s, from), lineBreakAt(s, from))
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
		if spansIn(a, false) != nil || spansIn(b, false) != nil || spansOf(a+b) == nil {
			continue
		}
		return match{p: pJoined, at: left, start: left, end: right}
	}
	return noMatch
}

// tokenByte marks the bytes that may be part of a token: ASCII letters
// and digits, and - _ . + / = ~.
var tokenByte = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = isASCIILetter(byte(c)) || isDigit(byte(c)) || strings.IndexByte("-_.+/=~", byte(c)) >= 0
	}
	return t
}()
