package claudedesktop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
)

// sentinel is planted in every field the reference never exports: it must
// appear nowhere in the output, the warnings or the cache.
const sentinel = "DESKTOP_SENTINEL_DO_NOT_LEAK_42"

func ms(y int, m time.Month, d, h int) int64 {
	return time.Date(y, m, d, h, 0, 0, 0, time.UTC).UnixMilli()
}

var fileTime = time.Date(2026, 10, 20, 15, 0, 0, 0, time.UTC)

type fx struct {
	t     testing.TB
	store string
}

func (f fx) state(rel string, st map[string]any) string {
	f.t.Helper()
	// Fields the exporter must never read.
	for k, v := range map[string]any{
		"initialMessage": "please read my diary " + sentinel,
		"mcqAnswers":     map[string]any{"q1": sentinel},
		"planPath":       "/Users/dev/.claude/plans/" + sentinel + ".md",
		"cliSessionId":   "cli-" + sentinel,
		"originCwd":      "/Users/dev/" + sentinel,
		"titleSource":    sentinel,
		"slashCommands":  []any{"/" + sentinel},
	} {
		if _, ok := st[k]; !ok {
			st[k] = v
		}
	}
	data, err := json.Marshal(st)
	if err != nil {
		f.t.Fatal(err)
	}
	p := filepath.Join(f.store, filepath.FromSlash(rel))
	exporttest.Write(f.t, p, string(data))
	exporttest.Touch(f.t, p, fileTime)
	return p
}

func (f fx) raw(rel string, data []byte) string {
	p := filepath.Join(f.store, filepath.FromSlash(rel))
	exporttest.Write(f.t, p, string(data))
	exporttest.Touch(f.t, p, fileTime)
	return p
}

func tools(names ...string) map[string]any {
	m := map[string]any{}
	for i, n := range names {
		m["srv-"+sentinel+":"+n] = i%3 != 2 // every third one is disabled
	}
	return m
}

