package deeper

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// The recognition and deeper-context quality set: a library generated
// for the purpose (deterministic), and labelled prompts over it that name
// an entity, use an alias, misspell a name, describe an entity without
// naming it, name two entities, name an entity the reader may not see,
// or name nothing at all. TestQuality measures
//
//   - recognition precision and recall (Store.PrepareRecognition, the
//     tool prepare_recognition_context), over every prompt;
//   - deeper-context recall@5: the share of expected entities whose own
//     entity row is among the first five items of get_deeper_context;
//
// prints them, and fails when they fall below the floors (the measured
// values minus a small margin).

var (
	qBirds = []string{
		"Kestrel", "Osprey", "Heron", "Plover", "Avocet", "Curlew", "Dunlin", "Egret",
		"Fulmar", "Gannet", "Harrier", "Ibis", "Jacana", "Lapwing", "Merlin", "Nightjar",
		"Oriole", "Petrel", "Redstart", "Siskin", "Thrush", "Wagtail", "Warbler", "Bittern",
	}
	qThings = []string{"Ledger", "Gateway", "Beacon", "Forge", "Lantern", "Compass", "Anvil", "Orchard"}
	qGems   = []string{
		"Topaz", "Garnet", "Beryl", "Zircon", "Peridot", "Spinel", "Jasper", "Onyx", "Agate", "Opal",
		"Citrine", "Iolite", "Tanzanite", "Morganite", "Kunzite", "Sunstone",
	}
	qDescriptions = []string{
		"double-entry bookkeeping for supplier invoices",
		"edge proxy terminating TLS for partner APIs",
		"heartbeat monitor paging the on-call rotation",
		"build farm compiling firmware images",
		"status page renderer for customer incidents",
		"geofencing service for delivery couriers",
		"load generator hammering checkout endpoints",
		"recommendation engine ranking seasonal produce",
		"payroll exporter feeding the accounting suite",
		"consent registry storing cookie preferences",
		"thumbnail pipeline resizing catalogue photographs",
		"fraud scorer flagging chargeback patterns",
		"feature flag console for mobile releases",
		"warehouse slotting optimiser for pallets",
		"subtitle aligner for lecture recordings",
		"tariff calculator for cross-border parcels",
	}
)

type qEntity struct {
	name, alias, summary string
	agents               []string
	vis                  string
}

type qPrompt struct {
	class  string
	prompt string
	want   []string // expected entity names
	hidden string   // a private entity the prompt names
}

