package docs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLoadErrors(t *testing.T) {
	if _, err := Load(); err == nil {
		t.Error("Load() without roots succeeded")
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing root loaded")
	}
	file := filepath.Join(t.TempDir(), "f")
	writeFile(t, file, "x")
	if _, err := Load(file); err == nil {
		t.Error("a file loaded as a root")
	}
}

func TestHostileInput(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.md")
	writeFile(t, outside, "secret @t.secret.uid\n")
	laughs := "### YamlMime:Nodes\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
	deep := "### YamlMime:Module\nuid: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n"
	chain := map[string]string{}
	for i := range 10 {
		chain["m/includes/chain"+string(rune('0'+i))+".md"] = "[!include[](chain" + string(rune('1'+i)) + ".md)]\n"
	}
	dir := writeCorpus(t, with(chain, map[string]string{
		"bomb.yml":              laughs,
		"deep.yml":              deep,
		"garbage.yml":           "### YamlMime:Module\n\x00\x01\x02",
		"docs/garbage.md":       "\xff\xfe---\n",
		"m/includes/1-intro.md": "# Intro\n\n[!include[](escape.md)]\n\n:::code source=\"snippets/escape.go\":::\n",
	}))
	// Odd YAML values in front matter, and ten nested includes.
	numbers := strings.NewReplacer("uid: t.docs.d", "uid: t.docs.numbers", "level: beginner\n", "level: beginner\norder: .inf\nodd: .nan\n? [complex]\n: key\n").Replace(miniCorpus["docs/d.md"])
	writeFile(t, filepath.Join(dir, "docs/numbers.md"), numbers+"\n[!include[](../m/includes/chain0.md)]\n\n[!include[](../m/includes/bomb.md)]\n")
	// An include bomb: a 256 KiB file included 16 times by a file
	// included 16 times.
	writeFile(t, filepath.Join(dir, "m/includes/bomb.md"), strings.Repeat("[!include[](bomb2.md)]\n", 16))
	writeFile(t, filepath.Join(dir, "m/includes/bomb2.md"), strings.Repeat("[!include[](bomb3.md)]\n", 16))
	writeFile(t, filepath.Join(dir, "m/includes/bomb3.md"), strings.Repeat("padding\n", 1<<15))
	for _, link := range []string{"m/includes/escape.md", "snippets/escape.go", "docs/linked.md"} {
		if err := os.Symlink(outside, filepath.Join(dir, link)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	big, err := os.Create(filepath.Join(dir, "big.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	big.Close()

	c := load(t, dir)
	want := []string{
		`big.yml:1: schema: cannot read: file is 8388609 bytes, more than the 8388608-byte limit`,
		`bomb.yml:2: schema: YAML anchors and aliases are not supported`,
		`deep.yml:2: schema: exceeded max depth of 10000`,
		`docs/garbage.md:1: schema: cannot read: not UTF-8 text`,
		`garbage.yml:1: schema: cannot read: not UTF-8 text`,
		`m/includes/1-intro.md:3: broken-link: include "escape.md": path escapes from parent`,
		`m/includes/1-intro.md:5: code-snippet-resolves: source "snippets/escape.go": path escapes from parent`,
		`m/includes/bomb2.md:5: broken-link: include "bomb3.md": includes add more than four times the corpus's text; this and later includes are skipped`,
		`m/includes/chain7.md:1: broken-link: include "chain8.md" nests deeper than 8 includes`,
	}
	if got := problemLines(c); !slices.Equal(got, want) {
		t.Errorf("problems:%s\nwant:%s", joinLines(got), joinLines(want))
	}
	for file := range c.Files {
		if !strings.HasPrefix(file, dir) {
			t.Errorf("read %s, outside the root", file)
		}
	}
	n := node(t, c.Graph, "t.docs.numbers")
	if fm := n.Props["frontMatter"].(map[string]any); fm["order"] != ".inf" || fm["odd"] != ".nan" {
		t.Errorf("front matter %v", fm)
	}
	if _, ok := n.Props["order"]; ok {
		t.Error("an infinite order became a number")
	}
}
