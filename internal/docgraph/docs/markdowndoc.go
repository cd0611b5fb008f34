package docs

import (
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// docShape is the shape of doc and ADR front matter. It is open: other
// keys are kept in the frontMatter property unchecked.
var docShape = fields{
	"uid": kString, "title": kString, "description": kString, "type": kString, "owner": kString,
	"lastReviewed": kString, "level": kString, "status": kString, "visibility": kString, "monikerRange": kString,
	"products": kStrings, "roles": kStrings, "subjects": kStrings, "order": kNumber,
	"date": kString, "supersededBy": kString, "implementedBy": kStrings,
}

// adrStatuses are the statuses an ADR may have.
var adrStatuses = []string{"proposed", "accepted", "rejected", "deprecated", "superseded"}

// loadMarkdown loads a markdown file under docs/: a Diataxis doc, or an
// ADR when it is under docs/decisions/ or its front matter says type: adr.
func (l *loader) loadMarkdown(rt *root, file string) {
	f, ok := l.readWalked(rt, file)
	if !ok {
		return
	}
	y := &yamlFile{rt: rt, file: file, f: f, bad: l.reporter(rt, file)}
	fm, body, bodyBase, ok := splitFrontMatter(f.text)
	if !ok {
		y.bad(1, RuleSchema, "no front matter (want a leading --- block)")
		return
	}
	y.doc = &yaml.Node{Kind: yaml.MappingNode, Line: 1}
	if strings.TrimSpace(fm) != "" {
		// The leading newline keeps node lines equal to file lines.
		doc, ok := y.parse("\n" + fm)
		if !ok {
			return
		}
		if doc.Kind != yaml.MappingNode {
			y.bad(doc.Line, RuleSchema, "front matter: want a mapping, got %s", describe(doc))
			return
		}
		y.doc = doc
	}
	checkShape(y.doc, docShape, true, "", y.bad)
	slug := strings.TrimSuffix(strings.TrimPrefix(file, "docs/"), ".md")
	uid, authored := str(y.doc, "uid"), true
	if uid == "" {
		uid, authored = "cogitave.learn.docs."+strings.ReplaceAll(slug, "/", "."), false
	}
	label := graph.Doc
	if strings.HasPrefix(file, "docs/decisions/") || str(y.doc, "type") == "adr" {
		label = graph.ADR
	}
	r := l.newRecord(y.place(keyLine(y.doc, "uid")), label, uid, authored, f.mod)
	p := r.node.Props
	p["title"] = str(y.doc, "title")
	p["summary"] = str(y.doc, "description")
	p["type"] = str(y.doc, "type")
	p["owner"] = firstString(str(y.doc, "owner"), y.meta("owner"))
	p["lastReviewed"] = str(y.doc, "lastReviewed")
	p["status"] = str(y.doc, "status")
	for _, k := range []string{"products", "roles", "subjects"} {
		p[k] = y.taxonomy(y.doc, k)
	}
	level := firstString(str(y.doc, "level"), y.meta("level"))
	p["levels"] = stringList(level)
	p["visibility"] = firstString(str(y.doc, "visibility"), "public")
	if v := p["visibility"]; v != "public" && v != "internal" {
		y.bad(keyLine(y.doc, "visibility"), RuleSchema, "visibility is %q; want public or internal", v)
	}
	if rng := str(y.doc, "monikerRange"); rng != "" {
		p["monikerRange"] = rng
		r.monikers = append(r.monikers, monikerUse{rng, y.place(keyLine(y.doc, "monikerRange"))})
	}
	if order, ok := number(y.doc, "order"); ok {
		p["order"] = order
	}
	p["frontMatter"] = toJSON(y.doc)
	p["href"] = "/docs/" + slug + "/"
	r.node.Content = l.expand(r, rt, file, body, bodyBase, []string{file})
	if label == graph.ADR {
		y.adr(r)
	} else {
		p["description"] = p["summary"]
		p["level"] = level
		y.docRequired(r, authored)
	}
	contentProps(r)
}

// docRequired applies metadata-required to a doc's front matter (after
// the configured defaults): title, uid, description (75-300 characters),
// type (a Diataxis mode), owner, lastReviewed (ISO-8601), products, roles
// and level.
func (y *yamlFile) docRequired(r *record, authored bool) {
	p, doc := r.node.Props, y.doc
	need := func(key string, ok bool) {
		if !ok {
			y.bad(keyLine(doc, key), RuleMetadataRequired, "missing required key %s", key)
		}
	}
	need("title", p["title"] != "")
	if !authored {
		y.bad(doc.Line, RuleMetadataRequired, "missing required key uid (using %s)", r.node.UID)
	}
	checkDescription(doc, "description", "description", doc.Line, y.bad)
	modes := y.rt.cfg.modes
	switch t := p["type"].(string); {
	case t == "":
		need("type", false)
	case !slices.Contains(modes, t):
		y.bad(keyLine(doc, "type"), RuleMetadataRequired, "type is %q; want one of %s", t, strings.Join(modes, ", "))
	}
	need("owner", p["owner"] != "")
	y.date(doc, "lastReviewed")
	need("products", len(asList(p["products"])) > 0)
	need("roles", len(asList(p["roles"])) > 0)
	need("level", p["level"] != "")
}

// adr reads an ADR's own fields: status, date, supersededBy and
// implementedBy, and applies metadata-required to uid, title, status and
// date.
func (y *yamlFile) adr(r *record) {
	p, doc := r.node.Props, y.doc
	y.require(doc, "uid", "title", "status")
	if p["type"] == "" {
		p["type"] = "adr"
	}
	status := str(doc, "status")
	if status != "" && !slices.Contains(adrStatuses, status) {
		y.bad(keyLine(doc, "status"), RuleMetadataRequired, "status is %q; want one of %s", status, strings.Join(adrStatuses, ", "))
	}
	p["date"] = str(doc, "date")
	p["lastReviewed"] = firstString(str(doc, "lastReviewed"), str(doc, "date"))
	y.date(doc, "date")
	p["supersededBy"] = str(doc, "supersededBy")
	if by := str(doc, "supersededBy"); by != "" {
		r.cite(by, graph.SupersededBy, y.place(keyLine(doc, "supersededBy")))
	} else if status == "superseded" {
		y.bad(keyLine(doc, "status"), RuleMetadataRequired, "status is superseded but supersededBy is missing")
	}
	p["implementedBy"] = strs(doc, "implementedBy")
	y.edges(r, doc, graph.ImplementedBy)
}

// date checks that key of m is an ISO-8601 date (or date and time).
func (y *yamlFile) date(m *yaml.Node, key string) {
	s := str(m, key)
	if s == "" {
		y.bad(keyLine(m, key), RuleMetadataRequired, "missing required key %s", key)
		return
	}
	for _, layout := range []string{time.DateOnly, time.RFC3339, "2006-01-02T15:04:05", time.DateTime} {
		if _, err := time.Parse(layout, s); err == nil {
			return
		}
	}
	y.bad(keyLine(m, key), RuleMetadataRequired, "%s %q is not an ISO-8601 date", key, s)
}

// splitFrontMatter splits a markdown file into its front matter and
// body. The front matter is between a first line --- and the next line
// --- (or ...); bodyBase is the line number of that closing line.
func splitFrontMatter(text string) (fm, body string, bodyBase int, ok bool) {
	first, rest, found := strings.Cut(text, "\n")
	if !found || strings.TrimRight(first, " \t") != "---" {
		return "", "", 0, false
	}
	off := 0
	for n := 2; off <= len(rest); n++ {
		line, _, _ := strings.Cut(rest[off:], "\n")
		if t := strings.TrimRight(line, " \t"); t == "---" || t == "..." {
			end := min(off+len(line)+1, len(rest))
			return rest[:off], rest[end:], n, true
		}
		off += len(line) + 1
	}
	return "", "", 0, false
}
