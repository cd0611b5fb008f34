// Package exporttest helps the exporters' tests: an Env around a fake
// home, and golden manifests checked against the L5 schema.
package exporttest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/l5"
	"github.com/getbourdon/bourdon-go/internal/yaml11"
)

// Update rewrites golden files instead of comparing them (go test -update).
var Update = flag.Bool("update", false, "rewrite the golden files")

// LastUpdated is the fixed last_updated of golden manifests.
const LastUpdated = "2026-12-01T19:32:28+00:00"

// Now is the fixed clock of Env.
var Now = time.Date(2026, 12, 1, 19, 32, 28, 0, time.UTC)

// Env returns an Env whose home is home, whose environment is vars only,
// on a Linux machine named "laptop" at Now.
func Env(home string, vars map[string]string) *export.Env {
	return &export.Env{
		Home:     home,
		Getenv:   func(k string) string { return vars[k] },
		Now:      func() time.Time { return Now },
		Hostname: "laptop",
		GOOS:     "linux",
		Cwd:      home,
	}
}

// Manifest renders out as the manifest document, with LastUpdated, and
// fails the test when it does not pass the L5 schema.
func Manifest(t testing.TB, out *export.Output) []byte {
	t.Helper()
	data, err := yaml11.Encode(out.Manifest(LastUpdated))
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	doc, err := yaml11.Decode(data)
	if err != nil {
		t.Fatalf("the manifest does not read back: %v\n%s", err, data)
	}
	if vs := l5.Validate(doc); len(vs) > 0 {
		t.Errorf("the manifest breaks the L5 schema:")
		for _, v := range vs {
			t.Errorf("  %s", v)
		}
	}
	return data
}

// Golden compares the manifest of out with the file path (relative to the
// test's package), or rewrites it with -update.
func Golden(t testing.TB, path string, out *export.Output) {
	t.Helper()
	got := Manifest(t, out)
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it); got:\n%s", path, got)
	}
}

// Write creates the file path (and its directories) holding data, with
// modification time mtime when it is not zero.
func Write(t testing.TB, path string, data []byte, mtime time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if !mtime.IsZero() {
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
}
