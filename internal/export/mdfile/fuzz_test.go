package mdfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// mdSeeds are Markdown files of the stores' kinds: convention memory
// files, Claude Code notes, brain overviews and logs, automation memory.
var mdSeeds = []string{
	"---\nname: Refund retries\ndescription: Refunds double-post on timeouts.\ntype: project\ntags: [billing]\n---\n\nBody.\n",
	"---\r\nname: Windows note\r\ndescription: CRLF line ends.\r\n---\r\nbody\r\n",
	"---\nname: Broken note\ntags: [unclosed\n---\n# Ledger outbox — design\n\nThe outbox.\n",
	"---\nentities:\n  - name: Payments API\n    type: project\n    summary: \"Carte des tuiles,\\n  200 Mo ☕\"\n    tags: [project, active]\n    last_touched: 2026-11-01\nsessions:\n  - date: 2026-11-03\n    key_actions: [Reviewed]\n---\n# Notes\n",
	"---\nname: a\n---", "---\n---\nbody", "---\n- a\n---\nbody", "---\nsummary: a --- b\n---\nbody",
	"# Atlas — carte des tuiles ☕\n\n## Status: Archived (2026-04-14)\n",
	"2026-11-20\n- Triaged 4 issues\n- runtime: 4m\n2026-13-40\n- bad date\n",
	"---\nname: Caf\xe9\n---\nnot UTF-8\n", "caf\xc3\xa9\r\nline 2\r\n", "\ufeff---\nname: bom\n---\n",
	"---\na: &x [1, *x]\n---\n", "---\n" + strings.Repeat("- [", 50) + "\n---\n", "---\nk: !!binary aGVsbG8=\n---\n",
}

// FuzzFrontMatter splits random text: whatever it holds, the body is the
// text itself (no front matter) or a suffix of it after a closing fence,
// a parsed front matter is a mapping, and a broken one names a line of
// the text.
func FuzzFrontMatter(f *testing.F) {
	for _, s := range mdSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		fm, body, ok, err := FrontMatter(text)
		if !ok {
			if err != nil || body != text || fm != nil {
				t.Fatalf("no front matter: fm=%v body=%q err=%v", fm, body, err)
			}
			return
		}
		if !strings.HasSuffix(text, body) || len(body) >= len(text) {
			t.Fatalf("body %q is not what follows the front matter of %q", body, text)
		}
		var fe *FrontMatterError
		switch {
		case errors.As(err, &fe):
			if fm != nil || fe.Line < 0 || fe.Line > strings.Count(text, "\n")+1 {
				t.Fatalf("malformed: fm=%v line %d of %q", fm, fe.Line, text)
			}
		case err != nil:
			t.Fatalf("an error that is not a FrontMatterError: %v", err)
		case fm == nil:
			t.Fatal("front matter without a mapping")
		}
	})
}

// FuzzRead reads random bytes as a Markdown file, bounded and whole, and
// its tail: text that is not UTF-8 is a *NotUTF8Error naming a line of
// the file; otherwise the text is UTF-8, CRLF read as LF, and the bounded
// read is a prefix of the whole text, within the bound; the tail is a
// suffix of it with at most the runes asked for.
func FuzzRead(f *testing.F) {
	for _, s := range mdSeeds {
		f.Add([]byte(s), uint16(16))
		f.Add([]byte(s), uint16(1000))
	}
	f.Fuzz(func(t *testing.T, data []byte, bound uint16) {
		max := int(bound%2048) + 1
		path := filepath.Join(t.TempDir(), "memory.md")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		whole, wholeCut, err := Read(path, len(data)+1)
		var ne *NotUTF8Error
		if errors.As(err, &ne) {
			if utf8.Valid(data) || ne.Line < 1 || ne.Line > strings.Count(string(data), "\n")+1 {
				t.Fatalf("NotUTF8Error line %d for %q", ne.Line, data)
			}
		} else if err != nil {
			t.Fatal(err)
		} else if wholeCut || !utf8.ValidString(whole) || whole != strings.ReplaceAll(string(data), "\r\n", "\n") {
			t.Fatalf("whole read %q (cut %v) of %q", whole, wholeCut, data)
		}

		part, cut, err := Read(path, max)
		if errors.As(err, &ne) {
			if utf8.Valid(data[:min(len(data), max)]) {
				t.Fatalf("bounded read of valid text refused: %v", err)
			}
		} else if err != nil {
			t.Fatal(err)
		} else {
			if !utf8.ValidString(part) || len(part) > max || cut != (len(data) > max) {
				t.Fatalf("bounded read %q (cut %v) of %d bytes, bound %d", part, cut, len(data), max)
			}
			if whole != "" && !strings.HasPrefix(whole, strings.TrimSuffix(part, "\r")) {
				t.Fatalf("bounded read %q is not a prefix of %q", part, whole)
			}
		}

		tail, err := Tail(path, max)
		if errors.As(err, &ne) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.ValidString(tail) || utf8.RuneCountInString(tail) > max {
			t.Fatalf("tail %q of %q, %d runes asked", tail, data, max)
		}
		if whole != "" && !strings.HasSuffix(whole, tail) && !strings.HasSuffix(whole, strings.TrimPrefix(tail, "\n")) {
			t.Fatalf("tail %q is not a suffix of %q", tail, whole)
		}
	})
}
