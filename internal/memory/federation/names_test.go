package federation

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNameIndexUpdatesLikeARebuild changes random manifests many times and
// checks after each change that the incrementally updated name index is
// the one a full rebuild gives.
func TestNameIndexUpdatesLikeARebuild(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(3, 4))
	names := []string{"Alpha", "beta", "Gamma", "alpha", " Delta ", "Epsilon"}
	write := func(id string) {
		var ents []any
		for range r.IntN(5) {
			e := row("name", names[r.IntN(len(names))])
			if r.IntN(2) == 0 {
				e.Set("aliases", []any{names[r.IntN(len(names))], "x" + id})
			}
			ents = append(ents, e)
		}
		writeManifest(t, dir, id, "known_entities", ents)
	}
	for a := range 6 {
		write(fmt.Sprintf("a%d", a))
	}
	s := openStore(t, dir, june30)
	flat := func(idx nameIndex) map[string][]string {
		out := map[string][]string{}
		for k, ps := range idx {
			for _, p := range ps {
				out[k] = append(out[k], fmt.Sprintf("%s#%d", p.ai.id, p.pos))
			}
		}
		return out
	}
	for step := range 200 {
		id := fmt.Sprintf("a%d", r.IntN(8))
		switch r.IntN(4) {
		case 0:
			os.Remove(filepath.Join(dir, "agents", id+".l5.yaml"))
		default:
			write(id)
		}
		v := s.current()
		if diff := cmp.Diff(flat(buildNames(v.agents)), flat(v.names)); diff != "" {
			t.Fatalf("step %d: incremental index differs from a rebuild (-rebuild +incremental):\n%s", step, diff)
		}
	}
}
