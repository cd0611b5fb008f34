package setup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/claudedesktop"
)

// Target is one entry setup wires into one client's configuration file.
type Target struct {
	// ID names the target: "claude-code.mcp", "claude-code.session-end",
	// "claude-code.prepare-turn", "codex.mcp", "cursor.mcp",
	// "claude-desktop.mcp".
	ID string `json:"id"`
	// Client is the application ("Claude Code").
	Client string `json:"client"`
	// Item is what is wired ("MCP server", "SessionEnd hook").
	Item string `json:"item"`
	// Path is the configuration file.
	Path string `json:"path"`
	// Presence is the directory whose existence says the client is
	// installed.
	Presence string `json:"presence"`
	// Optional targets are wired only when asked for (the
	// UserPromptSubmit hook).
	Optional bool `json:"optional,omitempty"`

	format byte // 'j' JSON, 't' TOML
	// examine reports whether the entry is in the document and, when it
	// is not and add is set, returns the document with it added.
	examineJSON func(d *jdoc, add bool) (jsonResult, error)
	examineTOML func(src []byte, add bool) (tomlResult, error)
}

// Label is how setup and doctor name the target: "Claude Code MCP server".
func (t Target) Label() string { return t.Client + " " + t.Item }

type jsonResult struct {
	wired   bool
	command string // the executable a wired entry runs
	after   []byte
	edit    Edit
}

type tomlResult struct {
	wired   bool
	command string
	after   []byte
	edit    Edit
}

// Edit says how to take one addition out again, for --undo on a file that
// changed since setup wrote it.
type Edit struct {
	// Kind is "member" (Pointer names a key to remove from its object),
	// "item" (Pointer names an array to remove Value from) or "text"
	// (Text was appended to the file).
	Kind    string          `json:"kind"`
	Pointer []string        `json:"pointer,omitempty"`
	Value   json.RawMessage `json:"value,omitempty"`
	Text    string          `json:"text,omitempty"`
}

// Config is what setup wires: this binary, serving this library.
type Config struct {
	Env *export.Env
	// Binary is the absolute path of the bourdon executable the entries
	// run.
	Binary string
	// Library is the absolute library directory.
	Library string
	// PrepareTurnHook also wires the opt-in UserPromptSubmit hook.
	PrepareTurnHook bool
	// NoHooks leaves Claude Code's hooks alone (MCP entries only).
	NoHooks bool
}

// ServeArgs are the arguments of every MCP entry.
func (c Config) ServeArgs() []string { return []string{"serve", "--library", c.Library} }

// SessionEndCommand is the command of the Claude Code SessionEnd hook.
func (c Config) SessionEndCommand() string {
	return shellJoin(c.Binary, "export-all", "--library", c.Library)
}

// PrepareTurnCommand is the command of the opt-in UserPromptSubmit hook.
func (c Config) PrepareTurnCommand() string {
	return shellJoin(c.Binary, "prepare-turn", "--library", c.Library)
}

// ExportCommand is the first export setup runs, as the user could type it.
func (c Config) ExportCommand() string {
	return shellJoin(c.Binary, "export-all", "--library", c.Library)
}

// Paths of the clients' configuration.

func claudeDir(env *export.Env) string {
	if d := env.Var("CLAUDE_CONFIG_DIR"); d != "" {
		return env.ExpandHome(d)
	}
	return env.HomePath(".claude")
}

func claudeJSON(env *export.Env) string {
	if d := env.Var("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(env.ExpandHome(d), ".claude.json")
	}
	return env.HomePath(".claude.json")
}

func codexHome(env *export.Env) string {
	if d := env.Var("CODEX_HOME"); d != "" {
		return env.ExpandHome(d)
	}
	return env.HomePath(".codex")
}

