package docs

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// The shapes of the learn-pr training types. dependsOn and teachesSkill
// are this loader's extensions (see the package documentation).
var (
	metadataShape = fields{"title": kString, "description": kString, "ms.date": kString, "author": kString, "ms.topic": kString, "module_assessment": kBool}
	uidShape      = fields{"uid": kString}
	pathShape     = fields{
		"uid": kString, "metadata": kMap, "title": kString, "summary": kString, "prerequisites": kString, "iconUrl": kString,
		"levels": kStrings, "roles": kStrings, "products": kStrings, "subjects": kStrings,
		"modules": kStrings, "trophy": kMap, "dependsOn": kStrings,
	}
	moduleShape = fields{
		"uid": kString, "metadata": kMap, "title": kString, "summary": kString, "abstract": kString, "prerequisites": kString,
		"iconUrl": kString, "ratingEnabled": kBool,
		"levels": kStrings, "roles": kStrings, "products": kStrings, "subjects": kStrings,
		"units": kStrings, "badge": kMap, "dependsOn": kStrings, "teachesSkill": kStrings,
	}
	unitShape = fields{
		"uid": kString, "title": kString, "metadata": kMap, "durationInMinutes": kNumber,
		"content": kString, "quiz": kMap, "teachesSkill": kStrings,
	}
)

// taxonomyKeys are the list properties a path or module declares and its
// units inherit.
var taxonomyKeys = []string{"products", "roles", "levels", "subjects"}

// training starts the record of a LearningPath, Module or ModuleUnit: it
// checks the shape and required keys, and reads uid, title, metadata and
// taxonomy. It returns nil when the file has no uid.
func (l *loader) training(y *yamlFile, label graph.Label, shape fields, required ...string) *record {
	checkShape(y.doc, shape, false, "", y.bad)
	md := value(y.doc, "metadata")
	if md != nil && md.Kind == yaml.MappingNode {
		checkShape(md, metadataShape, true, "metadata.", y.bad)
	}
	y.require(y.doc, append([]string{"uid", "title"}, required...)...)
	checkDescription(md, "description", "metadata.description", keyLine(y.doc, "metadata"), y.bad)
	uid := str(y.doc, "uid")
	if uid == "" {
		return nil
	}
	r := l.newRecord(y.place(keyLine(y.doc, "uid")), label, uid, true, y.f.mod)
	p := r.node.Props
	p["title"] = str(y.doc, "title")
	p["type"] = firstString(str(md, "ms.topic"), y.meta("ms.topic"))
	p["owner"] = y.meta("owner")
	p["lastReviewed"] = str(md, "ms.date")
	for _, k := range taxonomyKeys {
		p[k] = y.taxonomy(y.doc, k)
	}
	return r
}

// loadPath loads a LearningPath.
func (l *loader) loadPath(y *yamlFile) {
	r := l.training(y, graph.LearningPath, pathShape, "summary", "modules", "trophy.uid")
	if r == nil {
		return
	}
	trophy := value(y.doc, "trophy")
	if trophy != nil && trophy.Kind == yaml.MappingNode {
		checkShape(trophy, uidShape, false, "trophy.", y.bad)
	}
	p := r.node.Props
	summary := strings.TrimSpace(l.prose(y, r, y.doc, "summary"))
	p["summary"] = summary
	p["prerequisites"] = strings.TrimSpace(l.prose(y, r, y.doc, "prerequisites"))
	p["iconUrl"] = str(y.doc, "iconUrl")
	p["href"] = "/paths/" + lastSegment(r.node.UID) + "/"
	p["modules"] = strs(y.doc, "modules")
	p["trophy"] = str(trophy, "uid")
	p["durationInMinutes"] = 0.0
	l.achievement(y, r, trophy, "trophy")
	for i, m := range list(y.doc, "modules") {
		r.lists = append(r.lists, listing{m.Value, graph.Module, i + 1, y.place(m.Line)})
	}
	y.edges(r, y.doc, graph.DependsOn)
	r.node.Content = summary
	contentProps(r)
}

