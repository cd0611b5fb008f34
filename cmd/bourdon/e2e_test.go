package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// binary is the bourdon executable built once for the end-to-end tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "bourdon-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "bourdon")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building bourdon:", err)
		os.Exit(1)
	}
	// The tests, and the servers and commands they start, must not read or
	// write the real home (~/.bourdon, ~/agent-library): HOME is an empty
	// directory of ours from here on (go build above needed the real one
	// for its caches), checked at the end, and the registry and audit log
	// default to paths beside it.
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("HOME", home)
	os.Setenv(trust.RegistryEnv, filepath.Join(dir, "federation.yaml"))
	os.Setenv(trust.AuditEnv, filepath.Join(dir, "audit.jsonl"))
	code := pgtest.Main(m) // m.Run, then the PostgreSQL the tests started (if any) stops
	if written, err := filesUnder(home); err != nil || len(written) > 0 {
		fmt.Fprintf(os.Stderr, "the tests wrote into HOME (%s): %q %v\n", home, written, err)
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// filesUnder lists what root holds, as paths relative to it.
func filesUnder(root string) ([]string, error) {
	var found []string
	err := filepath.WalkDir(root, func(path string, _ os.DirEntry, err error) error {
		if err == nil && path != root {
			rel, _ := filepath.Rel(root, path)
			found = append(found, rel)
		}
		return err
	})
	return found, err
}

func seedLibrary(t testing.TB) string {
	return mcptest.CopyDir(t, "../../testdata/conformance/fed_seed_library")
}

// toolCalls has one call of every tool, with arguments that reach data in
// the seed library.
var toolCalls = []struct {
	tool string
	args map[string]any
	key  string // a key the payload must carry
	// fails, when set, is a text the tool error must contain.
	fails string
}{
	{"list_agents", map[string]any{}, "agents", ""},
	{"find_entity", map[string]any{"name": "Bourdon", "access_level": "team"}, "matches", ""},
	{"query_agent_memory", map[string]any{"agent": "codex", "topic": "SecretProj"}, "matches", ""},
	{"list_recent_work", map[string]any{"since": "2026-06-01", "limit": 2}, "sessions", ""},
	{"get_cross_agent_summary", map[string]any{"project": "Bourdon"}, "recent_sessions", ""},
	{"list_workstreams", map[string]any{}, "workstreams", ""},
	{"list_notes", map[string]any{"since": "2026-01-01"}, "notes", ""},
	{"export_agents", map[string]any{}, "agents", ""},
	{"reload_library", map[string]any{}, "files", ""},
	{"prepare_recognition_context", map[string]any{"prompt": "what about Bourdon"}, "prompt_context", ""},
	{"describe_caller", map[string]any{}, "tier", ""},
	{"list_memory_versions", map[string]any{"agent_id": "codex"}, "versions", ""},
	{"explain_memory_change", map[string]any{"agent_id": "codex", "digest": "0123abcd"}, "found", ""},
	{"rollback_agent_memory", map[string]any{"agent_id": "codex", "version_id": "nope"}, "error", ""},
	{"get_deeper_context", map[string]any{"prompt": "what about Bourdon"}, "context", ""},
	{"compile_codex_turn", map[string]any{"prompt": "what about Bourdon", "cwd": ""}, "schema_version", ""},
	{"commit_to_federation", map[string]any{"agent_id": "e2e", "agent_type": "other", "entities": []any{map[string]any{"name": "Probe"}}}, "total_entities", ""},
	{"request_intake", map[string]any{"problem": "The end-to-end test needs a request.", "desiredOutcome": "A draft request exists.", "type": "chore", "area": "e2e", "identity": "github:e2e", "owner": "bourdon/e2e"}, "status", ""},
	{"list_requests", map[string]any{}, "requests", ""},
	{"describe_schema", map[string]any{}, "intakeForm", ""},
	{"get_request", map[string]any{"id": "REQ-2026-0001"}, "", "no request"},
	{"get_dod", map[string]any{"id": "REQ-2026-0001"}, "", "no request"},
	{"advance_stage", map[string]any{"id": "REQ-2026-0001", "to": "evaluate"}, "", "no request"},
}

// exercise calls every tool and reads every resource through cs.
func exercise(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != len(toolCalls) {
		t.Errorf("server lists %d tools, the test calls %d", len(tools.Tools), len(toolCalls))
	}
	for _, c := range toolCalls {
		if c.fails != "" {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
			if err != nil {
				t.Fatal(err)
			}
			if text, _ := mcptest.SingleText(res); !res.IsError || !strings.Contains(text, c.fails) {
				t.Errorf("%s: want a tool error saying %q, got %s", c.tool, c.fails, text)
			}
			continue
		}
		payload, res := mcptest.CallJSON(t, cs, c.tool, c.args)
		if res.IsError {
			t.Errorf("%s: tool error %v", c.tool, payload)
			continue
		}
		if _, ok := payload.(map[string]any)[c.key]; !ok {
			t.Errorf("%s: payload lacks %q: %v", c.tool, c.key, payload)
		}
	}
	// A bad argument is a tool error that says what is wrong.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "find_entity", Arguments: map[string]any{"name": "x", "access_level": "secret"}})
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := mcptest.SingleText(res); !res.IsError || !strings.Contains(text, "unsupported access_level") {
		t.Errorf("bad access level: isError=%v %s", res.IsError, text)
	}
	for uri, want := range map[string]string{
		"agent-library://agents":                       `"claude-code","codex"`,
		"agent-library://agents/codex/memory":          `"SecretProj"`,
		"agent-library://agents/nobody/memory":         `{"error":"agent not found: nobody"}`,
		"agent-library://entities/Bourdon":             `"Cross-agent memory federation (granted side)."`,
		"agent-library://entities/Quarterly%20Revenue": `[]`,
	} {
		r, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Errorf("%s: %v", uri, err)
			continue
		}
		if len(r.Contents) != 1 || !strings.Contains(r.Contents[0].Text, want) {
			t.Errorf("%s: %+v, want it to contain %s", uri, r.Contents, want)
		}
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) != 2 {
		t.Errorf("resource templates: %v %v", templates, err)
	}
}

