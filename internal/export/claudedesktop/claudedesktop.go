// Package claudedesktop exports the two surfaces of the Claude desktop app
// that keep local state: its GUI Claude Code (claude-desktop-code, in
// claude-code-sessions/) and Co-Work, the local agent mode
// (claude-desktop-cowork, in local-agent-mode-sessions/). Both stores hold
// one JSON state file per conversation,
// <store>/<account>/<organisation>/local_<id>.json; a Co-Work run also has
// an audit transcript, local_<id>/audit.jsonl.
//
// Only recognition metadata is read: titles, the working directory and the
// folders a run was given (for project names), model, effort, permission
// mode, the number of enabled MCP tools, and, from the audit, the counts
// of the run's tools and skills and its turn count, cost and error flag.
// Conversation bodies, initial messages, answers, plans and the audit's
// messages and result text are never read into anything (a test plants
// sentinels in them).
package claudedesktop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/nativestore"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// surface is what differs between the two exporters.
type surface struct {
	id, label, store string
	narrative        string
	entityName       string // the surface's own entity
	entitySummary    string
	projectSummary   string
	untitled         string
	teamTag          string // the agent id, as a tag
	cowork           bool
	maxActions       int
	// health
	missingFix, emptyReason, emptyFix string
	countKey, extractedKey            string
}

var code = surface{
	id: "claude-desktop-code", label: "Claude Desktop · Code", store: "claude-code-sessions",
	narrative: "Claude desktop app, GUI Claude Code. Bourdon reads the metadata-only " +
		"per-conversation local state to surface recognition metadata -- title, " +
		"project, model, effort, capability counts -- never conversation content " +
		"-- so desktop Claude Code work is visible to other agents.",
	entityName:     "Claude Desktop Code",
	entitySummary:  "Claude desktop app GUI Claude Code surface (metadata-only federation).",
	projectSummary: "Project inferred from a Claude Desktop Code conversation cwd.",
	untitled:       "(untitled conversation)",
	teamTag:        "claude-desktop-code",
	maxActions:     6,
	missingFix: "Install the Claude desktop app and open a Claude Code conversation once. " +
		"Set BOURDON_CLAUDE_DESKTOP_DIR if the app stores state in a non-standard location.",
	emptyReason:  "No Claude Code conversations found under the store directory.",
	emptyFix:     "Open a Claude Code conversation in the Claude desktop app, then re-run `bourdon claude-desktop-code export`.",
	countKey:     "conversation_count",
	extractedKey: "conversations_extracted",
}

var cowork = surface{
	id: "claude-desktop-cowork", label: "Claude Desktop · Co-Work", store: "local-agent-mode-sessions",
	narrative: "Claude desktop app, Co-Work / local-agent mode. Bourdon reads the " +
		"per-run local state and audit transcript to surface recognition metadata " +
		"-- title, project, model, turn/cost scalars, capability counts -- never " +
		"conversation content -- so Co-Work runs are visible to other agents.",
	entityName:     "Claude Desktop Co-Work",
	entitySummary:  "Claude desktop app Co-Work / local-agent mode surface (metadata-only federation).",
	projectSummary: "Project inferred from a Claude Desktop Co-Work run cwd.",
	untitled:       "(untitled run)",
	teamTag:        "claude-desktop-cowork",
	cowork:         true,
	maxActions:     8,
	missingFix: "Install the Claude desktop app and run a Co-Work / local-agent session once. " +
		"Set BOURDON_CLAUDE_DESKTOP_DIR if the app stores state in a non-standard location.",
	emptyReason:  "No Co-Work runs found under the store directory.",
	emptyFix:     "Run a Co-Work / local-agent session in the Claude desktop app, then re-run `bourdon claude-desktop-cowork export`.",
	countKey:     "run_count",
	extractedKey: "runs_extracted",
}

// Exporter is one of the two desktop surfaces.
type Exporter struct{ s *surface }

// The two exporters.
var (
	Code   = Exporter{&code}
	Cowork = Exporter{&cowork}
)

