// Package codex exports the memory of Codex (the OpenAI CLI): its threads
// (state_5.sqlite, session_index.jsonl and the rollouts under sessions/
// and archived_sessions/), its memories (memories/MEMORY.md,
// raw_memories.md, rollout_summaries/) and the optional ~/codex-brain
// overlay, mapped to L5 as the Python reference's codex participant does
// (§3 of the exporters' behaviour spec), with its known bugs fixed as
// docs/exporters.md ("codex") says.
package codex

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/codexstore"
)

// Contract strings shared with the reference.
const (
	AgentID       = "codex"
	AgentType     = "code-assistant"
	SpecVersion   = "0.1"
	roleNarrative = "Lead code-assistant. Organizes project code and executes prime code. " +
		"Consults with Claude on solutions, problems, and issues via PR or the Slack #agents channel."
)

// policy is the reference's visibility policy for Codex.
func policy() *export.Policy {
	return &export.Policy{
		Default:     "team",
		PrivateTags: export.PrivateTags(),
		TeamTags:    []string{"codex-memory", "workspace"},
	}
}

// Exporter reads Codex's home.
type Exporter struct{}

// New returns the Codex exporter.
func New() Exporter { return Exporter{} }

// Info describes the agent.
func (Exporter) Info() export.Info {
	return export.Info{ID: AgentID, Type: AgentType, Label: "Codex"}
}

// Detect reports the Codex home ($CODEX_HOME when it is a directory, else
// ~/.codex) and whether it exists.
func (Exporter) Detect(env *export.Env) export.Presence {
	if h := home(env); h != "" {
		return export.Presence{Path: h, Present: true}
	}
	return export.Presence{Path: env.HomePath(".codex")}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// home returns the Codex home, or "" when there is none.
func home(env *export.Env) string {
	if v := env.Var("CODEX_HOME"); v != "" {
		if p := env.ExpandHome(codexstore.LocalPath(v, env.GOOS)); isDir(p) {
			return p
		}
	}
	if p := env.HomePath(".codex"); isDir(p) {
		return p
	}
	return ""
}

// layout is where everything Codex keeps is, and what of it exists.
type layout struct {
	home, brain string // "" when absent
	goos        string
	homeName    string // the user's home directory's base name, lower-cased
}

func (l layout) path(elem ...string) string {
	return filepath.Join(append([]string{l.home}, elem...)...)
}

func newLayout(env *export.Env) layout {
	l := layout{home: home(env), goos: env.GOOS, homeName: strings.ToLower(filepath.Base(env.Home))}
	if p := env.HomePath("codex-brain"); isDir(p) {
		l.brain = p
	}
	return l
}

// sources lists the discovery sources in the reference's order, with the
// path of those present ("" for the others).
func (l layout) sources() []export.Source {
	src := []export.Source{{Kind: "codex_home", Path: l.home}}
	add := func(kind, p string, ok bool) {
		if !ok {
			p = ""
		}
		src = append(src, export.Source{Kind: kind, Path: p})
	}
	h := l.home != ""
	add("state_db", l.path("state_5.sqlite"), h && isFile(l.path("state_5.sqlite")))
	add("session_index", l.path("session_index.jsonl"), h && isFile(l.path("session_index.jsonl")))
	add("sessions_dir", l.path("sessions"), h && isDir(l.path("sessions")))
	add("memories_dir", l.path("memories"), h && isDir(l.path("memories")))
	add("memory_md", l.path("memories", "MEMORY.md"), h && isFile(l.path("memories", "MEMORY.md")))
	add("raw_memories", l.path("memories", "raw_memories.md"), h && isFile(l.path("memories", "raw_memories.md")))
	add("rollout_summaries_dir", l.path("memories", "rollout_summaries"), h && isDir(l.path("memories", "rollout_summaries")))
	add("codex_brain", l.brain, l.brain != "")
	return src
}

// Export reads the Codex home and the codex-brain overlay.
func (Exporter) Export(ctx context.Context, env *export.Env, opts export.Options) (*export.Output, error) {
	l := newLayout(env)
	if l.home == "" && l.brain == "" {
		return nil, export.NotInstalled("no Codex home (%s or $CODEX_HOME) and no %s", env.HomePath(".codex"), env.HomePath("codex-brain"))
	}
	out := &export.Output{
		SpecVersion: SpecVersion,
		Agent: export.Agent{ID: AgentID, Type: AgentType, Instance: env.Instance(),
			SpecVersionCompat: ">=" + SpecVersion, RoleNarrative: roleNarrative},
		Policy: policy(),
	}
	for _, s := range l.sources() {
		if s.Path != "" {
			out.Sources = append(out.Sources, s)
			out.Capabilities = append(out.Capabilities, s.Kind)
		}
	}
	sort.Strings(out.Capabilities)

	r := &reader{l: l, cache: opts.Cache, out: out, ctx: ctx}
	records := r.records()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	mem := r.memory()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	assemble(out, l, records, mem, opts)
	return out, nil
}

// reader reads the units of one export, through the cache.
type reader struct {
	l     layout
	cache *export.Cache
	out   *export.Output
	ctx   context.Context
	// rollouts holds every rollout file under sessions/ and
	// archived_sessions/, sorted; sessions counts those under sessions/.
	rollouts []string
	sessions int
	listed   bool
}

func (r *reader) warn(ws ...export.Warning) { r.out.Warnings = append(r.out.Warnings, ws...) }

// listRollouts lists the .jsonl files of sessions/ and archived_sessions/
// (their metadata only).
func (r *reader) listRollouts() {
	if r.listed || r.l.home == "" {
		return
	}
	r.listed = true
	for i, dir := range []string{r.l.path("sessions"), r.l.path("archived_sessions")} {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p != dir {
					r.warn(export.Warning{File: p, Msg: "cannot be listed: " + err.Error()})
				}
				return nil
			}
			if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".jsonl") {
				r.rollouts = append(r.rollouts, p)
			}
			return nil
		})
		if i == 0 {
			r.sessions = len(r.rollouts)
		}
	}
}

