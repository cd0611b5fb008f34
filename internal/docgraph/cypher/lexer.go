package cypher

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tString
	tInt
	tFloat
	tParam
	tPunct // text holds the punctuation: ( ) [ ] { } , . .. : | * ; = <> < <= > >= - + / % ^
)

// token is one lexeme. For an identifier text is its name (without
// backticks), for a string its decoded value, for a parameter its name
// (without $), for punctuation the characters.
type token struct {
	kind   tokKind
	text   string
	quoted bool // a `backtick` identifier, never a keyword
	pos    int  // byte offset of the first character
	end    int  // byte offset after the last character
	ival   int64
	fval   float64
}

// is reports whether t is the punctuation p.
func (t token) is(p string) bool { return t.kind == tPunct && t.text == p }

// isKeyword reports whether t is the keyword kw (in upper case), written in
// any case.
func (t token) isKeyword(kw string) bool {
	return t.kind == tIdent && !t.quoted && strings.EqualFold(t.text, kw)
}

// lex splits src into tokens, ending with a tEOF token.
func lex(src string) ([]token, error) {
	l := lexer{src: src}
	var toks []token
	for {
		t, err := l.next()
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
		if t.kind == tEOF {
			return toks, nil
		}
	}
}

type lexer struct {
	src string
	i   int
}

func (l *lexer) errorf(offset int, hint, format string, args ...any) error {
	return errorAt(l.src, KindSyntax, offset, hint, format, args...)
}

// skip passes over white space and comments.
func (l *lexer) skip() error {
	for l.i < len(l.src) {
		r, n := utf8.DecodeRuneInString(l.src[l.i:])
		switch {
		case unicode.IsSpace(r):
			l.i += n
		case strings.HasPrefix(l.src[l.i:], "//"):
			end := strings.IndexByte(l.src[l.i:], '\n')
			if end < 0 {
				l.i = len(l.src)
			} else {
				l.i += end + 1
			}
		case strings.HasPrefix(l.src[l.i:], "/*"):
			end := strings.Index(l.src[l.i+2:], "*/")
			if end < 0 {
				return l.errorf(l.i, "close it with */", "unterminated comment")
			}
			l.i += end + 4
		default:
			return nil
		}
	}
	return nil
}

func (l *lexer) next() (token, error) {
	if err := l.skip(); err != nil {
		return token{}, err
	}
	start := l.i
	if l.i >= len(l.src) {
		return token{kind: tEOF, pos: start, end: start}, nil
	}
	c := l.src[l.i]
	r, n := utf8.DecodeRuneInString(l.src[l.i:])
	switch {
	case c == '\'' || c == '"':
		return l.str(c)
	case c == '`':
		end := strings.IndexByte(l.src[l.i+1:], '`')
		if end < 0 {
			return token{}, l.errorf(start, "close it with `", "unterminated quoted name")
		}
		l.i += end + 2
		if end == 0 {
			return token{}, l.errorf(start, "write a name between the backticks", "empty quoted name")
		}
		return token{kind: tIdent, text: l.src[start+1 : l.i-1], quoted: true, pos: start, end: l.i}, nil
	case c >= '0' && c <= '9':
		return l.number()
	case c == '$':
		l.i++
		name := l.word()
		if name == "" {
			return token{}, l.errorf(start, "write a parameter as $name and pass name in params", "$ without a parameter name")
		}
		return token{kind: tParam, text: name, pos: start, end: l.i}, nil
	case r == '_' || unicode.IsLetter(r):
		return token{kind: tIdent, text: l.word(), pos: start, end: l.i}, nil
	}
	for _, p := range [...]string{"..", "<>", "<=", ">=", "!="} {
		if strings.HasPrefix(l.src[l.i:], p) {
			l.i += len(p)
			if p == "!=" {
				return token{}, l.errorf(start, "write <> for not equal", "!= is not Cypher")
			}
			return token{kind: tPunct, text: p, pos: start, end: l.i}, nil
		}
	}
	if strings.ContainsRune("()[]{},.:|*;=<>-+/%^", r) {
		l.i += n
		return token{kind: tPunct, text: string(r), pos: start, end: l.i}, nil
	}
	return token{}, l.errorf(start, "remove it", "unexpected character %q", r)
}

