package commit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// The write path's behaviour is the same on every backend: these tests
// run over each, against a real PostgreSQL (internal/testkit/pgtest).

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// backend opens writers on one library; each call to open is another
// Writer on the same library (another process, another replica).
type backend struct {
	name string
	new  func(t *testing.T) (open func() *Writer)
}

var backends = []backend{
	{"dir", func(t *testing.T) func() *Writer {
		root := t.TempDir()
		return func() *Writer { return New(root) }
	}},
	{"postgres", func(t *testing.T) func() *Writer {
		url := pgtest.Migrated(t)
		return func() *Writer { return OnStore(pgtest.Open(t, url)) }
	}},
}

// ticking makes w's clock advance one second a call from a fixed time.
func ticking(w *Writer) *Writer {
	tick := time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC)
	w.Now = func() time.Time { tick = tick.Add(time.Second); return tick }
	return w
}

// writeScript makes the same writes on w whatever the backend, and
// returns what every call answered, paths and storage times left out.
func writeScript(t *testing.T, w *Writer) []any {
	ctx := context.Background()
	var out []any
	note := func(v any, err error) {
		if err != nil {
			out = append(out, fmt.Sprintf("%T: %v", err, err))
			return
		}
		out = append(out, v)
	}
	res := func(r Result, err error) { r.Path = ""; note(r, err) }
	ent := func(names ...string) []any {
		var rows []any
		for _, n := range names {
			rows = append(rows, map[string]any{"name": n, "summary": "about " + n, "tags": []any{"t-" + n}})
		}
		return rows
	}
	res(w.Commit(ctx, Request{AgentID: "alpha", Entities: ent("no type")}))
	res(w.Commit(ctx, Request{AgentID: "alpha", AgentType: str("other"), Entities: ent("One", "Two"),
		Sessions: []any{map[string]any{"date": "2026-06-09", "cwd": "/w"}}, Provenance: Provenance{Caller: "op", CallerTier: "operator", SessionID: "s1"}}))
	res(w.Commit(ctx, Request{AgentID: "alpha", Entities: ent("Two", "Three")}))
	res(w.Commit(ctx, Request{AgentID: "alpha", Entities: ent("Three")})) // no_op
	digest, err := w.CurrentDigest("alpha")
	note(digest, err)
	res(w.Commit(ctx, Request{AgentID: "alpha", Entities: ent("Four"), ExpectedDigest: str("00000000")}))
	res(w.Commit(ctx, Request{AgentID: "alpha", Entities: ent("Four"), ExpectedDigest: str(digest[:8]),
		Workstreams: []any{map[string]any{"name": "ws", "status": "active"}}, Notes: []any{map[string]any{"date": "2026-06-10", "text": "n"}}}))
	res(w.Commit(ctx, Request{AgentID: "beta", AgentType: str("code-assistant"), Mode: ModeReplace, Entities: ent("B")}))
	res(w.Commit(ctx, Request{AgentID: "beta", Mode: ModeReplace, AgentType: str("code-assistant"), Entities: ent("C")}))

	versions, err := w.Versions("alpha", 0)
	note(versions, err)
	changes, err := w.Changes("alpha")
	note(changes, err)
	if len(versions) > 1 {
		ch, err := w.Rollback(ctx, "alpha", versions[1].VersionID, nil, Provenance{Caller: "op"})
		note(ch, err)
		_, err = w.Rollback(ctx, "alpha", "20000101T000000.000000Z-deadbeef", nil, Provenance{Caller: "op"})
		note(nil, err)
	}
	explained, err := w.Explain("alpha", digest)
	note(explained, err)

	stage := func(r StageResult, err error) { r.Path = ""; note(r, err) }
	stage(w.Stage(ctx, "guest", Request{AgentID: "guest", AgentType: str("other"), Entities: ent("G1")}))
	stage(w.Stage(ctx, "guest", Request{AgentID: "guest", Entities: ent("G2")}))
	stage(w.Stage(ctx, "guest", Request{AgentID: "alpha", Entities: ent("G3")}))
	listed, err := w.ListStaged()
	for i := range listed {
		listed[i].Path, listed[i].StagedAt, listed[i].AgeDays, listed[i].age = "", "", 0, 0
	}
	note(listed, err)
	diffs, err := w.DiffStaged("guest")
	for i := range diffs {
		diffs[i].Path, diffs[i].StagedAt, diffs[i].AgeDays, diffs[i].age, diffs[i].Result.Path = "", "", 0, 0, ""
	}
	note(diffs, err)
	promoted, err := w.Promote(ctx, "guest", Provenance{Caller: "op", CallerTier: "operator"})
	for i := range promoted {
		promoted[i].Path, promoted[i].Result.Path = "", ""
	}
	note(promoted, err)
	_, err = w.Promote(ctx, "guest", Provenance{Caller: "op"})
	note(nil, err)
	stage(w.Stage(ctx, "guest", Request{AgentID: "guest", Entities: ent("G4")}))
	n, err := w.Reject(ctx, "guest")
	note(n, err)
	guestChanges, err := w.Changes("guest")
	note(guestChanges, err)

	doc := exported(ents("Payments API", "Ledger"), nil)
	exp := func(r ExportResult, err error) { r.Path = ""; note(r, err) }
	exp(w.Export(ctx, ExportRequest{AgentID: "exp", Document: doc}))
	exp(w.Export(ctx, ExportRequest{AgentID: "exp", Document: doc}))
	exp(w.Export(ctx, ExportRequest{AgentID: "exp", Document: exported(ents("Ledger"), nil)}))
	return out
}

