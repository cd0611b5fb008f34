package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// fake is a test exporter: export says what it returns.
type fake struct {
	id     string
	export func(ctx context.Context, env *export.Env, opts export.Options) (*export.Output, error)
}

func (f *fake) Info() export.Info {
	return export.Info{ID: f.id, Type: "code-assistant", Label: "Fake " + f.id}
}
func (f *fake) Detect(env *export.Env) export.Presence { return export.Presence{} }
func (f *fake) Export(ctx context.Context, env *export.Env, opts export.Options) (*export.Output, error) {
	return f.export(ctx, env, opts)
}
func (f *fake) Health(ctx context.Context, env *export.Env) export.Health {
	return export.Health{Status: export.StatusOK}
}

// output returns a fake agent's output with the given rows.
func output(id string, entities []export.Entity, sessions []export.Session) *export.Output {
	return &export.Output{
		Agent:        export.Agent{ID: id, Type: "code-assistant", Instance: "host"},
		SpecVersion:  "0.1",
		Capabilities: []string{"chat"},
		Entities:     entities,
		Sessions:     sessions,
		Policy:       &export.Policy{Default: "team"},
	}
}

func returns(id string, entities []export.Entity, sessions []export.Session) *fake {
	return &fake{id: id, export: func(context.Context, *export.Env, export.Options) (*export.Output, error) {
		return output(id, entities, sessions), nil
	}}
}

func team(names ...string) []export.Entity {
	out := make([]export.Entity, len(names))
	for i, n := range names {
		out[i] = export.Entity{Name: n, Type: "project", Summary: "about " + n, Visibility: "team"}
	}
	return out
}

// secret is a GitHub token: no exporter battery knows its shape, the
// server's does.
var secret = "ghp_" + strings.Repeat("a1B2", 9)

var fixedNow = time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC)

func options(lib string, exporters ...export.Exporter) Options {
	return Options{Library: lib, Env: &export.Env{Home: "/nonexistent"}, Exporters: exporters, Now: func() time.Time { return fixedNow }}
}

func mustRun(t *testing.T, opts Options) []Result {
	t.Helper()
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func byAgent(results []Result) map[string]Result {
	out := map[string]Result{}
	for _, r := range results {
		out[r.Agent] = r
	}
	return out
}

func readManifest(t *testing.T, lib, id string) *l5.Manifest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(lib, "agents", id+".l5.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := yaml11.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if vs := l5.Validate(doc); len(vs) > 0 {
		t.Errorf("%s is not valid L5: %v", id, vs)
	}
	m, _ := l5.FromValue(doc, id)
	return m
}

// files returns every file under root with its modification time and
// bytes.
func files(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, _ := d.Info()
		data, _ := os.ReadFile(p)
		out[p] = fmt.Sprintf("%d %s", info.ModTime().UnixNano(), data)
		return nil
	})
	return out
}

