package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// twinLibrary is the conformance seed library plus an agent with
// non-ASCII text.
func twinLibrary(t *testing.T) string {
	t.Helper()
	dir := seedLibrary(t)
	writeAgentFile(t, dir, "cursor.l5.yaml", `spec_version: '0.1'
agent:
  id: cursor
  type: code-assistant
last_updated: '2026-06-30T08:00:00+00:00'
known_entities:
- name: Café Crème
  type: project
  aliases: [creme]
  summary: "Le café ☕, commandé à 8 h"
  visibility: team
- name: Bourdon
  summary: cursor's view
  visibility: public
recent_sessions:
- date: '2026-06-29'
  cwd: /repos/cafe
  project_focus: [Café Crème]
  key_actions: [roasted]
  visibility: team
`)
	return dir
}

func writeAgentFile(t *testing.T, lib, name, content string) {
	t.Helper()
	path := filepath.Join(lib, "agents", name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// unsetenv removes variables for the test (t.Setenv restores them).
func unsetenv(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		t.Setenv(n, "")
		os.Unsetenv(n)
	}
}

// yamlAsJSON decodes a YAML document and returns it as the generic value
// its JSON form decodes to.
func yamlAsJSON(t *testing.T, data string) any {
	t.Helper()
	doc, err := yaml11.Decode([]byte(data))
	if err != nil {
		t.Fatalf("output is not YAML: %v\n%s", err, data)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func jsonValue(t *testing.T, data string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, data)
	}
	return v
}

// withoutLatency drops the one field that differs between two calls.
func withoutLatency(v any) any {
	if m, ok := v.(map[string]any); ok {
		delete(m, "recognition_latency_us")
	}
	return v
}

// TestTurnTwinsPrintTheToolsPayloads runs prepare-turn and deeper-context
// and calls the MCP tools on the same library: the payloads are the same
// (recognition_latency_us aside), in YAML and in JSON.
func TestTurnTwinsPrintTheToolsPayloads(t *testing.T) {
	unsetenv(t, "BOURDON_DEFAULT_ACCESS_LEVEL", "BOURDON_L2_ENABLED", "BOURDON_L2_ENDPOINT")
	lib := twinLibrary(t)
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{})
	cs := mcptest.Connect(t, srv.Server, "in-memory")
	for _, c := range []struct{ twin, tool string }{{"prepare-turn", "prepare_recognition_context"}, {"deeper-context", "get_deeper_context"}} {
		for _, prompt := range []string{"what about Bourdon", "le Café Crème et creme", "SecretProj and Internal Notes", "nothing here", ""} {
			for _, level := range []string{"", "public", "team", "private"} {
				args := map[string]any{"prompt": prompt}
				flags := []string{c.twin, prompt, "--library", lib}
				if level != "" {
					args["access_level"] = level
					flags = append(flags, "--access-level", level)
				}
				want, _ := mcptest.CallJSON(t, cs, c.tool, args)
				want = withoutLatency(want)

				out, errOut, code := runWriteCLI(t, newRootCommand(), flags...)
				if code != 0 || errOut != "" {
					t.Fatalf("%v: exit %d, stderr %q", flags, code, errOut)
				}
				if diff := cmp.Diff(want, withoutLatency(yamlAsJSON(t, out))); diff != "" {
					t.Errorf("%v: the YAML is not the tool's payload (-tool +twin):\n%s", flags, diff)
				}
				report := filepath.Join(t.TempDir(), "sub", "report.json")
				out, _, code = runWriteCLI(t, newRootCommand(), append(flags, "--json", "--report-out", report)...)
				if code != 0 {
					t.Fatalf("%v --json: exit %d", flags, code)
				}
				if diff := cmp.Diff(want, withoutLatency(jsonValue(t, out))); diff != "" {
					t.Errorf("%v --json: not the tool's payload (-tool +twin):\n%s", flags, diff)
				}
				if saved, err := os.ReadFile(report); err != nil || string(saved) != out {
					t.Errorf("%v: --report-out holds %q (%v), stdout %q", flags, saved, err, out)
				}
			}
		}
	}

	// The payload's keys come in the tool's order.
	out, _, _ := runWriteCLI(t, newRootCommand(), "prepare-turn", "what about Bourdon", "--library", lib)
	var keys []string
	for _, line := range strings.Split(out, "\n") {
		if k, _, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "-") {
			keys = append(keys, k)
		}
	}
	if got := strings.Join(keys, " "); got != "prompt access_level include_private recognition confidence matched_entities hydration_scheduled prompt_context recognition_latency_us" {
		t.Errorf("prepare-turn keys: %s", got)
	}
}

