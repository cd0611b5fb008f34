package docs

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

const (
	learnDir   = "../../../testdata/learn"
	overlayDir = "../../../testdata/learn-overlay"
)

// The genuine problems of the real corpus at 6de921e: four YAML plain
// values holding ": " (the v0 build's own YAML reader accepted them) and a
// doc without products.
var learnProblems = []string{
	`achievements.yml:151: schema: a plain value holds ": ", which YAML does not allow; read as a quoted string (quote the value)`,
	`achievements.yml:156: schema: a plain value holds ": ", which YAML does not allow; read as a quoted string (quote the value)`,
	`cogitave/observability-and-reliability/3-reliability-and-slos.yml:6: schema: a plain value holds ": ", which YAML does not allow; read as a quoted string (quote the value)`,
	`cogitave/operate-from-day-1/3-flow-based-ways-of-working.yml:6: schema: a plain value holds ": ", which YAML does not allow; read as a quoted string (quote the value)`,
	`docs/deployment.md:2: metadata-required: missing required key products`,
}

func labelCounts(g *graph.Graph) map[graph.Label]int {
	out := map[graph.Label]int{}
	for _, l := range graph.Labels() {
		if n := len(g.ByLabel(l.Label)); n > 0 {
			out[l.Label] = n
		}
	}
	return out
}

func edgeCounts(g *graph.Graph) map[graph.EdgeType]int {
	out := map[graph.EdgeType]int{}
	for i := range g.Len() {
		for _, a := range g.Out(graph.NodeID(i)) {
			out[a.Type]++
		}
	}
	return out
}

func TestLearnCorpus(t *testing.T) {
	c := load(t, learnDir)
	if got := problemLines(c); !slices.Equal(got, learnProblems) {
		t.Errorf("problems:%s\nwant:%s", joinLines(got), joinLines(learnProblems))
	}
	g := c.Graph
	want := map[graph.Label]int{
		graph.LearningPath: 8, graph.Module: 30, graph.Unit: 153, graph.Doc: 15, graph.Achievement: 38,
		graph.CodeSample: 4, graph.Role: 8, graph.Product: 5,
	}
	if got := labelCounts(g); !maps.Equal(got, want) {
		t.Errorf("labels %v, want %v", got, want)
	}
	// partOf: 153 units, and 30 modules in 33 path slots (three modules
	// are shared by two paths). xref: 38 badges and trophies, 4 :::code,
	// and 36 @uid citations (spec §7 counts 37 @uid and 5 <xref:>; the
	// 37th @uid and every <xref:> are examples in code).
	wantEdges := map[graph.EdgeType]int{graph.PartOf: 186, graph.Xref: 78, graph.AppliesTo: 63, graph.ForRole: 86}
	if got := edgeCounts(g); !maps.Equal(got, wantEdges) {
		t.Errorf("edges %v, want %v", got, wantEdges)
	}
	citations := 0
	for i := range g.Len() {
		for _, a := range g.Out(graph.NodeID(i)) {
			if l := g.Node(a.Node).Label; a.Type == graph.Xref && l != graph.Achievement && l != graph.CodeSample {
				citations++
			}
		}
	}
	if citations != 36 {
		t.Errorf("%d @uid citations, want 36", citations)
	}
	if got := out(t, g, "cogitave.learn.docs.authoring-guide"); slices.ContainsFunc(got, func(e string) bool { return strings.HasPrefix(e, "xref") }) {
		t.Errorf("the authoring guide's examples in code became xrefs: %v", got)
	}
	internal := 0
	for _, id := range g.ByLabel(graph.Doc) {
		if g.Node(id).Str("visibility") == "internal" {
			internal++
		}
	}
	if internal != 7 {
		t.Errorf("%d internal docs, want 7", internal)
	}
	for _, shared := range []string{"cogitave.learn.apply-the-agents-floor", "cogitave.learn.inherit-the-project-baseline", "cogitave.learn.work-the-request-lifecycle"} {
		if paths := node(t, g, shared).Strings("paths"); len(paths) != 2 {
			t.Errorf("%s is in paths %v, want two", shared, paths)
		}
	}
	if len(c.Files) != 333 {
		t.Errorf("%d files read, want 333 (config, 192 YAML, 124 includes, 15 docs, 1 snippet)", len(c.Files))
	}
}

