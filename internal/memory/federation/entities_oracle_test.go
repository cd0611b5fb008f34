package federation

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// findEntityByContract is FindEntity written from its contract, the
// slow and obvious way, as the oracle of TestFindEntityMatchesTheContract:
// every entity of every agent the reader accepts (agents in id order,
// entities in file order) whose trimmed, lower-cased name or alias equals
// the trimmed, lower-cased query and that is visible at level, grouped by
// its exact trimmed name in the order the names are first met; each group
// lists its agents once each, its distinct types and tags in the order
// first met, and each agent's last non-empty summary.
func findEntityByContract(s *Store, name string, level visibility.Level, reader Reader) []EntityMatch {
	key := strings.ToLower(strings.TrimSpace(name))
	out := []EntityMatch{}
	if key == "" {
		return out
	}
	snap := s.Snapshot()
	for _, id := range snap.IDs() {
		if reader != nil && !reader(id) {
			continue
		}
		a, _ := snap.Agent(id)
		for _, e := range a.Manifest.Entities {
			if !visibility.Visible(e.Visibility, level) || !entityAnswers(e, key) {
				continue
			}
			display := strings.TrimSpace(e.Name)
			i := slices.IndexFunc(out, func(m EntityMatch) bool { return m.Name == display })
			if i < 0 {
				out = append(out, EntityMatch{Name: display, Agents: []string{}, Types: []string{}, Summaries: map[string]string{}, Tags: []string{}})
				i = len(out) - 1
			}
			m := &out[i]
			if !slices.Contains(m.Agents, id) {
				m.Agents = append(m.Agents, id)
			}
			if e.Type != "" && !slices.Contains(m.Types, e.Type) {
				m.Types = append(m.Types, e.Type)
			}
			if e.Summary != "" {
				m.Summaries[id] = e.Summary
			}
			for _, t := range e.Tags {
				if !slices.Contains(m.Tags, t) {
					m.Tags = append(m.Tags, t)
				}
			}
		}
	}
	return out
}

// entityAnswers reports whether e is found under key: its name's key, or
// one of its aliases' when its name is not blank.
func entityAnswers(e l5.Entity, key string) bool {
	own := strings.ToLower(strings.TrimSpace(e.Name))
	if own == "" {
		return false
	}
	if own == key {
		return true
	}
	for _, a := range e.Aliases {
		if strings.ToLower(strings.TrimSpace(a)) == key {
			return true
		}
	}
	return false
}

// Spellings of a few names: case, surrounding space of every kind
// strings.TrimSpace trims, non-ASCII letters whose lower case differs, and
// a blank one.
var oracleNames = []string{
	"Bourdon", "bourdon", " BOURDON ", "\tBourdon\n", "Bourdon\v", "\u00a0Bourdon",
	"Relay", "relay", "RELAY\r\n", "ÆRØ", "ærø", "İstanbul", "Straße", "STRASSE",
	"ILTT", "iltt", "x", "X", "", "   ", "K\u212a", "café ", "CAFÉ",
}

var (
	oracleTypes = []string{"", "project", "person", "concept", "Project"}
	oracleTags  = []string{"infra", "team", "Infra", "", "ops", "<b>", "a\"b", "ünï"}
	oracleVis   = []string{"public", "team", "private", ""}
)

// writeOracleAgent writes agent id with random entities drawn from the
// pools above.
func writeOracleAgent(t *testing.T, dir, id string, rng *rand.Rand) {
	t.Helper()
	var rows []any
	for range rng.IntN(12) {
		kv := []any{"name", oracleNames[rng.IntN(len(oracleNames))]}
		if n := rng.IntN(3); n > 0 {
			var aliases []any
			for range n {
				aliases = append(aliases, oracleNames[rng.IntN(len(oracleNames))])
			}
			kv = append(kv, "aliases", aliases)
		}
		if ty := oracleTypes[rng.IntN(len(oracleTypes))]; ty != "" {
			kv = append(kv, "type", ty)
		}
		if rng.IntN(3) > 0 {
			kv = append(kv, "summary", fmt.Sprintf("summary %d of %s", rng.IntN(5), id))
		}
		var tags []any
		for range rng.IntN(4) {
			tags = append(tags, oracleTags[rng.IntN(len(oracleTags))])
		}
		if tags != nil {
			kv = append(kv, "tags", tags)
		}
		if v := oracleVis[rng.IntN(len(oracleVis))]; v != "" {
			kv = append(kv, "visibility", v)
		}
		rows = append(rows, row(kv...))
	}
	writeManifest(t, dir, id, "known_entities", rows)
}

// TestFindEntityMatchesTheContract holds FindEntity against
// findEntityByContract over random libraries, every spelling of the
// pool (and unknown names), every level, with and without a reader that
// refuses some agents, and again after manifests are rewritten (the name
// index is then updated for the changed agents only).
func TestFindEntityMatchesTheContract(t *testing.T) {
	queries := append(slices.Clone(oracleNames), "nobody", "Bourdon Relay", "\u0130STANBUL")
	readers := map[string]Reader{"all": nil, "no b": func(id string) bool { return id != "b" }}
	for seed := range uint64(12) {
		rng := rand.New(rand.NewPCG(seed, 19))
		dir := t.TempDir()
		ids := []string{"a", "b", "c", "d", "e", "f"}[:2+rng.IntN(5)]
		for _, id := range ids {
			writeOracleAgent(t, dir, id, rng)
		}
		s := openStore(t, dir, june30)
		check := func(stage string) {
			t.Helper()
			for _, q := range queries {
				for _, level := range []visibility.Level{visibility.Public, visibility.Team, visibility.Private} {
					for rname, reader := range readers {
						want := findEntityByContract(s, q, level, reader)
						got := s.FindEntity(q, level, reader)
						if diff := cmp.Diff(want, got); diff != "" {
							t.Fatalf("seed %d, %s: FindEntity(%q, %v, %s) (-contract +got):\n%s", seed, stage, q, level, rname, diff)
						}
					}
				}
			}
		}
		check("first load")
		for round := range 3 {
			writeOracleAgent(t, dir, ids[rng.IntN(len(ids))], rng)
			check(fmt.Sprintf("after rewrite %d", round))
		}
	}
}

// TestAppendKeyIsKey: the lookup's key of a name is Key's, bytes for
// bytes, for ASCII names and every other kind.
func TestAppendKeyIsKey(t *testing.T) {
	names := append(slices.Clone(oracleNames), "\x00A\x1f", "A\x7fB", " \t\n\v\f\r", "\x85x", "Z@[`{", strings.Repeat("Ab", 100))
	for c := range 128 {
		names = append(names, string(rune(c))+"Q"+string(rune(c)))
	}
	for _, n := range names {
		if got, want := string(appendKey(nil, n)), Key(n); got != want {
			t.Errorf("appendKey(%q) = %q, Key = %q", n, got, want)
		}
	}
}