// TestBackendsAnswerAlike runs one script of commits, history queries,
// rollbacks and staged writes on every backend: the answers, the
// manifests' bytes and the provenance records are the same.
func TestBackendsAnswerAlike(t *testing.T) {
	var answers [][]any
	var manifests [][]string
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			w := ticking(b.new(t)())
			answers = append(answers, writeScript(t, w))
			var bytes []string
			for _, id := range []string{"alpha", "beta", "guest", "exp"} {
				data, err := optional(w.st.Manifest(context.Background(), id))
				if err != nil {
					t.Fatal(err)
				}
				bytes = append(bytes, string(data))
			}
			manifests = append(manifests, bytes)
		})
	}
	if len(answers) != len(backends) || len(manifests) != len(backends) {
		t.Fatal("a backend did not run")
	}
	opts := cmp.AllowUnexported(Staged{})
	for i := 1; i < len(backends); i++ {
		if d := cmp.Diff(answers[0], answers[i], opts); d != "" {
			t.Errorf("%s answers differently from %s (-%[2]s +%[1]s):\n%s", backends[i].name, backends[0].name, d)
		}
		if d := cmp.Diff(manifests[0], manifests[i]); d != "" {
			t.Errorf("%s stores other manifests than %s:\n%s", backends[i].name, backends[0].name, d)
		}
	}
}

// TestBackendsConcurrentWritersLoseNothing has several writers, each its
// own Writer (a process, a replica), commit to overlapping agents at once
// on every backend: every entity is in its manifest, every write in the
// history.
func TestBackendsConcurrentWritersLoseNothing(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			open := b.new(t)
			const writers, commits = 6, 30
			agents := []string{"a", "b", "c"}
			var wg sync.WaitGroup
			errs := make(chan error, writers*commits)
			for w := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					wr := open()
					for i := range commits {
						_, err := wr.Commit(context.Background(), Request{
							AgentID: agents[i%len(agents)], AgentType: str("other"),
							Entities: []any{map[string]any{"name": fmt.Sprintf("w%d-c%d", w, i)}},
						})
						if err != nil {
							errs <- err
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			w := open()
			total := 0
			for _, id := range agents {
				changes, err := w.Changes(id)
				if err != nil {
					t.Fatal(err)
				}
				versions, err := w.Versions(id, 0)
				if err != nil {
					t.Fatal(err)
				}
				m, _, err := loadManifest(id, func() ([]byte, error) { return w.st.Manifest(context.Background(), id) })
				if err != nil {
					t.Fatal(err)
				}
				n := len(listOf(m, "known_entities"))
				if len(changes) != n || len(versions) != n-1 {
					t.Errorf("%s: %d entities, %d provenance records, %d versions", id, n, len(changes), len(versions))
				}
				total += n
			}
			if total != writers*commits {
				t.Errorf("%d entities written, %d stored", writers*commits, total)
			}
		})
	}
}

