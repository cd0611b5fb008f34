package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

var updateExportGolden = flag.Bool("update-export", false, "rewrite the golden export-all outputs in testdata/")

// fakeExporter is a test exporter whose Export is a function.
type fakeExporter struct {
	id  string
	run func(env *export.Env, opts export.Options) (*export.Output, error)
}

func (f *fakeExporter) Info() export.Info {
	return export.Info{ID: f.id, Type: "code-assistant", Label: "Fake " + f.id}
}
func (f *fakeExporter) Detect(*export.Env) export.Presence { return export.Presence{} }
func (f *fakeExporter) Export(_ context.Context, env *export.Env, opts export.Options) (*export.Output, error) {
	return f.run(env, opts)
}
func (f *fakeExporter) Health(context.Context, *export.Env) export.Health {
	return export.Health{Status: export.StatusOK}
}

var cliSecret = "ghp_" + strings.Repeat("Zx90", 9)

// fakeExporters are: alpha, which reads <home>/.alpha/*.md (one entity a
// file, through the incremental cache) and warns about a corrupt file;
// beta, not installed; gamma, which panics; and epsilon, whose summary
// holds a GitHub token.
func fakeExporters() []export.Exporter {
	alpha := &fakeExporter{id: "alpha", run: func(env *export.Env, opts export.Options) (*export.Output, error) {
		dir := env.HomePath(".alpha")
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, export.NotInstalled("no %s", dir)
		}
		out := &export.Output{Agent: export.Agent{ID: "alpha", Type: "code-assistant", Instance: env.Instance()}, SpecVersion: "0.1", Capabilities: []string{"chat"}}
		for _, e := range entries {
			path := filepath.Join(dir, e.Name())
			if strings.HasSuffix(e.Name(), ".bad") {
				out.Warn(filepath.Base(path), 2, "not UTF-8, skipped")
				continue
			}
			fp, _ := export.Stat(path)
			ent, err := export.Cached(opts.Cache, path, fp, func() (export.Entity, error) {
				data, err := os.ReadFile(path)
				return export.Entity{Name: strings.TrimSuffix(e.Name(), ".md"), Type: "project", Summary: strings.TrimSpace(string(data)), Visibility: "team"}, err
			})
			if err != nil {
				return nil, err
			}
			out.Entities = append(out.Entities, ent)
		}
		if opts.Since.IsZero() || !opts.Since.After(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)) {
			out.Sessions = []export.Session{{Date: "2026-06-01", Cwd: "/home/dev/alpha", KeyActions: []string{"café ☕ refunds"}, Visibility: "team"}}
		}
		return out, nil
	}}
	beta := &fakeExporter{id: "beta", run: func(env *export.Env, _ export.Options) (*export.Output, error) {
		return nil, export.NotInstalled("no %s", env.HomePath(".beta"))
	}}
	gamma := &fakeExporter{id: "gamma", run: func(*export.Env, export.Options) (*export.Output, error) {
		var m map[string]int
		m["boom"]++ // a nil map: panics
		return nil, nil
	}}
	epsilon := &fakeExporter{id: "epsilon", run: func(*export.Env, export.Options) (*export.Output, error) {
		return &export.Output{
			Agent: export.Agent{ID: "epsilon", Type: "code-assistant"}, SpecVersion: "0.1",
			Entities: []export.Entity{{Name: "Deploy", Summary: "push with " + cliSecret, Visibility: "team"}, {Name: "Diary", Visibility: "private"}},
		}, nil
	}}
	return []export.Exporter{alpha, beta, epsilon, gamma}
}