// rollout returns what the rollout at path yields (cached per file).
func (r *reader) rollout(path string) (rolloutInfo, bool) {
	fp, err := export.Stat(path)
	if err != nil {
		r.warn(export.Warning{File: path, Msg: "cannot be read: " + err.Error()})
		return rolloutInfo{}, false
	}
	info, err := export.Cached(r.cache, "codex/rollout:"+path, fp, func() (rolloutInfo, error) { return scanRollout(path) })
	if err != nil {
		r.warn(export.Warning{File: path, Msg: "cannot be read: " + err.Error()})
		return rolloutInfo{}, false
	}
	r.warn(info.Warnings...)
	return info, true
}

// state returns the threads of the state database, or nil (with a
// warning) when it cannot be read.
func (r *reader) state() []threadRow {
	path := r.l.path("state_5.sqlite")
	if r.l.home == "" || !isFile(path) {
		return nil
	}
	fp, err := export.Stat(path, path+"-wal")
	if err != nil {
		r.warn(export.Warning{File: path, Msg: "cannot be read: " + err.Error()})
		return nil
	}
	res, err := export.Cached(r.cache, "codex/state:"+path, fp, func() (stateResult, error) {
		res, err := readState(r.ctx, path, 0)
		if err != nil {
			if r.ctx.Err() != nil {
				return res, err
			}
			return stateResult{Err: err.Error()}, nil
		}
		return res, nil
	})
	if err != nil {
		return nil
	}
	if res.Err != "" {
		r.warn(export.Warning{File: path, Msg: "cannot be read (" + res.Err + "); the threads come from session_index.jsonl and the rollouts instead"})
	}
	r.warn(res.Warnings...)
	return res.Threads
}

// indexEntries returns session_index.jsonl's entries, one per thread id:
// its last line (the thread's latest name; ⚠ #8: the reference keeps
// every line, so a renamed thread was two sessions).
func (r *reader) indexEntries() []codexstore.IndexEntry {
	path := r.l.path("session_index.jsonl")
	if r.l.home == "" || !isFile(path) {
		return nil
	}
	fp, err := export.Stat(path)
	if err != nil {
		r.warn(export.Warning{File: path, Msg: "cannot be read: " + err.Error()})
		return nil
	}
	type indexResult struct {
		Entries  []codexstore.IndexEntry `json:"e,omitempty"`
		Warnings []export.Warning        `json:"w,omitempty"`
	}
	res, err := export.Cached(r.cache, "codex/index:"+path, fp, func() (indexResult, error) {
		var res indexResult
		pos := map[string]int{}
		long, err := nativestoreLines(path, func(n int, line []byte) error {
			if len(strings.TrimSpace(string(line))) == 0 {
				return nil
			}
			e, ok, parsed := codexstore.DecodeIndexLine(line)
			if !parsed {
				res.Warnings = append(res.Warnings, export.Warning{File: path, Line: n, Msg: "not JSON; skipped"})
				return nil
			}
			if !ok {
				return nil
			}
			if i, seen := pos[e.ID]; seen {
				res.Entries[i] = e
			} else {
				pos[e.ID] = len(res.Entries)
				res.Entries = append(res.Entries, e)
			}
			return nil
		})
		for _, n := range long {
			res.Warnings = append(res.Warnings, export.Warning{File: path, Line: n, Msg: "longer than the line bound; skipped"})
		}
		return res, err
	})
	if err != nil {
		r.warn(export.Warning{File: path, Msg: "cannot be read: " + err.Error()})
		return nil
	}
	r.warn(res.Warnings...)
	return res.Entries
}