// Targets lists what setup wires, in the order it shows them.
func Targets(c Config) []Target {
	env := c.Env
	stdio := jobj{{"type", "stdio"}, {"command", c.Binary}, {"args", c.ServeArgs()}, {"env", jobj{}}}
	plainEntry := jobj{{"command", c.Binary}, {"args", c.ServeArgs()}}
	sessionEnd := jobj{{"matcher", "*"}, {"hooks", []any{jobj{{"type", "command"}, {"command", c.SessionEndCommand()}}}}}
	promptSubmit := jobj{{"hooks", []any{jobj{{"type", "command"}, {"command", c.PrepareTurnCommand()}}}}}
	return []Target{
		{ID: "claude-code.mcp", Client: "Claude Code", Item: "MCP server", Path: claudeJSON(env), Presence: claudeDir(env),
			format: 'j', examineJSON: mcpJSON(stdio)},
		{ID: "claude-code.session-end", Client: "Claude Code", Item: "SessionEnd hook", Path: filepath.Join(claudeDir(env), "settings.json"), Presence: claudeDir(env),
			format: 'j', examineJSON: hookJSON("SessionEnd", sessionEnd, isExportHook)},
		{ID: "claude-code.prepare-turn", Client: "Claude Code", Item: "UserPromptSubmit hook", Path: filepath.Join(claudeDir(env), "settings.json"), Presence: claudeDir(env),
			Optional: true, format: 'j', examineJSON: hookJSON("UserPromptSubmit", promptSubmit, isPrepareTurnHook)},
		{ID: "codex.mcp", Client: "Codex", Item: "MCP server", Path: filepath.Join(codexHome(env), "config.toml"), Presence: codexHome(env),
			format: 't', examineTOML: mcpTOML(c)},
		{ID: "cursor.mcp", Client: "Cursor", Item: "MCP server", Path: env.HomePath(".cursor", "mcp.json"), Presence: env.HomePath(".cursor"),
			format: 'j', examineJSON: mcpJSON(plainEntry)},
		{ID: "claude-desktop.mcp", Client: "Claude Desktop", Item: "MCP server", Path: filepath.Join(claudedesktop.Dir(env), "claude_desktop_config.json"), Presence: claudedesktop.Dir(env),
			format: 'j', examineJSON: mcpJSON(plainEntry)},
	}
}

// ServerName is the key of bourdon's entry in every client's MCP servers.
const ServerName = "bourdon"

