package codex

import "regexp"

// This file holds, in one place, the vocabulary the reference's Codex
// exporter hard-codes (⚠ #10 of the behaviour spec). Each table changes
// what the manifest says, so it is kept for parity with the Python
// exporter, but as data: the code that uses it is generic. docs/exporters.md
// ("codex") lists what each table does.

// genericNames are words that are never a project: a cwd whose base name
// is one of them (or, with spaces as dashes, one of them) gives no project
// key, and they are not counted as project names in memory or preference
// names.
var genericNames = setOf(
	"access", "add", "after", "align", "and", "android", "app", "apps", "api", "archive",
	"architecture", "assess", "assistant", "back", "backend", "backup", "backups", "billing", "bin", "build",
	"building", "bootstrap", "camerax", "chat", "check", "clean", "claude", "code", "codex", "commit",
	"compose", "config", "console", "contracts", "create", "current", "data", "decide", "desktop", "determine",
	"dev", "diagnose", "dns", "doc", "docs", "documents", "drive", "editor", "env", "exact",
	"fastify", "file", "files", "find", "finish", "fixtures", "folder", "folders", "for", "foundation",
	"fresh", "from", "full", "get", "git", "github", "google", "gradle", "handoff", "home",
	"improve", "implement", "install", "into", "ios", "inventory", "java", "jetpack", "kit", "kotlin",
	"layout", "letters", "local", "locate", "mac", "memory", "machine", "map", "model", "move",
	"migration", "monorepo", "native", "new", "new-project", "node", "notes", "npm", "off", "old",
	"onedrive", "parity", "play", "plan", "prepare", "preserve", "project", "projects", "push", "read",
	"react", "readiness", "recover", "recovery", "rebuild", "reinstall", "repo", "repos", "reset", "restore",
	"robocopy", "review", "root", "scaffold", "session", "sdk", "src", "state", "storage", "strategy",
	"studio", "swiftui", "the", "tooling", "triage", "update", "user", "users", "web", "with",
	"windows", "workspace", "save", "small", "merge", "inspect",
)

// A concept is a phrase searched for in a thread's name, its first user
// texts and the start of its rollout; each one found becomes a topic
// entity ("fallback concept") with the aliases given here. A concept is
// found when one of its spellings occurs, ASCII case-insensitively,
// between Unicode word boundaries (the reference's regular expressions,
// spelled out).
type concept struct {
	name      string
	spellings []string // lower case
	aliases   []string
}

// concepts are the reference's fallback concepts, in its order.
var concepts = []concept{
	{"Bourdon recognition first runtime layer",
		[]string{"bourdon recognition first runtime layer", "bourdon recognition-first runtime layer"},
		[]string{"Bourdon", "Continuo", "runtime recognition", "runtime-recognition", "recognition first runtime layer", "recognition-first runtime layer"}},
	{"Bourdon", []string{"bourdon"}, nil},
	{"Continuo", []string{"continuo"}, []string{"Bourdon"}},
	{"runtime recognition",
		[]string{"runtime recognition", "runtime-recognition", "run time recognition", "run time-recognition", "run-time recognition", "run-time-recognition"},
		[]string{"run time recognition", "run-time recognition", "runtime-recognition", "recognition first runtime layer", "Bourdon recognition first runtime layer"}},
	{"recognition first runtime layer", []string{"recognition first runtime layer", "recognition-first runtime layer"}, []string{"recognition-first runtime layer"}},
	{"recognition timing layer", []string{"recognition timing layer"}, nil},
	{"natural AI communication", []string{"natural ai communication"}, nil},
	{"native Codex memory", []string{"native codex memory", "native codex memories"}, []string{"native Codex memories"}},
}

// The combined concept: found when both of these concepts are (in any of
// the texts searched), it comes first; an un-indexed rollout carrying it
// is named after it.
const (
	combinedConcept = 0 // index in concepts
	combinedWord    = 1 // "Bourdon"
	combinedPhrase  = 4 // "recognition first runtime layer"
)

// conceptAnchors is a prefilter: a line that contains none of these
// (ASCII case-insensitively) matches no concept.
var conceptAnchors = [][]byte{[]byte("bourdon"), []byte("continuo"), []byte("recognition"), []byte("natural ai communication"), []byte("native codex memor")}

// A preferenceRule names a preference bullet whose lower-cased text
// matches: all of all, at least one of any (when set), and, when re is
// set, the regular expression. The first matching rule names it.
type preferenceRule struct {
	name string
	all  []string
	any  []string
	re   *regexp.Regexp
}

// preferenceRules are the reference's canonical preference names, in its
// order. A bullet no rule names is named after its own words.
var preferenceRules = []preferenceRule{
	{name: "backend-first delivery preference", any: []string{"backend-first", "backend first"}},
	{name: "cross-machine handoff workflow", any: []string{"cross-machine"}},
	{name: "cross-machine handoff workflow", all: []string{"commit", "push"}, any: []string{"mac", "ios", "xcode"}},
	{name: "machine-switch checkpoint workflow", all: []string{"machine switch", "branch", "checkpoint"}},
	{name: "drive-letter translation", any: []string{"old-to-new letter translation", "drive letter"}},
	{name: "reusable handoff playbook", all: []string{"handoff playbook"}},
	{name: "architecture stage reporting", all: []string{"implemented architecture", "intended architecture"}},
	{name: "full-platform migration planning", any: []string{"full native ios", "full rewrite"}},
	{name: "reinstall recovery handoff", all: []string{"reinstall"}, any: []string{"handoff", "recovery", "offline"}},
	{name: "exact-path operational guidance", any: []string{"exact path", "exact paths"}},
	{name: "stop/wait interruption preference", re: regexp.MustCompile(`\b(?:wait|stop)\b`)},
	{name: "git checkpoint workflow", all: []string{"git", "commit", "push"}},
}

// preferencePrefixes are stripped, in this order, from the start of a
// bullet named after its own words.
var preferencePrefixes = []*regexp.Regexp{
	regexp.MustCompile(`^for\s+`),
	regexp.MustCompile(`^future\s+`),
	regexp.MustCompile(`^the user (?:wants|prefers|gave|says|likes)\s+`),
	regexp.MustCompile(`^user (?:wants|prefers|gave|says|likes)\s+`),
	regexp.MustCompile(`^prefer(?:s|red)?\s+`),
	regexp.MustCompile(`^default to\s+`),
}

// Junk entities (the reference's issue #78), dropped last.
var (
	junkNameRE      = regexp.MustCompile(`(?i)^(?:project\s*\d+|new\s+project(?:\s*\d+)?|project\s+name|untitled|brief\s+description\s+of\s+the\s+project\.?)$`)
	junkSingleWords = setOf("memories", "memory", "notes", "note", "temp", "tmp", "test", "tests", "todo")
	shortNamesKept  = setOf("nas", "ios", "css", "git", "ci")
	observedRE      = regexp.MustCompile(`(?i)^observed across \d+ codex session\(s\)\.?$`)
	plainTags       = setOf("codex-project", "codex-thread", "codex-memory")
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
