package codex

import (
	"database/sql"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
	"github.com/getbourdon/bourdon-go/internal/export/nativestore"
)

// The files FuzzCodexFile puts its bytes in, by kind.
var codexFileKinds = []string{
	".codex/sessions/2026/11/25/rollout-2026-11-25T10-00-00-0199a1b2-00f0-7c3e-9d00-0000000000f0.jsonl",
	".codex/session_index.jsonl",
	".codex/memories/MEMORY.md",
	".codex/memories/raw_memories.md",
	".codex/memories/rollout_summaries/2026-11-18-fuzzed.md",
}

// kindOf names the kind of a file of the realistic store (-1: not one
// FuzzCodexFile writes).
func kindOf(rel string) int {
	switch base := filepath.Base(rel); {
	case strings.HasPrefix(base, "rollout-") && strings.HasSuffix(base, ".jsonl"):
		return 0
	case base == "session_index.jsonl":
		return 1
	case base == "MEMORY.md":
		return 2
	case base == "raw_memories.md":
		return 3
	case strings.Contains(rel, "rollout_summaries"):
		return 4
	}
	return -1
}

// FuzzCodexFile puts random bytes in one file of a small Codex home (a
// rollout, session_index.jsonl, MEMORY.md, raw_memories.md or a rollout
// summary) next to a good rollout and an index naming both, and exports
// it through exporttest.Checked. The seeds are the files of the tests'
// realistic store.
func FuzzCodexFile(f *testing.F) {
	s := newStore(f)
	s.realistic()
	files := exporttest.ReadFiles(f, s.home)
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		if k, data := kindOf(rel), files[rel]; k >= 0 && len(data) <= exporttest.MaxSeed {
			f.Add(uint8(k), data)
		}
	}
	f.Add(uint8(0), []byte("{\"type\":\"session_meta\",\"payload\":{\"id\":\"0199a1b2-00f0-7c3e-9d00-0000000000f0\",\"timestamp\":\"2026-11-25T10:00:00Z\",\"cwd\":\"/w/caf\\u00e9\\u0000\"}}\n"))
	f.Add(uint8(1), []byte("{\"id\":\"0199a1b2-00f0-7c3e-9d00-0000000000f0\",\"thread_name\":\"bad \xff\\ud800\",\"updated_at\":1e400}\n"))
	// More threads than a manifest holds sessions.
	var index strings.Builder
	for i := range 520 {
		index.WriteString(jsonLine(obj{"id": fmt.Sprintf("0199a1b2-%04d", i), "thread_name": fmt.Sprintf("Thread %d about payments-api", i),
			"updated_at": fmt.Sprintf("2026-11-%02dT10:00:00Z", i%28+1)}))
	}
	f.Add(uint8(1), []byte(index.String()))
	base := fileBase(f)

	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		s := &store{t: t, home: t.TempDir(), env: map[string]string{}}
		exporttest.WriteFiles(t, s.home, base)
		exporttest.WriteFiles(t, s.home, map[string][]byte{codexFileKinds[int(kind)%len(codexFileKinds)]: data})
		exporttest.Checked(t, New(), s.Env(), export.Options{})
	})
}

// fileBase is every FuzzCodexFile input's home: a good rollout and an
// index naming it and the fuzzed rollout, prepared once.
func fileBase(tb testing.TB) map[string][]byte {
	b := newStore(tb)
	b.rollout("sessions", "0199a1b2-00a1-7c3e-9d00-0000000000a1", "2026-11-12T09:00:00Z", "/home/dev/repos/payments-api",
		[]string{"Add idempotency keys to the refunds handler"}, []string{"*** Update File: services/refunds/handler.go"})
	b.write(codexFileKinds[1], []byte(
		jsonLine(obj{"id": "0199a1b2-00a1-7c3e-9d00-0000000000a1", "thread_name": "Refund idempotency", "updated_at": "2026-11-12T09:05:00Z"})+
			jsonLine(obj{"id": "0199a1b2-00f0-7c3e-9d00-0000000000f0", "thread_name": "The fuzzed thread", "updated_at": "2026-11-25T10:45:00Z"})))
	return exporttest.ReadFiles(tb, b.home)
}

