package cursor

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/nativestore"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// session is one conversation found in a database, before the manifest's
// bounds and order are applied.
type session struct {
	Date   string   `json:"d,omitempty"` // "" when the record has none (⚠ #14: no date is no date)
	Cwd    string   `json:"c,omitempty"`
	Action string   `json:"a"` // scrubbed (battery C)
	Files  []string `json:"f,omitempty"`
	// Composer is the composer id of a session read from composer data
	// (an extension of the reference; "" for its flat records).
	Composer string `json:"id,omitempty"`
}

// head is a composer a workspace database lists (composer.composerData's
// allComposers).
type head struct {
	ID   string `json:"id"`
	Name string `json:"n,omitempty"`
	Date string `json:"d,omitempty"`
}

// dbResult is what one database yields; it is cached per database.
type dbResult struct {
	Flat      []session `json:"s,omitempty"` // the reference's flat ItemTable records, and chat tabs
	Composers []session `json:"c,omitempty"` // cursorDiskKV composerData rows
	Heads     []head    `json:"h,omitempty"`
	Cwd       string    `json:"w,omitempty"` // the workspace's folder, from workspace.json
	Malformed int       `json:"m,omitempty"`
	Err       string    `json:"e,omitempty"`
}

// extraction is every database's result, in scan order.
type extraction struct {
	scanned   []string
	failed    []string
	results   []dbResult
	malformed int
}

func extract(ctx context.Context, root string, cache *export.Cache, out *export.Output) (*extraction, error) {
	ex := &extraction{}
	for _, db := range databases(root) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ex.scanned = append(ex.scanned, db.path)
		out.Sources = append(out.Sources, export.Source{Kind: "state.vscdb", Path: db.path})
		files := []string{db.path, db.path + "-wal"}
		if db.workspace != "" {
			files = append(files, db.workspace)
		}
		fp, err := export.Stat(files...)
		if err != nil {
			out.Warn(db.path, 0, "cannot be read: %v; skipped", err)
			ex.failed = append(ex.failed, db.path)
			continue
		}
		res, err := export.Cached(cache, "cursor/db:"+db.path, fp, func() (dbResult, error) {
			res, err := readDatabase(ctx, db)
			if err != nil && ctx.Err() == nil {
				return dbResult{Err: err.Error()}, nil
			}
			return res, err
		})
		if err != nil {
			return nil, err
		}
		if res.Err != "" {
			out.Warn(db.path, 0, "cannot be read (%s); skipped", res.Err)
			ex.failed = append(ex.failed, db.path)
			continue
		}
		ex.malformed += res.Malformed
		ex.results = append(ex.results, res)
	}
	return ex, nil
}

// readDatabase reads one database through a snapshot (with its -wal: ⚠
// #12, the reference copies the main file alone).
func readDatabase(ctx context.Context, d database) (dbResult, error) {
	var res dbResult
	if d.workspace != "" {
		var ok bool
		if res.Cwd, ok = workspaceFolder(d.workspace); !ok {
			res.Malformed++
		}
	}
	db, err := nativestore.OpenSQLite(ctx, d.path)
	if err != nil {
		return res, err
	}
	defer db.Close()
	tables := map[string]bool{}
	rows, err := db.QueryContext(ctx, "SELECT name FROM sqlite_master WHERE type = 'table'")
	if err != nil {
		return res, err
	}
	for rows.Next() {
		var n string
		if rows.Scan(&n) == nil {
			tables[n] = true
		}
	}
	rows.Close()
	if tables["ItemTable"] {
		rows, err := db.QueryContext(ctx, "SELECT key, value FROM ItemTable")
		if err != nil {
			return res, err
		}
		for rows.Next() {
			var key string
			var raw []byte
			if err := rows.Scan(&key, &raw); err != nil {
				rows.Close()
				return res, err
			}
			v, ok := decode(raw)
			if !ok {
				res.Malformed++
				continue
			}
			res.itemRow(key, v)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return res, err
		}
	}
	if tables["cursorDiskKV"] {
		rows, err := db.QueryContext(ctx, "SELECT key, value FROM cursorDiskKV WHERE key LIKE 'composerData:%'")
		if err != nil {
			return res, err
		}
		defer rows.Close()
		for rows.Next() {
			var key string
			var raw []byte
			if err := rows.Scan(&key, &raw); err != nil {
				return res, err
			}
			v, ok := decode(raw)
			if !ok {
				res.Malformed++
				continue
			}
			if m, ok := v.(map[string]any); ok {
				if s, ok := composerSession(strings.TrimPrefix(key, "composerData:"), m); ok {
					res.Composers = append(res.Composers, s)
				}
			}
		}
		if err := rows.Err(); err != nil {
			return res, err
		}
	}
	return res, nil
}

