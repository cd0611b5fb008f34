// Package codexstore knows the files Codex (the OpenAI CLI) writes under
// its home: what a rollout's session meta record looks like, how rollout
// files are named, what a session_index.jsonl line holds and how Codex
// spells paths across Windows and WSL. The turn compiler
// (internal/recall/turn) and the Codex exporter (internal/export/codex) both read
// them through this package, so the two agree on every format.
package codexstore

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
)

// Meta is a rollout's session meta: the payload of its session_meta record
// (or, from older Codex versions, the bare meta object on its first line).
// Only string values are kept, as the reference does; a field that is
// absent or not a string is "".
type Meta struct {
	ID            string
	Timestamp     string
	Cwd           string
	HasCwd        bool // cwd was a string (possibly empty)
	ModelProvider string
	CLIVersion    string
	Originator    string
	Source        string
}

// Kind says what one rollout line is.
type Kind int

const (
	// NotRecord is a line that is not a JSON object.
	NotRecord Kind = iota
	// Record is a JSON object that is not a session meta.
	Record
	// SessionMeta is a {"type":"session_meta","payload":{...}} record.
	SessionMeta
	// BareMeta is the bare meta object older Codex versions wrote as the
	// first line: no "type", a string "id".
	BareMeta
)

// DecodeMeta classifies one rollout line and, for a session meta, returns
// its fields. A session_meta record whose payload is not an object is a
// Record with no meta (the reference's None).
func DecodeMeta(line []byte) (Meta, Kind) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return Meta{}, NotRecord
	}
	var rec map[string]json.RawMessage
	if json.Unmarshal(line, &rec) != nil {
		return Meta{}, NotRecord
	}
	typ, hasType := rec["type"]
	switch {
	case hasType && String(typ) == "session_meta":
		var payload map[string]json.RawMessage
		p := bytes.TrimSpace(rec["payload"])
		if len(p) == 0 || p[0] != '{' || json.Unmarshal(p, &payload) != nil {
			return Meta{}, Record
		}
		return metaOf(payload), SessionMeta
	case !hasType && isString(rec["id"]) && String(rec["id"]) != "":
		return metaOf(rec), BareMeta
	}
	return Meta{}, Record
}

func metaOf(m map[string]json.RawMessage) Meta {
	out := Meta{
		ID:            String(m["id"]),
		Timestamp:     String(m["timestamp"]),
		ModelProvider: String(m["model_provider"]),
		CLIVersion:    String(m["cli_version"]),
		Originator:    String(m["originator"]),
		Source:        String(m["source"]),
	}
	if isString(m["cwd"]) {
		out.Cwd, out.HasCwd = String(m["cwd"]), true
	}
	return out
}

// String returns the JSON string raw holds, or "" when it holds another
// value.
func String(raw json.RawMessage) string {
	var s string
	if isString(raw) && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

func isString(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '"'
}

// IndexEntry is one session_index.jsonl line: a thread naming event.
// Codex appends a line each time a thread is named or renamed, so an id
// can repeat; the last line of an id is its current name.
type IndexEntry struct {
	ID         string
	ThreadName string
	UpdatedAt  string // the text of updated_at; a number is kept as written
}

// DecodeIndexLine reads one session_index.jsonl line. ok is false for a
// line that is not a JSON object with a string id; parsed is false when it
// is not JSON at all (the reference logs those).
func DecodeIndexLine(line []byte) (e IndexEntry, ok, parsed bool) {
	line = bytes.TrimSpace(line)
	var rec map[string]json.RawMessage
	if len(line) == 0 || line[0] != '{' {
		return e, false, json.Valid(line)
	}
	if json.Unmarshal(line, &rec) != nil {
		return e, false, false
	}
	if !isString(rec["id"]) {
		return e, false, true
	}
	e.ID = String(rec["id"])
	e.ThreadName = String(rec["thread_name"])
	if u := bytes.TrimSpace(rec["updated_at"]); isString(u) {
		e.UpdatedAt = String(u)
	} else if len(u) > 0 && u[0] != 'n' && u[0] != '{' && u[0] != '[' {
		e.UpdatedAt = string(u) // a number (or a boolean) as written
	}
	return e, true, true
}

// IsRolloutName reports whether a file name is a rollout's
// (rollout-<time>-<id>.jsonl).
func IsRolloutName(name string) bool {
	return strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, ".jsonl")
}

// RolloutIDCandidates returns every id the rollout file name could end
// with: the name matches the reference's glob rollout-*-<id>.jsonl for each
// of them.
func RolloutIDCandidates(name string) []string {
	if !IsRolloutName(name) {
		return nil
	}
	stem := strings.TrimSuffix(strings.TrimPrefix(name, "rollout-"), ".jsonl")
	var out []string
	for i := 0; i < len(stem); i++ {
		if stem[i] == '-' && i+1 < len(stem) {
			out = append(out, stem[i+1:])
		}
	}
	return out
}

var (
	wslPath   = regexp.MustCompile(`^/mnt/([A-Za-z])(?:/(.*))?$`)
	drivePath = regexp.MustCompile(`^([A-Za-z]):[\\/](.*)$`)
)

// LocalPath translates a path spelled for the other side of WSL into this
// system's spelling, as Codex state written on Windows and read in WSL (or
// the reverse) needs: on Windows /mnt/d/rest becomes D:\rest; elsewhere
// D:\rest and D:/rest become /mnt/d/rest.
func LocalPath(p, goos string) string {
	raw := strings.TrimSpace(p)
	if goos == "windows" {
		if m := wslPath.FindStringSubmatch(raw); m != nil {
			return strings.ToUpper(m[1]) + `:\` + strings.ReplaceAll(m[2], "/", `\`)
		}
		return raw
	}
	if m := drivePath.FindStringSubmatch(raw); m != nil {
		// Trailing separators and blank components name nothing; left in,
		// the path would end in a space that the next reading trims.
		rest := strings.TrimRightFunc(m[2], func(r rune) bool { return unicode.IsSpace(r) || r == '/' || r == '\\' })
		return filepath.Clean("/mnt/" + strings.ToLower(m[1]) + "/" + strings.ReplaceAll(rest, `\`, "/"))
	}
	return raw
}

// ComparePath is the spelling two paths are compared in: without a \\?\
// or //?/ prefix, translated with LocalPath, forward slashes, no trailing
// slash, lower case.
func ComparePath(p, goos string) string {
	raw := strings.TrimSpace(p)
	if strings.HasPrefix(raw, `\\?\`) || strings.HasPrefix(raw, "//?/") {
		raw = raw[4:]
	}
	return strings.ToLower(strings.TrimRight(strings.ReplaceAll(LocalPath(raw, goos), `\`, "/"), "/"))
}
