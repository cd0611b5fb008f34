package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// BenchmarkAuthenticatedCallHTTP times find_entity over HTTP (2026-07-28)
// with a member's bdn_ token, the registry in a file next to a directory
// library, and in the database of a --store server (the seed library
// copied there; its reads are served from memory, so the registry's
// revision, asked on every request, is the difference):
//
//	go test -run '^$' -bench AuthenticatedCallHTTP -benchtime 3000x -count 3 ./cmd/bourdon/
func BenchmarkAuthenticatedCallHTTP(b *testing.B) {
	b.Run("file", func(b *testing.B) {
		registry := filepath.Join(b.TempDir(), "federation.yaml")
		tok := addMember(b, registry, "bench", "--tier", "trusted")
		s := startHTTP(b, "--library", seedLibrary(b), "--registry", registry, "--rate-limit", "off", "--quiet")
		cs, err := connectAs(b, s.url, tok, "2026-07-28")
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		roundTrips(b, cs)
	})
	b.Run("postgres", func(b *testing.B) {
		url := pgtest.Migrated(b)
		if out, err := exec.Command(binary, "store", "copy", seedLibrary(b), url, "--no-registry").CombinedOutput(); err != nil {
			b.Fatalf("store copy: %v %s", err, out)
		}
		tok := addMember(b, url, "bench", "--tier", "trusted")
		s := startHTTP(b, "--store", url, "--library", b.TempDir(), "--rate-limit", "off", "--quiet")
		cs, err := connectAs(b, s.url, tok, "2026-07-28")
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		roundTrips(b, cs)
	})
}