func TestRunEachAgentOnItsOwn(t *testing.T) {
	lib := t.TempDir()
	withWarnings := &fake{id: "alpha", export: func(context.Context, *export.Env, export.Options) (*export.Output, error) {
		out := output("alpha", team("Payments API"), []export.Session{{Date: "2026-06-01", Cwd: "/r", Visibility: "team"}})
		out.Warn("/store/a.jsonl", 3, "not JSON: %s", "{oops")
		out.Warn("/store/b.md", 0, "token %s in the way", secret)
		return out, nil
	}}
	absent := &fake{id: "beta", export: func(context.Context, *export.Env, export.Options) (*export.Output, error) {
		return nil, export.NotInstalled("no /home/dev/.beta")
	}}
	failing := &fake{id: "delta", export: func(context.Context, *export.Env, export.Options) (*export.Output, error) {
		return nil, errors.New("the database is locked")
	}}
	leaking := returns("epsilon", []export.Entity{{Name: "Deploy", Summary: "uses " + secret + " to push", Visibility: "team"}}, nil)
	panicking := &fake{id: "gamma", export: func(context.Context, *export.Env, export.Options) (*export.Output, error) {
		panic("boom")
	}}
	var seen []string
	opts := options(lib, withWarnings, absent, failing, leaking, panicking)
	opts.Progress = func(p Progress) {
		seen = append(seen, fmt.Sprintf("%d/%d %s %v", p.Index, p.Total, p.Agent, p.Result != nil))
	}
	results := mustRun(t, opts)
	var statuses []string
	for _, r := range results {
		statuses = append(statuses, r.Agent+"="+r.Status)
	}
	if want := []string{"alpha=ok", "beta=skipped", "delta=error", "epsilon=ok", "gamma=error"}; !slices.Equal(statuses, want) {
		t.Fatalf("statuses %v, want %v", statuses, want)
	}
	if len(seen) != 10 || seen[0] != "0/5 alpha false" || seen[9] != "4/5 gamma true" {
		t.Errorf("progress: %v", seen)
	}
	got := byAgent(results)

	a := got["alpha"]
	if a.Entities != 1 || a.Sessions != 1 || a.Path != filepath.Join(lib, "agents", "alpha.l5.yaml") || a.Changes == nil || a.Changes.EntitiesAdded != 1 {
		t.Errorf("alpha: %+v", a)
	}
	if want := []string{"/store/a.jsonl:3: not JSON: {oops", "/store/b.md: " + redact.Sentinel}; !slices.Equal(a.Warnings, want) || a.WarningsTotal != 2 {
		t.Errorf("warnings %q, want %q (secrets redacted)", a.Warnings, want)
	}

	if b := got["beta"]; b.Reason != "not installed: no /home/dev/.beta" || b.Path != "" {
		t.Errorf("beta: %+v", b)
	}
	if _, err := os.Stat(filepath.Join(lib, "agents", "beta.l5.yaml")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a skipped agent got a manifest")
	}
	if d := got["delta"]; d.Reason != "the database is locked" {
		t.Errorf("delta: %+v", d)
	}
	if g := got["gamma"]; !strings.HasPrefix(g.Reason, "panic: boom (in runner.TestRunEachAgentOnItsOwn.func") || !strings.Contains(g.Reason, "runner_test.go:") {
		t.Errorf("gamma: %q", g.Reason)
	}
	for _, id := range []string{"delta", "gamma"} {
		if _, err := os.Stat(filepath.Join(lib, "agents", id+".l5.yaml")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("failed agent %s got a manifest", id)
		}
	}

	if e := readManifest(t, lib, "epsilon").Entities[0]; e.Summary != redact.Sentinel {
		t.Errorf("the secret reached the manifest: %q", e.Summary)
	}
	for p, content := range files(t, lib) {
		if strings.Contains(content, secret) {
			t.Errorf("the secret reached %s", p)
		}
	}
	if !Failed(results) {
		t.Error("Failed must report the error rows")
	}
	changes, _ := commit.New(lib).Changes("alpha")
	if len(changes) != 1 || changes[0].Caller != "exporter:alpha" || changes[0].Op != "export" {
		t.Errorf("provenance: %+v", changes)
	}
}

// storeExporter reads every *.md file of dir as one entity, each file a
// unit of the incremental cache.
func storeExporter(id, dir string, reads *int) *fake {
	return &fake{id: id, export: func(ctx context.Context, env *export.Env, opts export.Options) (*export.Output, error) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, export.NotInstalled("no %s", dir)
		}
		var ents []export.Entity
		for _, e := range entries {
			path := filepath.Join(dir, e.Name())
			fp, err := export.Stat(path)
			if err != nil {
				return nil, err
			}
			ent, err := export.Cached(opts.Cache, path, fp, func() (export.Entity, error) {
				*reads++
				data, err := os.ReadFile(path)
				return export.Entity{Name: strings.TrimSuffix(e.Name(), ".md"), Summary: strings.TrimSpace(string(data)), Visibility: "team"}, err
			})
			if err != nil {
				return nil, err
			}
			ents = append(ents, ent)
		}
		return output(id, ents, nil), nil
	}}
}

