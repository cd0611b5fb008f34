package turn

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export/codexstore"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// Reading recent Codex threads without SQLite.
//
// The reference selects the 60 most recently updated rows of the threads
// table of $CODEX_HOME/state_5.sqlite (title or first user message, cwd,
// rollout path, updated_at). This module has no SQLite reader and adds
// none, so it reads the files Codex writes next to that database:
//
//   - sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl, one per thread,
//     appended while the thread runs; the first line is the session_meta
//     record ({"type":"session_meta","payload":{"id","timestamp","cwd",
//     ...}}, or the bare meta object of older versions). The file's
//     modification time is the thread's last update.
//   - session_index.jsonl: {"id","thread_name","updated_at"} lines, the
//     latest line of an id naming its thread.
//   - history.jsonl: {"session_id","ts","text"} lines, one per user
//     prompt; a thread without a name is named by its first prompt.
//
// Threads without a name are skipped, as the reference skips "(untitled)".
// Every file read is bounded in size, the whole read in time
// (Env.ThreadsTimeout); what is not read in time is left out and said so
// in diagnostics.codex_state. Stage 1 job counters live only in the
// database, so native_stage1 stays "unknown".

const (
	maxThreads        = 60
	maxRolloutScan    = 500     // newest rollout paths whose times are compared
	maxMetaLine       = 1 << 20 // longest session_meta line read
	maxIndexTail      = 1 << 20 // tail of session_index.jsonl read
	maxHistoryTail    = 4 << 20 // tail of history.jsonl read
	threadRecordLimit = 180     // the reference's _safe_summary limit for titles
)

// threadRecord is one Codex thread, as the reference's lightweight
// session record.
type threadRecord struct {
	id         string
	name       string
	date       string // YYYY-MM-DD of the last update (UTC)
	cwd        *string
	hasRollout bool
}

func (t threadRecord) summary() string {
	if t.cwd != nil && *t.cwd != "" {
		return "cwd " + *t.cwd
	}
	return "Recent Codex thread metadata."
}

func (t threadRecord) evidence() []string {
	var ev []string
	if t.date != "" {
		ev = append(ev, "thread date "+t.date)
	}
	if t.hasRollout {
		ev = append(ev, "rollout available")
	}
	if t.cwd != nil && *t.cwd != "" {
		ev = append(ev, "cwd "+*t.cwd)
	}
	return ev
}

// threadsResult is what readThreads found.
type threadsResult struct {
	records []threadRecord
	state   *CodexState // nil when the Codex home holds nothing to report
}

// codexHome returns the Codex home: Env.CodexHome, else $CODEX_HOME when
// it is a directory, else ~/.codex when it is one; "" for none.
func (c *Compiler) codexHome() string {
	isDir := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && fi.IsDir()
	}
	switch c.env.CodexHome {
	case "-":
		return ""
	case "":
	default:
		if isDir(c.env.CodexHome) {
			return c.env.CodexHome
		}
		return ""
	}
	if h := c.env.getenv("CODEX_HOME"); h != "" {
		if p, ok := c.absPath(h); ok && isDir(p) {
			return p
		}
	}
	if home := c.env.home(); home != "" {
		if p := filepath.Join(home, ".codex"); isDir(p) {
			return p
		}
	}
	return ""
}

// readThreads reads the recent threads of the Codex home under the time
// bound.
func (c *Compiler) readThreads(ctx context.Context, now time.Time) threadsResult {
	home := c.codexHome()
	if home == "" {
		return threadsResult{}
	}
	deadline := time.Now().Add(c.env.threadsTimeout())
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	ch := make(chan threadsResult, 1)
	go func() { ch <- readCodexHome(home, deadline) }()
	t := time.NewTimer(time.Until(deadline) + 20*time.Millisecond)
	defer t.Stop()
	select {
	case r := <-ch:
		return r
	case <-t.C:
	case <-ctx.Done():
	}
	return threadsResult{state: &CodexState{
		ThreadsSource: "rollout_files", StateDB: stateDBText(home),
		Note: "reading the Codex home did not finish in time; threads left out",
	}}
}

func stateDBText(home string) string {
	if _, err := os.Stat(filepath.Join(home, "state_5.sqlite")); err == nil {
		return "present, not read (no SQLite reader in this build)"
	}
	return "absent"
}

