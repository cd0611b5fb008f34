package redact

import (
	"bytes"
	"encoding/json"
	"math/bits"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
)

// The reference implementations the fast paths are held against
// (fastpath_test.go): scan, isCollapsed and JSONAs as they were before the
// fast paths, one byte at a time.

// referenceScan is scan without the fast paths.
func referenceScan(s string, enabled uint64, from int, span bool) (m match, maybeFold bool) {
	prevWord := from > 0 && isASCIIWord(s[from-1]) // s[i-1] is an ASCII word byte
	for i := from; i < len(s); i++ {
		var cand uint64
		switch byteClass[s[i]] {
		case bOther:
			prevWord = false
			continue
		case bWord:
			if !prevWord && isDigit(s[i]) {
				// A card number or a Telegram bot token starts a word of
				// digits of those lengths.
				end := wordEnd(s, i)
				if n := end - i; n == 4 || n >= 8 && n <= maxCardDigits {
					if m := digitStartAt(s, i, end, enabled); m.p >= 0 {
						return m, maybeFold
					}
				}
			}
			prevWord = true
			continue
		case bHigh:
			prevWord = false
			continue
		case bLocalLead:
			prevWord = false
			if m := highAt(s, i, enabled); m.p >= 0 {
				return m, maybeFold
			}
			continue
		case bFoldLead:
			prevWord, maybeFold = false, true
			if m := highAt(s, i, enabled); m.p >= 0 {
				return m, maybeFold
			}
			continue
		case bPunct:
			prevWord = false
			if m := punctAt(s, i, enabled); m.p >= 0 {
				return m, maybeFold
			}
			continue
		case bDot:
			prevWord = false
			cand = dotCandidates(s, i)
		case bDash:
			prevWord = false
			if strings.HasPrefix(s[i:], "-----BEGIN ") {
				cand = 1 << pPEM
			} else if i+1 < len(s) && dashOption[s[i+1]] {
				cand = 1 << pCLICredential // an option: no fast path here
			}
		case bOp:
			prevWord = false
			if s[i] == ':' && enabled&(1<<pURLPassword) != 0 && (strings.HasPrefix(s[i:], "://") || strings.HasPrefix(s[i:], ":~1~1")) {
				if m := urlPasswordAt(s, i); m.p >= 0 {
					return m, maybeFold
				}
			}
			if s[i] == ':' {
				if m := colonAt(s, i, enabled); m.p >= 0 {
					return m, maybeFold
				}
			}
			if s[i] == '>' {
				if enabled&(1<<pConfigValue|1<<pKeyMaterial) != 0 {
					if m := xmlSecretAt(s, i); m.p >= 0 && enabled&(1<<m.p) != 0 {
						return m, maybeFold
					}
				}
				continue // an XML element's text, not an assignment's operator
			}
			if enabled&assignmentMask != 0 {
				if m := assignmentAt(s, i); m.p >= 0 && enabled&(1<<m.p) != 0 {
					return m, maybeFold
				}
			}
			continue
		case bStart:
			if prevWord {
				continue // no \b here: not a possible start
			}
			prevWord = true
			cand = wordStartCandidates(s[i:])
			if cand != 0 && i > 0 && s[i-1] >= utf8.RuneSelf {
				// Python's \b: a preceding non-ASCII letter or digit is a
				// word character too.
				if r, _ := utf8.DecodeLastRuneInString(s[:i]); isPyWord(r) {
					cand = 0
				}
			}
		}
		for cand &= enabled; cand != 0; cand &= cand - 1 {
			if m := matchAt(s, i, bits.TrailingZeros64(cand), span); m.p >= 0 {
				return m, maybeFold
			}
		}
	}
	return noMatch, maybeFold
}

// referenceIsCollapsed is isCollapsed one byte at a time.
func referenceIsCollapsed(s string) bool {
	n := len(s)
	for i := 0; i < n; i++ {
		switch wsClass[s[i]] {
		case wsSpace:
			if i == 0 || i == n-1 || s[i-1] == ' ' {
				return false
			}
		case wsOther:
			return false
		case wsLead:
			if r, _ := utf8.DecodeRuneInString(s[i:]); pyfmt.IsSpace(r) {
				return false
			}
		}
	}
	return true
}

// referenceJSONAs is JSONAs finding each literal's end byte by byte.
func referenceJSONAs(data []byte, kind Kind, echo map[string]string) []byte {
	var out []byte // nil until the first change
	last := 0      // data[last:] is not yet copied to out
	depth := 0     // nesting of objects and arrays at data[i]
	key := ""      // the last key read at depth 1
	echo = topLevel(data, echo)
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '{', '[':
			depth++
			continue
		case '}', ']':
			depth--
			continue
		case '"':
		default:
			continue
		}
		end := referenceStringEnd(data, i)
		if end < 0 {
			return data // not valid JSON; leave it to the caller's encoder
		}
		if isKey(data, end) {
			if depth == 1 && echo != nil {
				key, _ = referenceText(data[i:end])
			}
			i = end - 1
			continue
		}
		if s, ok := referenceText(data[i:end]); ok {
			k := kind
			if depth == 1 && echo != nil {
				if a, ok := echo[key]; ok && a == s {
					k = Prose
				}
			}
			if r := k.Apply(s); r != s {
				enc, _ := json.Marshal(r)
				out = append(append(out, data[last:i]...), enc...)
				last = end
			}
		}
		i = end - 1
	}
	if out == nil {
		return data
	}
	return append(out, data[last:]...)
}

// referenceText is text finding out itself whether lit holds an escape.
func referenceText(lit []byte) (string, bool) {
	if bytes.IndexByte(lit, '\\') < 0 {
		if len(lit) == 2 {
			return "", true
		}
		return unsafe.String(&lit[1], len(lit)-2), true
	}
	var s string
	err := json.Unmarshal(lit, &s)
	return s, err == nil
}

// referenceStringEnd is stringEnd byte by byte.
func referenceStringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}
