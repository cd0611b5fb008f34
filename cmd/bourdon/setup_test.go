package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// homeEnv is this process's environment with HOME set to home and none
// of the variables that move the clients' files or the agents' stores.
func homeEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "HOME", "CODEX_HOME", "CLAUDE_CONFIG_DIR", "BOURDON_CLAUDE_DESKTOP_DIR", "CURSOR_DIR", "CLAUDE_BRAIN",
			"BOURDON_CURSOR_DATA_DIR", "CLAUDE_HOME", "CLAUDE_AUTOMATIONS_DIR", "COPILOT_AUTOMATIONS_HOME",
			"COPILOT_BOURDON_HOME", "COPILOT_CLI_HOME", "COPILOT_VSCODE_STORAGE", "XDG_CONFIG_HOME", "APPDATA":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home)
}

// runIn runs the built bourdon with the environment of homeEnv(home),
// stdin empty, and returns stdout, stderr and the exit status.
func runIn(t *testing.T, home string, args ...string) (string, string, int) {
	t.Helper()
	return runCmd(t, home, "", binary, args...)
}

// runCmd runs name with the environment of homeEnv(home) and stdin, and
// returns stdout, stderr and the exit status.
func runCmd(t *testing.T, home, stdin, name string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = homeEnv(home)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

func readAll(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		files[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestSetupAndDoctorCommands(t *testing.T) {
	home := t.TempDir()
	settings := `{"model": "opus", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}` + "\n"
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	pristine := readAll(t, home)

	// No terminal, no --yes: refused, nothing written.
	out, errOut, code := runIn(t, home, "setup")
	if code != 1 || !strings.Contains(errOut, "run it again with --yes") || !strings.Contains(out, "+++ "+filepath.Join(home, ".cursor", "mcp.json")) {
		t.Fatalf("setup without --yes: %d\n%s\n%s", code, out, errOut)
	}
	if len(readAll(t, home)) != len(pristine) {
		t.Fatal("setup without --yes wrote files")
	}

	// Dry run: says so, writes nothing.
	out, _, code = runIn(t, home, "setup", "--dry-run")
	if code != 0 || !strings.Contains(out, "(dry run) Nothing was written and nothing was run") {
		t.Fatalf("dry run: %d\n%s", code, out)
	}
	if len(readAll(t, home)) != len(pristine) {
		t.Fatal("a dry run wrote files")
	}

	// --yes --json: a report on stdout, the account on stderr.
	out, errOut, code = runIn(t, home, "setup", "--yes", "--no-export", "--json")
	var rep struct {
		Schema  string `json:"schema"`
		Applied bool   `json:"applied"`
		Binary  string `json:"binary"`
		Record  string `json:"record"`
		Changes []struct {
			Path, Action string
			Done         bool
		} `json:"changes"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("setup --json: %d %v\n%s\n%s", code, err, out, errOut)
	}
	if rep.Schema != "bourdon.setup/v1" || !rep.Applied || rep.Binary != binary || len(rep.Changes) != 5 || !strings.Contains(errOut, "setup outcome:") {
		t.Errorf("report %+v\n%s", rep, errOut)
	}
	got := readAll(t, home)
	cursor := got[filepath.Join(home, ".cursor", "mcp.json")]
	lib := filepath.Join(home, "agent-library")
	if !strings.Contains(cursor, `"command": "`+binary+`"`) || !strings.Contains(cursor, `"`+lib+`"`) {
		t.Errorf("mcp.json:\n%s", cursor)
	}
	newSettings := got[filepath.Join(home, ".claude", "settings.json")]
	if !strings.Contains(newSettings, `"command": "say done"`) || !strings.Contains(newSettings, binary+" export-all --library "+lib) {
		t.Errorf("settings.json:\n%s", newSettings)
	}

	// Twice: nothing to change.
	out, _, code = runIn(t, home, "setup", "--yes", "--no-export")
	if code != 0 || !strings.Contains(out, "Nothing to change") || strings.Contains(out, "--- ") {
		t.Errorf("second setup: %d\n%s", code, out)
	}

	// Doctor: the wiring is OK; an empty library is a warning, not a
	// failure.
	out, _, code = runIn(t, home, "doctor")
	if code != 0 || !strings.Contains(out, "OK    hook claude-code.session-end: ") || !strings.Contains(out, "WARN  library: "+lib+" holds no manifest yet") {
		t.Errorf("doctor: %d\n%s", code, out)
	}
	out, _, code = runIn(t, home, "doctor", "--json", "--library", filepath.Join(home, "nowhere"))
	var doc struct {
		Schema  string
		Summary struct{ Fail int }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 1 || doc.Schema != "bourdon.doctor/v1" || doc.Summary.Fail != 1 {
		t.Errorf("doctor --json on a missing library: %d %v %+v\n%s", code, err, doc, out)
	}

	// Undo: back to the start, byte for byte.
	out, errOut, code = runIn(t, home, "setup", "--undo", "--yes")
	if code != 0 {
		t.Fatalf("undo: %d\n%s\n%s", code, out, errOut)
	}
	after := readAll(t, home)
	for p := range after {
		if strings.HasPrefix(p, filepath.Join(home, ".bourdon")) {
			delete(after, p)
		}
	}
	if len(after) != len(pristine) || after[filepath.Join(home, ".claude", "settings.json")] != settings {
		t.Errorf("undo left %v", after)
	}
	if _, err := os.Stat(lib); !os.IsNotExist(err) {
		t.Errorf("the empty library setup created is still there: %v", err)
	}
}

func TestExportRunnerRunsExportAll(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "fake-bourdon")
	argsFile := filepath.Join(dir, "args")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > "+argsFile+"\necho exported\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := exportRunner(script, &out, &out)(context.Background(), "/lib with space"); err != nil {
		t.Fatal(err)
	}
	args, _ := os.ReadFile(argsFile)
	if string(args) != "export-all\n--library\n/lib with space\n" || out.String() != "exported\n" {
		t.Errorf("args %q, output %q", args, out.String())
	}
}
