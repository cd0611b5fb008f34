package doctor

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/install/setup"
	"github.com/getbourdon/bourdon-go/internal/memory/peer"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

var now = time.Date(2026, 11, 7, 9, 30, 0, 0, time.UTC)

// fakeExporter is an agent found at home/<rel>, whose Health is given.
type fakeExporter struct {
	id, label, rel string
	health         func(env *export.Env) export.Health
}

func (f fakeExporter) Info() export.Info {
	return export.Info{ID: f.id, Type: "code-assistant", Label: f.label}
}

func (f fakeExporter) Detect(env *export.Env) export.Presence {
	p := env.HomePath(f.rel)
	_, err := os.Stat(p)
	return export.Presence{Path: p, Present: err == nil}
}

func (f fakeExporter) Export(context.Context, *export.Env, export.Options) (*export.Output, error) {
	return nil, export.NotInstalled("fake")
}

func (f fakeExporter) Health(_ context.Context, env *export.Env) export.Health {
	return f.health(env)
}

type machine struct {
	t    *testing.T
	home string
	env  *export.Env
	vars map[string]string
}

func newMachine(t *testing.T) *machine {
	m := &machine{t: t, home: t.TempDir(), vars: map[string]string{}}
	m.env = &export.Env{Home: m.home, Getenv: func(k string) string { return m.vars[k] }, Now: func() time.Time { return now },
		Hostname: "laptop", GOOS: "linux", Cwd: m.home}
	return m
}

func (m *machine) path(rel string) string { return filepath.Join(m.home, filepath.FromSlash(rel)) }

func (m *machine) write(rel, content string) string {
	m.t.Helper()
	p := m.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		m.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		m.t.Fatal(err)
	}
	return p
}

func (m *machine) touch(rel string, t time.Time) {
	m.t.Helper()
	if err := os.Chtimes(m.path(rel), t, t); err != nil {
		m.t.Fatal(err)
	}
}

func (m *machine) mkdir(rel string) {
	m.t.Helper()
	if err := os.MkdirAll(m.path(rel), 0o755); err != nil {
		m.t.Fatal(err)
	}
}

const manifest = `spec_version: '0.1'
agent:
  id: %s
  type: code-assistant
last_updated: '2026-11-07T08:00:00+00:00'
recent_sessions:
- date: '2026-11-06'
  cwd: /home/dev/payments-api
  visibility: team
`

func (m *machine) manifest(id string) {
	m.write("agent-library/agents/"+id+".l5.yaml", strings.ReplaceAll(manifest, "%s", id))
}

// exporters: claude-code (healthy, its memory directory named in its
// details), codex (degraded), cursor (not installed).
func (m *machine) exporters() []export.Exporter {
	return []export.Exporter{
		fakeExporter{"claude-code", "Claude Code", ".claude", func(env *export.Env) export.Health {
			return export.Health{Status: export.StatusOK, Details: []export.Detail{
				{Key: "auto_memory", Value: env.HomePath(".claude", "projects")},
				{Key: "claude_brain", Value: "missing"},
			}}
		}},
		fakeExporter{"codex", "Codex", ".codex", func(*export.Env) export.Health {
			return export.Health{Status: export.StatusDegraded, Reason: "Missing Codex sub-sources: state_db", Fix: "open Codex once so it creates its state database"}
		}},
		fakeExporter{"cursor", "Cursor", ".cursor", func(*export.Env) export.Health {
			panic("assignment to entry in nil map")
		}},
	}
}

func (m *machine) binary() string {
	p := m.write("bin/bourdon", "#!/bin/sh\n")
	return p
}

// wire runs setup for real on the fake home.
func (m *machine) wire() {
	m.t.Helper()
	_, err := setup.Run(context.Background(), setup.Options{
		Config: setup.Config{Env: m.env, Binary: m.binary()}, Yes: true, NoExport: true,
	})
	if err != nil {
		m.t.Fatal(err)
	}
}

func (m *machine) doctor(mod func(*Options)) *Report {
	o := Options{Env: m.env, Exporters: m.exporters(), Binary: m.path("bin/bourdon"),
		ProbePeer: func(context.Context, peer.Peer) (string, error) { return "", errors.New("unexpected probe") }}
	if mod != nil {
		mod(&o)
	}
	return Run(context.Background(), o)
}

func text(r *Report) string {
	var b bytes.Buffer
	r.WriteText(&b)
	return b.String()
}

// healthy is a machine where everything is in order: an exported library,
// clients wired, an unchanged store.
func healthy(t *testing.T) *machine {
	m := newMachine(t)
	m.mkdir(".claude/projects/payments-api/memory")
	m.touch(".claude/projects/payments-api", now.Add(-3*time.Hour))
	m.touch(".claude/projects", now.Add(-3*time.Hour))
	m.mkdir(".codex")
	m.wire()
	m.manifest("claude-code")
	m.manifest("codex")
	return m
}

