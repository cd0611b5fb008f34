// Package cursor exports the memory of Cursor (the AI-first IDE) from its
// state.vscdb SQLite databases and its hand-curated short index, as the
// Python reference's cursor participant does (§4 of the exporters'
// behaviour spec), with its known bugs fixed and the real Cursor layouts
// (composer data in cursorDiskKV, list-shaped ItemTable values) read as
// well: docs/exporters.md ("cursor") says what and why.
package cursor

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/getbourdon/bourdon-go/internal/export"
)

// Contract strings shared with the reference.
const (
	AgentID       = "cursor"
	AgentType     = "code-assistant"
	SpecVersion   = "0.1"
	roleNarrative = "AI-first IDE. Bourdon reads the SQLite-backed composer/workspace " +
		"state to surface recent sessions and project entities to other agents."
)

// DataDirVar names Cursor's application data directory (the one holding
// User/globalStorage/state.vscdb) when it is not the platform's default.
// The reference uses CURSOR_DIR for it and also for the ~/.cursor dot
// directory (⚠ #15); CURSOR_DIR keeps both meanings, and this variable,
// when set, wins for the data directory.
const DataDirVar = "BOURDON_CURSOR_DATA_DIR"

func policy() *export.Policy {
	return &export.Policy{
		Default:     "team",
		PrivateTags: []string{"personal", "credential", "secret"},
		TeamTags:    []string{"cursor", "workspace", "sqlite"},
	}
}

// Exporter reads Cursor's stores.
type Exporter struct{}

// New returns the Cursor exporter.
func New() Exporter { return Exporter{} }

// Info describes the agent.
func (Exporter) Info() export.Info { return export.Info{ID: AgentID, Type: AgentType, Label: "Cursor"} }

// dataRoot is Cursor's application data directory: $BOURDON_CURSOR_DATA_DIR,
// else $CURSOR_DIR, else ~/Library/Application Support/Cursor (macOS),
// ~/.config/Cursor (Linux) or %APPDATA%\Cursor (Windows); "" when there is
// none for this system.
func dataRoot(env *export.Env) string {
	for _, v := range []string{DataDirVar, "CURSOR_DIR"} {
		if p := env.Var(v); p != "" {
			return env.ExpandHome(p)
		}
	}
	switch env.GOOS {
	case "darwin":
		return env.HomePath("Library", "Application Support", "Cursor")
	case "linux":
		return env.HomePath(".config", "Cursor")
	case "windows":
		if a := env.Var("APPDATA"); a != "" {
			return filepath.Join(a, "Cursor")
		}
	}
	return ""
}

// dotDir is the ~/.cursor directory ($CURSOR_DIR when set), where the
// short index lives.
func dotDir(env *export.Env) string {
	if p := env.Var("CURSOR_DIR"); p != "" {
		return env.ExpandHome(p)
	}
	return env.HomePath(".cursor")
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return p != "" && err == nil && st.IsDir()
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// Detect reports Cursor's data directory and whether it exists.
func (Exporter) Detect(env *export.Env) export.Presence {
	root := dataRoot(env)
	return export.Presence{Path: root, Present: isDir(root)}
}

// database is one state.vscdb, with the workspace.json next to it for a
// workspace's database.
type database struct {
	path      string
	workspace string // the workspace.json path, "" for the global ones
}

// databases lists the databases in the reference's order: <root>/state.vscdb,
// User/globalStorage/state.vscdb, then each workspace's, sorted.
func databases(root string) []database {
	var out []database
	for _, p := range []string{filepath.Join(root, "state.vscdb"), filepath.Join(root, "User", "globalStorage", "state.vscdb")} {
		if isFile(p) {
			out = append(out, database{path: p})
		}
	}
	ws := filepath.Join(root, "User", "workspaceStorage")
	entries, _ := os.ReadDir(ws)
	for _, e := range entries {
		p := filepath.Join(ws, e.Name(), "state.vscdb")
		if isFile(p) {
			out = append(out, database{path: p, workspace: filepath.Join(ws, e.Name(), "workspace.json")})
		}
	}
	return out
}

// Export reads every database and the short index.
func (Exporter) Export(ctx context.Context, env *export.Env, opts export.Options) (*export.Output, error) {
	root := dataRoot(env)
	if !isDir(root) {
		if root == "" {
			return nil, export.NotInstalled("no Cursor data directory on %s (set %s or CURSOR_DIR)", env.GOOS, DataDirVar)
		}
		return nil, export.NotInstalled("no Cursor data directory at %s", root)
	}
	out := &export.Output{
		SpecVersion:  SpecVersion,
		Agent:        export.Agent{ID: AgentID, Type: AgentType, SpecVersionCompat: SpecVersion, RoleNarrative: roleNarrative},
		Capabilities: []string{"composer-history", "workspace-state"},
		Policy:       policy(),
	}
	ex, err := extract(ctx, root, opts.Cache, out)
	if err != nil {
		return nil, err
	}
	indexPath := filepath.Join(dotDir(env), "memory", "short-index.json")
	short := readShortIndex(indexPath, opts.Cache, out)
	assemble(out, ex, short, opts)
	return out, nil
}

// Health reports whether Cursor's stores are there and readable.
func (Exporter) Health(ctx context.Context, env *export.Env) export.Health {
	root := dataRoot(env)
	if root == "" {
		return export.Health{Status: export.StatusBlocked, Reason: "Cursor data directory not resolvable on this platform.",
			Fix: "Install Cursor (https://cursor.sh) and open it once. Set " + DataDirVar + " (or CURSOR_DIR) if Cursor stores state outside the default location."}
	}
	if !isDir(root) {
		return export.Health{Status: export.StatusBlocked, Reason: "Cursor data directory not present at " + root + ".",
			Details: []export.Detail{{Key: "expected_path", Value: root}},
			Fix:     "Install Cursor and open it once to create the data directory, or set " + DataDirVar + " (or CURSOR_DIR) to the actual location."}
	}
	out := &export.Output{Policy: policy()}
	ex, err := extract(ctx, root, nil, out)
	if err != nil {
		return export.Health{Status: export.StatusDegraded, Reason: "Cursor data directory present but extraction failed.",
			Details: []export.Detail{{Key: "error", Value: err.Error()}},
			Fix:     "Close Cursor (its SQLite stores may be locked) then re-run `bourdon export-all`."}
	}
	if len(ex.scanned) == 0 {
		return export.Health{Status: export.StatusDegraded, Reason: "No Cursor SQLite stores found under the data directory.",
			Details: []export.Detail{{Key: "path", Value: root}},
			Fix:     "Open Cursor and use it for at least one chat session, then re-run `bourdon export-all`."}
	}
	assemble(out, ex, nil, export.Options{})
	details := []export.Detail{
		{Key: "databases_scanned", Value: len(ex.scanned)},
		{Key: "sessions_extracted", Value: len(out.Sessions)},
		{Key: "entities_extracted", Value: len(out.Entities)},
		{Key: "malformed_records", Value: ex.malformed},
	}
	if len(ex.failed) > 0 {
		details = append(details, export.Detail{Key: "unreadable_databases", Value: slices.Clone(ex.failed)})
		return export.Health{Status: export.StatusDegraded,
			Reason:  strconv.Itoa(len(ex.failed)) + " of " + strconv.Itoa(len(ex.scanned)) + " Cursor databases could not be read; the others were.",
			Details: details,
			Fix:     "Close Cursor and re-run `bourdon doctor`; a database that stays unreadable is corrupt (Cursor rebuilds it when it is moved away)."}
	}
	return export.Health{Status: export.StatusOK, Details: details}
}