// loadModule loads a Module.
func (l *loader) loadModule(y *yamlFile) {
	r := l.training(y, graph.Module, moduleShape, "summary", "abstract", "units", "badge.uid")
	if r == nil {
		return
	}
	badge := value(y.doc, "badge")
	if badge != nil && badge.Kind == yaml.MappingNode {
		checkShape(badge, uidShape, false, "badge.", y.bad)
	}
	p := r.node.Props
	p["summary"] = strings.TrimSpace(l.prose(y, r, y.doc, "summary"))
	abstract := strings.TrimSpace(l.prose(y, r, y.doc, "abstract"))
	p["abstract"] = abstract
	p["prerequisites"] = strings.TrimSpace(l.prose(y, r, y.doc, "prerequisites"))
	p["iconUrl"] = str(y.doc, "iconUrl")
	p["href"] = "/modules/" + lastSegment(r.node.UID) + "/"
	p["units"] = strs(y.doc, "units")
	p["badge"] = str(badge, "uid")
	p["paths"] = []any{}
	p["durationInMinutes"] = 0.0
	l.achievement(y, r, badge, "badge")
	for i, u := range list(y.doc, "units") {
		r.lists = append(r.lists, listing{u.Value, graph.Unit, i + 1, y.place(u.Line)})
	}
	y.edges(r, y.doc, graph.DependsOn, graph.TeachesSkill)
	r.node.Content = abstract
	contentProps(r)
}

// loadUnit loads a ModuleUnit; its module, order, taxonomy and href come
// from the module that lists it, when linking.
func (l *loader) loadUnit(y *yamlFile) {
	r := l.training(y, graph.Unit, unitShape)
	if r == nil {
		return
	}
	p := r.node.Props
	md := value(y.doc, "metadata")
	p["summary"] = str(md, "description")
	p["module"] = ""
	p["order"] = 0.0
	duration, _ := number(y.doc, "durationInMinutes")
	p["durationInMinutes"] = duration
	r.node.Content = l.prose(y, r, y.doc, "content")
	quiz := value(y.doc, "quiz")
	switch {
	case quiz != nil && quiz.Kind == yaml.MappingNode:
		l.checkQuiz(y, r, quiz)
		p["quiz"] = toJSON(quiz)
	case isTrue(value(md, "module_assessment")):
		y.bad(keyLine(md, "module_assessment"), RuleQuizShape, "a knowledge check (module_assessment: true) has no quiz")
	}
	y.edges(r, y.doc, graph.TeachesSkill)
	contentProps(r)
}

// achievement adds the reference of a module's badge or a path's trophy.
func (l *loader) achievement(y *yamlFile, r *record, m *yaml.Node, what string) {
	if uid := str(m, "uid"); uid != "" {
		r.refs = append(r.refs, ref{to: uid, typ: graph.Xref, want: graph.Achievement, rule: RuleAchievement, what: what, at: y.place(keyLine(m, "uid"))})
	}
}

// prose returns the markdown of the scalar at key of m with its includes
// expanded, adding its citations to r.
func (l *loader) prose(y *yamlFile, r *record, m *yaml.Node, key string) string {
	v := value(m, key)
	if v == nil || v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return ""
	}
	return l.expand(r, y.rt, y.file, v.Value, proseBase(v), []string{y.file})
}

// edges adds the uid lists at the keys named by the edge types as
// references from r.
func (y *yamlFile) edges(r *record, m *yaml.Node, types ...graph.EdgeType) {
	for _, t := range types {
		for _, n := range list(m, string(t)) {
			r.cite(n.Value, t, y.place(n.Line))
		}
	}
}

// meta returns the configured default of a string metadata key.
func (y *yamlFile) meta(key string) string {
	v, _ := y.rt.cfg.meta(y.file, key)
	s, _ := v.(string)
	return s
}

// taxonomy returns the list at key of m, or the configured default.
func (y *yamlFile) taxonomy(m *yaml.Node, key string) []any {
	if v := value(m, key); v != nil && v.Tag != "!!null" {
		return strs(m, key)
	}
	if v, ok := y.rt.cfg.meta(y.file, key); ok {
		return stringList(v)
	}
	return []any{}
}

// stringList returns a JSON value (a string or a list) as a list of its
// non-empty strings.
func stringList(v any) []any {
	out := []any{}
	switch v := v.(type) {
	case string:
		if v != "" {
			out = append(out, v)
		}
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok && s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

func firstString(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// isTrue reports whether n is the boolean true.
func isTrue(n *yaml.Node) bool { return n != nil && toJSON(n) == true }

// lastSegment returns the part of a dotted uid after its last dot.
func lastSegment(uid string) string {
	return uid[strings.LastIndex(uid, ".")+1:]
}
