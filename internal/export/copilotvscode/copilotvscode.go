// Package copilotvscode exports GitHub Copilot Chat in VS Code from VS
// Code's workspace storage: every workspace's GitHub.copilot-chat folder
// holds chat transcripts (JSON Lines event streams, transcripts/*.jsonl)
// and the memory tool's Markdown notes (memory-tool/memories/**/*.md).
//
// Transcripts are streamed, and only their first 500 lines are read, as
// in the reference. Each transcript and each memory file is one unit of
// the incremental cache. A line that is not a JSON object is skipped with
// a warning naming the file and line.
package copilotvscode

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/nativestore"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// Exporter is the copilot-vscode exporter.
type Exporter struct {
	// WSLUsers is where WSL mounts the Windows user directories, searched
	// on Linux for a Windows VS Code's storage; "" means /mnt/c/Users.
	WSLUsers string
}

const (
	agentID   = "copilot-vscode"
	agentType = "code-assistant"
	label     = "GitHub Copilot · VS Code"
	chatDir   = "GitHub.copilot-chat"

	roleNarrative = "VS Code integrated Copilot Chat — the GUI surface for inline completion, " +
		"chat, plan mode, ask mode, and explore mode. Persists per-workspace " +
		"transcripts and repo-scoped memory locally. The most widely-used Copilot " +
		"surface by session count."

	maxEvents      = 500 // lines read per transcript
	maxMessage     = 200 // code points kept of the first user message
	maxCommand     = 100 // code points of it searched for a slash command
	maxCommands    = 10
	maxSessions    = 100 // the reference has no cap; the schema allows 500
	maxActions     = 6
	maxActionChars = 256
	maxSummary     = 260
	maxName        = 128
	maxBullets     = 3
	// maxLineWarnings bounds the warnings of one transcript; the rest
	// are counted in one more.
	maxLineWarnings = 5
)

var capabilities = []string{
	"inline-completion", "chat", "plan-mode", "ask-mode", "explore-mode", "memory-tool", "workspace-scoped",
}

func policy() *export.Policy {
	return &export.Policy{
		Default:     visibility.Team.String(),
		PrivateTags: export.PrivateTags(),
		TeamTags:    []string{"copilot-vscode", "copilot", "vscode", "workspace"},
	}
}

// Info describes the agent.
func (Exporter) Info() export.Info {
	return export.Info{ID: agentID, Type: agentType, Label: label}
}

// storage returns VS Code's workspaceStorage directory:
// $COPILOT_VSCODE_STORAGE; else, on Windows, %APPDATA%\Code\User\
// workspaceStorage; on macOS, ~/Library/Application Support/Code/User/
// workspaceStorage; on Linux, a Windows user's storage under WSL's
// /mnt/c/Users (users in name order) when one exists, else
// $XDG_CONFIG_HOME (or ~/.config)/Code/User/workspaceStorage.
func (x Exporter) storage(env *export.Env) string {
	if v := env.Var("COPILOT_VSCODE_STORAGE"); v != "" {
		return env.ExpandHome(v)
	}
	tail := []string{"Code", "User", "workspaceStorage"}
	switch env.GOOS {
	case "windows":
		base := env.Var("APPDATA")
		if base == "" {
			base = env.HomePath("AppData", "Roaming")
		}
		return filepath.Join(append([]string{base}, tail...)...)
	case "darwin":
		return env.HomePath(append([]string{"Library", "Application Support"}, tail...)...)
	}
	if env.GOOS == "linux" {
		users := cmp.Or(x.WSLUsers, "/mnt/c/Users")
		if entries, err := os.ReadDir(users); err == nil {
			for _, u := range entries {
				p := filepath.Join(append([]string{users, u.Name(), "AppData", "Roaming"}, tail...)...)
				if isDir(p) {
					return p
				}
			}
		}
	}
	base := env.Var("XDG_CONFIG_HOME")
	if base == "" {
		base = env.HomePath(".config")
	}
	return filepath.Join(append([]string{base}, tail...)...)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// Detect reports the workspace storage the export reads.
func (x Exporter) Detect(env *export.Env) export.Presence {
	p := x.storage(env)
	return export.Presence{Path: p, Present: isDir(p)}
}

// chatDirs returns the GitHub.copilot-chat folders of every workspace,
// in workspace order.
func chatDirs(storage string) []string {
	entries, err := os.ReadDir(storage)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if p := filepath.Join(storage, e.Name(), chatDir); isDir(p) {
			out = append(out, p)
		}
	}
	return out
}

// transcriptFiles returns the transcripts of a chat folder, sorted.
func transcriptFiles(chat string) []string {
	entries, err := os.ReadDir(filepath.Join(chat, "transcripts"))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".jsonl") && e.Type().IsRegular() {
			out = append(out, filepath.Join(chat, "transcripts", e.Name()))
		}
	}
	return out
}

