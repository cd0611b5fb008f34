package recognition

import (
	"strings"

	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

// phraseKey returns the tokens of s joined by single spaces, the form in
// which the index stores a name or alias ("" when s has no tokens).
func phraseKey(s string) string {
	return strings.Join(analyze.Tokens(s), " ")
}

// span is the byte range of one token in a normalised prompt.
type span struct{ start, end int }

// normalize writes the tokens of s into buf, lower-cased and separated by
// single spaces, and appends each token's range in buf to spans. Any run
// of tokens i..j is then the contiguous byte range
// buf[spans[i].start:spans[j].end], which is exactly how the index keys a
// phrase of those tokens.
func normalize(s string, buf []byte, spans []span) ([]byte, []span) {
	for i := 0; i < len(s); {
		if !analyze.IsTokenByte(s[i]) {
			i++
			continue
		}
		if len(buf) > 0 {
			buf = append(buf, ' ')
		}
		start := len(buf)
		for ; i < len(s) && analyze.IsTokenByte(s[i]); i++ {
			c := s[i]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf = append(buf, c)
		}
		spans = append(spans, span{start, len(buf)})
	}
	return buf, spans
}

// pyStrip removes leading and trailing whitespace as Python's str.strip()
// does (Unicode whitespace, including U+001C..U+001F, which Go's
// strings.TrimSpace keeps).
func pyStrip(s string) string {
	return strings.TrimFunc(s, pyfmt.IsSpace)
}

// mergeKey is the reference's merge key for recognition rows,
// name.strip().lower(). Go's Unicode lower-casing differs from Python's
// for a handful of characters (U+0130 becomes "i" here, "i̇" there); both
// sides only use the key for grouping, so names differing only that way
// may group differently.
func mergeKey(name string) string {
	return strings.ToLower(pyStrip(name))
}

// strippedItems returns the items of list trimmed, blanks dropped, and
// duplicates (after trimming) dropped, in first-seen order.
func strippedItems(list []string) []string {
	var out []string
	for _, s := range list {
		if t := pyStrip(s); t != "" {
			out = appendUnique(out, t)
		}
	}
	return out
}

// appendUnique appends v to list unless it is already there.
func appendUnique(list []string, v string) []string {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}
