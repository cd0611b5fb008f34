// Package setup wires bourdon into the coding agents installed on this
// machine: the MCP server entry in each client's configuration (Claude
// Code, Codex, Cursor, Claude Desktop), Claude Code's SessionEnd hook that
// keeps the library fresh, and, on request, a UserPromptSubmit hook; then
// it runs the first export.
//
// It is careful with files it does not own. Every change is shown as a
// unified diff before anything is written, and written only once the user
// agrees (or passed --yes). Configuration files are edited by inserting
// text, never rewritten, so everything the user wrote stays as it was; a
// file that does not parse is never touched. Every file changed is backed
// up first, and Undo takes the newest run back. Running setup again once
// everything is wired changes nothing.
package setup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// Options are one run of setup.
type Options struct {
	Config
	// Exporters are the agents to detect (registry.All()).
	Exporters []export.Exporter
	// DryRun shows what would change and writes nothing, runs nothing.
	DryRun bool
	// Yes applies the changes without asking.
	Yes bool
	// NoExport skips the first export.
	NoExport bool
	// Out receives the human-readable account of the run.
	Out io.Writer
	// Confirm asks the user a yes/no question; nil when there is no one
	// to ask (standard input is not a terminal).
	Confirm func(question string) (bool, error)
	// Export runs "bourdon export-all --library <library>".
	Export func(ctx context.Context, library string) error
}

// ErrNeedsConfirmation is returned when changes are pending, --yes was
// not given and there is no terminal to ask on.
var ErrNeedsConfirmation = errors.New("standard input is not a terminal, so setup cannot ask before writing: run it again with --yes to apply the changes above, or with --dry-run to only see them")

// ErrDeclined is returned when the user answered no.
var ErrDeclined = errors.New("nothing was changed")

// Report is what a run found and did; with --json it is the output.
type Report struct {
	Schema  string      `json:"schema"`
	Action  string      `json:"action"` // "setup" or "undo"
	DryRun  bool        `json:"dry_run"`
	Library string      `json:"library"`
	Binary  string      `json:"binary"`
	Agents  []Detection `json:"agents"`
	Targets []Status    `json:"targets"`
	Changes []*Change   `json:"changes"`
	// Applied reports that the changes were written.
	Applied bool `json:"applied"`
	// Record is the directory holding this run's backups and undo record.
	Record string `json:"record,omitempty"`
	// Problems are the files setup refused or could not write, and a
	// failed export; any makes the run fail.
	Problems []string      `json:"problems"`
	Export   *ExportResult `json:"export,omitempty"`
}

// Failed reports whether anything went wrong.
func (r *Report) Failed() bool { return len(r.Problems) > 0 }

// Change is one file or directory setup creates, modifies or removes.
type Change struct {
	Path string `json:"path"`
	// Action is "create", "modify" or "remove" for files, "mkdir" or
	// "rmdir" for directories.
	Action string   `json:"action"`
	Items  []string `json:"items,omitempty"`
	Diff   string   `json:"diff,omitempty"`
	// Done reports that the change was made.
	Done bool `json:"done"`

	real          string
	before, after []byte
	mode          fs.FileMode
	edits         []Edit
}

// ExportResult is the first export.
type ExportResult struct {
	Command string `json:"command"`
	// Run says whether setup runs it; Reason says why not.
	Run    bool   `json:"run"`
	Reason string `json:"reason,omitempty"`
	Ran    bool   `json:"ran"`
	Error  string `json:"error,omitempty"`
}

// Detection is one agent probed at its presence path.
type Detection struct {
	ID      string `json:"id"`
	Label   string `json:"label"`
	Path    string `json:"path"`
	Present bool   `json:"present"`
}

// Detect probes every agent except the -automations ones (setup wires the
// parent agent; its automations come with it), in the exporters' order.
func Detect(env *export.Env, exporters []export.Exporter) []Detection {
	var out []Detection
	for _, e := range exporters {
		info := e.Info()
		if strings.HasSuffix(info.ID, "-automations") {
			continue
		}
		p := e.Detect(env)
		out = append(out, Detection{ID: info.ID, Label: info.Label, Path: p.Path, Present: p.Present})
	}
	return out
}

