// Package turn compiles turn-scoped recognition briefs: given the prompt
// that starts an agent's turn, the working directory, recent Codex thread
// metadata and the federation library, which few things should the agent
// be reminded of, and in which form. It backs the MCP tool
// compile_codex_turn (schema codex-turn-brief/v1) and carries the Cursor
// variant (cursor-turn-brief/v1), both after the Python reference
// (core/codex_turn_compiler.py, core/cursor_turn_compiler.py, oracle
// v0.11), pinned by testdata/conformance/turn_compiler_vectors.json.
//
// # Codex brief
//
// Candidates are every entity row of the recognition manifest at the
// access level (kind project, preference, handoff or entity), every visible
// session (kind session, named by its first project focus or key action)
// and up to 60 recent Codex threads (kind thread). Each gets a score:
//
//	prompt      EXACT 40, NAME_SUBSTRING 36, or
//	            12 per shared meaningful term up to 24, over name, aliases
//	            and project focus (the shared tier ladder, analyze.TierOf)
//	cwd_repo    25 cwd nested in the candidate's cwd, 22 in the repository
//	            root, 18 repository name as a word, 14 remote
//	            reinforcement, 15 cwd basename (the largest applies)
//	recency     15 (1 day), 12 (7), 8 (30), 4 (90), else 1; 0 undated
//	cross_agent 0 for one agent, else min(10, 4 + 2 per extra agent)
//	continuity  files touched 5, dated session/thread recency/3 up to 5,
//	            repository name in a file path 3, both cwds known 2; max 10
//	penalty     -10 generic name, -4 summary over 260 characters, -4 a
//	            codex-only candidate older than 30 days
//
// A candidate passes only if the prompt names it (prompt > 0), or the
// prompt is a vague continuation ("what should I do next") and the
// repository name appears as a word in the candidate (never for threads).
// Items are the best max_items by score, then date, name, source.
// Routing injects when there is an item; its confidence is the shared
// tier-only bucket of the top item (recognition.Bucket), not the raw
// score.
//
// # Environment
//
// The brief depends on the machine: the working directory (the server's
// when cwd is omitted), the repository around it (root, origin remote and
// branch, read from .git directly, no git process, under a time bound) and
// the Codex home ($CODEX_HOME, else ~/.codex). The reference reads Codex
// threads and Stage 1 job counters from state_5.sqlite; this module has no
// SQLite reader, so threads are read instead from the rollout files Codex
// writes ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl), named from
// session_index.jsonl or history.jsonl, and native Stage 1 is always
// reported "unknown" (diagnostics.codex_state says why).
//
// # Deviations from the reference
//
//   - The prompt tier uses whole tokens (analyze.TierOf), so "NAS"
//     in "bananas" is not a match; the reference before v0.11 matched raw
//     substrings.
//   - A top item admitted by the vague-continuation gate (no prompt tier)
//     reports confidence "low", not "none", which this package keeps for
//     observe mode.
//   - A cwd of "/" (empty base name) earns no cwd-basename points; the
//     reference gives every candidate 15.
//   - Names quoted in reasons and diagnostics pass the redaction filter
//     like every other text field.
//   - repo.branch and diagnostics.codex_state are additions, present only
//     when known.
//   - A worktree or submodule (.git is a file naming the git directory)
//     has its origin remote read; the reference reads none. User
//     information in a remote URL (a token, often) is removed.
//   - Only candidates that can pass the gate are built (see gather); the
//     brief is the same as when every candidate is built
//     (TestPrefilterIsExact), at a cost that grows with the candidates,
//     not with the library.
package turn

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/recall/recognition"
)

// Bounds and defaults of the compile_codex_turn arguments.
const (
	DefaultMaxItems = 6
	MinMaxItems     = 1
	MaxMaxItems     = 20
	DefaultMaxChars = 1800
	MinMaxChars     = 400
	MaxMaxChars     = 6000
	// MaxPromptChars bounds the prompt, in code points; the rest is cut.
	MaxPromptChars = 8000
	// DefaultAccessLevel is the tool's default access_level.
	DefaultAccessLevel = "team"
	// DefaultDelivery is the delivery mode of the MCP tool.
	DefaultDelivery = "all"
)

