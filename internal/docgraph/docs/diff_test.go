package docs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	dir := writeCorpus(t, nil)
	before := load(t, dir).Graph
	if c, a, r := Diff(before, load(t, dir).Graph); c != nil || a != nil || r != nil {
		t.Fatalf("reloading changed %v %v %v", c, a, r)
	}
	// Edit an include (its unit changes), drop the doc (and the xref to
	// it breaks), add a node.
	writeFile(t, filepath.Join(dir, "m/includes/1-intro.md"), strings.Replace(miniCorpus["m/includes/1-intro.md"], "first", "second", 1))
	if err := os.Remove(filepath.Join(dir, "docs/d.md")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "skills.yml"), "### YamlMime:Nodes\nnodes:\n  - {uid: t.skills.read, label: Skill, title: Read}\n")
	after := load(t, dir).Graph
	changed, added, removed := Diff(before, after)
	if !slices.Equal(changed, []string{"t.m.intro"}) || !slices.Equal(added, []string{"t.skills.read"}) ||
		!slices.Equal(removed, []string{"t.docs.d"}) {
		t.Errorf("changed %v, added %v, removed %v", changed, added, removed)
	}
	if _, added, _ := Diff(nil, after); len(added) != after.Len() {
		t.Errorf("from nil: %d added of %d", len(added), after.Len())
	}
}