// errNotUTF8 marks a memory file that is not UTF-8.
var errNotUTF8 = errors.New("not valid UTF-8")

// memFile is what one memory file yields.
type memFile struct {
	S       sections             `json:"s"`
	Threads map[string]*sections `json:"t,omitempty"`
	Err     string               `json:"e,omitempty"`
}

// memoryData is the distilled memory of every file, merged in the
// reference's order.
type memoryData struct {
	sections
	threads map[string]*sections
}

func (m *memoryData) count() int {
	n := m.sections.count()
	for _, t := range m.threads {
		n += t.count()
	}
	return n
}

func (m *memoryData) addThread(id string, s *sections) {
	if m.threads[id] == nil {
		m.threads[id] = &sections{}
	}
	m.threads[id].extend(s)
}

// maxMemoryFile bounds one memory file read whole.
const maxMemoryFile = 64 << 20

// memory reads the memory files: MEMORY.md (without the Bourdon block),
// raw_memories.md (and its per-thread blocks), rollout_summaries/*.md
// (sorted), then every non-empty .md/.txt file of ~/codex-brain.
func (r *reader) memory() *memoryData {
	m := &memoryData{threads: map[string]*sections{}}
	read := func(path, kind string) {
		fp, err := export.Stat(path)
		if err != nil {
			r.warn(export.Warning{File: path, Msg: "cannot be read: " + err.Error()})
			return
		}
		f, err := export.Cached(r.cache, "codex/memory:"+path, fp, func() (memFile, error) {
			st, err := os.Stat(path)
			if err != nil {
				return memFile{}, err
			}
			if st.Size() > maxMemoryFile {
				return memFile{Err: "larger than 64 MiB; skipped"}, nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return memFile{}, err
			}
			if !utf8Valid(data) {
				return memFile{Err: errNotUTF8.Error() + "; skipped"}, nil
			}
			text := strings.TrimPrefix(string(data), "\ufeff")
			var f memFile
			switch kind {
			case "memory_md":
				f.S = parseMemory(stripBourdonBlock(text))
			case "raw_memories":
				f.S = parseMemory(text)
				f.Threads = parseRawMemoryThreads(text)
			default:
				f.S = parseMemory(text)
			}
			return f, nil
		})
		if err != nil {
			r.warn(export.Warning{File: path, Msg: "cannot be read: " + err.Error()})
			return
		}
		if f.Err != "" {
			r.warn(export.Warning{File: path, Msg: f.Err})
			return
		}
		m.extend(&f.S)
		for _, id := range sortedKeys(f.Threads) {
			m.addThread(id, f.Threads[id])
		}
	}
	if r.l.home != "" && isDir(r.l.path("memories")) {
		if p := r.l.path("memories", "MEMORY.md"); isFile(p) {
			read(p, "memory_md")
		}
		if p := r.l.path("memories", "raw_memories.md"); isFile(p) {
			read(p, "raw_memories")
		}
		if entries, err := os.ReadDir(r.l.path("memories", "rollout_summaries")); err == nil {
			for _, e := range entries {
				if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".md") {
					read(r.l.path("memories", "rollout_summaries", e.Name()), "rollout_summary")
				}
			}
		}
	}
	if r.l.brain != "" {
		_ = filepath.WalkDir(r.l.brain, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			lower := strings.ToLower(p)
			if !strings.HasSuffix(lower, ".md") && !strings.HasSuffix(lower, ".txt") {
				return nil
			}
			if st, err := d.Info(); err != nil || st.Size() == 0 {
				return nil
			}
			read(p, "codex_brain")
			return nil
		})
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
