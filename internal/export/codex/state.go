package codex

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/nativestore"
)

// threadRow is one row of state_5.sqlite's threads table, as the export
// uses it.
type threadRow struct {
	ID   string `json:"id"`
	Name string `json:"n"`           // title, else first user message, else "(untitled)"
	Flag uint16 `json:"f,omitempty"` // concepts in the name and the first user message
	Cwd  string `json:"c,omitempty"`
	// HasCwd is false when cwd was NULL or not text.
	HasCwd    bool   `json:"hc,omitempty"`
	Rollout   string `json:"r,omitempty"`
	UpdatedAt string `json:"u,omitempty"`
	Date      string `json:"d"`
}

// stateResult is what the state database yields: its thread rows and the
// threads it skipped, or why it could not be read.
type stateResult struct {
	Threads  []threadRow      `json:"t,omitempty"`
	Warnings []export.Warning `json:"w,omitempty"`
	Err      string           `json:"e,omitempty"`
}

var (
	threadColumns = []string{"id", "title", "first_user_message", "cwd", "rollout_path", "model_provider", "cli_version",
		"source", "memory_mode", "archived", "updated_at_ms", "updated_at", "created_at_ms", "created_at"}
	orderColumns = []string{"updated_at_ms", "updated_at", "created_at_ms", "created_at"}
)

// readState reads the threads of the state database through a snapshot
// (the database and its -wal). A database that cannot be opened or queried
// gives an error; one without a usable threads table gives no threads.
// limit > 0 bounds the rows read.
func readState(ctx context.Context, path string, limit int) (stateResult, error) {
	db, err := nativestore.OpenSQLite(ctx, path)
	if err != nil {
		return stateResult{}, err
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='threads'").Scan(&n); err != nil {
		return stateResult{}, err
	}
	if n == 0 {
		return stateResult{}, nil
	}
	rows, err := db.QueryContext(ctx, `PRAGMA table_info("threads")`)
	if err != nil {
		return stateResult{}, err
	}
	have := map[string]bool{}
	for rows.Next() {
		var (
			cid        int
			name, typ  string
			notNull    int
			dflt       any
			primaryKey int
		)
		if err := rows.Scan(&cid, &name, &typ, &notNull, &dflt, &primaryKey); err != nil {
			rows.Close()
			return stateResult{}, err
		}
		have[name] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return stateResult{}, err
	}
	var cols []string
	for _, c := range threadColumns {
		if have[c] {
			cols = append(cols, c)
		}
	}
	if !have["id"] || (!have["title"] && !have["first_user_message"]) {
		return stateResult{}, nil
	}
	order := "id"
	for _, c := range orderColumns {
		if have[c] {
			order = c
			break
		}
	}
	q := fmt.Sprintf(`SELECT "%s" FROM threads ORDER BY "%s" DESC`, strings.Join(cols, `", "`), order)
	if limit > 0 {
		q += " LIMIT " + strconv.Itoa(limit)
	}
	rows, err = db.QueryContext(ctx, q)
	if err != nil {
		return stateResult{}, err
	}
	defer rows.Close()
	var out stateResult
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return stateResult{}, err
		}
		row := map[string]any{}
		for i, c := range cols {
			row[c] = vals[i]
		}
		t, ok := threadOf(row)
		if !ok {
			continue
		}
		if col := notUTF8(row); col != "" {
			// SQLite keeps whatever bytes Codex wrote; a manifest holds
			// UTF-8 text only. The thread is skipped, as a memory file or
			// a rollout line that is not UTF-8 is (its rollout, if any, is
			// then read as one the database does not list).
			out.Warnings = append(out.Warnings, export.Warning{File: path,
				Msg: fmt.Sprintf("thread %s: its %s is not valid UTF-8; skipped", strconv.Quote(t.ID), col)})
			continue
		}
		out.Threads = append(out.Threads, t)
	}
	return out, rows.Err()
}

// notUTF8 returns the first column of a thread row whose text reaches the
// manifest (the id, named in warnings, the title, the first user message
// and the cwd) that is not valid UTF-8, or "".
func notUTF8(row map[string]any) string {
	for _, c := range []string{"id", "title", "first_user_message", "cwd"} {
		if !utf8.ValidString(pyStr(row[c])) {
			return c
		}
	}
	return ""
}

func threadOf(row map[string]any) (threadRow, bool) {
	id := pyStr(row["id"])
	if id == "" {
		return threadRow{}, false
	}
	title, first := norm(pyStr(row["title"])), norm(pyStr(row["first_user_message"]))
	t := threadRow{ID: id, Name: cmpOr(title, first, "(untitled)")}
	for _, k := range orderColumns {
		v, ok := row[k]
		if !ok || v == nil {
			continue
		}
		if d := epochDay(pyStr(v)); d != "" {
			t.Date = d
			break
		}
		if d := isoDay(pyStr(v)); d != "" {
			t.Date = d
			break
		}
	}
	if t.Date == "" {
		return threadRow{}, false
	}
	for _, k := range orderColumns {
		if s := pyStr(row[k]); s != "" && s != "0" {
			t.UpdatedAt = s
			break
		}
	}
	t.Flag = conceptFlags(t.Name + "\n" + first)
	if s, ok := row["cwd"].(string); ok {
		t.Cwd, t.HasCwd = s, true
	}
	t.Rollout = strings.TrimSpace(pyStr(row["rollout_path"]))
	return t, true
}

func cmpOr(vals ...string) string {
	if i := slices.IndexFunc(vals, func(s string) bool { return s != "" }); i >= 0 {
		return vals[i]
	}
	return ""
}

// pyStr is the text of an SQLite value as the reference's str() gives it
// (NULL is "").
func pyStr(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if x == float64(int64(x)) && x < 1e16 && x > -1e16 {
			return strconv.FormatFloat(x, 'f', 1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		if x {
			return "1"
		}
		return "0"
	}
	return fmt.Sprint(v)
}