func TestRunIsIncrementalAndANoOpWhenNothingChanged(t *testing.T) {
	lib, store := t.TempDir(), t.TempDir()
	for i, body := range []string{"refunds", "payouts", "token " + secret} {
		os.WriteFile(filepath.Join(store, fmt.Sprintf("p%d.md", i)), []byte(body), 0o644)
	}
	reads := 0
	exp := storeExporter("store", store, &reads)
	first := mustRun(t, options(lib, exp))[0]
	if first.Status != StatusOK || first.CacheReads != 3 || first.CacheHits != 0 || reads != 3 {
		t.Fatalf("first run: %+v (%d reads)", first, reads)
	}
	cache, err := os.ReadFile(commit.New(lib).CachePath("store"))
	if err != nil || !strings.Contains(string(cache), "payouts") || strings.Contains(string(cache), secret) {
		t.Errorf("the cache holds what was read, redacted: %s %v", cache, err)
	}
	if info, err := os.Stat(commit.New(lib).CachePath("store")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the cache is the owner's only: %v %v", info.Mode(), err)
	}

	before := files(t, lib)
	reads = 0
	second := mustRun(t, options(lib, exp))[0]
	if second.Status != StatusNoOp || second.CacheHits != 3 || second.CacheReads != 0 || reads != 0 {
		t.Errorf("second run: %+v (%d reads)", second, reads)
	}
	if after := files(t, lib); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Error("a no_op run wrote something")
	}

	os.WriteFile(filepath.Join(store, "p1.md"), []byte("payouts, weekly"), 0o644)
	third := mustRun(t, options(lib, exp))[0]
	if third.Status != StatusOK || third.CacheHits != 2 || third.CacheReads != 1 || third.Changes.EntitiesUpdated != 1 {
		t.Errorf("after one change: %+v", third)
	}
	os.Remove(filepath.Join(store, "p0.md"))
	fourth := mustRun(t, options(lib, exp))[0]
	if fourth.Status != StatusOK || fourth.Changes.EntitiesRemoved != 1 || fourth.Entities != 2 {
		t.Errorf("after a removal: %+v", fourth)
	}
}

func TestRunKeepsRowsCommittedOverMCP(t *testing.T) {
	lib := t.TempDir()
	exp := returns("alpha", team("Payments API"), nil)
	mustRun(t, options(lib, exp))
	w := commit.New(lib)
	if _, err := w.Commit(context.Background(), commit.Request{AgentID: "alpha", Entities: []any{map[string]any{"name": "From MCP"}}}); err != nil {
		t.Fatal(err)
	}
	if r := mustRun(t, options(lib, exp))[0]; r.Status != StatusNoOp || r.Changes.TotalEntities != 2 {
		t.Errorf("re-export: %+v", r)
	}
	var names []string
	for _, e := range readManifest(t, lib, "alpha").Entities {
		names = append(names, e.Name)
	}
	if !slices.Equal(names, []string{"Payments API", "From MCP"}) {
		t.Errorf("entities: %v", names)
	}
}

func TestRunFiltersByAccessLevel(t *testing.T) {
	rows := []export.Entity{
		{Name: "Open", Visibility: "public"}, {Name: "Shared", Visibility: "team"},
		{Name: "Mine", Visibility: "private"}, {Name: "Unstamped"}, {Name: "Odd", Visibility: "confidential"},
	}
	for level, want := range map[string][]string{
		"":       {"Open", "Shared", "Unstamped"},
		"public": {"Open", "Unstamped"},
		"team":   {"Open", "Shared", "Unstamped"},
		// "confidential" is not a level: the row counts as private, and
		// at the private level it reaches the schema check, which
		// refuses it.
		"private": nil,
	} {
		lib := t.TempDir()
		opts := options(lib, returns("alpha", rows, nil))
		opts.AccessLevel = level
		r := mustRun(t, opts)[0]
		if level == "private" {
			if r.Status != StatusError || !strings.Contains(r.Reason, "/known_entities/4/visibility") {
				t.Errorf("private: %+v", r)
			}
			continue
		}
		var names []string
		if r.Status == StatusOK {
			for _, e := range readManifest(t, lib, "alpha").Entities {
				names = append(names, e.Name)
			}
		}
		if !slices.Equal(names, want) || r.Filtered != len(rows)-len(want) {
			t.Errorf("level %q: %v (filtered %d, %+v), want %v", level, names, r.Filtered, r, want)
		}
	}
	if _, err := Run(context.Background(), Options{Library: t.TempDir(), AccessLevel: "secret"}); err == nil {
		t.Error("an unknown access level was accepted")
	}
}

