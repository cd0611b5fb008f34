package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
)

// exportSummary is the part of `export-all --json` the test reads.
type exportSummary struct {
	Library string `json:"library"`
	Failed  int    `json:"failed"`
	Exports []struct {
		Agent    string `json:"agent"`
		Status   string `json:"status"`
		Entities int    `json:"entities"`
		Sessions int    `json:"sessions"`
		Reason   string `json:"reason"`
		Changes  *struct {
			EntitiesAdded int `json:"entities_added"`
			SessionsAdded int `json:"sessions_added"`
			TotalEntities int `json:"total_entities"`
			TotalSessions int `json:"total_sessions"`
		} `json:"changes"`
		CacheReads int `json:"cache_reads"`
	} `json:"exports"`
}

// statuses maps each agent to its status.
func (s exportSummary) statuses() map[string]string {
	m := map[string]string{}
	for _, e := range s.Exports {
		m[e.Agent] = e.Status
	}
	return m
}

// exportAll runs `bourdon export-all --json` with HOME at home.
func exportAll(t *testing.T, home, lib string) exportSummary {
	t.Helper()
	out, errOut, code := runIn(t, home, "export-all", "--library", lib, "--json")
	var s exportSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil || code != 0 {
		t.Fatalf("export-all: exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	return s
}

// wantStatuses checks the three agents with stores have the given
// statuses and every other agent was skipped.
func wantStatuses(t *testing.T, step string, s exportSummary, want map[string]string) {
	t.Helper()
	if s.Failed != 0 {
		t.Errorf("%s: %d agent(s) failed: %+v", step, s.Failed, s.Exports)
	}
	for agent, status := range s.statuses() {
		w, ok := want[agent]
		if !ok {
			w = "skipped"
		}
		if status != w {
			t.Errorf("%s: %s is %s, want %s", step, agent, status, w)
		}
	}
	for agent := range want {
		if _, ok := s.statuses()[agent]; !ok {
			t.Errorf("%s: no row for %s", step, agent)
		}
	}
}

// payloadText calls a tool and returns its payload's JSON text, failing
// on a tool error.
func payloadText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	payload, res := mcptest.CallJSON(t, cs, tool, args)
	b, _ := json.Marshal(payload)
	if res.IsError {
		t.Fatalf("%s %v: tool error %s", tool, args, b)
	}
	return string(b)
}

type entityMatches struct {
	Matches []struct {
		Name      string            `json:"name"`
		Agents    []string          `json:"agents"`
		Summaries map[string]string `json:"summaries"`
	} `json:"matches"`
}

// findEntity returns, for the entity name, every agent that knows it with
// its summary.
func findEntity(t *testing.T, cs *mcp.ClientSession, name, level string) (map[string]string, string) {
	t.Helper()
	text := payloadText(t, cs, "find_entity", map[string]any{"name": name, "access_level": level})
	var m entityMatches
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	agents := map[string]string{}
	for _, match := range m.Matches {
		for _, a := range match.Agents {
			agents[a] = match.Summaries[a]
		}
	}
	return agents, text
}

type recentWork struct {
	Sessions []struct {
		Agent      string   `json:"agent"`
		Date       string   `json:"date"`
		Cwd        *string  `json:"cwd"`
		KeyActions []string `json:"key_actions"`
	} `json:"sessions"`
	HasMore bool `json:"has_more"`
}

// recentActions lists the sessions since 2026-01-01 at team level as
// "agent date first-key-action".
func recentActions(t *testing.T, cs *mcp.ClientSession) ([]string, string) {
	t.Helper()
	text := payloadText(t, cs, "list_recent_work", map[string]any{"since": "2026-01-01", "access_level": "team", "limit": 100})
	var w recentWork
	if err := json.Unmarshal([]byte(text), &w); err != nil {
		t.Fatal(err)
	}
	if w.HasMore {
		t.Errorf("list_recent_work has more than one page: %s", text)
	}
	var rows []string
	for _, s := range w.Sessions {
		action := ""
		if len(s.KeyActions) > 0 {
			action = s.KeyActions[0]
		}
		rows = append(rows, s.Agent+" "+s.Date+" "+action)
	}
	return rows, text
}

// hookCommand is the command of the Claude Code hook for event in the
// settings file that mentions bourdon.
func hookCommand(t *testing.T, settings, event string) string {
	t.Helper()
	data, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Hooks map[string][]struct {
			Hooks []struct{ Type, Command string }
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, group := range doc.Hooks[event] {
		for _, h := range group.Hooks {
			if h.Type == "command" && strings.Contains(h.Command, "bourdon") {
				return h.Command
			}
		}
	}
	t.Fatalf("no bourdon %s hook in %s:\n%s", event, settings, data)
	return ""
}

// snapshot is every file under root with its bytes and modification
// time.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		files[p] = info.ModTime().UTC().Format(time.RFC3339Nano) + "\x00" + string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestNativeStoresEndToEnd runs the binary over a fake HOME holding Claude
// Code, Codex and Cursor stores that share a project: setup wires the
// clients and runs the first export, a second setup changes nothing,
// export-all then changes nothing, the server's find_entity has the
// project from all three and list_recent_work the sessions of Codex and
// Cursor (Claude Code's auto-memory gives entities only), rows committed
// over MCP survive the exports that follow, the SessionEnd hook setup
// wrote re-exports exactly the agents whose stores changed, the opt-in
// UserPromptSubmit hook gives Claude Code the recognition fragment, and
// doctor finds nothing failing. No native store is modified.
func TestNativeStoresEndToEnd(t *testing.T) {
	home := t.TempDir()
	writeStores(t, home)
	lib := filepath.Join(t.TempDir(), "agent library") // a space, as in real paths
	ledgerline := filepath.Join(home, "repos", "ledgerline")
	agentsWithStores := []string{"claude-code", "codex", "cursor"}

	// The clients' files setup edits; everything else in HOME is a
	// native store, which nothing may modify.
	claudeJSON := filepath.Join(home, ".claude.json")
	settings := filepath.Join(home, ".claude", "settings.json")
	codexConfig := filepath.Join(home, ".codex", "config.toml")
	cursorMCP := filepath.Join(home, ".cursor", "mcp.json")
	configs := []string{claudeJSON, settings, codexConfig, cursorMCP}
	stores := func() map[string]string {
		s := snapshot(t, home)
		for _, c := range configs {
			delete(s, c)
		}
		maps.DeleteFunc(s, func(p, _ string) bool {
			return strings.HasPrefix(p, filepath.Join(home, ".bourdon")+string(filepath.Separator))
		})
		return s
	}
	pristineStores := stores()

	// 1. setup --yes: the four client entries and the hook, then the first
	// export.
	out, errOut, code := runIn(t, home, "setup", "--yes", "--json", "--library", lib)
	var rep struct {
		Applied bool `json:"applied"`
		Changes []struct {
			Path   string `json:"path"`
			Action string `json:"action"`
			Done   bool   `json:"done"`
		} `json:"changes"`
		Problems []string `json:"problems"`
		Export   struct {
			Run bool `json:"run"`
			Ran bool `json:"ran"`
		} `json:"export"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("setup --yes: exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	if !rep.Applied || !rep.Export.Ran || len(rep.Problems) > 0 {
		t.Errorf("setup report: %s", out)
	}
	modified := map[string]bool{}
	for _, c := range rep.Changes {
		if c.Action == "modify" && c.Done {
			modified[c.Path] = true
		}
	}
	for _, c := range configs {
		if !modified[c] {
			t.Errorf("setup did not modify %s: %s", c, out)
		}
	}
	serveArgs := `"args": [` + "\n" + `        "serve",` + "\n" + `        "--library",` + "\n" + `        "` + lib + `"`
	for path, want := range map[string][]string{
		claudeJSON:  {`"numStartups": 41`, `"bourdon": {`, `"type": "stdio"`, `"command": "` + binary + `"`, serveArgs},
		cursorMCP:   {`"github": {"command": "npx"`, `"command": "` + binary + `"`, `"` + lib + `"`},
		codexConfig: {`model = "gpt-5-codex"`, "[mcp_servers.bourdon]\ncommand = \"" + binary + "\"\nargs = [\"serve\", \"--library\", \"" + lib + "\"]\n"},
		settings:    {`"notify-send 'Claude is done'"`, `"SessionEnd": [`, `"matcher": "*"`, `"command": "` + binary + ` export-all --library '` + lib + `'"`},
	} {
		b, _ := os.ReadFile(path)
		for _, w := range want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s lacks %q:\n%s", path, w, b)
			}
		}
	}
	// The first export ran in setup (its account is on stderr with
	// --json) and filled the library with the three agents' manifests.
	for _, agent := range agentsWithStores {
		if !strings.Contains(errOut, "ok          "+agent+" ") {
			t.Errorf("setup's first export did not write %s:\n%s", agent, errOut)
		}
	}
	manifests, _ := filepath.Glob(filepath.Join(lib, "agents", "*.l5.yaml"))
	var ids []string
	for _, m := range manifests {
		ids = append(ids, strings.TrimSuffix(filepath.Base(m), ".l5.yaml"))
	}
	if !slices.Equal(ids, agentsWithStores) {
		t.Errorf("manifests after setup: %v, want %v", ids, agentsWithStores)
	}

	// 2. A second setup --yes changes nothing: no file in HOME (backups
	// included) or in the library, no export run.
	beforeHome, beforeLib := snapshot(t, home), snapshot(t, lib)
	out, errOut, code = runIn(t, home, "setup", "--yes", "--library", lib)
	if code != 0 || !strings.Contains(out, "Nothing to change") || strings.Contains(out, "+++ ") || !strings.Contains(out, "First export: not run") {
		t.Errorf("second setup: exit %d\n%s\n%s", code, out, errOut)
	}
	if !maps.Equal(beforeHome, snapshot(t, home)) || !maps.Equal(beforeLib, snapshot(t, lib)) {
		t.Error("a second setup changed files")
	}

	// 3. export-all right after: nothing changed, nothing written.
	s := exportAll(t, home, lib)
	wantStatuses(t, "export-all after setup", s, map[string]string{"claude-code": "no_op", "codex": "no_op", "cursor": "no_op"})
	for _, e := range s.Exports {
		if e.CacheReads != 0 {
			t.Errorf("export-all after setup re-read %d unit(s) of %s", e.CacheReads, e.Agent)
		}
	}
	if !maps.Equal(beforeLib, snapshot(t, lib)) {
		t.Error("a no_op export-all changed the library")
	}

	// 4. The server, over HTTP with an MCP client.
	srv := startHTTPWith(t, []string{"HOME=" + home}, "--port", "0", "--allow-unauthenticated", "--library", lib)
	cs := srv.connect(t)

	agents, text := findEntity(t, cs, "ledgerline", "team")
	for agent, want := range map[string]string{
		"claude-code": "Double-entry ledger service; refunds post reversals through the transactional outbox.",
		"codex":       "Ledgerline Codex session history",
		"cursor":      "Cursor workspace inferred from " + ledgerline + ".",
	} {
		if got, ok := agents[agent]; !ok || got != want {
			t.Errorf("find_entity ledgerline: %s says %q, want %q\n%s", agent, got, want, text)
		}
	}
	// Rows from a person's stores are not public by default.
	if agents, text := findEntity(t, cs, "ledgerline", "public"); len(agents) != 0 {
		t.Errorf("find_entity at public level sees team rows: %s", text)
	}

	rows, text := recentActions(t, cs)
	wantRows := []string{
		"cursor 2026-06-14 " + cursorFxTitle,
		"cursor 2026-06-13 " + cursorReconTitle,
		"codex 2026-06-12 " + codexOutboxTitle,
		"codex 2026-06-11 " + codexCafeTitle,
		"codex 2026-06-10 " + codexRefundsTitle,
	}
	if !slices.Equal(rows, wantRows) {
		t.Errorf("list_recent_work:\n%q\nwant\n%q\n%s", rows, wantRows, text)
	}

	// Nothing secret or private reached the library or a payload.
	all := payloadText(t, cs, "export_agents", map[string]any{}) + text
	for _, id := range agentsWithStores {
		all += payloadText(t, cs, "query_agent_memory", map[string]any{"agent": id, "topic": "ledgerline", "access_level": "private"})
	}
	for _, f := range snapshot(t, lib) {
		all += f
	}
	for _, never := range []string{storeSecret, transcriptSentinel, personSentinel, "sk-proj-never-read"} {
		if strings.Contains(all, never) {
			t.Errorf("%q reached the library or a payload", never)
		}
	}
	if agents, text := findEntity(t, cs, "CI token", "team"); agents["claude-code"] != "[redacted credential-like text]" {
		t.Errorf("the note holding a token: %s", text)
	}

	// 5. Commit rows to claude-code over MCP, next to the exporter's.
	const checklist = "Ledgerline release checklist"
	commitText := payloadText(t, cs, "commit_to_federation", map[string]any{
		"agent_id": "claude-code",
		"entities": []any{map[string]any{"name": checklist, "type": "process", "summary": "Tag, run the reconciliation report, then deploy.", "visibility": "team"}},
		"sessions": []any{map[string]any{"date": "2026-06-15", "cwd": ledgerline, "key_actions": []any{"Wrote the release checklist"}, "visibility": "team"}},
	})
	if !strings.Contains(commitText, `"entities_added":1,`) || !strings.Contains(commitText, `"sessions_added":1,`) || !strings.Contains(commitText, `"total_entities":4,`) {
		t.Fatalf("commit_to_federation: %s", commitText)
	}

	// 6. export-all again: no store changed, so every agent is no_op,
	// and the committed rows are still served.
	s = exportAll(t, home, lib)
	wantStatuses(t, "export-all after the commit", s, map[string]string{"claude-code": "no_op", "codex": "no_op", "cursor": "no_op"})
	if agents, text := findEntity(t, cs, checklist, "team"); agents["claude-code"] != "Tag, run the reconciliation report, then deploy." {
		t.Errorf("the committed entity after a no_op export: %s", text)
	}

	// Setup, the exports and the server only read the native stores.
	if !maps.Equal(pristineStores, stores()) {
		t.Error("setup, the exports or the server changed a native store")
	}

	// 7. New work in two stores, a Claude Code note and a Codex thread,
	// then the session ends: Claude Code runs the SessionEnd hook setup
	// wrote (through a shell, the hook's JSON on stdin). It exports the
	// two changed agents again, not Cursor's, and the committed rows
	// survive claude-code's re-export.
	h := storeHome{t: t, home: home}
	h.write(".claude/projects/"+slug(ledgerline)+"/memory/project_outbox.md",
		"---\nname: Outbox relay\ndescription: Relays ledgerline outbox rows to Kafka, at least once.\ntype: project\n---\n")
	h.codexThread(codexPayouts, "2026-06-16T10:00:00Z", ledgerline, codexPayoutsTitle, "payouts/batch.go")
	hook := hookCommand(t, settings, "SessionEnd")
	input := `{"session_id":"5d1c9a70-2b4e-4f7a-9c11-3e8d2a6b0f01","transcript_path":"` + filepath.Join(home, ".claude", "projects", slug(ledgerline), "5d1c9a70-2b4e-4f7a-9c11-3e8d2a6b0f01.jsonl") +
		`","cwd":"` + ledgerline + `","hook_event_name":"SessionEnd","reason":"prompt_input_exit"}`
	out, errOut, code = runCmd(t, home, input, "/bin/sh", "-c", hook)
	if code != 0 {
		t.Fatalf("the SessionEnd hook %q: exit %d\n%s\n%s", hook, code, out, errOut)
	}
	for _, want := range []string{"\nok          claude-code ", "\nok          codex ", "\nno_op       cursor "} {
		if !strings.Contains("\n"+out, want) {
			t.Errorf("the SessionEnd hook's export lacks %q:\n%s", want[1:], out)
		}
	}
	s = exportAll(t, home, lib)
	wantStatuses(t, "export-all after the hook", s, map[string]string{"claude-code": "no_op", "codex": "no_op", "cursor": "no_op"})
	for _, e := range s.Exports {
		switch {
		case e.Agent == "claude-code" && (e.Changes == nil || e.Changes.TotalEntities != e.Entities+1 || e.Changes.TotalSessions != 1):
			t.Errorf("claude-code after the hook: %+v %+v", e, e.Changes)
		case e.Agent == "codex" && e.Sessions != 4:
			t.Errorf("codex after the hook: %+v", e)
		}
	}
	agents, text = findEntity(t, cs, checklist, "team")
	if agents["claude-code"] != "Tag, run the reconciliation report, then deploy." {
		t.Errorf("the committed entity after claude-code's re-export: %s", text)
	}
	if agents, text := findEntity(t, cs, "Outbox relay", "team"); agents["claude-code"] != "Relays ledgerline outbox rows to Kafka, at least once." {
		t.Errorf("the new note: %s", text)
	}
	rows, text = recentActions(t, cs)
	wantRows = slices.Concat([]string{"codex 2026-06-16 " + codexPayoutsTitle, "claude-code 2026-06-15 Wrote the release checklist"}, wantRows)
	if !slices.Equal(rows, wantRows) {
		t.Errorf("list_recent_work after the re-export:\n%q\nwant\n%q\n%s", rows, wantRows, text)
	}

	srv.stop(t)

	// 8. The opt-in UserPromptSubmit hook: setup adds it (and nothing
	// else), and Claude Code running it with the prompt's JSON on stdin
	// gets the recognition fragment as plain text.
	out, errOut, code = runIn(t, home, "setup", "--yes", "--prepare-turn-hook", "--library", lib)
	if code != 0 || !strings.Contains(out, "changed "+settings+" (Claude Code UserPromptSubmit hook)") || strings.Count(out, "\n  changed ") != 1 {
		t.Errorf("setup --prepare-turn-hook: exit %d\n%s\n%s", code, out, errOut)
	}
	hook = hookCommand(t, settings, "UserPromptSubmit")
	input = `{"session_id":"5d1c9a70-2b4e-4f7a-9c11-3e8d2a6b0f01","cwd":"` + ledgerline + `","hook_event_name":"UserPromptSubmit","prompt":"Is the ledgerline outbox relay idempotent?"}`
	out, errOut, code = runCmd(t, home, input, "/bin/sh", "-c", hook)
	if code != 0 || errOut != "" || !strings.HasPrefix(out, "Bourdon recognition context\n") ||
		!strings.Contains(out, "- Ledgerline (project) via claude-code, codex, cursor: ") || !strings.Contains(out, "- Outbox relay (project) via claude-code: ") {
		t.Errorf("the UserPromptSubmit hook %q: exit %d, stderr %q, stdout:\n%s", hook, code, errOut, out)
	}

	// 9. doctor: everything wired, every export fresh, nothing failing.
	out, _, code = runIn(t, home, "doctor", "--library", lib)
	for _, want := range []string{"OK    manifest: 3 manifest(s) valid", "OK    export claude-code: ", "OK    export codex: ", "OK    export cursor: ",
		"OK    client claude-code.mcp: ", "OK    hook claude-code.session-end: ", "OK    hook claude-code.prepare-turn: ", "OK    client codex.mcp: ", "OK    client cursor.mcp: ", " 0 fail"} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor lacks %q:\n%s", want, out)
		}
	}
	if code != 0 {
		t.Errorf("doctor: exit %d\n%s", code, out)
	}
}