func TestStdio(t *testing.T) {
	cmd := exec.Command(binary, "serve", "--library", seedLibrary(t), "--quiet")
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	exercise(t, cs)
}

// server is a running "bourdon serve --transport http".
type server struct {
	cmd    *exec.Cmd
	url    string
	banner []string
}

var urlRE = regexp.MustCompile(`on (https?://\S+/mcp)`)

func startHTTP(t testing.TB, args ...string) *server {
	t.Helper()
	return startHTTPWith(t, nil, append([]string{"--port", "0"}, args...)...)
}

// startHTTPWith starts "bourdon serve --transport http" with args and the
// extra environment variables env (NAME=value).
func startHTTPWith(t testing.TB, env []string, args ...string) *server {
	t.Helper()
	return startHTTPWithin(t, 20*time.Second, env, args...)
}

// startHTTPWithin is startHTTPWith for a server that may take up to
// startup to print its URL (a large library loads first).
func startHTTPWithin(t testing.TB, startup time.Duration, env []string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--transport", "http"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	deadline := time.AfterFunc(startup, func() { cmd.Process.Kill() })
	defer deadline.Stop()
	for lines.Scan() {
		s.banner = append(s.banner, lines.Text())
		if m := urlRE.FindStringSubmatch(lines.Text()); m != nil {
			s.url = m[1]
			break
		}
	}
	if s.url == "" {
		t.Fatalf("no URL in the banner: %q", s.banner)
	}
	go io.Copy(io.Discard, stderr)
	return s
}

func (s *server) connect(t testing.TB) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: s.url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// stop interrupts the server and expects a clean exit.
func (s *server) stop(t *testing.T) {
	t.Helper()
	s.cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("server exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("server did not stop on SIGINT")
	}
}

func TestHTTP(t *testing.T) {
	s := startHTTP(t, "--library", seedLibrary(t), "--allow-unauthenticated")
	exercise(t, s.connect(t))
	s.stop(t)
}