// decode reads a value as JSON; NULL, invalid UTF-8 and non-JSON are
// malformed.
func decode(raw []byte) (any, bool) {
	raw = bytes.TrimPrefix(raw, []byte("\ufeff"))
	if raw == nil || !utf8.Valid(raw) {
		return nil, false
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if d.Decode(&v) != nil || d.More() {
		return nil, false
	}
	return v, true
}

// workspaceFolder is the local folder a workspace.json names ("" for a
// remote or unreadable one). ok is false when the folder's URI decodes to
// bytes that are not UTF-8 (file:///caf%E9): that folder is "" too, and
// counted as a malformed record, as a value that is not UTF-8 is.
func workspaceFolder(path string) (folder string, ok bool) {
	// At most 1 MiB, and never a named pipe (a plain read of one waits
	// for a writer forever).
	data, err := fsutil.ReadRegular(path, 1<<20)
	if err != nil {
		return "", true
	}
	var w struct {
		Folder string `json:"folder"`
	}
	if json.Unmarshal(data, &w) != nil {
		return "", true
	}
	u, err := url.Parse(w.Folder)
	if err != nil || u.Scheme != "file" {
		return "", true
	}
	p := u.Path
	if !utf8.ValidString(p) {
		return "", false
	}
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' { // file:///c:/Users/...
		p = p[1:]
	}
	return p, true
}

// itemRow maps one ItemTable row: the reference's flat composer record,
// or (extensions) the list-shaped values real Cursor writes.
func (res *dbResult) itemRow(key string, v any) {
	if s, ok := flatSession(key, v); ok {
		res.Flat = append(res.Flat, s)
		return
	}
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	switch key {
	case "composer.composerData":
		for _, c := range list(m["allComposers"]) {
			if c, ok := c.(map[string]any); ok {
				if id := firstString(c, "composerId"); id != "" {
					res.Heads = append(res.Heads, head{ID: id, Name: firstString(c, "name"),
						Date: firstDate(c, "lastUpdatedAt", "createdAt")})
				}
			}
		}
	case "workbench.panel.aichat.view.aichat.chatdata":
		for _, t := range list(m["tabs"]) {
			t, ok := t.(map[string]any)
			if !ok {
				continue
			}
			action := firstString(t, "chatTitle")
			if action == "" {
				for _, b := range list(t["bubbles"]) {
					if b, ok := b.(map[string]any); ok && firstString(b, "type") == "user" {
						if action = firstString(b, "text", "rawText"); action != "" {
							break
						}
					}
				}
			}
			if action != "" {
				res.Flat = append(res.Flat, session{Action: export.CursorText(action, 0),
					Date: firstDate(t, "lastSendTime", "createdAt")})
			}
		}
	}
}

// flatSession is the reference's reading of one ItemTable row as a flat
// composer record.
func flatSession(key string, v any) (session, bool) {
	m, isMap := v.(map[string]any)
	lk := strings.ToLower(key)
	looks := strings.Contains(lk, "composer") || strings.Contains(lk, "aichat") || strings.Contains(lk, "chat")
	if !looks && isMap {
		var names []string
		for k := range m {
			names = append(names, k)
		}
		joined := strings.ToLower(strings.Join(names, " "))
		looks = strings.Contains(joined, "message") && (strings.Contains(joined, "workspace") || strings.Contains(joined, "file"))
	}
	if !looks || !isMap {
		return session{}, false
	}
	cwd := firstString(m, "workspacePath", "workspace", "cwd", "folder", "rootPath")
	if w, ok := m["workspace"].(map[string]any); cwd == "" && ok {
		cwd = firstString(w, "path", "folder", "cwd")
	}
	action := firstString(m, "title", "text", "prompt", "summary", "name")
	if action == "" {
		action = firstMessageText(m["messages"])
	}
	if action == "" {
		return session{}, false
	}
	return session{
		Date:   firstDate(m, "createdAt", "timestamp", "updatedAt", "lastUpdatedAt", "time"),
		Cwd:    cwd,
		Action: export.CursorText(action, 0),
		Files:  dedupe(filesOf(m, 0)),
	}, true
}

