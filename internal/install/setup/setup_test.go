package setup

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/export"
)

const fakeBinary = "/opt/bourdon/bin/bourdon"

// fakeExporter is an agent whose presence path is a directory under home.
type fakeExporter struct {
	id, label, rel string
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

func (f fakeExporter) Health(context.Context, *export.Env) export.Health {
	return export.Health{Status: export.StatusOK}
}

var fakes = []export.Exporter{
	fakeExporter{"claude-code", "Claude Code", ".claude"},
	fakeExporter{"claude-code-automations", "Claude Code automations", ".claude/automations"},
	fakeExporter{"codex", "Codex", ".codex"},
	fakeExporter{"cursor", "Cursor", ".cursor"},
}

// machine is a fake home directory.
type machine struct {
	t    *testing.T
	home string
	env  *export.Env
	vars map[string]string
	// exports counts the first exports run, and the library each got.
	exports []string
}

func newMachine(t *testing.T) *machine {
	t.Helper()
	m := &machine{t: t, home: t.TempDir(), vars: map[string]string{}}
	m.env = &export.Env{
		Home: m.home, Getenv: func(k string) string { return m.vars[k] },
		Now:      func() time.Time { return time.Date(2026, 11, 7, 9, 30, 0, 0, time.UTC) },
		Hostname: "laptop", GOOS: "linux", Cwd: m.home,
	}
	return m
}

func (m *machine) path(rel string) string { return filepath.Join(m.home, filepath.FromSlash(rel)) }

func (m *machine) write(rel, content string) {
	m.t.Helper()
	p := m.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		m.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		m.t.Fatal(err)
	}
}

func (m *machine) mkdir(rel string) {
	m.t.Helper()
	if err := os.MkdirAll(m.path(rel), 0o755); err != nil {
		m.t.Fatal(err)
	}
}

func (m *machine) read(rel string) string {
	m.t.Helper()
	b, err := os.ReadFile(m.path(rel))
	if err != nil {
		m.t.Fatal(err)
	}
	return string(b)
}

func (m *machine) exists(rel string) bool {
	_, err := os.Lstat(m.path(rel))
	return err == nil
}

// tree lists every file and directory under home with its mode and the
// hash of its content.
func (m *machine) tree() []string {
	m.t.Helper()
	var out []string
	err := filepath.WalkDir(m.home, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(m.home, p)
		line := fmt.Sprintf("%s %v", rel, info.Mode())
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		out = append(out, line)
		return nil
	})
	if err != nil {
		m.t.Fatal(err)
	}
	return out
}

// options returns the options of a run with the fake exporters and a
// fake export that writes one manifest into the library.
func (m *machine) options(out *bytes.Buffer) Options {
	return Options{
		Config:    Config{Env: m.env, Binary: fakeBinary},
		Exporters: fakes,
		Out:       out,
		Export: func(_ context.Context, lib string) error {
			m.exports = append(m.exports, lib)
			return os.WriteFile(filepath.Join(lib, "agents", "claude-code.l5.yaml"), []byte("spec_version: '0.1'\n"), 0o644)
		},
	}
}

func (m *machine) setup(mod func(*Options)) (*Report, string) {
	m.t.Helper()
	var out bytes.Buffer
	o := m.options(&out)
	o.Yes = true
	if mod != nil {
		mod(&o)
	}
	rep, err := Run(context.Background(), o)
	if err != nil {
		m.t.Fatalf("setup: %v\n%s", err, out.String())
	}
	return rep, out.String()
}

func (m *machine) undo() (*Report, string) {
	m.t.Helper()
	var out bytes.Buffer
	o := m.options(&out)
	o.Yes = true
	rep, err := Undo(context.Background(), o)
	if err != nil {
		m.t.Fatalf("undo: %v\n%s", err, out.String())
	}
	return rep, out.String()
}

