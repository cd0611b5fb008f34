package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

// runRegistry runs "bourdon registry ARGS..." and returns stdout, stderr
// and the exit status.
func runRegistry(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := newRegistryCommand()
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs(args)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	code := 0
	var ee exitError
	switch {
	case errors.As(err, &ee):
		code = ee.code
	case err != nil:
		t.Fatalf("registry %v: %v", args, err)
	}
	return out.String(), errOut.String(), code
}

func TestRegistryCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "federation.yaml")
	reg := "--registry=" + path
	tokenLine := regexp.MustCompile(`^token: bdn_[0-9a-f]{48}$`)

	out, _, code := runRegistry(t, "list", reg)
	if code != 0 || out != "no federation members registered (see `bourdon registry add`)\n" {
		t.Errorf("empty list: %d %q", code, out)
	}
	out, errOut, code := runRegistry(t, "add", "openclaw", "--grant", "claude-code", reg)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 2 || lines[0] != "registered openclaw (tier: quarantined)" || !tokenLine.MatchString(lines[1]) {
		t.Fatalf("add: %d %q %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "shown ONCE") || strings.Contains(errOut, "bdn_") {
		t.Errorf("add stderr %q", errOut)
	}
	token := strings.TrimPrefix(lines[1], "token: ")

	_, errOut, code = runRegistry(t, "add", "openclaw", reg)
	if code != 1 || !strings.HasPrefix(errOut, "error: agent 'openclaw' already registered") {
		t.Errorf("duplicate: %d %q", code, errOut)
	}
	_, errOut, code = runRegistry(t, "add", "openclaw2", "--tier", "observer", reg)
	if code != 1 || errOut != "error: invalid tier 'observer': must be one of ('trusted', 'quarantined')\n" {
		t.Errorf("bad tier: %d %q", code, errOut)
	}
	_, errOut, code = runRegistry(t, "set-tier", "openclaw", "trusted", reg)
	if code != 1 || errOut != "refusing: 'openclaw' is a quarantined-class agent. Re-run with --i-understand-the-risk to override.\n" {
		t.Errorf("risk gate: %d %q", code, errOut)
	}
	_, errOut, code = runRegistry(t, "add", "openclaw", "--tier=trusted", reg)
	if code != 1 || !strings.HasPrefix(errOut, "refusing: 'openclaw' is a quarantined-class agent. Registering it as trusted") {
		t.Errorf("risk gate on add: %d %q", code, errOut)
	}
	out, _, code = runRegistry(t, "add", "clyde", "--tier=trusted", reg)
	if code != 0 || !strings.HasPrefix(out, "registered clyde (tier: trusted)\n") {
		t.Errorf("add trusted: %d %q", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"grant", "openclaw", "codex"}, "granted openclaw read access to namespace 'codex'\n"},
		{[]string{"ungrant", "openclaw", "claude-code"}, "removed openclaw grant on namespace 'claude-code'\n"},
		{[]string{"set-tier", "clyde", "quarantined"}, "clyde -> tier: quarantined\n"},
		{[]string{"revoke", "clyde"}, "revoked clyde: token invalidated, federation access cut. Its audit history remains queryable (`bourdon audit --agent clyde`).\n"},
		{[]string{"list"}, "clyde                          REVOKED      grants: -\nopenclaw                       quarantined  grants: codex\n"},
	} {
		out, errOut, code := runRegistry(t, append(c.args, reg)...)
		if code != 0 || out != c.want {
			t.Errorf("%v: %d %q %q, want %q", c.args, code, out, errOut, c.want)
		}
	}
	out, errOut, code = runRegistry(t, "rotate", "openclaw", reg)
	if code != 0 || !strings.HasPrefix(out, "rotated openclaw\ntoken: bdn_") || strings.Contains(out, token) {
		t.Errorf("rotate: %d %q %q", code, out, errOut)
	}
	for _, args := range [][]string{{"revoke", "ghost"}, {"rotate", "ghost"}, {"grant", "ghost", "x"}, {"ungrant", "ghost", "x"}, {"set-tier", "ghost", "trusted"}} {
		_, errOut, code := runRegistry(t, append(args, reg)...)
		if code != 1 || errOut != "error: unknown agent 'ghost'\n" {
			t.Errorf("%v: %d %q", args, code, errOut)
		}
	}
	_, errOut, code = runRegistry(t, "rotate", "clyde", reg)
	if code != 1 || errOut != "error: agent 'clyde' is revoked; re-add it instead\n" {
		t.Errorf("rotate revoked: %d %q", code, errOut)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "bdn_") {
		t.Error("token in the file")
	}

	// The environment variable, and a corrupt file.
	t.Setenv("BOURDON_FEDERATION_CONFIG", path)
	out, _, code = runRegistry(t, "list")
	if code != 0 || !strings.Contains(out, "openclaw") {
		t.Errorf("env path: %d %q", code, out)
	}
	os.WriteFile(path, []byte("agents: [broken"), 0o600)
	_, errOut, code = runRegistry(t, "list")
	if code != 1 || !strings.HasPrefix(errOut, "error: federation registry "+path+": ") {
		t.Errorf("corrupt: %d %q", code, errOut)
	}
	os.WriteFile(path, []byte("agents:\n  old: {grants: [codex]}\n"), 0o600)
	out, errOut, code = runRegistry(t, "list")
	if code != 0 || out != "old                            ?            grants: codex\n" || !strings.Contains(errOut, "warning: old: the row has no tier") {
		t.Errorf("tierless: %d %q %q", code, out, errOut)
	}
}

func TestRegistrySetLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "federation.yaml")
	reg := "--registry=" + path
	if _, _, code := runRegistry(t, "add", "codex", reg); code != 0 {
		t.Fatal("add failed")
	}
	out, errOut, code := runRegistry(t, "set-limit", "codex", "120/m", "--burst", "9", reg)
	if code != 0 || out != "codex -> rate limit: 2/s, burst: 9\n" {
		t.Errorf("set-limit: %d %q %q", code, out, errOut)
	}
	members, err := trust.OpenRegistry(path).List()
	if err != nil || len(members) != 1 || members[0].Rate.PerSecond == nil || *members[0].Rate.PerSecond != 2 || members[0].Rate.Burst != 9 {
		t.Errorf("stored: %+v %v", members, err)
	}
	out, _, code = runRegistry(t, "set-limit", "codex", "default", reg)
	if code != 0 || out != "codex -> rate limit: default, burst: default\n" {
		t.Errorf("back to the default: %d %q", code, out)
	}
	if _, errOut, code := runRegistry(t, "set-limit", "codex", "fast", reg); code != 1 || !strings.Contains(errOut, "N/s, N/m or N/h") {
		t.Errorf("a bad rate: %d %q", code, errOut)
	}
}