// composerSession maps a cursorDiskKV composerData row: its name, else
// its first user message; the day it was last updated; the files its
// messages referenced.
func composerSession(id string, m map[string]any) (session, bool) {
	if s := firstString(m, "composerId"); s != "" {
		id = s
	}
	action := firstString(m, "name")
	var files []string
	for _, b := range list(m["conversation"]) {
		b, ok := b.(map[string]any)
		if !ok {
			continue
		}
		if action == "" && isNumber(b["type"], 1) {
			action = firstString(b, "text")
		}
		files = append(files, stringsOf(list(b["relevantFiles"]))...)
		files = append(files, selections(b["context"])...)
	}
	if action == "" {
		action = firstString(m, "text")
	}
	if action == "" {
		return session{}, false
	}
	files = append(files, selections(m["context"])...)
	return session{Composer: id, Action: export.CursorText(action, 0), Date: firstDate(m, "lastUpdatedAt", "createdAt"),
		Files: dedupe(files)}, true
}

// selections lists the files of a context's fileSelections.
func selections(ctx any) []string {
	c, ok := ctx.(map[string]any)
	if !ok {
		return nil
	}
	var out []string
	for _, s := range list(c["fileSelections"]) {
		if s, ok := s.(map[string]any); ok {
			if u, ok := s["uri"].(map[string]any); ok {
				if p := firstString(u, "fsPath", "path"); p != "" {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

func isNumber(v any, want int64) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	i, err := n.Int64()
	return err == nil && i == want
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

// firstString is the first non-blank string among keys, trimmed.
func firstString(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

func firstMessageText(v any) string {
	for _, msg := range list(v) {
		msg, ok := msg.(map[string]any)
		if !ok {
			continue
		}
		c := msg["content"]
		if isFalsy(c) {
			c = msg["text"]
		}
		if s, ok := c.(string); ok && strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

func isFalsy(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case bool:
		return !x
	case json.Number:
		f, _ := x.Float64()
		return f == 0
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// filesOf lists a record's files: files, filePaths, filesTouched and
// references, then those of each message object (⚠ #13: messages that
// is not a list, such as null, is ignored rather than failing the
// export).
func filesOf(m map[string]any, depth int) []string {
	var files []string
	for _, k := range []string{"files", "filePaths", "filesTouched", "references"} {
		files = append(files, stringsOf(list(m[k]))...)
	}
	if depth < 32 {
		for _, msg := range list(m["messages"]) {
			if msg, ok := msg.(map[string]any); ok {
				files = append(files, filesOf(msg, depth+1)...)
			}
		}
	}
	return files
}

func stringsOf(items []any) []string {
	var out []string
	for _, it := range items {
		switch x := it.(type) {
		case string:
			if s := strings.TrimSpace(x); s != "" {
				out = append(out, s)
			}
		case map[string]any:
			if p := firstString(x, "path", "file", "uri", "relativePath"); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func dedupe(items []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range items {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// firstDate is the day of the first of keys that holds a date: an ISO
// 8601 string (the day as written) or an epoch number (milliseconds above
// 10^10; the UTC day). "" when none does (⚠ #14: the reference uses
// today's date).
func firstDate(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if d := dateOf(m[k]); d != "" {
			return d
		}
	}
	return ""
}

func dateOf(v any) string {
	switch x := v.(type) {
	case string:
		return isoDay(x)
	case json.Number:
		f, err := x.Float64()
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return ""
		}
		if f > 1e10 {
			f /= 1000
		}
		if f < -62135596800 || f > 253402300799 {
			return ""
		}
		return time.Unix(int64(math.Floor(f)), 0).UTC().Format("2006-01-02")
	}
	return ""
}

// isoDay is the day of an ISO 8601 date or date-time as Python's
// fromisoformat reads it, or "".
func isoDay(s string) string {
	s = strings.Replace(s, "Z", "+00:00", 1)
	for _, layout := range []string{"2006-01-02", "20060102", "2006-01-02T15:04", "2006-01-02T15:04:05.999999999",
		"2006-01-02T15:04Z07:00", "2006-01-02T15:04:05.999999999Z07:00", "2006-01-02 15:04", "2006-01-02 15:04:05.999999999",
		"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02T15", "2006-01-02T15:04:05.999999999Z0700"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format("2006-01-02")
		}
	}
	return ""
}
