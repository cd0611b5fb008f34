package docs

import (
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// record is a node being loaded, with the references it makes. Linking
// turns references into edges once every file is read.
type record struct {
	node graph.Node
	at   place // where the uid is written
	// authored is set when the uid is written in the file (and so is
	// checked against uidPattern) rather than derived.
	authored bool
	refs     []ref
	// lists are the units[] of a module or the modules[] of a path.
	lists    []listing
	codes    []codeUse
	monikers []monikerUse
	headings []any
	// module is the uid of the module that lists a unit.
	module string
}

// ref is a uid reference: an edge from its record (or from the from uid,
// for an overlay relation) to the uid, added once the uid resolves.
type ref struct {
	from   string
	to     string
	typ    graph.EdgeType
	weight float32
	// want is the label the target must have, or "" for any.
	want graph.Label
	rule string
	// what names the reference in messages; "" means the edge type.
	what string
	at   place
}

// listing is one entry of a module's units[] or a path's modules[].
type listing struct {
	uid   string
	want  graph.Label
	order int
	at    place
}

// codeUse is a :::code directive of a record.
type codeUse struct {
	attrs map[string]string
	at    place
}

// monikerUse is a moniker range a record declares.
type monikerUse struct {
	rng string
	at  place
}

// newRecord starts a record of a node from a file.
func (l *loader) newRecord(at place, label graph.Label, uid string, authored bool, mod time.Time) *record {
	r := &record{
		node:     graph.Node{UID: uid, Label: label, Props: map[string]any{}, LastModified: mod, Source: at.file},
		at:       at,
		authored: authored,
	}
	l.records = append(l.records, r)
	return r
}

// contentProps gives r, a content node (path, module, unit, doc, ADR),
// the properties every content node carries that it lacks, so callers
// can read them without checking.
func contentProps(r *record) {
	for k, v := range map[string]any{
		"title": "", "summary": "", "type": "", "owner": "", "lastReviewed": "", "status": "",
		"monikerRange": "", "href": "",
		"products": []any{}, "roles": []any{}, "levels": []any{}, "subjects": []any{}, "headings": []any{},
	} {
		if _, ok := r.node.Props[k]; !ok {
			r.node.Props[k] = v
		}
	}
}

// touch raises the record's LastModified to mod.
func (r *record) touch(mod time.Time) {
	if mod.After(r.node.LastModified) {
		r.node.LastModified = mod
	}
}

// cite adds a uid reference from the record.
func (r *record) cite(to string, typ graph.EdgeType, at place) {
	r.refs = append(r.refs, ref{to: to, typ: typ, want: wantOf[typ], rule: RuleBrokenXref, at: at})
}

// wantOf is the label the target of an overlay edge type must have.
var wantOf = map[graph.EdgeType]graph.Label{graph.TeachesSkill: graph.Skill, graph.Certifies: graph.Skill}

// asList returns v as a JSON list ([]any), or an empty one.
func asList(v any) []any {
	if l, ok := v.([]any); ok {
		return l
	}
	return []any{}
}