// runsBourdonServe reports whether an MCP entry's command and arguments
// start a bourdon server, whatever the entry is called.
func runsBourdonServe(command string, args []string) bool {
	base := strings.ToLower(filepath.Base(strings.ReplaceAll(command, `\`, "/")))
	base = strings.TrimSuffix(base, ".exe")
	return base == "bourdon" && slices.Contains(args, "serve")
}

// mcpJSON examines the mcpServers object of a JSON configuration.
func mcpJSON(entry jobj) func(d *jdoc, add bool) (jsonResult, error) {
	return func(d *jdoc, add bool) (jsonResult, error) {
		servers := d.root.get("mcpServers")
		if servers != nil && servers.kind != '{' {
			return jsonResult{}, errors.New(`"mcpServers" is not an object`)
		}
		if servers != nil {
			if own := servers.get(ServerName); own != nil {
				cmd, _ := d.str(own.get("command"))
				return jsonResult{wired: true, command: cmd}, nil
			}
			for _, m := range servers.members {
				cmd, _ := d.str(m.val.get("command"))
				var args []string
				if a := m.val.get("args"); a != nil && a.kind == '[' {
					for _, it := range a.items {
						if s, ok := d.str(it); ok {
							args = append(args, s)
						}
					}
				}
				if runsBourdonServe(cmd, args) {
					return jsonResult{wired: true, command: cmd}, nil
				}
			}
		}
		if !add {
			return jsonResult{}, nil
		}
		if servers == nil {
			value := jobj{{ServerName, entry}}
			return jsonResult{after: d.withMember(d.root, "mcpServers", value), edit: memberEdit([]string{"mcpServers"}, value)}, nil
		}
		return jsonResult{after: d.withMember(servers, ServerName, entry), edit: memberEdit([]string{"mcpServers", ServerName}, entry)}, nil
	}
}

func memberEdit(pointer []string, value any) Edit {
	return Edit{Kind: "member", Pointer: pointer, Value: json.RawMessage(jsonCompact(value))}
}

// isExportHook recognises a hook that refreshes the library: the
// reference's test (the command mentions bourdon, claude-code and export,
// in any case, anywhere, so bourdon.exe and absolute paths match) or
// bourdon export-all.
func isExportHook(command string) bool {
	c := strings.ToLower(command)
	return strings.Contains(c, "bourdon") && (strings.Contains(c, "export-all") ||
		strings.Contains(c, "claude-code") && strings.Contains(c, "export"))
}

func isPrepareTurnHook(command string) bool {
	c := strings.ToLower(command)
	return strings.Contains(c, "bourdon") && strings.Contains(c, "prepare-turn")
}

// hookJSON examines hooks.<event> of Claude Code's settings.json. Entries
// are matched in both shapes Claude Code reads: the nested
// {"matcher", "hooks": [{"type", "command"}]} and the flat
// {"type", "command"} the reference's automation docs show.
func hookJSON(event string, entry jobj, match func(string) bool) func(d *jdoc, add bool) (jsonResult, error) {
	return func(d *jdoc, add bool) (jsonResult, error) {
		hooks := d.root.get("hooks")
		if hooks != nil && hooks.kind != '{' {
			return jsonResult{}, errors.New(`"hooks" is not an object`)
		}
		list := hooks.get(event)
		if list != nil && list.kind != '[' {
			return jsonResult{}, fmt.Errorf(`"hooks.%s" is not an array`, event)
		}
		if list != nil {
			for _, it := range list.items {
				if cmd, ok := d.str(it.get("command")); ok && match(cmd) {
					return jsonResult{wired: true, command: firstWord(cmd)}, nil
				}
				if nested := it.get("hooks"); nested != nil && nested.kind == '[' {
					for _, h := range nested.items {
						if cmd, ok := d.str(h.get("command")); ok && match(cmd) {
							return jsonResult{wired: true, command: firstWord(cmd)}, nil
						}
					}
				}
			}
		}
		if !add {
			return jsonResult{}, nil
		}
		switch {
		case hooks == nil:
			value := jobj{{event, []any{entry}}}
			return jsonResult{after: d.withMember(d.root, "hooks", value), edit: memberEdit([]string{"hooks"}, value)}, nil
		case list == nil:
			value := []any{entry}
			return jsonResult{after: d.withMember(hooks, event, value), edit: memberEdit([]string{"hooks", event}, value)}, nil
		}
		return jsonResult{after: d.withItem(list, entry), edit: Edit{Kind: "item", Pointer: []string{"hooks", event}, Value: json.RawMessage(jsonCompact(entry))}}, nil
	}
}

// firstWord returns the executable of a shell command line: its first
// word, unquoted.
func firstWord(cmd string) string {
	cmd = strings.TrimSpace(cmd)
	if strings.HasPrefix(cmd, "'") {
		if end := strings.Index(cmd[1:], "'"); end >= 0 {
			return cmd[1 : end+1]
		}
	}
	if strings.HasPrefix(cmd, `"`) {
		if end := strings.Index(cmd[1:], `"`); end >= 0 {
			return cmd[1 : end+1]
		}
	}
	if i := strings.IndexAny(cmd, " \t"); i >= 0 {
		return cmd[:i]
	}
	return cmd
}

// tomlBlock is the text appended to Codex's config.toml.
func tomlBlock(c Config) string {
	return "# Added by bourdon setup; bourdon setup --undo takes it out again.\n" +
		"[mcp_servers." + ServerName + "]\n" +
		"command = " + tomlString(c.Binary) + "\n" +
		"args = " + tomlStrings(c.ServeArgs()) + "\n"
}

// mcpTOML examines [mcp_servers] of Codex's config.toml. The file is
// parsed only to check it; the entry is appended as text, so the user's
// comments and layout survive.
func mcpTOML(c Config) func(src []byte, add bool) (tomlResult, error) {
	return func(src []byte, add bool) (tomlResult, error) {
		servers, err := tomlServers(src)
		if err != nil {
			return tomlResult{}, err
		}
		if own, ok := servers[ServerName].(map[string]any); ok {
			cmd, _ := own["command"].(string)
			return tomlResult{wired: true, command: cmd}, nil
		}
		if _, ok := servers[ServerName]; ok {
			return tomlResult{}, fmt.Errorf("mcp_servers.%s is not a table", ServerName)
		}
		for _, v := range servers {
			if m, ok := v.(map[string]any); ok {
				cmd, _ := m["command"].(string)
				var args []string
				if list, ok := m["args"].([]any); ok {
					for _, a := range list {
						if s, ok := a.(string); ok {
							args = append(args, s)
						}
					}
				}
				if runsBourdonServe(cmd, args) {
					return tomlResult{wired: true, command: cmd}, nil
				}
			}
		}
		if !add {
			return tomlResult{}, nil
		}
		if inlineAtRoot(src, "mcp_servers") {
			return tomlResult{}, fmt.Errorf("mcp_servers is an inline table, which TOML does not let a new [mcp_servers.%s] table extend; add %s = { command = %s, args = %s } inside it by hand", ServerName, ServerName, tomlString(c.Binary), tomlStrings(c.ServeArgs()))
		}
		text := tomlBlock(c)
		switch {
		case len(src) == 0:
		case !strings.HasSuffix(string(src), "\n"):
			text = "\n\n" + text
		default:
			text = "\n" + text
		}
		if strings.Contains(string(src), "\r\n") {
			text = strings.ReplaceAll(text, "\n", "\r\n")
		}
		after := append(slices.Clip(src), text...)
		check, err := tomlServers(after)
		own, _ := check[ServerName].(map[string]any)
		if err != nil || own["command"] != c.Binary {
			return tomlResult{}, fmt.Errorf("a [mcp_servers.%s] table cannot be appended to this file (it defines mcp_servers in a form a new table cannot extend); add these lines by hand:\n%s", ServerName, tomlBlock(c))
		}
		return tomlResult{after: after, edit: Edit{Kind: "text", Text: text}}, nil
	}
}

// inlineAtRoot reports whether a TOML document assigns key a value in its
// root table ("key = ..." before the first table header), which for a
// table means an inline one. Lines inside multi-line strings are skipped.
func inlineAtRoot(src []byte, key string) bool {
	inString := ""
	for _, line := range strings.Split(string(src), "\n") {
		trimmed := strings.TrimSpace(line)
		if inString != "" {
			if strings.Count(line, inString)%2 == 1 {
				inString = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "[") {
			return false
		}
		for _, q := range []string{`"""`, "'''"} {
			if strings.Count(line, q)%2 == 1 {
				inString = q
			}
		}
		for _, k := range []string{key, `"` + key + `"`, "'" + key + "'"} {
			if rest, ok := strings.CutPrefix(trimmed, k); ok && strings.HasPrefix(strings.TrimLeft(rest, " \t"), "=") {
				return true
			}
		}
	}
	return false
}

// tomlServers parses a TOML document and returns its mcp_servers table.
func tomlServers(src []byte) (map[string]any, error) {
	var doc map[string]any
	if _, err := toml.Decode(string(src), &doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("not valid TOML (line %d: %s)", pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("not valid TOML (%v)", err)
	}
	v, ok := doc["mcp_servers"]
	if !ok {
		return nil, nil
	}
	servers, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("mcp_servers is not a table")
	}
	return servers, nil
}

// maxConfigBytes bounds a configuration file setup reads (Claude Code's
// ~/.claude.json grows with every project; a few MiB is usual).
const maxConfigBytes = 32 << 20

// configFile is one configuration file as read from disk.
type configFile struct {
	path    string      // as named
	real    string      // the file to write: path with symbolic links resolved
	content []byte      // nil when the file does not exist
	mode    fs.FileMode // permission bits to keep
}

// readConfig reads a configuration file. A missing file is not an error
// (content nil); anything but a regular file (behind symbolic links) is.
func readConfig(path string) (*configFile, error) {
	cf := &configFile{path: path, real: path, mode: 0o600}
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cf, nil
	}
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return nil, fmt.Errorf("is a symbolic link that cannot be followed (%v)", err)
		}
		cf.real = real
		if fi, err = os.Stat(real); err != nil {
			return nil, err
		}
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("is not a regular file")
	}
	cf.mode = fi.Mode().Perm()
	f, err := os.Open(cf.real)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxConfigBytes {
		return nil, fmt.Errorf("is larger than %d MiB", maxConfigBytes>>20)
	}
	if data == nil {
		data = []byte{}
	}
	cf.content = data
	return cf, nil
}