// qualityLibrary generates the library and the labelled prompts.
func qualityLibrary(t testing.TB) (*federation.Store, []qEntity, []qPrompt) {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 11))
	agents := []string{"claude-code", "codex", "cursor", "copilot"}
	var ents []qEntity
	for i := range 48 {
		bird := qBirds[i%len(qBirds)]
		thing := qThings[(i/len(qBirds)+i)%len(qThings)]
		e := qEntity{name: bird + " " + thing, summary: strings.ToUpper(qDescriptions[i%len(qDescriptions)][:1]) + qDescriptions[i%len(qDescriptions)][1:] + "."}
		switch {
		case i%3 == 0:
			e.alias = fmt.Sprintf("%c%c-%d", bird[0], thing[0], 10+i)
		case i%3 == 1:
			e.alias = qGems[(i/3)%len(qGems)] + " " + fmt.Sprint(i)
		}
		n := 1 + r.IntN(3)
		perm := r.Perm(len(agents))
		for _, k := range perm[:n] {
			e.agents = append(e.agents, agents[k])
		}
		slices.Sort(e.agents)
		switch {
		case i%20 == 7:
			e.vis = "private"
		case i%6 == 5:
			e.vis = "team"
		default:
			e.vis = "public"
		}
		ents = append(ents, e)
	}

	dir := t.TempDir()
	verbs := []string{"reviewed", "refactored", "benchmarked", "documented", "migrated", "patched"}
	for _, a := range agents {
		var entities, sessions, notes, workstreams []any
		for i, e := range ents {
			if !slices.Contains(e.agents, a) {
				continue
			}
			row := map[string]any{"name": e.name, "type": "project", "summary": e.summary, "visibility": e.vis, "tags": []any{"generated"}}
			if e.alias != "" {
				row["aliases"] = []any{e.alias}
			}
			entities = append(entities, row)
			for s := range 2 {
				sessions = append(sessions, map[string]any{
					"date":          fmt.Sprintf("2026-06-%02d", 1+(i*3+s*7)%28),
					"cwd":           "/repos/" + strings.ToLower(strings.ReplaceAll(e.name, " ", "-")),
					"project_focus": []any{e.name},
					"key_actions":   []any{verbs[(i+s)%len(verbs)] + " the " + strings.ToLower(strings.Fields(e.name)[1]) + " module", "ran the test suite"},
					"visibility":    e.vis,
				})
			}
			if i%4 == 0 {
				notes = append(notes, map[string]any{
					"date": "2026-06-20", "text": "Follow up on the " + strings.ToLower(e.name) + " rollout with the platform team.",
					"related_entities": []any{e.name}, "visibility": e.vis,
				})
			}
			if i%8 == 0 {
				workstreams = append(workstreams, map[string]any{
					"name": e.name + " hardening", "status": "active", "last_touched": "2026-06-18",
					"summary": "Hardening " + e.name + ".", "related_entities": []any{e.name}, "visibility": e.vis,
				})
			}
		}
		// Distractors: rows that share words with many prompts.
		sessions = append(sessions, map[string]any{
			"date": "2026-06-25", "project_focus": []any{"Weekly planning"},
			"key_actions": []any{"triaged the status board", "updated the roadmap"}, "visibility": "public",
		})
		doc := map[string]any{"known_entities": entities, "recent_sessions": sessions}
		if len(notes) > 0 {
			doc["notes"] = notes
		}
		if len(workstreams) > 0 {
			doc["known_workstreams"] = workstreams
		}
		writeAgent(t, dir, a, doc)
	}

	visible := func(e qEntity) bool { return e.vis != "private" }
	nameTemplates := []string{
		"what's the status of %s?", "remind me what %s does", "we need to ship %s this week",
		"%s", "any blockers on %s", "who worked on %s recently?",
	}
	aliasTemplates := []string{"any update on %s?", "is %s still on track", "summarise the %s work"}
	var prompts []qPrompt
	// Names: 16 visible entities.
	for i, k := 0, 0; k < 16; i++ {
		e := ents[(i*5)%len(ents)]
		if !visible(e) {
			continue
		}
		prompts = append(prompts, qPrompt{"name", fmt.Sprintf(nameTemplates[k%len(nameTemplates)], e.name), []string{e.name}, ""})
		k++
	}
	// Aliases: 10.
	for i, k := 0, 0; k < 10; i++ {
		e := ents[(i*7+1)%len(ents)]
		if !visible(e) || e.alias == "" {
			continue
		}
		prompts = append(prompts, qPrompt{"alias", fmt.Sprintf(aliasTemplates[k%len(aliasTemplates)], e.alias), []string{e.name}, ""})
		k++
	}
	// Written differently: lower case, hyphenated, possessive, in
	// backticks: 4.
	for k := range 4 {
		e := ents[(k*9+4)%len(ents)]
		if !visible(e) {
			e = ents[(k*9+5)%len(ents)]
		}
		forms := []string{
			"what changed in " + strings.ToLower(e.name) + " lately",
			"is the " + strings.ReplaceAll(strings.ToLower(e.name), " ", "-") + " repo green?",
			e.name + "'s deploy failed again",
			"grep `" + strings.ReplaceAll(e.name, " ", "_") + "` for the config",
		}
		prompts = append(prompts, qPrompt{"written differently", forms[k], []string{e.name}, ""})
	}
	// Misspellings: 10, one edit in the first word.
	for i, k := 0, 0; k < 10; i++ {
		e := ents[(i*11+2)%len(ents)]
		if !visible(e) {
			continue
		}
		words := strings.Fields(e.name)
		words[0] = misspell(words[0], k)
		prompts = append(prompts, qPrompt{"misspelling", fmt.Sprintf(nameTemplates[k%len(nameTemplates)], strings.Join(words, " ")), []string{e.name}, ""})
		k++
	}
	// Descriptions without the name: 6 (recognition cannot know these;
	// deeper context should). The description words are shared by the
	// three entities that carry that description, so the expected set is
	// all of them that are visible.
	for k := range 6 {
		d := qDescriptions[(k*3)%len(qDescriptions)]
		var want []string
		for _, e := range ents {
			if visible(e) && strings.Contains(strings.ToLower(e.summary), d) {
				want = append(want, e.name)
			}
		}
		prompts = append(prompts, qPrompt{"description", "which project handles " + d + "?", want, ""})
	}
	// Two names: 3.
	for k := range 3 {
		a, b := ents[k*4], ents[k*4+2]
		if !visible(a) || !visible(b) {
			continue
		}
		prompts = append(prompts, qPrompt{"two names", "compare " + a.name + " with " + b.name, []string{a.name, b.name}, ""})
	}
	// Private entities at team level: expected nothing.
	for _, e := range ents {
		if e.vis == "private" {
			prompts = append(prompts, qPrompt{"invisible", "what about " + e.name + "?", nil, e.name})
		}
	}
	// Nothing at all: 12.
	for _, p := range []string{
		"what's the weather in Lisbon tomorrow", "write a haiku about autumn leaves",
		"how do I reverse a linked list in Go", "translate good morning into French",
		"what time is it in Tokyo", "recommend a book about sailing",
		"explain the difference between TCP and UDP", "how many ounces are in a pound",
		"draft a polite email declining a meeting", "what is the capital of Australia",
		"tell me a joke about penguins", "convert 30 celsius to fahrenheit",
	} {
		prompts = append(prompts, qPrompt{"nothing", p, nil, ""})
	}
	return openStore(t, dir), ents, prompts
}

