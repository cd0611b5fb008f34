package codex

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/export/codexstore"
	"github.com/getbourdon/bourdon-go/internal/export/nativestore"
)

func nativestoreLines(path string, fn func(n int, line []byte) error) ([]int, error) {
	return nativestore.FileLines(path, 0, fn)
}

func utf8Valid(b []byte) bool { return utf8.Valid(b) }

// record is one Codex thread seen as a session.
type record struct {
	ID         string
	ThreadName string
	UpdatedAt  string
	Date       string
	Cwd        string
	HasCwd     bool
	HasRollout bool
	Concepts   []string
	Files      []string
}

// records returns the threads that are sessions (§3.4), newest first.
//
// When the state database yields threads, they are the sessions, with the
// rollouts under sessions/ that are not among them and are dated on or
// after the newest thread's day. Otherwise the session index names the
// threads (one per id, its last line) and every rollout under sessions/
// that the index does not name is a session too (⚠ #8: the reference
// ignores those). Either way an un-named rollout is named after its
// concepts, or its date.
func (r *reader) records() []record {
	threads := r.state()
	if len(threads) > 0 {
		return r.stateRecords(threads)
	}
	return r.indexRecords()
}

func (r *reader) stateRecords(threads []threadRow) []record {
	var recs []record
	known := map[string]bool{}
	latest := ""
	for _, t := range threads {
		if r.ctx.Err() != nil {
			return nil
		}
		rec := record{ID: t.ID, ThreadName: t.Name, UpdatedAt: t.UpdatedAt, Date: t.Date, Cwd: t.Cwd, HasCwd: t.HasCwd}
		own := conceptsOf(t.Flag)
		var raw []string
		if p := codexstore.LocalPath(t.Rollout, r.l.goos); t.Rollout != "" && isFile(p) {
			if info, ok := r.rollout(p); ok {
				rec.HasRollout = true
				raw = conceptsOf(info.RawFlags)
				rec.Files = info.Files
			}
		}
		rec.Concepts = dedupeFold(append(own, raw...))
		recs = append(recs, rec)
		known[t.ID] = true
		latest = max(latest, t.Date)
	}
	recs = append(recs, r.unindexed(known, latest)...)
	return mergeRecords(recs)
}

func (r *reader) indexRecords() []record {
	entries := r.indexEntries()
	slices.SortStableFunc(entries, func(a, b codexstore.IndexEntry) int { return strings.Compare(b.UpdatedAt, a.UpdatedAt) })
	r.listRollouts()
	wanted := map[string]bool{}
	for _, e := range entries {
		wanted[e.ID] = true
	}
	// The first rollout (sessions/ before archived_sessions/, sorted) whose
	// name ends with -<id>.jsonl.
	found := map[string]string{}
	for _, p := range r.rollouts {
		for _, id := range codexstore.RolloutIDCandidates(filepath.Base(p)) {
			if wanted[id] && found[id] == "" {
				found[id] = p
			}
		}
	}
	var recs []record
	known := map[string]bool{}
	for _, e := range entries {
		if r.ctx.Err() != nil {
			return nil
		}
		known[e.ID] = true
		var info rolloutInfo
		hasRollout := false
		if p := found[e.ID]; p != "" {
			info, hasRollout = r.rollout(p)
		}
		name := e.ThreadName
		if name == "" {
			name = "(untitled)"
		}
		updated := cmpOr(e.UpdatedAt, info.Meta.Timestamp)
		day := isoDay(updated)
		if day == "" {
			continue
		}
		recs = append(recs, record{
			ID: e.ID, ThreadName: norm(name), UpdatedAt: updated, Date: day,
			Cwd: info.Meta.Cwd, HasCwd: info.Meta.HasCwd, HasRollout: hasRollout,
			Concepts: dedupeFold(append(conceptsOf(conceptFlags(e.ThreadName)|info.UserFlags), conceptsOf(info.RawFlags)...)),
			Files:    info.Files,
		})
	}
	recs = append(recs, r.unindexed(known, "")...)
	return mergeRecords(recs)
}

// unindexed returns the rollouts under sessions/ whose meta id is not in
// known, dated on or after after.
func (r *reader) unindexed(known map[string]bool, after string) []record {
	r.listRollouts()
	var recs []record
	for _, p := range r.rollouts[:r.sessions] {
		if r.ctx.Err() != nil {
			return nil
		}
		info, ok := r.rollout(p)
		if !ok || !info.HasMeta || info.Meta.ID == "" || known[info.Meta.ID] {
			continue
		}
		day := isoDay(info.Meta.Timestamp)
		if day == "" || day < after {
			continue
		}
		c := conceptsOf(info.RawFlags)
		recs = append(recs, record{
			ID: info.Meta.ID, ThreadName: nameFromConcepts(c, day), UpdatedAt: info.Meta.Timestamp, Date: day,
			Cwd: info.Meta.Cwd, HasCwd: info.Meta.HasCwd, HasRollout: true, Concepts: c,
		})
	}
	return recs
}

// nameFromConcepts names a thread nothing else names.
func nameFromConcepts(c []string, day string) string {
	if slices.Contains(c, concepts[combinedConcept].name) {
		return concepts[combinedConcept].name
	}
	if len(c) > 0 {
		return "Codex session about " + strings.Join(c[:min(3, len(c))], ", ")
	}
	return "Codex session " + day
}

// mergeRecords keeps the first record of each id and sorts newest first by
// (date, instant, updated_at).
func mergeRecords(recs []record) []record {
	seen := map[string]bool{}
	out := recs[:0]
	for _, rec := range recs {
		if rec.ID == "" || seen[rec.ID] {
			continue
		}
		seen[rec.ID] = true
		out = append(out, rec)
	}
	slices.SortStableFunc(out, func(a, b record) int {
		return cmp.Or(strings.Compare(b.Date, a.Date), cmp.Compare(instant(b.UpdatedAt), instant(a.UpdatedAt)),
			strings.Compare(b.UpdatedAt, a.UpdatedAt))
	})
	return out
}

var _ = os.Stat
