package claudedesktop

import (
	"encoding/json"
	"maps"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
)

const (
	codeStore   = ".config/Claude/claude-code-sessions/acct-1/org-1/"
	coworkStore = ".config/Claude/local-agent-mode-sessions/acct-1/org-1/"
)

// The files FuzzClaudeDesktopFile puts its bytes in, by kind, and the
// exporter that reads each.
var desktopFiles = []struct {
	rel string
	x   Exporter
}{
	{codeStore + "local_f00d.json", Code},
	{coworkStore + "local_f00d.json", Cowork},
	{coworkStore + "local_f00d/audit.jsonl", Cowork},
}

// FuzzClaudeDesktopFile puts random bytes in a Code state file, a
// Co-Work state file or a Co-Work run's audit.jsonl, beside a good state
// file of each surface, and exports the surface through
// exporttest.Checked. The seeds are the tests' fixture files.
func FuzzClaudeDesktopFile(f *testing.F) {
	real := exporttest.Env(f, nil)
	desktop := path.Join(real.Home, ".config", "Claude")
	codeFixture(f, desktop)
	coworkFixture(f, desktop)
	files := exporttest.ReadFiles(f, real.Home)
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		if len(files[rel]) > exporttest.MaxSeed {
			continue
		}
		switch {
		case strings.HasSuffix(rel, "/audit.jsonl"):
			f.Add(uint8(2), files[rel])
		case strings.Contains(rel, "/local-agent-mode-sessions/"):
			f.Add(uint8(1), files[rel])
		case strings.Contains(rel, "/claude-code-sessions/"):
			f.Add(uint8(0), files[rel])
		}
	}
	f.Add(uint8(0), []byte(`{"sessionId":"\ud800","title":"`+strings.Repeat("t", 300)+`","cwd":"`+strings.Repeat("/d", 400)+
		`","createdAt":1e300,"lastActivityAt":"-5","model":"\u0000","enabledMcpTools":{"a":true,"b":1}}`))
	f.Add(uint8(1), []byte(`{"sessionId":"r","cwd":"C:\\","userSelectedFolders":["/",".","..","\\\\?\\D:\\x",""],"createdAt":"1762246800000"}`))
	f.Add(uint8(2), []byte(`{"type":"result","num_turns":1e20,"total_cost_usd":-1e308,"is_error":"yes"}`+"\n"+
		`{"type":"system","subtype":"init","tools":`+strings.Repeat("[", 3000)+"\n"))

	base := desktopBase(f)

	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		env := exporttest.Env(t, nil)
		file := desktopFiles[int(kind)%len(desktopFiles)]
		exporttest.WriteFiles(t, env.Home, base)
		exporttest.WriteFiles(t, env.Home, map[string][]byte{file.rel: data})
		exporttest.Checked(t, file.x, env, export.Options{})
	})
}

// desktopBase is every FuzzClaudeDesktopFile input's home: a good state
// file of each surface, and one of the fuzzed run.
func desktopBase(tb testing.TB) map[string][]byte {
	state := func(id, title string) []byte {
		data, err := json.Marshal(map[string]any{"sessionId": id, "title": title, "cwd": "/Users/dev/src/payments-api",
			"createdAt": ms(2026, 11, 4, 10), "model": "claude-opus-4", "permissionMode": "acceptEdits"})
		if err != nil {
			tb.Fatal(err)
		}
		return data
	}
	return map[string][]byte{
		codeStore + "local_c1.json":     state("c1", "Fix the refund retry loop"),
		coworkStore + "local_r1.json":   state("r1", "Wire the Co-Work export"),
		coworkStore + "local_f00d.json": state("f00d", "The fuzzed run"),
	}
}

// TestNamedPipesAreNotWaitedOn makes each file FuzzClaudeDesktopFile
// fuzzes a named pipe no one writes to: the export must not block on it.
func TestNamedPipesAreNotWaitedOn(t *testing.T) {
	for _, file := range desktopFiles {
		t.Run(file.rel, func(t *testing.T) {
			env := exporttest.Env(t, nil)
			exporttest.WriteFiles(t, env.Home, desktopBase(t))
			exporttest.FIFO(t, path.Join(env.Home, file.rel))
			exporttest.Checked(t, file.x, env, export.Options{})
		})
	}
}
