package drift

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

func TestVerdicts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "watermarks.json")
	tr := Open(path)
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
	again := Open(path)
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
	tr := Open(path)
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
	tr := OpenIn(fsutil.NewTree(lib), filepath.Join(lib, ".bourdon", "watermarks.json"))
	if err := tr.Observe([]Surface{{Agent: "codex", Rows: 3}}); !fsutil.IsOutside(err) {
		t.Errorf("observe through the link: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside the library: %d entries", len(entries))
	}
}
