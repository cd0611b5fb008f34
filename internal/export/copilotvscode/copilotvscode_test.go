package copilotvscode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
)

const sentinel = "VSCODE_SENTINEL_DO_NOT_LEAK"

func ev(typ string, data any) string {
	b, err := json.Marshal(map[string]any{"type": typ, "data": data, "id": "ev", "timestamp": "2026-11-04T10:00:00.000Z"})
	if err != nil {
		panic(err)
	}
	return string(b)
}

func start(at, producer, version string) string {
	return ev("session.start", map[string]any{
		"sessionId": "s", "version": 1, "producer": producer, "copilotVersion": version,
		"vscodeVersion": "1.106.0", "startTime": at,
	})
}

func user(msg string) string {
	return ev("user.message", map[string]any{"content": msg, "attachments": []any{}})
}

var (
	turnEnd   = ev("assistant.turn_end", map[string]any{"turnId": "t0"})
	turnStart = ev("assistant.turn_start", map[string]any{"turnId": "t0"})
	reply     = ev("assistant.message", map[string]any{"messageId": "m", "content": "Here is the fix " + sentinel,
		"toolRequests": []any{}, "reasoningText": sentinel})
)

func lines(l ...string) string { return strings.Join(l, "\n") + "\n" }

var (
	day3  = time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC)
	older = time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
	newer = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
)

// fixture writes a workspace storage with three workspaces (one without
// Copilot Chat), transcripts of several kinds and memory files, and
// returns the storage path.
func fixture(t testing.TB, home string) string {
	t.Helper()
	storage := filepath.Join(home, ".config", "Code", "User", "workspaceStorage")
	pay := filepath.Join(storage, "a1b2c3d4", chatDir)
	cafe := filepath.Join(storage, "e5f6a7b8", chatDir)
	tr := func(chat, name string) string { return filepath.Join(chat, "transcripts", name+".jsonl") }
	mem := func(chat, name string) string { return filepath.Join(chat, "memory-tool", "memories", name) }

	exporttest.Write(t, tr(pay, "0f1e-refund"), lines(
		start("2026-11-04T10:00:00.000Z", "copilot-agent", "0.33.2"),
		user("/fix the refund retry loop"), turnStart, reply, turnEnd,
		user("now add tests "+sentinel), turnStart, reply, turnEnd,
	))
	exporttest.Write(t, tr(pay, "1a2b-secret"), lines(
		start("2026-11-06T08:30:00.000Z", "copilot-chat", "0.33.2"),
		user("/explain why the api_key shows up in the logs"), turnEnd,
	))
	// The start line was cut off: the session's date is the file's.
	damaged := tr(pay, "2c3d-damaged")
	exporttest.Write(t, damaged, lines(
		`{"type":"session.start","data":{"sessionId":"s","startTi`,
		user("Pourquoi le café ☕ est-il froid ? 日本語も"), turnEnd,
	))
	exporttest.Touch(t, damaged, day3)
	// A JSON array, a data that is not an object, bytes that are not UTF-8.
	exporttest.Write(t, tr(pay, "3e4f-odd"), strings.Join([]string{
		start("2026-11-05T16:45:00+01:00", "copilot-agent", "0.34.0"),
		`[1, 2, 3]`,
		`{"type":"user.message","data":"not an object"}`,
		"{\"type\":\"user.message\",\"data\":{\"content\":\"naïve \xff bytes\"}}",
		`{"type":"user.message","data":null}`,
		"", "   ",
		turnEnd,
	}, "\n"))
	exporttest.Write(t, tr(pay, "4a5b-empty"), "\n  \n")
	exporttest.Write(t, filepath.Join(pay, "transcripts", "notes.txt"), "not a transcript")

	// A large transcript: a 1 MB first message and 2,000 more lines, of
	// which only the first 500 are read.
	big := []string{start("2026-11-02T07:00:00.000Z", "copilot-agent", "0.33.1"), user("/refactor " + strings.Repeat("ledger ", 150_000))}
	for range 2000 {
		big = append(big, turnEnd)
	}
	exporttest.Write(t, tr(cafe, "9f8e-big"), lines(big...))
	exporttest.Write(t, tr(cafe, "8d7c-cafe"), lines(
		"", // leading blank lines do not count
		start("2026-10-30T18:00:00.000Z", "copilot-agent", "0.33.1"),
		user("/fix la carte des cafés — メニュー"), turnEnd,
	))

	exporttest.Write(t, mem(pay, "repo/payments-api.md"),
		"# payments-api\n- Refunds are idempotent per order id.\n  - Retries back off exponentially.\n"+
			"- Tests run with `go test ./...`.\n- A fourth bullet is not read.\n")
	exporttest.Touch(t, mem(pay, "repo/payments-api.md"), older)
	exporttest.Write(t, mem(cafe, "repo/payments-api.md"),
		"- The café workspace also has notes on payments-api, newer.\n")
	exporttest.Touch(t, mem(cafe, "repo/payments-api.md"), newer)
	exporttest.Write(t, mem(cafe, "repo/café-menu.md"),
		"# Café menu\n\n- Le menu est en français et en 日本語.\n  - Les prix sont en euros (€).\n\n"+
			"* not a dash bullet\n-no space, not a bullet\n- Les photos sont dans assets/.\n- Une quatrième puce n'est pas lue.\n")
	exporttest.Write(t, mem(cafe, "user/secrets.md"), "- the staging password is in the vault\n- other\n")
	exporttest.Write(t, mem(cafe, "repo/blank.md"), "  \n\n")
	exporttest.Write(t, mem(cafe, "repo/no-bullets.md"), "Just prose, no list.\n")
	exporttest.Write(t, mem(cafe, "repo/ignored.txt"), "- not markdown\n")

	if err := os.MkdirAll(filepath.Join(storage, "c0ffee00", "other.extension"), 0o755); err != nil {
		t.Fatal(err)
	}
	return storage
}