func TestLearnCorpusNodes(t *testing.T) {
	g := load(t, learnDir).Graph

	path := node(t, g, "cogitave.learn.paths.build-on-core")
	if path.Str("href") != "/paths/build-on-core/" || path.Props["durationInMinutes"] != 99.0 || path.Str("trophy") != "cogitave.learn.paths.build-on-core.trophy" || path.Str("owner") != "cogitave/platform" {
		t.Errorf("path props %v", path.Props)
	}

	mod := node(t, g, "cogitave.learn.native-mcp-interface")
	if mod.Str("href") != "/modules/native-mcp-interface/" || mod.Str("type") != "module" || mod.Str("lastReviewed") != "2026-07-29" ||
		!strings.HasPrefix(mod.Content, "By the end of this module") || len(mod.Strings("units")) != 5 {
		t.Errorf("module %v\n%s", mod.Props, mod.Content)
	}
	if !hasEdge(g, mod.UID, graph.PartOf, path.UID) || !hasEdge(g, mod.UID, graph.Xref, "cogitave.learn.native-mcp-interface.badge") ||
		!hasEdge(g, mod.UID, graph.ForRole, "cogitave.role.developer") || !hasEdge(g, mod.UID, graph.AppliesTo, "cogitave.product.cogitave-core") {
		t.Errorf("module edges %v", out(t, g, mod.UID))
	}

	unit := node(t, g, "cogitave.learn.build-your-first-agent-with-namzu.build-an-agent")
	p := unit.Props
	if p["module"] != "cogitave.learn.build-your-first-agent-with-namzu" || p["order"] != 3.0 || p["durationInMinutes"] != 12.0 ||
		p["href"] != "/modules/build-your-first-agent-with-namzu/build-an-agent/" || !slices.Equal(unit.Strings("products"), []string{"namzu", "yuva"}) ||
		unit.Source != "cogitave/build-your-first-agent-with-namzu/3-exercise-build-an-agent.yml" {
		t.Errorf("unit props %v", p)
	}
	if !strings.Contains(unit.Content, "## 1. Install the kernel and one driver") || strings.Contains(unit.Content, "[!include") {
		t.Errorf("unit content is not the include's:\n%.300s", unit.Content)
	}
	if h := unit.Strings("headings"); len(h) == 0 || h[0] != "Before you start" {
		t.Errorf("unit headings %v", h)
	}
	id, _ := g.Lookup(unit.UID)
	for _, a := range g.Out(id) {
		if a.Type == graph.PartOf && a.Weight != 3 {
			t.Errorf("partOf weight %v, want the order 3", a.Weight)
		}
	}

	sample := node(t, g, "snippets/greeter/agent.ts#snippet_tool")
	if sample.Label != graph.CodeSample || sample.Str("language") != "typescript" || sample.Str("region") != "snippet_tool" ||
		!strings.HasPrefix(sample.Str("code"), `import { z } from "zod";`) || strings.Contains(sample.Str("code"), "</snippet_tool>") ||
		!slices.Equal(sample.Strings("products"), []string{"namzu", "yuva"}) || !hasEdge(g, unit.UID, graph.Xref, sample.UID) {
		t.Errorf("code sample %v", sample.Props)
	}

	check := node(t, g, "cogitave.learn.native-mcp-interface.knowledge-check")
	quiz, _ := check.Props["quiz"].(map[string]any)
	if qs, _ := quiz["questions"].([]any); len(qs) != 4 {
		t.Errorf("quiz %v", check.Props["quiz"])
	}

	doc := node(t, g, "cogitave.learn.docs.glossary")
	fm, _ := doc.Props["frontMatter"].(map[string]any)
	if doc.Str("type") != "reference" || doc.Str("level") != "beginner" || doc.Props["order"] != 2.0 || doc.Str("visibility") != "public" ||
		doc.Str("href") != "/docs/glossary/" || fm["lastReviewed"] != "2026-07-26" || doc.Str("monikerRange") != "" {
		t.Errorf("doc props %v", doc.Props)
	}
	if node(t, g, "cogitave.learn.docs.build-v0").Str("visibility") != "internal" {
		t.Error("build-v0 is not internal")
	}
	badge := node(t, g, "cogitave.learn.native-mcp-interface.badge")
	if badge.Str("kind") != "badge" || badge.Title() != "The native MCP interface to Core" {
		t.Errorf("badge %v", badge.Props)
	}
	if ms := g.Monikers(); len(ms) != 3 || ms[1].Name != "yuva-2.0" || !ms[1].Default {
		t.Errorf("monikers %v", ms)
	}
}

// TestRequiredProps checks every node carries the properties its label
// requires in the vocabulary, with the types the conventions promise.
func TestRequiredProps(t *testing.T) {
	g := load(t, learnDir, overlayDir).Graph
	lists := []string{"products", "roles", "levels", "subjects", "headings"}
	for i := range g.Len() {
		n := g.Node(graph.NodeID(i))
		spec, _ := graph.LookupLabel(string(n.Label))
		for _, k := range spec.Required {
			if k == "uid" {
				continue
			}
			if _, ok := n.Props[k]; !ok {
				t.Errorf("%s %s has no %s", n.Label, n.UID, k)
			}
		}
		if _, ok := n.Props["monikerRange"]; ok {
			for _, k := range lists {
				if _, ok := n.Props[k].([]any); !ok {
					t.Errorf("%s %s: %s is %T, want []any", n.Label, n.UID, k, n.Props[k])
				}
			}
		}
		if n.ContentHash == "" || (n.Source != "" && n.LastModified.IsZero()) {
			t.Errorf("%s: hash %q, modified %v", n.UID, n.ContentHash, n.LastModified)
		}
	}
}

