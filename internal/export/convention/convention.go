// Package convention exports the agents whose memory is a convention
// file: a Markdown file whose YAML front matter lists entities and
// sessions, kept by the person or by the assistant when told to. GitHub
// Copilot's is ~/.copilot-bourdon/memory.md, Cascade's (Windsurf)
// ~/.cascade-bourdon/memory.md. docs/exporters.md, section "copilot and
// cascade", says what is read and where we differ from the reference.
package convention

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/mdfile"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// The two agents.
var (
	Copilot = Exporter{copilot}
	Cascade = Exporter{cascade}
)

// flavor is what differs between the two agents.
type flavor struct {
	id, label    string
	dirName      string // under the home
	envDir       string // the variable naming the directory instead, "" for none
	narrative    string
	instance     bool   // write agent.instance
	compat       string // agent.spec_version_compat, "" for none
	writePolicy  bool   // write visibility_policy
	policy       export.Policy
	capabilities []string
	summary      func(string) string // the agent's scrub battery
}

var copilot = &flavor{
	id: "copilot", label: "GitHub Copilot",
	dirName: ".copilot-bourdon", envDir: "COPILOT_BOURDON_HOME",
	narrative: "Inline completion and chat assistant present across every IDE the team uses. " +
		"Works alongside the human at the keystroke level -- the ambient layer that " +
		"recognises what is being typed before a full turn is even formed. Bourdon " +
		"gives Copilot cross-session entity awareness it would otherwise lack entirely.",
	instance: true, compat: ">=0.1", writePolicy: true,
	policy: export.Policy{
		Default:     "team",
		PrivateTags: export.PrivateTags(),
		TeamTags:    []string{"copilot-memory", "workspace", "copilot"},
	},
	capabilities: []string{"inline-completion", "chat", "pr-review", "convention-memory"},
	summary:      func(s string) string { return export.NativeText(s, 0) },
}

// cascade's policy default is team where the reference's is public: the
// file is written from the person's sessions (docs/exporters.md).
var cascade = &flavor{
	id: "cascade", label: "Cascade (Windsurf)",
	dirName: ".cascade-bourdon",
	narrative: "Agentic AI coding assistant embedded in Windsurf IDE. " +
		"Operates with multi-step planning, tool use (file editing, terminal, " +
		"browser preview, code search), persistent memory, and workspace-level " +
		"context awareness. Specializes in pair-programming workflows with " +
		"concurrent read-plan-execute cycles.",
	policy: export.Policy{
		Default:     "team",
		PrivateTags: []string{"personal", "credential", "financial", "secret", "private"},
	},
	capabilities: []string{"chat", "code-editing", "terminal", "planning", "search"},
	summary:      export.CascadeText,
}

// Bounds of the file and of the rows (the L5 schema's).
const (
	maxFile       = 16 << 20
	maxEntities   = 1000
	maxSessions   = 500
	maxName       = 128
	maxType       = 64
	maxAliases    = 16
	maxCwd        = 512
	maxKeyActions = 10
	maxKeyAction  = 256
	maxFiles      = 50
)

// Exporter is a convention-file exporter.
type Exporter struct{ f *flavor }

// Info describes the agent.
func (x Exporter) Info() export.Info {
	return export.Info{ID: x.f.id, Type: "code-assistant", Label: x.f.label}
}

func (x Exporter) dir(env *export.Env) string {
	if x.f.envDir != "" {
		if v := env.Var(x.f.envDir); v != "" {
			p := env.ExpandHome(v)
			if !filepath.IsAbs(p) && env.Cwd != "" {
				p = filepath.Join(env.Cwd, p)
			}
			return p
		}
	}
	return env.HomePath(x.f.dirName)
}

// Detect reports whether the convention directory exists.
func (x Exporter) Detect(env *export.Env) export.Presence {
	p := x.dir(env)
	_, err := os.Stat(p)
	return export.Presence{Path: p, Present: err == nil}
}

// parsed is what the memory file gives, as the cache keeps it.
type parsed struct {
	Entities []export.Entity  `json:"e,omitempty"`
	Sessions []export.Session `json:"s,omitempty"`
	Warnings []export.Warning `json:"w,omitempty"`
	Listed   [2]int           `json:"n"` // entities and sessions listed in the file
}