const (
	maxStateBytes = 16 << 20
	maxAuditLines = 50_000
	maxProjects   = 6
	maxName       = 128
	// maxLineWarnings bounds the warnings of one audit file; the rest are
	// counted in one more.
	maxLineWarnings = 5
)

// projectHints are names the reference recognises anywhere in the paths
// (its authors' projects and the agents Bourdon federates).
var projectHints = []string{
	"ShipStable", "ILTT", "Prun", "PRUN", "OMNIvour", "Castmore", "Bourdon", "RADLAB", "CHIP",
	"Claude Brain", "Cursor", "Copilot", "Codex", "Cascade",
}

func (x Exporter) policy() *export.Policy {
	return &export.Policy{
		Default:     visibility.Team.String(),
		PrivateTags: export.PrivateTags(),
		TeamTags:    []string{"claude-desktop", x.s.teamTag, "agent-surface", "workspace"},
	}
}

// Info describes the agent.
func (x Exporter) Info() export.Info {
	return export.Info{ID: x.s.id, Type: "code-assistant", Label: x.s.label}
}

// Dir is the desktop app's directory: $BOURDON_CLAUDE_DESKTOP_DIR;
// else ~/Library/Application Support/Claude on macOS, %APPDATA%\Claude
// (else ~/AppData/Roaming/Claude) on Windows, ~/.config/Claude elsewhere.
func Dir(env *export.Env) string {
	if v := env.Var("BOURDON_CLAUDE_DESKTOP_DIR"); v != "" {
		return env.ExpandHome(v)
	}
	switch env.GOOS {
	case "darwin":
		return env.HomePath("Library", "Application Support", "Claude")
	case "windows":
		if v := env.Var("APPDATA"); v != "" {
			return filepath.Join(v, "Claude")
		}
		return env.HomePath("AppData", "Roaming", "Claude")
	}
	return env.HomePath(".config", "Claude")
}

