package codex

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export"
)

func TestExportStatePath(t *testing.T) {
	s := newStore(t)
	s.realistic()
	out := export1(t, s, export.Options{})
	golden(t, s, out, "codex_state")

	ws := warnings(out, s.home)
	for _, want := range []string{
		"~/.codex/sessions/2026/11/25/rollout-2026-11-25T10-00-00-0199a1b2-0006-7c3e-9d00-00000000a006.jsonl:",
		"~/.codex/memories/rollout_summaries/2026-11-19-broken.md: not valid UTF-8; skipped",
	} {
		if !slices.ContainsFunc(ws, func(w string) bool { return strings.HasPrefix(w, want) }) {
			t.Errorf("no warning %q in %q", want, ws)
		}
	}
	text := manifestText(t, out)
	for _, never := range []string{"sk_live_4eC39", "sk-never-read", "never read", "Do not publish", "Written by Bourdon"} {
		if strings.Contains(text, never) {
			t.Errorf("the manifest holds %q", never)
		}
	}
}

func manifestText(t *testing.T, out *export.Output) string {
	t.Helper()
	var b strings.Builder
	for _, e := range out.Entities {
		b.WriteString(strings.Join(append([]string{e.Name, e.Summary}, e.Aliases...), "\n"))
	}
	for _, s := range out.Sessions {
		b.WriteString(strings.Join(slices.Concat(s.KeyActions, s.ProjectFocus, s.FilesTouched, []string{s.Cwd}), "\n"))
	}
	return b.String()
}

