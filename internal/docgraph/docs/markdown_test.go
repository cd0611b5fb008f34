package docs

import (
	"reflect"
	"strings"
	"testing"
)

func TestScanMarkdown(t *testing.T) {
	text := strings.Join([]string{
		"# Title #", // 1
		"See @a.b.c, <xref:d.e.f?displayProperty=name> and [g](xref:g.h.i \"G\").", // 2
		"Not `@x.y.z` nor ``<xref:x.y.z>``, not mail@j.k.l, not @two.parts.",       // 3
		"```md",                             // 4
		"@in.fence.here [!include[](x.md)]", // 5
		":::code source=\"in/fence\":::",    // 6
		"````",                              // 7 (a longer fence closes a shorter one)
		"## After the fence",                // 8
		"[!INCLUDE[title](inc/a.md)] and `[!include[](no.md)]`",    // 9
		"  :::code language=\"go\" source=\"s/x.go\" id=\"r\" :::", // 10
		"::: moniker range=\">=p-2.0\"",                            // 11
		"New.",                                                     // 12
		":::moniker-end",                                           // 13
		"::: moniker range=\"p-1.0\"",                              // 14
		":::zone pivot=\"go\"",                                     // 15
		":::zone-end",                                              // 16
		":::",                                                      // 17
		"~~~",                                                      // 18
		"@never.closed.fence",                                      // 19
	}, "\n")
	s := scanMarkdown(text)
	if want := []string{"Title", "After the fence"}; !reflect.DeepEqual(s.headings, want) {
		t.Errorf("headings %q, want %q", s.headings, want)
	}
	if want := []mdXref{{"a.b.c", 2}, {"d.e.f", 2}, {"g.h.i", 2}}; !reflect.DeepEqual(s.xrefs, want) {
		t.Errorf("xrefs %v, want %v", s.xrefs, want)
	}
	if len(s.includes) != 1 || s.includes[0].path != "inc/a.md" || s.includes[0].line != 9 ||
		text[s.includes[0].start:s.includes[0].end] != "[!INCLUDE[title](inc/a.md)]" {
		t.Errorf("includes %+v", s.includes)
	}
	if want := []mdCode{{map[string]string{"language": "go", "source": "s/x.go", "id": "r"}, 10}}; !reflect.DeepEqual(s.codes, want) {
		t.Errorf("codes %v, want %v", s.codes, want)
	}
	if want := []mdMoniker{{">=p-2.0", 11}, {"p-1.0", 14}}; !reflect.DeepEqual(s.monikers, want) {
		t.Errorf("monikers %v, want %v", s.monikers, want)
	}
	if len(s.problems) != 0 {
		t.Errorf("problems %v", s.problems)
	}
}

func TestCodeSpans(t *testing.T) {
	for line, want := range map[string][][2]int{
		"a `b` c":         {{2, 5}},
		"``a ` b`` `c`":   {{0, 9}, {10, 13}},
		"unclosed ` tick": nil,
		"```x`` y```":     {{0, 11}},
	} {
		if got := codeSpans(line); !reflect.DeepEqual(got, want) {
			t.Errorf("codeSpans(%q) = %v, want %v", line, got, want)
		}
	}
}

func TestSplitFrontMatter(t *testing.T) {
	fm, body, base, ok := splitFrontMatter("---\na: 1\nb: 2\n---\n\n# Body\n")
	if !ok || fm != "a: 1\nb: 2\n" || body != "\n# Body\n" || base != 4 {
		t.Errorf("%q %q %d %v", fm, body, base, ok)
	}
	if _, _, _, ok := splitFrontMatter("---\na: 1\n"); ok {
		t.Error("an unclosed front matter split")
	}
	if fm, body, _, ok := splitFrontMatter("---\n---"); !ok || fm != "" || body != "" {
		t.Errorf("empty front matter: %q %q %v", fm, body, ok)
	}
}

func TestIncludes(t *testing.T) {
	dir := writeCorpus(t, map[string]string{
		"m/1-intro.yml":             strings.Replace(miniCorpus["m/1-intro.yml"], "content: |\n  [!include[](includes/1-intro.md)]\n", "content: |\n  Before.\n  [!include[](includes/1-intro.md)]\n  After.\n", 1),
		"m/includes/1-intro.md":     "# Intro\n\nInline [!include[](shared/part.md)] here.\n\nRead @t.docs.d.\n",
		"m/includes/shared/part.md": "the *part* citing @t.m.badge\n",
		"docs/with-include.md":      strings.Replace(miniCorpus["docs/d.md"], "uid: t.docs.d", "uid: t.docs.w", 1) + "\n[!include[](../m/includes/shared/part.md)]\n",
	})
	c := load(t, dir)
	if len(c.Problems) > 0 {
		t.Fatalf("problems:%s", joinLines(problemLines(c)))
	}
	u := node(t, c.Graph, "t.m.intro")
	if want := "Before.\n# Intro\n\nInline the *part* citing @t.m.badge here.\n\nRead @t.docs.d.\nAfter.\n"; u.Content != want {
		t.Errorf("content %q, want %q", u.Content, want)
	}
	if !hasEdge(c.Graph, "t.m.intro", "xref", "t.m.badge") || !hasEdge(c.Graph, "t.docs.w", "xref", "t.m.badge") {
		t.Errorf("an included file's xref made no edge: %v, %v", out(t, c.Graph, "t.m.intro"), out(t, c.Graph, "t.docs.w"))
	}
}

func TestSnippets(t *testing.T) {
	src := strings.Join([]string{
		"-- <q>",
		"  SELECT 1;",
		"  # <inner>",
		"    -- nested",
		"  # </inner>",
		"-- </q>",
		"//<open>",
		"x",
	}, "\n")
	if got, err := snippetRegion(src, "q"); err != nil || got != "SELECT 1;\n  -- nested" {
		t.Errorf("region q: %q %v", got, err)
	}
	if _, err := snippetRegion(src, "open"); err == nil || err.Error() != `region "open" is not closed (want a </open> marker)` {
		t.Errorf("unclosed: %v", err)
	}
	if got, err := snippetRange(src, "2, 7-8"); err != nil || got != "  SELECT 1;\n//<open>\nx" {
		t.Errorf("range: %q %v", got, err)
	}
	for _, bad := range []string{"0", "3-2", "x", "9", ""} {
		if _, err := snippetRange(src, bad); err == nil {
			t.Errorf("range %q resolved", bad)
		}
	}
	if got := codeSampleUID("snippets/a b.ts", "", "1, 3-5"); got != "snippets/a-b.ts#L1_L3-5" {
		t.Errorf("uid %q", got)
	}
}
