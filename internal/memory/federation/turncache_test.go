package federation

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/recognition"
)

func sampleTurnCache() turnCache {
	ents := []recognition.Entity{
		{Name: "Café Crème", Type: "project", Aliases: []string{"creme", ""}, Summary: "Le café ☕", Tags: []string{"infra"}, Visibility: visibility.Team},
		{Name: "  ", Visibility: visibility.Private, ValidTo: "2026-12-31"},
		{Name: "Bourdon", Summary: string([]byte{0xff, 'x'})},
	}
	keys := make([]recognition.Keys, len(ents))
	for i := range ents {
		keys[i] = recognition.KeysOf(&ents[i])
	}
	return turnCache{Format: turnCacheFormat, Binary: "/usr/bin/bourdon 123 456", Files: map[string]turnFile{
		"cursor.l5.yaml": {Stamp: library.Stamp{Size: 1234, MTime: 1782800000123456789, Ino: 1 << 40, CTime: -5}, ID: "cursor", Rows: 9, Entities: ents, Keys: keys},
		"broken.l5.yaml": {Stamp: library.Stamp{Size: 3}, Problem: "line 2: not valid YAML"},
		"empty.l5.yaml":  {ID: "empty"},
	}}
}

func TestTurnCacheRoundTrip(t *testing.T) {
	c := sampleTurnCache()
	data := encodeTurnCache(c)
	got, err := decodeTurnCache(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	// Another format: only its format is read.
	c.Format = turnCacheFormat + 1
	got, err = decodeTurnCache(string(encodeTurnCache(c)))
	if err != nil || got.Format != c.Format || got.Files != nil {
		t.Errorf("another format: %+v, %v", got, err)
	}
}

// TestTurnCacheDecodeRejectsDamage: every truncation, and random damage,
// is an error or a cache, never a panic or a huge allocation.
func TestTurnCacheDecodeRejectsDamage(t *testing.T) {
	data := encodeTurnCache(sampleTurnCache())
	for n := range len(data) {
		if _, err := decodeTurnCache(string(data[:n])); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	if _, err := decodeTurnCache(string(data) + "x"); err == nil {
		t.Error("trailing bytes: no error")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		b := []byte(string(data))
		for range 1 + r.IntN(4) {
			b[r.IntN(len(b))] = byte(r.IntN(256))
		}
		_, _ = decodeTurnCache(string(b))
	}
}

func FuzzDecodeTurnCache(f *testing.F) {
	f.Add(encodeTurnCache(sampleTurnCache()))
	f.Add([]byte("BDTC\x01\x00\x7f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := decodeTurnCache(string(data))
		if err != nil || c.Format != turnCacheFormat {
			return
		}
		for name, file := range c.Files {
			if len(file.Keys) != len(file.Entities) {
				t.Fatalf("%s: %d keys for %d entities", name, len(file.Keys), len(file.Entities))
			}
		}
		again, err := decodeTurnCache(string(encodeTurnCache(c)))
		if err != nil || !cmp.Equal(c, again, cmpopts.EquateEmpty()) {
			t.Fatalf("a decoded cache must encode and decode to itself: %v", err)
		}
	})
}