// State is how a target stands.
type State string

// Target states.
const (
	// Wired: the entry is there (setup's or an equivalent one).
	Wired State = "wired"
	// Missing: the client is installed and the entry is not there.
	Missing State = "missing"
	// Refused: the file cannot be edited safely (not parseable, an
	// unexpected shape); Detail says why.
	Refused State = "refused"
	// Absent: the client is not installed.
	Absent State = "absent"
	// NotSelected: an optional target not asked for, or hooks turned
	// off.
	NotSelected State = "not-selected"
)

// Status is how one target stands on this machine.
type Status struct {
	Target Target `json:"target"`
	State  State  `json:"state"`
	// Detail says why a target is refused.
	Detail string `json:"detail,omitempty"`
	// Command is the executable a wired entry runs.
	Command string `json:"command,omitempty"`
}

// Inspect reports how every target stands, changing nothing. It is the one
// place that decides whether a client is wired: setup plans from it and
// doctor reports it.
func Inspect(c Config) []Status {
	statuses, _ := examine(c, false)
	return statuses
}

// pendingFile is a configuration file with the additions planned for it.
type pendingFile struct {
	file  *configFile
	after []byte
	items []string
	edits []Edit
}

// examine inspects every target and, when add is set, computes the new
// content of each file that needs an entry.
func examine(c Config, add bool) ([]Status, []*pendingFile) {
	var statuses []Status
	var files []*pendingFile
	byPath := map[string]*pendingFile{}
	broken := map[string]string{}
	for _, t := range Targets(c) {
		st := Status{Target: t}
		switch {
		case !dirExists(t.Presence):
			st.State = Absent
			statuses = append(statuses, st)
			continue
		case t.ID == "claude-code.prepare-turn" && (!c.PrepareTurnHook || c.NoHooks),
			t.ID == "claude-code.session-end" && c.NoHooks:
			st.State = NotSelected
		}
		if why, bad := broken[t.Path]; bad {
			if st.State == "" {
				st.State = Refused
			}
			st.Detail = why
			statuses = append(statuses, st)
			continue
		}
		pf := byPath[t.Path]
		if pf == nil {
			cf, err := readConfig(t.Path)
			if err != nil {
				broken[t.Path] = err.Error()
				if st.State == "" {
					st.State = Refused
				}
				st.Detail = err.Error()
				statuses = append(statuses, st)
				continue
			}
			pf = &pendingFile{file: cf, after: cf.content}
			byPath[t.Path] = pf
			files = append(files, pf)
		}
		want := add && st.State == ""
		wired, cmd, after, edit, err := t.examine(pf.after, want)
		switch {
		case err != nil && st.State == NotSelected:
			st.Detail = err.Error()
		case err != nil:
			broken[t.Path] = err.Error()
			st.State, st.Detail = Refused, err.Error()
			// Nothing is written to a file setup cannot read whole.
			pf.items, pf.edits, pf.after = nil, nil, pf.file.content
		case wired:
			st.State, st.Command = Wired, cmd
		case st.State == "":
			st.State = Missing
			if want {
				pf.after = after
				pf.items = append(pf.items, t.Label())
				pf.edits = append(pf.edits, edit)
			}
		}
		statuses = append(statuses, st)
	}
	// A file refused by a later target gets no change from earlier ones
	// either, and their statuses say so.
	for i, st := range statuses {
		if why, bad := broken[st.Target.Path]; bad && st.State == Missing {
			statuses[i].State, statuses[i].Detail = Refused, why
		}
	}
	var changed []*pendingFile
	for _, pf := range files {
		if _, bad := broken[pf.file.path]; !bad && len(pf.items) > 0 {
			changed = append(changed, pf)
		}
	}
	return statuses, changed
}

// examine runs the target's format-specific check on content (nil: the
// file does not exist).
func (t Target) examine(content []byte, add bool) (wired bool, command string, after []byte, edit Edit, err error) {
	switch t.format {
	case 'j':
		d, perr := parseJSONDoc(content)
		if perr != nil {
			return false, "", nil, Edit{}, perr
		}
		r, err := t.examineJSON(d, add)
		return r.wired, r.command, r.after, r.edit, err
	case 't':
		r, err := t.examineTOML(content, add)
		return r.wired, r.command, r.after, r.edit, err
	}
	return false, "", nil, Edit{}, fmt.Errorf("unknown format %q", t.format)
}

func dirExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
