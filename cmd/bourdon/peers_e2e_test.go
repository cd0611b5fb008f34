package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// peerLibrary writes a library with one agent that knows Bourdon and has
// sessions on it.
func peerLibrary(t *testing.T, agent string, sessions int) string {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	fmt.Fprintf(&b, "spec_version: '0.1'\nagent:\n  id: %s\n  type: code-assistant\nlast_updated: '2026-11-20T12:00:00+00:00'\n", agent)
	fmt.Fprintf(&b, "known_entities:\n- name: Bourdon\n  type: project\n  summary: %s view of Bourdon.\n  visibility: public\n", agent)
	fmt.Fprintf(&b, "- name: Only-%s\n  type: topic\n  summary: known to %s alone.\n  visibility: public\n", agent, agent)
	b.WriteString("recent_sessions:\n")
	for i := range sessions {
		fmt.Fprintf(&b, "- date: '2026-11-%02d'\n  cwd: /work/%s/%d\n  project_focus:\n  - Bourdon\n  key_actions:\n  - step %d\n  visibility: public\n", 1+i%20, agent, i, i)
	}
	os.MkdirAll(filepath.Join(dir, "agents"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "agents", agent+".l5.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		t.Fatalf("%s: tool error %v", tool, res.Content)
	}
	// Read only the text, as a Python client does.
	var payload map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &payload); err != nil {
		t.Fatalf("%s: text content is not JSON: %v", tool, err)
	}
	return payload
}

func agentsOf(matches any, name string) []string {
	for _, m := range matches.([]any) {
		m := m.(map[string]any)
		if m["name"] == name {
			var out []string
			for _, a := range m["agents"].([]any) {
				out = append(out, a.(string))
			}
			return out
		}
	}
	return nil
}