func TestTurnTwinsAccessLevel(t *testing.T) {
	unsetenv(t, "BOURDON_L2_ENABLED", "BOURDON_L2_ENDPOINT")
	lib := twinLibrary(t)
	// The default follows BOURDON_DEFAULT_ACCESS_LEVEL, as the tools' does.
	t.Setenv("BOURDON_DEFAULT_ACCESS_LEVEL", "public")
	out, _, code := runWriteCLI(t, newRootCommand(), "prepare-turn", "Café Crème", "--library", lib, "--json")
	p := jsonValue(t, out).(map[string]any)
	if code != 0 || p["access_level"] != "public" || p["recognition"] != "" {
		t.Errorf("public default: %d %v", code, p)
	}
	out, _, _ = runWriteCLI(t, newRootCommand(), "prepare-turn", "Café Crème", "--library", lib, "--json", "--access-level", "team")
	if p := jsonValue(t, out).(map[string]any); p["access_level"] != "team" || p["recognition"] != "Oh -- Café Crème, the project." {
		t.Errorf("the flag wins over the variable: %v", p)
	}
	t.Setenv("BOURDON_DEFAULT_ACCESS_LEVEL", "secret")
	out, errOut, _ := runWriteCLI(t, newRootCommand(), "prepare-turn", "Café Crème", "--library", lib, "--json")
	if p := jsonValue(t, out).(map[string]any); p["access_level"] != "team" || !strings.Contains(errOut, "BOURDON_DEFAULT_ACCESS_LEVEL") {
		t.Errorf("an invalid variable falls back to team with a warning: %v %q", p, errOut)
	}
	t.Setenv("BOURDON_DEFAULT_ACCESS_LEVEL", "")
	for _, twin := range []string{"prepare-turn", "deeper-context"} {
		cmd := newRootCommand()
		cmd.SetArgs([]string{twin, "x", "--library", lib, "--access-level", "secret"})
		cmd.SetOut(new(strings.Builder))
		if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), "use public, team or private") {
			t.Errorf("%s with a bad level: %v", twin, err)
		}
	}
	// A missing library is an empty one.
	out, _, code = runWriteCLI(t, newRootCommand(), "prepare-turn", "Bourdon", "--library", filepath.Join(t.TempDir(), "none"), "--json")
	if p := jsonValue(t, out).(map[string]any); code != 0 || p["recognition"] != "" {
		t.Errorf("missing library: %d %v", code, p)
	}
}

// trayLibrary holds what the tray must show: the seed agents, non-ASCII
// text, an unquoted last_updated, more sessions than the tray lists, a
// private session, credential-like text for both batteries, a link, an
// overlong action, a manifest without an id, and files that cannot be
// read (bad YAML, a list, bad UTF-8).
func trayLibrary(t *testing.T) string {
	t.Helper()
	lib := seedLibrary(t)
	var sessions strings.Builder
	for i := range 12 {
		fmt := "- date: 2026-06-%02d\n  project_focus: [Café Crème]\n  key_actions: [session %d]\n"
		if i%2 == 0 {
			fmt = "- date: '2026-06-%02d'\n  project_focus: [Café Crème]\n  key_actions: [session %d]\n  visibility: team\n"
		}
		sessions.WriteString(strings.NewReplacer("%02d", twoDigits(10+i), "%d", twoDigits(i)).Replace(fmt))
	}
	writeAgentFile(t, lib, "cursor.l5.yaml", `spec_version: '0.1'
agent:
  id: cursor
  type: code-assistant
  instance: ordinateur-été
  role_narrative: "Éditeur de code — café ☕ 😀, see https://example.com/docs for more"
last_updated: 2026-07-01 09:30:00+02:00
capabilities: [read, write, 42]
recent_sessions:
- date: '2026-06-30'
  project_focus: [Secret plans]
  key_actions: [private thoughts]
  visibility: private
- date: '2026-06-25'
  project_focus: ["  Bourdon  "]
  key_actions:
  - my password is hunter2
  - pushed with ghp_abcdefghijklmnopqrstuvwxyz0123456789
  - "`+strings.Repeat("long action ", 20)+`"
  - see https://example.com/a?b=c and http://x.test
`+sessions.String())
	writeAgentFile(t, lib, "copilot.l5.yaml", "spec_version: '0.1'\nagent:\n  type: other\n")
	writeAgentFile(t, lib, "broken.l5.yaml", "agent: {id: broken\n  nope: [\n")
	writeAgentFile(t, lib, "list.l5.yaml", "- a\n- b\n")
	writeAgentFile(t, lib, "latin1.l5.yaml", "spec_version: '0.1'\nagent:\n  id: caf\xe9\n")
	writeAgentFile(t, lib, "notes.txt", "not a manifest")
	writeAgentFile(t, lib, "sub.l5.yaml/inner.l5.yaml", "agent: {id: inner}\n")
	return lib
}