// A machine with every client installed and configuration files that hold
// the user's own settings.
const (
	userSettings = `{
  "model": "opus",
  "permissions": {
    "allow": ["Bash(git status)"]
  },
  "hooks": {
    "SessionEnd": [
      {
        "matcher": "*",
        "hooks": [
          {
            "type": "command",
            "command": "~/bin/notify 'session over'"
          }
        ]
      }
    ],
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{ "type": "command", "command": "~/bin/guard" }]
      }
    ]
  }
}
`
	userClaudeJSON = `{
  "numStartups": 42,
  "theme": "dark",
  "projects": {
    "/home/dev/payments-api": {
      "allowedTools": []
    }
  },
  "name": "Zoë \u2615"
}`
	userCodexConfig = `# my Codex settings
model = "gpt-5-codex"   # the one I like

[mcp_servers.github]
command = "github-mcp"
args = ["stdio"]
`
	userDesktopConfig = `{
    "mcpServers": {
        "files": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/dev"]
        }
    }
}
`
)

func (m *machine) installAll() {
	m.write(".claude/settings.json", userSettings)
	m.write(".claude.json", userClaudeJSON)
	m.write(".codex/config.toml", userCodexConfig)
	m.mkdir(".cursor")
	m.write(".config/Claude/claude_desktop_config.json", userDesktopConfig)
}

func TestDetectionAllAbsent(t *testing.T) {
	m := newMachine(t)
	var out bytes.Buffer
	o := m.options(&out)
	o.DryRun = true
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	want := "Detected agents on this machine:\n" +
		"   -    Claude Code             " + m.path(".claude") + "\n" +
		"   -    Codex                   " + m.path(".codex") + "\n" +
		"   -    Cursor                  " + m.path(".cursor") + "\n" +
		"\n" +
		"No supported agent found in its usual place; setup can still prepare the library for later.\n"
	if !strings.HasPrefix(text, want) {
		t.Errorf("detection:\n%s\nwant prefix:\n%s", text, want)
	}
	for _, st := range rep.Targets {
		if st.State != Absent {
			t.Errorf("%s: %s, want absent", st.Target.ID, st.State)
		}
	}
	// Only the library is to be created.
	var actions []string
	for _, c := range rep.Changes {
		actions = append(actions, c.Action+" "+c.Path)
	}
	if diff := cmp.Diff([]string{"mkdir " + m.path("agent-library"), "mkdir " + m.path("agent-library/agents")}, actions); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}

func TestDetectionPresent(t *testing.T) {
	m := newMachine(t)
	m.mkdir(".claude")
	m.mkdir(".cursor")
	var out bytes.Buffer
	o := m.options(&out)
	o.DryRun = true
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, line := range []string{
		"  [OK]  Claude Code             " + m.path(".claude") + "\n",
		"   -    Codex                   " + m.path(".codex") + "\n",
		"  [OK]  Cursor                  " + m.path(".cursor") + "\n",
		"MCP clients on this machine:\n  [OK]  Claude Code             " + m.path(".claude.json") + "\n",
		"   -    Claude Desktop          " + m.path(".config/Claude/claude_desktop_config.json") + "\n",
	} {
		if !strings.Contains(text, line) {
			t.Errorf("output lacks %q:\n%s", line, text)
		}
	}
	if strings.Contains(text, "automations") {
		t.Errorf("-automations agents are not listed:\n%s", text)
	}
	if strings.Contains(text, "No supported agent") {
		t.Error("agents were found")
	}
}

