package drift

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// openFile opens the watermarks kept in the file at path.
func openFile(path string) *Tracker {
	return Open(store.NewDirDocuments(filepath.Dir(path), 0o644), filepath.Base(path))
}

func TestVerdicts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "watermarks.json")
	tr := openFile(path)
	tick := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	tr.Now = func() time.Time { tick = tick.Add(time.Hour); return tick }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(tr.Observe([]Surface{{Agent: "codex", Rows: 40}, {Agent: "tiny", Rows: 4}, {Agent: "cursor", Rows: 10}}))
	if v, ok := tr.Drifting(nil); !ok || len(v) != 0 {
		t.Fatalf("healthy library: %v %v", v, ok)
	}
	must(tr.Observe([]Surface{{Agent: "codex", Rows: 3}, {Agent: "tiny", Rows: 0}, {Agent: "cursor", Rows: 0, Problem: "line 3: bad"}}))
	v, _ := tr.Drifting(nil)
	if len(v) != 2 || v[0].Agent != "codex" || !strings.Contains(v[0].Reason, "3 rows, down from 40") || v[1].Agent != "cursor" || !strings.Contains(v[1].Reason, "no longer parses") {
		t.Fatalf("verdicts: %+v (a surface that never held %d rows does not drift)", v, MinRows)
	}
	// The watermark survives a restart.
	again := openFile(path)
	if v, ok := again.Drifting(func(a string) bool { return a == "codex" }); !ok || len(v) != 1 {
		t.Fatalf("after reopening: %v %v", v, ok)
	}
	// A surface that recovers is healthy again.
	must(again.Observe([]Surface{{Agent: "codex", Rows: 39}, {Agent: "cursor", Rows: 10}}))
	if v, _ := again.Drifting(nil); len(v) != 0 {
		t.Errorf("after recovery: %v", v)
	}
}

func TestUnreadableWatermarksGiveNoVerdict(t *testing.T) {
	path := filepath.Join(t.TempDir(), "watermarks.json")
	os.WriteFile(path, []byte("{not json"), 0o644)
	tr := openFile(path)
	if _, ok := tr.Drifting(nil); ok || tr.Err() == nil {
		t.Error("an unreadable file must give no verdict and say why")
	}
	if err := tr.Observe([]Surface{{Agent: "a", Rows: 1}}); err == nil {
		t.Error("observing must not overwrite an unreadable file")
	}
	if data, _ := os.ReadFile(path); string(data) != "{not json" {
		t.Error("the unreadable file was changed")
	}
}

// TestWatermarksAreNotWrittenThroughALinkOutOfTheLibrary: with
// .bourdon/ linked to a folder outside the library, the watermarks are
// neither read from nor written to it.
func TestWatermarksAreNotWrittenThroughALinkOutOfTheLibrary(t *testing.T) {
	base := t.TempDir()
	lib, outside := filepath.Join(base, "lib"), filepath.Join(base, "elsewhere")
	os.MkdirAll(lib, 0o755)
	os.MkdirAll(outside, 0o755)
	if err := os.Symlink(outside, filepath.Join(lib, ".bourdon")); err != nil {
		t.Skip(err)
	}
	tr := Open(store.NewDirDocuments(lib, 0o644), LibraryName)
	if err := tr.Observe([]Surface{{Agent: "codex", Rows: 3}}); !fsutil.IsOutside(err) {
		t.Errorf("observe through the link: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside the library: %d entries", len(entries))
	}
}

// backends are the documents the watermarks are tested on: open makes
// fresh ones and returns how to open them again, as another process (or
// replica) does.
var backends = []struct {
	name string
	open func(t testing.TB) func() store.Documents
}{
	{"dir", func(t testing.TB) func() store.Documents {
		dir := t.TempDir()
		return func() store.Documents { return store.NewDirDocuments(dir, 0o644) }
	}},
	{"postgres", func(t testing.TB) func() store.Documents {
		url := pgtest.Migrated(t)
		return func() store.Documents { return pgtest.Open(t, url).Documents() }
	}},
}

// BenchmarkObserve times an observation that changes a watermark (and so
// writes the document, under its lock) on each backend, to be compared
// within one run.
func BenchmarkObserve(b *testing.B) {
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			tr := Open(be.open(b)(), LibraryName)
			rows := 0
			for b.Loop() {
				rows++
				if err := tr.Observe([]Surface{{Agent: "a", Rows: rows}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestReplicasMergeTheirObservations: two trackers on one document (two
// processes on a library, two replicas on a database), each observing
// surfaces the other does not, at the same time: the document ends with
// every surface's watermark, none lost to the other's write.
func TestReplicasMergeTheirObservations(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			open := b.open(t)
			const rounds = 20
			a, c := Open(open(), LibraryName), Open(open(), LibraryName)
			var wg sync.WaitGroup
			for i, tr := range []*Tracker{a, c} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for r := 1; r <= rounds; r++ {
						if err := tr.Observe([]Surface{{Agent: fmt.Sprintf("agent-%d-%d", i, r), Rows: r}, {Agent: "shared", Rows: 10*r + i}}); err != nil {
							t.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			data, _, err := open().Read(context.Background(), LibraryName, maxStateBytes)
			if err != nil {
				t.Fatal(err)
			}
			var got state
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
			if n := len(got.Surfaces); n != 2*rounds+1 {
				t.Errorf("%d surfaces, want %d: an observation was lost", n, 2*rounds+1)
			}
			if m := got.Surfaces["shared"]; m == nil || m.HighRows != 10*rounds+1 {
				t.Errorf("shared watermark %+v, want the highest either saw (%d)", m, 10*rounds+1)
			}
			// A third process reads what both wrote.
			if v, ok := Open(open(), LibraryName).Drifting(nil); !ok || len(v) != 0 {
				t.Errorf("verdicts %v %v", v, ok)
			}
		})
	}
}