func TestRunRefusesAnInvalidDocumentAndWritesNothing(t *testing.T) {
	lib, store := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(store, "p.md"), []byte("x"), 0o644)
	reads := 0
	good := storeExporter("alpha", store, &reads)
	bad := &fake{id: "alpha", export: func(ctx context.Context, env *export.Env, opts export.Options) (*export.Output, error) {
		out, err := good.export(ctx, env, opts)
		if err == nil {
			out.Sessions = []export.Session{{Date: "2026-13-45", Visibility: "team"}}
			out.Entities = append(out.Entities, export.Entity{Name: "Long", Summary: strings.Repeat("x", 5000), Visibility: "team"})
		}
		return out, err
	}}
	r := mustRun(t, options(lib, bad))[0]
	if r.Status != StatusError || !strings.HasPrefix(r.Reason, "the export does not match the L5 schema, nothing was written: /known_entities/1/summary") || !strings.Contains(r.Reason, "/recent_sessions/0/date") {
		t.Errorf("%+v", r)
	}
	if entries, _ := os.ReadDir(lib); len(entries) != 0 {
		t.Errorf("a failing agent wrote %v (the cache included)", entries)
	}
	wrongAgent := returns("alpha", nil, nil)
	wrongAgent.export = func(context.Context, *export.Env, export.Options) (*export.Output, error) {
		return output("someone-else", nil, nil), nil
	}
	if r := mustRun(t, options(lib, wrongAgent))[0]; r.Status != StatusError || !strings.Contains(r.Reason, `"someone-else"`) {
		t.Errorf("%+v", r)
	}
	nothing := returns("alpha", nil, nil)
	nothing.export = func(context.Context, *export.Env, export.Options) (*export.Output, error) { return nil, nil }
	if r := mustRun(t, options(lib, nothing))[0]; r.Status != StatusError {
		t.Errorf("%+v", r)
	}
}

func TestRunDryRunWritesNothing(t *testing.T) {
	lib, store := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(store, "p.md"), []byte("x"), 0o644)
	reads := 0
	exp := storeExporter("alpha", store, &reads)
	opts := options(lib, exp, returns("beta", team("B"), nil))
	opts.DryRun = true
	results := mustRun(t, opts)
	if results[0].Status != StatusWouldWrite || results[0].Changes.EntitiesAdded != 1 || results[1].Status != StatusWouldWrite {
		t.Errorf("%+v", results)
	}
	if entries, _ := os.ReadDir(lib); len(entries) != 0 {
		t.Errorf("a dry run wrote %v", entries)
	}
	opts.DryRun = false
	mustRun(t, opts)
	before := files(t, lib)
	opts.DryRun = true
	if r := mustRun(t, opts); r[0].Status != StatusNoOp || r[1].Status != StatusNoOp {
		t.Errorf("%+v", r)
	}
	os.WriteFile(filepath.Join(store, "q.md"), []byte("y"), 0o644)
	if r := mustRun(t, opts)[0]; r.Status != StatusWouldWrite || r.Changes.EntitiesAdded != 1 || r.Changes.TotalEntities != 2 {
		t.Errorf("%+v", r)
	}
	if after := files(t, lib); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Error("a dry run wrote something")
	}
}

func TestRunOneAgentAndUnknownAgents(t *testing.T) {
	lib := t.TempDir()
	opts := options(lib, returns("alpha", team("A"), nil), returns("beta", team("B"), nil))
	opts.Agent = "beta"
	if r := mustRun(t, opts); len(r) != 1 || r[0].Agent != "beta" || r[0].Status != StatusOK {
		t.Errorf("%+v", r)
	}
	opts.Agent = "gamma"
	if _, err := Run(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "alpha, beta") {
		t.Errorf("unknown agent: %v", err)
	}
}

func TestRunStopsWhenCancelled(t *testing.T) {
	lib := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	first := &fake{id: "alpha", export: func(ctx context.Context, _ *export.Env, _ export.Options) (*export.Output, error) {
		cancel()
		return nil, ctx.Err()
	}}
	results, err := Run(ctx, options(lib, first, returns("beta", team("B"), nil)))
	if err != nil {
		t.Fatal(err)
	}
	if results[0].Status != StatusError || results[1].Status != StatusError || results[1].Reason != "not run: context canceled" {
		t.Errorf("%+v", results)
	}
	if _, err := os.Stat(filepath.Join(lib, "agents")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a cancelled run wrote manifests")
	}
}