// word reads an identifier's letters, digits and underscores.
func (l *lexer) word() string {
	start := l.i
	for l.i < len(l.src) {
		r, n := utf8.DecodeRuneInString(l.src[l.i:])
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		l.i += n
	}
	return l.src[start:l.i]
}

// number reads an integer or a float. A dot followed by another dot ends
// an integer, so that 1..4 is 1, .., 4.
func (l *lexer) number() (token, error) {
	start := l.i
	digits := func() {
		for l.i < len(l.src) && l.src[l.i] >= '0' && l.src[l.i] <= '9' {
			l.i++
		}
	}
	digits()
	float := false
	if l.i+1 < len(l.src) && l.src[l.i] == '.' && l.src[l.i+1] >= '0' && l.src[l.i+1] <= '9' {
		float = true
		l.i++
		digits()
	}
	if l.i < len(l.src) && (l.src[l.i] == 'e' || l.src[l.i] == 'E') {
		j := l.i + 1
		if j < len(l.src) && (l.src[j] == '+' || l.src[j] == '-') {
			j++
		}
		if j < len(l.src) && l.src[j] >= '0' && l.src[j] <= '9' {
			float = true
			l.i = j
			digits()
		}
	}
	if l.i < len(l.src) {
		if r, _ := utf8.DecodeRuneInString(l.src[l.i:]); r == '_' || unicode.IsLetter(r) {
			return token{}, l.errorf(start, "separate the number from the name", "malformed number %q", l.src[start:l.i+1])
		}
	}
	text := l.src[start:l.i]
	if float {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return token{}, l.errorf(start, "write a float between ±1.8e308", "number %s out of range", text)
		}
		return token{kind: tFloat, text: text, fval: f, pos: start, end: l.i}, nil
	}
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return token{}, l.errorf(start, "write an integer of at most 19 digits", "integer %s out of range", text)
	}
	return token{kind: tInt, text: text, ival: v, pos: start, end: l.i}, nil
}

// str reads a string quoted by q, decoding the escapes \\ \' \" \n \t \r
// \b \f and \uXXXX.
func (l *lexer) str(q byte) (token, error) {
	start := l.i
	l.i++
	var sb strings.Builder
	for {
		if l.i >= len(l.src) {
			return token{}, l.errorf(start, "close it with "+string(q), "unterminated string")
		}
		c := l.src[l.i]
		if c == q {
			l.i++
			return token{kind: tString, text: sb.String(), pos: start, end: l.i}, nil
		}
		if c != '\\' {
			sb.WriteByte(c)
			l.i++
			continue
		}
		if l.i+1 >= len(l.src) {
			return token{}, l.errorf(start, "close it with "+string(q), "unterminated string")
		}
		esc := l.src[l.i+1]
		l.i += 2
		switch esc {
		case '\\', '\'', '"':
			sb.WriteByte(esc)
		case 'n':
			sb.WriteByte('\n')
		case 't':
			sb.WriteByte('\t')
		case 'r':
			sb.WriteByte('\r')
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'u':
			if l.i+4 > len(l.src) {
				return token{}, l.errorf(l.i-2, `write \u and four hex digits`, "short \\u escape")
			}
			v, err := strconv.ParseUint(l.src[l.i:l.i+4], 16, 32)
			if err != nil {
				return token{}, l.errorf(l.i-2, `write \u and four hex digits`, "bad \\u escape")
			}
			sb.WriteRune(rune(v))
			l.i += 4
		default:
			return token{}, l.errorf(l.i-2, `the escapes are \\ \' \" \n \t \r \b \f \uXXXX`, "unknown escape \\%c", esc)
		}
	}
}
