// Package copilotcli exports GitHub Copilot CLI, the terminal agent, from
// its SQLite session store (~/.copilot/session-store.db, schema v4): the
// newest sessions with their checkpoints, turns, refs and files, the
// repositories they ran in, and the dynamic-context items the CLI learned.
//
// The store is read through a snapshot (nativestore.OpenSQLite), so rows
// the running CLI keeps in the -wal are seen and the store is never
// touched. A row that cannot be read is skipped with a warning; the rest
// of the export goes on.
package copilotcli

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
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

// Exporter is the copilot-cli exporter.
type Exporter struct{}

const (
	agentID   = "copilot-cli"
	agentType = "code-assistant"
	label     = "GitHub Copilot CLI"
	dbName    = "session-store.db"

	roleNarrative = "Terminal-native Copilot agent with full filesystem + tool access. " +
		"Runs multi-turn sessions with checkpoints, file edits, and git " +
		"operations. The CLI surface has the deepest tool integration of " +
		"all Copilot surfaces — shell, grep, edit, git — and persists " +
		"rich session history locally in SQLite."

	repoSummary = "Repository worked on via Copilot CLI."

	maxRead        = 200 // sessions read; all of them feed the entities
	maxSessions    = 100 // sessions written
	maxContext     = 50
	maxFiles       = 20
	maxActions     = 6
	maxActionChars = 256 // the L5 schema's bound (the reference cuts at 280)
	maxSummary     = 260
	maxName        = 128 // the L5 schema's bound on an entity name
	maxCwd         = 512
)

var capabilities = []string{
	"terminal-agent", "file-edit", "shell-execution", "git-operations",
	"multi-turn-sessions", "checkpoints", "dynamic-context",
}

func policy() *export.Policy {
	return &export.Policy{
		Default:     visibility.Team.String(),
		PrivateTags: export.PrivateTags(),
		TeamTags:    []string{"copilot-cli", "copilot", "terminal", "workspace"},
	}
}

// Info describes the agent.
func (Exporter) Info() export.Info {
	return export.Info{ID: agentID, Type: agentType, Label: label}
}

// dir is the CLI's directory: $COPILOT_CLI_HOME, else ~/.copilot.
func dir(env *export.Env) string {
	if v := env.Var("COPILOT_CLI_HOME"); v != "" {
		return env.ExpandHome(v)
	}
	return env.HomePath(".copilot")
}

// Detect reports the CLI's directory.
func (Exporter) Detect(env *export.Env) export.Presence {
	d := dir(env)
	st, err := os.Stat(d)
	return export.Presence{Path: d, Present: err == nil && st.IsDir()}
}

// store is what one read of the database derives; it is what the cache
// keeps for the database and its -wal.
type store struct {
	Sessions []session        `json:"sessions"`
	Context  []export.Entity  `json:"context"`
	Warnings []export.Warning `json:"warnings,omitempty"`
}

type session struct {
	At   time.Time      `json:"at"`
	Repo string         `json:"repo,omitempty"`
	Row  export.Session `json:"row"`
}

// Export reads the session store.
func (Exporter) Export(ctx context.Context, env *export.Env, opts export.Options) (*export.Output, error) {
	path := filepath.Join(dir(env), dbName)
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return nil, export.NotInstalled("Copilot CLI session-store.db not found at %s", path)
	}
	fp, err := export.Stat(path, path+"-wal")
	if err != nil {
		return nil, err
	}
	s, err := export.Cached(opts.Cache, "copilot-cli:"+path, fp, func() (store, error) { return read(ctx, path) })
	if err != nil {
		return nil, err
	}

	out := &export.Output{
		SpecVersion: "0.1",
		Agent: export.Agent{
			ID: agentID, Type: agentType, Instance: env.Instance(),
			SpecVersionCompat: ">=0.1", RoleNarrative: roleNarrative,
		},
		Capabilities: slices.Clone(capabilities),
		Policy:       policy(),
		Sources:      []export.Source{{Kind: dbName, Path: path}},
		Warnings:     slices.Clone(s.Warnings),
	}
	var kept []session
	for _, ss := range s.Sessions {
		if opts.Keeps(ss.At, ss.Row.Date) {
			kept = append(kept, ss)
		}
	}
	seen := map[string]bool{}
	for i, ss := range kept {
		if i < maxSessions {
			out.Sessions = append(out.Sessions, ss.Row)
		}
		if ss.Repo != "" && !seen[ss.Repo] {
			seen[ss.Repo] = true
			out.Entities = append(out.Entities, export.Entity{
				Name: ss.Repo, Type: "project", Summary: repoSummary, LastTouched: ss.Row.Date,
				Tags: []string{"copilot-cli", "project"}, Visibility: visibility.Team.String(),
			})
		}
	}
	for _, e := range s.Context {
		if !seen[e.Name] {
			seen[e.Name] = true
			out.Entities = append(out.Entities, e)
		}
	}
	out.Entities = out.Policy.StampEntities(out.Entities)
	out.Sessions = out.Policy.StampSessions(out.Sessions)
	return out, nil
}