// Delivery modes.
var deliveryModes = []string{"all", "explicit", "fallback", "mcp", "memory-md"}

// Source is what the compiler reads from the federation;
// *federation.Store implements it.
type Source interface {
	// Manifests returns the readable agents' manifests, in id order.
	Manifests(reader federation.Reader) []federation.AgentManifest
	// RecognitionRows returns the recognition manifest's merged entity
	// rows at level, limited to the rows with a contribution keep
	// accepts.
	RecognitionRows(level visibility.Level, reader federation.Reader, keep func(*l5.Entity) bool) []recognition.Row
}

// Request is one compile_codex_turn call.
type Request struct {
	Prompt string
	// Cwd is the working directory of the turn; nil means the server
	// process's own, and a blank string means none.
	Cwd *string
	// AccessLevel is public, team or private, exactly (no case folding,
	// no surrounding space), as the reference requires.
	AccessLevel string
	// MaxItems (1..20) and MaxChars (400..6000) bound the brief; there is
	// no implicit default, pass DefaultMaxItems and DefaultMaxChars.
	MaxItems int
	MaxChars int
	// Delivery is explicit, mcp, memory-md, fallback or all; "" means
	// all.
	Delivery string
	// Reader limits the agents read (nil: every agent).
	Reader federation.Reader
}

// Env is the machine the compiler runs on. The zero value uses the real
// clock, working directory and file system, and no environment variables
// (the server passes its own in Getenv).
type Env struct {
	// Now returns the current time; the recency bands are measured in
	// days from its UTC date.
	Now func() time.Time
	// Getwd returns the server's working directory, used when a request
	// has no cwd.
	Getwd func() (string, error)
	// Getenv reads environment variables (CODEX_HOME); nil reads none.
	Getenv func(string) string
	// HomeDir returns the user's home directory, for "~" and ~/.codex.
	HomeDir func() (string, error)
	// CodexHome, when set, is the Codex home to read instead of
	// $CODEX_HOME or ~/.codex. "-" reads none.
	CodexHome string
	// RepoTimeout bounds reading the repository identity (default
	// 300ms); ThreadsTimeout bounds reading Codex threads (default
	// 300ms).
	RepoTimeout    time.Duration
	ThreadsTimeout time.Duration
}

func (e *Env) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

func (e *Env) getwd() (string, error) {
	if e.Getwd != nil {
		return e.Getwd()
	}
	return os.Getwd()
}

func (e *Env) getenv(k string) string {
	if e.Getenv != nil {
		return e.Getenv(k)
	}
	return ""
}

func (e *Env) home() string {
	f := e.HomeDir
	if f == nil {
		f = os.UserHomeDir
	}
	h, err := f()
	if err != nil {
		return ""
	}
	return h
}

func (e *Env) repoTimeout() time.Duration {
	if e.RepoTimeout > 0 {
		return e.RepoTimeout
	}
	return 300 * time.Millisecond
}

func (e *Env) threadsTimeout() time.Duration {
	if e.ThreadsTimeout > 0 {
		return e.ThreadsTimeout
	}
	return 300 * time.Millisecond
}

// ArgError is an argument outside its domain. Its message says what the
// reference says and what to send instead.
type ArgError struct {
	Arg string
	Msg string
}

func (e *ArgError) Error() string { return e.Msg }

// ParseAccessLevel accepts exactly "public", "team" or "private".
func ParseAccessLevel(s string) (visibility.Level, error) {
	switch s {
	case "public":
		return visibility.Public, nil
	case "team":
		return visibility.Team, nil
	case "private":
		return visibility.Private, nil
	}
	return 0, &ArgError{Arg: "access_level", Msg: fmt.Sprintf(
		"access_level must be one of ['private', 'public', 'team'] (got %s): send public, team or private, in lower case",
		pyfmt.Quote(s))}
}

