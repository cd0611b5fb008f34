package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/install/setup"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

func libraryPath(env *export.Env, lib string) string { return setup.LibraryPath(env, lib) }

// checkLibrary checks that the library can be read, reports every
// manifest the library refuses to serve (internal/memory/library decides: a file
// that cannot be read or parsed, a link out of the library, a manifest
// whose agent.id is not its file's name) and every served one that breaks
// the L5 schema, naming the file and the line. It returns the agents the
// library serves, by id.
func checkLibrary(r *Report, o Options) map[string]*library.Agent {
	ids := map[string]*library.Agent{}
	lib := o.Library
	fi, err := os.Stat(lib)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.add(Check{Check: "library", Status: Fail, File: lib,
			Message: lib + " does not exist",
			Fix:     "bourdon setup --library " + lib + " (it creates the library and runs the first export)"})
		return ids
	case err != nil:
		r.add(Check{Check: "library", Status: Fail, File: lib, Message: err.Error(), Fix: "make " + lib + " readable"})
		return ids
	case !fi.IsDir():
		r.add(Check{Check: "library", Status: Fail, File: lib, Message: lib + " is not a directory", Fix: "move it away, or pass --library with the library's directory"})
		return ids
	}
	agents := filepath.Join(lib, "agents")
	_, err = os.ReadDir(agents)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.add(Check{Check: "library", Status: Warn, File: lib,
			Message: lib + " has no agents/ directory, so it serves nothing",
			Fix:     "bourdon export-all --library " + lib})
		return ids
	case err != nil:
		r.add(Check{Check: "library", Status: Fail, File: agents, Message: "cannot list " + agents + ": " + err.Error(), Fix: "make " + agents + " readable"})
		return ids
	}
	lb, err := library.Open(lib, nil)
	if err != nil {
		r.add(Check{Check: "library", Status: Fail, File: lib, Message: err.Error(), Fix: "make " + lib + " readable"})
		return ids
	}
	defer lb.Close()
	tree := fsutil.NewTree(lib)
	return checkManifests(r, o, lb, lib+" is readable and holds %d manifest(s)", func(path string) bool { return fsutil.IsOutside(tree.Check(path)) })
}

// checkManifests reports the manifests of lb (a directory's or a store's):
// a line saying how many it holds (held, with %d for the count), every
// manifest it refuses to serve (outside says whether a file is a link out
// of the library) and every served one that breaks the L5 schema. It
// returns the agents lb serves, by id.
func checkManifests(r *Report, o Options, lb *library.Library, held string, outside func(path string) bool) map[string]*library.Agent {
	ids := map[string]*library.Agent{}
	snap := lb.Snapshot()
	total := snap.Len() + len(snap.Broken())
	if total == 0 {
		r.add(Check{Check: "library", Status: Warn, File: o.file(), Message: o.where() + " holds no manifest yet", Fix: o.exportFix()})
		return ids
	}
	r.add(Check{Check: "library", Status: OK, File: o.file(), Message: fmt.Sprintf(held, total)})

	// The manifests the library refuses, then the schema of those it
	// serves, in file order.
	type line struct {
		file  string
		check Check
	}
	var lines []line
	for _, w := range snap.Broken() {
		lines = append(lines, line{w.File, refused(w, outside)})
	}
	valid := 0
	for _, id := range snap.IDs() {
		a, _ := snap.Agent(id)
		ids[id] = a
		if bad := checkSchema(lb, a); bad != nil {
			lines = append(lines, line{a.File, *bad})
			continue
		}
		valid++
	}
	slices.SortStableFunc(lines, func(a, b line) int { return strings.Compare(a.file, b.file) })
	for _, l := range lines {
		r.add(l.check)
	}
	if valid > 0 {
		r.add(Check{Check: "manifest", Status: OK, Message: fmt.Sprintf("%d manifest(s) valid against the L5 schema", valid)})
	}
	return ids
}

// refused is the failed check of a manifest the library does not serve:
// its warning, naming the file and line, and the fix for its kind.
func refused(w library.Warning, outside func(path string) bool) Check {
	c := Check{Check: "manifest", Subject: strings.TrimSuffix(filepath.Base(w.File), library.ManifestSuffix), Status: Fail,
		File: w.File, Line: w.Line, Related: w.Related, Message: w.String(), Fix: rewriteFix}
	switch {
	case w.Related != "" && exists(w.Related):
		c.Fix = fmt.Sprintf("remove it (the agent's manifest is %s) or correct its agent.id", w.Related)
	case w.Related != "":
		c.Fix = fmt.Sprintf("rename it to %s or correct its agent.id", filepath.Base(w.Related))
	case outside(w.File):
		c.Fix = "replace the link with the file itself: manifests are read only from inside the library"
	}
	return c
}

const rewriteFix = "correct the file, or export the agent again with bourdon export-all (a hand-written manifest must be fixed by hand)"

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// maxViolations is how many schema violations one check line lists.
const maxViolations = 3

// checkSchema checks a served manifest against the L5 schema, reading its
// file as the library does. It returns a failed check naming the file
// and the line of the first violation, or nil.
func checkSchema(lb *library.Library, a *library.Agent) *Check {
	fail := func(line int, msg string) *Check {
		where := a.File
		if line > 0 {
			where = fmt.Sprintf("%s:%d", a.File, line)
		}
		return &Check{Check: "manifest", Subject: a.ID, Status: Fail, File: a.File, Line: line, Message: where + ": " + msg, Fix: rewriteFix}
	}
	data, err := lb.Source(a)
	if err != nil {
		return fail(0, err.Error())
	}
	doc, err := yaml11.Decode(data)
	if err != nil { // changed since the library read it
		var se *yaml11.SyntaxError
		if errors.As(err, &se) {
			return fail(se.Line, "not valid YAML: "+se.Msg)
		}
		return fail(0, "not valid YAML: "+err.Error())
	}
	violations := l5.Validate(doc)
	if len(violations) == 0 {
		return nil
	}
	var parts []string
	for _, v := range violations[:min(len(violations), maxViolations)] {
		parts = append(parts, v.String())
	}
	msg := strings.Join(parts, "; ")
	if n := len(violations) - maxViolations; n > 0 {
		msg += fmt.Sprintf("; and %d more (bourdon validate %s lists them all)", n, a.File)
	}
	return fail(yaml11.Line(data, violations[0].InstancePath), msg)
}