func TestSetupShowsDiffsAndAsks(t *testing.T) {
	m := newMachine(t)
	m.installAll()
	before := m.tree()
	var out bytes.Buffer
	o := m.options(&out)
	var asked []string
	o.Confirm = func(q string) (bool, error) { asked = append(asked, q); return false, nil }
	_, err := Run(context.Background(), o)
	if !errors.Is(err, ErrDeclined) {
		t.Fatalf("err = %v, want ErrDeclined", err)
	}
	if diff := cmp.Diff([]string{"Apply these changes and run the first export?"}, asked); diff != "" {
		t.Errorf("questions (-want +got):\n%s", diff)
	}
	text := out.String()
	for _, want := range []string{
		"--- " + m.path(".claude.json") + "\n+++ " + m.path(".claude.json") + "\n",
		"--- /dev/null\n+++ " + m.path(".cursor/mcp.json") + "\n",
		"+[mcp_servers.bourdon]\n",
		`+            "command": "/opt/bourdon/bin/bourdon export-all --library ` + m.path("agent-library") + `"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if diff := cmp.Diff(before, m.tree()); diff != "" {
		t.Errorf("declining changed files (-before +after):\n%s", diff)
	}
	if len(m.exports) != 0 {
		t.Error("declining ran the export")
	}
}

func TestSetupWithoutTerminalOrYesRefuses(t *testing.T) {
	m := newMachine(t)
	m.installAll()
	before := m.tree()
	var out bytes.Buffer
	_, err := Run(context.Background(), m.options(&out))
	if !errors.Is(err, ErrNeedsConfirmation) {
		t.Fatalf("err = %v, want ErrNeedsConfirmation", err)
	}
	if !strings.Contains(err.Error(), "--yes") {
		t.Errorf("the message should name --yes: %v", err)
	}
	if diff := cmp.Diff(before, m.tree()); diff != "" {
		t.Errorf("changed files (-before +after):\n%s", diff)
	}
}

func TestSetupYesWritesMergesAndBacksUp(t *testing.T) {
	m := newMachine(t)
	m.installAll()
	lib := m.path("agent-library")
	rep, text := m.setup(nil)
	if rep.Failed() {
		t.Fatalf("problems: %v", rep.Problems)
	}

	wantSettings := strings.Replace(userSettings, `            "command": "~/bin/notify 'session over'"
          }
        ]
      }
    ],`, `            "command": "~/bin/notify 'session over'"
          }
        ]
      },
      {
        "matcher": "*",
        "hooks": [
          {
            "type": "command",
            "command": "/opt/bourdon/bin/bourdon export-all --library `+lib+`"
          }
        ]
      }
    ],`, 1)
	wantClaudeJSON := strings.Replace(userClaudeJSON, `  "name": "Zoë \u2615"
}`, `  "name": "Zoë \u2615",
  "mcpServers": {
    "bourdon": {
      "type": "stdio",
      "command": "/opt/bourdon/bin/bourdon",
      "args": [
        "serve",
        "--library",
        "`+lib+`"
      ],
      "env": {}
    }
  }
}`, 1)
	wantCodex := userCodexConfig + `