// readCodexHome reads threads from the rollout files of home, stopping
// when deadline passes.
func readCodexHome(home string, deadline time.Time) threadsResult {
	state := &CodexState{ThreadsSource: "none", StateDB: stateDBText(home)}
	sessions := filepath.Join(home, "sessions")
	var notes []string
	paths, complete := newestRollouts(sessions, deadline)
	if fi, err := os.Stat(sessions); err == nil && fi.IsDir() {
		state.ThreadsSource = "rollout_files"
	}
	if !complete {
		notes = append(notes, "time bound reached while listing rollout files")
	}

	type meta struct {
		path  string
		id    string
		cwd   *string
		mtime time.Time
	}
	metas := make([]meta, 0, len(paths))
	for _, p := range paths {
		if time.Now().After(deadline) {
			notes = append(notes, "time bound reached while reading rollout files")
			break
		}
		fi, err := os.Stat(p.path)
		if err != nil {
			continue
		}
		metas = append(metas, meta{path: p.path, mtime: fi.ModTime()})
	}
	slices.SortStableFunc(metas, func(a, b meta) int { return b.mtime.Compare(a.mtime) })
	metas = metas[:min(len(metas), maxThreads)]
	unreadable := 0
	for i := range metas {
		if time.Now().After(deadline) {
			notes = append(notes, "time bound reached while reading rollout files")
			metas = metas[:i]
			break
		}
		id, cwd, ok := rolloutMeta(metas[i].path)
		if !ok {
			unreadable++
		}
		metas[i].id, metas[i].cwd = id, cwd
	}
	if unreadable > 0 {
		notes = append(notes, "some rollout files had no readable session_meta line")
	}

	want := map[string]bool{}
	for _, m := range metas {
		if m.id != "" {
			want[m.id] = true
		}
	}
	names := map[string]string{}
	if len(want) > 0 && time.Now().Before(deadline) {
		readJSONLTail(filepath.Join(home, "session_index.jsonl"), maxIndexTail, func(line []byte) {
			var e struct {
				ID         string `json:"id"`
				ThreadName string `json:"thread_name"`
			}
			if json.Unmarshal(line, &e) == nil && want[e.ID] && strings.TrimSpace(e.ThreadName) != "" {
				names[e.ID] = e.ThreadName // the latest line wins
			}
		})
	}
	if len(want) > len(names) && time.Now().Before(deadline) {
		readJSONLTail(filepath.Join(home, "history.jsonl"), maxHistoryTail, func(line []byte) {
			var e struct {
				SessionID string `json:"session_id"`
				Text      string `json:"text"`
			}
			if json.Unmarshal(line, &e) == nil && want[e.SessionID] && strings.TrimSpace(e.Text) != "" {
				if _, ok := names[e.SessionID]; !ok {
					names[e.SessionID] = e.Text // the first prompt names the thread
				}
			}
		})
	}

	var out []threadRecord
	for _, m := range metas {
		name := safe(names[m.id], threadRecordLimit)
		if name == "" {
			continue // the reference's "(untitled)"
		}
		out = append(out, threadRecord{
			id:         m.id,
			name:       name,
			date:       m.mtime.UTC().Format("2006-01-02"),
			cwd:        m.cwd,
			hasRollout: true,
		})
	}
	state.ThreadsRead = len(out)
	state.Note = strings.Join(slices.Compact(notes), "; ")
	if state.ThreadsSource == "none" && state.StateDB == "absent" && !exists(filepath.Join(home, "session_index.jsonl")) &&
		!exists(filepath.Join(home, "history.jsonl")) {
		state = nil // nothing of Codex's here: say nothing
	}
	return threadsResult{records: out, state: state}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

type rolloutPath struct{ path string }

// newestRollouts lists up to maxRolloutScan rollout files of the sessions
// directory, newest first by name (the names start with the creation
// time; the dated directories sort the same way). complete is false when
// the deadline cut the listing short.
func newestRollouts(dir string, deadline time.Time) (out []rolloutPath, complete bool) {
	var walk func(d string, depth int) bool
	walk = func(d string, depth int) bool {
		if time.Now().After(deadline) {
			return false
		}
		entries, err := os.ReadDir(d)
		if err != nil {
			return true
		}
		slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(b.Name(), a.Name()) })
		for _, e := range entries {
			if len(out) >= maxRolloutScan {
				return true
			}
			name := e.Name()
			switch {
			case e.IsDir() && depth < 3 && isDigits(name):
				if !walk(filepath.Join(d, name), depth+1) {
					return false
				}
			case !e.IsDir() && codexstore.IsRolloutName(name):
				out = append(out, rolloutPath{path: filepath.Join(d, name)})
			}
		}
		return true
	}
	complete = walk(dir, 0)
	return out, complete
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// rolloutMeta reads the thread id and cwd from a rollout's first line.
// The id falls back to the one the file name ends with.
func rolloutMeta(path string) (id string, cwd *string, ok bool) {
	base := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if len(base) >= 36 {
		id = base[len(base)-36:]
	}
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return id, nil, false
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(io.LimitReader(f, maxMetaLine), 64<<10).ReadSlice('\n')
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return id, nil, false
	}
	if err == bufio.ErrBufferFull {
		// A longer first line: read it whole, within the limit.
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return id, nil, false
		}
		b, _ := io.ReadAll(io.LimitReader(f, maxMetaLine))
		line, _, _ = bytes.Cut(b, []byte("\n"))
	}
	m, kind := codexstore.DecodeMeta(line)
	if kind != codexstore.SessionMeta && kind != codexstore.BareMeta {
		return id, nil, false
	}
	if m.ID != "" {
		id = m.ID
	}
	if m.HasCwd {
		return id, &m.Cwd, true
	}
	return id, nil, true
}

// readJSONLTail calls fn for every complete line of the last n bytes of a
// JSON Lines file.
func readJSONLTail(path string, n int64, fn func([]byte)) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return
	}
	start := max(0, fi.Size()-n)
	if _, err := f.Seek(start, io.SeekStart); err != nil {
		return
	}
	b, err := io.ReadAll(io.LimitReader(f, n))
	if err != nil {
		return
	}
	if start > 0 {
		// The first line is probably partial.
		_, b, _ = bytes.Cut(b, []byte("\n"))
	}
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte("\n"))
		if line = bytes.TrimSpace(line); len(line) > 0 {
			fn(line)
		}
	}
}
