package docs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func FuzzParseMarkdown(f *testing.F) {
	for _, name := range []string{"m/includes/1-intro.md", "docs/d.md"} {
		f.Add(miniCorpus[name])
	}
	f.Add("```\n:::code source=\"x\":::\n```\n::: moniker range=\">=a-1\"\n`@a.b.c` @d.e.f [!include[](x.md)] <xref:g> [h](xref:i)\n:::")
	f.Add("``` `\n~~~~\n ``` \n#\n# #\n:::code\n::: moniker\n")
	f.Fuzz(func(t *testing.T, text string) {
		s := scanMarkdown(text)
		lines := strings.Count(text, "\n") + 1
		for _, inc := range s.includes {
			if inc.start < 0 || inc.end > len(text) || inc.start >= inc.end || !strings.HasPrefix(strings.ToLower(text[inc.start:inc.end]), "[!include[") {
				t.Fatalf("include %+v out of place", inc)
			}
		}
		for _, x := range s.xrefs {
			if x.line < 1 || x.line > lines || x.uid == "" {
				t.Fatalf("xref %+v", x)
			}
		}
		for _, p := range s.problems {
			if p.line < 1 || p.line > lines {
				t.Fatalf("problem %+v", p)
			}
		}
		if r, err := ParseMonikerRange(text); err == nil {
			r.Includes("a-1", nil)
		}
	})
}

// fuzzTargets are where FuzzLoadFile writes its input, by kind.
var fuzzTargets = []string{"m/index.yml", "m/1-intro.yml", "m/2-check.yml", "achievements.yml", "docs/d.md", "m/includes/1-intro.md", "docs.config.json", "x.yml"}

func FuzzLoadFile(f *testing.F) {
	for i, name := range fuzzTargets {
		f.Add(uint8(i), miniCorpus[name])
	}
	f.Add(uint8(7), "### YamlMime:Nodes\nnodes:\n  - {uid: t.s, label: Skill, title: S, dependsOn: [t.s]}\n")
	f.Add(uint8(7), "### YamlMime:Relations\nrelations: [{uid: t.m, certifies: [t.m]}]\n")
	f.Add(uint8(3), "### YamlMime:Achievements\nachievements:\n  - uid: a: b: c\n")
	dir := writeCorpus(f, nil)
	f.Fuzz(func(t *testing.T, kind uint8, text string) {
		name := fuzzTargets[int(kind)%len(fuzzTargets)]
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.WriteFile(path, []byte(miniCorpus[name]), 0o644)
		c, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range c.Problems {
			if p.File == "" || p.Line < 1 || p.Rule == "" || p.Message == "" {
				t.Fatalf("malformed problem %+v", p)
			}
		}
	})
}
