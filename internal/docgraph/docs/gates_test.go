package docs

import (
	"slices"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// edit returns the change to a mini corpus file that replaces each old
// text of the pairs (old, new, old, new…) with its new one.
func edit(t *testing.T, name string, pairs ...string) map[string]string {
	t.Helper()
	text := miniCorpus[name]
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(text, pairs[i]) {
			t.Fatalf("%s has no %q", name, pairs[i])
		}
		text = strings.Replace(text, pairs[i], pairs[i+1], 1)
	}
	return map[string]string{name: text}
}

// with merges changes.
func with(changes ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, c := range changes {
		for k, v := range c {
			out[k] = v
		}
	}
	return out
}

func TestMiniCorpusIsValid(t *testing.T) {
	c := load(t, writeCorpus(t, nil))
	if len(c.Problems) > 0 {
		t.Fatalf("problems:%s", joinLines(problemLines(c)))
	}
}

func TestGates(t *testing.T) {
	const adr = "---\nuid: t.adr.a\ntitle: An ADR\nstatus: superseded\ndate: 2026-01-01\n---\n\n# An ADR\n"
	tests := []struct {
		name    string
		changes map[string]string
		want    []string
	}{
		{"schema: unknown YamlMime type", map[string]string{"toc.yml": "### YamlMime:Toc\nitems: []\n"}, []string{
			`toc.yml:1: schema: unknown YamlMime type "Toc" (want LearningPath, Module, ModuleUnit, Achievements, Nodes or Relations)`,
		}},
		{"schema: unknown key and wrong type", with(
			edit(t, "m/index.yml", "title: Module\n", "title: Module\ncolour: red\n"),
			edit(t, "m/1-intro.yml", "durationInMinutes: 3", "durationInMinutes: three"),
		), []string{
			`m/1-intro.yml:6: schema: durationInMinutes: want a number, got "three"`,
			`m/index.yml:6: schema: unknown key colour`,
		}},
		{"schema: YAML syntax", map[string]string{"bad.yml": "### YamlMime:Module\nuid: [t.x\n"}, []string{
			`bad.yml:2: schema: did not find expected ',' or ']'`,
		}},
		{"schema: plain value with colon is repaired", edit(t, "m/index.yml", "summary: A module.", "summary: A module: the one."), []string{
			`m/index.yml:6: schema: a plain value holds ": ", which YAML does not allow; read as a quoted string (quote the value)`,
		}},
		{"schema: aliases", map[string]string{"a.yml": "### YamlMime:Nodes\nnodes:\n  - &x {uid: t.s, label: Skill, title: S}\n  - *x\n"}, []string{
			`a.yml:3: schema: YAML anchors and aliases are not supported`,
		}},
		{"schema: doc without front matter", map[string]string{"docs/e.md": "# No front matter\n"}, []string{
			`docs/e.md:1: schema: no front matter (want a leading --- block)`,
		}},
		{"schema: monikers", edit(t, "docs/d.md", "# A doc\n", "# A doc\n\n::: moniker range=\">=p-3.0\"\nNew.\n:::\n\n::: moniker range=\"p-1.0 ||\"\nOld.\n:::\n\n::: moniker range=\"p-2.0\"\nOpen.\n"), []string{
			`docs/d.md:17: schema: moniker range ">=p-3.0" names unknown moniker p-3.0`,
			`docs/d.md:21: schema: moniker range "p-1.0 ||": an alternative of || is empty`,
			`docs/d.md:25: schema: moniker block is not closed (want ::: or :::moniker-end)`,
		}},
		{"metadata-required: unit description", edit(t, "m/1-intro.yml", "description: "+desc, "description: Short."), []string{
			`m/1-intro.yml:5: metadata-required: metadata.description is 6 characters; want 75-300`,
		}},
		{"metadata-required: module", edit(t, "m/index.yml", "badge:\n  uid: t.m.badge\n", ""), []string{
			`m/index.yml:2: metadata-required: missing required key badge.uid`,
		}},
		{"metadata-required: doc", edit(t, "docs/d.md", "owner: t/team\n", "", "type: how-to", "type: essay", "lastReviewed: 2026-07-01", "lastReviewed: last week", "level: beginner\n", "level: beginner\nlevel: expert\n"), []string{
			`docs/d.md:2: metadata-required: missing required key owner`,
			`docs/d.md:5: metadata-required: type is "essay"; want one of tutorial, how-to, reference, explanation`,
			`docs/d.md:6: metadata-required: lastReviewed "last week" is not an ISO-8601 date`,
			`docs/d.md:12: schema: duplicate key level (the first is used)`,
		}},
		{"metadata-required: ADR", map[string]string{"docs/decisions/0001-a.md": adr}, []string{
			`docs/decisions/0001-a.md:4: metadata-required: status is superseded but supersededBy is missing`,
		}},
		{"broken-xref", edit(t, "m/includes/1-intro.md", "Read @t.docs.d first.", "Read @t.docs.d, @t.no.such, [that](xref:t.no.link) and <xref:t.no.tag?displayProperty=name>; not `@t.in.code` or me@t.example.org; [empty](xref:?x)."), []string{
			`m/includes/1-intro.md:3: broken-xref: xref "xref:?x" names no uid`,
			`m/includes/1-intro.md:3: broken-xref: xref t.no.link does not resolve`,
			`m/includes/1-intro.md:3: broken-xref: xref t.no.such does not resolve`,
			`m/includes/1-intro.md:3: broken-xref: xref t.no.tag does not resolve`,
		}},
		{"broken-link: missing include", edit(t, "m/1-intro.yml", "includes/1-intro.md", "includes/nope.md"), []string{
			`m/1-intro.yml:8: broken-link: include "includes/nope.md": file does not exist`,
		}},
		{"broken-link: escape and cycle", map[string]string{
			"m/includes/1-intro.md": "# Intro\n\n[!include[](../../../outside.md)]\n\n[!include[](loop.md)]\n",
			"m/includes/loop.md":    "Loop.\n\n[!include[](1-intro.md)]\n",
		}, []string{
			`m/includes/1-intro.md:3: broken-link: include "../../../outside.md" is not a relative path inside the corpus root`,
			`m/includes/loop.md:3: broken-link: include "1-intro.md" forms a cycle: m/1-intro.yml -> m/includes/1-intro.md -> m/includes/loop.md -> m/includes/1-intro.md`,
		}},
		{"code-snippet-resolves", edit(t, "m/includes/1-intro.md", ":::code language=\"go\" source=\"snippets/x.go\" id=\"hello\":::\n",
			":::code source=\"snippets/x.go\" id=\"bye\":::\n:::code source=\"snippets/x.go\" id=\"hello\" range=\"1\":::\n:::code source=\"../x.go\":::\n:::code source=\"snippets/x.go\" range=\"2-9\":::\n:::code source=\"snippets/none.go\":::\n:::code id=\"hello\":::\n:::code source=\"snippets/x.go\"\n"), []string{
			`m/includes/1-intro.md:5: code-snippet-resolves: source "snippets/x.go": no region "bye"`,
			`m/includes/1-intro.md:6: code-snippet-resolves: :::code names both id and range; they are mutually exclusive`,
			`m/includes/1-intro.md:7: code-snippet-resolves: source "../x.go" is not a relative path inside the corpus root`,
			`m/includes/1-intro.md:8: code-snippet-resolves: source "snippets/x.go": range "2-9": line 9 is past the end of the file (5 lines)`,
			`m/includes/1-intro.md:9: code-snippet-resolves: source "snippets/none.go": file does not exist`,
			`m/includes/1-intro.md:10: code-snippet-resolves: :::code has no source`,
			`m/includes/1-intro.md:11: code-snippet-resolves: malformed :::code directive (want :::code source="…" …:::)`,
		}},
		{"quiz-shape", edit(t, "m/2-check.yml", "          isCorrect: false\n          explanation: Wrong.\n", "          isCorrect: true\n    - content: Lonely?\n      choices:\n        - content: Yes.\n          isCorrect: true\n          explanation: Alone.\n"), []string{
			`m/2-check.yml:11: quiz-shape: question 1 has 2 correct choices; want exactly 1`,
			`m/2-check.yml:16: quiz-shape: question 1, choice 2 has no explanation`,
			`m/2-check.yml:18: quiz-shape: question 2 has 1 choice(s); want at least 2`,
		}},
		{"achievement-resolves", with(
			edit(t, "m/index.yml", "uid: t.m.badge", "uid: t.m.medal"),
			edit(t, "path/index.yml", "uid: t.paths.p.trophy", "uid: t.m"),
		), []string{
			`m/index.yml:17: achievement-resolves: badge t.m.medal does not resolve`,
			`path/index.yml:10: achievement-resolves: trophy t.m is labelled Module, not Achievement`,
		}},
		{"unit-membership", with(
			edit(t, "m/index.yml", "  - t.m.check\n", "  - t.m.intro\n  - t.m.gone\n"),
			edit(t, "path/index.yml", "  - t.m\n", "  - t.m\n  - t.m.intro\n  - t.m\n"),
		), []string{
			`m/2-check.yml:2: unit-membership: unit t.m.check is not listed by any module`,
			`m/index.yml:15: unit-membership: unit t.m.intro is already listed by module t.m`,
			`m/index.yml:16: unit-membership: unit t.m.gone does not resolve`,
			`path/index.yml:9: unit-membership: t.m.intro is labelled Unit, not Module`,
			`path/index.yml:10: unit-membership: module t.m is already listed by this path`,
		}},
		{"duplicate-uid", map[string]string{"docs/e.md": miniCorpus["docs/d.md"]}, []string{
			`docs/e.md:2: duplicate-uid: uid t.docs.d is already defined at docs/d.md:2`,
		}},
		{"uid-pattern", edit(t, "docs/d.md", "uid: t.docs.d", "uid: T.Docs.D"), []string{
			`docs/d.md:2: uid-pattern: uid T.Docs.D does not match ^t\.[a-z0-9-]+(\.[a-z0-9-]+)*$`,
			`m/includes/1-intro.md:3: broken-xref: xref t.docs.d does not resolve`,
		}},
		{"dependency-cycle", map[string]string{"skills.yml": "### YamlMime:Nodes\nnodes:\n  - {uid: t.s.a, label: Skill, title: A, dependsOn: [t.s.b]}\n  - {uid: t.s.b, label: Skill, title: B, dependsOn: [t.s.c]}\n  - {uid: t.s.c, label: Skill, title: C, dependsOn: [t.s.a]}\n"}, []string{
			`skills.yml:5: dependency-cycle: dependsOn t.s.a closes a cycle: t.s.a -> t.s.b -> t.s.c -> t.s.a`,
		}},
		{"overlay relations", map[string]string{"rel.yml": "### YamlMime:Relations\nrelations:\n  - uid: t.m\n    teachesSkill: [t.m.badge]\n    colour: [red]\n  - uid: t.ghost\n    dependsOn: [t.m]\n"}, []string{
			`rel.yml:4: broken-xref: teachesSkill t.m.badge is labelled Achievement, not Skill`,
			`rel.yml:5: schema: unknown key colour`,
			`rel.yml:7: broken-xref: relation source t.ghost does not resolve`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := problemLines(load(t, writeCorpus(t, tt.changes)))
			if !slices.Equal(got, tt.want) {
				t.Errorf("got:%s\nwant:%s", joinLines(got), joinLines(tt.want))
			}
		})
	}
}

