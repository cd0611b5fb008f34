package deeper

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/testkit/embedtest"
)

func TestVectorCacheRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vectors")
	vecs := map[[sha256.Size]byte][]float32{
		sha256.Sum256([]byte("a")): {1, 0, -0.5},
		sha256.Sum256([]byte("b")): {0, 0.25, 2},
	}
	if err := writeVectorCache(path, "openai:m", 3, vecs); err != nil {
		t.Fatal(err)
	}
	got, err := readVectorCache(path, "openai:m", 3)
	if err != nil || len(got) != 2 {
		t.Fatalf("read back %v, %v", got, err)
	}
	for k, v := range vecs {
		if !slices.Equal(got[k], v) {
			t.Errorf("vector %x: %v, want %v", k[:4], got[k], v)
		}
	}
	if _, err := readVectorCache(path, "openai:other", 3); err == nil {
		t.Error("a cache of another embedder was read")
	}
	if _, err := readVectorCache(path, "openai:m", 4); err == nil {
		t.Error("a cache of another dimension was read")
	}
	data, _ := os.ReadFile(path)
	for _, bad := range [][]byte{nil, []byte("garbage"), data[:len(data)-1], append(slices.Clone(data), 0)} {
		os.WriteFile(path, bad, 0o600)
		if _, err := readVectorCache(path, "openai:m", 3); err == nil {
			t.Errorf("a damaged cache of %d bytes was read", len(bad))
		}
	}
}

// FuzzReadVectorCache: any file is read back as a cache or refused, never
// a crash, and what is read has the asked dimension and finite values.
func FuzzReadVectorCache(f *testing.F) {
	dir := f.TempDir()
	good := filepath.Join(dir, "good")
	writeVectorCache(good, "e", 2, map[[sha256.Size]byte][]float32{sha256.Sum256(nil): {1, 2}})
	data, _ := os.ReadFile(good)
	f.Add(data)
	f.Add([]byte(vectorCacheMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "c")
		os.WriteFile(path, data, 0o600)
		got, err := readVectorCache(path, "e", 2)
		if err != nil {
			return
		}
		for _, v := range got {
			if len(v) != 2 {
				t.Fatalf("vector of %d values", len(v))
			}
		}
	})
}

// TestVectorCacheSurvivesARestart: a second service over the same library
// and cache file sends no row to the embedding service; a damaged file
// is ignored and written again.
func TestVectorCacheSurvivesARestart(t *testing.T) {
	vecs, dim := readTestVectors(t)
	const question = "What does Luis do for work?"
	var notes []string
	for text := range vecs {
		if len(notes) < 20 && len(text) > 8 && text[:7] == "Rahul: " {
			notes = append(notes, text)
		}
	}
	slices.Sort(notes)
	dir := t.TempDir()
	semanticLibrary(t, dir, notes)
	cache := filepath.Join(t.TempDir(), "vectors")
	store := openStore(t, dir)
	rows := func(f *embedtest.Server) int {
		return len(slices.DeleteFunc(f.Texts(), func(text string) bool { return text == question }))
	}
	start := func() *embedtest.Server {
		f := tableServer(vecs)
		s := New(store, Options{Embedder: startEmbedder(t, f, dim), VectorCache: cache})
		waitEmbedded(t, s, question, 30*time.Second)
		p := ask(t, s, question, visibility.Team)
		if p.Semantic.Rows != len(notes) {
			t.Fatalf("%d rows compared, want %d", p.Semantic.Rows, len(notes))
		}
		return f
	}
	if f := start(); rows(f) != len(notes) {
		t.Fatalf("first start: %d rows embedded, want %d", rows(f), len(notes))
	}
	waitUntil(t, func() bool { _, err := readVectorCache(cache, "openai:use-lite", dim); return err == nil })
	if f := start(); rows(f) != 0 {
		t.Errorf("after a restart %d rows were embedded again, want none", rows(f))
	}
	os.WriteFile(cache, []byte("bourdon-deeper-vectors-1\ngarbage"), 0o600)
	if f := start(); rows(f) != len(notes) {
		t.Errorf("with a damaged cache %d rows were embedded, want %d", rows(f), len(notes))
	}
	waitUntil(t, func() bool { _, err := readVectorCache(cache, "openai:use-lite", dim); return err == nil })
}
