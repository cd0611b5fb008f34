// Package exporttest holds what the exporters' tests share: an Env around
// a temporary home, fixture writers, and golden manifests checked against
// the L5 schema. Only tests import it.
package exporttest

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

var update = flag.Bool("update", false, "rewrite the golden manifests in testdata/")

// LastUpdated is the last_updated every golden manifest carries.
const LastUpdated = "2026-12-01T19:32:28+00:00"

// Home is what a fixture's temporary home is written as in golden files,
// so that they do not depend on where the test ran.
const Home = "/home/dev"

// Now is the fixed clock of Env.
var Now = time.Date(2026, 12, 1, 19, 32, 28, 0, time.UTC)

// Env returns an Env around a new temporary home, with the given
// environment variables, host name "laptop", GOOS linux, the clock at Now
// and the working directory at the home.
func Env(t testing.TB, vars map[string]string) *export.Env {
	t.Helper()
	home := t.TempDir()
	return &export.Env{
		Home:     home,
		Getenv:   func(k string) string { return vars[k] },
		Now:      func() time.Time { return Now },
		Hostname: "laptop",
		GOOS:     "linux",
		Cwd:      home,
	}
}

// Write writes content to path, creating its directories.
func Write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// WriteFiles writes files (keyed by slash-separated paths relative to
// root), creating their directories. Fuzz targets build each input's home
// with it from contents prepared once.
func WriteFiles(t testing.TB, root string, files map[string][]byte) {
	t.Helper()
	for rel, data := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// ReadFiles returns every regular file under root, keyed by its
// slash-separated path relative to root: a fixture built once, for
// WriteFiles.
func ReadFiles(t testing.TB, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Touch sets the modification time of path.
func Touch(t testing.TB, path string, when time.Time) {
	t.Helper()
	if err := os.Chtimes(path, when, when); err != nil {
		t.Fatal(err)
	}
}

// Manifest renders out the way the golden files hold it: home replaced by
// Home in every row string, last_updated set to LastUpdated.
func Manifest(t testing.TB, out *export.Output, home string) []byte {
	t.Helper()
	o := *out
	fix := func(s string) string { return strings.ReplaceAll(s, home, Home) }
	fixAll := func(l []string) []string {
		c := make([]string, len(l))
		for i, s := range l {
			c[i] = fix(s)
		}
		return c
	}
	o.Entities = make([]export.Entity, len(out.Entities))
	for i, e := range out.Entities {
		e.Name, e.Summary = fix(e.Name), fix(e.Summary)
		e.Aliases, e.Tags = fixAll(e.Aliases), fixAll(e.Tags)
		o.Entities[i] = e
	}
	o.Sessions = make([]export.Session, len(out.Sessions))
	for i, s := range out.Sessions {
		s.Cwd = fix(s.Cwd)
		s.KeyActions, s.FilesTouched, s.ProjectFocus = fixAll(s.KeyActions), fixAll(s.FilesTouched), fixAll(s.ProjectFocus)
		o.Sessions[i] = s
	}
	data, err := yaml11.Encode(o.Manifest(LastUpdated))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Valid fails the test when the manifest does not pass the L5 schema.
func Valid(t testing.TB, manifest []byte) {
	t.Helper()
	doc, err := yaml11.Decode(manifest)
	if err != nil {
		t.Fatalf("the manifest does not parse: %v", err)
	}
	for _, v := range l5.Validate(doc) {
		t.Errorf("schema: %s", v)
	}
}

// Golden checks out against testdata/<name>.golden.yaml byte for byte
// (go test -update rewrites it) and against the L5 schema.
func Golden(t testing.TB, name string, out *export.Output, home string) {
	t.Helper()
	got := Manifest(t, out, home)
	Valid(t, got)
	path := filepath.Join("testdata", name+".golden.yaml")
	if *update {
		Write(t, path, string(got))
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the export (go test -update rewrites it):\n--- got\n%s", path, got)
	}
}

// Warned reports whether out has a warning about a file whose path ends
// with file and whose message contains msg.
func Warned(out *export.Output, file, msg string) bool {
	for _, w := range out.Warnings {
		if strings.HasSuffix(w.File, file) && strings.Contains(w.Msg, msg) {
			return true
		}
	}
	return false
}

// CacheLacks fails the test when the cache, as Marshal saves it, holds
// any of the sentinels, or when it holds nothing at all (the export under
// test did not use it). The cache lives in the library: it may keep only
// what the manifest may hold.
func CacheLacks(t testing.TB, c *export.Cache, sentinels ...string) {
	t.Helper()
	saved, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if string(saved) == "{}" {
		t.Fatal("the export kept nothing in the cache")
	}
	for _, s := range sentinels {
		if strings.Contains(string(saved), s) {
			t.Errorf("the saved cache holds %q", s)
		}
	}
}