// TestInlineEdges covers the edge keys learn-pr files may carry and an
// ADR recognised by its type outside docs/decisions/.
func TestInlineEdges(t *testing.T) {
	dir := writeCorpus(t, with(
		edit(t, "m/index.yml", "badge:\n", "teachesSkill:\n  - t.skills.read\ndependsOn:\n  - t.m0\nbadge:\n"),
		edit(t, "achievements.yml", "    title: Badge\n", "    title: Badge\n    certifies: [t.skills.read]\n"),
		map[string]string{
			"skills.yml":   "### YamlMime:Nodes\nnodes:\n  - {uid: t.skills.read, label: Skill, title: Read}\n  - {uid: t.m0, label: Standard, title: Zero}\n",
			"docs/adr.md":  "---\nuid: t.adr.x\ntitle: X\ntype: adr\nstatus: accepted\ndate: 2026-01-02T10:00:00Z\nimplementedBy: [t.m0]\n---\n\n# X\n",
			"docs/self.md": strings.Replace(miniCorpus["docs/d.md"], "uid: t.docs.d", "uid: t.docs.self", 1) + "\nSee @t.docs.self.\n",
		},
	))
	c := load(t, dir)
	if len(c.Problems) > 0 {
		t.Fatalf("problems:%s", joinLines(problemLines(c)))
	}
	g := c.Graph
	for _, e := range [][3]string{
		{"t.m", "teachesSkill", "t.skills.read"},
		{"t.m", "dependsOn", "t.m0"},
		{"t.m.badge", "certifies", "t.skills.read"},
		{"t.adr.x", "implementedBy", "t.m0"},
	} {
		if !hasEdge(g, e[0], graph.EdgeType(e[1]), e[2]) {
			t.Errorf("no edge %v", e)
		}
	}
	if n := node(t, g, "t.adr.x"); n.Label != graph.ADR || n.Str("href") != "/docs/adr/" {
		t.Errorf("ADR by type: %s %v", n.Label, n.Props)
	}
	if got := out(t, g, "t.docs.self"); slices.Contains(got, "xref t.docs.self") {
		t.Errorf("a self-citation made an edge: %v", got)
	}
}
