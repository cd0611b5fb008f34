// Package automations exports the runs of scheduled and background agent
// automations: one directory per automation, holding an automation.toml
// (what it is) and a memory.md of dated runs. Claude Code's
// (~/.claude/automations), Codex's (~/.codex/automations), Cursor's
// (~/.cursor/automations) and Copilot's (~/.copilot-bourdon/automations)
// share the format; four exporters share this reader. docs/exporters.md,
// section "Automations", says what is read and where we differ from the
// reference.
package automations

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/mdfile"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

const (
	configFile = "automation.toml"
	memoryFile = "memory.md"

	maxMemory        = 160_000 // code points, from the end of memory.md
	maxConfig        = 1 << 20 // bytes of automation.toml
	maxRunActions    = 6
	maxActionChars   = 280
	maxTitle         = 120
	maxSummary       = 260
	maxKeyAction     = 256 // the L5 schema's
	maxCwd           = 512
	maxSessions      = 500
	maxEntities      = 1000
	maxName          = 128
	unknownStatus    = "UNKNOWN"
	activeStatus     = "ACTIVE"
	unspecified      = "unspecified"
	automationPrefix = "automation_id: "
)

// Exporter is one agent's automations reader.
type Exporter struct{ f *flavor }

// Info describes the agent.
func (x Exporter) Info() export.Info { return export.Info{ID: x.f.id, Type: "other", Label: x.f.label} }

// Detect reports whether the automations directory exists.
func (x Exporter) Detect(env *export.Env) export.Presence {
	p := x.f.dir(env)
	return export.Presence{Path: p, Present: isDir(p)}
}

func (x Exporter) policy() export.Policy {
	return export.Policy{Default: "team", PrivateTags: privateTags, TeamTags: x.f.teamTags}
}

// config is one automation.toml.
type config struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Status  string   `json:"status"`
	Rrule   string   `json:"rrule,omitempty"`
	Trigger string   `json:"trigger,omitempty"`
	Kind    string   `json:"kind,omitempty"`
	Cwds    []string `json:"cwds,omitempty"` // repos for copilot
	Path    string   `json:"path"`
	Memory  string   `json:"memory,omitempty"` // "" when there is no memory.md
	// Private is set when the status is a private tag: the configuration
	// is not written, and the cache, which lives in the library, keeps of
	// it only what its runs are written with (its name, status and
	// schedule are cleared once the runs are read).
	Private bool `json:"private,omitempty"`
}

// run is one dated section of memory.md.
type run struct {
	Date     string   `json:"date"`
	Title    string   `json:"title"`
	Actions  []string `json:"actions"`
	Projects []string `json:"projects,omitempty"`
	Signals  []string `json:"signals,omitempty"`
}

// automation is what one directory gives, as the cache keeps it.
type automation struct {
	Config   *config          `json:"c,omitempty"`
	Runs     []run            `json:"r,omitempty"`
	Warnings []export.Warning `json:"w,omitempty"`
}

// scan reads every <dir>/*/automation.toml, sorted by directory name,
// through the cache.
func (x Exporter) scan(ctx context.Context, dir string, cache *export.Cache, out *export.Output) ([]automation, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var all []automation
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cfg := filepath.Join(dir, e.Name(), configFile)
		if !isDir(filepath.Join(dir, e.Name())) || !isFile(cfg) || export.Excluded(filepath.Join(dir, e.Name())) {
			continue
		}
		memory := filepath.Join(dir, e.Name(), memoryFile)
		fp, err := export.Stat(cfg, memory)
		if err != nil {
			out.Warn(cfg, 0, "skipped: %v", err)
			continue
		}
		a, err := export.Cached(cache, x.f.id+"|automation|"+cfg, fp, func() (automation, error) {
			a, err := x.read(cfg, memory)
			if a.Config != nil {
				x.withhold(a.Config)
			}
			return a, err
		})
		if err != nil {
			out.Warn(cfg, 0, "skipped: %v", err)
			continue
		}
		out.Warnings = append(out.Warnings, a.Warnings...)
		if a.Config != nil {
			all = append(all, a)
		}
	}
	return all, nil
}