# Added by bourdon setup; bourdon setup --undo takes it out again.
[mcp_servers.bourdon]
command = "/opt/bourdon/bin/bourdon"
args = ["serve", "--library", "` + lib + `"]
`
	wantCursor := `{
  "mcpServers": {
    "bourdon": {
      "command": "/opt/bourdon/bin/bourdon",
      "args": [
        "serve",
        "--library",
        "` + lib + `"
      ]
    }
  }
}
`
	wantDesktop := strings.Replace(userDesktopConfig, `/home/dev"]
        }
    }`, `/home/dev"]
        },
        "bourdon": {
            "command": "/opt/bourdon/bin/bourdon",
            "args": [
                "serve",
                "--library",
                "`+lib+`"
            ]
        }
    }`, 1)
	for rel, want := range map[string]string{
		".claude/settings.json":                     wantSettings,
		".claude.json":                              wantClaudeJSON,
		".codex/config.toml":                        wantCodex,
		".cursor/mcp.json":                          wantCursor,
		".config/Claude/claude_desktop_config.json": wantDesktop,
	} {
		if diff := cmp.Diff(want, m.read(rel)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", rel, diff)
		}
	}

	// The record lists every file, with a byte-exact backup of each one
	// that existed.
	rec, err := LastRecord(m.env)
	if err != nil || rec == nil {
		t.Fatalf("record: %v %v", rec, err)
	}
	if rec.Dir() != rep.Record || !strings.HasPrefix(rec.Dir(), m.path(".bourdon/setup/20261107T093000Z-001")) {
		t.Errorf("record dir %s (report %s)", rec.Dir(), rep.Record)
	}
	originals := map[string]string{
		m.path(".claude/settings.json"):                     userSettings,
		m.path(".claude.json"):                              userClaudeJSON,
		m.path(".codex/config.toml"):                        userCodexConfig,
		m.path(".config/Claude/claude_desktop_config.json"): userDesktopConfig,
	}
	var paths []string
	for _, f := range rec.Files {
		paths = append(paths, f.Path)
		if orig, ok := originals[f.Path]; ok {
			b, err := os.ReadFile(filepath.Join(rec.Dir(), f.Backup))
			if err != nil || string(b) != orig {
				t.Errorf("backup of %s: %q, %v", f.Path, b, err)
			}
		} else if f.Existed || f.Backup != "" {
			t.Errorf("%s did not exist: %+v", f.Path, f)
		}
	}
	wantPaths := []string{m.path(".claude.json"), m.path(".claude/settings.json"), m.path(".codex/config.toml"), m.path(".cursor/mcp.json"), m.path(".config/Claude/claude_desktop_config.json")}
	if diff := cmp.Diff(wantPaths, paths); diff != "" {
		t.Errorf("recorded files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{lib, filepath.Join(lib, "agents")}, rec.DirsCreated); diff != "" {
		t.Errorf("dirs (-want +got):\n%s", diff)
	}
	if fi, err := os.Stat(filepath.Join(rec.Dir(), "record.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("record.json: %v %v", fi, err)
	}
	if fi, err := os.Stat(m.path(".claude/settings.json")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("settings.json keeps its mode: %v %v", fi.Mode(), err)
	}

	// The first export ran once, with the chosen library.
	if diff := cmp.Diff([]string{lib}, m.exports); diff != "" {
		t.Errorf("exports (-want +got):\n%s", diff)
	}
	if !strings.Contains(text, "first export: ok") || !strings.Contains(text, "backups and undo record: "+rec.Dir()) {
		t.Errorf("outcome:\n%s", text)
	}
}

func TestSetupTwiceChangesNothing(t *testing.T) {
	m := newMachine(t)
	m.installAll()
	m.setup(nil)
	before := m.tree()
	rep, text := m.setup(nil)
	if len(rep.Changes) != 0 || rep.Applied || rep.Record != "" {
		t.Errorf("second run planned %v (applied %v, record %q)", rep.Changes, rep.Applied, rep.Record)
	}
	if !strings.Contains(text, "Nothing to change") {
		t.Errorf("second run should say nothing to change:\n%s", text)
	}
	if strings.Contains(text, "--- ") {
		t.Errorf("second run shows a diff:\n%s", text)
	}
	if len(m.exports) != 1 {
		t.Errorf("the export ran %d times, want once", len(m.exports))
	}
	if diff := cmp.Diff(before, m.tree()); diff != "" {
		t.Errorf("second run changed files (-before +after):\n%s", diff)
	}
	for _, st := range rep.Targets {
		if st.State != Wired && st.State != NotSelected {
			t.Errorf("%s: %s", st.Target.ID, st.State)
		}
	}
}

func TestUndoRestoresByteForByte(t *testing.T) {
	m := newMachine(t)
	m.installAll()
	// A symbolic link (a dotfiles checkout) is followed, not replaced.
	m.write("dotfiles/cursor-mcp.json", "{}\n")
	if err := os.Symlink(m.path("dotfiles/cursor-mcp.json"), m.path(".cursor/mcp.json")); err != nil {
		t.Fatal(err)
	}
	before := m.tree()
	m.setup(func(o *Options) { o.NoExport = true })
	if fi, err := os.Lstat(m.path(".cursor/mcp.json")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the symbolic link was replaced: %v %v", fi, err)
	}
	if !strings.Contains(m.read("dotfiles/cursor-mcp.json"), `"bourdon"`) {
		t.Error("the link's target was not written")
	}
	rep, text := m.undo()
	if rep.Failed() {
		t.Fatalf("undo problems: %v\n%s", rep.Problems, text)
	}
	after := slices.DeleteFunc(m.tree(), func(s string) bool { return strings.HasPrefix(s, ".bourdon") })
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("undo did not restore the machine (-before +after):\n%s", diff)
	}
	if m.exists("agent-library") {
		t.Error("the empty library setup created is still there")
	}
	// The run is marked undone: a second undo finds nothing.
	rep, text = m.undo()
	if len(rep.Changes) != 0 || !strings.Contains(text, "Nothing to undo") {
		t.Errorf("second undo: %v\n%s", rep.Changes, text)
	}
}

func TestUndoKeepsLaterChanges(t *testing.T) {
	m := newMachine(t)
	m.installAll()
	m.setup(nil)
	// Claude Code rewrites its file after setup; the user edits Codex's.
	claude := strings.Replace(m.read(".claude.json"), `"numStartups": 42`, `"numStartups": 43`, 1)
	m.write(".claude.json", claude)
	m.write(".codex/config.toml", m.read(".codex/config.toml")+"\n[profiles.fast]\nmodel = \"o4-mini\"\n")
	rep, text := m.undo()
	if rep.Failed() {
		t.Fatalf("undo problems: %v\n%s", rep.Problems, text)
	}
	if got, want := m.read(".claude.json"), strings.Replace(userClaudeJSON, `"numStartups": 42`, `"numStartups": 43`, 1); got != want {
		t.Errorf(".claude.json after undo:\n%s\nwant:\n%s", got, want)
	}
	if got, want := m.read(".codex/config.toml"), userCodexConfig+"\n[profiles.fast]\nmodel = \"o4-mini\"\n"; got != want {
		t.Errorf("config.toml after undo:\n%q\nwant:\n%q", got, want)
	}
	if m.read(".claude/settings.json") != userSettings {
		t.Error("settings.json not restored")
	}
	if m.exists(".cursor/mcp.json") {
		t.Error("mcp.json setup created is still there")
	}
	if !m.exists("agent-library/agents/claude-code.l5.yaml") {
		t.Error("undo removed the exported library")
	}
}

func TestUndoRefusesWhenEntryWasEdited(t *testing.T) {
	m := newMachine(t)
	m.installAll()
	m.setup(func(o *Options) { o.NoExport = true })
	edited := strings.Replace(m.read(".cursor/mcp.json"), `"serve",`, `"serve", "--quiet",`, 1)
	m.write(".cursor/mcp.json", edited)
	rep, text := m.undo()
	if !rep.Failed() || !strings.Contains(text, m.path(".cursor/mcp.json")) {
		t.Fatalf("undo should report mcp.json:\n%s", text)
	}
	if m.read(".cursor/mcp.json") != edited {
		t.Error("an edited file was changed")
	}
	if m.read(".claude/settings.json") != userSettings {
		t.Error("the other files are still restored")
	}
	if rec, _ := LastRecord(m.env); rec == nil {
		t.Error("a partly undone run keeps its record")
	}
}

func TestUnparseableSettingsLeftAlone(t *testing.T) {
	m := newMachine(t)
	m.installAll()
	withComments := "{\n  // my settings\n  \"model\": \"opus\"\n}\n"
	m.write(".claude/settings.json", withComments)
	rep, text := m.setup(nil)
	if m.read(".claude/settings.json") != withComments {
		t.Error("an unparseable settings.json was changed")
	}
	if !rep.Failed() || !strings.Contains(strings.Join(rep.Problems, "\n"), m.path(".claude/settings.json")) {
		t.Errorf("problems should name settings.json: %v", rep.Problems)
	}
	if !strings.Contains(text, "refused: "+m.path(".claude/settings.json")+" not valid JSON (line 2, column 3") {
		t.Errorf("output should say why:\n%s", text)
	}
	// The other clients are wired all the same.
	for _, rel := range []string{".claude.json", ".codex/config.toml", ".cursor/mcp.json"} {
		if !strings.Contains(m.read(rel), "bourdon") {
			t.Errorf("%s not wired", rel)
		}
	}
	for _, f := range mustRecord(t, m).Files {
		if f.Path == m.path(".claude/settings.json") {
			t.Error("the refused file is in the record")
		}
	}
}

func mustRecord(t *testing.T, m *machine) *Record {
	t.Helper()
	rec, err := LastRecord(m.env)
	if err != nil || rec == nil {
		t.Fatalf("record: %v %v", rec, err)
	}
	return rec
}

func TestWrongShapesRefused(t *testing.T) {
	for name, tc := range map[string]struct{ rel, content, why string }{
		"top level":       {".claude/settings.json", "[1, 2]\n", "the top level is not a JSON object"},
		"hooks":           {".claude/settings.json", `{"hooks": []}`, `"hooks" is not an object`},
		"session end":     {".claude/settings.json", `{"hooks": {"SessionEnd": {}}}`, `"hooks.SessionEnd" is not an array`},
		"servers":         {".claude.json", `{"mcpServers": "x"}`, `"mcpServers" is not an object`},
		"toml":            {".codex/config.toml", "model = \n", "not valid TOML (line 1"},
		"toml servers":    {".codex/config.toml", "mcp_servers = 3\n", "mcp_servers is not a table"},
		"inline servers":  {".codex/config.toml", "mcp_servers = { github = { command = \"gh\" } }\n", "mcp_servers is an inline table"},
		"appended table":  {".codex/config.toml", "[mcp_servers]\nbourdon = 3\n", "mcp_servers.bourdon is not a table"},
		"not utf-8":       {".cursor/mcp.json", "{\"a\": \"\xff\"}", "not valid UTF-8"},
		"directory":       {".cursor/mcp.json/x", "", "is not a regular file"},
		"byte-order mark": {".cursor/mcp.json", "\xef\xbb\xbf{}", "byte-order mark"},
	} {
		t.Run(name, func(t *testing.T) {
			m := newMachine(t)
			m.mkdir(".claude")
			m.mkdir(".codex")
			m.mkdir(".cursor")
			m.write(tc.rel, tc.content)
			before := m.read(tc.rel)
			rep, _ := m.setup(func(o *Options) { o.NoExport = true })
			if !strings.Contains(strings.Join(rep.Problems, "\n"), tc.why) {
				t.Errorf("problems %q lack %q", rep.Problems, tc.why)
			}
			if m.read(tc.rel) != before {
				t.Error("the refused file was changed")
			}
		})
	}
}

func TestHookAlreadyWired(t *testing.T) {
	for name, settings := range map[string]string{
		"flat form":       `{"hooks": {"SessionEnd": [{"type": "command", "command": "bourdon claude-code export"}]}}`,
		"reference form":  `{"hooks": {"SessionEnd": [{"matcher": "*", "hooks": [{"type": "command", "command": "C:\\Tools\\Bourdon.EXE claude-code export --verbose"}]}]}}`,
		"export-all form": `{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "/usr/local/bin/bourdon export-all"}]}]}}`,
	} {
		t.Run(name, func(t *testing.T) {
			m := newMachine(t)
			m.write(".claude/settings.json", settings)
			rep, _ := m.setup(func(o *Options) { o.NoExport = true })
			if m.read(".claude/settings.json") != settings {
				t.Error("a second hook was added")
			}
			for _, st := range rep.Targets {
				if st.Target.ID == "claude-code.session-end" && st.State != Wired {
					t.Errorf("state %s", st.State)
				}
			}
		})
	}
}

func TestServerUnderAnotherNameIsWired(t *testing.T) {
	m := newMachine(t)
	cfg := `{"mcpServers": {"memory": {"command": "/usr/bin/bourdon", "args": ["serve", "--quiet"]}}}`
	m.write(".cursor/mcp.json", cfg)
	m.setup(func(o *Options) { o.NoExport = true })
	if m.read(".cursor/mcp.json") != cfg {
		t.Error("a second bourdon server was added")
	}
}

func TestPrepareTurnHookIsOptIn(t *testing.T) {
	m := newMachine(t)
	m.mkdir(".claude")
	m.setup(func(o *Options) { o.NoExport = true })
	if strings.Contains(m.read(".claude/settings.json"), "UserPromptSubmit") {
		t.Error("UserPromptSubmit hook wired without the flag")
	}
	rep, _ := m.setup(func(o *Options) { o.NoExport = true; o.PrepareTurnHook = true })
	if len(rep.Changes) != 1 {
		t.Fatalf("changes %v", rep.Changes)
	}
	lib := m.path("agent-library")
	want := `{
  "hooks": {
    "SessionEnd": [
      {
        "matcher": "*",
        "hooks": [
          {
            "type": "command",
            "command": "/opt/bourdon/bin/bourdon export-all --library ` + lib + `"
          }
        ]
      }
    ],
    "UserPromptSubmit": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/opt/bourdon/bin/bourdon prepare-turn --library ` + lib + `"
          }
        ]
      }
    ]
  }
}
`
	if diff := cmp.Diff(want, m.read(".claude/settings.json")); diff != "" {
		t.Errorf("settings.json (-want +got):\n%s", diff)
	}
	// Two runs, two records; undo takes back the newest only.
	m.undo()
	if strings.Contains(m.read(".claude/settings.json"), "UserPromptSubmit") || !strings.Contains(m.read(".claude/settings.json"), "SessionEnd") {
		t.Errorf("undo took back the wrong run:\n%s", m.read(".claude/settings.json"))
	}
}

func TestDryRunTouchesNothing(t *testing.T) {
	m := newMachine(t)
	m.installAll()
	before := m.tree()
	var out bytes.Buffer
	o := m.options(&out)
	o.DryRun = true
	o.Confirm = func(string) (bool, error) { t.Error("a dry run asked"); return true, nil }
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, m.tree()); diff != "" {
		t.Errorf("a dry run changed files (-before +after):\n%s", diff)
	}
	if len(m.exports) != 0 || rep.Export.Ran || rep.Applied {
		t.Error("a dry run ran the export or applied")
	}
	text := out.String()
	if !strings.Contains(text, "(dry run) Nothing was written and nothing was run") {
		t.Errorf("a dry run must say so:\n%s", text)
	}
	if strings.Contains(text, ": ok") || strings.Contains(text, "setup outcome") {
		t.Errorf("a dry run must not report success:\n%s", text)
	}
	if len(rep.Changes) != 7 {
		t.Errorf("changes: %d, want 2 directories and 5 files", len(rep.Changes))
	}
	// And a dry undo neither.
	m.setup(func(o *Options) { o.NoExport = true })
	before = m.tree()
	o.DryRun = true
	if _, err := Undo(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, m.tree()); diff != "" {
		t.Errorf("a dry undo changed files (-before +after):\n%s", diff)
	}
}

func TestExportFailureIsReported(t *testing.T) {
	m := newMachine(t)
	var out bytes.Buffer
	o := m.options(&out)
	o.Yes = true
	o.Export = func(context.Context, string) error { return errors.New("exit status 1") }
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Failed() || !strings.Contains(out.String(), "first export: failed (exit status 1)") {
		t.Errorf("failure not reported:\n%s", out.String())
	}
}

func TestLibraryFlagAndEnvironment(t *testing.T) {
	m := newMachine(t)
	m.vars["CODEX_HOME"] = m.path("work/codex")
	m.vars["CLAUDE_CONFIG_DIR"] = "~/cfg/claude"
	m.vars["BOURDON_CLAUDE_DESKTOP_DIR"] = m.path("desk")
	m.mkdir("work/codex")
	m.mkdir("cfg/claude")
	m.mkdir("desk")
	rep, _ := m.setup(func(o *Options) { o.Library = "libs/mine" })
	lib := m.path("libs/mine")
	if rep.Library != lib {
		t.Errorf("library %s", rep.Library)
	}
	for _, rel := range []string{"work/codex/config.toml", "cfg/claude/.claude.json", "cfg/claude/settings.json", "desk/claude_desktop_config.json"} {
		if !strings.Contains(m.read(rel), lib) {
			t.Errorf("%s does not use %s:\n%s", rel, lib, m.read(rel))
		}
	}
	if diff := cmp.Diff([]string{lib}, m.exports); diff != "" {
		t.Errorf("export library (-want +got):\n%s", diff)
	}
}

func TestQuotedCommands(t *testing.T) {
	m := newMachine(t)
	m.mkdir(".claude")
	m.setup(func(o *Options) {
		o.NoExport = true
		o.Binary = "/Users/Zoë Smith/bin/bourdon"
		o.Library = "/Users/Zoë Smith/it's mine"
	})
	got := m.read(".claude/settings.json")
	want := `"command": "'/Users/Zoë Smith/bin/bourdon' export-all --library '/Users/Zoë Smith/it'\\''s mine'"`
	if !strings.Contains(got, want) {
		t.Errorf("settings.json:\n%s\nwant %s", got, want)
	}
}

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json")

// TestSetupJSONGolden pins the --json report of a dry run.
func TestSetupJSONGolden(t *testing.T) {
	m := newMachine(t)
	m.installAll()
	m.write(".cursor/mcp.json", "{\n  // a comment\n}\n")
	var out bytes.Buffer
	o := m.options(&out)
	o.DryRun = true
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(string(data), m.home, "$HOME") + "\n"
	golden := filepath.Join("testdata", "setup-dry-run.golden.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("setup --json (-want +got; go test -update rewrites it):\n%s", diff)
	}
}

func TestFileChangedWhileAskingIsLeftAlone(t *testing.T) {
	m := newMachine(t)
	m.installAll()
	var out bytes.Buffer
	o := m.options(&out)
	o.NoExport = true
	// Claude Code rewrites its file while the user reads the diffs.
	rewritten := strings.Replace(userClaudeJSON, "42", "43", 1)
	o.Confirm = func(string) (bool, error) { m.write(".claude.json", rewritten); return true, nil }
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if m.read(".claude.json") != rewritten {
		t.Error("a file that changed after planning was overwritten")
	}
	if !strings.Contains(strings.Join(rep.Problems, "\n"), m.path(".claude.json")+" changed while setup was running") {
		t.Errorf("problems %v", rep.Problems)
	}
	if !strings.Contains(m.read(".cursor/mcp.json"), "bourdon") {
		t.Error("the other files are written all the same")
	}
	for _, f := range mustRecord(t, m).Files {
		if f.Path == m.path(".claude.json") {
			t.Error("the file left alone is in the record")
		}
	}
}

func TestUndoAsksToo(t *testing.T) {
	m := newMachine(t)
	m.installAll()
	m.setup(func(o *Options) { o.NoExport = true })
	before := m.tree()
	var out bytes.Buffer
	_, err := Undo(context.Background(), m.options(&out))
	if !errors.Is(err, ErrNeedsConfirmation) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(out.String(), "--- "+m.path(".cursor/mcp.json")+"\n+++ /dev/null\n") {
		t.Errorf("undo shows its diffs:\n%s", out.String())
	}
	if diff := cmp.Diff(before, m.tree()); diff != "" {
		t.Errorf("undo without --yes changed files (-before +after):\n%s", diff)
	}
}
