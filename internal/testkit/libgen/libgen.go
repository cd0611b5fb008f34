// Package libgen writes synthetic libraries of L5 manifests for benchmarks
// and tests: deterministic for a given seed, with shared entity names
// across agents, aliases, mixed visibilities and dated sessions.
package libgen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// Spec sizes a generated library.
type Spec struct {
	Agents      int
	Entities    int // per agent
	Sessions    int // per agent
	Workstreams int // per agent
	Notes       int // per agent
	Seed        uint64
	// Today anchors session dates: sessions spread over the 400 days
	// before it. The zero value means the current day.
	Today time.Time
}

// Benchmark is the size named by the performance targets: 100 agents x
// 1,000 entities x 500 sessions, about 27 MB of YAML.
var Benchmark = Spec{Agents: 100, Entities: 1000, Sessions: 500, Workstreams: 20, Notes: 50, Seed: 1}

var words = []string{
	"atlas", "bourdon", "cedar", "delta", "ember", "falcon", "garnet", "harbor", "iris", "juniper",
	"kestrel", "lumen", "maple", "nimbus", "onyx", "prairie", "quartz", "raven", "sierra", "tundra",
	"umber", "vesper", "willow", "xenon", "yarrow", "zephyr", "copper", "meadow", "signal", "lattice",
}

var entityTypes = []string{"project", "concept", "person", "customer", "ticket", "decision", "site", "product"}

// EntityName returns the name of the i-th entity of the shared name space.
// Agents draw their entities from a space four times as large as one
// agent's list, so most names are known to several agents.
func EntityName(i int) string {
	return fmt.Sprintf("%s %s %d", title(words[i%len(words)]), title(words[(i/len(words))%len(words)]), i)
}

func title(s string) string { return string(s[0]-32) + s[1:] }

// Write creates dir/agents/ and writes one manifest per agent. It returns
// the agent ids in order.
func Write(dir string, spec Spec) ([]string, error) {
	agentsDir := filepath.Join(dir, "agents")
	if err := os.MkdirAll(agentsDir, 0o755); err != nil {
		return nil, err
	}
	today := spec.Today
	if today.IsZero() {
		today = time.Now().UTC()
	}
	ids := make([]string, spec.Agents)
	for a := range spec.Agents {
		id := fmt.Sprintf("agent-%03d", a)
		ids[a] = id
		doc := Manifest(id, a, spec, today)
		data, err := yaml11.Encode(doc)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(agentsDir, id+".l5.yaml"), data, 0o644); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// Manifest builds the document of agent number a.
func Manifest(id string, a int, spec Spec, today time.Time) *yaml11.Map {
	r := rand.New(rand.NewPCG(spec.Seed, uint64(a)))
	space := max(spec.Entities*4, 1)
	vis := func() string {
		switch n := r.IntN(10); {
		case n < 6:
			return "public"
		case n < 9:
			return "team"
		}
		return "private"
	}
	m := yaml11.NewMap(8)
	m.Set("spec_version", "0.1")
	agent := yaml11.NewMap(4)
	agent.Set("id", id)
	agent.Set("type", "code-assistant")
	agent.Set("instance", fmt.Sprintf("host-%d", a%7))
	agent.Set("role_narrative", fmt.Sprintf("Synthetic agent %d for benchmarks.", a))
	m.Set("agent", agent)
	m.Set("last_updated", today.Format("2006-01-02T15:04:05+00:00"))
	m.Set("capabilities", []any{"code-read", "code-write"})

	var entities []any
	for e := range spec.Entities {
		n := r.IntN(space)
		ent := yaml11.NewMap(7)
		ent.Set("name", EntityName(n))
		ent.Set("type", entityTypes[n%len(entityTypes)])
		if e%5 == 0 {
			ent.Set("aliases", []any{fmt.Sprintf("E%d", n), fmt.Sprintf("%s-%d", words[n%len(words)], n)})
		}
		ent.Set("summary", fmt.Sprintf("What agent %d knows about entity %d: %s and %s work.", a, n, words[r.IntN(len(words))], words[r.IntN(len(words))]))
		ent.Set("tags", []any{words[n%len(words)]})
		ent.Set("visibility", vis())
		entities = append(entities, ent)
	}
	var sessions []any
	for s := range spec.Sessions {
		day := today.AddDate(0, 0, -r.IntN(400))
		ses := yaml11.NewMap(6)
		ses.Set("date", day.Format("2006-01-02"))
		ses.Set("cwd", fmt.Sprintf("/home/dev/repos/%s-%d", words[s%len(words)], a))
		ses.Set("project_focus", []any{EntityName(r.IntN(space))})
		ses.Set("key_actions", []any{
			fmt.Sprintf("refactored the %s module", words[r.IntN(len(words))]),
			fmt.Sprintf("reviewed %s notes", words[r.IntN(len(words))]),
		})
		ses.Set("files_touched", []any{fmt.Sprintf("src/%s.go", words[r.IntN(len(words))])})
		ses.Set("visibility", vis())
		sessions = append(sessions, ses)
	}
	var workstreams []any
	statuses := []string{"active", "paused", "done", "archived"}
	for w := range spec.Workstreams {
		ws := yaml11.NewMap(6)
		ws.Set("name", fmt.Sprintf("Workstream %s %d", title(words[w%len(words)]), w%10))
		ws.Set("status", statuses[r.IntN(len(statuses))])
		ws.Set("summary", fmt.Sprintf("Agent %d's part of workstream %d.", a, w))
		ws.Set("last_touched", today.AddDate(0, 0, -r.IntN(90)).Format("2006-01-02"))
		ws.Set("related_entities", []any{EntityName(r.IntN(space))})
		ws.Set("visibility", vis())
		workstreams = append(workstreams, ws)
	}
	var notes []any
	for range spec.Notes {
		nt := yaml11.NewMap(4)
		nt.Set("date", today.AddDate(0, 0, -r.IntN(60)).Format("2006-01-02"))
		nt.Set("text", fmt.Sprintf("Remember to check %s before the %s release.", words[r.IntN(len(words))], words[r.IntN(len(words))]))
		nt.Set("tags", []any{"journal"})
		nt.Set("visibility", vis())
		notes = append(notes, nt)
	}
	set := func(k string, v []any) {
		if len(v) > 0 {
			m.Set(k, v)
		}
	}
	set("known_entities", entities)
	set("recent_sessions", sessions)
	set("known_workstreams", workstreams)
	set("notes", notes)
	return m
}