// Export reads the memory file. A file whose front matter does not parse,
// or that is not UTF-8, fails the export (nothing in it can be read, and
// writing nothing keeps the rows of the last good export).
func (x Exporter) Export(ctx context.Context, env *export.Env, opts export.Options) (*export.Output, error) {
	path := filepath.Join(x.dir(env), "memory.md")
	fp, err := export.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if fp == "-" || !isFile(path) {
		return nil, export.NotInstalled("no %s memory file at %s", x.f.label, path)
	}
	p, err := export.Cached(opts.Cache, x.f.id+"|memory|"+path, fp, func() (parsed, error) { return x.parse(path) })
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := &export.Output{
		SpecVersion:  "0.1",
		Agent:        export.Agent{ID: x.f.id, Type: "code-assistant", SpecVersionCompat: x.f.compat, RoleNarrative: x.f.narrative},
		Capabilities: x.f.capabilities,
		Sources:      []export.Source{{Kind: "memory_file", Path: path}},
		Warnings:     p.Warnings,
	}
	if x.f.instance {
		out.Agent.Instance = env.Instance()
	}
	if x.f.writePolicy {
		pol := x.f.policy
		out.Policy = &pol
	}
	sessions := p.Sessions
	if !opts.Since.IsZero() {
		since := opts.Since.UTC().Format("2006-01-02")
		sessions = nil
		for _, s := range p.Sessions {
			if s.Date >= since {
				sessions = append(sessions, s)
			}
		}
	}
	out.Entities = x.f.policy.StampEntities(p.Entities)
	out.Sessions = x.f.policy.StampSessions(sessions)
	return out, nil
}

// badContent is a memory file whose text cannot be read: not UTF-8, a
// front matter that is not YAML, or one too long.
type badContent struct{ error }

func (b *badContent) Unwrap() error { return b.error }

// frontMatter reads the file's front matter. ok is false when the file has
// none. An error that is not a *badContent is the file system's.
func frontMatter(path string) (fm *yaml11.Map, ok bool, err error) {
	text, truncated, err := mdfile.Read(path, maxFile)
	if err != nil {
		var nu *mdfile.NotUTF8Error
		if errors.As(err, &nu) {
			return nil, false, &badContent{fmt.Errorf("%s:%d: %w", path, nu.Line, err)}
		}
		return nil, false, err
	}
	fm, _, ok, err = mdfile.FrontMatter(text)
	var fe *mdfile.FrontMatterError
	if errors.As(err, &fe) {
		if fe.Line > 0 {
			return nil, true, &badContent{fmt.Errorf("%s:%d: %w", path, fe.Line, err)}
		}
		return nil, true, &badContent{fmt.Errorf("%s: %w", path, err)}
	}
	if !ok && truncated && strings.HasPrefix(text, "---\n") {
		return nil, false, &badContent{fmt.Errorf("%s: the front matter is longer than %d bytes", path, maxFile)}
	}
	return fm, ok, nil
}

func (x Exporter) parse(path string) (parsed, error) {
	var p parsed
	fm, ok, err := frontMatter(path)
	if err != nil {
		return p, err
	}
	warn := func(format string, args ...any) {
		p.Warnings = append(p.Warnings, export.Warning{File: path, Msg: fmt.Sprintf(format, args...)})
	}
	if !ok {
		warn("no YAML front matter (a first line \"---\" and a closing \"---\"): nothing to export")
		return p, nil
	}
	entities, _ := fm.Value("entities").([]any)
	sessions, _ := fm.Value("sessions").([]any)
	p.Listed = [2]int{len(entities), len(sessions)}
	for i, raw := range entities {
		e, why, notes := x.entity(raw)
		for _, n := range notes {
			warn("entities[%d]: %s", i, n)
		}
		if why != "" {
			warn("entities[%d]: %s", i, why)
		} else {
			p.Entities = append(p.Entities, e)
		}
	}
	for i, raw := range sessions {
		s, why, notes := session(raw)
		for _, n := range notes {
			warn("sessions[%d]: %s", i, n)
		}
		if why != "" {
			warn("sessions[%d]: %s", i, why)
		} else {
			p.Sessions = append(p.Sessions, s)
		}
	}
	if len(p.Entities) > maxEntities {
		warn("%d entities, the first %d are exported", len(p.Entities), maxEntities)
		p.Entities = p.Entities[:maxEntities]
	}
	if len(p.Sessions) > maxSessions {
		warn("%d sessions, the first %d are exported", len(p.Sessions), maxSessions)
		p.Sessions = p.Sessions[:maxSessions]
	}
	// The cache lives in the library: a private row is dropped before it
	// gets there (stamping again in Export resolves to the same level).
	p.Entities = x.f.policy.StampEntities(p.Entities)
	p.Sessions = x.f.policy.StampSessions(p.Sessions)
	return p, nil
}

