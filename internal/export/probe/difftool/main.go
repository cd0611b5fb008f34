// Command difftool is a differential test of the exporters against the
// Python reference: it materialises seeded, randomly varied native stores
// into temporary HOMEs, runs this tree's `bourdon export-all` and the
// reference's `python -m cli.main export-all` over each, and compares the
// manifests agent by agent in a canonical form (ignore.go lists what is left
// out and the ⚠ item of docs/exporters.md each rule comes from).
//
// It needs a checkout of the reference and a Python with PyYAML, so it is a
// program, not a test: `go test ./...` never runs it. See README.md.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

func main() {
	ref := flag.String("ref", "", "checkout of the Python reference (getbourdon/bourdon)")
	python := flag.String("python", "python3", "a Python with PyYAML")
	n := flag.Int("n", 40, "number of HOMEs to generate")
	seed := flag.Int64("seed", 1, "first seed; HOME i uses seed+i")
	keep := flag.String("keep", "", "keep the HOMEs and libraries under this directory")
	examples := flag.Int("examples", 3, "examples printed per kind of difference")
	prebuilt := flag.String("bin", "", "a bourdon binary to compare (default: build cmd/bourdon from this tree)")
	flag.Parse()
	if *ref == "" {
		fmt.Fprintln(os.Stderr, "difftool: -ref DIR is required")
		os.Exit(2)
	}
	bin, cleanup := *prebuilt, func() {}
	if bin == "" {
		var err error
		if bin, cleanup, err = build(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	defer cleanup()

	var diffs []diff
	manifests := 0
	for i := 0; i < *n; i++ {
		s := *seed + int64(i)
		dir := filepath.Join(*keep, fmt.Sprint("store-", s))
		if *keep == "" {
			dir, _ = os.MkdirTemp("", "bourdon-difftool-")
		} else {
			os.RemoveAll(dir)
		}
		d, m, err := runOne(bin, *ref, *python, dir, s)
		if err != nil {
			fmt.Fprintf(os.Stderr, "seed %d: %v\n", s, err)
			os.Exit(1)
		}
		diffs = append(diffs, d...)
		manifests += m
		if *keep == "" {
			os.RemoveAll(dir)
		}
	}
	report(os.Stdout, *n, manifests, diffs, *examples)
}

// build compiles cmd/bourdon from this tree.
func build() (string, func(), error) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "..", "..")
	dir, err := os.MkdirTemp("", "bourdon-difftool-bin-")
	if err != nil {
		return "", nil, err
	}
	bin := filepath.Join(dir, "bourdon")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/bourdon")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, func() { os.RemoveAll(dir) }, nil
}

// runOne generates one HOME, exports it both ways and compares.
func runOne(bin, ref, python, dir string, seed int64) ([]diff, int, error) {
	home := filepath.Join(dir, "home")
	work := filepath.Join(dir, "work") // no ./claude-brain here
	ours := filepath.Join(dir, "ours")
	theirs := filepath.Join(dir, "reference")
	for _, d := range []string{home, work, ours, theirs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, 0, err
		}
	}
	if err := generate(seed, home); err != nil {
		return nil, 0, fmt.Errorf("generate: %v", err)
	}
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TZ=UTC", "LANG=C.UTF-8",
		"OPENCLAW_URL=http://127.0.0.1:1", "PYTHONPATH=" + ref, "PYTHONDONTWRITEBYTECODE=1"}
	run := func(name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = work, env
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if _, exit := err.(*exec.ExitError); exit {
			err = nil // export-all exits 1 when an agent fails; compared below
		}
		return out.String() + errb.String(), err
	}
	if _, err := run(bin, "export-all", "--library", ours, "--json"); err != nil {
		return nil, 0, fmt.Errorf("bourdon: %v", err)
	}
	report := filepath.Join(dir, "reference-report.yaml")
	if out, err := run(python, "-m", "cli.main", "export-all", "--library", theirs, "--report-out", report); err != nil {
		return nil, 0, fmt.Errorf("reference: %v\n%s", err, out)
	}
	refStatus := map[string]string{}
	var rep struct {
		Exports []struct{ Agent, Status, Reason string }
	}
	if b, err := os.ReadFile(report); err == nil {
		yaml.Unmarshal(b, &rep)
	}
	for _, e := range rep.Exports {
		refStatus[e.Agent] = e.Status + " " + e.Reason
	}
	a, err := readLibrary(ours)
	if err != nil {
		return nil, 0, err
	}
	b, err := readLibrary(theirs)
	if err != nil {
		return nil, 0, err
	}
	var out []diff
	agents := map[string]bool{}
	for k := range a {
		agents[k] = true
	}
	for k := range b {
		if ourAgents[k] {
			agents[k] = true
		}
	}
	var ids []string
	for k := range agents {
		ids = append(ids, k)
	}
	sort.Strings(ids)
	compared := 0
	for _, id := range ids {
		c := &cmp{agent: id, seed: seed}
		compareManifests(c, a[id], b[id], refStatus[id])
		out = append(out, c.out...)
		if a[id] != nil && b[id] != nil {
			compared++
		}
	}
	return out, compared, nil
}

// ourAgents are the reference's agent ids this tree exports (the reference
// also has openclaw and llama_cpp, which are not native stores).
var ourAgents = map[string]bool{
	"cascade": true, "claude-code": true, "claude-code-automations": true, "claude-desktop-code": true,
	"claude-desktop-cowork": true, "codex": true, "codex-automations": true, "copilot": true,
	"copilot-automations": true, "copilot-cli": true, "copilot-vscode": true, "cursor": true,
	"cursor-automations": true,
}

func readLibrary(lib string) (map[string]map[string]any, error) {
	files, _ := filepath.Glob(filepath.Join(lib, "agents", "*.l5.yaml"))
	out := map[string]map[string]any{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := yaml.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".l5.yaml")] = m
	}
	return out, nil
}

func report(w *os.File, stores, manifests int, diffs []diff, examples int) {
	byKind := map[string][]diff{}
	for _, d := range diffs {
		byKind[d.kind] = append(byKind[d.kind], d)
	}
	var kinds []string
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	fmt.Fprintf(w, "%d stores (HOMEs), %d manifests compared, %d differences in %d kinds (%s)\n\n",
		stores, manifests, len(diffs), len(kinds), time.Now().UTC().Format(time.RFC3339))
	var rules []string
	for r := range ignored {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	fmt.Fprintf(w, "left out by the ignore rules (count of fields, rows or manifests):\n")
	for _, r := range rules {
		fmt.Fprintf(w, "  %6d  %s\n", ignored[r], r)
	}
	fmt.Fprintln(w)
	for _, k := range kinds {
		l := byKind[k]
		seeds := map[int64]bool{}
		for _, d := range l {
			seeds[d.seed] = true
		}
		fmt.Fprintf(w, "== %s: %d (in %d stores)\n", k, len(l), len(seeds))
		for i, d := range l {
			if i == examples {
				break
			}
			fmt.Fprintf(w, "   seed %d %s\n      ours:      %s\n      reference: %s\n", d.seed, d.where, d.ours, d.ref)
		}
	}
}