func TestDoctorHealthy(t *testing.T) {
	m := healthy(t)
	r := m.doctor(nil)
	out := text(r)
	if r.Failed() {
		t.Fatalf("a healthy machine fails:\n%s", out)
	}
	for _, want := range []string{
		"OK    library: " + m.path("agent-library") + " is readable and holds 2 manifest(s)\n",
		"OK    manifest: 2 manifest(s) valid against the L5 schema\n",
		"OK    agent claude-code: Claude Code store found\n",
		"OK    export claude-code: last exported 1 h ago (2026-11-07T08:00:00Z); the store has not changed since\n",
		"WARN  agent codex: Codex store degraded: Missing Codex sub-sources: state_db; fix: open Codex once so it creates its state database\n",
		"SKIP  agent cursor: Cursor is not installed (no " + m.path(".cursor") + ")\n",
		"OK    client claude-code.mcp: Claude Code MCP server wired in " + m.path(".claude.json") + "\n",
		"OK    hook claude-code.session-end: Claude Code SessionEnd hook wired in " + m.path(".claude/settings.json") + "\n",
		"OK    client codex.mcp: Codex MCP server wired in " + m.path(".codex/config.toml") + "\n",
		"SKIP  client cursor.mcp: Cursor is not installed (no " + m.path(".cursor") + ")\n",
		"OK    registry: no federation members registered",
		"SKIP  peer: no peers configured (" + m.path(".bourdon/peers.yaml") + ")\n",
		"OK    audit: " + m.path(".bourdon/audit.jsonl") + " does not exist yet; the server creates it at the first federation call\n",
		"\n10 ok, 1 warn, 0 fail, 4 skipped\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "prepare-turn") {
		t.Errorf("the opt-in hook is not reported when absent:\n%s", out)
	}
	if m.exists(".bourdon/audit.jsonl") {
		t.Error("doctor created the audit log")
	}
}

func (m *machine) exists(rel string) bool {
	_, err := os.Stat(m.path(rel))
	return err == nil
}

// broken is a machine where most checks find something.
func broken(t *testing.T) *machine {
	m := healthy(t)
	// A manifest that breaks the schema on line 7, one that is not YAML,
	// one whose file name is not its id.
	m.write("agent-library/agents/cursor.l5.yaml", strings.Replace(strings.ReplaceAll(manifest, "%s", "cursor"), "'2026-11-06'", "'yesterday'", 1))
	m.write("agent-library/agents/copilot.l5.yaml", "spec_version: '0.1'\nagent: [unclosed\n")
	m.write("agent-library/agents/old-name.l5.yaml", strings.ReplaceAll(manifest, "%s", "claude-desktop-code"))
	// A second file claiming codex, and a link to a manifest outside the
	// library: the library serves neither.
	m.write("agent-library/agents/zz-codex-copy.l5.yaml", strings.ReplaceAll(manifest, "%s", "codex"))
	m.write("elsewhere/gemini.l5.yaml", strings.ReplaceAll(manifest, "%s", "gemini"))
	if err := os.Symlink(m.path("elsewhere/gemini.l5.yaml"), m.path("agent-library/agents/gemini.l5.yaml")); err != nil {
		t.Fatal(err)
	}
	// The store changed after the last export.
	m.touch(".claude/projects", now.Add(-10*time.Minute))
	// Settings a person broke with a comment; Cursor installed, not wired.
	m.write(".claude/settings.json", "{\n  // mine\n}\n")
	m.mkdir(".cursor")
	// A registry with a tierless member, a revoked one, a bad grant.
	reg := m.write(".bourdon/federation.yaml", `agents:
  laptop-b:
    grants: [codex, Not-An-Id, ghost]
    revoked: false
    tier: quarantined
    token_sha256: aaaa
  old:
    revoked: true
    token_sha256: bbbb
    tier: trusted
  odd:
    token_sha256: cccc
version: 1
`)
	if err := os.Chmod(reg, 0o644); err != nil {
		t.Fatal(err)
	}
	// A stale staged write.
	m.write("agent-library/staging/openclaw/openclaw.l5.yaml", "spec_version: '0.1'\nagent: {id: openclaw, type: other}\nlast_updated: '2026-10-01T00:00:00Z'\n")
	m.touch("agent-library/staging/openclaw/openclaw.l5.yaml", now.Add(-10*24*time.Hour))
	// A peer that does not answer; an audit log that is a directory.
	m.write(".bourdon/peers.yaml", "peers:\n  - name: pc\n    url: http://127.0.0.1:9/mcp\n")
	m.mkdir("audit-dir")
	m.vars["BOURDON_AUDIT_PATH"] = m.path("audit-dir")
	return m
}

func failingProbe(o *Options) {
	o.ProbePeer = func(context.Context, peer.Peer) (string, error) { return "", errors.New("connection refused") }
}

