// Package claudecode exports Claude Code's memory: the auto-memory notes
// of every project (~/.claude/projects/*/memory/*.md), a claude-brain
// notebook (PROJECTS/*/OVERVIEW.md and LOG/*.md) and the MCP memory
// server's knowledge graph (~/claude-memory/memory.jsonl). What is read,
// what is written and where we differ from the reference are in
// docs/exporters.md, section claude-code.
package claudecode

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/mdfile"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// ID is the agent id.
const ID = "claude-code"

const (
	agentType     = "code-assistant"
	roleNarrative = "Agentic manager and code-assistant. Coordinates the RADLAB agent fleet, " +
		"reviews PRs, and consults on architectural decisions. Capable of authoring " +
		"code but typically reviews + delegates to specialised code-assistants like " +
		"Codex for prime-code execution."

	maxSummary  = 500 // entity summaries, in code points
	maxHeadline = 250 // a log file's key action
	maxSessions = 100 // log files exported, newest first
	maxEntities = 1000
	maxName     = 128
	maxType     = 64
)

// Source names, as the manifest's capabilities list them.
const (
	srcAutoMemory = "auto_memory"
	srcBrain      = "claude_brain"
	srcGraph      = "knowledge_graph"
)

// policy is the reference's, except its default: team, not public. Every
// source is written from the person's sessions (docs/exporters.md).
var policy = export.Policy{
	Default:     "team",
	PrivateTags: export.PrivateTags(),
	TeamTags:    []string{"internal-roadmap"},
}

// privateTypes are the entity types (their last "/" segment) that are
// private: notes about people.
var privateTypes = []string{"person", "user", "individual", "contact", "family-member", "family_member"}

func isPrivateType(t string) bool {
	if i := strings.LastIndex(t, "/"); i >= 0 {
		t = t[i+1:]
	}
	return slices.Contains(privateTypes, strings.ToLower(strings.TrimSpace(t)))
}

// Exporter is the claude-code exporter.
type Exporter struct{}

// Info describes the agent.
func (Exporter) Info() export.Info {
	return export.Info{ID: ID, Type: agentType, Label: "Claude Code"}
}

// Detect reports whether ~/.claude exists.
func (Exporter) Detect(env *export.Env) export.Presence {
	p := env.HomePath(".claude")
	return export.Presence{Path: p, Present: exists(p)}
}

// sources is where the three stores are on this machine.
type sources struct {
	brain      string   // "" when there is none
	projects   string   // ~/.claude/projects
	memoryDirs []string // every <project>/memory directory, sorted
	graph      string   // "" when there is none
	cwdBrain   string   // a ./claude-brain in the working directory, which is not read
	warnings   []export.Warning
}

func (s sources) found() int {
	n := 0
	for _, ok := range []bool{s.brain != "", len(s.memoryDirs) > 0, s.graph != ""} {
		if ok {
			n++
		}
	}
	return n
}

func (s sources) capabilities() []string {
	var c []string // sorted by name
	if len(s.memoryDirs) > 0 {
		c = append(c, srcAutoMemory)
	}
	if s.brain != "" {
		c = append(c, srcBrain)
	}
	if s.graph != "" {
		c = append(c, srcGraph)
	}
	return c
}

func locate(env *export.Env) sources {
	var s sources
	if v := env.Var("CLAUDE_BRAIN"); v != "" {
		if p := absolute(env, env.ExpandHome(v)); isDir(p) {
			s.brain = p
		}
	}
	if s.brain == "" {
		if p := env.HomePath("claude-brain"); isDir(p) {
			s.brain = p
		}
	}
	if s.brain == "" && env.Cwd != "" {
		if p := filepath.Join(env.Cwd, "claude-brain"); isDir(p) {
			s.cwdBrain = p
		}
	}
	s.projects = env.HomePath(".claude", "projects")
	entries, err := os.ReadDir(s.projects)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.warnings = append(s.warnings, warning(s.projects, 0, "cannot list the projects: %v", err))
	}
	for _, e := range entries { // sorted by name
		if p := filepath.Join(s.projects, e.Name(), "memory"); isDir(p) && !export.Excluded(p) {
			s.memoryDirs = append(s.memoryDirs, p)
		}
	}
	if p := env.HomePath("claude-memory", "memory.jsonl"); isFile(p) {
		s.graph = p
	}
	return s
}

