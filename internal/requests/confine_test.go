//go:build unix

package requests

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// TestStoreDoesNotFollowLinksOutOfTheLibrary: a request file, proposals/
// or requests/ itself linked to a place outside the library is neither
// read nor written through.
func TestStoreDoesNotFollowLinksOutOfTheLibrary(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	lib, outside := filepath.Join(base, "lib"), filepath.Join(base, "elsewhere")
	os.MkdirAll(outside, 0o755)

	// A real request, copied outside and linked back in as another id.
	good, err := Open(filepath.Join(base, "good", "requests"))
	if err != nil {
		t.Fatal(err)
	}
	r := accepted(t, good)
	data, err := os.ReadFile(good.requestPath(r.ID))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(outside, "REQ.yaml"), data, 0o644)

	s, err := Open(filepath.Join(lib, "requests"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(s.Root(), 0o755)
	if err := os.Symlink(filepath.Join(outside, "REQ.yaml"), s.requestPath(r.ID)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(r.ID); !fsutil.IsOutside(err) {
		t.Errorf("a request file linked out was read: %v", err)
	}
	all, problems, err := s.All()
	if err != nil || len(all) != 0 || len(problems) != 1 {
		t.Errorf("All: %d requests, problems %v, %v", len(all), problems, err)
	}

	if err := os.Symlink(outside, filepath.Join(s.Root(), "proposals")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ProposeIntake(ctx, formJSON(t, nil), agent); !fsutil.IsOutside(err) {
		t.Errorf("a proposal written through a linked proposals/: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("written outside the library: %d entries", len(entries))
	}

	// requests/ itself a link out of the library.
	lib2 := filepath.Join(base, "lib2")
	os.MkdirAll(lib2, 0o755)
	os.Symlink(outside, filepath.Join(lib2, "requests"))
	s2, err := Open(filepath.Join(lib2, "requests"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s2.All(); !fsutil.IsOutside(err) && !errors.Is(err, os.ErrNotExist) {
		t.Errorf("requests/ linked out: %v", err)
	}
	if _, err := s2.ProposeIntake(ctx, formJSON(t, nil), agent); !fsutil.IsOutside(err) {
		t.Errorf("a proposal through requests/ linked out: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("written outside the library: %d entries", len(entries))
	}
}
