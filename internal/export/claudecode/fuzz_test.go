package claudecode

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
)

// The files FuzzClaudeCodeFile puts its bytes in, by kind, relative to
// the home: an auto-memory note, a brain overview, a brain log, the
// knowledge graph.
var claudeFiles = []string{
	".claude/projects/-home-dev-repos-payments-api/memory/fuzzed.md",
	"claude-brain/PROJECTS/Fuzzed/OVERVIEW.md",
	"claude-brain/LOG/2026-11-05-fuzzed.md",
	"claude-memory/memory.jsonl",
}

// claudeKind is the kind of a fixture file, or -1.
func claudeKind(rel string) int {
	switch {
	case strings.HasPrefix(rel, ".claude/projects/") && strings.HasSuffix(rel, ".md"):
		return 0
	case strings.HasPrefix(rel, "claude-brain/PROJECTS/"):
		return 1
	case strings.HasPrefix(rel, "claude-brain/LOG/"):
		return 2
	case strings.HasSuffix(rel, "memory.jsonl"):
		return 3
	}
	return -1
}

// FuzzClaudeCodeFile puts random bytes in a note, an overview, a log or
// the knowledge graph, beside a good file of each kind, and exports the
// home through exporttest.Checked. The seeds are the tests' fixture
// files.
func FuzzClaudeCodeFile(f *testing.F) {
	real := exporttest.Env(f, nil)
	fixture(f, real)
	files := exporttest.ReadFiles(f, real.Home)
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		if k := claudeKind(rel); k >= 0 && len(files[rel]) <= exporttest.MaxSeed {
			f.Add(uint8(k), files[rel])
		}
	}
	f.Add(uint8(0), []byte("---\nname: \"\\ud800\\0\"\ntype: "+strings.Repeat("t", 80)+"\ntags: [1, null, {a: b}, "+strings.Repeat("x,", 40)+"y]\nvisibility: [team]\n---\n# "+strings.Repeat("N", 200)+"\n"))
	f.Add(uint8(1), []byte("# \n\n## Status\nArchived 2026-02-30, cancelled 0000-00-00\n"))
	f.Add(uint8(2), []byte("---\nvisibility: public\n---\n"+strings.Repeat("word ", 100)+"\n"))
	f.Add(uint8(3), []byte(`{"type":"entity","name":"`+strings.Repeat("n", 200)+`","entityType":"a/`+strings.Repeat("t", 80)+`","observations":[null,"x",{"a":1}]}`+"\n"+
		`{"type":"entity","name":"\ud800","entityType":"/"}`+"\n"+`{"type":"entity","name":"`+strings.Repeat(`\u00e9`, 3000)+`"}`+"\n"))

	base := map[string][]byte{}
	for _, rel := range []string{
		".claude/projects/-home-dev-repos-payments-api/memory/refund_retries.md",
		"claude-brain/PROJECTS/PaymentsAPI/OVERVIEW.md",
		"claude-brain/LOG/2026-11-05-desktop.md",
		"claude-memory/memory.jsonl",
	} {
		if files[rel] == nil {
			f.Fatalf("the fixture has no %s", rel)
		}
		base[rel] = files[rel]
	}

	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		env := exporttest.Env(t, nil)
		exporttest.WriteFiles(t, env.Home, base)
		exporttest.WriteFiles(t, env.Home, map[string][]byte{claudeFiles[int(kind)%len(claudeFiles)]: data})
		exporttest.Checked(t, Exporter{}, env, export.Options{})
	})
}

// TestNamedPipesAreNotWaitedOn makes each file FuzzClaudeCodeFile fuzzes
// a named pipe no one writes to: the export must not block on it.
func TestNamedPipesAreNotWaitedOn(t *testing.T) {
	for _, rel := range claudeFiles {
		t.Run(rel, func(t *testing.T) {
			env := exporttest.Env(t, nil)
			fixture(t, env)
			exporttest.FIFO(t, filepath.Join(env.Home, filepath.FromSlash(rel)))
			exporttest.Checked(t, Exporter{}, env, export.Options{})
		})
	}
}
