package mdfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFrontMatterFencesAreWholeLines(t *testing.T) {
	for _, c := range []struct {
		name, text, body string
		ok               bool
		keys             int
	}{
		{"plain", "---\nname: a\n---\nbody\n", "body\n", true, 1},
		{"closing fence ends the file", "---\nname: a\n---", "", true, 1},
		{"empty", "---\n---\nbody", "body", true, 0},
		{"no closing fence", "---\nname: a\n", "---\nname: a\n", false, 0},
		{"dashes inside a value", "---\nsummary: a --- b\n---\nbody", "body", true, 1},
		{"not at the start", "\n---\nname: a\n---\n", "\n---\nname: a\n---\n", false, 0},
		{"a rule, not a fence", "----\nname: a\n----\n", "----\nname: a\n----\n", false, 0},
		{"not a mapping", "---\n- a\n---\nbody", "body", true, 0},
	} {
		fm, body, ok, err := FrontMatter(c.text)
		if err != nil || ok != c.ok || body != c.body || fm.Len() != c.keys {
			t.Errorf("%s: fm=%v body=%q ok=%v err=%v", c.name, fm, body, ok, err)
		}
	}
	_, body, ok, err := FrontMatter("---\nname: a\ntags: [x\n---\nthe body\n")
	var fe *FrontMatterError
	if !ok || !errors.As(err, &fe) || body != "the body\n" {
		t.Fatalf("malformed: body=%q ok=%v err=%v", body, ok, err)
	}
	if fe.Line < 2 {
		t.Errorf("the error should name a line of the file: %+v", fe)
	}
}

func TestReadIsBoundedAndChecksUTF8(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.md")
	os.WriteFile(path, []byte("caf\xc3\xa9\r\nline 2\r\n"), 0o644)
	text, trunc, err := Read(path, 0)
	if err != nil || trunc || text != "café\nline 2\n" {
		t.Errorf("Read = %q %v %v", text, trunc, err)
	}
	text, trunc, err = Read(path, 4) // cuts "é" in half: it is left out
	if err != nil || !trunc || text != "caf" {
		t.Errorf("bounded Read = %q %v %v", text, trunc, err)
	}
	os.WriteFile(path, []byte("ok\nok\nbad \xff here\n"), 0o644)
	_, _, err = Read(path, 0)
	var ne *NotUTF8Error
	if !errors.As(err, &ne) || ne.Line != 3 {
		t.Errorf("not UTF-8: %v", err)
	}
}

func TestTailKeepsTheLastCodePoints(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.md")
	os.WriteFile(path, []byte(strings.Repeat("é", 100)+"end"), 0o644)
	got, err := Tail(path, 5)
	if err != nil || got != "éé"+"end" {
		t.Errorf("Tail = %q %v", got, err)
	}
	got, err = Tail(path, 1000)
	if err != nil || got != strings.Repeat("é", 100)+"end" {
		t.Errorf("Tail of a short file = %q %v", got, err)
	}
}
