package docs

import (
	"go.yaml.in/yaml/v3"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

var achievementShape = fields{"uid": kString, "type": kString, "title": kString, "summary": kString, "iconUrl": kString, "certifies": kStrings}

// loadAchievements loads an Achievements file: badges and trophies.
func (l *loader) loadAchievements(y *yamlFile) {
	checkShape(y.doc, fields{"achievements": kList}, false, "", y.bad)
	items := value(y.doc, "achievements")
	if items == nil || items.Kind != yaml.SequenceNode {
		y.require(y.doc, "achievements")
		return
	}
	for _, it := range items.Content {
		if it.Kind != yaml.MappingNode {
			y.bad(it.Line, RuleSchema, "an achievement: want a mapping, got %s", describe(it))
			continue
		}
		checkShape(it, achievementShape, false, "", y.bad)
		y.require(it, "uid", "type", "title")
		kind := str(it, "type")
		if kind != "" && kind != "badge" && kind != "trophy" {
			y.bad(keyLine(it, "type"), RuleSchema, "type is %q; want badge or trophy", kind)
		}
		uid := str(it, "uid")
		if uid == "" {
			continue
		}
		r := l.newRecord(y.place(keyLine(it, "uid")), graph.Achievement, uid, true, y.f.mod)
		r.node.Props = map[string]any{
			"title": str(it, "title"), "summary": str(it, "summary"), "kind": kind, "iconUrl": str(it, "iconUrl"),
		}
		y.edges(r, it, graph.Certifies)
	}
}
