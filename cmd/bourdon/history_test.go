package main

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
)

func TestHistoryCommand(t *testing.T) {
	lib := t.TempDir()
	flag := "--library=" + lib
	history := func(args ...string) (string, string, int) {
		return runWriteCLI(t, newHistoryCommand(), append(args, flag)...)
	}
	out, _, code := history("list", "clyde")
	if code != 0 || out != "no archived versions of clyde\n" {
		t.Errorf("empty: %d %q", code, out)
	}

	w := commit.New(lib)
	ctx := context.Background()
	p := commit.Provenance{Caller: "clyde", CallerTier: "trusted", SessionID: "s-1", TranscriptRef: "/t/1.jsonl"}
	if _, err := w.Commit(ctx, commit.Request{AgentID: "clyde", AgentType: stagingStr("other"), Entities: []any{map[string]any{"name": "One"}}, Provenance: p}); err != nil {
		t.Fatal(err)
	}
	first, _ := w.CurrentDigest("clyde")
	p.SessionID = "s-2"
	if _, err := w.Commit(ctx, commit.Request{AgentID: "clyde", Entities: []any{map[string]any{"name": "Two"}}, Sessions: []any{map[string]any{"date": "2026-06-01"}}, Provenance: p}); err != nil {
		t.Fatal(err)
	}
	second, _ := w.CurrentDigest("clyde")

	out, _, code = history("list", "clyde")
	row := regexp.MustCompile(`^(\d{8}T\d{6}\.\d{6}Z-` + first[:8] + `)  1 entities, 0 sessions  replaced by commit at \S+Z by clyde \[trusted\] \(session s-2\)$`)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 2 || lines[0] != "current  "+second[:8] || !row.MatchString(lines[1]) {
		t.Fatalf("list: %d\n%s", code, out)
	}
	version := row.FindStringSubmatch(lines[1])[1]

	out, _, code = history("explain", "clyde", first[:8])
	for _, want := range []string{
		"digest:                " + first + "\n",
		"op:                    commit (merge)\n",
		"caller:                clyde [trusted]\n",
		"session:               s-1 (asserted by the caller, not verified)\n",
		"transcript:            /t/1.jsonl (asserted by the caller, not verified)\n",
		"known entities added:  one\n",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("explain: %d, want %q in\n%s", code, want, out)
		}
	}
	_, errOut, code := history("explain", "clyde", "deadbeef")
	if code != 1 || errOut != "error: no recorded write of 'clyde' produced digest 'deadbeef'\n" {
		t.Errorf("explain unknown: %d %q", code, errOut)
	}
	_, errOut, code = history("explain", "clyde", "abc")
	if code != 1 || !strings.HasPrefix(errOut, "error: digest 'abc' is too short") {
		t.Errorf("explain short: %d %q", code, errOut)
	}

	_, errOut, code = history("rollback", "clyde", version, "--expected-digest", first[:8])
	if code != 1 || !strings.HasPrefix(errOut, "error: expected_digest '"+first[:8]+"' does not match") {
		t.Errorf("stale rollback: %d %q", code, errOut)
	}
	_, errOut, code = history("rollback", "clyde", "nope")
	if code != 1 || errOut != "error: no version 'nope' of 'clyde': pass a version_id from list_memory_versions\n" {
		t.Errorf("unknown version: %d %q", code, errOut)
	}
	out, _, code = history("rollback", "clyde", version, "--expected-digest", second[:8])
	undo := regexp.MustCompile(`^rolled back clyde to ` + version + `: now ` + first[:8] + ` \(was ` + second[:8] + `\)\nthe replaced state is archived as (\S+-` + second[:8] + `); ` + "`bourdon history rollback clyde (\\S+)` undoes this\n$")
	if code != 0 || !undo.MatchString(out) {
		t.Fatalf("rollback: %d %q", code, out)
	}
	if cur, _ := w.CurrentDigest("clyde"); cur != first {
		t.Error("the rollback did not restore the version")
	}
	changes, _ := w.Changes("clyde")
	if last := changes[len(changes)-1]; last.Op != "rollback" || last.Caller != "operator" || last.CallerTier != "operator" || last.RolledBackTo != version {
		t.Errorf("provenance of the rollback: %+v", last)
	}
	out, _, _ = history("list", "clyde", "--limit", "1")
	if lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); len(lines) != 2 || !strings.Contains(lines[1], "replaced by rollback at ") || !strings.Contains(lines[1], " by operator [operator]") {
		t.Errorf("list --limit 1 after the rollback:\n%s", out)
	}
	// The rollback can be undone.
	vs, _ := w.Versions("clyde", 1)
	if out, _, code := history("rollback", "clyde", vs[0].VersionID); code != 0 || !strings.Contains(out, "now "+second[:8]) {
		t.Errorf("undo: %d %q", code, out)
	}
}
