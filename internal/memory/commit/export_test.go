package commit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// exported builds an exporter's document for agent "exp".
func exported(entities []export.Entity, sessions []export.Session) *yaml11.Map {
	out := &export.Output{
		Agent:        export.Agent{ID: "exp", Type: "code-assistant", Instance: "host", SpecVersionCompat: ">=0.1", RoleNarrative: "Reads a store."},
		SpecVersion:  "0.1",
		Capabilities: []string{"chat"},
		Entities:     entities,
		Sessions:     sessions,
		Policy:       &export.Policy{Default: "team", PrivateTags: []string{"personal"}},
	}
	return out.Manifest("2000-01-01T00:00:00+00:00")
}

func ents(names ...string) []export.Entity {
	out := make([]export.Entity, len(names))
	for i, n := range names {
		out[i] = export.Entity{Name: n, Type: "project", Summary: "from the store: " + n, Visibility: "team"}
	}
	return out
}

func doExport(t *testing.T, w *Writer, doc *yaml11.Map) ExportResult {
	t.Helper()
	res, err := w.Export(context.Background(), ExportRequest{AgentID: "exp", Document: doc})
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	return res
}

func entityNames(t *testing.T, w *Writer) []string {
	t.Helper()
	var out []string
	for _, e := range load(t, w, "exp").Entities {
		out = append(out, e.Name)
	}
	return out
}

// snapshot returns every file under root with its bytes and modification
// time, to show that an operation wrote nothing.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = fmt.Sprintf("%d %s", info.ModTime().UnixNano(), data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestExportWritesTheExportersDocumentAndRecordsIt(t *testing.T) {
	w := newWriter(t)
	doc := exported(ents("Payments API", "Ledger"), []export.Session{
		{Date: "2026-06-02", Cwd: "/r/pay", KeyActions: []string{"refunds"}, Visibility: "team"},
		{Date: "2026-06-01", Cwd: "/r/led", Visibility: "team"},
	})
	res := doExport(t, w, doc)
	if res.NoOp || res.Entities != 2 || res.Sessions != 2 || res.EntitiesAdded != 2 || res.SessionsAdded != 2 || res.TotalEntities != 2 {
		t.Errorf("first export: %+v", res)
	}
	data, _ := os.ReadFile(w.ManifestPath("exp"))
	doc.Set(l5.KeyLastUpdated, res.LastUpdated)
	want, _ := yaml11.Encode(doc)
	if string(data) != string(want) {
		t.Errorf("a first export writes the exporter's document as it is:\n%s\nwant\n%s", data, want)
	}
	changes, _ := w.Changes("exp")
	if len(changes) != 1 || changes[0].Op != OpExport || changes[0].Caller != "exporter:exp" || changes[0].CallerTier != "operator" || changes[0].Digest != res.Digest {
		t.Errorf("provenance: %+v", changes)
	}
	if got := changes[0].Changes["known_entities_added"]; !slices.Equal(got, []string{"payments api", "ledger"}) {
		t.Errorf("changes: %v", changes[0].Changes)
	}
	record, _ := os.ReadFile(filepath.Join(w.root, ".bourdon", "exports", "exp.json"))
	if want := `{"agent_id":"exp","owned":{"known_entities":["ledger","payments api"],"recent_sessions":["2026-06-01\u0000/r/led","2026-06-02\u0000/r/pay"]}}` + "\n"; string(record) != want {
		t.Errorf("ownership record:\n%s\nwant\n%s", record, want)
	}
	if vs := l5.Validate(mustDecode(t, data)); len(vs) > 0 {
		t.Errorf("the manifest is not valid L5: %v", vs)
	}
}