// printTable prints rows in the reference's detection layout: two spaces,
// [OK] or " -  ", two spaces, the label in 22 columns, two spaces, the
// path.
func printTable(w io.Writer, title string, rows [][3]string) {
	fmt.Fprintln(w, title)
	for _, r := range rows {
		fmt.Fprintf(w, "  %s  %-22s  %s\n", r[0], r[1], r[2])
	}
	fmt.Fprintln(w)
}

func mark(present bool) string {
	if present {
		return "[OK]"
	}
	return " -  "
}

// LibraryPath returns the library directory, absolute: lib with "~"
// expanded and relative paths taken from env.Cwd, or ~/agent-library.
func LibraryPath(env *export.Env, lib string) string {
	if lib == "" {
		lib = env.HomePath("agent-library")
	}
	lib = env.ExpandHome(lib)
	if !filepath.IsAbs(lib) {
		lib = filepath.Join(env.Cwd, lib)
	}
	return filepath.Clean(lib)
}

// missingDirs returns the directories MkdirAll(path) would create,
// parents first.
func missingDirs(path string) ([]string, error) {
	var out []string
	for p := path; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err == nil {
			if !fi.IsDir() {
				return nil, fmt.Errorf("%s exists and is not a directory", p)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		out = append([]string{p}, out...)
		if filepath.Dir(p) == p {
			break
		}
	}
	return out, nil
}

// Run detects, plans, asks, writes, and runs the first export.
func Run(ctx context.Context, o Options) (*Report, error) {
	if o.Out == nil {
		o.Out = io.Discard
	}
	o.Library = LibraryPath(o.Env, o.Library)
	rep := &Report{Schema: "bourdon.setup/v1", Action: "setup", DryRun: o.DryRun, Library: o.Library, Binary: o.Binary, Changes: []*Change{}, Problems: []string{}}
	w := o.Out

	rep.Agents = Detect(o.Env, o.Exporters)
	var rows [][3]string
	found := false
	for _, d := range rep.Agents {
		rows = append(rows, [3]string{mark(d.Present), d.Label, d.Path})
		found = found || d.Present
	}
	printTable(w, "Detected agents on this machine:", rows)
	if !found {
		fmt.Fprintln(w, "No supported agent found in its usual place; setup can still prepare the library for later.")
		fmt.Fprintln(w)
	}

	statuses, pending := examine(o.Config, true)
	rep.Targets = statuses
	rows = nil
	seen := map[string]bool{}
	for _, st := range statuses {
		if st.Target.Item != "MCP server" || seen[st.Target.Client] {
			continue
		}
		seen[st.Target.Client] = true
		rows = append(rows, [3]string{mark(st.State != Absent), st.Target.Client, st.Target.Path})
	}
	printTable(w, "MCP clients on this machine:", rows)

	dirs, err := missingDirs(filepath.Join(o.Library, "agents"))
	if err != nil {
		return rep, fmt.Errorf("library %s: %w", o.Library, err)
	}
	for _, d := range dirs {
		rep.Changes = append(rep.Changes, &Change{Path: d, Action: "mkdir"})
	}
	for _, pf := range pending {
		c := &Change{Path: pf.file.path, real: pf.file.real, before: pf.file.content, after: pf.after, mode: pf.file.mode, Items: pf.items, edits: pf.edits, Action: "modify"}
		if c.before == nil {
			c.Action = "create"
		}
		c.Diff = unifiedDiff(c.Path, c.before, c.after)
		rep.Changes = append(rep.Changes, c)
	}

	switch {
	case len(dirs) == 0:
		fmt.Fprintf(w, "Library: %s (exists)\n", o.Library)
	case dirs[0] == filepath.Join(o.Library, "agents"):
		fmt.Fprintf(w, "Library: %s (exists; its agents/ directory is to be created)\n", o.Library)
	default:
		fmt.Fprintf(w, "Library: %s (to be created)\n", o.Library)
	}
	fmt.Fprintln(w)
	printStatuses(w, statuses, rep)

	fileChanges := 0
	for _, c := range rep.Changes {
		if c.Diff != "" {
			fileChanges++
		}
	}
	if fileChanges > 0 {
		fmt.Fprintln(w, "Changes:")
		fmt.Fprintln(w)
		for _, c := range rep.Changes {
			if c.Diff != "" {
				fmt.Fprintf(w, "%s (%s)\n%s\n", c.Path, strings.Join(c.Items, ", "), c.Diff)
			}
		}
	}

	rep.Export = &ExportResult{Command: o.ExportCommand()}
	decideExport(o, rep)

	if len(rep.Changes) == 0 {
		fmt.Fprintln(w, "Nothing to change: every installed client is wired and the library exists.")
	}
	if rep.Export.Run {
		fmt.Fprintf(w, "First export: %s\n", rep.Export.Command)
	} else {
		fmt.Fprintf(w, "First export: not run (%s)\n", rep.Export.Reason)
	}
	if o.DryRun {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "(dry run) Nothing was written and nothing was run; the above is what setup would do.")
		return rep, nil
	}
	if len(rep.Changes) == 0 && !rep.Export.Run {
		return rep, nil
	}

	question := "Apply these changes?"
	switch {
	case len(rep.Changes) == 0:
		question = "Run the first export?"
	case rep.Export.Run:
		question = "Apply these changes and run the first export?"
	}
	if err := confirm(o, question); err != nil {
		rep.Export.Run, rep.Export.Reason = false, "nothing was applied"
		return rep, err
	}

	if len(rep.Changes) > 0 {
		if err := apply(ctx, o, rep); err != nil {
			return rep, err
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "setup outcome:")
	for _, c := range rep.Changes {
		if !c.Done {
			continue
		}
		switch c.Action {
		case "mkdir":
			fmt.Fprintf(w, "  created directory %s\n", c.Path)
		case "create":
			fmt.Fprintf(w, "  created %s (%s)\n", c.Path, strings.Join(c.Items, ", "))
		default:
			fmt.Fprintf(w, "  changed %s (%s)\n", c.Path, strings.Join(c.Items, ", "))
		}
	}
	if rep.Record != "" {
		fmt.Fprintf(w, "  backups and undo record: %s (bourdon setup --undo takes this run back)\n", rep.Record)
	}
	runExport(ctx, o, rep)
	for _, p := range rep.Problems {
		fmt.Fprintf(w, "  problem: %s\n", p)
	}
	return rep, nil
}

// printStatuses says how each target stands, and records refusals.
func printStatuses(w io.Writer, statuses []Status, rep *Report) {
	fmt.Fprintln(w, "Clients and hooks:")
	for _, st := range statuses {
		t := st.Target
		var line string
		switch st.State {
		case Wired:
			line = "already wired"
			if st.Command != "" {
				line += " (" + st.Command + ")"
			}
		case Missing:
			line = "to be added to " + t.Path
		case Refused:
			line = fmt.Sprintf("refused: %s %s; nothing in it is changed (fix it and run setup again)", t.Path, st.Detail)
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s %s", t.Label(), t.Path, st.Detail))
		case Absent:
			line = "not installed (no " + t.Presence + ")"
		case NotSelected:
			line = "not selected"
			if t.Optional {
				line += " (opt-in: --prepare-turn-hook)"
			}
		}
		fmt.Fprintf(w, "  %-36s %s\n", t.Label()+":", line)
	}
	fmt.Fprintln(w)
}

// decideExport decides whether the first export runs: when setup changes
// something, or when the library has no manifest yet. A second run over a
// wired machine with an exported library spawns nothing.
func decideExport(o Options, rep *Report) {
	e := rep.Export
	switch {
	case o.NoExport:
		e.Reason = "--no-export"
	case o.Export == nil:
		e.Reason = "no way to run it"
	case len(rep.Changes) > 0:
		e.Run = true
	default:
		n, _ := filepath.Glob(filepath.Join(o.Library, "agents", "*.l5.yaml"))
		if len(n) == 0 {
			e.Run = true
		} else {
			e.Reason = fmt.Sprintf("the library already holds %d manifest(s); refresh it with %s", len(n), e.Command)
		}
	}
}

// confirm asks before writing, unless --yes.
func confirm(o Options, question string) error {
	if o.Yes {
		return nil
	}
	if o.Confirm == nil {
		return ErrNeedsConfirmation
	}
	ok, err := o.Confirm(question)
	if err != nil {
		return err
	}
	if !ok {
		return ErrDeclined
	}
	return nil
}

// runExport runs the first export, if decided.
func runExport(ctx context.Context, o Options, rep *Report) {
	e := rep.Export
	if !e.Run {
		fmt.Fprintf(o.Out, "  first export: not run (%s)\n", e.Reason)
		return
	}
	fmt.Fprintf(o.Out, "  first export: running %s\n", e.Command)
	e.Ran = true
	if err := o.Export(ctx, o.Library); err != nil {
		e.Error = err.Error()
		rep.Problems = append(rep.Problems, fmt.Sprintf("the first export failed (%v); run %s to see why", err, e.Command))
		fmt.Fprintf(o.Out, "  first export: failed (%v)\n", err)
		return
	}
	fmt.Fprintln(o.Out, "  first export: ok")
}

// apply writes the planned changes: a record with backups first, then the
// directories, then each file atomically. A file that changed since it
// was read is left alone and reported.
func apply(ctx context.Context, o Options, rep *Report) error {
	root := RecordsDir(o.Env)
	if err := os.MkdirAll(root, 0o700); err != nil {
		return fmt.Errorf("setup records: %w", err)
	}
	unlock, err := fsutil.Lock(ctx, filepath.Join(root, ".lock"))
	if err != nil {
		return err
	}
	defer unlock()
	dir, err := newRecordDir(o.Env)
	if err != nil {
		return fmt.Errorf("setup records: %w", err)
	}
	rec := &Record{Schema: recordSchema, CreatedAt: o.Env.Time().UTC().Format("2006-01-02T15:04:05Z"), Binary: o.Binary, Library: o.Library, Files: []RecordFile{}, dir: dir}
	rep.Record = dir

	// Check every file again and back it up before writing any.
	var writes []*Change
	for i, c := range rep.Changes {
		switch c.Action {
		case "mkdir":
			rec.DirsCreated = append(rec.DirsCreated, c.Path)
			continue
		}
		now, err := readConfig(c.Path)
		if err != nil || string(now.content) != string(c.before) || (now.content == nil) != (c.before == nil) {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s changed while setup was running; it was left alone (run setup again)", c.Path))
			continue
		}
		rf := RecordFile{Path: c.Path, Written: c.real, Existed: c.before != nil, Mode: c.mode, SHA256After: sum(c.after), Items: c.Items, Edits: c.edits}
		if c.before != nil {
			rf.SHA256Before = sum(c.before)
			rf.Backup = filepath.Join("files", fmt.Sprintf("%02d-%s", i+1, filepath.Base(c.Path)))
			if err := fsutil.WriteAtomic(filepath.Join(dir, rf.Backup), c.before, 0o600); err != nil {
				return fmt.Errorf("backing up %s: %w", c.Path, err)
			}
		}
		rec.Files = append(rec.Files, rf)
		writes = append(writes, c)
	}
	if err := rec.save(); err != nil {
		return fmt.Errorf("writing the setup record: %w", err)
	}

	for _, c := range rep.Changes {
		if c.Action == "mkdir" {
			if err := os.Mkdir(c.Path, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("creating %s: %w", c.Path, err)
			}
			c.Done = true
		}
	}
	for _, c := range writes {
		if err := writeFile(c.real, c.after, c.mode); err != nil {
			rep.Problems = append(rep.Problems, fmt.Sprintf("writing %s: %v", c.Path, err))
			continue
		}
		c.Done = true
	}
	rep.Applied = true
	return nil
}

// writeFile replaces path atomically with data and the given permissions.
func writeFile(path string, data []byte, mode fs.FileMode) error {
	if err := fsutil.WriteAtomic(path, data, mode); err != nil {
		return err
	}
	return os.Chmod(path, mode)
}
