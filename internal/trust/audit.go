package trust

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
	"unicode/utf8"
)

// AuditEnv names the environment variable that overrides the audit log
// path.
const AuditEnv = "BOURDON_AUDIT_PATH"

// DefaultAuditPath returns $BOURDON_AUDIT_PATH, read with getenv, when
// set, else ~/.bourdon/audit.jsonl.
func DefaultAuditPath(getenv func(string) string) (string, error) {
	return userHomeFile(getenv, AuditEnv, "audit.jsonl", "the audit log")
}

// AuditPath is DefaultAuditPath under a given home directory (bourdon
// doctor's): $BOURDON_AUDIT_PATH, read with getenv, when set, else
// home/.bourdon/audit.jsonl.
func AuditPath(getenv func(string) string, home string) string {
	return homeFile(getenv, home, AuditEnv, "audit.jsonl")
}

// homeFile returns $env, read with getenv, when set, else
// home/.bourdon/name: where the server's own files are.
func homeFile(getenv func(string) string, home, env, name string) string {
	if p := getenv(env); p != "" {
		return p
	}
	return filepath.Join(home, ".bourdon", name)
}

// userHomeFile is homeFile under the user's home directory; what names
// the file in the error of a home that cannot be found (no error when
// the environment names the file).
func userHomeFile(getenv func(string) string, env, name, what string) (string, error) {
	if p := getenv(env); p != "" {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("locating %s: %w", what, err)
	}
	return homeFile(getenv, home, env, name), nil
}

// Entry is one line of the audit log.
type Entry struct {
	// TS is the UTC time of the call, %Y-%m-%dT%H:%M:%S.%fZ.
	TS string
	// Agent is the caller's id.
	Agent string
	// Op is the tool or resource operation.
	Op string
	// Namespace is the namespace the call named, or AnyNamespace.
	Namespace string
	// Decision is Allow or Deny.
	Decision string
	// Detail is the denial reason, "staged", or "" (then left out).
	Detail string
}

// Line returns the entry as the reference writes it, without the newline:
// Python's json.dumps(entry, ensure_ascii=False), so separators ", " and
// ": ", non-ASCII text as is, keys in the order ts, agent, op, namespace,
// decision, detail, and detail left out when empty.
func (e Entry) Line() []byte { return e.appendLine(make([]byte, 0, 160)) }

// appendLine appends Line to b.
func (e Entry) appendLine(b []byte) []byte {
	b = append(b, '{')
	fields := [...]struct{ k, v string }{
		{"ts", e.TS}, {"agent", e.Agent}, {"op", e.Op},
		{"namespace", e.Namespace}, {"decision", e.Decision}, {"detail", e.Detail},
	}
	for i, f := range fields {
		if f.k == "detail" && f.v == "" {
			break
		}
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendPyJSONString(b, f.k)
		b = append(b, ": "...)
		b = appendPyJSONString(b, f.v)
	}
	return append(b, '}')
}

// appendPyJSONString writes s as Python's json.dumps(ensure_ascii=False)
// does: only the quote, the backslash and control characters escaped.
// Bytes that are not UTF-8 become U+FFFD.
//
// Runs of bytes that stand for themselves (printable ASCII but the quote
// and the backslash, nearly all of an entry) are copied whole.
func appendPyJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && plainJSONByte[s[j]] {
			j++
		}
		if j > i {
			b, i = append(b, s[i:j]...), j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			b = append(b, `\"`...)
		case r == '\\':
			b = append(b, `\\`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\b':
			b = append(b, `\b`...)
		case r == '\f':
			b = append(b, `\f`...)
		case r < 0x20:
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[r>>4], "0123456789abcdef"[r&0xf])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// plainJSONByte[c] reports whether appendPyJSONString writes byte c as it
// is, whatever surrounds it: printable ASCII but '"' and '\\'.
var plainJSONByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// ParseEntry reads one audit line. It reports false for a blank line, a
// line that is not a JSON object (such as a torn last line) and anything
// else the reference's reader skips. Fields that are missing or not
// strings are left empty.
func ParseEntry(line []byte) (Entry, bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return Entry{}, false
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil || m == nil {
		return Entry{}, false
	}
	str := func(k string) string { s, _ := m[k].(string); return s }
	return Entry{
		TS: str("ts"), Agent: str("agent"), Op: str("op"),
		Namespace: str("namespace"), Decision: str("decision"), Detail: str("detail"),
	}, true
}

// Audit is the append-only audit log, the reference's audit.jsonl: one
// line per federation call, allowed or denied, never token material.
// Nothing here rewrites or truncates it. Where the entries are kept is
// its AuditLog: the file by default (OpenAudit), or a database shared by
// several replicas (NewAudit with store/postgres's log). A nil *Audit
// records nothing. An Audit is safe for concurrent use.
type Audit struct {
	path string // the file's path; "" for another AuditLog
	log  AuditLog
	now  func() time.Time
}

// AuditLog is where an Audit keeps its entries and reads them back.
// Implementations are safe for concurrent use.
type AuditLog interface {
	// Append adds one entry, complete: TS, Namespace and Decision set.
	Append(e Entry) error
	// Recent calls fn with the matching entries, newest first, as
	// Audit.Recent documents.
	Recent(f AuditFilter, fn func(Entry) bool) (full bool, err error)
}

// OpenAudit returns the audit log stored in the file at path. Nothing is
// opened until the first Record or Entries.
func OpenAudit(path string) *Audit {
	return &Audit{path: path, log: &auditFile{path: path}, now: time.Now}
}

// NewAudit returns the audit log kept in log.
func NewAudit(log AuditLog) *Audit {
	return &Audit{log: log, now: time.Now}
}

// Path returns the log's file, or "" when it is not kept in a file.
func (a *Audit) Path() string { return a.path }

// Record appends one entry. An empty TS is set to now, an empty Namespace
// to AnyNamespace and an empty Decision to Allow. A write that fails
// returns the error for the caller to log; it must never fail the call
// being audited.
//
// In a file, the parent directory is created (mode 0700) and the file too
// (mode 0600). If the file ends in a torn line (a writer died mid-line),
// the new entry starts on a line of its own instead of being glued to the
// fragment, which the reference's writer would do.
func (a *Audit) Record(e Entry) error {
	if a == nil {
		return nil
	}
	if e.TS == "" {
		now := time.Now
		if a.now != nil {
			now = a.now
		}
		e.TS = FormatTS(now())
	}
	if e.Namespace == "" {
		e.Namespace = AnyNamespace
	}
	if e.Decision == "" {
		e.Decision = Allow
	}
	return a.log.Append(e)
}

// tsLayout is the layout of an entry's TS.
const tsLayout = "2006-01-02T15:04:05.000000Z"

// FormatTS returns t as an entry's TS: UTC, microseconds, a Z
// (tsLayout). It spells the digits itself, which takes a tenth of the
// time Format takes; years outside 0 to 9999 are left to Format.
func FormatTS(t time.Time) string {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.Format(tsLayout)
	}
	hour, minute, sec := t.Clock()
	var b [len(tsLayout)]byte
	digits := func(at, n, width int) {
		for i := at + width - 1; i >= at; i-- {
			b[i] = byte('0' + n%10)
			n /= 10
		}
	}
	digits(0, year, 4)
	b[4] = '-'
	digits(5, int(month), 2)
	b[7] = '-'
	digits(8, day, 2)
	b[10] = 'T'
	digits(11, hour, 2)
	b[13] = ':'
	digits(14, minute, 2)
	b[16] = ':'
	digits(17, sec, 2)
	b[19] = '.'
	digits(20, t.Nanosecond()/1000, 6)
	b[26] = 'Z'
	return string(b[:])
}

