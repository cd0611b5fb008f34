package doctor

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/l5"
	"github.com/getbourdon/bourdon-go/internal/library"
	"github.com/getbourdon/bourdon-go/internal/setup"
	"github.com/getbourdon/bourdon-go/internal/yaml11"
)

func libraryPath(env *export.Env, lib string) string { return setup.LibraryPath(env, lib) }

// checkLibrary checks that the library can be read and that every
// manifest in it parses and follows the L5 schema. It returns the agent
// ids that have a manifest.
func checkLibrary(r *Report, o Options) map[string]bool {
	ids := map[string]bool{}
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
	entries, err := os.ReadDir(agents)
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
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), library.ManifestSuffix) && !strings.HasPrefix(e.Name(), ".") && !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		r.add(Check{Check: "library", Status: Warn, File: lib, Message: lib + " holds no manifest yet", Fix: "bourdon export-all --library " + lib})
		return ids
	}
	r.add(Check{Check: "library", Status: OK, File: lib, Message: fmt.Sprintf("%s is readable and holds %d manifest(s)", lib, len(names))})

	valid := 0
	seen := map[string]string{}
	for _, name := range names {
		path := filepath.Join(agents, name)
		stem := strings.TrimSuffix(name, library.ManifestSuffix)
		id, bad := checkManifest(path, stem)
		if bad != nil {
			r.add(*bad)
			continue
		}
		if id != stem {
			r.add(Check{Check: "manifest", Subject: stem, Status: Warn, File: path, Line: 1,
				Message: fmt.Sprintf("%s names agent %q, not %q: readers use the agent id, so this file shadows or duplicates another", path, id, stem),
				Fix:     "rename the file to " + id + library.ManifestSuffix + " or correct agent.id"})
		}
		if other, dup := seen[id]; dup {
			r.add(Check{Check: "manifest", Subject: id, Status: Warn, File: path,
				Message: fmt.Sprintf("%s and %s both claim agent %q; only the later file is served", other, path, id),
				Fix:     "remove one of them"})
		}
		seen[id] = path
		ids[id] = true
		valid++
	}
	if valid > 0 {
		r.add(Check{Check: "manifest", Status: OK, Message: fmt.Sprintf("%d manifest(s) valid against the L5 schema", valid)})
	}
	return ids
}

// maxViolations is how many schema violations one check line lists.
const maxViolations = 3

// checkManifest reads and validates one manifest. It returns the agent id
// it names, or a failed check naming the file and the line.
func checkManifest(path, stem string) (string, *Check) {
	fail := func(line int, msg string) *Check {
		where := path
		if line > 0 {
			where = fmt.Sprintf("%s:%d", path, line)
		}
		return &Check{Check: "manifest", Subject: stem, Status: Fail, File: path, Line: line,
			Message: where + ": " + msg,
			Fix:     "correct the file, or export the agent again with bourdon export-all (a hand-written manifest must be fixed by hand)"}
	}
	data, err := readCapped(path, library.MaxManifestBytes)
	if err != nil {
		return "", fail(0, err.Error())
	}
	doc, err := yaml11.Decode(data)
	if err != nil {
		var se *yaml11.SyntaxError
		if errors.As(err, &se) {
			return "", fail(se.Line, "not valid YAML: "+se.Msg)
		}
		return "", fail(0, "not valid YAML: "+err.Error())
	}
	violations := l5.Validate(doc)
	if len(violations) > 0 {
		var node yaml.Node
		_ = yaml.Unmarshal(data, &node)
		var parts []string
		for _, v := range violations[:min(len(violations), maxViolations)] {
			parts = append(parts, v.String())
		}
		msg := strings.Join(parts, "; ")
		if n := len(violations) - maxViolations; n > 0 {
			msg += fmt.Sprintf("; and %d more (bourdon validate %s lists them all)", n, path)
		}
		return "", fail(lineOf(&node, violations[0].InstancePath), msg)
	}
	m, ok := l5.FromValue(doc, stem)
	if !ok {
		return "", fail(1, "not a YAML mapping")
	}
	return m.Agent.ID, nil
}

// lineOf returns the line of the value at a JSON pointer in a YAML
// document, or of its closest existing parent.
func lineOf(doc *yaml.Node, pointer string) int {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind == 0 {
		return 0
	}
	line := n.Line
	if pointer == "" {
		return line
	}
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == tok {
					next = n.Content[i+1]
					line = n.Content[i].Line
				}
			}
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n.Content) {
				next = n.Content[i]
				line = next.Line
			}
		}
		if next == nil {
			return line
		}
		n = next
	}
	return line
}

func readCapped(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than %d MiB", limit>>20)
	}
	return data, nil
}