func exporter(t testing.TB) Exporter {
	return Exporter{WSLUsers: filepath.Join(t.TempDir(), "no-wsl")}
}

func run(t *testing.T, x Exporter, env *export.Env, opts export.Options) *export.Output {
	t.Helper()
	out, err := x.Export(context.Background(), env, opts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestExportGolden(t *testing.T) {
	env := exporttest.Env(t, nil)
	storage := fixture(t, env.Home)
	out := run(t, exporter(t), env, export.Options{})
	exporttest.Golden(t, "copilot-vscode", out, env.Home)

	data := string(manifest(t, out, env))
	if strings.Contains(data, sentinel) {
		t.Error("an assistant message or a later user message reached the manifest")
	}
	var got []string
	for _, w := range out.Warnings {
		rel, _ := filepath.Rel(storage, w.File)
		got = append(got, fmt.Sprintf("%s:%d: %s", filepath.ToSlash(rel), w.Line, w.Msg))
	}
	want := []string{
		"a1b2c3d4/GitHub.copilot-chat/transcripts/2c3d-damaged.jsonl:1: line skipped: not JSON",
		"a1b2c3d4/GitHub.copilot-chat/transcripts/3e4f-odd.jsonl:2: line skipped: not a JSON object",
		"a1b2c3d4/GitHub.copilot-chat/transcripts/3e4f-odd.jsonl:3: line skipped: its data is not a JSON object",
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLargeTranscriptReadsFiveHundredLines(t *testing.T) {
	env := exporttest.Env(t, nil)
	fixture(t, env.Home)
	out := run(t, exporter(t), env, export.Options{})
	for _, s := range out.Sessions {
		if s.Date == "2026-11-02" {
			first := s.KeyActions[0]
			if !strings.HasPrefix(first, "/refactor ledger ") || !strings.HasSuffix(first, "...") || len(first) > 180 || s.KeyActions[1] != "turns: 498" {
				t.Errorf("big transcript = %q", s.KeyActions)
			}
			return
		}
	}
	t.Error("the big transcript has no session")
}

func TestSinceIsAnInstant(t *testing.T) {
	env := exporttest.Env(t, nil)
	fixture(t, env.Home)
	out := run(t, exporter(t), env, export.Options{Since: time.Date(2026, 11, 4, 10, 0, 0, 0, time.UTC)})
	var dates []string
	for _, s := range out.Sessions {
		dates = append(dates, s.Date)
	}
	// 2026-11-05T16:45+01:00 is kept; 2026-11-03 (the damaged one, by its
	// file's time) and earlier are not.
	if want := []string{"2026-11-06", "2026-11-05", "2026-11-04"}; !slices.Equal(dates, want) {
		t.Errorf("dates = %v, want %v", dates, want)
	}
	// Commands are counted over every transcript, as in the reference.
	var names []string
	for _, e := range out.Entities {
		if e.Type == "vscode-capability" {
			names = append(names, e.Name+" "+e.Summary)
		}
	}
	want := []string{
		"copilot-command:fix VS Code Copilot command used 2 time(s).",
		"copilot-command:explain VS Code Copilot command used 1 time(s).",
		"copilot-command:refactor VS Code Copilot command used 1 time(s).",
	}
	if !slices.Equal(names, want) {
		t.Errorf("commands = %q", names)
	}
}

func TestNotInstalled(t *testing.T) {
	x := exporter(t)
	env := exporttest.Env(t, nil)
	h := env.Home
	if _, err := x.Export(context.Background(), env, export.Options{}); !errors.Is(err, export.ErrNotInstalled) {
		t.Fatalf("no storage: %v", err)
	}
	hl := x.Health(context.Background(), env)
	if hl.Status != export.StatusBlocked || hl.Details[0].Key != "expected_path" {
		t.Errorf("Health = %+v", hl)
	}
	storage := filepath.Join(h, ".config", "Code", "User", "workspaceStorage")
	if err := os.MkdirAll(filepath.Join(storage, "abc", "ms-python.python"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := x.Export(context.Background(), env, export.Options{}); !errors.Is(err, export.ErrNotInstalled) {
		t.Fatalf("no chat data: %v", err)
	}
	hl = x.Health(context.Background(), env)
	if hl.Status != export.StatusDegraded || hl.Reason != "No Copilot Chat data found in any workspace." ||
		!strings.Contains(hl.Fix, "`bourdon export-all`") {
		t.Errorf("Health = %+v", hl)
	}
	if p := x.Detect(env); !p.Present || p.Path != storage {
		t.Errorf("Detect = %+v", p)
	}
}

func TestHealthOK(t *testing.T) {
	env := exporttest.Env(t, nil)
	storage := fixture(t, env.Home)
	hl := exporter(t).Health(context.Background(), env)
	want := []export.Detail{
		{Key: "workspace_storage", Value: storage}, {Key: "workspace_count", Value: 2},
		{Key: "transcript_count", Value: 6}, {Key: "memory_file_count", Value: 5}, {Key: "total_turns", Value: 504},
	}
	if hl.Status != export.StatusOK || !slices.Equal(hl.Details, want) {
		t.Errorf("Health = %+v", hl)
	}
}

func TestStorageByPlatform(t *testing.T) {
	wsl := filepath.Join(t.TempDir(), "Users")
	bob := filepath.Join(wsl, "bob", "AppData", "Roaming", "Code", "User", "workspaceStorage")
	for _, d := range []string{filepath.Join(wsl, "Alice"), bob} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		goos string
		vars map[string]string
		wsl  string
		want string // a leading ~ stands for the case's home
	}{
		{"linux", nil, "", "~/.config/Code/User/workspaceStorage"},
		{"linux", map[string]string{"XDG_CONFIG_HOME": "/xdg"}, "", "/xdg/Code/User/workspaceStorage"},
		{"linux", nil, wsl, bob},
		{"darwin", nil, wsl, "~/Library/Application Support/Code/User/workspaceStorage"},
		{"windows", map[string]string{"APPDATA": "/c/Users/ana/AppData/Roaming"}, wsl, "/c/Users/ana/AppData/Roaming/Code/User/workspaceStorage"},
		{"windows", nil, "", "~/AppData/Roaming/Code/User/workspaceStorage"},
		{"darwin", map[string]string{"COPILOT_VSCODE_STORAGE": "~/vs"}, "", "~/vs"},
	} {
		env := exporttest.Env(t, c.vars)
		env.GOOS = c.goos
		want := c.want
		if rest, ok := strings.CutPrefix(want, "~/"); ok {
			want = filepath.Join(env.Home, rest)
		}
		x := Exporter{WSLUsers: cmpOr(c.wsl, filepath.Join(env.Home, "none"))}
		if got := x.storage(env); got != filepath.FromSlash(want) {
			t.Errorf("%s %v wsl=%q: %s, want %s", c.goos, c.vars, c.wsl, got, want)
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func TestIncrementalExport(t *testing.T) {
	env := exporttest.Env(t, nil)
	storage := fixture(t, env.Home)
	x := exporter(t)
	c := export.NewCache()
	first := manifest(t, run(t, x, env, export.Options{Cache: c}), env)
	_, units := c.Stats()
	saved, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}

	c = export.LoadCache(saved)
	again := run(t, x, env, export.Options{Cache: c})
	if hits, reads := c.Stats(); hits != units || reads != 0 || units != 13 {
		t.Errorf("unchanged: hits %d reads %d (units %d)", hits, reads, units)
	}
	if string(manifest(t, again, env)) != string(first) || len(again.Warnings) != 3 {
		t.Errorf("the cached export differs from the first (warnings %q)", again.Warnings)
	}

	exporttest.Write(t, filepath.Join(storage, "e5f6a7b8", chatDir, "transcripts", "ffff-new.jsonl"),
		lines(start("2026-11-30T09:00:00.000Z", "copilot-agent", "0.35.0"), user("/fix the new thing"), turnEnd))
	c = export.LoadCache(saved)
	out := run(t, x, env, export.Options{Cache: c})
	if hits, reads := c.Stats(); hits != units || reads != 1 {
		t.Errorf("one new transcript: hits %d reads %d", hits, reads)
	}
	if out.Sessions[0].Date != "2026-11-30" || out.Sessions[0].KeyActions[0] != "/fix the new thing" {
		t.Errorf("newest = %+v", out.Sessions[0])
	}
}

func TestCorruptTranscriptIsSkippedWithBoundedWarnings(t *testing.T) {
	env := exporttest.Env(t, nil)
	storage := fixture(t, env.Home)
	garbage := filepath.Join(storage, "a1b2c3d4", chatDir, "transcripts", "5c6d-garbage.jsonl")
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "\x00\x01\xfe binary %d \xff\n", i)
	}
	exporttest.Write(t, garbage, b.String())
	exporttest.Touch(t, garbage, newer)
	out := run(t, exporter(t), env, export.Options{})
	var mine []string
	for _, w := range out.Warnings {
		if w.File == garbage {
			mine = append(mine, w.String())
		}
	}
	if len(mine) != maxLineWarnings+1 || mine[0] != garbage+":1: line skipped: not JSON" ||
		mine[maxLineWarnings] != garbage+": 35 more bad lines skipped" {
		t.Errorf("warnings = %q", mine)
	}
	if out.Sessions[0].Date == "2026-11-20" {
		t.Error("a transcript with no readable event must give no session")
	}
	manifest(t, out, env)
}

// manifest renders out as the golden files hold it and checks it against
// the L5 schema.
func manifest(t *testing.T, out *export.Output, env *export.Env) []byte {
	t.Helper()
	data := exporttest.Manifest(t, out, env.Home)
	exporttest.Valid(t, data)
	return data
}

// A first message of spaces is still the session's first key action,
// empty once trimmed, as the reference writes it (found by the
// differential test, internal/export/probe/difftool).
func TestAFirstMessageOfSpacesIsAnEmptyAction(t *testing.T) {
	env := exporttest.Env(t, nil)
	chat := filepath.Join(env.Home, ".config", "Code", "User", "workspaceStorage", "a1", "GitHub.copilot-chat")
	exporttest.Write(t, filepath.Join(chat, "transcripts", "t1.jsonl"),
		lines(start("2026-11-04T10:00:00.000Z", "copilot-agent", "0.33.2"), user("   "), turnEnd, user("/fix the retry loop")))
	out := run(t, exporter(t), env, export.Options{})
	if len(out.Sessions) != 1 || !slices.Equal(out.Sessions[0].KeyActions, []string{"", "turns: 1", "copilot: 0.33.2", "mode: copilot-agent"}) {
		t.Errorf("sessions %+v", out.Sessions)
	}
	exporttest.Valid(t, exporttest.Manifest(t, out, env.Home))
}