// entity maps one entities item; why says why it is skipped, notes what
// was left out of it.
func (x Exporter) entity(raw any) (e export.Entity, why string, notes []string) {
	m, ok := raw.(*yaml11.Map)
	if !ok {
		return e, "not a mapping, skipped", nil
	}
	name, _ := m.Value("name").(string)
	if name = strings.TrimSpace(name); name == "" {
		return e, "no name, skipped", nil
	}
	e = export.Entity{
		Name:       export.Cut(name, maxName, "..."),
		Type:       export.Cut(text(m.Value("type")), maxType, "..."),
		Aliases:    list(m.Value("aliases")),
		Tags:       list(m.Value("tags")),
		Visibility: strings.TrimSpace(text(m.Value("visibility"))),
	}
	if s := text(m.Value("summary")); s != "" {
		e.Summary = x.f.summary(s)
	}
	if n := len(e.Aliases); n > maxAliases {
		notes = append(notes, fmt.Sprintf("%d aliases, the first %d are exported", n, maxAliases))
		e.Aliases = e.Aliases[:maxAliases]
	}
	for _, f := range []struct {
		key string
		to  *string
	}{{"last_touched", &e.LastTouched}, {"valid_from", &e.ValidFrom}, {"valid_to", &e.ValidTo}} {
		v := m.Value(f.key)
		if *f.to = day(v); *f.to == "" && yaml11.Truthy(v) {
			notes = append(notes, fmt.Sprintf("%s %q is not YYYY-MM-DD, left out", f.key, yaml11.Str(v)))
		}
	}
	return e, "", notes
}

// session maps one sessions item; why says why it is skipped, notes what
// was left out of it.
func session(raw any) (s export.Session, why string, notes []string) {
	m, ok := raw.(*yaml11.Map)
	if !ok {
		return s, "not a mapping, skipped", nil
	}
	date := m.Value("date")
	if !yaml11.Truthy(date) {
		return s, "no date, skipped", nil
	}
	s.Date = day(date)
	if s.Date == "" {
		return s, fmt.Sprintf("date %q is not YYYY-MM-DD, skipped", yaml11.Str(date)), nil
	}
	s.Cwd = export.Cut(text(m.Value("cwd")), maxCwd, "...")
	s.ProjectFocus = list(m.Value("project_focus"))
	s.KeyActions = list(m.Value("key_actions"))
	for i, a := range s.KeyActions {
		s.KeyActions[i] = export.Cut(a, maxKeyAction, "...")
	}
	if n := len(s.KeyActions); n > maxKeyActions {
		notes = append(notes, fmt.Sprintf("%d key actions, the first %d are exported", n, maxKeyActions))
		s.KeyActions = s.KeyActions[:maxKeyActions]
	}
	s.FilesTouched = list(m.Value("files_touched"))
	if n := len(s.FilesTouched); n > maxFiles {
		notes = append(notes, fmt.Sprintf("%d files touched, the first %d are exported", n, maxFiles))
		s.FilesTouched = s.FilesTouched[:maxFiles]
	}
	s.Visibility = strings.TrimSpace(text(m.Value("visibility")))
	return s, "", notes
}

// text returns a scalar as the reference's str() would, "" for a value
// Python takes as false and for lists and mappings.
func text(v any) string {
	switch v.(type) {
	case []any, *yaml11.Map:
		return ""
	}
	if !yaml11.Truthy(v) {
		return ""
	}
	return yaml11.Str(v)
}

