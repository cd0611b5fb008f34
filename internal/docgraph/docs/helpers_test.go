package docs

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// desc is a description of a valid length (75-300 characters).
const desc = "A description long enough for the metadata-required gate, which wants 75 to 300."

// miniCorpus is a small valid corpus: one path, one module with a
// content unit (prose in an include) and a knowledge check, the badge and
// trophy, a doc and a snippet.
var miniCorpus = map[string]string{
	"docs.config.json": `{"build": {
  "xref": {"uidPattern": "^t\\.[a-z0-9-]+(\\.[a-z0-9-]+)*$"},
  "monikers": {"definitions": [
    {"name": "p-1.0", "product": "p", "order": 100, "status": "stable"},
    {"name": "p-2.0", "product": "p", "order": 200, "status": "stable"}]}
}}`,
	"achievements.yml": `### YamlMime:Achievements
achievements:
  - uid: t.m.badge
    type: badge
    title: Badge
  - uid: t.paths.p.trophy
    type: trophy
    title: Trophy
`,
	"path/index.yml": `### YamlMime:LearningPath
uid: t.paths.p
metadata:
  description: ` + desc + `
title: Path
summary: A path.
modules:
  - t.m
trophy:
  uid: t.paths.p.trophy
`,
	"m/index.yml": `### YamlMime:Module
uid: t.m
metadata:
  description: ` + desc + `
title: Module
summary: A module.
abstract: |
  By the end of this module, you'll be able to read.
products:
  - p
roles:
  - developer
units:
  - t.m.intro
  - t.m.check
badge:
  uid: t.m.badge
`,
	"m/1-intro.yml": `### YamlMime:ModuleUnit
uid: t.m.intro
title: Introduction
metadata:
  description: ` + desc + `
durationInMinutes: 3
content: |
  [!include[](includes/1-intro.md)]
`,
	"m/includes/1-intro.md": "# Introduction\n\nRead @t.docs.d first.\n\n:::code language=\"go\" source=\"snippets/x.go\" id=\"hello\":::\n",
	"m/2-check.yml": `### YamlMime:ModuleUnit
uid: t.m.check
title: Knowledge check
metadata:
  description: ` + desc + `
  module_assessment: true
durationInMinutes: 2
quiz:
  title: Check
  questions:
    - content: Which?
      choices:
        - content: This one.
          isCorrect: true
          explanation: Right.
        - content: That one.
          isCorrect: false
          explanation: Wrong.
`,
	"docs/d.md": `---
uid: t.docs.d
title: A doc
description: ` + desc + `
type: how-to
owner: t/team
lastReviewed: 2026-07-01
products:
  - p
roles:
  - developer
level: beginner
---

# A doc
`,
	"snippets/x.go": "package x\n\n// <hello>\nfunc Hello() {}\n// </hello>\n",
}

// writeCorpus writes the mini corpus with the changes applied (an empty
// text deletes the file) into a temporary root.
func writeCorpus(t testing.TB, changes map[string]string) string {
	t.Helper()
	files := maps.Clone(miniCorpus)
	for name, text := range changes {
		if text == "" {
			delete(files, name)
		} else {
			files[name] = text
		}
	}
	dir := t.TempDir()
	for name, text := range files {
		writeFile(t, filepath.Join(dir, name), text)
	}
	return dir
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// load loads roots, failing the test on an error.
func load(t testing.TB, dirs ...string) *Corpus {
	t.Helper()
	c, err := Load(dirs...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// problemLines returns the corpus's problems as strings.
func problemLines(c *Corpus) []string {
	out := []string{}
	for _, p := range c.Problems {
		out = append(out, p.String())
	}
	return out
}

// node returns the node with the uid, failing the test when there is none.
func node(t testing.TB, g *graph.Graph, uid string) *graph.Node {
	t.Helper()
	id, ok := g.Lookup(uid)
	if !ok {
		t.Fatalf("no node %s", uid)
	}
	return g.Node(id)
}

// out returns "type target" for every edge leaving uid.
func out(t testing.TB, g *graph.Graph, uid string) []string {
	t.Helper()
	id, ok := g.Lookup(uid)
	if !ok {
		t.Fatalf("no node %s", uid)
	}
	var edges []string
	for _, a := range g.Out(id) {
		edges = append(edges, string(a.Type)+" "+g.Node(a.Node).UID)
	}
	return edges
}

// hasEdge reports whether the edge from -typ-> to exists.
func hasEdge(g *graph.Graph, from string, typ graph.EdgeType, to string) bool {
	f, ok1 := g.Lookup(from)
	d, ok2 := g.Lookup(to)
	if !ok1 || !ok2 {
		return false
	}
	for _, a := range g.Out(f) {
		if a.Node == d && a.Type == typ {
			return true
		}
	}
	return false
}

// joinLines joins lines for failure messages.
func joinLines(ss []string) string { return "\n" + strings.Join(ss, "\n") }
