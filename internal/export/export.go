// Package export turns coding agents' native stores (Claude Code's memory
// files, Codex's rollouts and SQLite state, Cursor's state.vscdb, ...) into
// the rows of their L5 manifests.
//
// Each agent is one Exporter in its own package under internal/export;
// internal/export/registry lists them in agent-id order. An Exporter only
// reads: it opens stores read-only, never modifies them, and returns an
// Output. Writing is the runner's job (internal/export/runner), which
// sends every Output through the commit path (lock, merge of the rows the
// exporter owns, no_op, history, provenance) and applies the server's
// redaction battery to every string first.
//
// The agent ids, agent types and row shapes are the Python reference's,
// so a library written by either side reads the same; where the reference
// is buggy the decisions are in docs/exporters.md.
package export

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Exporter reads one agent's native store.
type Exporter interface {
	// Info describes the agent.
	Info() Info
	// Detect reports the agent's presence path and whether it exists. It
	// only looks at the file system's metadata (no reading, no process).
	Detect(env *Env) Presence
	// Export reads the store and returns the agent's rows. It returns an
	// error wrapping ErrNotInstalled when the agent has no store on this
	// machine, and other errors only when nothing could be read; a bad
	// unit (a corrupt file, a malformed line) is skipped and reported in
	// Output.Warnings instead.
	Export(ctx context.Context, env *Env, opts Options) (*Output, error)
	// Health inspects the store without exporting. It never fails: what
	// is wrong is the Health's status and reason.
	Health(ctx context.Context, env *Env) Health
}

// Info describes an agent.
type Info struct {
	// ID is the agent id: the manifest's file name, the registry namespace
	// and the tray's key, byte-identical to the reference's.
	ID string
	// Type is the manifest's agent.type.
	Type string
	// Label is the name people see (setup, doctor).
	Label string
}

// Presence is where an agent would be installed and whether it is.
type Presence struct {
	Path    string
	Present bool
}

// ErrNotInstalled is wrapped by the error Export returns when the agent has
// no store on this machine. The runner reports such an agent as skipped and
// writes nothing for it (the reference writes an empty manifest).
var ErrNotInstalled = errors.New("not installed")

// NotInstalled returns an error wrapping ErrNotInstalled that says where the
// store was looked for.
func NotInstalled(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNotInstalled, fmt.Sprintf(format, args...))
}

// Env is the machine an export reads: its home, environment, clock and
// name. Tests build one around a temporary home.
type Env struct {
	// Home is the user's home directory.
	Home string
	// Getenv reads an environment variable; nil means none is set.
	Getenv func(string) string
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// Hostname names the machine (the manifests' agent.instance).
	Hostname string
	// GOOS is the operating system whose paths to use ("linux",
	// "darwin", "windows").
	GOOS string
	// Cwd is the working directory, for the few stores found relative to
	// it.
	Cwd string
}

// SystemEnv returns the Env of this process.
func SystemEnv() (*Env, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, fmt.Errorf("cannot find the home directory: %w", err)
	}
	host, err := os.Hostname()
	if err != nil {
		host = ""
	}
	cwd, _ := os.Getwd()
	return &Env{Home: home, Getenv: os.Getenv, Now: time.Now, Hostname: host, GOOS: runtime.GOOS, Cwd: cwd}, nil
}

// Var returns the environment variable name, trimmed.
func (e *Env) Var(name string) string {
	if e.Getenv == nil {
		return ""
	}
	return strings.TrimSpace(e.Getenv(name))
}

// HomePath returns a path under the home directory.
func (e *Env) HomePath(elem ...string) string {
	return filepath.Join(append([]string{e.Home}, elem...)...)
}

// ExpandHome replaces a leading "~" (alone or before a separator) with the
// home directory.
func (e *Env) ExpandHome(p string) string {
	if p == "~" {
		return e.Home
	}
	if strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`) {
		return filepath.Join(e.Home, p[2:])
	}
	return p
}

// Time returns the current time.
func (e *Env) Time() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

// Instance returns the manifests' agent.instance: the host name, or
// "unknown" when the machine has none.
func (e *Env) Instance() string {
	if e.Hostname == "" {
		return "unknown"
	}
	return e.Hostname
}

// Options tune one export.
type Options struct {
	// Since, when not zero, keeps only sessions on or after this instant
	// (entities are never filtered by it). The CLI reads a bare date as
	// midnight UTC on every agent (docs/exporters.md).
	Since time.Time
	// Cache remembers what earlier exports derived from each source unit,
	// so that unchanged units are not read again. Nil reads everything.
	Cache *Cache
}

// Output is what one export read.
type Output struct {
	// Agent is the manifest's agent block.
	Agent Agent
	// SpecVersion is the manifest's spec_version ("0.1").
	SpecVersion string
	// Capabilities is the manifest's capabilities list.
	Capabilities []string
	// Entities and Sessions are the rows, in the order the manifest lists
	// them.
	Entities []Entity
	Sessions []Session
	// Policy is the manifest's visibility_policy; nil writes none.
	Policy *Policy
	// Sources names what was read (for doctor and the summary).
	Sources []Source
	// Warnings are the units that were skipped and why.
	Warnings []Warning
}

// Source is one store or file an export read.
type Source struct {
	// Kind names the source ("auto_memory", "state_5.sqlite", ...).
	Kind string
	// Path is where it is.
	Path string
}

// Warning is a unit an export skipped.
type Warning struct {
	File string
	Line int // 0 when the problem is not on one line
	Msg  string
}

func (w Warning) String() string {
	switch {
	case w.File == "":
		return w.Msg
	case w.Line > 0:
		return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Msg)
	}
	return w.File + ": " + w.Msg
}

// Warn records a skipped unit.
func (o *Output) Warn(file string, line int, format string, args ...any) {
	o.Warnings = append(o.Warnings, Warning{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// Health is the state of an agent's store, as doctor reports it.
type Health struct {
	// Status is "ok", "degraded" or "blocked".
	Status string
	// Reason says why the status is not ok; empty when it is.
	Reason string
	// Details are the agent's own facts (paths, counts), in a stable
	// order, with the reference's keys.
	Details []Detail
	// Fix says what to do about a status that is not ok.
	Fix string
}

// Health statuses.
const (
	StatusOK       = "ok"
	StatusDegraded = "degraded"
	StatusBlocked  = "blocked"
)

// Detail is one fact of a Health.
type Detail struct {
	Key   string
	Value any
}
