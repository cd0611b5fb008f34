// Package runner runs exporters and writes what they read into the
// library: the engine of `bourdon export-all` and of the per-agent hook
// commands (`bourdon <agent> export`).
//
// For each exporter, in agent-id order, Run loads the agent's incremental
// cache, calls Export, applies the server's redaction battery to every
// string of the document (Redact) and the access-level filter, checks the
// document against the L5 schema, and commits it through
// commit.Writer.Export (the per-agent lock, the exporter's own rows
// replaced and every other row kept, no_op, history, provenance). The
// cache is saved only when it changed. One agent's failure, even a panic,
// is its own error row and never stops the others.
package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/registry"
	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// Statuses of a Result.
const (
	// StatusOK: the manifest (or the --out file) was written.
	StatusOK = "ok"
	// StatusNoOp: the manifest already held exactly this; nothing written.
	StatusNoOp = "no_op"
	// StatusSkipped: the agent has no store on this machine, or it is
	// excluded (Options.Skip, the library's SettingsFile); nothing written.
	StatusSkipped = "skipped"
	// StatusError: the export failed; nothing written for this agent.
	StatusError = "error"
	// StatusWouldWrite: a dry run that would have changed the manifest.
	StatusWouldWrite = "would_write"
)

// DefaultAccessLevel is the access level exports are filtered at unless
// told otherwise, as in the reference's CLI.
const DefaultAccessLevel = "team"

// MaxWarnings bounds the warnings a Result lists; WarningsTotal counts
// them all.
const MaxWarnings = 50

// Options say what to run and how.
type Options struct {
	// Library is the library directory. It may be empty only with Out.
	// It holds the settings (SettingsFile) and the incremental caches,
	// also when Writer writes elsewhere.
	Library string
	// Writer, when set, is the write path the manifests go to (a
	// PostgreSQL store's, commit.OnStore); nil writes into Library.
	Writer *commit.Writer
	// Env is the machine the exporters read; nil is export.SystemEnv().
	Env *export.Env
	// Exporters are the exporters to run; nil is registry.All().
	Exporters []export.Exporter
	// Agent, when not empty, runs only the exporter of that agent id.
	Agent string
	// Skip are agent ids left out (--skip): each is a StatusSkipped row,
	// "excluded by --skip", and nothing is written for it. The library's
	// settings (SettingsFile) add theirs, unless Out is set. An id no
	// exporter has is an error.
	Skip []string
	// Since, when not zero, keeps only sessions on or after it.
	Since time.Time
	// AccessLevel drops the rows above it: "public", "team" or "private";
	// "" is DefaultAccessLevel.
	AccessLevel string
	// DryRun writes nothing, caches included; the results say what would
	// change (StatusWouldWrite, StatusNoOp).
	DryRun bool
	// Out, when set, writes the document (redacted, filtered, validated)
	// to this file, atomically, instead of committing it into the
	// library; no cache is read or written. It needs exactly one exporter.
	Out string
	// KeepDocuments sets each Result's Document (for --print).
	KeepDocuments bool
	// Now is the clock of last_updated and of durations; nil is time.Now.
	Now func() time.Time
	// Progress, when set, is told when each agent starts (Result nil) and
	// when it ends.
	Progress func(Progress)
}

// Progress is one step of a run.
type Progress struct {
	Index, Total int // Index counts from 0
	Agent        string
	Result       *Result // nil when the agent starts
}