// TestPeerTriangle starts three real servers that each list the other two
// as peers, with tokens and tiers between them: alpha is trusted at beta
// but quarantined at gamma (granted nothing), beta and gamma trust each
// other and alpha.
func TestPeerTriangle(t *testing.T) {
	names := []string{"alpha", "beta", "gamma"}
	port := map[string]int{}
	registry := map[string]string{}
	for _, n := range names {
		port[n] = freePort(t)
		registry[n] = filepath.Join(t.TempDir(), "federation.yaml")
	}
	// token[a][b] is the token a presents to b.
	token := map[string]map[string]string{}
	for _, a := range names {
		token[a] = map[string]string{}
		for _, b := range names {
			if a == b {
				continue
			}
			if a == "alpha" && b == "gamma" {
				token[a][b] = addMember(t, registry[b], "peer-alpha", "--grant", "nobody")
			} else {
				token[a][b] = addMember(t, registry[b], "peer-"+a, "--tier", "trusted")
			}
		}
	}
	client := map[string]string{}
	for _, n := range names {
		client[n] = addMember(t, registry[n], "tester", "--tier", "trusted")
	}
	servers := map[string]*server{}
	for i, n := range names {
		var cfg strings.Builder
		var env []string
		cfg.WriteString("peers:\n")
		for _, other := range names {
			if other == n {
				continue
			}
			fmt.Fprintf(&cfg, "  - name: %s\n    url: http://127.0.0.1:%d\n    token_env: BOURDON_PEER_%s\n", other, port[other], strings.ToUpper(other))
			env = append(env, "BOURDON_PEER_"+strings.ToUpper(other)+"="+token[n][other])
		}
		peersFile := filepath.Join(t.TempDir(), "peers.yaml")
		os.WriteFile(peersFile, []byte(cfg.String()), 0o600)
		servers[n] = startHTTPWith(t, env, "--port", fmt.Sprint(port[n]), "--library", peerLibrary(t, n+"-agent", 3+2*i),
			"--registry", registry[n], "--audit-log", filepath.Join(t.TempDir(), "audit.jsonl"),
			"--peers-config", peersFile, "--peer-recognition-timeout", "300ms", "--peer-timeout", "1s")
	}
	sessions := map[string]*mcp.ClientSession{}
	for _, n := range names {
		cs, err := connectAs(t, servers[n].url, client[n], "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		sessions[n] = cs
	}

	t.Run("every server answers once, without recursion", func(t *testing.T) {
		for _, n := range names {
			got := call(t, sessions[n], "find_entity", map[string]any{"name": "bourdon"})
			agents := agentsOf(got["matches"], "Bourdon")
			if got["peers_queried"] != float64(2) || got["peers_responded"] != float64(2) {
				t.Errorf("%s: report %v %v", n, got["peers_queried"], got["peer_errors"])
			}
			for _, a := range agents {
				if strings.Count(a, "peer:") > 1 {
					t.Errorf("%s: %s was tagged twice: a peer fanned out again", n, a)
				}
			}
			want := []string{n + "-agent"}
			for _, other := range names {
				if other != n && !(n == "alpha" && other == "gamma") {
					want = append(want, "peer:"+other+":"+other+"-agent")
				}
			}
			slices.Sort(want)
			slices.Sort(agents)
			if !slices.Equal(agents, want) {
				t.Errorf("%s: Bourdon known to %v, want %v", n, agents, want)
			}
		}
	})

	t.Run("a peer's own call is answered locally", func(t *testing.T) {
		got := call(t, sessions["beta"], "find_entity", map[string]any{"name": "bourdon", "federation_hop": 1})
		if _, fanned := got["peers_queried"]; fanned || len(agentsOf(got["matches"], "Bourdon")) != 1 {
			t.Fatalf("hop 1 fanned out: %v", got)
		}
	})

	t.Run("list_recent_work pages across local and peer rows", func(t *testing.T) {
		var rows []string
		cursor := ""
		for page := 0; page < 50; page++ {
			args := map[string]any{"since": "2026-11-01", "limit": 2}
			if cursor != "" {
				args["cursor"] = cursor
			}
			got := call(t, sessions["alpha"], "list_recent_work", args)
			for _, r := range got["sessions"].([]any) {
				r := r.(map[string]any)
				rows = append(rows, r["date"].(string)+" "+r["agent"].(string)+" "+r["cwd"].(string))
			}
			if got["has_more"] != true {
				break
			}
			cursor = got["next_cursor"].(string)
		}
		// alpha's 3 and beta's 5; gamma shows alpha nothing (quarantined, no grant).
		if len(rows) != 8 || !slices.IsSortedFunc(rows, func(a, b string) int { return strings.Compare(b, a) }) {
			t.Fatalf("listed %d rows: %q", len(rows), rows)
		}
		if slices.ContainsFunc(rows, func(r string) bool { return strings.Contains(r, "gamma") }) {
			t.Fatal("gamma's rows reached a caller gamma quarantines")
		}
	})

	t.Run("a slow peer is dropped within its timeout", func(t *testing.T) {
		gamma := servers["gamma"].cmd.Process
		gamma.Signal(syscall.SIGSTOP)
		defer gamma.Signal(syscall.SIGCONT)
		waitStopped(t, gamma.Pid)
		got := call(t, sessions["beta"], "prepare_recognition_context", map[string]any{"prompt": "how is Bourdon doing"})
		if got["peers_timed_out"] != float64(1) || got["peers_responded"] != float64(1) {
			t.Fatalf("report: %v", got)
		}
		if lat := got["peer_latencies_us"].(map[string]any); lat["gamma"] != nil || lat["alpha"] == nil {
			t.Fatalf("latencies %v", lat)
		}
		if !strings.Contains(got["prompt_context"].(string), "[peer:alpha] ") {
			t.Errorf("alpha's recognition missing: %q", got["prompt_context"])
		}
	})

	t.Run("a killed peer is reported and the rest still answers", func(t *testing.T) {
		servers["beta"].cmd.Process.Kill()
		servers["beta"].cmd.Wait()
		got := call(t, sessions["gamma"], "find_entity", map[string]any{"name": "bourdon"})
		if errs := got["peer_errors"].(map[string]any); !strings.Contains(fmt.Sprint(errs["beta"]), "connection refused") {
			t.Errorf("peer_errors %v", errs)
		}
		if agents := agentsOf(got["matches"], "Bourdon"); !slices.Equal(agents, []string{"gamma-agent", "peer:alpha:alpha-agent"}) {
			t.Errorf("agents %v", agents)
		}
	})

	t.Run("a quarantined caller never sees peer rows", func(t *testing.T) {
		// The server looks at the registry file on every request, so the
		// new member is known from the next one on.
		q := addMember(t, registry["gamma"], "visitor", "--grant", "gamma-agent")
		cs, err := connectAs(t, servers["gamma"].url, q, "")
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		got := call(t, cs, "find_entity", map[string]any{"name": "bourdon"})
		if _, fanned := got["peers_queried"]; fanned || !slices.Equal(agentsOf(got["matches"], "Bourdon"), []string{"gamma-agent"}) {
			t.Fatalf("quarantined caller got %v", got)
		}
	})
}

func TestPeerOptionsFailClosed(t *testing.T) {
	home := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--federate"}, "peers.yaml does not exist"},
		{[]string{"--peers-config", filepath.Join(home, "nope.yaml")}, "does not exist"},
		{[]string{"--no-peers", "--peer", "http://127.0.0.1:7501"}, "--no-peers asserts local-only operation"},
		{[]string{"--federate", "--peers-config", "x.yaml"}, "use one of them"},
		{[]string{"--peer", "http://peer.example:7500"}, "unencrypted"},
		{[]string{"--peer", "https://u:p@peer.example"}, "credentials in the URL are refused"},
		{[]string{"--peer-timeout", "0s", "--peer", "https://peer.example"}, "--peer-timeout 0s"},
	} {
		cmd := exec.Command(binary, append([]string{"serve", "--library", t.TempDir()}, tc.args...)...)
		cmd.Env = append(os.Environ(), "HOME="+home)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), tc.want) {
			t.Errorf("serve %v: err %v, output %q; want it to refuse with %q", tc.args, err, out, tc.want)
		}
	}
}