// codeFixture writes a Claude Code store: two accounts, several projects,
// dates in milliseconds, seconds and strings, unicode, a credential in a
// title, a conversation without any timestamp, three malformed files and
// a large one.
func codeFixture(t testing.TB, desktop string) fx {
	f := fx{t, filepath.Join(desktop, "claude-code-sessions")}
	f.state("acct-1/org-1/local_c1.json", map[string]any{
		"sessionId": "c1", "title": "Fix the refund retry loop", "cwd": "/Users/dev/src/payments-api",
		"createdAt": ms(2026, 11, 4, 10), "lastActivityAt": ms(2026, 11, 4, 12),
		"model": "claude-opus-4", "effort": "high", "permissionMode": "acceptEdits",
		"enabledMcpTools": tools("read", "write", "list", "grep"), "isArchived": false,
	})
	f.state("acct-1/org-1/local_c2.json", map[string]any{
		"sessionId": "c2", "title": "rotate the api_key of the staging bucket",
		"cwd": `C:\Users\ana\Bourdon-notes`, "createdAt": strconv.FormatInt(ms(2026, 11, 6, 9)/1000, 10),
		"model": "claude-sonnet-4", "permissionMode": "default",
	})
	f.state("acct-1/org-1/local_c3.json", map[string]any{
		"title": "   ", "cwd": "/home/dév/café-app/", "lastActivityAt": ms(2026, 11, 1, 23), "createdAt": true,
		"model": "claude-opus-4", "effort": "",
	})
	f.state("acct-1/org-1/local_c4.json", map[string]any{
		"sessionId": "c4", "title": "Sketch the onboarding flow — 入門", "cwd": "/Users/dev/src/payments-api",
	})
	// A large state file: its initial message is a megabyte.
	f.state("acct-2/org-9/local_c5.json", map[string]any{
		"sessionId": "c5", "title": "Plan the Cursor importer", "cwd": "/Users/dev/src/importers",
		"createdAt": ms(2026, 10, 28, 8), "model": "claude-opus-4", "enabledMcpTools": tools("a", "b", "c", "d", "e", "f", "g"),
		"initialMessage": strings.Repeat("a long initial message "+sentinel+" ", 40_000),
	})
	f.raw("acct-1/org-1/local_bad-json.json", []byte(`{"sessionId": "broken", "title": "cut off`))
	f.raw("acct-1/org-1/local_bad-array.json", []byte(`["not", "an", "object"]`))
	f.raw("acct-1/org-1/local_bad-bytes.json", []byte("{\"title\": \"caf\xe9\"}"))
	f.raw("acct-1/org-1/notes.json", []byte(`{"title": "not a state file"}`))
	if err := os.MkdirAll(filepath.Join(f.store, "acct-1", "org-1", "local_dir.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

func audit(records ...any) []byte {
	var b strings.Builder
	for _, r := range records {
		if s, ok := r.(string); ok {
			b.WriteString(s)
		} else {
			data, _ := json.Marshal(r)
			b.Write(data)
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func initRecord(tools, skills int) map[string]any {
	names := func(n int, p string) []any {
		var l []any
		for i := range n {
			l = append(l, fmt.Sprintf("%s-%s-%d", p, sentinel, i))
		}
		return l
	}
	return map[string]any{
		"type": "system", "subtype": "init", "cwd": "/Users/dev/" + sentinel, "model": "claude-opus-4",
		"tools": names(tools, "Tool"), "skills": names(skills, "skill"), "plugins": []any{},
		"mcp_servers":    []any{map[string]any{"name": sentinel}},
		"slash_commands": names(2, "/cmd"), "claude_code_version": "1.2.3", "_audit_hmac": "deadbeef",
	}
}

var bodies = []any{
	map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": "my secret plan " + sentinel}},
	map[string]any{"type": "assistant", "message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": sentinel}}}},
	map[string]any{"type": "system", "subtype": "status", "status": sentinel},
}

func result(turns any, cost any, isError bool) map[string]any {
	return map[string]any{
		"type": "result", "subtype": "success", "total_cost_usd": cost, "num_turns": turns, "is_error": isError,
		"duration_ms": 81234, "stop_reason": "end_turn", "result": "the run's summary " + sentinel,
		"usage": map[string]any{"input_tokens": 1000, "note": sentinel},
	}
}

// coworkFixture writes a Co-Work store: runs with and without audits, an
// audit with a damaged line, an audit longer than the exporter reads, and
// a malformed state file.
func coworkFixture(t testing.TB, desktop string) fx {
	f := fx{t, filepath.Join(desktop, "local-agent-mode-sessions")}
	f.state("acct-1/org-1/local_r1.json", map[string]any{
		"sessionId": "r1", "title": "Wire the Co-Work export", "cwd": "/Users/dev/repos/ShipStable",
		"userSelectedFolders": []any{"/Users/dev/Docs/prun-plans", "/Users/dev/repos/shipstable", 7, "  "},
		"createdAt":           ms(2026, 11, 5, 14), "model": "claude-opus-4", "permissionMode": "acceptEdits",
		"enabledMcpTools": tools("a", "b", "c"),
	})
	f.raw("acct-1/org-1/local_r1/audit.jsonl", audit(append(append([]any{initRecord(4, 1)}, bodies...), result(7, 0.4231, false))...))

	f.state("acct-1/org-1/local_r2.json", map[string]any{
		"sessionId": "r2", "title": "Résumé des notes de réunion — 会議", "cwd": "/Users/dev/notes",
		"createdAt": ms(2026, 11, 7, 9), "model": "claude-sonnet-4",
	})
	// The last result record has a turn count and a cost of the wrong
	// types: as in the reference, the last record that has a key wins, and
	// a value of the wrong type counts as none.
	f.raw("acct-1/org-1/local_r2/audit.jsonl", audit(
		initRecord(9, 0), `{"type": "user", "message": {"content": "cut off `+sentinel,
		bodies[0], result(2, 0.05, false), result(3, 1, true), "not json at all "+sentinel, `{"type":"result","num_turns":"4","total_cost_usd":true}`,
	))
	f.state("acct-1/org-1/local_r3.json", map[string]any{
		"sessionId": "r3", "cwd": "/Users/dev/repos/Castmore-site", "createdAt": ms(2026, 11, 2, 18),
	})
	// An audit longer than 50,000 lines: the result past the bound is not
	// read.
	big := []any{initRecord(12, 3), result(11, 2.5, false)}
	for range 50_010 {
		big = append(big, `{"type":"assistant","message":{"content":"..."}}`)
	}
	big = append(big, result(99, 99.0, true))
	f.state("acct-1/org-2/local_r4.json", map[string]any{
		"sessionId": "r4", "title": "Long migration run", "cwd": "/Users/dev/repos/payments-api",
		"createdAt": ms(2026, 10, 30, 7), "model": "claude-opus-4",
	})
	f.raw("acct-1/org-2/local_r4/audit.jsonl", audit(big...))
	f.raw("acct-1/org-2/local_r5.json", []byte("{\"sessionId\": 12,"))
	return f
}

func run(t *testing.T, x Exporter, env *export.Env, opts export.Options) *export.Output {
	t.Helper()
	out, err := x.Export(context.Background(), env, opts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func warnings(store string, out *export.Output) []string {
	var got []string
	for _, w := range out.Warnings {
		rel, _ := filepath.Rel(store, w.File)
		w.File = filepath.ToSlash(rel)
		got = append(got, w.String())
	}
	return got
}

func TestCodeGolden(t *testing.T) {
	env := exporttest.Env(t, nil)
	f := codeFixture(t, filepath.Join(env.Home, ".config", "Claude"))
	out := run(t, Code, env, export.Options{})
	exporttest.Golden(t, "claude-desktop-code", out, env.Home)
	want := []string{
		"acct-1/org-1/local_bad-array.json: skipped: not a JSON object",
		"acct-1/org-1/local_bad-bytes.json: skipped: not valid UTF-8",
		"acct-1/org-1/local_bad-json.json: skipped: not JSON",
	}
	if got := warnings(f.store, out); !slices.Equal(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCoworkGolden(t *testing.T) {
	env := exporttest.Env(t, nil)
	f := coworkFixture(t, filepath.Join(env.Home, ".config", "Claude"))
	out := run(t, Cowork, env, export.Options{})
	exporttest.Golden(t, "claude-desktop-cowork", out, env.Home)
	want := []string{
		"acct-1/org-1/local_r2/audit.jsonl:2: line skipped: not a JSON object",
		"acct-1/org-2/local_r5.json: skipped: not JSON",
	}
	if got := warnings(f.store, out); !slices.Equal(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSentinelsNeverLeak checks the manifest, the warnings and the saved
// cache of both surfaces.
func TestSentinelsNeverLeak(t *testing.T) {
	env := exporttest.Env(t, nil)
	desktop := filepath.Join(env.Home, ".config", "Claude")
	codeFixture(t, desktop)
	coworkFixture(t, desktop)
	for _, x := range []Exporter{Code, Cowork} {
		c := export.NewCache()
		out := run(t, x, env, export.Options{Cache: c})
		saved, err := c.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		var ws []string
		for _, w := range out.Warnings {
			ws = append(ws, w.String())
		}
		for what, text := range map[string]string{
			"manifest": string(manifest(t, out, env)), "warnings": strings.Join(ws, "\n"), "cache": string(saved),
		} {
			if strings.Contains(text, sentinel) {
				t.Errorf("%s: the sentinel reached the %s", x.Info().ID, what)
			}
		}
	}
}

func TestSinceIsAnInstant(t *testing.T) {
	env := exporttest.Env(t, nil)
	desktop := filepath.Join(env.Home, ".config", "Claude")
	codeFixture(t, desktop)
	since := time.Date(2026, 11, 4, 10, 0, 0, 0, time.UTC)
	out := run(t, Code, env, export.Options{Since: since})
	var got []string
	for _, s := range out.Sessions {
		got = append(got, s.Date+" "+s.KeyActions[0])
	}
	if want := []string{"2026-11-06 [redacted credential-like text]", "2026-11-04 Fix the refund retry loop"}; !slices.Equal(got, want) {
		t.Errorf("sessions = %q", got)
	}
	var names []string
	for _, e := range out.Entities {
		names = append(names, e.Name+" "+e.LastTouched)
	}
	if want := []string{"Claude Desktop Code 2026-11-06", "Bourdon-notes 2026-11-06", "Bourdon 2026-11-06", "payments-api 2026-11-04"}; !slices.Equal(names, want) {
		t.Errorf("entities = %q", names)
	}
	if !slices.Equal(out.Capabilities, []string{"claude-desktop-code", "mcp-tools:3"}) {
		t.Errorf("capabilities = %q", out.Capabilities)
	}
}

func TestNotInstalledAndHealth(t *testing.T) {
	env := exporttest.Env(t, nil)
	for _, x := range []Exporter{Code, Cowork} {
		if _, err := x.Export(context.Background(), env, export.Options{}); !errors.Is(err, export.ErrNotInstalled) {
			t.Errorf("%s: err = %v", x.Info().ID, err)
		}
		hl := x.Health(context.Background(), env)
		if hl.Status != export.StatusBlocked || hl.Details[0].Key != "store_dir" || !strings.Contains(hl.Fix, "BOURDON_CLAUDE_DESKTOP_DIR") {
			t.Errorf("%s: Health = %+v", x.Info().ID, hl)
		}
		if err := os.MkdirAll(x.storeDir(env), 0o755); err != nil {
			t.Fatal(err)
		}
		if hl := x.Health(context.Background(), env); hl.Status != export.StatusDegraded {
			t.Errorf("%s: empty store: Health = %+v", x.Info().ID, hl)
		}
		// An empty store exports the surface entity alone, as the reference does.
		out := run(t, x, env, export.Options{})
		if len(out.Sessions) != 0 || len(out.Entities) != 1 || out.Entities[0].LastTouched != "" {
			t.Errorf("%s: empty store: %+v", x.Info().ID, out)
		}
		manifest(t, out, env)
	}
}

func TestHealthOK(t *testing.T) {
	env := exporttest.Env(t, nil)
	desktop := filepath.Join(env.Home, ".config", "Claude")
	code, cw := codeFixture(t, desktop), coworkFixture(t, desktop)
	if hl := Code.Health(context.Background(), env); hl.Status != export.StatusOK || !slices.Equal(hl.Details, []export.Detail{
		{Key: "store_dir", Value: code.store}, {Key: "conversation_count", Value: 8},
		{Key: "conversations_extracted", Value: 5}, {Key: "malformed_records", Value: 3},
	}) {
		t.Errorf("code: %+v", hl)
	}
	if hl := Cowork.Health(context.Background(), env); hl.Status != export.StatusOK || !slices.Equal(hl.Details, []export.Detail{
		{Key: "store_dir", Value: cw.store}, {Key: "run_count", Value: 5}, {Key: "runs_extracted", Value: 4},
		{Key: "malformed_records", Value: 1}, {Key: "runs_with_scalars", Value: 2},
	}) {
		t.Errorf("cowork: %+v", hl)
	}
}

func TestDesktopDirByPlatform(t *testing.T) {
	for _, c := range []struct {
		goos string
		vars map[string]string
		want string // a leading ~ stands for the case's home
	}{
		{"linux", nil, "~/.config/Claude"},
		{"darwin", nil, "~/Library/Application Support/Claude"},
		{"windows", map[string]string{"APPDATA": "/c/Users/ana/AppData/Roaming"}, "/c/Users/ana/AppData/Roaming/Claude"},
		{"windows", nil, "~/AppData/Roaming/Claude"},
		{"darwin", map[string]string{"BOURDON_CLAUDE_DESKTOP_DIR": "~/claude-state"}, "~/claude-state"},
	} {
		env := exporttest.Env(t, c.vars)
		env.GOOS = c.goos
		want := c.want
		if rest, ok := strings.CutPrefix(want, "~/"); ok {
			want = filepath.Join(env.Home, rest)
		}
		if got := Dir(env); got != filepath.FromSlash(want) {
			t.Errorf("%s %v: %s, want %s", c.goos, c.vars, got, want)
		}
		if p := Cowork.Detect(env); p.Path != filepath.Join(filepath.FromSlash(want), "local-agent-mode-sessions") || p.Present {
			t.Errorf("Detect = %+v", p)
		}
	}
}

func TestBaseAndProjects(t *testing.T) {
	for in, want := range map[string]string{
		"/Users/dev/src/payments-api/": "payments-api",
		`C:\Users\ana\Bourdon-notes`:   "Bourdon-notes",
		"/":                            "",
		"C:\\":                         "",
		"a/.":                          "a",
		"a/..":                         "",
		" café ":                       "café",
	} {
		if got := base(in); got != want {
			t.Errorf("base(%q) = %q, want %q", in, got, want)
		}
	}
	st := map[string]json.RawMessage{
		"cwd":                 json.RawMessage(`"/w/Copilot-tools"`),
		"userSelectedFolders": json.RawMessage(`["/w/a", "/w/A", "/w/b", "/w/c", "/w/d", "/w/e", "/w/codex-x"]`),
	}
	if got := projects(st); !slices.Equal(got, []string{"Copilot-tools", "a", "b", "c", "d", "e"}) {
		t.Errorf("projects = %q", got)
	}
}

func TestEpoch(t *testing.T) {
	for in, want := range map[string]string{
		`1762430400`:      "2025-11-06",
		`1762430400000`:   "2025-11-06",
		`"1762430400.5"`:  "2025-11-06",
		`" 1762430400 "`:  "2025-11-06",
		`0`:               "1970-01-01",
		`true`:            "",
		`"soon"`:          "",
		`"NaN"`:           "",
		`1e300`:           "",
		`null`:            "",
		`{"at": 1762430}`: "",
	} {
		at, ok := epoch(json.RawMessage(in))
		got := ""
		if ok {
			got = at.Format(time.DateOnly)
		}
		if got != want {
			t.Errorf("epoch(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestIncrementalExport(t *testing.T) {
	env := exporttest.Env(t, nil)
	desktop := filepath.Join(env.Home, ".config", "Claude")
	codeFixture(t, desktop)
	f := coworkFixture(t, desktop)
	for _, x := range []Exporter{Code, Cowork} {
		c := export.NewCache()
		first := manifest(t, run(t, x, env, export.Options{Cache: c}), env)
		_, units := c.Stats()
		saved, err := c.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		c = export.LoadCache(saved)
		again := run(t, x, env, export.Options{Cache: c})
		if hits, reads := c.Stats(); hits != units || reads != 0 {
			t.Errorf("%s unchanged: hits %d reads %d of %d", x.Info().ID, hits, reads, units)
		}
		if string(manifest(t, again, env)) != string(first) {
			t.Errorf("%s: the cached export differs", x.Info().ID)
		}
	}

	// Co-Work: a new run, and more lines in an existing run's audit: two
	// units read again, the others not.
	c := export.NewCache()
	run(t, Cowork, env, export.Options{Cache: c})
	_, units := c.Stats()
	saved, _ := c.Marshal()
	f.state("acct-1/org-1/local_r6.json", map[string]any{"sessionId": "r6", "title": "New run", "createdAt": ms(2026, 11, 30, 8)})
	p := filepath.Join(f.store, "acct-1", "org-1", "local_r3", "audit.jsonl")
	exporttest.Write(t, p, string(audit(result(5, 0.2, false))))
	c = export.LoadCache(saved)
	out := run(t, Cowork, env, export.Options{Cache: c})
	if hits, reads := c.Stats(); hits != units-1 || reads != 2 {
		t.Errorf("new run and grown audit: hits %d reads %d of %d", hits, reads, units)
	}
	if out.Sessions[0].KeyActions[0] != "New run" {
		t.Errorf("newest = %+v", out.Sessions[0])
	}
}

// manifest renders out as the golden files hold it and checks it against
// the L5 schema.
func manifest(t *testing.T, out *export.Output, env *export.Env) []byte {
	t.Helper()
	data := exporttest.Manifest(t, out, env.Home)
	exporttest.Valid(t, data)
	return data
}