// Result is what happened to one agent.
type Result struct {
	Agent  string `json:"agent"`
	Status string `json:"status"`
	// Path is the file written (or that would be, or that holds the
	// unchanged manifest); empty for skipped and error rows.
	Path string `json:"path,omitempty"`
	// Entities and Sessions count the exporter's rows after the access
	// filter (what it contributes to the manifest).
	Entities int `json:"entities"`
	Sessions int `json:"sessions"`
	// Filtered counts the rows the access level dropped.
	Filtered int `json:"filtered,omitempty"`
	// Changes says what the export changed in the manifest; nil for
	// skipped and error rows and with Out.
	Changes *Changes `json:"changes,omitempty"`
	// Warnings are the units the exporter skipped ("file:line: message"),
	// at most MaxWarnings of WarningsTotal.
	Warnings      []string `json:"warnings,omitempty"`
	WarningsTotal int      `json:"warnings_total,omitempty"`
	// Reason says why an agent was skipped or failed.
	Reason string `json:"reason,omitempty"`
	// CacheHits counts the source units served from the incremental
	// cache, CacheReads those read.
	CacheHits  int   `json:"cache_hits"`
	CacheReads int   `json:"cache_reads"`
	DurationMS int64 `json:"duration_ms"`
	// Document is the exporter's document as it was committed (or
	// written to Out): redacted, filtered, valid. Set only with
	// Options.KeepDocuments, and not for skipped and error rows.
	Document *yaml11.Map `json:"-"`
}

// Changes is what an export changed in (or, in a dry run, would change
// in) the manifest.
type Changes struct {
	EntitiesAdded   int    `json:"entities_added"`
	EntitiesUpdated int    `json:"entities_updated"`
	EntitiesRemoved int    `json:"entities_removed"`
	SessionsAdded   int    `json:"sessions_added"`
	SessionsUpdated int    `json:"sessions_updated"`
	SessionsRemoved int    `json:"sessions_removed"`
	TotalEntities   int    `json:"total_entities"`
	TotalSessions   int    `json:"total_sessions"`
	Digest          string `json:"digest"`
}

// Failed reports whether any agent failed (skipped agents did not).
func Failed(results []Result) bool {
	for _, r := range results {
		if r.Status == StatusError {
			return true
		}
	}
	return false
}

