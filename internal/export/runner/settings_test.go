package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/export"
)

// refuses is an exporter that fails the test when it is run.
func refuses(t *testing.T, id string) *fake {
	return &fake{id: id, export: func(context.Context, *export.Env, export.Options) (*export.Output, error) {
		t.Errorf("%s was run", id)
		return output(id, team("should not be written"), nil), nil
	}}
}

func writeSettings(t *testing.T, lib, content string) {
	t.Helper()
	path := SettingsPath(lib)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRunSkipsExcludedAgents: an agent left out by --skip or by the
// library's settings is a skipped row that says what excluded it; it is
// not run, and its manifest and cache stay as they are.
func TestRunSkipsExcludedAgents(t *testing.T) {
	lib := t.TempDir()
	mustRun(t, options(lib, returns("alpha", team("A"), nil), returns("beta", team("B"), nil), returns("gamma", team("G"), nil)))
	before := files(t, filepath.Join(lib, "agents"))
	writeSettings(t, lib, "# agents this library never takes\nskip: [gamma]\n")

	opts := options(lib, returns("alpha", team("A", "A2"), nil), refuses(t, "beta"), refuses(t, "gamma"))
	opts.Skip = []string{"beta"}
	res := byAgent(mustRun(t, opts))
	if r := res["alpha"]; r.Status != StatusOK {
		t.Errorf("alpha: %+v", r)
	}
	if r := res["beta"]; r.Status != StatusSkipped || r.Reason != "excluded by --skip" || r.Path != "" {
		t.Errorf("beta: %+v", r)
	}
	if r := res["gamma"]; r.Status != StatusSkipped || r.Reason != "excluded by "+SettingsPath(lib) {
		t.Errorf("gamma: %+v", r)
	}
	after := files(t, filepath.Join(lib, "agents"))
	for _, id := range []string{"beta", "gamma"} {
		p := filepath.Join(lib, "agents", id+".l5.yaml")
		if before[p] == "" || after[p] != before[p] {
			t.Errorf("%s's manifest changed", id)
		}
	}
	if m := readManifest(t, lib, "alpha"); len(m.Entities) != 2 {
		t.Errorf("alpha was not exported: %d entities", len(m.Entities))
	}

	// --agent names an excluded agent: it is still left out.
	opts.Skip, opts.Agent = nil, "gamma"
	if r := mustRun(t, opts); len(r) != 1 || r[0].Status != StatusSkipped {
		t.Errorf("--agent gamma: %+v", r)
	}
	// An output file is not the library: its settings do not apply.
	opts.Out = filepath.Join(t.TempDir(), "gamma.l5.yaml")
	opts.Exporters = []export.Exporter{returns("gamma", team("G"), nil)}
	if r := mustRun(t, opts); r[0].Status != StatusOK {
		t.Errorf("--out: %+v", r)
	}
}

// TestRunRefusesBadExclusions: an unknown agent id in --skip, and a
// settings file that is not exactly a skip list of known agent ids, stop
// the run before anything is written, with an error naming what is wrong.
func TestRunRefusesBadExclusions(t *testing.T) {
	for _, tc := range []struct {
		name, settings, skip, want string
	}{
		{"skip flag", "", "delta", `--skip: no exporter for agent "delta" (known: alpha, beta)`},
		{"unknown key", "skip: [alpha]\nskpi: [beta]\n", "", `unknown key "skpi" (known: skip)`},
		{"unknown agent", "skip: [alpha, delta]\n", "", `skip[1]: no exporter for agent "delta" (known: alpha, beta)`},
		{"not a list", "skip: alpha\n", "", "skip must be a list of agent ids, not alpha"},
		{"not an id", "skip: [[alpha]]\n", "", "skip[0] must be an agent id"},
		{"not a mapping", "- alpha\n", "", "want a mapping"},
		{"not YAML", "skip: [alpha\n", "", "export.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lib := t.TempDir()
			if tc.settings != "" {
				writeSettings(t, lib, tc.settings)
			}
			opts := options(lib, refuses(t, "alpha"), refuses(t, "beta"))
			if tc.skip != "" {
				opts.Skip = []string{tc.skip}
			}
			_, err := Run(context.Background(), opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(lib, "agents")); err == nil {
				t.Error("something was written")
			}
		})
	}
}

// TestEmptySettingsSkipNothing: an empty file, an empty list and a null
// skip leave every agent in.
func TestEmptySettingsSkipNothing(t *testing.T) {
	for _, content := range []string{"", "# nothing\n", "skip: []\n", "skip:\n"} {
		lib := t.TempDir()
		writeSettings(t, lib, content)
		res := mustRun(t, options(lib, returns("alpha", team("A"), nil)))
		if res[0].Status != StatusOK {
			t.Errorf("%q: %+v", content, res[0])
		}
	}
}