// A corrupt state database is reported and the session index and the
// rollouts are read instead.
func TestExportIndexPathWhenTheStateDatabaseIsCorrupt(t *testing.T) {
	s := newStore(t)
	s.realistic()
	db := s.path(".codex", "state_5.sqlite")
	os.Remove(db + "-wal")
	if err := os.WriteFile(db, []byte(strings.Repeat("this is not a database ", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := export1(t, s, export.Options{})
	golden(t, s, out, "codex_index")
	if !slices.ContainsFunc(warnings(out, s.home), func(w string) bool {
		return strings.HasPrefix(w, "~/.codex/state_5.sqlite: cannot be read")
	}) {
		t.Errorf("no warning for the state database: %q", warnings(out, s.home))
	}
	// ⚠ #8: the renamed thread is one session, with its latest name.
	n := 0
	for _, ss := range out.Sessions {
		if strings.Contains(ss.KeyActions[0], "dempotency") {
			n++
			if ss.KeyActions[0] != "Add idempotency keys to refunds" {
				t.Errorf("renamed thread: %q", ss.KeyActions[0])
			}
		}
	}
	if n != 1 {
		t.Errorf("the renamed thread is %d sessions", n)
	}
	// The un-indexed rollout is seen; the bare-meta rollout gives its cwd.
	var unindexed, legacy bool
	for _, ss := range out.Sessions {
		unindexed = unindexed || ss.KeyActions[0] == "Codex session about Bourdon, Continuo"
		legacy = legacy || (ss.Cwd == "/home/dev/repos/legacy-cli" && ss.KeyActions[0] == "Port the legacy CLI flags")
	}
	if !unindexed || !legacy {
		t.Errorf("unindexed=%v legacy=%v: %+v", unindexed, legacy, out.Sessions)
	}
	h := New().Health(context.Background(), s.Env())
	if h.Status != export.StatusDegraded || !strings.Contains(h.Reason, "state_5.sqlite cannot be read") {
		t.Errorf("health = %+v", h)
	}
}

func TestSinceKeepsNewerSessionsAndTheirTopics(t *testing.T) {
	s := newStore(t)
	s.realistic()
	out := export1(t, s, export.Options{Since: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)})
	for _, ss := range out.Sessions {
		if ss.Date < "2026-11-21" {
			t.Errorf("session of %s kept", ss.Date)
		}
	}
	if len(out.Sessions) != 4 {
		t.Errorf("%d sessions", len(out.Sessions))
	}
	for _, e := range out.Entities {
		if slices.Contains(e.Tags, "codex-thread") && e.LastTouched < "2026-11-21" {
			t.Errorf("topic %q of %s kept", e.Name, e.LastTouched)
		}
	}
}

func TestIncrementalExportReadsOnlyWhatChanged(t *testing.T) {
	s := newStore(t)
	s.realistic()
	c := export.NewCache()
	first := export1(t, s, export.Options{Cache: c})
	if _, reads := c.Stats(); reads == 0 {
		t.Fatal("the first export read nothing")
	}
	saved, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}

	c = export.LoadCache(saved)
	second := export1(t, s, export.Options{Cache: c})
	if hits, reads := c.Stats(); reads != 0 || hits == 0 {
		t.Errorf("unchanged store: hits=%d reads=%d", hits, reads)
	}
	if c.Changed() {
		t.Error("an unchanged store changed the cache")
	}
	if manifestText(t, first) != manifestText(t, second) || len(first.Warnings) != len(second.Warnings) {
		t.Error("the cached export differs")
	}

	s.rollout("sessions", "0199a1b2-0010-7c3e-9d00-00000000a010", "2026-11-27T09:00:00Z", "/home/dev/repos/payments-api",
		[]string{"Add a refunds dashboard"}, nil)
	saved, _ = c.Marshal()
	c = export.LoadCache(saved)
	third := export1(t, s, export.Options{Cache: c})
	if _, reads := c.Stats(); reads != 1 {
		t.Errorf("one new rollout: %d units read", reads)
	}
	if third.Sessions[0].Date != "2026-11-27" {
		t.Errorf("the new session is not first: %+v", third.Sessions[0])
	}
}

func TestNotInstalledAndHealth(t *testing.T) {
	env := (&store{t: t, home: t.TempDir(), env: map[string]string{}}).Env()
	if _, err := New().Export(context.Background(), env, export.Options{}); !errors.Is(err, export.ErrNotInstalled) {
		t.Errorf("err = %v", err)
	}
	if h := New().Health(context.Background(), env); h.Status != export.StatusBlocked {
		t.Errorf("health = %+v", h)
	}
	if p := New().Detect(env); p.Present {
		t.Errorf("detect = %+v", p)
	}

	s := newStore(t)
	if h := New().Health(context.Background(), s.Env()); h.Status != export.StatusDegraded ||
		h.Reason != "Missing Codex sub-sources: state_db, session_index" {
		t.Errorf("health = %+v", h)
	}
	s.realistic()
	if h := New().Health(context.Background(), s.Env()); h.Status != export.StatusOK {
		t.Errorf("health = %+v", h)
	}
	if p := New().Detect(s.Env()); !p.Present || p.Path != s.path(".codex") {
		t.Errorf("detect = %+v", p)
	}
}

func TestCodexHomeFromTheEnvironment(t *testing.T) {
	s := newStore(t)
	alt := s.mkdir("elsewhere", "codex")
	s.env["CODEX_HOME"] = alt
	if p := New().Detect(s.Env()); p.Path != alt {
		t.Errorf("detect = %+v", p)
	}
	s.env["CODEX_HOME"] = s.path("missing")
	if p := New().Detect(s.Env()); p.Path != s.path(".codex") {
		t.Errorf("a CODEX_HOME that is not a directory is ignored: %+v", p)
	}
}

// The codex-brain overlay alone is enough for an export.
func TestBrainOnly(t *testing.T) {
	s := &store{t: t, home: t.TempDir(), env: map[string]string{}}
	s.write("codex-brain/notes/plan.md", []byte("# Task Group: Ledger migration\n## Task 1: Dual writes\n"))
	out := export1(t, s, export.Options{})
	if !slices.Equal(out.Capabilities, []string{"codex_brain"}) || len(out.Sessions) != 0 || len(out.Entities) != 2 {
		t.Errorf("capabilities %v, %d sessions, entities %+v", out.Capabilities, len(out.Sessions), out.Entities)
	}
}

// A thread of the state database whose text is not UTF-8 is skipped with a
// warning naming the database and the thread; the others are exported.
func TestAStateThreadThatIsNotUTF8IsSkipped(t *testing.T) {
	s := newStore(t)
	s.stateDB(false,
		threadFixture{id: "0199a1b2-00b1", rollout: "/none", cwd: "/home/dev/repos/payments-api", title: "Refund idempotency",
			created: day("2026-11-12T09:00:00Z"), updated: day("2026-11-12T09:30:00Z")},
		threadFixture{id: "0199a1b2-00b2", rollout: "/none", cwd: "/home/dev/repos/caf\xe9", title: "Caf\xe9 ledger",
			created: day("2026-11-18T14:30:00Z"), updated: day("2026-11-18T16:00:00Z")},
	)
	out := export1(t, s, export.Options{})
	if len(out.Sessions) != 1 || out.Sessions[0].KeyActions[0] != "Refund idempotency" {
		t.Errorf("sessions: %+v", out.Sessions)
	}
	want := `~/.codex/state_5.sqlite: thread "0199a1b2-00b2": its title is not valid UTF-8; skipped`
	if ws := warnings(out, s.home); !slices.Contains(ws, want) {
		t.Errorf("warnings %q, want %q", ws, want)
	}
}