// fakeExportDeps runs the export commands against the fake exporters, a
// home holding alpha's store, and a fixed clock.
func fakeExportDeps(t *testing.T) (exportDeps, string) {
	t.Helper()
	home := t.TempDir()
	store := filepath.Join(home, ".alpha")
	os.MkdirAll(store, 0o755)
	os.WriteFile(filepath.Join(store, "Payments API.md"), []byte("Refunds, payouts and the ledger"), 0o644)
	os.WriteFile(filepath.Join(store, "Ledger.md"), []byte("Double-entry book"), 0o644)
	os.WriteFile(filepath.Join(store, "broken.bad"), []byte{0xff, 0xfe}, 0o644)
	now := time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC)
	return exportDeps{
		exporters:  fakeExporters,
		env:        func() (*export.Env, error) { return &export.Env{Home: home, Hostname: "devbox", GOOS: "linux"}, nil },
		now:        func() time.Time { return now },
		isTerminal: func(any) bool { return false },
	}, home
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateExportGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-export to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update-export to accept):\n%s\nwant:\n%s", name, got, want)
	}
}

func TestExportAllCommand(t *testing.T) {
	deps, home := fakeExportDeps(t)
	lib := filepath.Join(t.TempDir(), "library")
	exportAll := func(args ...string) (string, string, int) {
		return runWriteCLI(t, newExportAllCommand(deps), append(args, "--library", lib)...)
	}
	normalize := func(s string) string {
		s = strings.ReplaceAll(s, lib, "$LIBRARY")
		s = strings.ReplaceAll(s, home, "$HOME")
		// The line of the panic depends on this file's layout.
		if i := strings.Index(s, "export_test.go:"); i >= 0 {
			j := i + len("export_test.go:")
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			s = s[:i] + "export_test.go:LINE" + s[j:]
		}
		return s
	}

	out, errOut, code := exportAll("--json")
	if code != 1 || errOut == "" {
		t.Errorf("a failed agent exits 1: %d, stderr %q", code, errOut)
	}
	golden(t, "export-all.json", normalize(out))
	if !strings.Contains(errOut, "ok          alpha") || !strings.Contains(errOut, "error       gamma") {
		t.Errorf("with --json and no terminal, the per-agent lines go to stderr:\n%s", errOut)
	}

	for _, root := range []string{lib, filepath.Dir(lib)} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if data, _ := os.ReadFile(p); strings.Contains(string(data), cliSecret) {
					t.Errorf("the secret reached %s", p)
				}
			}
			return nil
		})
	}
	data, _ := os.ReadFile(filepath.Join(lib, "agents", "epsilon.l5.yaml"))
	if !strings.Contains(string(data), redact.Sentinel) || strings.Contains(string(data), "Diary") {
		t.Errorf("epsilon:\n%s", data)
	}
	if _, err := os.Stat(filepath.Join(lib, "agents", "beta.l5.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a skipped agent got a manifest")
	}

	// An MCP commit between two runs survives; the second run is a no_op.
	if _, err := commit.New(lib).Commit(context.Background(), commit.Request{AgentID: "alpha", Entities: []any{map[string]any{"name": "From MCP"}}}); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(t.TempDir(), "reports", "export.yaml")
	out, errOut, code = exportAll("--report-out", report)
	if code != 1 || errOut != "" {
		t.Errorf("text mode: %d, stderr %q", code, errOut)
	}
	golden(t, "export-all-again.txt", normalize(out))
	yamlReport, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "export-all-report.yaml", normalize(string(yamlReport)))
	if data, _ := os.ReadFile(filepath.Join(lib, "agents", "alpha.l5.yaml")); !strings.Contains(string(data), "From MCP") {
		t.Errorf("the committed row was lost:\n%s", data)
	}

	out, _, code = exportAll("--agent", "alpha", "--dry-run", "--access-level", "public")
	if code != 0 || !strings.HasPrefix(out, "would_write alpha                    0 entities, 0 sessions (entities +0 ~0 -2, sessions +0 ~0 -1), 3 above the access level") || !strings.Contains(out, "(dry run: nothing written)") {
		t.Errorf("dry run at public: %d\n%s", code, out)
	}
	if data, _ := os.ReadFile(filepath.Join(lib, "agents", "alpha.l5.yaml")); !strings.Contains(string(data), "Payments API") {
		t.Error("the dry run wrote")
	}

	for _, args := range [][]string{{"--agent", "nobody"}, {"--since", "last week"}, {"--access-level", "secret"}} {
		if _, errOut, code := exportAll(args...); code != 1 || !strings.HasPrefix(errOut, "error: ") {
			t.Errorf("%v: %d %q", args, code, errOut)
		}
	}
}