// read opens a snapshot of the database and derives its rows. A database
// that cannot be opened, or whose sessions table cannot be queried, is an
// error: there is nothing else to read.
func read(ctx context.Context, path string) (store, error) {
	db, err := nativestore.OpenSQLite(ctx, path)
	if err != nil {
		return store{}, err
	}
	defer db.Close()
	r := &reader{ctx: ctx, db: db, path: path}
	// The reference never looks at the version; a store of another one is
	// still read with the version 4 layout, and said so.
	var version sql.NullInt64
	if db.QueryRowContext(ctx, "SELECT MAX(version) FROM schema_version").Scan(&version) == nil && version.Valid && version.Int64 != 4 {
		r.warn("schema version %d, read as version 4", version.Int64)
	}
	sessions, err := r.sessions()
	if err != nil {
		return store{}, fmt.Errorf("%s: reading the sessions table: %w", path, err)
	}
	return store{Sessions: sessions, Context: r.context(), Warnings: r.warnings}, nil
}

type reader struct {
	ctx      context.Context
	db       *nativestore.DB
	path     string
	warnings []export.Warning
	failed   map[string]bool // tables already reported as unreadable
}

func (r *reader) warn(format string, args ...any) {
	r.warnings = append(r.warnings, export.Warning{File: r.path, Msg: fmt.Sprintf(format, args...)})
}

// tableFailed reports a table that cannot be queried, once.
func (r *reader) tableFailed(table string, err error) {
	if r.failed == nil {
		r.failed = map[string]bool{}
	}
	if !r.failed[table] {
		r.failed[table] = true
		r.warn("table %s skipped: %v", table, err)
	}
}

type rawSession struct {
	id, cwd, repo, summary, created, updated string
}

var sessionColumns = []string{"id", "cwd", "repository", "summary", "created_at", "updated_at"}

func (r *reader) sessions() ([]session, error) {
	// The reference's query: ties keep the table's order, which SQLite's
	// sorter preserves (the same file gives the same order every time).
	rows, err := r.db.QueryContext(r.ctx,
		"SELECT "+strings.Join(sessionColumns, ", ")+" FROM sessions "+
			"ORDER BY created_at DESC LIMIT ?", maxRead)
	if err != nil {
		return nil, err
	}
	var raws []rawSession
	for n := 1; rows.Next(); n++ {
		var c [6]sql.NullString
		if err := rows.Scan(&c[0], &c[1], &c[2], &c[3], &c[4], &c[5]); err != nil {
			r.warn("session row %d skipped: %v", n, err)
			continue
		}
		if i := slices.IndexFunc(c[:], func(v sql.NullString) bool { return !utf8.ValidString(v.String) }); i >= 0 {
			r.warn("session %q skipped: its %s is not valid UTF-8", strings.ToValidUTF8(c[0].String, "\uFFFD"), sessionColumns[i])
			continue
		}
		raws = append(raws, rawSession{c[0].String, c[1].String, c[2].String, c[3].String, c[4].String, c[5].String})
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, err
	}

	var out []session
	for _, s := range raws {
		if ss, ok := r.session(s); ok {
			out = append(out, ss)
		}
	}
	// Newest first by instant (created_at texts of different forms do not
	// sort as text); the query's order breaks ties.
	slices.SortStableFunc(out, func(a, b session) int { return b.At.Compare(a.At) })
	return out, nil
}