func (x Exporter) storeDir(env *export.Env) string {
	return filepath.Join(Dir(env), x.s.store)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// Detect reports the surface's store.
func (x Exporter) Detect(env *export.Env) export.Presence {
	p := x.storeDir(env)
	return export.Presence{Path: p, Present: isDir(p)}
}

// stateFiles returns the files <store>/*/*/local_*.json, sorted.
func stateFiles(store string) []string {
	var out []string
	for _, acct := range subdirs(store) {
		for _, org := range subdirs(acct) {
			entries, _ := os.ReadDir(org)
			for _, e := range entries {
				n := e.Name()
				if strings.HasPrefix(n, "local_") && strings.HasSuffix(n, ".json") {
					if p := filepath.Join(org, n); isFile(p) {
						out = append(out, p)
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

func subdirs(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if p := filepath.Join(dir, e.Name()); isDir(p) {
			out = append(out, p)
		}
	}
	return out
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// conv is what one state file (and, for Co-Work, its audit) gives: the
// cached value of the unit.
type conv struct {
	Malformed  bool      `json:"malformed,omitempty"`
	ID         string    `json:"id"`
	Date       string    `json:"date"`
	At         time.Time `json:"at"`
	Cwd        string    `json:"cwd,omitempty"`
	Title      string    `json:"title"`
	Model      string    `json:"model,omitempty"`
	Effort     string    `json:"effort,omitempty"`
	Permission string    `json:"permission,omitempty"`
	MCPTools   int       `json:"mcp_tools,omitempty"`
	Projects   []string  `json:"projects,omitempty"`
	// From the Co-Work audit.
	Turns    *int             `json:"turns,omitempty"`
	Cost     *float64         `json:"cost,omitempty"`
	IsError  bool             `json:"is_error,omitempty"`
	Tools    int              `json:"tools,omitempty"`
	Skills   int              `json:"skills,omitempty"`
	Warnings []export.Warning `json:"warnings,omitempty"`
}

func (x Exporter) readUnit(c *export.Cache, path string) conv {
	files := []string{path}
	if x.s.cowork {
		files = append(files, auditPath(path))
	}
	fp, err := export.Stat(files...)
	if err != nil {
		return x.read(path)
	}
	v, _ := export.Cached(c, x.s.id+":"+path, fp, func() (conv, error) { return x.read(path), nil })
	return v
}

func auditPath(state string) string {
	return filepath.Join(strings.TrimSuffix(state, ".json"), "audit.jsonl")
}

// read reads one state file; a file that cannot be read, is not UTF-8, is
// not JSON or is not an object is malformed (counted, warned, skipped).
func (x Exporter) read(path string) conv {
	bad := func(format string, args ...any) conv {
		return conv{Malformed: true, Warnings: []export.Warning{{File: path, Msg: fmt.Sprintf(format, args...)}}}
	}
	f, err := os.Open(path)
	if err != nil {
		return bad("skipped: %v", err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxStateBytes+1))
	st, statErr := f.Stat()
	f.Close()
	switch {
	case err != nil:
		return bad("skipped: %v", err)
	case statErr != nil:
		return bad("skipped: %v", statErr)
	case len(data) > maxStateBytes:
		return bad("skipped: larger than %d bytes", maxStateBytes)
	case !utf8.Valid(data):
		return bad("skipped: not valid UTF-8")
	}
	var state map[string]json.RawMessage
	if err := json.Unmarshal(data, &state); err != nil || state == nil {
		if json.Valid(data) {
			return bad("skipped: not a JSON object")
		}
		return bad("skipped: not JSON")
	}

	c := conv{
		ID:         id(state["sessionId"], strings.TrimSuffix(filepath.Base(path), ".json")),
		Cwd:        label(state["cwd"], 300),
		Title:      cmpOr(label(state["title"], 160), x.s.untitled),
		Model:      label(state["model"], 80),
		Permission: label(state["permissionMode"], 40),
		MCPTools:   enabledTools(state["enabledMcpTools"]),
	}
	if !x.s.cowork {
		c.Effort = label(state["effort"], 40)
	}
	for _, key := range []string{"createdAt", "lastActivityAt"} {
		if at, ok := epoch(state[key]); ok {
			c.At, c.Date = at, at.Format(time.DateOnly)
			break
		}
	}
	if c.Date == "" {
		// No timestamp: the file's modification time is when the app last
		// wrote the conversation (the reference writes an empty date).
		c.At = st.ModTime().UTC()
		c.Date = c.At.Format(time.DateOnly)
	}
	for _, p := range projects(state) {
		if utf8.RuneCountInString(p) > maxName {
			c.Warnings = append(c.Warnings, export.Warning{File: path, Msg: fmt.Sprintf("a project name longer than %d characters is left out", maxName)})
			continue
		}
		c.Projects = append(c.Projects, p)
	}
	if x.s.cowork {
		c.audit(auditPath(path))
	}
	return c
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// scalar returns a JSON string, or a number's literal, as text; "" for
// anything else.
func scalar(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// id is a conversation's id: its sessionId, or the file's stem when that
// is missing, empty or zero.
func id(raw json.RawMessage, stem string) string {
	if zero := 0.0; json.Unmarshal(raw, &zero) == nil && zero == 0 {
		return stem
	}
	return cmpOr(scalar(raw), stem)
}

// label is the reference's display text of a state field: trimmed,
// battery A at limit code points, "" when empty.
func label(raw json.RawMessage, limit int) string {
	s := strings.TrimSpace(scalar(raw))
	if s == "" {
		return ""
	}
	return export.NativeText(s, limit)
}

// epoch reads a timestamp in seconds or, above 10^12, milliseconds: a JSON
// number or a numeric string, never a boolean.
func epoch(raw json.RawMessage) (time.Time, bool) {
	var f float64
	var s string
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
		return time.Time{}, false
	case json.Unmarshal(raw, &f) == nil:
	case json.Unmarshal(raw, &s) == nil:
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return time.Time{}, false
		}
		f = v
	default:
		return time.Time{}, false
	}
	if f > 1e12 {
		f /= 1000
	}
	// The years 1 to 9999, as Python's datetime allows.
	if math.IsNaN(f) || f < -62135596800 || f >= 253402300800 {
		return time.Time{}, false
	}
	return time.UnixMicro(int64(math.Round(f * 1e6))).UTC(), true
}

// enabledTools counts the values of enabledMcpTools that are exactly true
// (its keys, server ids and tool names, are never kept).
func enabledTools(raw json.RawMessage) int {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return 0
	}
	n := 0
	for _, v := range m {
		if bytes.Equal(v, []byte("true")) {
			n++
		}
	}
	return n
}

// projects infers project names from the working directory and the
// folders a run was given: their last path elements (either separator),
// deduplicated ignoring case, then every hint found in the paths, at most
// six.
func projects(state map[string]json.RawMessage) []string {
	var paths []string
	var cwd string
	if json.Unmarshal(state["cwd"], &cwd) == nil && strings.TrimSpace(cwd) != "" {
		paths = append(paths, cwd)
	}
	var folders []json.RawMessage
	if json.Unmarshal(state["userSelectedFolders"], &folders) == nil {
		for _, raw := range folders {
			var f string
			if json.Unmarshal(raw, &f) == nil && strings.TrimSpace(f) != "" {
				paths = append(paths, f)
			}
		}
	}
	var out []string
	seen := map[string]bool{}
	add := func(name string) {
		name = strings.TrimSpace(name)
		if k := strings.ToLower(name); name != "" && !seen[k] {
			seen[k] = true
			out = append(out, name)
		}
	}
	for _, p := range paths {
		add(base(p))
	}
	hay := strings.ToLower(strings.Join(paths, " "))
	for _, h := range projectHints {
		if strings.Contains(hay, strings.ToLower(h)) {
			add(h)
		}
	}
	if len(out) > maxProjects {
		out = out[:maxProjects]
	}
	return out
}

// base returns the last element of a path written with / or \ (a desktop
// state written on Windows names its folders with backslashes), or "" for
// a root, "." or "..".
func base(p string) string {
	parts := strings.FieldsFunc(strings.TrimSpace(p), func(r rune) bool { return r == '/' || r == '\\' })
	for i := len(parts) - 1; i >= 0; i-- {
		switch parts[i] {
		case ".":
			continue
		case "..":
			return ""
		}
		if i == 0 && len(parts[i]) == 2 && parts[i][1] == ':' {
			return "" // a drive, C:
		}
		return strings.TrimSpace(parts[i])
	}
	return ""
}

// auditRecord holds the only fields of an audit line that are looked at;
// every other field (messages, results, tool inputs) is skipped by the
// decoder without being kept.
type auditRecord struct {
	Type    json.RawMessage `json:"type"`
	Subtype json.RawMessage `json:"subtype"`
	Tools   json.RawMessage `json:"tools"`
	Skills  json.RawMessage `json:"skills"`
	Turns   json.RawMessage `json:"num_turns"`
	Cost    json.RawMessage `json:"total_cost_usd"`
	IsError json.RawMessage `json:"is_error"`
}

var errEnough = errors.New("enough lines")

// audit reads the safe scalars of a run's audit transcript: the tool and
// skill counts of its system/init records and the turn count, cost and
// error flag of its result records (the last one of each wins). A missing
// audit is no scalars, not an error.
func (c *conv) audit(path string) {
	bad := 0
	warn := func(line int, msg string) {
		if bad++; bad <= maxLineWarnings {
			c.Warnings = append(c.Warnings, export.Warning{File: path, Line: line, Msg: msg})
		}
	}
	var turns, cost, isError json.RawMessage
	_, err := nativestore.FileLines(path, 0, func(n int, line []byte) error {
		if n > maxAuditLines {
			return errEnough
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			return nil
		}
		var r auditRecord
		if json.Unmarshal(line, &r) != nil {
			warn(n, "line skipped: not a JSON object")
			return nil
		}
		var typ, sub string
		_ = json.Unmarshal(r.Type, &typ)
		_ = json.Unmarshal(r.Subtype, &sub)
		switch {
		case typ == "system" && sub == "init":
			if n, ok := listLen(r.Tools); ok {
				c.Tools = n
			}
			if n, ok := listLen(r.Skills); ok {
				c.Skills = n
			}
		case typ == "result":
			for _, f := range []struct {
				dst *json.RawMessage
				v   json.RawMessage
			}{{&turns, r.Turns}, {&cost, r.Cost}, {&isError, r.IsError}} {
				if f.v != nil {
					*f.dst = f.v
				}
			}
		}
		return nil
	})
	switch {
	case errors.Is(err, os.ErrNotExist), errors.Is(err, errEnough), err == nil:
	default:
		c.Warnings = append(c.Warnings, export.Warning{File: path, Msg: "skipped: " + err.Error()})
	}
	if bad > maxLineWarnings {
		c.Warnings = append(c.Warnings, export.Warning{File: path, Msg: fmt.Sprintf("%d more bad lines skipped", bad-maxLineWarnings)})
	}
	// An integer turn count, a numeric cost, a boolean error flag; other
	// values count as none.
	if n, err := strconv.Atoi(string(turns)); err == nil {
		c.Turns = &n
	}
	var v any
	if json.Unmarshal(cost, &v) == nil {
		if f, ok := v.(float64); ok {
			c.Cost = &f
		}
	}
	c.IsError = bytes.Equal(isError, []byte("true"))
}

func listLen(raw json.RawMessage) (int, bool) {
	var l []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &l) != nil {
		return 0, false
	}
	return len(l), true
}

// keyActions returns a conversation's key actions, as the reference builds
// them.
func (x Exporter) keyActions(c conv) []string {
	a := []string{export.NativeText(c.Title, 160)}
	if c.Model != "" {
		a = append(a, export.NativeText("model: "+c.Model, 120))
	}
	if c.Effort != "" {
		a = append(a, export.NativeText("effort: "+c.Effort, 60))
	}
	if c.Permission != "" {
		a = append(a, export.NativeText("permission: "+c.Permission, 80))
	}
	if c.Turns != nil {
		a = append(a, fmt.Sprintf("%d turns", *c.Turns))
	}
	if c.Cost != nil {
		// Two decimals, as the reference writes it. A cost so large that
		// its text breaks the schema's bound on a key action (a corrupt
		// audit's 1e300 is 300 digits) counts as none, as a cost of the
		// wrong type does.
		if cost := "$" + strconv.FormatFloat(*c.Cost, 'f', 2, 64); len(cost) <= export.MaxKeyAction {
			a = append(a, cost)
		}
	}
	if c.IsError {
		a = append(a, "error")
	}
	if c.MCPTools > 0 {
		a = append(a, fmt.Sprintf("mcp-tools: %d", c.MCPTools))
	}
	if len(a) > x.s.maxActions {
		a = a[:x.s.maxActions]
	}
	return a
}

type collected struct {
	store     string
	files     []string
	convs     []conv
	malformed int
	warnings  []export.Warning
}

func (x Exporter) collect(env *export.Env, cache *export.Cache) collected {
	s := collected{store: x.storeDir(env)}
	s.files = stateFiles(s.store)
	for _, f := range s.files {
		c := x.readUnit(cache, f)
		s.warnings = append(s.warnings, c.Warnings...)
		if c.Malformed {
			s.malformed++
			continue
		}
		s.convs = append(s.convs, c)
	}
	return s
}

// Export reads the surface's store.
func (x Exporter) Export(_ context.Context, env *export.Env, opts export.Options) (*export.Output, error) {
	store := x.storeDir(env)
	if !isDir(store) {
		return nil, export.NotInstalled("%s store not found at %s", x.s.entityName, store)
	}
	s := x.collect(env, opts.Cache)
	var convs []conv
	for _, c := range s.convs {
		if opts.Keeps(c.At, c.Date) {
			convs = append(convs, c)
		}
	}
	// Newest first, then by id, both descending, as the reference sorts.
	slices.SortStableFunc(convs, func(a, b conv) int {
		if a.Date != b.Date {
			return strings.Compare(b.Date, a.Date)
		}
		return strings.Compare(b.ID, a.ID)
	})

	out := &export.Output{
		SpecVersion: "0.1",
		Agent: export.Agent{
			ID: x.s.id, Type: "code-assistant", Instance: env.Instance(),
			SpecVersionCompat: "0.1", RoleNarrative: x.s.narrative,
		},
		Policy:   x.policy(),
		Sources:  []export.Source{{Kind: x.s.store, Path: store}},
		Warnings: s.warnings,
	}
	var maxMCP, maxTools, maxSkills int
	lastSeen := ""
	for _, c := range convs {
		maxMCP, maxTools, maxSkills = max(maxMCP, c.MCPTools), max(maxTools, c.Tools), max(maxSkills, c.Skills)
		lastSeen = max(lastSeen, c.Date)
		out.Sessions = append(out.Sessions, export.Session{
			Date: c.Date, Cwd: c.Cwd, ProjectFocus: c.Projects, KeyActions: x.keyActions(c), Visibility: visibility.Team.String(),
		})
	}
	out.Capabilities = []string{x.s.id, fmt.Sprintf("mcp-tools:%d", maxMCP)}
	if x.s.cowork && maxTools > 0 {
		out.Capabilities = append(out.Capabilities, fmt.Sprintf("tools:%d", maxTools))
	}
	if x.s.cowork && maxSkills > 0 {
		out.Capabilities = append(out.Capabilities, fmt.Sprintf("skills:%d", maxSkills))
	}

	out.Entities = []export.Entity{{
		Name: x.s.entityName, Type: "agent-surface", Summary: export.NativeText(x.s.entitySummary, 260),
		LastTouched: lastSeen, Tags: []string{"claude-desktop", x.s.teamTag, "agent-surface"}, Visibility: visibility.Team.String(),
	}}
	seen := map[string]bool{x.s.entityName: true}
	for _, c := range convs {
		for _, p := range c.Projects {
			if !seen[p] {
				seen[p] = true
				out.Entities = append(out.Entities, export.Entity{
					Name: p, Type: "project", Summary: x.s.projectSummary, LastTouched: c.Date,
					Tags: []string{"claude-desktop", x.s.teamTag, "project"}, Visibility: visibility.Team.String(),
				})
			}
		}
	}
	out.Entities = out.Policy.StampEntities(out.Entities)
	out.Sessions = out.Policy.StampSessions(out.Sessions)
	return out, nil
}

// Health inspects the surface's store.
func (x Exporter) Health(_ context.Context, env *export.Env) export.Health {
	store := x.storeDir(env)
	if !isDir(store) {
		return export.Health{
			Status:  export.StatusBlocked,
			Reason:  fmt.Sprintf("%s store not found at %s.", x.s.entityName, store),
			Details: []export.Detail{{Key: "store_dir", Value: store}},
			Fix:     x.s.missingFix,
		}
	}
	s := x.collect(env, nil)
	if len(s.files) == 0 {
		return export.Health{
			Status:  export.StatusDegraded,
			Reason:  x.s.emptyReason,
			Details: []export.Detail{{Key: "store_dir", Value: store}},
			Fix:     x.s.emptyFix,
		}
	}
	d := []export.Detail{
		{Key: "store_dir", Value: store},
		{Key: x.s.countKey, Value: len(s.files)},
		{Key: x.s.extractedKey, Value: len(s.convs)},
		{Key: "malformed_records", Value: s.malformed},
	}
	if x.s.cowork {
		n := 0
		for _, c := range s.convs {
			if c.Turns != nil {
				n++
			}
		}
		d = append(d, export.Detail{Key: "runs_with_scalars", Value: n})
	}
	return export.Health{Status: export.StatusOK, Details: d}
}