// Run runs the exporters and returns one Result per agent, in agent-id
// order. The error is for options it cannot run (an unknown agent, a bad
// access level, no environment); what goes wrong with an agent is in its
// Result. A cancelled ctx stops the run: agents not started get an error
// row.
func Run(ctx context.Context, opts Options) ([]Result, error) {
	level, ok := visibility.Parse(orDefault(opts.AccessLevel, DefaultAccessLevel))
	if !ok {
		return nil, fmt.Errorf("unsupported access level %q: use public, team or private", opts.AccessLevel)
	}
	exporters := opts.Exporters
	if exporters == nil {
		exporters = registry.All()
	}
	var ids []string
	for _, e := range exporters {
		ids = append(ids, e.Info().ID)
	}
	if opts.Agent != "" {
		var one []export.Exporter
		for _, e := range exporters {
			if e.Info().ID == opts.Agent {
				one = append(one, e)
			}
		}
		if len(one) == 0 {
			return nil, knownAgent(opts.Agent, ids)
		}
		exporters = one
	}
	if opts.Out != "" && len(exporters) != 1 {
		return nil, errors.New("an output file takes exactly one exporter")
	}
	if opts.Out == "" && opts.Library == "" {
		return nil, errors.New("no library directory")
	}
	skipped := map[string]string{} // agent id: why
	for _, id := range opts.Skip {
		if err := knownAgent(id, ids); err != nil {
			return nil, fmt.Errorf("--skip: %w", err)
		}
		skipped[id] = "excluded by --skip"
	}
	if opts.Out == "" {
		settings, err := LoadSettings(opts.Library, ids)
		if err != nil {
			return nil, err
		}
		for _, id := range settings.Skip {
			if _, ok := skipped[id]; !ok {
				skipped[id] = "excluded by " + SettingsPath(opts.Library)
			}
		}
	}
	env := opts.Env
	if env == nil {
		var err error
		if env, err = export.SystemEnv(); err != nil {
			return nil, err
		}
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	r := &run{opts: opts, env: env, level: level, now: now}
	if opts.Out == "" {
		r.caches = commit.New(opts.Library)
		r.writer = opts.Writer
		if r.writer == nil {
			r.writer = r.caches
		}
		r.writer.Now = now
	}
	results := make([]Result, 0, len(exporters))
	for i, e := range exporters {
		id := e.Info().ID
		if err := ctx.Err(); err != nil {
			results = append(results, Result{Agent: id, Status: StatusError, Reason: "not run: " + err.Error()})
			continue
		}
		if opts.Progress != nil {
			opts.Progress(Progress{Index: i, Total: len(exporters), Agent: id})
		}
		var res Result
		if why, ok := skipped[id]; ok {
			res = Result{Agent: id, Status: StatusSkipped, Reason: why}
		} else {
			res = r.one(ctx, e)
		}
		results = append(results, res)
		if opts.Progress != nil {
			opts.Progress(Progress{Index: i, Total: len(exporters), Agent: id, Result: &res})
		}
	}
	return results, nil
}

type run struct {
	opts   Options
	env    *export.Env
	level  visibility.Level
	now    func() time.Time
	writer *commit.Writer // nil with Out
	caches *commit.Writer // the library directory's, for the caches; nil with Out
}

// one runs one exporter; a panic anywhere in it is the agent's error row.
// maxCacheBytes bounds an export cache file; a larger one is read as empty.
const maxCacheBytes = 512 << 20

func (r *run) one(ctx context.Context, e export.Exporter) (res Result) {
	start := r.now()
	id := e.Info().ID
	defer func() {
		if p := recover(); p != nil {
			res = Result{Agent: id, Status: StatusError, Reason: redact.Secret(fmt.Sprintf("panic: %v (%s)", p, panicSite(debug.Stack())))}
		}
		res.Agent = id
		res.Reason = redact.Secret(res.Reason)
		res.DurationMS = r.now().Sub(start).Milliseconds()
	}()
	res = Result{Agent: id}
	fail := func(format string, args ...any) Result {
		res.Status, res.Reason = StatusError, fmt.Sprintf(format, args...)
		res.Path, res.Changes, res.Document = "", nil, nil
		return res
	}

	var cache *export.Cache
	cachePath := ""
	if r.writer != nil {
		cachePath = r.caches.CachePath(id)
		data, err := r.caches.ReadCache(id, maxCacheBytes)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: cannot read the cache, reading everything: %v", cachePath, err))
		}
		cache = export.LoadCache(data)
	}
	out, err := e.Export(ctx, r.env, export.Options{Since: r.opts.Since, Cache: cache})
	if cache != nil {
		res.CacheHits, res.CacheReads = cache.Stats()
	}
	switch {
	case errors.Is(err, export.ErrNotInstalled):
		res.Status, res.Reason = StatusSkipped, err.Error()
		return res
	case err != nil:
		return fail("%v", err)
	case out == nil:
		return fail("the exporter returned nothing")
	}
	res.WarningsTotal = len(res.Warnings) + len(out.Warnings)
	for _, w := range out.Warnings {
		if len(res.Warnings) < MaxWarnings {
			w.File, w.Msg = redact.Secret(w.File), redact.Secret(w.Msg)
			res.Warnings = append(res.Warnings, w.String())
		}
	}
	if out.Agent.ID != id {
		return fail("the exporter of %s wrote the manifest of agent %q", id, out.Agent.ID)
	}

	doc := export.RedactDocument(out.Manifest(isoTime(r.now()))).(*yaml11.Map)
	res.Filtered = FilterAccess(doc, r.level)
	if vs := l5.Validate(doc); len(vs) > 0 {
		return fail("the export does not match the L5 schema, nothing was written: %s", violations(vs))
	}
	res.Entities, res.Sessions = len(rowsOf(doc, l5.KeyEntities)), len(rowsOf(doc, l5.KeySessions))
	if r.opts.KeepDocuments {
		res.Document = doc
	}

	if r.writer == nil {
		res.Path, res.Status = r.opts.Out, StatusWouldWrite
		if r.opts.DryRun {
			return res
		}
		data, err := yaml11.Encode(doc)
		if err == nil {
			err = fsutil.WriteAtomic(r.opts.Out, data, 0o644)
		}
		if err != nil {
			return fail("writing %s: %v", r.opts.Out, err)
		}
		res.Status = StatusOK
		return res
	}

	er, err := r.writer.Export(ctx, commit.ExportRequest{AgentID: id, Document: doc, DryRun: r.opts.DryRun})
	if err != nil {
		return fail("%v", err)
	}
	res.Path = er.Path
	res.Changes = &Changes{
		EntitiesAdded: er.EntitiesAdded, EntitiesUpdated: er.EntitiesUpdated, EntitiesRemoved: er.EntitiesRemoved,
		SessionsAdded: er.SessionsAdded, SessionsUpdated: er.SessionsUpdated, SessionsRemoved: er.SessionsRemoved,
		TotalEntities: er.TotalEntities, TotalSessions: er.TotalSessions, Digest: er.Digest,
	}
	switch {
	case er.NoOp:
		res.Status = StatusNoOp
	case r.opts.DryRun:
		res.Status = StatusWouldWrite
	default:
		res.Status = StatusOK
	}
	if !r.opts.DryRun && cache.Changed() {
		if err := saveCache(r.caches, id, cache); err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: the cache was not saved (the next export reads everything again): %v", cachePath, err))
			res.WarningsTotal++
		}
	}
	return res
}