func TestExportAllShowsAProgressBarOnATerminal(t *testing.T) {
	deps, _ := fakeExportDeps(t)
	deps.isTerminal = func(any) bool { return true }
	lib := t.TempDir()
	out, errOut, _ := runWriteCLI(t, newExportAllCommand(deps), "--library", lib, "--agent", "alpha")
	if !strings.Contains(errOut, "\r\x1b[K[........................] 1/1 alpha") || !strings.HasSuffix(errOut, "\r\x1b[K") {
		t.Errorf("stderr %q", errOut)
	}
	if !strings.HasPrefix(out, "ok          alpha                    2 entities, 1 sessions") {
		t.Errorf("stdout %q", out)
	}
}

func TestAgentExportHookCommands(t *testing.T) {
	deps, home := fakeExportDeps(t)
	lib := t.TempDir()
	newRoot := func() *cobra.Command {
		root := &cobra.Command{Use: "bourdon"}
		// A group another file already made keeps its commands.
		root.AddCommand(&cobra.Command{Use: "alpha", Short: "alpha tools"})
		root.Commands()[0].AddCommand(&cobra.Command{Use: "doctor", Run: func(*cobra.Command, []string) {}})
		addAgentCommands(root, deps)
		return root
	}
	root := newRoot()
	hook := func(args ...string) (string, string, int) {
		return runWriteCLI(t, newRoot(), append(args, "--library", lib)...)
	}
	var names []string
	for _, c := range root.Commands() {
		names = append(names, c.Name())
		if c.Name() == "alpha" && len(c.Commands()) != 2 {
			t.Errorf("alpha's group: %v", c.Commands())
		}
	}
	if strings.Join(names, " ") != "alpha beta epsilon gamma" {
		t.Errorf("groups: %v", names)
	}

	for _, id := range []string{"alpha", "beta", "epsilon", "gamma"} {
		out, errOut, code := hook(id, "export")
		if code != 0 || out != "" || errOut != "" {
			t.Errorf("%s export must be silent and exit 0: %d %q %q", id, code, out, errOut)
		}
	}
	path := filepath.Join(lib, "agents", "alpha.l5.yaml")
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}

	_, errOut, code := hook("alpha", "export", "--verbose")
	if want := "bourdon alpha export: warning: broken.bad:2: not UTF-8, skipped\nbourdon alpha export: unchanged " + path + "\n"; code != 0 || errOut != want {
		t.Errorf("verbose alpha: %d\n%q\nwant\n%q", code, errOut, want)
	}
	_, errOut, _ = hook("beta", "export", "--verbose")
	if want := "bourdon beta export: no data (not installed: no " + filepath.Join(home, ".beta") + "), skipping\n"; errOut != want {
		t.Errorf("verbose beta: %q, want %q", errOut, want)
	}
	_, errOut, _ = hook("gamma", "export", "--verbose")
	if !strings.HasPrefix(errOut, "bourdon gamma export: export failed: panic: assignment to entry in nil map (in bourdon.fakeExporters.func") {
		t.Errorf("verbose gamma: %q", errOut)
	}

	out := filepath.Join(t.TempDir(), "alpha.yaml")
	before, _ := os.ReadFile(path)
	stdout, errOut, code := hook("alpha", "export", "--out", out, "--print", "--since", "2026-06-02")
	written, err := os.ReadFile(out)
	if code != 0 || errOut != "" || err != nil || stdout != string(written) || strings.Contains(stdout, "recent_sessions") || !strings.Contains(stdout, "Payments API") {
		t.Errorf("--out --print: %d %q %v\n%s", code, errOut, err, stdout)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("--out touched the library")
	}

	for _, args := range [][]string{{"--frobnicate"}, {"--print=maybe"}, {"--since", "soon"}, {"--access-level", "secret"}, {"extra", "args"}} {
		if _, _, code := hook(append([]string{"alpha", "export"}, args...)...); code != 0 {
			t.Errorf("%v: exit %d, a hook always exits 0", args, code)
		}
	}
	_, errOut, _ = hook("alpha", "export", "--verbose", "--since", "soon")
	if !strings.HasPrefix(errOut, "bourdon alpha export: --since \"soon\" is not a date") {
		t.Errorf("%q", errOut)
	}
}