// RecordDecision appends the entry of a decision (Decision.Entry).
func (a *Audit) RecordDecision(d Decision) error { return a.Record(d.Entry()) }

// AuditFilter selects entries of the log.
type AuditFilter struct {
	// Agent keeps only this caller's entries; "" keeps all.
	Agent string
	// DenialsOnly keeps only denied calls.
	DenialsOnly bool
	// Since, when not zero, keeps only entries at or after this instant
	// (an entry whose ts cannot be read does not pass).
	Since time.Time
	// Limit keeps only the last Limit matches; 0 or less keeps all (as
	// the reference does for 0).
	Limit int
}

// match reports whether e passes the filter, limit aside.
func (f AuditFilter) match(e Entry) bool {
	if f.Agent != "" && e.Agent != f.Agent || f.DenialsOnly && e.Decision != Deny {
		return false
	}
	if !f.Since.IsZero() {
		t, ok := e.Time()
		return ok && !t.Before(f.Since)
	}
	return true
}

// Time returns the instant of the entry's ts; ok is false when it cannot
// be read. Any RFC 3339 time is accepted, not only the writer's layout.
func (e Entry) Time() (t time.Time, ok bool) {
	t, err := time.Parse(time.RFC3339Nano, e.TS)
	return t, err == nil
}

// Entries returns the matching entries, oldest first: the last f.Limit
// of them when f.Limit is positive. Blank, unparseable and overlong lines,
// such as a torn last line, are skipped. A missing log has no entries.
func (a *Audit) Entries(f AuditFilter) ([]Entry, error) {
	var out []Entry
	if _, err := a.Recent(f, func(e Entry) bool { out = append(out, e); return true }); err != nil {
		return nil, err
	}
	slices.Reverse(out)
	return out, nil
}

// MaxAuditLine bounds one line of the log: a longer line is skipped as
// unreadable, and a database refuses an entry whose line would be longer.
const MaxAuditLine = 1 << 20

// Recent calls fn with the matching entries, newest first. It stops after
// f.Limit matches (0 or less: no limit) or when fn returns false. full is
// true when it stopped because the limit was reached: older matches may
// exist. A log with nothing in it has no entries.
//
// A file is read backwards from its end in blocks, so that the cost
// follows the entries shown rather than the size of the log, and memory
// stays bounded by one block and one line; with f.Since set, reading stops
// at the first entry more than a minute older than Since. Blank,
// unparseable and overlong lines are skipped.
func (a *Audit) Recent(f AuditFilter, fn func(Entry) bool) (full bool, err error) {
	return a.log.Recent(f, fn)
}

// TableRow returns the entry as one row of the reference's "bourdon
// audit" table: ts, decision, agent and op padded to 28, 5, 20 and 28
// columns, then ns=<namespace> and "  (<detail>)" when there is one.
func (e Entry) TableRow() string {
	or := func(s, def string) string {
		if s == "" {
			return def
		}
		return s
	}
	s := fmt.Sprintf("%-28s %-5s %-20s %-28s ns=%s", or(e.TS, "?"), or(e.Decision, "?"), or(e.Agent, "?"), or(e.Op, "?"), or(e.Namespace, AnyNamespace))
	if e.Detail != "" {
		s += "  (" + e.Detail + ")"
	}
	return s
}
