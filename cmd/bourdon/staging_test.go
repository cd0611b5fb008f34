package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
)

// runWriteCLI runs one "bourdon" subcommand in-process and returns stdout,
// stderr and the exit status.
func runWriteCLI(t *testing.T, cmd *cobra.Command, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs(args)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.ExecuteContext(context.Background())
	code := 0
	var ee exitError
	switch {
	case errors.As(err, &ee):
		code = ee.code
	case err != nil:
		t.Fatalf("%s %v: %v", cmd.Name(), args, err)
	}
	return out.String(), errOut.String(), code
}

func stagingStr(s string) *string { return &s }

func TestStagingCommand(t *testing.T) {
	lib := t.TempDir()
	flag := "--library=" + lib
	staging := func(args ...string) (string, string, int) {
		return runWriteCLI(t, newStagingCommand(), append(args, flag)...)
	}
	out, _, code := staging("list")
	if code != 0 || out != "no staged writes\n" {
		t.Errorf("empty list: %d %q", code, out)
	}

	w := commit.New(lib)
	ctx := context.Background()
	if _, err := w.Stage(ctx, "openclaw", commit.Request{AgentID: "openclaw", AgentType: stagingStr("other"),
		Entities: []any{map[string]any{"name": "Payments API"}, map[string]any{"name": "Ledger"}},
		Sessions: []any{map[string]any{"date": "2026-06-01", "cwd": "/r"}},
	}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(lib, "staging", "openclaw", "openclaw.l5.yaml")
	then := time.Now().Add(-36*time.Hour - time.Minute)
	os.Chtimes(path, then, then)
	out, _, code = staging("list")
	if want := "openclaw                       via openclaw               2 entities   1 sessions  staged 1.5d ago\n"; code != 0 || out != want {
		t.Errorf("list: %d\n%q\nwant\n%q", code, out, want)
	}

	out, _, code = staging("diff", "openclaw")
	if want := path + " (via openclaw): +2 entities (~0 updated), +1 sessions (~0 updated)\n  + entity payments api\n  + entity ledger\n  + session 2026-06-01 @ /r\n"; code != 0 || out != want {
		t.Errorf("diff: %d\n%q\nwant\n%q", code, out, want)
	}

	out, errOut, code := staging("promote", "openclaw")
	if code != 0 || out != "promoted openclaw: +2 entities (~0 updated), +1 sessions (~0 updated)\n" || errOut != "" {
		t.Errorf("promote: %d %q %q", code, out, errOut)
	}
	changes, _ := w.Changes("openclaw")
	if len(changes) != 1 || changes[0].Op != "promote" || changes[0].StagedBy != "openclaw" || changes[0].Caller != "operator" || changes[0].CallerTier != "operator" {
		t.Errorf("provenance of the promote: %+v", changes)
	}
	_, errOut, code = staging("promote", "openclaw")
	if code != 1 || errOut != "error: no staged writes for agent 'openclaw'\n" {
		t.Errorf("promote nothing: %d %q", code, errOut)
	}
	for _, cmd := range []string{"diff", "reject"} {
		if _, errOut, code := staging(cmd, "openclaw"); code != 1 || errOut != "error: no staged writes for agent 'openclaw'\n" {
			t.Errorf("%s nothing: %d %q", cmd, code, errOut)
		}
	}

	// An update, and workstreams, in the counts.
	if _, err := w.Stage(ctx, "openclaw", commit.Request{AgentID: "openclaw",
		Entities:    []any{map[string]any{"name": "ledger", "tags": []any{"x"}}},
		Workstreams: []any{map[string]any{"name": "Outbox"}},
	}); err != nil {
		t.Fatal(err)
	}
	out, _, _ = staging("diff", "openclaw")
	if !strings.HasSuffix(out, " (via openclaw): +0 entities (~1 updated), +0 sessions (~0 updated), +1 workstreams (~0 updated)\n  ~ entity ledger\n  + workstream outbox\n") {
		t.Errorf("diff with an update: %q", out)
	}
	out, _, code = staging("reject", "openclaw")
	if code != 0 || out != "rejected 1 staged write(s) for openclaw\n" {
		t.Errorf("reject: %d %q", code, out)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Error("reject left the file")
	}

	// A staged write that cannot be promoted stays, and says why.
	bad := filepath.Join(lib, "staging", "newbie", "newbie.l5.yaml")
	os.MkdirAll(filepath.Dir(bad), 0o755)
	os.WriteFile(bad, []byte("agent: {id: newbie}\nknown_entities:\n- {name: X}\n"), 0o644)
	out, _, _ = staging("diff", "newbie")
	if !strings.Contains(out, "(via newbie): cannot be promoted: agent_type is required for a new manifest") {
		t.Errorf("diff of an unpromotable file: %q", out)
	}
	out, errOut, code = staging("promote", "newbie")
	if code != 1 || out != "" || errOut != "error: "+bad+" (staged by newbie) was not promoted and stays staged: agent_type is required for a new manifest (agent_id='newbie', mode='merge')\n" {
		t.Errorf("failed promote: %d %q %q", code, out, errOut)
	}
	if _, err := os.Stat(bad); err != nil {
		t.Error("the file that failed must stay staged")
	}
	_, errOut, code = staging("reject", "Not An Id")
	if code != 1 || !strings.HasPrefix(errOut, "error: invalid agent_id 'Not An Id'") {
		t.Errorf("bad id: %d %q", code, errOut)
	}
}
