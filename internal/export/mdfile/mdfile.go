// Package mdfile reads the Markdown files of the agents' convention and
// memory stores: a bounded part of the file, checked to be UTF-8, and its
// YAML front matter.
package mdfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// MaxBytes is how much of a Markdown file Read takes by default: enough
// for any front matter, title and first paragraph, never a whole
// multi-gigabyte file in memory.
const MaxBytes = 1 << 20

// NotUTF8Error is a file that is not UTF-8 text.
type NotUTF8Error struct {
	Line int // the 1-based line of the first bad byte
}

func (e *NotUTF8Error) Error() string {
	return fmt.Sprintf("not UTF-8 text (first bad byte on line %d)", e.Line)
}

// Read returns up to max bytes (MaxBytes when max <= 0) from the start of
// the file at path, as text with CRLF line ends read as LF, and whether
// the file was longer. A code point cut by the bound is left out. Text
// that is not UTF-8 gives a *NotUTF8Error.
func Read(path string, max int) (text string, truncated bool, err error) {
	if max <= 0 {
		max = MaxBytes
	}
	f, err := os.Open(path)
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	buf := make([]byte, max+1)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", false, err
	}
	data := buf[:n]
	if n > max {
		data, truncated = trimPartialEnd(buf[:max]), true
	}
	text, err = decode(data)
	return text, truncated, err
}

// Tail returns the last maxRunes code points of the file at path (it reads
// at most 4*maxRunes bytes from the end), with CRLF read as LF.
func Tail(path string, maxRunes int) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	window := int64(4 * maxRunes)
	start := max(st.Size()-window, 0)
	data := make([]byte, st.Size()-start)
	if _, err := f.ReadAt(data, start); err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	if start > 0 {
		data = trimPartialStart(data)
	}
	text, err := decode(data)
	if err != nil {
		return "", err
	}
	if n := utf8.RuneCountInString(text); n > maxRunes {
		for range n - maxRunes {
			_, size := utf8.DecodeRuneInString(text)
			text = text[size:]
		}
	}
	return text, nil
}

func decode(data []byte) (string, error) {
	if !utf8.Valid(data) {
		bad := 0
		for bad < len(data) {
			r, size := utf8.DecodeRune(data[bad:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			bad += size
		}
		return "", &NotUTF8Error{Line: 1 + bytes.Count(data[:bad], []byte("\n"))}
	}
	return strings.ReplaceAll(string(data), "\r\n", "\n"), nil
}

// trimPartialEnd drops an incomplete code point at the end of b.
func trimPartialEnd(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		c := b[len(b)-i]
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}

// trimPartialStart drops the continuation bytes of a code point cut at the
// start of b.
func trimPartialStart(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && i < len(b); i++ {
		if utf8.RuneStart(b[i]) {
			return b[i:]
		}
	}
	return b
}

// FrontMatterError is YAML front matter that does not parse.
type FrontMatterError struct {
	Line int // the line in the file, 0 when unknown
	Msg  string
}

func (e *FrontMatterError) Error() string { return "malformed YAML front matter: " + e.Msg }

// FrontMatter splits text into its YAML front matter and its body. The
// front matter is everything between a first line that is exactly "---"
// and the next line that is exactly "---" (which may end the text without
// a newline); a "---" inside a line or a missing closing fence is not one.
// ok is false when text has no front matter (body is then text).
//
// A front matter that is not a mapping reads as empty. One that is not
// valid YAML gives a *FrontMatterError naming the line in the file, and
// the body after the closing fence (the broken YAML is not returned as
// text).
func FrontMatter(text string) (fm *yaml11.Map, body string, ok bool, err error) {
	rest, found := strings.CutPrefix(text, "---\n")
	if !found {
		return nil, text, false, nil
	}
	var yamlText string
	switch {
	case strings.HasPrefix(rest, "---\n") || rest == "---":
		yamlText, body = "", strings.TrimPrefix(strings.TrimPrefix(rest, "---"), "\n")
	default:
		// The YAML ends before the line break of its last line, as the
		// reference cuts it: a block scalar last in the front matter
		// (`name: >`) then has no final newline.
		i := strings.Index(rest, "\n---\n")
		switch {
		case i >= 0:
			yamlText, body = rest[:i], rest[i+len("\n---\n"):]
		case strings.HasSuffix(rest, "\n---"):
			yamlText, body = rest[:len(rest)-len("\n---")], ""
		default:
			return nil, text, false, nil
		}
	}
	doc, derr := yaml11.Decode([]byte(yamlText))
	if derr != nil {
		fe := &FrontMatterError{Msg: derr.Error()}
		var se *yaml11.SyntaxError
		if errors.As(derr, &se) {
			fe.Msg = se.Msg
			if se.Line > 0 {
				// The opening fence is line 1. YAML also counts a lone
				// carriage return as a line break, and reports an error
				// at the end of the text on the line after it: the line
				// named is at most the closing fence's.
				fence := 3 + strings.Count(yamlText, "\n")
				fe.Line = min(se.Line+1, fence)
			}
		}
		return nil, body, true, fe
	}
	m, _ := doc.(*yaml11.Map)
	if m == nil {
		m = yaml11.NewMap(0)
	}
	return m, body, true, nil
}