// session builds one session row; ok is false when the session has no
// date (the schema requires one).
func (r *reader) session(s rawSession) (session, bool) {
	stamp := s.created
	if export.Day(stamp) == "" {
		stamp = s.updated
	}
	day := export.Day(stamp)
	if day == "" {
		r.warn("session %q skipped: neither created_at nor updated_at is a date", s.id)
		return session{}, false
	}
	at := export.Instant(stamp)
	if at.IsZero() {
		at, _ = time.Parse(time.DateOnly, day)
	}

	var actions []string
	if s.summary != "" {
		// A summary of spaces is still an action (empty once trimmed),
		// as in the reference.
		actions = append(actions, export.Bounded(export.NativeText(s.summary, 0), maxActionChars))
	}
	for _, title := range r.checkpoints(s.id) {
		actions = append(actions, export.Bounded("checkpoint: "+export.NativeText(title, 0), maxActionChars))
	}
	if n := r.turns(s.id); n > 0 {
		actions = append(actions, fmt.Sprintf("turns: %d", n))
	}
	for _, ref := range r.refs(s.id) {
		actions = append(actions, export.Bounded(ref, maxActionChars))
	}
	if len(actions) > maxActions {
		actions = actions[:maxActions]
	}
	row := export.Session{
		Date:         day,
		Cwd:          export.Cut(s.cwd, maxCwd, "…"),
		KeyActions:   actions,
		FilesTouched: r.files(s.id),
		Visibility:   visibility.Team.String(),
	}
	if s.repo != "" {
		row.ProjectFocus = []string{s.repo}
	}
	repo := s.repo
	if utf8.RuneCountInString(repo) > maxName {
		r.warn("session %q: repository name longer than %d characters is not an entity", s.id, maxName)
		repo = ""
	}
	return session{At: at, Repo: repo, Row: row}, true
}

// column runs a query and returns its rows as text; a row that is not
// UTF-8 is skipped with a warning naming what, and a table that cannot be
// queried gives nothing (reported once).
func (r *reader) column(table, what, query string, args ...any) [][]string {
	rows, err := r.db.QueryContext(r.ctx, query, args...)
	if err != nil {
		r.tableFailed(table, err)
		return nil
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		r.tableFailed(table, err)
		return nil
	}
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			r.warn("%s: a row of %s skipped: %v", table, what, err)
			continue
		}
		if slices.ContainsFunc(vals, func(v sql.NullString) bool { return !utf8.ValidString(v.String) }) {
			r.warn("%s: a row of %s skipped: not valid UTF-8", table, what)
			continue
		}
		rec := make([]string, len(cols))
		for i, v := range vals {
			rec[i] = v.String
		}
		out = append(out, rec)
	}
	if err := rows.Err(); err != nil {
		r.tableFailed(table, err)
	}
	return out
}

// checkpoints returns the titles of a session's first three checkpoints,
// by number, leaving out those without one.
func (r *reader) checkpoints(id string) []string {
	var titles []string
	for i, rec := range r.column("checkpoints", "session "+strconv.Quote(id),
		"SELECT title FROM checkpoints WHERE session_id = ? ORDER BY checkpoint_number", id) {
		if i < 3 && rec[0] != "" {
			titles = append(titles, rec[0])
		}
	}
	return titles
}

func (r *reader) turns(id string) int {
	var n int
	err := r.db.QueryRowContext(r.ctx, "SELECT COUNT(*) FROM turns WHERE session_id = ?", id).Scan(&n)
	if err != nil {
		r.tableFailed("turns", err)
		return 0
	}
	return n
}

// refs returns a session's first three refs as "<type>: <value>".
func (r *reader) refs(id string) []string {
	var out []string
	for _, rec := range r.column("session_refs", "session "+strconv.Quote(id),
		"SELECT ref_type, ref_value FROM session_refs WHERE session_id = ?", id) {
		if len(out) < 3 {
			out = append(out, rec[0]+": "+rec[1])
		}
	}
	return out
}

// files returns up to twenty files a session touched, in the store's
// order.
func (r *reader) files(id string) []string {
	var out []string
	for _, rec := range r.column("session_files", "session "+strconv.Quote(id),
		"SELECT file_path FROM session_files WHERE session_id = ? LIMIT ?", id, maxFiles) {
		if rec[0] != "" {
			out = append(out, rec[0])
		}
	}
	return out
}

