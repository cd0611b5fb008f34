package docs

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// Corpus is a loaded documentation corpus: the graph of every node that
// could be read, and every problem the validation gates found.
type Corpus struct {
	Graph    *graph.Graph
	Problems []Problem
	// Files maps the absolute path of every file Load read (YAML, markdown,
	// includes, snippet sources, configuration) to its modification time,
	// so a watcher can tell when to load again.
	Files map[string]time.Time
}

// Load reads the corpus roots in order (an overlay is a later root) into
// one graph and runs the validation gates. A corpus with problems still
// loads: a node whose uid cannot be read is skipped, any other node is
// kept with what could be read, and a reference that does not resolve
// adds no edge. Only a root that cannot be opened or walked is an error.
func Load(dirs ...string) (*Corpus, error) {
	if len(dirs) == 0 {
		return nil, errors.New("docs: no corpus root")
	}
	l := &loader{files: map[string]time.Time{}, cache: map[string]cached{}}
	defer l.close()
	var prev *config
	for _, dir := range dirs {
		rt, err := openRoot(dir)
		if err != nil {
			return nil, err
		}
		l.roots = append(l.roots, rt)
		rt.cfg = l.readConfig(rt, prev)
		prev = rt.cfg
		if err := l.walk(rt); err != nil {
			return nil, fmt.Errorf("docs: corpus root %s: %w", dir, err)
		}
	}
	g := l.link()
	return &Corpus{Graph: g, Problems: sortProblems(l.problems, dirs), Files: l.files}, nil
}

// loader holds the state of one Load.
type loader struct {
	roots    []*root
	problems []Problem
	files    map[string]time.Time
	cache    map[string]cached
	records  []*record
	// relations are edges an overlay adds between nodes it does not define.
	relations []ref
	monikers  []graph.Moniker
	// readBytes counts the bytes of the files read; included those that
	// includes added, against includeBudget.
	readBytes, included int
	overBudget          bool
}

type cached struct {
	f   textFile
	err error
}

func (l *loader) close() {
	for _, rt := range l.roots {
		rt.fs.Close()
	}
}

// place is where something is written.
type place struct {
	root *root
	file string
	line int
}

// bad records a problem.
func (l *loader) bad(at place, rule, format string, args ...any) {
	l.problems = append(l.problems, Problem{Root: at.root.dir, File: at.file, Line: max(at.line, 1), Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// reporter returns a problem reporter for one file.
func (l *loader) reporter(rt *root, file string) func(line int, rule, format string, args ...any) {
	return func(line int, rule, format string, args ...any) { l.bad(place{rt, file, line}, rule, format, args...) }
}

// read reads a file of a root once, remembering it in Files.
func (l *loader) read(rt *root, rel string) (textFile, error) {
	key := rt.abs + "\x00" + rel
	if c, ok := l.cache[key]; ok {
		return c.f, c.err
	}
	f, err := rt.read(rel)
	l.cache[key] = cached{f, err}
	if err == nil {
		l.files[filepath.Join(rt.abs, filepath.FromSlash(rel))] = f.mod
		l.readBytes += len(f.text)
	}
	return f, err
}

// readConfig reads the root's docs.config.json; a root without one
// inherits the configuration of the root before it.
func (l *loader) readConfig(rt *root, prev *config) *config {
	f, err := l.read(rt, configFile)
	switch {
	case errors.Is(err, fs.ErrNotExist) && prev != nil:
		return prev
	case errors.Is(err, fs.ErrNotExist):
		return &config{modes: defaultModes}
	case err != nil:
		l.bad(place{rt, configFile, 1}, RuleSchema, "cannot read: %v", err)
		return &config{modes: defaultModes}
	}
	cfg, monikers := parseConfig(f.text, l.reporter(rt, configFile))
	for _, m := range monikers {
		if _, dup := findMoniker(l.monikers, m.Name); dup {
			l.bad(place{rt, configFile, lineOf(f.text, `"`+m.Name+`"`)}, RuleSchema, "moniker %s is already defined", m.Name)
			continue
		}
		l.monikers = append(l.monikers, m)
	}
	return cfg
}

// skipDirs are directories whose files are read only by reference.
var skipDirs = map[string]bool{"snippets": true, "media": true, "node_modules": true}

// walk loads every corpus file of a root, in lexical order: YAML files
// whose first line is a YamlMime discriminator, and markdown under docs/.
// Hidden files and directories and symbolic links are skipped.
func (l *loader) walk(rt *root) error {
	return fs.WalkDir(rt.fs.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			l.bad(place{rt, p, 1}, RuleSchema, "cannot read: %v", unwrapPathError(err))
			return nil
		}
		name := d.Name()
		if p != "." && (strings.HasPrefix(name, ".") || (d.IsDir() && skipDirs[name])) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || inIncludes(p) {
			return nil
		}
		switch ext := path.Ext(p); {
		case ext == ".yml" || ext == ".yaml":
			l.loadYAML(rt, p)
		case ext == ".md" && strings.HasPrefix(p, "docs/"):
			l.loadMarkdown(rt, p)
		}
		return nil
	})
}

func inIncludes(p string) bool {
	return strings.HasPrefix(p, "includes/") || strings.Contains(p, "/includes/")
}

// readWalked reads a walked file, reporting a failure as a schema problem.
func (l *loader) readWalked(rt *root, file string) (textFile, bool) {
	f, err := l.read(rt, file)
	if err != nil {
		l.bad(place{rt, file, 1}, RuleSchema, "cannot read: %v", err)
		return textFile{}, false
	}
	return f, true
}
