package docsearch

import (
	"strings"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

// maxSnippet is the longest snippet, in characters (runes).
const maxSnippet = 240

// snippet returns the passage of document d that best answers the
// query, as plain text cut to maxSnippet characters around its first
// match. Without a matching passage (with plain text) it is the summary,
// or the first passage. Passages are prepared when the index is built,
// so a query parses no markdown.
func (ix *Index) snippet(d int32, lq lexQuery) string {
	pi := ix.docs.pass
	bestP, bestS := int32(-1), float32(0)
	for p := pi.first[d]; p < pi.first[d+1]; p++ {
		if pi.plain[p] == "" {
			continue
		}
		if s := pi.lex.scoreDoc(lq.pass, p); s > bestS {
			bestP, bestS = p, s
		}
	}
	if bestP >= 0 {
		return window(pi.plain[bestP], lq.words)
	}
	if s := summary(ix.g.Node(ix.docs.nodes[d])); s != "" {
		return window(plain(s), lq.words)
	}
	for p := pi.first[d]; p < pi.first[d+1]; p++ {
		if pi.plain[p] != "" {
			return window(pi.plain[p], lq.words)
		}
	}
	return ""
}

// paragraphs splits markdown into paragraphs of plain text, leaving out
// code fences, headings, directives (:::, [!include]) and tables.
func paragraphs(md string) []string {
	var out []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, plain(strings.Join(cur, " ")))
			cur = cur[:0]
		}
	}
	fenced := false
	for line := range strings.Lines(md) {
		l := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~"):
			fenced = !fenced
			flush()
		case fenced:
		case l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, ":::") ||
			strings.HasPrefix(l, "[!include") || strings.HasPrefix(l, "|"):
			flush()
		default:
			cur = append(cur, lineText(l))
		}
	}
	flush()
	return out
}

// lineText drops the block markers that open a line: quote, alert and
// list markers.
func lineText(l string) string {
	for {
		t := strings.TrimLeft(l, " ")
		switch {
		case strings.HasPrefix(t, ">"):
			t = t[1:]
		case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ "):
			t = t[2:]
		case strings.HasPrefix(t, "[!") && strings.Contains(t, "]"):
			t = t[strings.IndexByte(t, ']')+1:]
		default:
			if i := strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' }); i > 0 && strings.HasPrefix(t[i:], ". ") {
				t = t[i+2:]
			}
			if t == l {
				return t
			}
		}
		l = t
	}
}

// plain strips the inline markdown of a paragraph: links and images keep
// their text, xrefs their uid, code spans their code; emphasis and tags
// go; spaces are collapsed.
func plain(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '!' && i+1 < len(p) && p[i+1] == '[':
			i++ // the image's alt text stays, as a link's text
		case c == '[':
			if end := strings.IndexByte(p[i:], ']'); end > 0 && strings.HasPrefix(p[i+end+1:], "(") {
				if close := strings.IndexByte(p[i+end:], ')'); close > 0 {
					b.WriteString(p[i+1 : i+end])
					i += end + close + 1
					continue
				}
			}
			b.WriteByte(c)
			i++
		case c == '<':
			end := strings.IndexByte(p[i:], '>')
			if end < 0 || i+1 >= len(p) || !isTagStart(p[i+1]) {
				b.WriteByte(c)
				i++
				continue
			}
			if uid, ok := strings.CutPrefix(p[i+1:i+end], "xref:"); ok {
				b.WriteString(uid)
			}
			i += end + 1
		case c == '`':
			// a code span is kept as written, without its ticks
			if end := strings.IndexByte(p[i+1:], '`'); end >= 0 {
				b.WriteString(p[i+1 : i+1+end])
				i += end + 2
				continue
			}
			i++
		case (c == '*' || c == '_') && i+1 < len(p) && p[i+1] == c:
			i += 2
		default:
			b.WriteByte(c)
			i++
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func isTagStart(c byte) bool { return c == '/' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// window cuts p to maxSnippet characters: from the start when the first
// matching term is near it, else from a word shortly before the match,
// marking each cut with an ellipsis.
func window(p string, terms []string) string {
	if !runesExceed(p, maxSnippet) {
		return p
	}
	first := analyze.First(p, terms)
	const lead = 60 // characters kept before the first match
	prefix := ""
	if first > 0 && runesExceed(p[:first], maxSnippet/2) {
		start := first
		for n := 0; start > 0 && n < lead; n++ {
			_, size := utf8.DecodeLastRuneInString(p[:start])
			start -= size
		}
		if sp := strings.IndexByte(p[start:first], ' '); sp >= 0 {
			start += sp + 1
		}
		p, prefix = p[start:], "…"
	}
	limit := maxSnippet - utf8.RuneCountInString(prefix) - 1
	if !runesExceed(p, limit+1) {
		return prefix + p
	}
	end := 0
	for n := 0; n < limit; n++ {
		_, size := utf8.DecodeRuneInString(p[end:])
		end += size
	}
	if sp := strings.LastIndexByte(p[:end], ' '); sp > end/2 {
		end = sp
	}
	return prefix + strings.TrimRight(p[:end], " ,;:") + "…"
}

// runesExceed reports whether s has more than n runes (n >= 0), counting
// no further than the n+1st.
func runesExceed(s string, n int) bool {
	switch {
	case len(s) <= n: // no more runes than bytes
		return false
	case len(s) > utf8.UTFMax*n: // no more bytes than UTFMax a rune
		return true
	}
	for range s {
		if n == 0 {
			return true
		}
		n--
	}
	return false
}