// memoryFiles returns the memory tool's Markdown files of a chat folder,
// sorted, each with its name: its path under memories/ without the
// extension, with forward slashes.
func memoryFiles(chat string) (paths, names []string) {
	root := filepath.Join(chat, "memory-tool", "memories")
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil
		}
		paths = append(paths, p)
		names = append(names, strings.TrimSuffix(filepath.ToSlash(rel), ".md"))
		return nil
	})
	return paths, names
}

// transcript is what one transcript file gives; it is the cached value of
// the file.
type transcript struct {
	Empty    bool   `json:"empty,omitempty"` // no line at all: no session
	Start    string `json:"start,omitempty"`
	Producer string `json:"producer,omitempty"`
	Version  string `json:"version,omitempty"`
	First    string `json:"first,omitempty"` // the first user message, cut to 200
	Turns    int    `json:"turns,omitempty"`
	// Modified is the file's modification time, the session's date when
	// the transcript has no start time.
	Modified time.Time        `json:"modified"`
	Warnings []export.Warning `json:"warnings,omitempty"`
	events   int
}

var errEnough = errors.New("enough lines")

// readTranscript streams the first 500 lines of a transcript (counted from
// its first non-blank line, as the reference strips the text first).
func readTranscript(path string) transcript {
	var t transcript
	bad := 0
	warn := func(line int, format string, args ...any) {
		if bad++; line == 0 || bad <= maxLineWarnings {
			t.Warnings = append(t.Warnings, export.Warning{File: path, Line: line, Msg: fmt.Sprintf(format, args...)})
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		warn(0, "skipped: %v", err)
		t.Empty = true
		return t
	}
	t.Modified = st.ModTime().UTC()
	first := 0
	long, err := nativestore.FileLines(path, 0, func(n int, line []byte) error {
		line = bytes.TrimSpace(line)
		if first == 0 {
			if len(line) == 0 {
				return nil
			}
			first = n
		}
		if n-first >= maxEvents {
			return errEnough
		}
		if len(line) == 0 {
			return nil
		}
		t.event(line, func(format string, args ...any) { warn(n, format, args...) })
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		warn(0, "skipped: %v", err)
		return transcript{Empty: true, Warnings: t.Warnings}
	}
	for _, n := range long {
		if first == 0 || n-first < maxEvents {
			warn(n, "line skipped: longer than %d bytes", nativestore.MaxLine)
		}
	}
	if bad > maxLineWarnings {
		warn(0, "%d more bad lines skipped", bad-maxLineWarnings)
	}
	// A transcript with no event at all (empty, or nothing but bad lines)
	// gives no session.
	t.Empty = t.events == 0
	return t
}

// event reads one transcript line. Bytes that are not UTF-8 are replaced,
// as the reference reads the file.
func (t *transcript) event(line []byte, warn func(string, ...any)) {
	var ev map[string]json.RawMessage
	if err := json.Unmarshal(line, &ev); err != nil {
		if json.Valid(line) {
			warn("line skipped: not a JSON object")
		} else {
			warn("line skipped: not JSON")
		}
		return
	}
	var data map[string]json.RawMessage
	if raw := ev["data"]; len(raw) > 0 && raw[0] == '{' {
		_ = json.Unmarshal(raw, &data) // the line parsed, so does its data
	} else if len(raw) > 0 {
		// A value that is false in Python's sense reads as no data, as in
		// the reference; any other one is not data.
		var v any
		if json.Unmarshal(raw, &v) == nil && truthy(v) {
			warn("line skipped: its data is not a JSON object")
			return
		}
	}
	t.events++
	var typ string
	_ = json.Unmarshal(ev["type"], &typ)
	switch typ {
	case "session.start":
		t.Start = str(data["startTime"], false)
		t.Producer = str(data["producer"], true)
		t.Version = str(data["copilotVersion"], true)
	case "user.message":
		if c := str(data["content"], false); c != "" && t.First == "" {
			t.First = cutRunes(c, maxMessage)
		}
	case "assistant.turn_end":
		t.Turns++
	}
}

// truthy reports whether a decoded JSON value is true in Python's sense.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case float64:
		return x != 0
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	}
	return true
}

// str returns a JSON string's text, or, when numbers is set, a number's
// literal; anything else is "".
func str(raw json.RawMessage, numbers bool) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if numbers && json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

