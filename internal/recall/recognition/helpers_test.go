package recognition

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

var levels = []visibility.Level{visibility.Public, visibility.Team, visibility.Private}

// entityFrom reads one known_entities row from a decoded JSON or YAML
// mapping, keeping only string values, as the reference's recognition code
// does.
func entityFrom(get func(string) any) Entity {
	str := func(k string) string { s, _ := get(k).(string); return s }
	strs := func(k string) []string {
		list, _ := get(k).([]any)
		var out []string
		for _, v := range list {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return Entity{
		Name:       str("name"),
		Type:       str("type"),
		Aliases:    strs("aliases"),
		Summary:    str("summary"),
		Tags:       strs("tags"),
		ValidTo:    str("valid_to"),
		Visibility: visibility.OfRow(get("visibility"), visibility.Public),
	}
}

// entitiesFromJSON reads manifest["known_entities"] of a decoded JSON value.
func entitiesFromJSON(manifest map[string]any) []Entity {
	list, _ := manifest["known_entities"].([]any)
	var out []Entity
	for _, v := range list {
		if m, ok := v.(map[string]any); ok {
			out = append(out, entityFrom(func(k string) any { return m[k] }))
		}
	}
	return out
}

// entitiesFromYAML reads manifest["known_entities"] of a decoded YAML value.
func entitiesFromYAML(manifest any) []Entity {
	m, _ := manifest.(*yaml11.Map)
	if m == nil {
		return nil
	}
	list, _ := m.Value("known_entities").([]any)
	var out []Entity
	for _, v := range list {
		if row, ok := v.(*yaml11.Map); ok {
			out = append(out, entityFrom(row.Value))
		}
	}
	return out
}

func names(ms []Match) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.Name)
	}
	return out
}

// naiveRows is the reference's build_recognition_manifest, written as
// plainly as possible: every agent in id order, every entity in order,
// merged by name.strip().lower().
func naiveRows(model map[string][]Entity, level visibility.Level) []Match {
	ids := make([]string, 0, len(model))
	for id := range model {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var rows []*Match
	byKey := map[string]*Match{}
	for _, id := range ids {
		for _, e := range model[id] {
			if !visibility.Visible(e.Visibility, level) || pyStrip(e.Name) == "" {
				continue
			}
			typ := e.Type
			if typ == "" {
				typ = "topic"
			}
			key := strings.ToLower(pyStrip(e.Name))
			m := byKey[key]
			if m == nil {
				m = &Match{Row: Row{
					Name: pyStrip(e.Name), Type: typ, Summary: e.Summary,
					Types: []string{}, Aliases: []string{}, SourceAgents: []string{}, Tags: []string{},
					Summaries: map[string]string{},
				}}
				if e.Summary != "" {
					m.SummaryAgent = id
				}
				byKey[key] = m
				rows = append(rows, m)
			}
			m.Types = appendUnique(m.Types, typ)
			m.SourceAgents = appendUnique(m.SourceAgents, id)
			for _, a := range e.Aliases {
				if s := pyStrip(a); s != "" {
					m.Aliases = appendUnique(m.Aliases, s)
				}
			}
			for _, t := range e.Tags {
				if s := pyStrip(t); s != "" {
					m.Tags = appendUnique(m.Tags, s)
				}
			}
			if s := pyStrip(e.Summary); s != "" {
				if m.Summary == "" {
					m.Summary, m.SummaryAgent = s, id
				}
				m.Summaries[id] = s
			}
		}
	}
	out := make([]Match, len(rows))
	for i, r := range rows {
		out[i] = *r
	}
	return out
}

// naiveDetect is the reference's recognition over the merged manifest:
// every row, every candidate, token-run test, confidence from the tier
// ladder.
func naiveDetect(prompt string, model map[string][]Entity, level visibility.Level) []Match {
	p := analyze.Tokens(prompt)
	var out []Match
	for _, m := range naiveRows(model, level) {
		cands := append([]string{m.Name}, m.Aliases...)
		for _, c := range cands {
			if analyze.ContainsRun(p, analyze.Tokens(c)) {
				m.Confidence = Confidence(prompt, cands)
				out = append(out, m)
				break
			}
		}
	}
	return out
}

// randomWorld generates entities from a small vocabulary so that names,
// aliases and merge keys collide often.
type randomWorld struct {
	r     *rand.Rand
	words []string
}

func newRandomWorld(seed uint64) *randomWorld {
	return &randomWorld{
		r:     rand.New(rand.NewPCG(seed, 7)),
		words: []string{"atlas", "bourdon", "Cedar", "delta", "NAS", "iltt", "x1", "multi", "word", "café", "k", "key", "\u212aey"},
	}
}

func (w *randomWorld) phrase(maxWords int) string {
	n := 1 + w.r.IntN(maxWords)
	parts := make([]string, n)
	seps := []string{" ", "-", "/", "_", ", ", "  "}
	var b strings.Builder
	for i := range parts {
		if i > 0 {
			b.WriteString(seps[w.r.IntN(len(seps))])
		}
		word := w.words[w.r.IntN(len(w.words))]
		if w.r.IntN(3) == 0 {
			word = strings.ToUpper(word)
		}
		b.WriteString(word)
	}
	s := b.String()
	switch w.r.IntN(8) {
	case 0:
		s = "  " + s + " "
	case 1:
		s = "\u2003" + s
	}
	return s
}

func (w *randomWorld) entity() Entity {
	e := Entity{
		Name:       w.phrase(3),
		Type:       []string{"", "project", "tool", "concept"}[w.r.IntN(4)],
		Visibility: levels[w.r.IntN(3)],
	}
	if w.r.IntN(12) == 0 {
		e.Name = []string{"", "   ", "日本"}[w.r.IntN(3)]
	}
	for range w.r.IntN(3) {
		e.Aliases = append(e.Aliases, w.phrase(2))
	}
	if w.r.IntN(6) == 0 {
		e.Aliases = append(e.Aliases, " ")
	}
	switch w.r.IntN(4) {
	case 0:
		e.Summary = fmt.Sprintf("summary %d", w.r.IntN(100))
	case 1:
		e.Summary = "  padded summary  "
	case 2:
		e.Summary = []string{"", "   "}[w.r.IntN(2)]
	}
	for range w.r.IntN(3) {
		e.Tags = append(e.Tags, []string{"archived", " canceled ", "infra", ""}[w.r.IntN(4)])
	}
	return e
}

func (w *randomWorld) entities(n int) []Entity {
	out := make([]Entity, n)
	for i := range out {
		out[i] = w.entity()
	}
	return out
}

func (w *randomWorld) prompt() string {
	var parts []string
	for range 1 + w.r.IntN(6) {
		parts = append(parts, w.phrase(3))
	}
	return strings.Join(parts, []string{" ", ". ", " and "}[w.r.IntN(3)])
}