func TestOverlay(t *testing.T) {
	c := load(t, learnDir, overlayDir)
	if got := problemLines(c); !slices.Equal(got, learnProblems) {
		t.Errorf("the overlay adds problems:%s", joinLines(got))
	}
	g := c.Graph
	for _, e := range []struct {
		from string
		typ  graph.EdgeType
		to   string
	}{
		{"cogitave.learn.paths.patterns-golden-paths", graph.DependsOn, "cogitave.learn.paths.engineering-standards"},
		{"cogitave.learn.paths.engineering-standards", graph.DependsOn, "cogitave.learn.paths.contributor-onboarding"},
		{"cogitave.learn.native-mcp-interface", graph.TeachesSkill, "cogitave.skills.use-the-mcp-interface"},
		{"cogitave.learn.native-mcp-interface.badge", graph.Certifies, "cogitave.skills.use-the-mcp-interface"},
		{"cogitave.skills.query-the-estate", graph.DependsOn, "cogitave.skills.model-an-estate"},
		{"cogitave.decisions.load-the-corpus-into-sqlite", graph.SupersededBy, "cogitave.decisions.one-immutable-graph"},
		{"cogitave.decisions.serve-the-corpus-over-mcp", graph.ImplementedBy, "cogitave.repos.bourdon-go"},
		{"cogitave.decisions.serve-the-corpus-over-mcp", graph.Xref, "cogitave.learn.native-mcp-interface"},
		{"cogitave.decisions.one-immutable-graph", graph.Xref, "cogitave.standards.docs-front-matter"},
		{"cogitave.standards.docs-front-matter", graph.AppliesTo, "cogitave.product.cogitave-core"},
		{"cogitave.learn.docs.pin-a-namzu-release", graph.Xref, "snippets/namzu/pin-release.sh#pin_v2"},
		{"cogitave.learn.docs.pin-a-namzu-release", graph.Xref, "snippets/namzu/pin-release.sh#L1-3"},
		{"cogitave.learn.docs.pin-a-namzu-release", graph.Xref, "cogitave.learn.docs.check-your-environment"},
		{"cogitave.learn.docs.yuva-2-boot-checks", graph.Xref, "cogitave.learn.docs.what-is-yuva"},
	} {
		if !hasEdge(g, e.from, e.typ, e.to) {
			t.Errorf("no edge %s -%s-> %s", e.from, e.typ, e.to)
		}
	}
	// The module prerequisites chain four deep.
	depth, uid := 0, "cogitave.learn.project-products-into-core"
	for {
		next := ""
		for _, e := range out(t, g, uid) {
			if dep, ok := strings.CutPrefix(e, "dependsOn "); ok {
				next = dep
			}
		}
		if next == "" {
			break
		}
		depth, uid = depth+1, next
	}
	if depth != 4 || uid != "cogitave.learn.apply-the-agents-floor" {
		t.Errorf("prerequisite chain %d deep to %s", depth, uid)
	}

	pin := node(t, g, "cogitave.learn.docs.pin-a-namzu-release")
	if pin.Str("monikerRange") != "namzu-1.0 || namzu-2.0" || !slices.Equal(pin.Strings("monikerBlocks"), []string{"<namzu-2.0", ">=namzu-2.0"}) {
		t.Errorf("monikers of %s: %v", pin.UID, pin.Props)
	}
	v2 := node(t, g, "snippets/namzu/pin-release.sh#pin_v2")
	if v2.Str("code") != "npm install --save-exact @namzu/sdk@2\necho \"@namzu/sdk@2\" > namzu.lock" || v2.Str("language") != "bash" {
		t.Errorf("pin_v2 %v", v2.Props)
	}
	if lang := node(t, g, "snippets/namzu/pin-release.sh#L1-3").Str("language"); lang != "bash" {
		t.Errorf("language from the extension: %q", lang)
	}
	adr := node(t, g, "cogitave.decisions.load-the-corpus-into-sqlite")
	if adr.Label != graph.ADR || adr.Str("status") != "superseded" || adr.Str("type") != "adr" || adr.Str("owner") != "bourdon/docs" || adr.Str("lastReviewed") != "2026-05-04" {
		t.Errorf("ADR %v", adr.Props)
	}
	if ms := g.Monikers(); len(ms) != 4 || ms[3].Name != "namzu-2.0" {
		t.Errorf("monikers %v", ms)
	}
}