func cutRunes(s string, n int) string {
	i := 0
	for range n {
		if i >= len(s) {
			break
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

// memory is what one memory file gives; it is the cached value of the file.
type memory struct {
	Blank    bool             `json:"blank,omitempty"`
	Summary  string           `json:"summary,omitempty"`
	Modified time.Time        `json:"modified"`
	Warnings []export.Warning `json:"warnings,omitempty"`
}

// readMemory streams a memory file until it has its first three bullets.
func readMemory(path string) memory {
	m := memory{Blank: true}
	st, err := os.Stat(path)
	if err != nil {
		m.Warnings = append(m.Warnings, export.Warning{File: path, Msg: "skipped: " + err.Error()})
		return m
	}
	m.Modified = st.ModTime().UTC()
	var bullets []string
	long, err := nativestore.FileLines(path, 0, func(_ int, line []byte) error {
		s := strings.TrimSpace(strings.ToValidUTF8(string(line), "\uFFFD"))
		if s != "" {
			m.Blank = false
		}
		if rest, ok := strings.CutPrefix(s, "- "); ok {
			bullets = append(bullets, strings.TrimSpace(rest))
			if len(bullets) == maxBullets {
				return errEnough
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return memory{Blank: true, Warnings: []export.Warning{{File: path, Msg: "skipped: " + err.Error()}}}
	}
	for _, n := range long {
		m.Blank = false
		m.Warnings = append(m.Warnings, export.Warning{File: path, Line: n, Msg: fmt.Sprintf("line skipped: longer than %d bytes", nativestore.MaxLine)})
	}
	if len(bullets) > 0 {
		m.Summary = export.Bounded(export.NativeText(strings.Join(bullets, "; "), 0), maxSummary)
	}
	return m
}

// unit reads through the cache.
func unit[T any](c *export.Cache, kind, path string, read func(string) T) T {
	fp, err := export.Stat(path)
	if err != nil {
		return read(path)
	}
	v, _ := export.Cached(c, "copilot-vscode:"+kind+":"+path, fp, func() (T, error) { return read(path), nil })
	return v
}

type scanned struct {
	chats    []string
	parsed   []transcript
	memPaths []string
	memNames []string
	memories []memory
}

func (x Exporter) scan(env *export.Env, c *export.Cache) scanned {
	s := scanned{chats: chatDirs(x.storage(env))}
	for _, chat := range s.chats {
		for _, p := range transcriptFiles(chat) {
			s.parsed = append(s.parsed, unit(c, "transcript", p, readTranscript))
		}
		paths, names := memoryFiles(chat)
		for i, p := range paths {
			s.memPaths = append(s.memPaths, p)
			s.memNames = append(s.memNames, names[i])
			s.memories = append(s.memories, unit(c, "memory", p, readMemory))
		}
	}
	return s
}

// dated is a transcript with its sort key: its start time, else its
// modification time.
type dated struct {
	key string
	t   transcript
}

// Export reads every workspace's Copilot Chat data.
func (x Exporter) Export(_ context.Context, env *export.Env, opts export.Options) (*export.Output, error) {
	storage := x.storage(env)
	if !isDir(storage) {
		return nil, export.NotInstalled("VS Code workspaceStorage not found at %s", storage)
	}
	s := x.scan(env, opts.Cache)
	if len(s.chats) == 0 {
		return nil, export.NotInstalled("no %s data under %s", chatDir, storage)
	}
	out := &export.Output{
		SpecVersion: "0.1",
		Agent: export.Agent{
			ID: agentID, Type: agentType, Instance: env.Instance(),
			SpecVersionCompat: ">=0.1", RoleNarrative: roleNarrative,
		},
		Capabilities: slices.Clone(capabilities),
		Policy:       policy(),
		Sources:      []export.Source{{Kind: "workspaceStorage", Path: storage}},
	}

	var all []dated
	for _, t := range s.parsed {
		out.Warnings = append(out.Warnings, t.Warnings...)
		if t.Empty {
			continue
		}
		key := t.Start
		if export.Day(key) == "" {
			key = t.Modified.Format(time.RFC3339Nano)
		}
		all = append(all, dated{key, t})
	}
	// Newest first; the transcripts' path order breaks ties.
	slices.SortStableFunc(all, func(a, b dated) int { return strings.Compare(b.key, a.key) })
	for _, d := range all {
		row, at := session(d.t)
		if opts.Keeps(at, row.Date) && len(out.Sessions) < maxSessions {
			out.Sessions = append(out.Sessions, row)
		}
	}

	seen := map[string]bool{}
	add := func(e export.Entity) {
		if !seen[e.Name] {
			seen[e.Name] = true
			out.Entities = append(out.Entities, e)
		}
	}
	// Memory files: one entity per name, where the name first appears;
	// when several workspaces have it, the most recently modified file's
	// summary is the one kept.
	best := map[string]int{}
	for i, m := range s.memories {
		out.Warnings = append(out.Warnings, m.Warnings...)
		if m.Blank {
			continue
		}
		name := s.memNames[i]
		if utf8.RuneCountInString(name) > maxName {
			out.Warn(s.memPaths[i], 0, "skipped: its name is longer than %d characters", maxName)
			continue
		}
		if j, ok := best[name]; !ok || m.Modified.After(s.memories[j].Modified) {
			best[name] = i
		}
	}
	for _, name := range s.memNames {
		if j, ok := best[name]; ok {
			add(export.Entity{
				Name: name, Type: "vscode-memory", Summary: s.memories[j].Summary,
				Tags: []string{"copilot-vscode", "memory-tool", "repo-memory"}, Visibility: visibility.Team.String(),
			})
		}
	}
	for _, e := range commands(all) {
		add(e)
	}
	out.Entities = out.Policy.StampEntities(out.Entities)
	out.Sessions = out.Policy.StampSessions(out.Sessions)
	return out, nil
}

// session returns the session row of a transcript and its instant (zero
// when only its day is known).
func session(t transcript) (export.Session, time.Time) {
	day, at := export.Day(t.Start), export.Instant(t.Start)
	if day == "" {
		day, at = t.Modified.Format(time.DateOnly), t.Modified
	}
	var actions []string
	if t.First != "" {
		// A message of spaces is still an action (empty once trimmed),
		// as in the reference.
		actions = append(actions, export.Bounded(export.NativeText(t.First, 0), maxActionChars))
	}
	if t.Turns > 0 {
		actions = append(actions, fmt.Sprintf("turns: %d", t.Turns))
	}
	if t.Version != "" {
		actions = append(actions, export.Bounded("copilot: "+t.Version, maxActionChars))
	}
	if t.Producer != "" {
		actions = append(actions, export.Bounded("mode: "+t.Producer, maxActionChars))
	}
	if len(actions) > maxActions {
		actions = actions[:maxActions]
	}
	return export.Session{Date: day, KeyActions: actions, Visibility: visibility.Team.String()}, at
}

// commands counts the slash commands that open the transcripts (all of
// them, whatever --since says, as in the reference) and returns the ten
// most used as entities, ties in the order first seen.
func commands(all []dated) []export.Entity {
	var order []string
	counts := map[string]int{}
	for _, d := range all {
		cmd := slashCommand(cutRunes(d.t.First, maxCommand))
		if cmd == "" {
			continue
		}
		if counts[cmd] == 0 {
			order = append(order, cmd)
		}
		counts[cmd]++
	}
	slices.SortStableFunc(order, func(a, b string) int { return counts[b] - counts[a] })
	if len(order) > maxCommands {
		order = order[:maxCommands]
	}
	var out []export.Entity
	for _, cmd := range order {
		out = append(out, export.Entity{
			Name: "copilot-command:" + cmd, Type: "vscode-capability",
			Summary: fmt.Sprintf("VS Code Copilot command used %d time(s).", counts[cmd]),
			Tags:    []string{"copilot-vscode", "capability"}, Visibility: visibility.Team.String(),
		})
	}
	return out
}

// slashCommand returns the command a message opens with ("fix" for
// "/fix the loop"), or "".
func slashCommand(msg string) string {
	rest, ok := strings.CutPrefix(msg, "/")
	if !ok {
		return ""
	}
	if i := strings.IndexFunc(rest, unicode.IsSpace); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// Health inspects the workspace storage.
func (x Exporter) Health(_ context.Context, env *export.Env) export.Health {
	storage := x.storage(env)
	if !isDir(storage) {
		return export.Health{
			Status:  export.StatusBlocked,
			Reason:  fmt.Sprintf("VS Code workspaceStorage not found at %s.", storage),
			Details: []export.Detail{{Key: "expected_path", Value: storage}},
			Fix:     "Install VS Code and the GitHub Copilot Chat extension. Set COPILOT_VSCODE_STORAGE if VS Code stores data elsewhere.",
		}
	}
	s := x.scan(env, nil)
	if len(s.chats) == 0 {
		return export.Health{
			Status:  export.StatusDegraded,
			Reason:  "No Copilot Chat data found in any workspace.",
			Details: []export.Detail{{Key: "workspace_storage", Value: storage}},
			Fix:     "Open VS Code and start a Copilot Chat conversation, then run `bourdon export-all`.",
		}
	}
	transcripts, memories, turns := 0, 0, 0
	for _, t := range s.parsed {
		if !t.Empty {
			transcripts++
			turns += t.Turns
		}
	}
	for _, m := range s.memories {
		if !m.Blank {
			memories++
		}
	}
	return export.Health{
		Status: export.StatusOK,
		Details: []export.Detail{
			{Key: "workspace_storage", Value: storage},
			{Key: "workspace_count", Value: len(s.chats)},
			{Key: "transcript_count", Value: transcripts},
			{Key: "memory_file_count", Value: memories},
			{Key: "total_turns", Value: turns},
		},
	}
}
