package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
)

// runWithStdin runs the root command with args and stdin.
func runWithStdin(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := newRootCommand()
	cmd.SetIn(strings.NewReader(stdin))
	return runWriteCLI(t, cmd, args...)
}

// hookInput is what Claude Code passes a UserPromptSubmit hook on stdin.
func hookInput(prompt string) string {
	b, _ := json.Marshal(map[string]any{
		"session_id":      "5d1c9a70-2b4e-4f7a-9c11-3e8d2a6b0f01",
		"transcript_path": "/home/dev/.claude/projects/-home-dev-repos-cafe/5d1c9a70.jsonl",
		"cwd":             "/home/dev/repos/cafe",
		"permission_mode": "default",
		"hook_event_name": "UserPromptSubmit",
		"prompt":          prompt,
	})
	return string(b)
}

// TestPrepareTurnAsAUserPromptSubmitHook: without PROMPT, prepare-turn
// reads Claude Code's hook input from stdin and prints the recognition
// fragment alone, as plain text (what Claude Code adds to the turn), or
// nothing; plain text on stdin is the prompt itself; bad input is a clear
// error.
func TestPrepareTurnAsAUserPromptSubmitHook(t *testing.T) {
	unsetenv(t, "BOURDON_DEFAULT_ACCESS_LEVEL")
	lib := twinLibrary(t)
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{})
	cs := mcptest.Connect(t, srv.Server, "in-memory")

	for _, prompt := range []string{"what about Bourdon", "le Café Crème et creme", "nothing here", "SecretProj\nand \"quotes\""} {
		want, _ := mcptest.CallJSON(t, cs, "prepare_recognition_context", map[string]any{"prompt": prompt})
		fragment := want.(map[string]any)["prompt_context"].(string)
		if fragment != "" {
			fragment += "\n"
		}
		out, errOut, code := runWithStdin(t, hookInput(prompt), "prepare-turn", "--library", lib)
		if code != 0 || errOut != "" || out != fragment {
			t.Errorf("hook %q: exit %d, stderr %q, stdout\n%q\nwant the fragment\n%q", prompt, code, errOut, out, fragment)
		}

		// --json: the whole payload; --report-out: the payload as YAML.
		report := filepath.Join(t.TempDir(), "turn.yaml")
		out, _, code = runWithStdin(t, hookInput(prompt), "prepare-turn", "--library", lib, "--report-out", report)
		saved, err := os.ReadFile(report)
		if code != 0 || out != fragment || err != nil {
			t.Fatalf("hook with --report-out: %d %q %v", code, out, err)
		}
		if diff := cmp.Diff(withoutLatency(want), withoutLatency(yamlAsJSON(t, string(saved)))); diff != "" {
			t.Errorf("hook %q: the report is not the payload:\n%s", prompt, diff)
		}
		out, _, _ = runWithStdin(t, hookInput(prompt), "prepare-turn", "--library", lib, "--json")
		if diff := cmp.Diff(withoutLatency(want), withoutLatency(jsonValue(t, out))); diff != "" {
			t.Errorf("hook %q --json: not the payload:\n%s", prompt, diff)
		}

		// Plain text on stdin is the prompt: the same output as the
		// argument gives.
		byArg, _, _ := runWriteCLI(t, newRootCommand(), "prepare-turn", strings.TrimSpace(prompt), "--library", lib)
		byStdin, _, code := runWithStdin(t, prompt+"\n", "prepare-turn", "--library", lib)
		if code != 0 || withoutLatencyYAML(t, byStdin) != withoutLatencyYAML(t, byArg) {
			t.Errorf("prompt %q on stdin:\n%s\nas an argument:\n%s", prompt, byStdin, byArg)
		}
	}

	// The fragment names what the prompt recognised.
	out, _, _ := runWithStdin(t, hookInput("le Café Crème et creme"), "prepare-turn", "--library", lib, "--access-level", "team")
	if !strings.HasPrefix(out, "Bourdon recognition context\n") || !strings.Contains(out, "Café Crème (project) via cursor") {
		t.Errorf("hook fragment:\n%s", out)
	}

	// Another event's input (no prompt): nothing to recognise. A JSON
	// object that is not hook input is text.
	out, errOut, code := runWithStdin(t, `{"session_id":"x","hook_event_name":"SessionStart","source":"startup"}`, "prepare-turn", "--library", lib)
	if code != 0 || out != "" || errOut != "" {
		t.Errorf("SessionStart input: %d %q %q", code, out, errOut)
	}
	out, _, code = runWithStdin(t, `{"note": "what about Bourdon"}`, "prepare-turn", "--library", lib, "--json")
	if p := jsonValue(t, out).(map[string]any); code != 0 || p["prompt"] != `{"note": "what about Bourdon"}` || p["recognition"] == "" {
		t.Errorf("a JSON object without a prompt: %d %v", code, p)
	}

	// Bad input: a clear error, nothing printed.
	for stdin, want := range map[string]string{
		"":                                      "standard input is empty",
		" \n\t\n":                               "standard input is empty",
		strings.Repeat("Bourdon ", 1<<17) + "!": "standard input holds more than 1048576 bytes",
	} {
		cmd := newRootCommand()
		cmd.SetIn(strings.NewReader(stdin))
		var stdout strings.Builder
		cmd.SetOut(&stdout)
		cmd.SetErr(new(strings.Builder))
		cmd.SetArgs([]string{"prepare-turn", "--library", lib})
		if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), want) || stdout.Len() > 0 {
			t.Errorf("stdin of %d bytes: %v, stdout %q; want an error saying %q", len(stdin), err, stdout.String(), want)
		}
	}
}

// withoutLatencyYAML is a YAML payload without its recognition_latency_us
// line.
func withoutLatencyYAML(t *testing.T, s string) string {
	t.Helper()
	var kept []string
	for _, line := range strings.Split(s, "\n") {
		if !strings.HasPrefix(line, "recognition_latency_us:") {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}