func TestDoctorBroken(t *testing.T) {
	m := broken(t)
	r := m.doctor(failingProbe)
	out := text(r)
	if !r.Failed() {
		t.Fatalf("a broken machine passes:\n%s", out)
	}
	agents := m.path("agent-library/agents")
	for _, want := range []string{
		"FAIL  manifest copilot: " + agents + "/copilot.l5.yaml:2: not valid YAML: ",
		"FAIL  manifest cursor: " + agents + "/cursor.l5.yaml:7: /recent_sessions/0/date: ",
		`FAIL  manifest gemini: ` + agents + `/gemini.l5.yaml: not read: `,
		"; fix: replace the link with the file itself: manifests are read only from inside the library\n",
		`FAIL  manifest old-name: ` + agents + `/old-name.l5.yaml:3: agent.id is "claude-desktop-code" but the file is named old-name.l5.yaml: `,
		"; fix: rename it to claude-desktop-code.l5.yaml or correct its agent.id\n",
		`FAIL  manifest zz-codex-copy: ` + agents + `/zz-codex-copy.l5.yaml:3: agent.id is "codex" but the file is named zz-codex-copy.l5.yaml: `,
		"; fix: remove it (the agent's manifest is " + agents + "/codex.l5.yaml) or correct its agent.id\n",
		"OK    manifest: 2 manifest(s) valid against the L5 schema\n",
		"WARN  export claude-code: the store changed after the last export (store 2026-11-07T09:20:00Z, export 2026-11-07T08:00:00Z); fix: bourdon export-all --library " + m.path("agent-library"),
		"FAIL  hook claude-code.session-end: " + m.path(".claude/settings.json") + " not valid JSON (line 2, column 3",
		"WARN  client cursor.mcp: Cursor MCP server not wired in " + m.path(".cursor/mcp.json") + "; fix: bourdon setup --library " + m.path("agent-library"),
		"OK    registry: 3 member(s) registered: 2 active, 1 revoked\n",
		"WARN  registry permissions: " + m.path(".bourdon/federation.yaml") + " can be read by other users (mode 0644); fix: chmod 600 ",
		"WARN  member laptop-b: grant \"Not-An-Id\" is not an agent id",
		"WARN  member laptop-b: grant \"ghost\" names an agent with no manifest",
		"WARN  member odd: the row has no tier, so the member authenticates as quarantined; fix: bourdon registry set-tier odd quarantined\n",
		"WARN  member old: revoked, but its token hash is still on file",
		"WARN  staging openclaw: staged write from openclaw is 10 days old; fix: bourdon staging promote openclaw (or bourdon staging reject openclaw)\n",
		"FAIL  peer pc: http://127.0.0.1:9/mcp did not answer: connection refused; fix: ",
		"FAIL  audit: " + m.path("audit-dir") + " is not a regular file",
		"FAIL  agent cursor: the exporter failed while checking its store: assignment to entry in nil map; fix: report it",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "prepare-turn") {
		t.Errorf("the opt-in hook is not reported when absent:\n%s", out)
	}
	if strings.Contains(out, `grant "codex"`) {
		t.Errorf("a grant to an exported agent is fine:\n%s", out)
	}
}

func TestDoctorMissingLibrary(t *testing.T) {
	m := newMachine(t)
	r := m.doctor(func(o *Options) { o.Library = "elsewhere" })
	out := text(r)
	if !r.Failed() || !strings.Contains(out, "FAIL  library: "+m.path("elsewhere")+" does not exist; fix: bourdon setup --library "+m.path("elsewhere")) {
		t.Errorf("report:\n%s", out)
	}
}

func TestDoctorStaleWiring(t *testing.T) {
	m := healthy(t)
	if err := os.Remove(m.path("bin/bourdon")); err != nil {
		t.Fatal(err)
	}
	r := m.doctor(nil)
	out := text(r)
	want := "FAIL  client codex.mcp: Codex MCP server in " + m.path(".codex/config.toml") + " runs " + m.path("bin/bourdon") + ", which does not exist"
	if !r.Failed() || !strings.Contains(out, want) {
		t.Errorf("report lacks %q:\n%s", want, out)
	}
}

func TestDoctorPeerOverMCP(t *testing.T) {
	m := healthy(t)
	// Nothing listens on a port that was just closed: the real client
	// fails at once.
	m.write(".bourdon/peers.yaml", "peers:\n  - name: closed\n    url: http://127.0.0.1:1/mcp\n")
	r := m.doctor(func(o *Options) { o.ProbePeer = nil; o.PeerTimeout = 2 * time.Second })
	out := text(r)
	if !r.Failed() || !strings.Contains(out, "FAIL  peer closed: http://127.0.0.1:1/mcp did not answer: ") {
		t.Errorf("report:\n%s", out)
	}
}

// TestDoctorJSONGolden pins the --json shape.
func TestDoctorJSONGolden(t *testing.T) {
	m := broken(t)
	r := m.doctor(failingProbe)
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(b.String(), m.home, "$HOME")
	golden := filepath.Join("testdata", "doctor.golden.json")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("doctor --json (-want +got; go test -update rewrites it):\n%s", diff)
	}
}