// list returns the non-blank strings of a list value; a single string is
// a one-item list (the reference splits it into its characters).
func list(v any) []string {
	switch x := v.(type) {
	case string:
		if strings.TrimSpace(x) != "" {
			return []string{x}
		}
	case []any:
		var out []string
		for _, it := range x {
			if s, ok := it.(string); ok && strings.TrimSpace(s) != "" {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// day returns a date value (a YAML date or timestamp, or text starting
// with YYYY-MM-DD) as YYYY-MM-DD, "" when it is none.
func day(v any) string {
	if !yaml11.Truthy(v) {
		return ""
	}
	if d := l5.DayOf(v); d.Year != 0 {
		return d.String()
	}
	return ""
}

// Health inspects the convention directory and its memory file.
func (x Exporter) Health(_ context.Context, env *export.Env) export.Health {
	dir := x.dir(env)
	path := filepath.Join(dir, "memory.md")
	format := fmt.Sprintf("Write %s: a first line \"---\", then YAML with an `entities:` list (name, type, summary, tags, ...) "+
		"and a `sessions:` list (date, cwd, key_actions, ...), then a closing \"---\" line "+
		"(docs/exporters.md, section \"copilot and cascade\").", path)
	if x.f == cascade {
		return x.cascadeHealth(dir, path, format)
	}
	if !isDir(dir) {
		return export.Health{
			Status:  export.StatusBlocked,
			Reason:  fmt.Sprintf("Convention directory %s not found.", dir),
			Details: []export.Detail{{Key: "expected_path", Value: dir}},
			Fix:     format,
		}
	}
	if !isFile(path) {
		return export.Health{
			Status:  export.StatusDegraded,
			Reason:  fmt.Sprintf("Memory file %s not found.", path),
			Details: []export.Detail{{Key: "expected_memory_file", Value: path}},
			Fix:     format,
		}
	}
	fm, ok, err := frontMatter(path)
	if err == nil && !ok {
		err = errors.New("no YAML front matter")
	}
	if err != nil {
		return export.Health{
			Status:  export.StatusDegraded,
			Reason:  "Memory file present but could not be parsed.",
			Details: []export.Detail{{Key: "memory_file", Value: path}, {Key: "error", Value: err.Error()}},
			Fix:     "Fix the front matter of " + path + ": the first and the closing \"---\" lines must wrap valid YAML. " + format,
		}
	}
	return export.Health{
		Status: export.StatusOK,
		Details: []export.Detail{
			{Key: "memory_file", Value: path},
			{Key: "entity_count", Value: count(fm, "entities")},
			{Key: "session_count", Value: count(fm, "sessions")},
		},
	}
}

func (x Exporter) cascadeHealth(dir, path, format string) export.Health {
	if !isDir(dir) {
		return export.Health{
			Status:  export.StatusBlocked,
			Reason:  "Cascade-Bourdon directory not found",
			Details: []export.Detail{{Key: "expected_path", Value: dir}},
			Fix:     format,
		}
	}
	if !isFile(path) {
		return export.Health{
			Status:  export.StatusDegraded,
			Reason:  "Memory file not found",
			Details: []export.Detail{{Key: "present", Value: false}, {Key: "error", Value: "missing"}},
			Fix:     format,
		}
	}
	fm, ok, err := frontMatter(path)
	var bad *badContent
	if err != nil && !errors.As(err, &bad) {
		return export.Health{
			Status:  export.StatusDegraded,
			Reason:  "Memory file not readable: " + err.Error(),
			Details: []export.Detail{{Key: "present", Value: true}, {Key: "readable", Value: false}, {Key: "error", Value: err.Error()}},
			Fix:     "Check the permissions of " + path + ": your user must be able to read it.",
		}
	}
	if err != nil || !ok {
		d := []export.Detail{
			{Key: "present", Value: true}, {Key: "readable", Value: true}, {Key: "frontmatter_valid", Value: false},
			{Key: "entity_count", Value: 0}, {Key: "session_count", Value: 0},
		}
		if err != nil {
			d = append(d, export.Detail{Key: "error", Value: err.Error()})
		}
		return export.Health{
			Status:  export.StatusDegraded,
			Reason:  "Memory file has no valid YAML front-matter",
			Details: d,
			Fix:     "Fix the front matter of " + path + ": the first and the closing \"---\" lines must wrap valid YAML. " + format,
		}
	}
	return export.Health{
		Status: export.StatusOK,
		Details: []export.Detail{
			{Key: "present", Value: true}, {Key: "readable", Value: true}, {Key: "frontmatter_valid", Value: true},
			{Key: "entity_count", Value: count(fm, "entities")}, {Key: "session_count", Value: count(fm, "sessions")},
		},
	}
}

func count(fm *yaml11.Map, key string) int {
	l, _ := fm.Value(key).([]any)
	return len(l)
}

func isDir(p string) bool { st, err := os.Stat(p); return err == nil && st.IsDir() }

func isFile(p string) bool { st, err := os.Stat(p); return err == nil && st.Mode().IsRegular() }