// TestCopyRoundTrip copies a directory library into PostgreSQL and back
// into another directory: manifests, versions, provenance and staged
// writes are byte for byte the same, so the digests are equal.
func TestCopyRoundTrip(t *testing.T) {
	ctx := context.Background()
	src := ticking(New(t.TempDir()))
	writeScript(t, src)
	if _, err := src.Stage(ctx, "guest", Request{AgentID: "guest", Entities: []any{map[string]any{"name": "Pending"}}}); err != nil {
		t.Fatal(err)
	}
	pg := pgtest.Open(t, pgtest.Migrated(t))
	back := New(t.TempDir())
	there, err := Copy(ctx, src.st, pg)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Copy(ctx, pg, back.st)
	if err != nil {
		t.Fatal(err)
	}
	if there != again || there.Agents != 4 || there.Versions == 0 || there.Records == 0 || there.Staged != 1 {
		t.Errorf("copied %+v there and %+v back", there, again)
	}
	stamps, err := pg.Stamps(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stamps {
		want, err := src.CurrentDigest(s.AgentID)
		if err != nil {
			t.Fatal(err)
		}
		got, err := back.CurrentDigest(s.AgentID)
		if err != nil {
			t.Fatal(err)
		}
		if s.Digest != want || got != want {
			t.Errorf("%s: digest %s in the source, %s in PostgreSQL, %s back", s.AgentID, want, s.Digest, got)
		}
	}
	if d := cmp.Diff(dump(t, src.st), dump(t, back.st)); d != "" {
		t.Errorf("the round trip changed the library:\n%s", d)
	}
	if _, err := Copy(ctx, src.st, pg); err == nil {
		t.Error("copying into a store that has the agents must fail")
	}
}

// dump returns everything a store holds, as text.
func dump(t *testing.T, s store.Store) map[string]string {
	t.Helper()
	ctx := context.Background()
	out := map[string]string{}
	ids, err := s.Agents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		data, err := optional(s.Manifest(ctx, id))
		if err != nil {
			t.Fatal(err)
		}
		out[id] = string(data)
		versions, _ := s.VersionIDs(ctx, id)
		for _, v := range versions {
			data, _ := s.Version(ctx, id, v)
			out[id+"@"+v] = string(data)
		}
		records, _ := s.Provenance(ctx, id)
		for i, r := range records {
			out[fmt.Sprintf("%s#%d", id, i)] = string(r)
		}
		_ = s.Update(ctx, id, func(tx store.Tx) error {
			owned, err := optional(tx.Owned())
			out[id+".owned"] = string(owned)
			return err
		})
	}
	staged, _ := s.ListStaged(ctx)
	for _, e := range staged {
		data, _ := s.Staged(ctx, e.Caller, e.AgentID)
		out["staged/"+e.Caller+"/"+e.AgentID] = string(data)
	}
	return out
}

// TestPostgresWriteIsAllOrNothing: a write whose transaction fails half
// way (here, its provenance record is refused) leaves no trace.
func TestPostgresWriteIsAllOrNothing(t *testing.T) {
	ctx := context.Background()
	pg := pgtest.Open(t, pgtest.Migrated(t))
	w := ticking(OnStore(pg))
	if _, err := w.Commit(ctx, Request{AgentID: "a", AgentType: str("other"), Entities: []any{map[string]any{"name": "x"}}}); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := pg.Update(ctx, "a", func(tx store.Tx) error {
		if _, err := tx.Archive([]byte("old"), "0123456789", time.Now()); err != nil {
			return err
		}
		if err := tx.Put([]byte("half"), "d"); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("update: %v", err)
	}
	versions, _ := pg.VersionIDs(ctx, "a")
	data, _ := pg.Manifest(ctx, "a")
	if len(versions) != 0 || string(data) == "half" {
		t.Errorf("a failed transaction left %d versions and manifest %q", len(versions), data)
	}
}

// BenchmarkBackendCommit measures one commit (one new entity into a
// manifest of 10 or 1,000 entities, through one Writer) on each backend, in the
// same run: compare the two ns/op. Both are durable (the directory
// fsyncs; PostgreSQL commits with fsync and synchronous_commit on).
//
//	go test -run '^$' -bench BackendCommit -benchtime 200x ./internal/memory/commit/
func BenchmarkBackendCommit(b *testing.B) {
	for _, be := range []struct {
		name string
		open func(b *testing.B) *Writer
	}{
		{"dir", func(b *testing.B) *Writer { return New(b.TempDir()) }},
		{"postgres", func(b *testing.B) *Writer { return OnStore(pgtest.Open(b, pgtest.Migrated(b))) }},
	} {
		for _, n := range []int{10, 1000} {
			b.Run(fmt.Sprintf("%s/%d", be.name, n), func(b *testing.B) {
				w := be.open(b)
				seedManifest(b, w, "bench", n)
				ctx := context.Background()
				b.ResetTimer()
				for i := range b.N {
					if _, err := w.Commit(ctx, oneEntity("bench", 0, i)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
