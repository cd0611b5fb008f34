package copilotvscode

import (
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
)

// The files FuzzCopilotVSCodeFile puts its bytes in, by kind, relative to
// the home.
var vscodeFiles = []string{
	".config/Code/User/workspaceStorage/a1b2c3d4/" + chatDir + "/transcripts/f00d-fuzzed.jsonl",
	".config/Code/User/workspaceStorage/a1b2c3d4/" + chatDir + "/memory-tool/memories/repo/fuzzed.md",
}

// FuzzCopilotVSCodeFile puts random bytes in a transcript or a memory
// file of a workspace that also holds a good transcript and memory file,
// and exports the storage through exporttest.Checked. The seeds are the
// tests' fixture files.
func FuzzCopilotVSCodeFile(f *testing.F) {
	real := exporttest.Env(f, nil)
	fixture(f, real.Home)
	files := exporttest.ReadFiles(f, real.Home)
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		if len(files[rel]) > exporttest.MaxSeed {
			continue
		}
		switch {
		case strings.Contains(rel, "/transcripts/"):
			f.Add(uint8(0), files[rel])
		case strings.Contains(rel, "/memories/"):
			f.Add(uint8(1), files[rel])
		}
	}
	f.Add(uint8(0), []byte(start("2026-11-04T10:00:00.000Z", "copilot-\xff", "0.33\x00")+"\n"+user("/fix\u2028 \xff")+"\n"))
	f.Add(uint8(0), []byte(ev("session.start", map[string]any{"startTime": 1.5e300, "producer": strings.Repeat("p", 400)})+"\n"+
		ev("user.message", map[string]any{"content": []any{"not", "a string"}})+"\n"))
	f.Add(uint8(1), []byte("- "+strings.Repeat("bullet ", 400)+"\n- caf\xe9\n"))

	base := map[string][]byte{}
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		if strings.Contains(rel, "a1b2c3d4/") && (path.Base(rel) == "0f1e-refund.jsonl" || path.Base(rel) == "payments-api.md") {
			base[rel] = files[rel]
		}
	}
	if len(base) != 2 {
		f.Fatalf("the fixture's files moved: %v", slices.Collect(maps.Keys(base)))
	}

	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		env := exporttest.Env(t, nil)
		exporttest.WriteFiles(t, env.Home, base)
		exporttest.WriteFiles(t, env.Home, map[string][]byte{vscodeFiles[int(kind)%len(vscodeFiles)]: data})
		exporttest.Checked(t, exporter(t), env, export.Options{})
	})
}

// TestNamedPipesAreNotWaitedOn makes a transcript, then a memory file, a
// named pipe no one writes to: the export must not block on it.
func TestNamedPipesAreNotWaitedOn(t *testing.T) {
	for _, rel := range vscodeFiles {
		t.Run(path.Base(rel), func(t *testing.T) {
			env := exporttest.Env(t, nil)
			fixture(t, env.Home)
			exporttest.FIFO(t, filepath.Join(env.Home, filepath.FromSlash(rel)))
			exporttest.Checked(t, exporter(t), env, export.Options{})
		})
	}
}