func twoDigits(i int) string { return string([]byte{byte('0' + i/10%10), byte('0' + i%10)}) }

// TestAgentsJSONGolden pins "bourdon agents --json" byte for byte.
func TestAgentsJSONGolden(t *testing.T) {
	lib := trayLibrary(t)
	t.Setenv("BOURDON_LOCAL_NAME", "  golden-box ")
	t.Chdir(lib) // generated_from is the directory as given
	out, errOut, code := runWriteCLI(t, newRootCommand(), "agents", "--json", "--agents-dir", "agents")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	golden := filepath.Join(testdataDir(t), "agents.golden.json")
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestAgentsJSONGolden -update)", err)
	}
	if diff := cmp.Diff(string(want), out); diff != "" {
		t.Errorf("agents --json differs from %s (-want +got):\n%s", golden, diff)
	}
	for i, c := range out {
		if c > 0x7e || c < 0x20 && c != '\n' {
			t.Fatalf("byte %d of the output is not printable ASCII: %q", i, c)
		}
	}
	for _, leak := range []string{"hunter2", "ghp_", "private thoughts", "Secret plans", "https://"} {
		if strings.Contains(out, leak) {
			t.Errorf("the tray output holds %q", leak)
		}
	}

	// --library names the library instead; the result is the same agents.
	out2, _, _ := runWriteCLI(t, newRootCommand(), "agents", "--library", ".")
	if out2 != out {
		t.Errorf("--library . must read ./agents:\n%s", out2)
	}
}