// TestNamedPipesAreNotWaitedOn makes each file FuzzCodexFile fuzzes, the
// state database and its -wal a named pipe no one writes to: the export
// must not block on it.
func TestNamedPipesAreNotWaitedOn(t *testing.T) {
	base := fileBase(t)
	pipes := append(slices.Clone(codexFileKinds), ".codex/state_5.sqlite", ".codex/state_5.sqlite-wal")
	for _, rel := range pipes {
		t.Run(path.Base(rel), func(t *testing.T) {
			s := &store{t: t, home: t.TempDir(), env: map[string]string{}}
			exporttest.WriteFiles(t, s.home, base)
			if strings.HasSuffix(rel, "-wal") {
				s.stateDB(false, threadFixture{id: "0199a1b2-00a1-7c3e-9d00-0000000000a1", rollout: "/none", cwd: "/w", title: "t",
					created: day("2026-11-12T09:00:00Z"), updated: day("2026-11-12T09:30:00Z")})
			}
			exporttest.FIFO(t, s.path(strings.Split(rel, "/")...))
			exporttest.Checked(t, New(), s.Env(), export.Options{})
		})
	}
}

// stateUpdate fills the columns of the template's thread that
// FuzzCodexStateThread fuzzes.
const stateUpdate = `UPDATE threads SET title = CAST(? AS TEXT), first_user_message = CAST(? AS TEXT), cwd = CAST(? AS TEXT),
	updated_at = ?, rollout_path = ?`

// FuzzCodexStateThread puts random text in a thread of a valid
// state_5.sqlite: its title (as TEXT, or as a BLOB), first user message,
// cwd and updated_at, and exports the home through exporttest.Checked.
// The seeds are the threads of the tests' realistic store.
func FuzzCodexStateThread(f *testing.F) {
	for _, r := range []struct{ title, first, cwd, updated string }{
		{"Add idempotency keys to refunds", "Add idempotency keys to the refunds handler", "/home/dev/repos/payments-api", "1763025005"},
		{"Café ledger: currency formatting ☕", "Render amounts in € and ¥", "/home/dev/repos/café-ledger", "2026-11-18T16:00:00Z"},
		{"rotate the api_key sk_live_4eC39HqLyjWDarjtT1zdp7dc for staging", "rotate the api_key", "/home/dev/repos/payments-api", "1763626800000"},
		{"## Memory Writing Agent: Phase 2 (Consolidation) " + strings.Repeat("Do not publish this prompt. ", 40), "", "/home/dev/.codex/memories", "20261121T021000"},
		{"", "", "", ""},
		{"bad \xff\xfe title", "first \xc3", "/home/dev/repos/caf\xe9-ledger", "2026-11-25T10:45:00Z"},
		{"nul \x00 inside", "\x00", "/w/\x00", "2026-02-30"},
		{strings.Repeat("é", 300), strings.Repeat("x", 3000), "/" + strings.Repeat("d/", 400), "-1"},
	} {
		f.Add([]byte(r.title), []byte(r.first), []byte(r.cwd), r.updated, false)
	}
	f.Add([]byte("a title kept as a BLOB"), []byte("first"), []byte("/w"), "1763025005", true)

	// The template: a state database with one thread, copied for each
	// input (creating the schema again would dominate the run).
	tmpl := newStore(f)
	tmpl.stateDB(false, threadFixture{id: "0199a1b2-00f0-7c3e-9d00-0000000000f0", rollout: "/none", cwd: "/w", title: "t",
		created: day("2026-11-25T10:00:00Z"), updated: day("2026-11-25T10:45:00Z")})
	template, err := os.ReadFile(tmpl.path(".codex", "state_5.sqlite"))
	if err != nil {
		f.Fatal(err)
	}

	f.Fuzz(func(t *testing.T, title, first, cwd []byte, updated string, blob bool) {
		s := newStore(t)
		rollout := s.rollout("sessions", "0199a1b2-00f0-7c3e-9d00-0000000000f0", "2026-11-25T10:00:00Z", "/home/dev/repos/payments-api",
			[]string{"Investigate the flaky settlement test"}, []string{"*** Update File: settlement/job.go"})
		path := s.write(".codex/state_5.sqlite", template)
		db, err := sql.Open("sqlite", nativestore.DSN(path, "_pragma=synchronous(off)"))
		if err != nil {
			t.Fatal(err)
		}
		q := stateUpdate
		if blob {
			q = strings.Replace(q, "title = CAST(? AS TEXT)", "title = ?", 1)
		}
		if _, err := db.Exec(q, title, first, cwd, updated, rollout); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		exporttest.Checked(t, New(), s.Env(), export.Options{})
	})
}