func TestRunToAnOutputFile(t *testing.T) {
	lib := filepath.Join(t.TempDir(), "library")
	out := filepath.Join(t.TempDir(), "sub", "alpha.yaml")
	opts := options(lib, returns("alpha", append(team("A"), export.Entity{Name: "S", Summary: secret, Visibility: "team"}), nil))
	opts.Out = out
	r := mustRun(t, opts)[0]
	if r.Status != StatusOK || r.Path != out || r.Changes != nil {
		t.Errorf("%+v", r)
	}
	data, err := os.ReadFile(out)
	if err != nil || strings.Contains(string(data), secret) || !strings.Contains(string(data), "last_updated: '2026-06-30T12:00:00+00:00'") {
		t.Errorf("%s %v", data, err)
	}
	if _, err := os.Stat(lib); !errors.Is(err, fs.ErrNotExist) {
		t.Error("--out touched the library")
	}
	opts.Exporters = append(opts.Exporters, returns("beta", nil, nil))
	if _, err := Run(context.Background(), opts); err == nil {
		t.Error("--out with two exporters")
	}
}

func TestFilterAccessDropsNonRows(t *testing.T) {
	doc := yaml11.NewMap(2)
	row := yaml11.NewMap(1)
	row.Set("name", "x")
	doc.Set(l5.KeyEntities, []any{"not a row", row})
	doc.Set(l5.KeySessions, []any{})
	if n := FilterAccess(doc, visibility.Team); n != 1 || len(doc.Value(l5.KeyEntities).([]any)) != 1 {
		t.Errorf("%d %v", n, doc.Value(l5.KeyEntities))
	}
	if _, ok := doc.Get(l5.KeySessions); ok {
		t.Error("an empty list is dropped")
	}
}

func TestParseSince(t *testing.T) {
	for in, want := range map[string]string{
		"2026-06-01":                "2026-06-01T00:00:00Z",
		" 2026-06-01T09:30 ":        "2026-06-01T09:30:00Z",
		"2026-06-01T09:30:15":       "2026-06-01T09:30:15Z",
		"2026-06-01 09:30:15.5":     "2026-06-01T09:30:15.5Z",
		"2026-06-01T09:30:00+02:00": "2026-06-01T07:30:00Z",
		"2026-06-01T09:30:00Z":      "2026-06-01T09:30:00Z",
	} {
		got, err := ParseSince(in)
		if err != nil || got.UTC().Format(time.RFC3339Nano) != want {
			t.Errorf("ParseSince(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	if got, err := ParseSince(""); err != nil || !got.IsZero() {
		t.Errorf("empty: %v %v", got, err)
	}
	for _, bad := range []string{"yesterday", "2026-13-01", "06/01/2026"} {
		if _, err := ParseSince(bad); err == nil {
			t.Errorf("ParseSince(%q) accepted", bad)
		}
	}
}

func TestReferenceYAMLAndReport(t *testing.T) {
	results := []Result{
		{Agent: "alpha", Status: StatusOK, Path: "/lib/agents/alpha.l5.yaml", Entities: 8, Sessions: 3},
		{Agent: "beta", Status: StatusSkipped, Reason: "not installed: no ~/.beta"},
		{Agent: "gamma", Status: StatusError, Reason: "boom"},
	}
	data, err := ReferenceYAML(results)
	want := `exports:
- agent: alpha
  status: ok
  path: /lib/agents/alpha.l5.yaml
  entities: 8
  sessions: 3
- agent: beta
  status: skipped
  reason: 'not installed: no ~/.beta'
- agent: gamma
  status: error
  reason: boom
`
	if err != nil || string(data) != want {
		t.Errorf("%s\nwant\n%s", data, want)
	}
	rep := NewReport(Options{Library: "/lib", Since: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}, results)
	if rep.Failed != 1 || rep.AccessLevel != "team" || rep.Since == nil || *rep.Since != "2026-06-01T00:00:00Z" {
		t.Errorf("%+v", rep)
	}
	if rep := NewReport(Options{}, nil); rep.Exports == nil || rep.Since != nil {
		t.Errorf("%+v", rep)
	}
}