// TestExportAllLeavesExcludedAgentsOut: --skip and the library's
// .bourdon/export.yaml leave installed agents out, as the SessionEnd
// hook's plain `export-all --library <lib>` runs it; an excluded agent is
// reported skipped with what excluded it and its manifest stays as it is.
func TestExportAllLeavesExcludedAgentsOut(t *testing.T) {
	deps, home := fakeExportDeps(t)
	lib := filepath.Join(t.TempDir(), "library")
	exportAll := func(args ...string) (string, string, int) {
		return runWriteCLI(t, newExportAllCommand(deps), append(args, "--library", lib)...)
	}
	if _, _, code := exportAll("--skip", "gamma"); code != 0 {
		t.Fatalf("first run: exit %d", code)
	}
	epsilon := filepath.Join(lib, "agents", "epsilon.l5.yaml")
	before, err := os.ReadFile(epsilon)
	if err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(lib, ".bourdon", "export.yaml")
	if err := os.WriteFile(settings, []byte("skip: [gamma, epsilon]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(home, ".alpha", "New.md"), []byte("a new note"), 0o644)

	out, errOut, code := exportAll("--skip", "alpha")
	if code != 0 || errOut != "" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"skipped     alpha                    excluded by --skip\n",
		"skipped     epsilon                  excluded by " + settings + "\n",
		"skipped     gamma                    excluded by " + settings + "\n",
		"export-all: 4 skipped\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if after, _ := os.ReadFile(epsilon); string(after) != string(before) {
		t.Error("an excluded agent's manifest changed")
	}
	if data, _ := os.ReadFile(filepath.Join(lib, "agents", "alpha.l5.yaml")); strings.Contains(string(data), "a new note") {
		t.Error("an excluded agent was exported")
	}

	// The per-agent hook command honours the library's settings too.
	root := &cobra.Command{Use: "bourdon"}
	addAgentCommands(root, deps)
	_, errOut, code = runWriteCLI(t, root, "epsilon", "export", "--verbose", "--library", lib)
	if want := "bourdon epsilon export: excluded by " + settings + ", skipping\n"; code != 0 || errOut != want {
		t.Errorf("hook: %d %q, want %q", code, errOut, want)
	}

	// A settings file that is not exactly a skip list of known agents
	// stops the run, naming what is wrong; so does an unknown --skip.
	os.WriteFile(settings, []byte("skip: [epsilon]\nonly: [alpha]\n"), 0o644)
	if _, errOut, code := exportAll(); code != 1 || !strings.Contains(errOut, `unknown key "only" (known: skip)`) {
		t.Errorf("unknown key: %d %q", code, errOut)
	}
	os.WriteFile(settings, []byte("skip: [cursor]\n"), 0o644)
	if _, errOut, code := exportAll(); code != 1 || !strings.Contains(errOut, `skip[0]: no exporter for agent "cursor" (known: alpha, beta, epsilon, gamma)`) {
		t.Errorf("unknown agent: %d %q", code, errOut)
	}
	os.Remove(settings)
	if _, errOut, code := exportAll("--skip", "nobody"); code != 1 || !strings.Contains(errOut, `--skip: no exporter for agent "nobody"`) {
		t.Errorf("unknown --skip: %d %q", code, errOut)
	}
	if data, _ := os.ReadFile(filepath.Join(lib, "agents", "alpha.l5.yaml")); strings.Contains(string(data), "a new note") {
		t.Error("a refused run exported")
	}
}
