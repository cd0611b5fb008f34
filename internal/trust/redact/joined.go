package redact

import "strings"

// Credentials written in pieces. A token cut in two, so that no pattern
// sees it whole, is still a token to whoever puts the pieces together.
// joinedAt joins the two ways text is cut that a reader undoes without
// thinking, and looks at the result:
//
//   - string literals joined by + in code: "sk-ant-api03-" + "..." (also
//     over line breaks, with ' or ` quotes);
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

// joinedAt finds the first credential written in pieces at or after from.
func joinedAt(s string, from int) match {
	c, b := concatAt(s, from), lineBreakAt(s, from)
	if c.p < 0 || b.p >= 0 && b.start < c.start {
		return b
	}
	return c
}

// concatAt finds the first concatenation of string literals at or after
// from whose joined text holds a credential that its literals alone do
// not; the span is the literals, quotes included.
func concatAt(s string, from int) match {
	for i := from; i < len(s); {
		k := strings.IndexByte(s[i:], '+')
		if k < 0 {
			break
		}
		plus := i + k
		i = plus + 1
		// The literal that ends before the +.
		l := skipBack(s, plus)
		if l == 0 || !isQuote(s[l-1]) || l-1 < from {
			continue
		}
		q := s[l-1]
		open := strings.LastIndexByte(s[max(0, l-1-maxJoinedLen):l-1], q)
		if open < 0 {
			continue
		}
		open += max(0, l-1-maxJoinedLen)
		if strings.IndexByte(s[open+1:l-1], '\n') >= 0 {
			continue
		}
		var joined strings.Builder
		joined.WriteString(s[open+1 : l-1])
		pieces, end, alone := 1, l, false
		// The literals after each +.
		for p := plus; pieces < maxJoinedPieces && joined.Len() <= maxJoinedLen; {
			r := skipForward(s, p+1)
			if r >= len(s) || s[r] != q {
				break
			}
			close := strings.IndexByte(s[r+1:min(len(s), r+1+maxJoinedLen)], q)
			if close < 0 || strings.IndexByte(s[r+1:r+1+close], '\n') >= 0 {
				break
			}
			lit := s[r+1 : r+1+close]
			alone = alone || spansIn(lit, false) != nil
			joined.WriteString(lit)
			pieces++
			end = r + 2 + close
			p = skipForward(s, end)
			if p >= len(s) || s[p] != '+' {
				break
			}
		}
		if pieces < 2 || alone || spansIn(s[open+1:l-1], false) != nil || spansOf(joined.String()) == nil {
			continue
		}
		return match{p: pJoined, at: open, start: open, end: end}
	}
	return noMatch
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

func isQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

// skipBack returns the index just after the last byte before i that is
// not a blank or a line break.
func skipBack(s string, i int) int {
	for i > 0 && isSpaceByte(s[i-1]) {
		i--
	}
	return i
}

// skipForward returns the index of the first byte at or after i that is
// not a blank or a line break.
func skipForward(s string, i int) int {
	for i < len(s) && isSpaceByte(s[i]) {
		i++
	}
	return i
}