// misspell makes one edit in w: a vowel substituted, or two letters
// swapped.
func misspell(w string, k int) string {
	b := []byte(strings.ToLower(w))
	if k%2 == 0 {
		for i := 2; i < len(b); i++ {
			if strings.IndexByte("aeiou", b[i]) >= 0 {
				b[i] = "eaoui"[strings.IndexByte("aeiou", b[i])]
				return strings.ToUpper(string(b[:1])) + string(b[1:])
			}
		}
	}
	i := len(b) / 2
	b[i], b[i+1] = b[i+1], b[i]
	return strings.ToUpper(string(b[:1])) + string(b[1:])
}

type qScore struct{ tp, fp, fn, hits, expected, anyHits, falseCtx, noneCount int }

func TestQuality(t *testing.T) {
	store, _, prompts := qualityLibrary(t)
	if len(prompts) < 50 {
		t.Fatalf("only %d prompts", len(prompts))
	}
	s := New(store, Options{})
	byClass := map[string]*qScore{}
	var total qScore
	var classes []string
	for _, p := range prompts {
		sc := byClass[p.class]
		if sc == nil {
			sc = &qScore{}
			byClass[p.class] = sc
			classes = append(classes, p.class)
		}
		// Recognition.
		var got []string
		for _, m := range store.PrepareRecognition(p.prompt, visibility.Team).MatchedEntities {
			got = append(got, m.Name)
		}
		for _, g := range got {
			if slices.Contains(p.want, g) {
				sc.tp++
			} else {
				sc.fp++
				t.Logf("recognition false positive: %q -> %q", p.prompt, g)
			}
		}
		for _, w := range p.want {
			if !slices.Contains(got, w) {
				sc.fn++
			}
		}
		// Deeper context.
		pl := ask(t, s, p.prompt, visibility.Team)
		top := pl.Items[:min(5, len(pl.Items))]
		for _, w := range p.want {
			sc.expected++
			hit, anyHit := false, false
			for _, it := range top {
				if it.Kind == "entity" && it.Name == w {
					hit = true
				}
				if it.Name == w || strings.Contains(it.Text, w) {
					anyHit = true
				}
			}
			if hit {
				sc.hits++
			} else {
				t.Logf("deeper miss (%s): %q wanted %q, got %v", p.class, p.prompt, w, itemNames(top))
			}
			if anyHit {
				sc.anyHits++
			}
		}
		if len(p.want) == 0 {
			sc.noneCount++
			if len(pl.Items) > 0 {
				sc.falseCtx++
				t.Logf("context for a prompt naming no (visible) entity (%s): %q -> %v %v", p.class, p.prompt, itemNames(pl.Items), pl.Items[0].Terms)
			}
			if p.hidden != "" && (strings.Contains(pl.Context, p.hidden) || strings.Contains(fmt.Sprint(pl.Items, pl.Entities), p.hidden)) {
				t.Errorf("private entity %q surfaced at team level: %+v", p.hidden, pl)
			}
		}
	}
	ratio := func(a, b int) float64 {
		if b == 0 {
			return 1
		}
		return float64(a) / float64(b)
	}
	for _, c := range classes {
		sc := byClass[c]
		total.tp += sc.tp
		total.fp += sc.fp
		total.fn += sc.fn
		total.hits += sc.hits
		total.expected += sc.expected
		total.anyHits += sc.anyHits
		total.falseCtx += sc.falseCtx
		total.noneCount += sc.noneCount
		t.Logf("%-12s recognition P=%.2f R=%.2f (tp %d fp %d fn %d)  deeper recall@5=%.2f (row about it: %.2f)  context for no-entity prompts: %d/%d",
			c, ratio(sc.tp, sc.tp+sc.fp), ratio(sc.tp, sc.tp+sc.fn), sc.tp, sc.fp, sc.fn,
			ratio(sc.hits, sc.expected), ratio(sc.anyHits, sc.expected), sc.falseCtx, sc.noneCount)
	}
	precision := ratio(total.tp, total.tp+total.fp)
	recall := ratio(total.tp, total.tp+total.fn)
	recall5 := ratio(total.hits, total.expected)
	t.Logf("ALL (%d prompts) recognition precision=%.3f recall=%.3f  deeper recall@5=%.3f (row about it %.3f)  no-entity prompts with context %d/%d",
		len(prompts), precision, recall, recall5, ratio(total.anyHits, total.expected), total.falseCtx, total.noneCount)

	// Floors: the measured values minus a small margin.
	if precision < qualityFloors.precision || recall < qualityFloors.recall || recall5 < qualityFloors.recall5 {
		t.Errorf("quality fell: precision %.3f (floor %.2f), recall %.3f (floor %.2f), recall@5 %.3f (floor %.2f)",
			precision, qualityFloors.precision, recall, qualityFloors.recall, recall5, qualityFloors.recall5)
	}
	// Exact names and aliases are always recognised and always found.
	for _, c := range []string{"name", "alias", "two names", "written differently"} {
		if sc := byClass[c]; sc.fn != 0 || sc.hits != sc.expected {
			t.Errorf("%s: %d recognition misses, %d/%d found by deeper context", c, sc.fn, sc.hits, sc.expected)
		}
	}
	if sc := byClass["misspelling"]; ratio(sc.hits, sc.expected) < qualityFloors.misspellRecall5 {
		t.Errorf("misspellings: deeper recall@5 %.2f, floor %.2f", ratio(sc.hits, sc.expected), qualityFloors.misspellRecall5)
	}
	if sc := byClass["invisible"]; sc.fp != 0 {
		t.Errorf("private entities recognised at team level: %d", sc.fp)
	}
	if sc := byClass["nothing"]; sc.fp != 0 || sc.falseCtx > 1 {
		t.Errorf("prompts naming nothing: %d recognised, %d/%d with context", sc.fp, sc.falseCtx, sc.noneCount)
	}
}

// qualityFloors are the regression thresholds of TestQuality.
var qualityFloors = struct {
	precision, recall, recall5, misspellRecall5 float64
}{precision: 0.95, recall: 0.52, recall5: 0.95, misspellRecall5: 0.9}

func itemNames(items []Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Kind+":"+it.Name)
	}
	return out
}
