package docs

import (
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// nodeLabels are the labels a Nodes file may declare: those with no
// format of their own and no required property beyond uid and title.
var nodeLabels = []graph.Label{
	graph.Skill, graph.Standard, graph.Pattern, graph.Repo, graph.Service,
	graph.Team, graph.Org, graph.Decision, graph.InfraResource, graph.Article,
}

// edgeShape has a key of uid lists for every edge type of the vocabulary.
func edgeShape(base fields) fields {
	out := fields{}
	for k, v := range base {
		out[k] = v
	}
	for _, e := range graph.Edges() {
		out[string(e.Type)] = kStrings
	}
	return out
}

var (
	nodeShape     = edgeShape(fields{"uid": kString, "label": kString, "title": kString, "summary": kString, "products": kStrings, "roles": kStrings})
	relationShape = edgeShape(fields{"uid": kString})
)

// entries checks that key of the file's top level is a list of mappings
// and returns them.
func (y *yamlFile) entries(key string) []*yaml.Node {
	checkShape(y.doc, fields{key: kList}, false, "", y.bad)
	items := value(y.doc, key)
	if items == nil || items.Kind != yaml.SequenceNode {
		y.require(y.doc, key)
		return nil
	}
	var out []*yaml.Node
	for _, it := range items.Content {
		if it.Kind != yaml.MappingNode {
			y.bad(it.Line, RuleSchema, "an entry of %s: want a mapping, got %s", key, describe(it))
			continue
		}
		out = append(out, it)
	}
	return out
}

// allEdges lists the edge types of the vocabulary.
func allEdges() []graph.EdgeType {
	var out []graph.EdgeType
	for _, e := range graph.Edges() {
		out = append(out, e.Type)
	}
	return out
}

// loadNodes loads a Nodes file: nodes of the labels in nodeLabels, each
// with uid, label, title, summary?, products?, roles? and a list of uids
// for any edge type (edges from the node).
func (l *loader) loadNodes(y *yamlFile) {
	for _, it := range y.entries("nodes") {
		checkShape(it, nodeShape, false, "", y.bad)
		y.require(it, "uid", "label", "title")
		label := graph.Label(str(it, "label"))
		if label != "" && !slices.Contains(nodeLabels, label) {
			y.bad(keyLine(it, "label"), RuleSchema, "label %q cannot be declared in a Nodes file (want one of %v)", label, nodeLabels)
			continue
		}
		uid := str(it, "uid")
		if uid == "" || label == "" {
			continue
		}
		r := l.newRecord(y.place(keyLine(it, "uid")), label, uid, true, y.f.mod)
		r.node.Props = map[string]any{
			"title": str(it, "title"), "summary": str(it, "summary"),
			"products": strs(it, "products"), "roles": strs(it, "roles"),
		}
		y.edges(r, it, allEdges()...)
	}
}

// loadRelations loads a Relations file: edges from nodes defined
// elsewhere, each entry a uid and a list of uids per edge type.
func (l *loader) loadRelations(y *yamlFile) {
	for _, it := range y.entries("relations") {
		checkShape(it, relationShape, false, "", y.bad)
		y.require(it, "uid")
		from := str(it, "uid")
		if from == "" {
			continue
		}
		for _, t := range allEdges() {
			for _, n := range list(it, string(t)) {
				l.relations = append(l.relations, ref{from: from, to: n.Value, typ: t, want: wantOf[t], rule: RuleBrokenXref, at: y.place(n.Line)})
			}
		}
	}
}