// context returns the dynamic-context items, most used first, as entities.
// Items used as often keep the table's order, as in the reference's query.
func (r *reader) context() []export.Entity {
	recs := r.column("dynamic_context_items", "the dynamic context",
		"SELECT name, description, content, src FROM dynamic_context_items "+
			"ORDER BY count DESC LIMIT ?", maxContext)
	var out []export.Entity
	for _, rec := range recs {
		name, desc, content, src := rec[0], rec[1], rec[2], rec[3]
		if name == "" {
			continue
		}
		if utf8.RuneCountInString(name) > maxName {
			r.warn("dynamic context item %q skipped: its name is longer than %d characters", export.Cut(name, 40, "…"), maxName)
			continue
		}
		summary := cmp.Or(desc, content)
		if summary != "" {
			summary = export.Bounded(export.NativeText(summary, 0), maxSummary)
		}
		out = append(out, export.Entity{
			Name: name, Type: "dynamic-context", Summary: summary,
			Tags:       []string{"copilot-cli", "dynamic-context", cmp.Or(src, "unknown")},
			Visibility: visibility.Team.String(),
		})
	}
	return withhold(out)
}

// withhold returns the items without the private ones (a private tag as
// src), for the cache, which lives in the library. Of items with the same
// name only the first could be written, so a name whose first item is
// private keeps the others out, as the export's dedupe does.
func withhold(items []export.Entity) []export.Entity {
	pol := policy()
	seen := map[string]bool{}
	var kept []export.Entity
	for _, e := range items {
		if seen[e.Name] {
			continue
		}
		seen[e.Name] = true
		if pol.Level(e.Visibility, e.Tags) != visibility.Private.String() {
			kept = append(kept, e)
		}
	}
	return kept
}

// Health inspects the store.
func (Exporter) Health(ctx context.Context, env *export.Env) export.Health {
	d := dir(env)
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		return export.Health{
			Status:  export.StatusBlocked,
			Reason:  fmt.Sprintf("Copilot CLI directory not found at %s.", d),
			Details: []export.Detail{{Key: "expected_path", Value: d}},
			Fix:     "Run the Copilot CLI agent (`copilot` or `gh copilot`) at least once to create the session store.",
		}
	}
	path := filepath.Join(d, dbName)
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return export.Health{
			Status:  export.StatusBlocked,
			Reason:  fmt.Sprintf("session-store.db not found at %s.", path),
			Details: []export.Detail{{Key: "expected_db", Value: path}},
			Fix:     "Run the Copilot CLI agent at least once. The session-store.db is created on first use.",
		}
	}
	db, err := nativestore.OpenSQLite(ctx, path)
	if err != nil {
		h := export.Health{
			Status:  export.StatusDegraded,
			Reason:  "Cannot copy session-store.db for reading.",
			Details: []export.Detail{{Key: "db_path", Value: path}},
			Fix:     "Check file permissions on the session-store.db.",
		}
		if errors.Is(err, nativestore.ErrNotDatabase) {
			h.Reason = "session-store.db is not a readable SQLite database."
			h.Fix = "Quit the Copilot CLI and check the file; the CLI recreates a missing session-store.db on its next run."
		}
		return h
	}
	defer db.Close()
	count := func(q string) int {
		var n int
		if db.QueryRowContext(ctx, q).Scan(&n) != nil {
			return 0
		}
		return n
	}
	return export.Health{
		Status: export.StatusOK,
		Details: []export.Detail{
			{Key: "db_path", Value: path},
			{Key: "db_size_bytes", Value: st.Size()},
			{Key: "session_count", Value: count(fmt.Sprintf("SELECT COUNT(*) FROM (SELECT 1 FROM sessions LIMIT %d)", maxRead))},
			{Key: "total_turns", Value: count("SELECT COUNT(*) FROM turns")},
			{Key: "dynamic_context_items", Value: count(fmt.Sprintf("SELECT COUNT(*) FROM (SELECT 1 FROM dynamic_context_items LIMIT %d)", maxContext))},
		},
	}
}