// saveCache writes a cache with every string value redacted: what an
// exporter derived from a store reaches the disk no more than its
// manifest does. Only the owner may read it: it holds rows the access
// filter may drop.
func saveCache(w *commit.Writer, id string, c *export.Cache) error {
	data, err := c.Marshal()
	if err != nil {
		return err
	}
	return w.WriteCache(id, redact.JSON(data))
}

// rowLists are the keys of a manifest's lists of rows.
var rowLists = []string{l5.KeySessions, l5.KeyEntities, l5.KeyWorkstreams, l5.KeyNotes}

// FilterAccess removes from a document's lists of rows every row whose
// visibility is above level (a row without one counts as public, as in
// the reference's CLI; an unknown value as private) and every item that
// is not a row, drops a list left empty, and returns how many rows it
// removed.
func FilterAccess(doc *yaml11.Map, level visibility.Level) int {
	n := 0
	for _, key := range rowLists {
		list, ok := doc.Value(key).([]any)
		if !ok {
			continue
		}
		kept := make([]any, 0, len(list))
		for _, r := range list {
			row, isRow := r.(*yaml11.Map)
			if isRow && visibility.Visible(visibility.OfRow(row.Value("visibility"), visibility.Public), level) {
				kept = append(kept, r)
			} else {
				n++
			}
		}
		if len(kept) == 0 {
			doc.Delete(key)
		} else {
			doc.Set(key, kept)
		}
	}
	return n
}

func rowsOf(doc *yaml11.Map, key string) []any {
	l, _ := doc.Value(key).([]any)
	return l
}

// violations renders the first few schema violations.
func violations(vs []l5.Violation) string {
	const show = 3
	parts := make([]string, 0, show)
	for i, v := range vs {
		if i == show {
			parts = append(parts, fmt.Sprintf("and %d more", len(vs)-show))
			break
		}
		parts = append(parts, v.String())
	}
	return strings.Join(parts, "; ")
}

// panicSite returns the function and line a panic came from: the first
// frame of the stack below the runtime's panic machinery.
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i := 0; i+1 < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "panic(") {
			continue
		}
		for j := i + 2; j+1 < len(lines); j += 2 {
			if strings.HasPrefix(lines[j], "runtime.") {
				continue
			}
			fn := lines[j]
			if k := strings.LastIndexByte(fn, '('); k > 0 {
				fn = fn[:k]
			}
			fn = fn[strings.LastIndexByte(fn, '/')+1:]
			loc, _, _ := strings.Cut(strings.TrimSpace(lines[j+1]), " ")
			return "in " + fn + " at " + filepath.Base(loc)
		}
	}
	return "at an unknown place"
}

// isoTime renders t as the reference's exporters write last_updated
// (Python's isoformat of a UTC datetime).
func isoTime(t time.Time) string {
	return yaml11.Timestamp{Time: t.UTC(), HasZone: true}.ISOFormat()
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