// read reads one automation directory. Errors are the file system's (the
// unit is tried again next time); bad content is a warning.
func (x Exporter) read(tomlPath, memoryPath string) (automation, error) {
	var a automation
	warn := func(file string, line int, format string, args ...any) {
		a.Warnings = append(a.Warnings, export.Warning{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	raw := map[string]any{}
	text, _, err := mdfile.Read(tomlPath, maxConfig)
	var nu *mdfile.NotUTF8Error
	switch {
	case errors.As(err, &nu):
		warn(tomlPath, nu.Line, "not UTF-8 text, read as empty")
	case err != nil:
		return a, err
	default:
		if _, err := toml.Decode(text, &raw); err != nil {
			var pe toml.ParseError
			line := 0
			if errors.As(err, &pe) {
				line = pe.Position.Line
			}
			warn(tomlPath, line, "invalid TOML, read as empty: %s", tomlMessage(err))
			raw = map[string]any{}
		}
	}
	dirName := filepath.Base(filepath.Dir(tomlPath))
	c := config{Path: tomlPath}
	c.ID = strings.TrimSpace(or(raw["id"], dirName))
	if c.ID == "" {
		warn(tomlPath, 0, "skipped: the id is blank")
		return a, nil
	}
	c.Name = strings.TrimSpace(or(raw["name"], c.ID))
	c.Status = strings.ToUpper(strings.TrimSpace(or(raw["status"], unknownStatus)))
	c.Rrule = strings.TrimSpace(or(raw["rrule"], ""))
	c.Trigger = strings.TrimSpace(or(raw["trigger"], ""))
	c.Kind = strings.TrimSpace(or(raw["kind"], ""))
	listKey := "cwds"
	if x.f.copilot {
		listKey = "repos"
	}
	if l, ok := raw[listKey].([]any); ok {
		for _, v := range l {
			if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
				c.Cwds = append(c.Cwds, s)
			}
		}
	}
	a.Config = &c
	if !isFile(memoryPath) {
		return a, nil
	}
	c.Memory = memoryPath
	memory, err := mdfile.Tail(memoryPath, maxMemory)
	if errors.As(err, &nu) {
		warn(memoryPath, 0, "skipped: not UTF-8 text")
		return a, nil
	}
	if err != nil {
		return a, err
	}
	a.Runs = x.runs(c, memory, func(format string, args ...any) { warn(memoryPath, 0, format, args...) })
	return a, nil
}

// withhold marks a configuration whose status makes it private and clears
// what only its (unwritten) entity would show.
func (x Exporter) withhold(c *config) {
	if x.policy().Level("", x.configEntity(c).Tags) != "private" {
		return
	}
	c.Private, c.Name, c.Status, c.Rrule = true, "", "", ""
}

// runHeaderRE is a line starting a run: a date, then anything that does
// not continue a word.
var runHeaderRE = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})(.*)$`)

func runHeader(line string) (date, rest string, ok bool) {
	m := runHeaderRE.FindStringSubmatch(line)
	if m == nil {
		return "", "", false
	}
	if r, _ := utf8.DecodeRuneInString(m[2]); m[2] != "" && (unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_') {
		return "", "", false
	}
	return m[1], m[2], true
}

// runs splits memory.md into its dated runs. Lines before the first date
// are ignored; a run without actions is dropped.
func (x Exporter) runs(c config, memory string, warn func(string, ...any)) []run {
	type chunk struct {
		date  string
		lines []string
	}
	var chunks []chunk
	for _, line := range strings.Split(memory, "\n") {
		line = strings.TrimRightFunc(line, unicode.IsSpace)
		if date, rest, ok := runHeader(strings.TrimSpace(line)); ok {
			ch := chunk{date: date}
			if s := strings.Trim(rest, " -:—"); s != "" {
				ch.lines = append(ch.lines, s)
			}
			chunks = append(chunks, ch)
			continue
		}
		if len(chunks) > 0 {
			chunks[len(chunks)-1].lines = append(chunks[len(chunks)-1].lines, line)
		}
	}
	var runs []run
	for _, ch := range chunks {
		actions := x.actions(ch.lines)
		if len(actions) == 0 {
			continue
		}
		if _, ok := l5.ParseDay(ch.date); !ok {
			warn("skipped the run of %s: not a date", ch.date)
			continue
		}
		r := run{Date: ch.date, Actions: actions, Title: x.title(c, actions)}
		if !x.f.copilot {
			body := strings.Join(actions, " ")
			r.Projects = x.projects(body)
			for _, s := range x.f.signals {
				if s.re.MatchString(body) {
					r.Signals = append(r.Signals, s.name)
				}
			}
		}
		runs = append(runs, r)
	}
	return runs
}

// actions returns a run's actions: its non-empty lines without a leading
// "- ", except "runtime..." lines (and, but for Copilot, "first run",
// "follow-up", and a leading "run:"), scrubbed with battery A, deduped, at
// most maxRunActions.
func (x Exporter) actions(lines []string) []string {
	var out []string
	for _, line := range lines {
		s := strings.TrimSpace(line)
		if s == "" {
			continue
		}
		s = strings.TrimSpace(strings.TrimPrefix(s, "- "))
		low := strings.ToLower(s)
		if s == "" || strings.HasPrefix(low, "runtime") {
			continue
		}
		if !x.f.copilot {
			if low == "first run" || low == "follow-up" {
				continue
			}
			if strings.HasPrefix(low, "run:") {
				s = strings.TrimSpace(s[len("run:"):])
			}
		}
		safe := x.bounded(export.NativeText(s, 0), maxActionChars)
		if safe != "" && !slices.Contains(out, safe) {
			out = append(out, safe)
		}
		if len(out) >= maxRunActions {
			break
		}
	}
	return out
}

func (x Exporter) title(c config, actions []string) string {
	prefix := c.Name + ": "
	if strings.HasPrefix(actions[0], prefix) {
		return x.bounded(actions[0], maxTitle)
	}
	return x.bounded(prefix+actions[0], maxTitle)
}

// projects returns the project hints found in text, without case, each
// once.
func (x Exporter) projects(text string) []string {
	low := strings.ToLower(text)
	var out, seen []string
	for _, h := range x.f.hints {
		k := strings.ToLower(h)
		if strings.Contains(low, k) && !slices.Contains(seen, k) {
			out, seen = append(out, h), append(seen, k)
		}
	}
	return out
}

// bounded collapses white space and cuts s to limit code points, the
// ellipsis included (the reference's helper could end 2 over: docs).
func (x Exporter) bounded(s string, limit int) string {
	return export.Cut(export.CollapseSpace(s), limit, x.f.ellipsis)
}

// Export reads every automation.
func (x Exporter) Export(ctx context.Context, env *export.Env, opts export.Options) (*export.Output, error) {
	dir := x.f.dir(env)
	if !isDir(dir) {
		return nil, export.NotInstalled("no %s directory at %s", x.f.label, dir)
	}
	pol := x.policy()
	out := &export.Output{
		SpecVersion:  "0.1",
		Agent:        export.Agent{ID: x.f.id, Type: "other", Instance: env.Instance(), SpecVersionCompat: x.f.compat, RoleNarrative: x.f.narrative},
		Capabilities: x.f.capabilities,
		Policy:       &pol,
		Sources:      []export.Source{{Kind: "automations", Path: dir}},
	}
	all, err := x.scan(ctx, dir, opts.Cache, out)
	if err != nil {
		return nil, err
	}
	since := ""
	if !opts.Since.IsZero() {
		since = opts.Since.UTC().Format("2006-01-02")
	}
	type dated struct {
		c *config
		r run
	}
	var runs []dated
	for _, a := range all {
		for _, r := range a.Runs {
			if r.Date >= since {
				runs = append(runs, dated{a.Config, r})
			}
		}
	}
	// Newest first; the same day by automation id, descending; the same
	// automation and day in file order.
	slices.SortStableFunc(runs, func(a, b dated) int {
		if c := strings.Compare(b.r.Date, a.r.Date); c != 0 {
			return c
		}
		return strings.Compare(b.c.ID, a.c.ID)
	})

	var sessions []export.Session
	for _, d := range runs {
		sessions = append(sessions, x.session(d.c, d.r))
	}
	if len(sessions) > maxSessions {
		out.Warn(dir, 0, "%d runs, the newest %d are exported", len(sessions), maxSessions)
		sessions = sessions[:maxSessions]
	}

	var entities []export.Entity
	seen := map[string]bool{}
	add := func(e export.Entity) {
		if !seen[e.Name] {
			seen[e.Name] = true
			e.Visibility = "team"
			entities = append(entities, e)
		}
	}
	for _, a := range all {
		if a.Config.Private {
			// Not written, but its name still keeps a project or signal
			// of that name out, as the dropped entity did.
			seen[export.Cut(a.Config.ID, maxName, x.f.ellipsis)] = true
			continue
		}
		add(x.configEntity(a.Config))
	}
	for _, d := range runs {
		if x.f.copilot {
			for _, repo := range d.c.Cwds {
				// A repository name is the user's text: cut to the
				// schema's bound, or one long name fails the export.
				add(export.Entity{Name: export.Cut(repo, maxName, x.f.ellipsis), Type: "project", Summary: "Repository targeted by Copilot automation.",
					LastTouched: d.r.Date, Tags: []string{x.f.tag, "project"}})
			}
			continue
		}
		for _, p := range d.r.Projects {
			add(export.Entity{Name: p, Type: "project", Summary: "Project mentioned by " + x.f.product + " automation run memory.",
				LastTouched: d.r.Date, Tags: []string{x.f.tag, "automation-evidence"}})
		}
		for _, s := range d.r.Signals {
			add(export.Entity{Name: s, Type: "automation-signal", Summary: "Signal class inferred from " + x.f.product + " automation run memory.",
				LastTouched: d.r.Date, Tags: []string{x.f.tag, "automation-signal"}})
		}
	}
	entities = pol.StampEntities(entities)
	if len(entities) > maxEntities {
		out.Warn(dir, 0, "%d entities, the first %d are exported", len(entities), maxEntities)
		entities = entities[:maxEntities]
	}
	out.Entities = entities
	out.Sessions = pol.StampSessions(sessions)
	return out, nil
}

func (x Exporter) session(c *config, r run) export.Session {
	var actions []string
	s := export.Session{Date: r.Date, Visibility: "team"}
	if x.f.copilot {
		second := "kind: " + c.Kind
		if c.Trigger != "" {
			second = "trigger: " + c.Trigger
		}
		actions = append([]string{"automation: " + c.ID, second, "run: " + r.Title}, r.Actions...)
		actions = actions[:min(len(actions), maxRunActions+3)]
		s.Cwd = filepath.Dir(c.Path)
		s.ProjectFocus = slices.Clone(c.Cwds)
		s.FilesTouched = []string{c.Path}
	} else {
		actions = append([]string{automationPrefix + c.ID, "run: " + r.Title}, r.Actions...)
		actions = actions[:min(len(actions), maxRunActions+2)]
		s.Cwd = filepath.Dir(c.Path)
		if len(c.Cwds) > 0 {
			s.Cwd = c.Cwds[0]
		}
		s.ProjectFocus = slices.Clone(r.Projects)
		s.FilesTouched = []string{c.Path}
		if c.Memory != "" {
			s.FilesTouched = append(s.FilesTouched, c.Memory)
		}
	}
	for i, a := range actions {
		actions[i] = export.Cut(a, maxKeyAction, x.f.ellipsis)
	}
	s.KeyActions = actions
	s.Cwd = export.Cut(s.Cwd, maxCwd, x.f.ellipsis)
	return s
}

func (x Exporter) configEntity(c *config) export.Entity {
	var summary string
	if x.f.copilot {
		summary = fmt.Sprintf("Copilot automation '%s' (%s). Trigger: %s. Kind: %s.", c.Name, c.Status, orText(c.Trigger, unspecified), orText(c.Kind, unspecified))
	} else {
		summary = fmt.Sprintf("%s automation '%s' (%s). Schedule: %s.", x.f.product, c.Name, c.Status, orText(c.Rrule, unspecified))
	}
	return export.Entity{
		Name:    export.Cut(c.ID, maxName, x.f.ellipsis),
		Type:    "automation",
		Summary: x.bounded(summary, maxSummary),
		Tags:    []string{x.f.tag, "automation", strings.ToLower(c.Status)},
	}
}

// Health reports the automations found.
func (x Exporter) Health(ctx context.Context, env *export.Env) export.Health {
	dir := x.f.dir(env)
	howto := fmt.Sprintf("Create %s with an automation.toml (%s) and a memory.md of dated runs "+
		"(a line starting with YYYY-MM-DD, then one line per action), one directory per automation.",
		filepath.Join(dir, "<id>"), x.f.format)
	if !isDir(dir) {
		return export.Health{
			Status:  export.StatusBlocked,
			Reason:  fmt.Sprintf("%s automations directory not found at %s.", x.f.product, dir),
			Details: []export.Detail{{Key: "automations_dir", Value: dir}},
			Fix:     howto,
		}
	}
	scratch := &export.Output{}
	all, err := x.scan(ctx, dir, nil, scratch)
	if err != nil {
		return export.Health{
			Status:  export.StatusDegraded,
			Reason:  fmt.Sprintf("Cannot list %s: %v", dir, err),
			Details: []export.Detail{{Key: "automations_dir", Value: dir}},
			Fix:     "Check the permissions of " + dir + ": your user must be able to read it.",
		}
	}
	memories, runs, active := 0, 0, 0
	for _, a := range all {
		if a.Config.Memory != "" {
			memories++
		}
		if a.Config.Status == activeStatus {
			active++
		}
		runs += len(a.Runs)
	}
	h := export.Health{
		Status: export.StatusOK,
		Details: []export.Detail{
			{Key: "automations_dir", Value: dir},
			{Key: "automation_count", Value: len(all)},
			{Key: "memory_files", Value: memories},
			{Key: "runs_extracted", Value: runs},
			{Key: "active_automations", Value: active},
		},
	}
	if len(all) == 0 {
		h.Status, h.Reason, h.Fix = export.StatusDegraded, "No automation.toml files found.", howto
	}
	return h
}

// or returns a scalar v as the reference's str() would, or def when
// Python takes v as false or v is a table or an array.
func or(v any, def string) string {
	switch x := v.(type) {
	case nil:
		return def
	case string:
		if x != "" {
			return x
		}
	case bool:
		if x {
			return "True"
		}
	case int64:
		if x != 0 {
			return strconv.FormatInt(x, 10)
		}
	case float64:
		if x != 0 && !math.IsNaN(x) {
			return yaml11.FloatRepr(x)
		}
		if math.IsNaN(x) {
			return "nan"
		}
	case []any, map[string]any:
		// not a name, a status or a schedule
	default:
		return fmt.Sprint(x)
	}
	return def
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func tomlMessage(err error) string {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return pe.Message
	}
	return err.Error()
}

func isDir(p string) bool { st, err := os.Stat(p); return err == nil && st.IsDir() }

func isFile(p string) bool { st, err := os.Stat(p); return err == nil && st.Mode().IsRegular() }