// unit is what one source file gives, as the cache keeps it.
type unit struct {
	Entity   *export.Entity  `json:"e,omitempty"`
	Session  *export.Session `json:"s,omitempty"`
	Entities []export.Entity `json:"es,omitempty"`
	// Withheld are the private entities of the file, by the digest of
	// their merge key only: the cache, which lives in the library, keeps
	// nothing of a private row, and the merge still drops every entity
	// of that name (a private row makes its merged entity private).
	Withheld []string         `json:"x,omitempty"`
	Warnings []export.Warning `json:"w,omitempty"`
}

// withhold reports whether the policy makes e private, and then records
// only the digest of its name in u.
func (u *unit) withhold(e export.Entity) bool {
	if policy.Level(e.Visibility, e.Tags) != visibility.Private.String() {
		return false
	}
	u.Withheld = append(u.Withheld, withheldKey(e.Name))
	return true
}

// set makes e the file's entity, unless it is withheld.
func (u *unit) set(e export.Entity) {
	if !u.withhold(e) {
		u.Entity = &e
	}
}

// add adds e to the file's entities, unless it is withheld.
func (u *unit) add(e export.Entity) {
	if !u.withhold(e) {
		u.Entities = append(u.Entities, e)
	}
}

// withheldKey is the digest of a name's merge key.
func withheldKey(name string) string {
	sum := sha256.Sum256([]byte(mergeKey(name)))
	return hex.EncodeToString(sum[:16])
}

func warning(file string, line int, format string, args ...any) export.Warning {
	return export.Warning{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// Export reads the three sources.
func (Exporter) Export(ctx context.Context, env *export.Env, opts export.Options) (*export.Output, error) {
	src := locate(env)
	if src.found() == 0 {
		return nil, export.NotInstalled("no Claude Code memory on this machine (looked for %s, %s and %s)",
			filepath.Join(src.projects, "*", "memory"), env.HomePath("claude-brain"), env.HomePath("claude-memory", "memory.jsonl"))
	}
	pol := policy
	out := &export.Output{
		SpecVersion:  "0.1",
		Agent:        export.Agent{ID: ID, Type: agentType, Instance: env.Instance(), SpecVersionCompat: ">=0.1", RoleNarrative: roleNarrative},
		Capabilities: src.capabilities(),
		Policy:       &pol,
		Warnings:     slices.Clone(src.warnings),
	}
	r := reader{cache: opts.Cache, out: out, withheld: map[string]bool{}}

	var notes []export.Entity
	for _, dir := range src.memoryDirs {
		out.Sources = append(out.Sources, export.Source{Kind: srcAutoMemory, Path: dir})
		for _, path := range r.list(dir, func(name string) bool { return strings.HasSuffix(name, ".md") && name != "MEMORY.md" }) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if u := r.read(srcAutoMemory, path, readNote); u.Entity != nil {
				notes = append(notes, *u.Entity)
			}
		}
	}
	var graph []export.Entity
	if src.graph != "" {
		out.Sources = append(out.Sources, export.Source{Kind: srcGraph, Path: src.graph})
		graph = r.read(srcGraph, src.graph, readGraph).Entities
	}
	var projects []export.Entity
	if src.brain != "" {
		out.Sources = append(out.Sources, export.Source{Kind: srcBrain, Path: src.brain})
		dir := filepath.Join(src.brain, "PROJECTS")
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			path := filepath.Join(dir, e.Name(), "OVERVIEW.md")
			if !isDir(filepath.Join(dir, e.Name())) || !isFile(path) || export.Excluded(filepath.Join(dir, e.Name())) {
				continue
			}
			if u := r.read(srcBrain, path, readOverview); u.Entity != nil {
				projects = append(projects, *u.Entity)
			}
		}
		sessions, err := r.logs(ctx, filepath.Join(src.brain, "LOG"), opts)
		if err != nil {
			return nil, err
		}
		out.Sessions = policy.StampSessions(sessions)
	}

	entities := policy.StampEntities(mergeEntities(r.visible(notes), r.visible(graph), r.visible(projects)))
	for i := range entities {
		entities[i].Name = export.Cut(entities[i].Name, maxName, "...")
		entities[i].Type = export.Cut(entities[i].Type, maxType, "...")
	}
	if len(entities) > maxEntities {
		out.Warn("", 0, "%d entities, the first %d (by name) are exported", len(entities), maxEntities)
		entities = entities[:maxEntities]
	}
	out.Entities = entities
	return out, nil
}

// reader reads source files through the cache.
type reader struct {
	cache    *export.Cache
	out      *export.Output
	withheld map[string]bool // the Withheld keys of the units read
}

// visible returns the entities whose name no private entity of any
// source has: the merge would have made them private.
func (r reader) visible(es []export.Entity) []export.Entity {
	kept := es[:0:0]
	for _, e := range es {
		if !r.withheld[withheldKey(e.Name)] {
			kept = append(kept, e)
		}
	}
	return kept
}