func mustDecode(t *testing.T, data []byte) any {
	t.Helper()
	doc, err := yaml11.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestExportAgainIsANoOpThatWritesNothing(t *testing.T) {
	w := newWriter(t)
	doExport(t, w, exported(ents("A", "B"), nil))
	before := snapshot(t, w.root)
	res := doExport(t, w, exported(ents("A", "B"), nil))
	if !res.NoOp || res.EntitiesAdded+res.EntitiesUpdated+res.EntitiesRemoved != 0 {
		t.Errorf("repeat: %+v", res)
	}
	after := snapshot(t, w.root)
	for p, v := range after {
		if before[p] != v {
			t.Errorf("a no_op export wrote %s", p)
		}
	}
	if len(after) != len(before) {
		t.Errorf("a no_op export created files: %d then %d", len(before), len(after))
	}
}

func TestExportKeepsRowsCommittedOverMCP(t *testing.T) {
	w := newWriter(t)
	doExport(t, w, exported(ents("A", "B"), []export.Session{{Date: "2026-06-01", Cwd: "/r", Visibility: "team"}}))
	commit(t, w, Request{
		AgentID:     "exp",
		Entities:    []any{map[string]any{"name": "Committed", "summary": "over MCP"}},
		Sessions:    []any{map[string]any{"date": "2026-06-03", "cwd": "/mcp"}, map[string]any{"date": "2026-05-01"}},
		Workstreams: []any{map[string]any{"name": "Refunds"}},
		Notes:       []any{map[string]any{"date": "2026-06-02", "text": "remember this"}},
	})
	res := doExport(t, w, exported(ents("A", "B"), []export.Session{{Date: "2026-06-01", Cwd: "/r", Visibility: "team"}}))
	if !res.NoOp {
		t.Errorf("a re-export of the same store keeps the committed rows and changes nothing: %+v", res)
	}
	res = doExport(t, w, exported(ents("A", "C"), []export.Session{{Date: "2026-06-02", Cwd: "/r", Visibility: "team"}}))
	if res.NoOp || res.EntitiesAdded != 1 || res.EntitiesRemoved != 1 || res.SessionsAdded != 1 || res.SessionsRemoved != 1 || res.TotalEntities != 3 || res.TotalSessions != 3 {
		t.Errorf("export after a change: %+v", res)
	}
	if got := entityNames(t, w); !slices.Equal(got, []string{"A", "C", "Committed"}) {
		t.Errorf("entities: %v", got)
	}
	m := load(t, w, "exp")
	var dates []string
	for _, s := range m.Sessions {
		cwd := ""
		if s.Cwd != nil {
			cwd = *s.Cwd
		}
		dates = append(dates, s.Date+" "+cwd)
	}
	if want := []string{"2026-06-03 /mcp", "2026-06-02 /r", "2026-05-01 "}; !slices.Equal(dates, want) {
		t.Errorf("sessions (newest first, committed ones kept): %v, want %v", dates, want)
	}
	if len(m.Workstreams) != 1 || len(m.Notes) != 1 {
		t.Errorf("workstreams and notes must be kept: %d %d", len(m.Workstreams), len(m.Notes))
	}
	changes, _ := w.Changes("exp")
	last := changes[len(changes)-1]
	if !slices.Equal(last.Changes["known_entities_removed"], []string{"b"}) || !slices.Equal(last.Changes["recent_sessions_removed"], []string{"2026-06-01 @ /r"}) {
		t.Errorf("provenance of the removal: %v", last.Changes)
	}
}

func TestExportReplacesARowItOwnsAfterAnMCPCommit(t *testing.T) {
	w := newWriter(t)
	doExport(t, w, exported(ents("A"), nil))
	// A commit merges into the exporter's row as usual...
	commit(t, w, Request{AgentID: "exp", Entities: []any{map[string]any{"name": "a ", "summary": "edited over MCP", "tags": []any{"mcp"}}}})
	if e := load(t, w, "exp").Entities[0]; e.Summary != "edited over MCP" {
		t.Fatalf("the commit merged: %+v", e)
	}
	// ...and the next export puts the store's version back.
	res := doExport(t, w, exported(ents("A"), nil))
	if res.EntitiesUpdated != 1 || res.TotalEntities != 1 {
		t.Errorf("%+v", res)
	}
	if e := load(t, w, "exp").Entities[0]; e.Summary != "from the store: A" || len(e.Tags) != 0 {
		t.Errorf("the exporter's row: %+v", e)
	}
	// A row committed first under a key the exporter later produces is
	// the exporter's from then on, and goes when the store drops it.
	commit(t, w, Request{AgentID: "exp", Entities: []any{map[string]any{"name": "Later"}}})
	doExport(t, w, exported(ents("A", "later"), nil))
	doExport(t, w, exported(ents("A"), nil))
	if got := entityNames(t, w); !slices.Equal(got, []string{"A"}) {
		t.Errorf("entities: %v", got)
	}
}

func TestExportCountsOnlyRealUpdates(t *testing.T) {
	w := newWriter(t)
	doExport(t, w, exported(ents("A", "B"), nil))
	// A hand edit that changes only the form of a row (an empty list) is
	// not an update.
	data, _ := os.ReadFile(w.ManifestPath("exp"))
	edited := strings.Replace(string(data), "  visibility: team\n", "  visibility: team\n  tags: []\n", 1)
	if edited == string(data) {
		t.Fatalf("the edit did not apply to\n%s", data)
	}
	os.WriteFile(w.ManifestPath("exp"), []byte(edited), 0o644)
	res := doExport(t, w, exported(ents("A", "B"), nil))
	if !res.NoOp || res.EntitiesUpdated != 0 {
		t.Errorf("%+v", res)
	}
	res = doExport(t, w, exported(append(ents("A"), export.Entity{Name: "B", Summary: "changed"}), nil))
	if res.NoOp || res.EntitiesUpdated != 1 || !slices.Equal(res.Changes["known_entities_updated"], []string{"b"}) {
		t.Errorf("%+v", res)
	}
}

func TestExportTakesTheHeaderFromTheExporter(t *testing.T) {
	w := newWriter(t)
	commit(t, w, Request{AgentID: "exp", AgentType: str("other"), RoleNarrative: str("set over MCP"), Entities: []any{map[string]any{"name": "X"}}})
	doc := exported(ents("A"), nil)
	doc.Delete(l5.KeyVisibilityPolicy)
	doExport(t, w, doc)
	m := load(t, w, "exp")
	if m.Agent.Type != "code-assistant" || m.Agent.RoleNarrative != "Reads a store." || m.VisibilityPolicy != nil || !slices.Equal(m.Capabilities, []string{"chat"}) {
		t.Errorf("header: %+v %+v", m.Agent, m.VisibilityPolicy)
	}
	var keys []string
	for _, e := range m.Document().Map.Entries() {
		keys = append(keys, e.Key)
	}
	if want := []string{"spec_version", "agent", "last_updated", "capabilities", "known_entities"}; !slices.Equal(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
}

func TestExportOverAPythonLibraryRecordsOwnershipOnly(t *testing.T) {
	w := newWriter(t)
	doc := exported(ents("A"), nil)
	data, _ := yaml11.Encode(doc)
	if err := os.MkdirAll(filepath.Dir(w.ManifestPath("exp")), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w.ManifestPath("exp"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	res := doExport(t, w, exported(ents("A"), nil))
	if !res.NoOp {
		t.Errorf("same content: %+v", res)
	}
	if got, _ := os.ReadFile(w.ManifestPath("exp")); string(got) != string(data) {
		t.Error("a no_op rewrote the manifest")
	}
	if _, err := os.Stat(w.historyDir("exp")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a no_op recorded history: %v", err)
	}
	doExport(t, w, exported(ents("B"), nil))
	if got := entityNames(t, w); !slices.Equal(got, []string{"B"}) {
		t.Errorf("the row the exporter owned since the no_op must go: %v", got)
	}
}

func TestExportDryRunWritesNothing(t *testing.T) {
	w := newWriter(t)
	res, err := w.Export(context.Background(), ExportRequest{AgentID: "exp", Document: exported(ents("A"), nil), DryRun: true})
	if err != nil || res.NoOp || res.EntitiesAdded != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	if files := snapshot(t, w.root); len(files) != 0 {
		t.Errorf("a dry run wrote %v", files)
	}
	entries, _ := os.ReadDir(w.root)
	if len(entries) != 0 {
		t.Errorf("a dry run created %v", entries)
	}
}

func TestExportRefusesBadDocumentsAndCorruptManifests(t *testing.T) {
	w := newWriter(t)
	ctx := context.Background()
	other := exported(nil, nil)
	other.Value(l5.KeyAgent).(*yaml11.Map).Set("id", "someone-else")
	badType := exported(nil, nil)
	badType.Value(l5.KeyAgent).(*yaml11.Map).Set("type", "robot")
	noName := exported(nil, nil)
	noName.Set(l5.KeyEntities, []any{yaml11.NewMap(0)})
	badDate := exported(nil, []export.Session{{Date: "June"}})
	for name, doc := range map[string]*yaml11.Map{"other agent": other, "bad type": badType, "no name": noName, "bad date": badDate, "none": nil} {
		_, err := w.Export(ctx, ExportRequest{AgentID: "exp", Document: doc})
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := w.Export(ctx, ExportRequest{AgentID: "Bad/ID", Document: exported(nil, nil)}); err == nil {
		t.Error("a bad agent id was accepted")
	}
	os.MkdirAll(filepath.Dir(w.ManifestPath("exp")), 0o755)
	os.WriteFile(w.ManifestPath("exp"), []byte("known_entities: [unclosed\n"), 0o644)
	_, err := w.Export(ctx, ExportRequest{AgentID: "exp", Document: exported(ents("A"), nil)})
	var ce *CorruptError
	if !errors.As(err, &ce) {
		t.Errorf("a corrupt manifest: %v", err)
	}
	if got, _ := os.ReadFile(w.ManifestPath("exp")); string(got) != "known_entities: [unclosed\n" {
		t.Error("the corrupt manifest was touched")
	}
}

func TestExportWithAnUnreadableOwnershipRecordOwnsNothing(t *testing.T) {
	w := newWriter(t)
	doExport(t, w, exported(ents("A", "B"), nil))
	os.WriteFile(w.ownedPath("exp"), []byte("{not json"), 0o644)
	doExport(t, w, exported(ents("A"), nil))
	if got := entityNames(t, w); !slices.Equal(got, []string{"A", "B"}) {
		t.Errorf("without a record B is nobody's and stays: %v", got)
	}
	if data, _ := os.ReadFile(w.ownedPath("exp")); !strings.Contains(string(data), `"known_entities":["a"]`) {
		t.Errorf("the record is written again: %s", data)
	}
}

// TestExportOwnershipModel runs random sequences of exports and MCP
// commits against a model of the rules: the exporter's rows are the last
// export's, committed rows whose key it never produced survive, rows it
// stopped producing go.
func TestExportOwnershipModel(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e", "f"}
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 13))
		w := newWriter(t)
		model := map[string]string{} // key -> summary
		owned := map[string]bool{}
		exports := 0
		for step := range 12 {
			if rng.IntN(2) == 0 {
				var produced []export.Entity
				now := map[string]bool{}
				for _, n := range names {
					if rng.IntN(2) == 0 {
						produced = append(produced, export.Entity{Name: n, Summary: fmt.Sprintf("store %d", rng.IntN(2))})
						now[n] = true
					}
				}
				res := doExport(t, w, exported(produced, nil))
				for k := range owned {
					if !now[k] {
						delete(model, k)
					}
				}
				for _, e := range produced {
					model[e.Name] = e.Summary
				}
				owned = now
				if !res.NoOp {
					exports++
				}
			} else {
				n := names[rng.IntN(len(names))]
				s := fmt.Sprintf("mcp %d", step)
				commit(t, w, Request{AgentID: "exp", AgentType: str("other"), Entities: []any{map[string]any{"name": n, "summary": s}}})
				model[n] = s
			}
			if _, err := os.Stat(w.ManifestPath("exp")); err != nil {
				continue
			}
			got := map[string]string{}
			for _, e := range load(t, w, "exp").Entities {
				got[e.Name] = e.Summary
			}
			if fmt.Sprint(got) != fmt.Sprint(model) {
				t.Fatalf("seed %d step %d: manifest %v, model %v", seed, step, got, model)
			}
		}
		changes, _ := w.Changes("exp")
		n := 0
		for _, c := range changes {
			if c.Op == OpExport {
				n++
			}
		}
		if n != exports {
			t.Errorf("seed %d: %d export records, %d exports that changed something", seed, n, exports)
		}
	}
}

// TestExportAndMCPCommitsConcurrently has exporters and MCP callers
// (separate Writers, as separate processes would be) write the same agent
// at once: nothing committed is lost and the exporter's rows are there.
func TestExportAndMCPCommitsConcurrently(t *testing.T) {
	root := t.TempDir()
	const callers, commits, exportRuns = 4, 15, 20
	var wg sync.WaitGroup
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wr := New(root)
			for i := range commits {
				_, err := wr.Commit(context.Background(), Request{
					AgentID: "exp", AgentType: str("other"),
					Entities: []any{map[string]any{"name": fmt.Sprintf("mcp-%d-%d", c, i)}},
					Sessions: []any{map[string]any{"date": "2026-06-01", "cwd": fmt.Sprintf("/mcp/%d/%d", c, i)}},
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for e := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wr := New(root)
			for i := range exportRuns {
				// The store alternates between two states.
				names := []string{"store-a", "store-b"}
				if (i+e)%2 == 1 {
					names = []string{"store-a", "store-c"}
				}
				if _, err := wr.Export(context.Background(), ExportRequest{AgentID: "exp", Document: exported(ents(names...), nil)}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	wr := New(root)
	m, _, err := readManifest(wr.ManifestPath("exp"))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, r := range listOf(m, l5.KeyEntities) {
		have[yaml11.Str(r.(*yaml11.Map).Value("name"))] = true
	}
	for c := range callers {
		for i := range commits {
			if n := fmt.Sprintf("mcp-%d-%d", c, i); !have[n] {
				t.Errorf("%s was lost", n)
			}
		}
	}
	if !have["store-a"] || have["store-b"] == have["store-c"] {
		t.Errorf("the exporter's rows must be the last export's: %v", have)
	}
	if got := len(listOf(m, l5.KeySessions)); got != callers*commits {
		t.Errorf("%d sessions, want %d", got, callers*commits)
	}
	changes, _ := wr.Changes("exp")
	versions, _ := wr.Versions("exp", 0)
	if len(versions) != len(changes)-1 {
		t.Errorf("%d changes, %d versions", len(changes), len(versions))
	}
}

// TestExportKeepsTheExportersRowsThatShareAKey checks that an exporter's
// rows are written as it listed them, as the reference's export writes
// them: two threads of one day in one directory are two sessions, and a
// project and a concept of one name two entities. The next export
// replaces them as a group, and only a real change counts as an update.
func TestExportKeepsTheExportersRowsThatShareAKey(t *testing.T) {
	w := newWriter(t)
	sessions := []export.Session{
		{Date: "2026-11-06", Cwd: "/src/app", KeyActions: []string{"first thread"}, Visibility: "team"},
		{Date: "2026-11-06", Cwd: "/src/app", KeyActions: []string{"second thread"}, Visibility: "team"},
		{Date: "2026-11-05", Cwd: "/src/app", KeyActions: []string{"the day before"}, Visibility: "team"},
	}
	entities := append(ents("Continuo"), export.Entity{Name: "continuo", Type: "concept", Summary: "the idea", Visibility: "team"})
	res := doExport(t, w, exported(entities, sessions))
	if res.Sessions != 3 || res.TotalSessions != 3 || res.SessionsAdded != 2 || res.Entities != 2 || res.TotalEntities != 2 || res.EntitiesAdded != 1 {
		t.Fatalf("first export: %+v", res)
	}
	m := load(t, w, "exp")
	var actions []string
	for _, s := range m.Sessions {
		actions = append(actions, s.KeyActions...)
	}
	if want := []string{"first thread", "second thread", "the day before"}; !slices.Equal(actions, want) {
		t.Errorf("sessions' actions: %v, want %v (each row apart, newest day first, the exporter's order within a day)", actions, want)
	}
	if got := entityNames(t, w); !slices.Equal(got, []string{"Continuo", "continuo"}) {
		t.Errorf("entities: %v", got)
	}

	if res := doExport(t, w, exported(entities, sessions)); !res.NoOp {
		t.Errorf("the same export again: %+v", res)
	}

	// One thread of the day changed: one key updated, both rows the
	// exporter's new ones; a row committed over MCP under that key is
	// the exporter's too and goes.
	commit(t, w, Request{AgentID: "exp", Sessions: []any{map[string]any{"date": "2026-11-06", "cwd": "/src/app", "key_actions": []any{"over MCP"}}}})
	sessions[1].KeyActions = []string{"second thread, longer"}
	res = doExport(t, w, exported(entities, sessions))
	if res.SessionsUpdated != 1 || res.SessionsAdded != 0 || res.TotalSessions != 3 {
		t.Errorf("export after a change: %+v", res)
	}
	actions = actions[:0]
	for _, s := range load(t, w, "exp").Sessions {
		actions = append(actions, s.KeyActions...)
	}
	if want := []string{"first thread", "second thread, longer", "the day before"}; !slices.Equal(actions, want) {
		t.Errorf("sessions' actions: %v, want %v", actions, want)
	}
}