func TestAgentsExitStatus(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none")
	out, errOut, code := runWriteCLI(t, newRootCommand(), "agents", "--library", missing)
	if code != 2 || out != "" || errOut != "agents: agent-library directory not found: "+filepath.Join(missing, "agents")+"\n" {
		t.Errorf("missing directory: %d %q %q", code, out, errOut)
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runWriteCLI(t, newRootCommand(), "agents", "--agents-dir", file); code != 2 || !strings.Contains(errOut, "not found") {
		t.Errorf("a file instead of a directory: %d %q", code, errOut)
	}
	empty := t.TempDir()
	if err := os.Mkdir(filepath.Join(empty, "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, _, code = runWriteCLI(t, newRootCommand(), "agents", "--library", empty)
	if p, _ := jsonValue(t, out).(map[string]any); code != 0 || len(p["agents"].([]any)) != 0 {
		t.Errorf("an empty directory: %d %s", code, out)
	}
}

// sourceDir is the package directory, where tests start.
var sourceDir, _ = os.Getwd()

func testdataDir(t *testing.T) string {
	t.Helper()
	if sourceDir == "" {
		t.Fatal("unknown package directory")
	}
	return filepath.Join(sourceDir, "testdata")
}

func TestAuditCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	lines := []string{
		`{"ts": "2026-06-28T23:59:59.000000Z", "agent": "openclaw", "op": "find_entity", "namespace": "*", "decision": "allow"}`,
		`{"ts": "2026-06-29T00:00:01.000000Z", "agent": "openclaw", "op": "query_agent_memory", "namespace": "codex", "decision": "deny", "detail": "namespace 'codex' not granted"}`,
		`not json`,
		`{"ts": "2026-06-29T10:00:00.000000Z", "agent": "clyde", "op": "get_deeper_context", "namespace": "*", "decision": "deny", "detail": "tier 'quarantined' may not call this tool"}`,
		`{"ts": "2026-06-30T08:00:00.000000Z", "agent": "operator", "op": "list_agents", "namespace": "*", "decision": "allow"}`,
		`{"ts": "2026-06-30T09:00:00.000000Z", "agent": "openclaw", "op": "list_recent_work", "namespace": "*", "decision": "allow"}`,
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"+`{"ts": "2026-06-30T10`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BOURDON_AUDIT_PATH", path)
	row := func(i int) string {
		e := lines[i]
		var m map[string]string
		_ = json.Unmarshal([]byte(e), &m)
		s := m["ts"] + strings.Repeat(" ", 29-len(m["ts"])) + m["decision"] + strings.Repeat(" ", 6-len(m["decision"])) +
			m["agent"] + strings.Repeat(" ", 21-len(m["agent"])) + m["op"] + strings.Repeat(" ", 29-len(m["op"])) + "ns=" + m["namespace"]
		if m["detail"] != "" {
			s += "  (" + m["detail"] + ")"
		}
		return s + "\n"
	}
	for _, c := range []struct {
		args   []string
		want   []int // lines, in the order shown
		json   bool
		capped bool
	}{
		{args: nil, want: []int{5, 4, 3, 1, 0}},
		{args: []string{"--agent", "openclaw"}, want: []int{5, 1, 0}},
		{args: []string{"--denied"}, want: []int{3, 1}},
		{args: []string{"--denials", "--agent", "openclaw"}, want: []int{1}},
		{args: []string{"--since", "2026-06-29"}, want: []int{5, 4, 3, 1}},
		{args: []string{"--since", "2026-06-29T11:00:00+02:00"}, want: []int{5, 4, 3}},
		{args: []string{"--since", "2026-06-30T08:00"}, want: []int{5, 4}},
		{args: []string{"--limit", "2"}, want: []int{5, 4}, capped: true},
		{args: []string{"--limit", "0"}, want: []int{5, 4, 3, 1, 0}},
		{args: []string{"--json", "--denied"}, want: []int{3, 1}, json: true},
		{args: []string{"--export", "--limit", "1"}, want: []int{5}, json: true, capped: true},
		{args: []string{"--agent", "ghost"}, want: nil},
	} {
		out, errOut, code := runWriteCLI(t, newRootCommand(), append([]string{"audit"}, c.args...)...)
		var want strings.Builder
		for _, i := range c.want {
			if c.json {
				want.WriteString(lines[i] + "\n")
			} else {
				want.WriteString(row(i))
			}
		}
		if len(c.want) == 0 && !c.json {
			want.WriteString("no audit entries match\n")
		}
		if code != 0 || out != want.String() {
			t.Errorf("audit %v: exit %d\n%s\nwant\n%s", c.args, code, out, want.String())
		}
		if capped := strings.Contains(errOut, "older ones may exist"); capped != c.capped {
			t.Errorf("audit %v: stderr %q", c.args, errOut)
		}
	}
	// The registry's revoke message sends people here.
	out, _, code := runWriteCLI(t, newRootCommand(), "audit", "--agent", "clyde", "--audit-log", path)
	if code != 0 || out != row(3) {
		t.Errorf("--agent clyde --audit-log: %d %q", code, out)
	}
	out, _, code = runWriteCLI(t, newRootCommand(), "audit", "--audit-log", filepath.Join(t.TempDir(), "none.jsonl"))
	if code != 0 || out != "no audit entries match\n" {
		t.Errorf("missing log: %d %q", code, out)
	}
	for _, bad := range [][]string{{"--since", "yesterday"}, {"--since", "2026-02-30"}, {"--limit", "-1"}} {
		cmd := newRootCommand()
		cmd.SetArgs(append([]string{"audit"}, bad...))
		cmd.SetOut(new(strings.Builder))
		if err := cmd.Execute(); err == nil {
			t.Errorf("audit %v: no error", bad)
		}
	}
}

// TestReferenceRegistrySpellings runs the reference's command names and
// the registry's side by side: same outputs, same registry.
func TestReferenceRegistrySpellings(t *testing.T) {
	dir := t.TempDir()
	refPath, ourPath := filepath.Join(dir, "ref.yaml"), filepath.Join(dir, "ours.yaml")
	tokens := regexp.MustCompile(`bdn_[0-9a-f]{48}`)
	for _, c := range [][2][]string{
		{{"agent", "add", "codex", "--grant", "claude-code"}, {"registry", "add", "codex", "--grant", "claude-code"}},
		{{"agent", "add", "openclaw", "--tier", "trusted"}, {"registry", "add", "openclaw", "--tier", "trusted"}},
		{{"agent", "add", "openclaw", "--tier", "trusted", "--i-understand-the-risk"}, {"registry", "add", "openclaw", "--tier", "trusted", "--i-understand-the-risk"}},
		{{"grant", "codex", "cursor"}, {"registry", "grant", "codex", "cursor"}},
		{{"ungrant", "codex", "claude-code"}, {"registry", "ungrant", "codex", "claude-code"}},
		{{"agent", "set-tier", "codex", "trusted"}, {"registry", "set-tier", "codex", "trusted"}},
		{{"agent", "rotate", "codex"}, {"registry", "rotate", "codex"}},
		{{"agent", "list"}, {"registry", "list"}},
		{{"revoke", "codex"}, {"registry", "revoke", "codex"}},
		{{"revoke", "ghost"}, {"registry", "revoke", "ghost"}},
		{{"agent", "list"}, {"registry", "list"}},
	} {
		refOut, refErr, refCode := runWriteCLI(t, newRootCommand(), append(c[0], "--registry", refPath)...)
		ourOut, ourErr, ourCode := runWriteCLI(t, newRootCommand(), append(c[1], "--registry", ourPath)...)
		refOut, ourOut = tokens.ReplaceAllString(refOut, "TOKEN"), tokens.ReplaceAllString(ourOut, "TOKEN")
		if refOut != ourOut || refErr != ourErr || refCode != ourCode {
			t.Errorf("%v and %v differ:\n%d %q %q\n%d %q %q", c[0], c[1], refCode, refOut, refErr, ourCode, ourOut, ourErr)
		}
	}
	ref, _ := os.ReadFile(refPath)
	if !strings.Contains(string(ref), "openclaw:") || !strings.Contains(string(ref), "revoked: true") {
		t.Errorf("the reference's spellings must write the registry:\n%s", ref)
	}
	// A group without its subcommand prints its help and exits 1.
	out, _, code := runWriteCLI(t, newRootCommand(), "agent")
	if code != 1 || !strings.Contains(out, "set-tier") {
		t.Errorf("bare agent: %d %q", code, out)
	}
}

// TestDeeperContextAgentFlag: --agent is the tool's agents argument.
func TestDeeperContextAgentFlag(t *testing.T) {
	unsetenv(t, "BOURDON_DEFAULT_ACCESS_LEVEL", "BOURDON_L2_ENABLED", "BOURDON_L2_ENDPOINT")
	lib := twinLibrary(t)
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{})
	cs := mcptest.Connect(t, srv.Server, "in-memory")
	for _, agents := range [][]string{{"claude-code"}, {"codex"}, {"claude-code", "codex"}, {"nobody"}} {
		want, _ := mcptest.CallJSON(t, cs, "get_deeper_context", map[string]any{"prompt": "what about Bourdon", "agents": agents})
		flags := []string{"deeper-context", "what about Bourdon", "--library", lib, "--json"}
		for _, a := range agents {
			flags = append(flags, "--agent", a)
		}
		out, errOut, code := runWriteCLI(t, newRootCommand(), flags...)
		if code != 0 || errOut != "" {
			t.Fatalf("%v: exit %d, stderr %q", flags, code, errOut)
		}
		if diff := cmp.Diff(withoutLatency(want), withoutLatency(jsonValue(t, out))); diff != "" {
			t.Errorf("%v: not the tool's payload (-tool +twin):\n%s", flags, diff)
		}
	}
}