// list returns the regular files of dir whose name keep accepts, sorted.
func (r reader) list(dir string, keep func(string) bool) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			r.out.Warn(dir, 0, "cannot list: %v", err)
		}
		return nil
	}
	var paths []string
	for _, e := range entries {
		if keep(e.Name()) && isFile(filepath.Join(dir, e.Name())) {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	return paths
}

// read returns what parse derives from the file at path, from the cache
// when the file has not changed. A file that cannot be read is reported
// and not remembered, so that it is tried again next time.
func (r reader) read(kind, path string, parse func(string) (unit, error)) unit {
	fp, err := export.Stat(path)
	if err != nil {
		r.out.Warn(path, 0, "skipped: %v", err)
		return unit{}
	}
	u, err := export.Cached(r.cache, ID+"|"+kind+"|"+path, fp, func() (unit, error) { return parse(path) })
	if err != nil {
		r.out.Warn(path, 0, "skipped: %v", err)
		return unit{}
	}
	r.out.Warnings = append(r.out.Warnings, u.Warnings...)
	for _, k := range u.Withheld {
		r.withheld[k] = true
	}
	return u
}

// logNameRE is a log file's name: YYYY-MM-DD, optionally "-<machine>" and
// anything else, then ".md".
var logNameRE = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})(?:-.*)?\.md$`)

// logs returns the sessions of the newest log files (at most maxSessions,
// on or after opts.Since), newest first; files of the same day in name
// order.
func (r reader) logs(ctx context.Context, dir string, opts export.Options) ([]export.Session, error) {
	type candidate struct{ day, path string }
	var cands []candidate
	var since string
	if !opts.Since.IsZero() {
		since = opts.Since.UTC().Format("2006-01-02")
	}
	for _, path := range r.list(dir, func(name string) bool { return logNameRE.MatchString(name) }) {
		day := logNameRE.FindStringSubmatch(filepath.Base(path))[1]
		if _, ok := l5.ParseDay(day); !ok {
			r.out.Warn(path, 0, "skipped: %s is not a date", day)
			continue
		}
		if since != "" && day < since {
			continue
		}
		cands = append(cands, candidate{day, path})
	}
	slices.SortStableFunc(cands, func(a, b candidate) int { return strings.Compare(b.day, a.day) })
	var sessions []export.Session
	for _, c := range cands[:min(len(cands), maxSessions)] {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if u := r.read("log", c.path, readLog); u.Session != nil {
			sessions = append(sessions, *u.Session)
		}
	}
	return sessions, nil
}

// markdown reads a Markdown source file: its front matter (nil when it has
// none or it is malformed) and body. A file that is not UTF-8 gives
// skip=true and a warning.
func markdown(path string) (fm *yaml11.Map, body string, ws []export.Warning, skip bool, err error) {
	text, _, err := mdfile.Read(path, 0)
	var nu *mdfile.NotUTF8Error
	if errors.As(err, &nu) {
		return nil, "", []export.Warning{warning(path, nu.Line, "skipped: not UTF-8 text")}, true, nil
	}
	if err != nil {
		return nil, "", nil, true, err
	}
	fm, body, _, ferr := mdfile.FrontMatter(text)
	var fe *mdfile.FrontMatterError
	if errors.As(ferr, &fe) {
		ws = append(ws, warning(path, fe.Line, "malformed YAML front matter, ignored: %s", fe.Msg))
		fm = nil
	}
	return fm, body, ws, false, nil
}

// readNote reads one auto-memory note.
func readNote(path string) (unit, error) {
	fm, body, ws, skip, err := markdown(path)
	u := unit{Warnings: ws}
	if skip || err != nil {
		return u, err
	}
	name := text(fm.Value("name"))
	if name == "" {
		name = title(body)
	}
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(path), ".md")
	}
	typ := text(fm.Value("type"))
	summary := text(fm.Value("description"))
	if summary == "" {
		summary = firstParagraph(body, maxSummary)
	}
	e := export.Entity{
		Name:       name,
		Type:       typ,
		Summary:    strings.TrimSpace(prefix(summary, maxSummary)),
		Tags:       tags(fm.Value("tags")),
		Visibility: ownVisibility(fm),
	}
	if isPrivateType(typ) {
		e.Visibility = "private"
	}
	u.set(e)
	return u, nil
}

// readOverview reads one claude-brain PROJECTS/<name>/OVERVIEW.md.
func readOverview(path string) (unit, error) {
	fm, body, ws, skip, err := markdown(path)
	u := unit{Warnings: ws}
	if skip || err != nil {
		return u, err
	}
	e := export.Entity{
		Name:       title(body),
		Type:       "project",
		Summary:    firstParagraph(body, maxSummary),
		Tags:       statusTags(body),
		Visibility: ownVisibility(fm),
	}
	if e.Name == "" {
		e.Name = filepath.Base(filepath.Dir(path))
	}
	if slices.Contains(e.Tags, "archived") || slices.Contains(e.Tags, "canceled") {
		e.ValidTo = statusDay(body)
		if e.ValidTo == "" {
			if st, err := os.Stat(path); err == nil {
				e.ValidTo = st.ModTime().UTC().Format("2006-01-02")
			}
		}
	}
	u.set(e)
	return u, nil
}

// readLog reads one claude-brain LOG/<date>[-<machine>][-...].md.
func readLog(path string) (unit, error) {
	fm, body, ws, skip, err := markdown(path)
	u := unit{Warnings: ws}
	if skip || err != nil {
		return u, err
	}
	name := filepath.Base(path)
	s := export.Session{
		Date:         logNameRE.FindStringSubmatch(name)[1],
		FilesTouched: []string{"LOG/" + name},
		Visibility:   ownVisibility(fm),
	}
	if policy.Level(s.Visibility, nil) == visibility.Private.String() {
		return u, nil // a private session is not written, nor kept in the cache
	}
	if h := firstParagraph(body, maxHeadline); h != "" {
		s.KeyActions = []string{h}
	}
	u.Session = &s
	return u, nil
}

// text returns a front-matter value as the reference's str() would, ""
// for a value Python takes as false.
func text(v any) string {
	if !yaml11.Truthy(v) {
		return ""
	}
	return yaml11.Str(v)
}

// tags returns a front-matter tags value as a list of strings: a list's
// items (a repeated one too: the merge removes repeats only when a second
// row of the name comes), or a single string as a one-item list.
func tags(v any) []string {
	switch x := v.(type) {
	case string:
		if s := strings.TrimSpace(x); s != "" {
			return []string{s}
		}
	case []any:
		var out []string
		for _, it := range x {
			if it != nil {
				out = append(out, yaml11.Str(it))
			}
		}
		return out
	}
	return nil
}

// ownVisibility returns the front matter's visibility, "" when it has
// none. A value that is not a level is kept as written: the policy then
// resolves it to private.
func ownVisibility(fm *yaml11.Map) string {
	v, ok := fm.Get("visibility")
	if !ok || v == nil {
		return ""
	}
	return strings.TrimSpace(yaml11.Str(v))
}

// Health reports how many of the three sources exist.
func (Exporter) Health(_ context.Context, env *export.Env) export.Health {
	src := locate(env)
	or := func(p string) string {
		if p == "" {
			return "missing"
		}
		return p
	}
	auto := ""
	if len(src.memoryDirs) > 0 {
		auto = src.projects
	}
	h := export.Health{Details: []export.Detail{
		{Key: "claude_brain", Value: or(src.brain)},
		{Key: "auto_memory", Value: or(auto)},
		{Key: "knowledge_graph", Value: or(src.graph)},
		{Key: "auto_memory_projects", Value: len(src.memoryDirs)},
	}}
	hint := ""
	if src.cwdBrain != "" {
		hint = fmt.Sprintf(" A claude-brain directory in the working directory (%s) is not read: set CLAUDE_BRAIN=%s to use it.", src.cwdBrain, src.cwdBrain)
	}
	switch n := src.found(); n {
	case 3:
		h.Status = export.StatusOK
	case 0:
		h.Status = export.StatusBlocked
		h.Reason = "No Claude Code memory sources found on this machine"
		h.Fix = "Run `bourdon setup` to wire Claude Code's SessionEnd export, then use Claude Code once: " +
			"it keeps its notes in ~/.claude/projects/<project>/memory/." + hint
	default:
		h.Status = export.StatusDegraded
		h.Reason = fmt.Sprintf("%d/3 Claude Code memory sources found", n)
		h.Fix = "The sources found are exported. For the others: set CLAUDE_BRAIN to a claude-brain checkout " +
			"(or keep one at ~/claude-brain), and point the MCP memory server at ~/claude-memory/memory.jsonl." + hint
	}
	return h
}

func absolute(env *export.Env, p string) string {
	if filepath.IsAbs(p) || env.Cwd == "" {
		return p
	}
	return filepath.Join(env.Cwd, p)
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func isDir(p string) bool { st, err := os.Stat(p); return err == nil && st.IsDir() }

func isFile(p string) bool { st, err := os.Stat(p); return err == nil && st.Mode().IsRegular() }