func TestHTTPSeesManifestChangesWithoutRestart(t *testing.T) {
	lib := seedLibrary(t)
	s := startHTTP(t, "--library", lib, "--allow-unauthenticated")
	cs := s.connect(t)
	manifest := "spec_version: '0.1'\nagent: {id: cursor, type: code-assistant}\nlast_updated: '2026-06-30T00:00:00+00:00'\nknown_entities:\n- {name: Fresh Thing, summary: written by another process}\n"
	if err := os.WriteFile(filepath.Join(lib, "agents", "cursor.l5.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	payload, _ := mcptest.CallJSON(t, cs, "find_entity", map[string]any{"name": "fresh thing"})
	if b, _ := json.Marshal(payload); !strings.Contains(string(b), "written by another process") {
		t.Errorf("new manifest not visible to the next call: %s", b)
	}
	if err := os.Remove(filepath.Join(lib, "agents", "codex.l5.yaml")); err != nil {
		t.Fatal(err)
	}
	payload, _ = mcptest.CallJSON(t, cs, "list_agents", nil)
	if b, _ := json.Marshal(payload); string(b) != `{"agents":["claude-code","cursor"]}` {
		t.Errorf("after adding cursor and deleting codex: %s", b)
	}
}

func TestDemo(t *testing.T) {
	// The demo keeps its registry, audit log and watermarks in its
	// temporary directory: with every default pointing into a HOME of its
	// own, nothing appears there.
	home := t.TempDir()
	s := startHTTPWith(t, []string{"HOME=" + home, trust.RegistryEnv + "=", trust.AuditEnv + "="}, "--port", "0", "--demo")
	var libDir string
	for _, l := range s.banner {
		if m := regexp.MustCompile(`library (\S+) \(`).FindStringSubmatch(l); m != nil {
			libDir = m[1]
		}
	}
	if !strings.Contains(libDir, "bourdon-demo-") {
		t.Fatalf("demo library is not a temporary directory: %q (banner %q)", libDir, s.banner)
	}
	cs := s.connect(t)
	payload, _ := mcptest.CallJSON(t, cs, "find_entity", map[string]any{"name": "Payments API"})
	if b, _ := json.Marshal(payload); !strings.Contains(string(b), `"agents":["claude-code","codex"]`) {
		t.Errorf("demo find_entity: %s", b)
	}
	payload, _ = mcptest.CallJSON(t, cs, "list_recent_work", map[string]any{"access_level": "team"})
	if sessions := payload.(map[string]any)["sessions"].([]any); len(sessions) != 5 {
		t.Errorf("demo list_recent_work shows %d sessions in the default window, want 5", len(sessions))
	}
	// The demo corpus is served too, as the banner's hints promise.
	payload, _ = mcptest.CallJSON(t, cs, "docs_search", map[string]any{"query": "retry a refund after a timeout"})
	if b, _ := json.Marshal(payload); !strings.Contains(string(b), `"uid":"demo.docs.retry-a-refund-safely"`) {
		t.Errorf("demo docs_search: %s", b)
	}
	payload, _ = mcptest.CallJSON(t, cs, "get_learning_path", map[string]any{"targetSkill": "demo.skills.replay-ledger-events"})
	if steps := payload.(map[string]any)["steps"].([]any); len(steps) != 2 {
		t.Errorf("demo get_learning_path: %d steps, want 2", len(steps))
	}
	// Writes stay in the demo library too.
	if payload, res := mcptest.CallJSON(t, cs, "commit_to_federation", map[string]any{"agent_id": "e2e", "agent_type": "other", "entities": []any{map[string]any{"name": "Probe"}}}); res.IsError {
		t.Errorf("demo commit_to_federation: %v", payload)
	}
	s.stop(t)
	if _, err := os.Stat(libDir); !os.IsNotExist(err) {
		t.Errorf("demo library %s left behind after exit", libDir)
	}
	if written, err := filesUnder(home); err != nil || len(written) > 0 {
		t.Errorf("the demo wrote into HOME: %q %v", written, err)
	}
}

func TestRefusesNonLoopbackHTTPWithoutAuth(t *testing.T) {
	for args, want := range map[string]string{
		"--host 0.0.0.0":                         `refusing to start: bind "0.0.0.0" is network-reachable but no auth is configured`,
		"--host 0.0.0.0 --allow-unauthenticated": `refusing to start: --allow-unauthenticated with non-loopback bind "0.0.0.0"`,
	} {
		cmd := exec.Command(binary, append([]string{"serve", "--transport", "http", "--library", t.TempDir(), "--registry", filepath.Join(t.TempDir(), "none.yaml")}, strings.Fields(args)...)...)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), want) {
			t.Errorf("%s: err=%v output=%s", args, err, out)
		}
	}
}

func TestValidateCommand(t *testing.T) {
	fx := "../../testdata/conformance/l5_manifests"
	out, err := exec.Command(binary, "validate", fx+"/valid/full.json", fx+"/valid/minimal.json",
		"../../testdata/conformance/fed_seed_library/agents/codex.l5.yaml").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "3 file(s) valid") {
		t.Errorf("valid files: %v\n%s", err, out)
	}
	out, err = exec.Command(binary, "validate", fx+"/invalid/entity-bad-visibility-enum.json", fx+"/invalid/bad-agent-type-enum.json").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("invalid files must exit 1: %v", err)
	}
	for _, want := range []string{"/known_entities/0/visibility", "(enum)", "/agent/type"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestServeSweepsDeadWritersTempFiles: temporary files a killed commit
// left are gone once the server has started.
func TestServeSweepsDeadWritersTempFiles(t *testing.T) {
	lib := seedLibrary(t)
	old := time.Now().Add(-time.Hour)
	stray := []string{
		filepath.Join(lib, "agents", ".codex.l5.yaml.0123456789ab.tmp"),
		filepath.Join(lib, "history", "codex", "versions", ".20260101T000000.000000Z-abcdef01.l5.yaml.0123456789ab.tmp"),
		filepath.Join(lib, "staging", "codex", ".codex.l5.yaml.0123456789ab.tmp"),
		filepath.Join(lib, ".bourdon", "exports", ".codex.json.0123456789ab.tmp"),
	}
	for _, p := range stray {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("torn"), 0o644)
		os.Chtimes(p, old, old)
	}
	s := startHTTP(t, "--library", lib, "--allow-unauthenticated")
	for _, p := range stray {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s survived the start-up", p)
		}
	}
	if !strings.Contains(strings.Join(s.banner, "\n"), "4 stale temporary files removed") {
		t.Errorf("banner %q", s.banner)
	}
	s.stop(t)
}