// waitStopped waits until the kernel reports process pid stopped, for at
// most 30 s.
func waitStopped(t testing.TB, pid int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return // no /proc here: trust the signal
		}
		// The state follows the parenthesised command name.
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'T' {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("process %d did not stop", pid)
}

// BenchmarkFederatedRecognition times prepare_recognition_context on a
// server with two peers, all on loopback:
//
//	go test -run '^$' -bench FederatedRecognition -benchtime 2000x ./cmd/bourdon/
//
// healthy: both peers answer; stalled: one peer is stopped (SIGSTOP), so
// every call waits out the per-peer timeout (200 ms); dead: one peer is
// killed, so its connections are refused at once.
func BenchmarkFederatedRecognition(b *testing.B) {
	var urls []string
	var peers []*server
	for _, agent := range []string{"mac-agent", "pc-agent"} {
		lib := b.TempDir()
		os.MkdirAll(filepath.Join(lib, "agents"), 0o755)
		os.WriteFile(filepath.Join(lib, "agents", agent+".l5.yaml"), []byte("spec_version: '0.1'\nagent:\n  id: "+agent+"\n  type: code-assistant\nknown_entities:\n- name: Bourdon\n  type: project\n  summary: the federation runtime.\n  visibility: public\n"), 0o644)
		s := startHTTP(b, "--library", lib, "--quiet", "--allow-unauthenticated")
		peers = append(peers, s)
		urls = append(urls, "--peer", s.url)
	}
	front := startHTTP(b, append([]string{"--library", seedLibrary(b), "--quiet", "--allow-unauthenticated"}, urls...)...)
	cs := front.connect(b)
	args := map[string]any{"prompt": "how is Bourdon doing today"}
	check := func(b *testing.B, responded float64) {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "prepare_recognition_context", Arguments: args})
		if err != nil {
			b.Fatal(err)
		}
		var got map[string]any
		json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &got)
		if got["peers_responded"] != responded {
			b.Fatalf("peers_responded %v, want %v (%v)", got["peers_responded"], responded, got["peer_errors"])
		}
	}
	b.Run("healthy", func(b *testing.B) {
		check(b, 2)
		timeCalls(b, cs, "prepare_recognition_context", args)
	})
	b.Run("stalled", func(b *testing.B) {
		peers[1].cmd.Process.Signal(syscall.SIGSTOP)
		defer peers[1].cmd.Process.Signal(syscall.SIGCONT)
		waitStopped(b, peers[1].cmd.Process.Pid)
		check(b, 1)
		timeCalls(b, cs, "prepare_recognition_context", args)
	})
	b.Run("dead", func(b *testing.B) {
		peers[1].cmd.Process.Kill()
		peers[1].cmd.Wait()
		check(b, 1)
		timeCalls(b, cs, "prepare_recognition_context", args)
	})
}