func checkRange(name string, v, lo, hi, def int) error {
	if v < lo || v > hi {
		return &ArgError{Arg: name, Msg: fmt.Sprintf(
			"%s must be between %d and %d (got %d): send an integer from %d to %d, or leave it out for %d",
			name, lo, hi, v, lo, hi, def)}
	}
	return nil
}

// Validate checks the request's arguments the way the reference does,
// in its order: access level, max_items, max_chars, delivery.
func (r *Request) Validate() (visibility.Level, string, error) {
	level, err := ParseAccessLevel(r.AccessLevel)
	if err != nil {
		return 0, "", err
	}
	if err := checkRange("max_items", r.MaxItems, MinMaxItems, MaxMaxItems, DefaultMaxItems); err != nil {
		return 0, "", err
	}
	if err := checkRange("max_chars", r.MaxChars, MinMaxChars, MaxMaxChars, DefaultMaxChars); err != nil {
		return 0, "", err
	}
	d := r.Delivery
	if d == "" {
		d = DefaultDelivery
	}
	ok := false
	for _, m := range deliveryModes {
		ok = ok || m == d
	}
	if !ok {
		return 0, "", &ArgError{Arg: "delivery", Msg: fmt.Sprintf(
			"delivery must be one of ['all', 'explicit', 'fallback', 'mcp', 'memory-md'] (got %s): send one of those, or leave it out for all",
			pyfmt.Quote(d))}
	}
	return level, d, nil
}

// Compiler compiles Codex turn briefs over a federation.
type Compiler struct {
	src Source
	env Env
	// readRepo reads a repository identity; tests replace it.
	readRepo func(cwd string) Repo
	// exhaustive turns off the candidate prefilter (tests).
	exhaustive bool
}

// New returns a compiler reading src on the machine env describes.
func New(src Source, env Env) *Compiler {
	return &Compiler{src: src, env: env, readRepo: readRepo}
}

// Compile builds the brief for one turn. The only errors are invalid
// arguments (*ArgError). Reading the repository and the Codex home is
// bounded in time; what is not read in time is reported and left out,
// never waited for. ctx only shortens those bounds.
func (c *Compiler) Compile(ctx context.Context, req Request) (*Brief, error) {
	prompt := boundPrompt(req.Prompt)
	level, delivery, err := req.Validate()
	if err != nil {
		return nil, err
	}
	now := c.env.now()

	// The environment: working directory, repository, Codex threads. The
	// repository and the threads are read concurrently, each under its
	// own time bound.
	cwd := c.resolveCwd(req.Cwd)
	repoCh := make(chan repoResult, 1)
	go func() { repoCh <- c.detectRepo(ctx, cwd) }()
	threads := c.readThreads(ctx, now)
	repo := <-repoCh

	sc := newScorer(prompt, cwd, repo.Repo, now)
	sc.exhaustive = c.exhaustive
	sc.resolvePath = func(p string) string {
		if r, ok := c.absPath(p); ok {
			return r
		}
		return p
	}
	cands := gather(sc, c.src, level, req.Reader, threads.records)
	scored := sc.score(cands)
	return build(sc, scored, buildArgs{
		prompt: prompt, cwd: cwd, repo: repo, threads: threads,
		maxItems: req.MaxItems, maxChars: req.MaxChars, delivery: delivery,
	}), nil
}

// boundPrompt strips the prompt and keeps its first MaxPromptChars code
// points (then strips the cut end), as the reference does.
func boundPrompt(s string) string {
	s = strings.TrimFunc(s, pyfmt.IsSpace)
	if utf8.RuneCountInString(s) <= MaxPromptChars {
		return s
	}
	n := 0
	for i := range s {
		if n == MaxPromptChars {
			return strings.TrimRightFunc(s[:i], pyfmt.IsSpace)
		}
		n++
	}
	return s
}

// runeLen is Python's len() of a str.
func runeLen(s string) int { return utf8.RuneCountInString(s) }

// cutRunes returns the first n code points of s.
func cutRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
