// Package probe holds a blind probe of the exporters: native stores written
// from the behaviour spec alone (testdata/ORIGIN.md), exported through the
// public command line (`bourdon export-all`), and compared with what the spec
// says the manifests should hold (expect_test.go). Every mismatch is listed
// in a table; the ones we know about are in known_test.go, each with its
// reason, so the test passes today, fails when a new mismatch appears, and
// fails when a known one disappears (so the list stays honest).
package probe

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
	_ "modernc.org/sqlite"
)

// fixedMtime is given to every fixture file, so that anything an exporter
// derives from a file's modification time is reproducible.
var fixedMtime = time.Date(2026, 11, 15, 12, 0, 0, 0, time.UTC)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	binDir    string
)

// bourdon builds cmd/bourdon once per test run.
func bourdon(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		root := filepath.Join(filepath.Dir(file), "..", "..", "..")
		binDir, buildErr = os.MkdirTemp("", "bourdon-probe-bin-")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "bourdon")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/bourdon")
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build ./cmd/bourdon: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// materialise copies testdata/<scenario>/home into home, turning every
// X.probe.sql into the SQLite database X.
func materialise(t *testing.T, scenario, home string) {
	t.Helper()
	src := filepath.Join("testdata", scenario, "home")
	if _, err := os.Stat(src); os.IsNotExist(err) {
		return
	}
	var dbs []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(home, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if strings.HasSuffix(p, ".probe.sql") {
			dbs = append(dbs, rel)
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range dbs {
		script, err := os.ReadFile(filepath.Join(src, rel))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(home, strings.TrimSuffix(rel, ".probe.sql"))
		db, err := sql.Open("sqlite", dst)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ReplaceAll(string(script), "{{HOME}}", home)
		if _, err := db.Exec(text); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// Directories last, deepest first, so their times are not bumped again.
	var paths []string
	filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Sort(sort.Reverse(sort.StringSlice(paths)))
	for _, p := range paths {
		os.Chtimes(p, fixedMtime, fixedMtime)
	}
}

// runResult is what one export-all run left behind.
type runResult struct {
	home, library string
	rows          map[string]exportRow      // by agent id, from --json
	manifests     map[string]map[string]any // agents/<id>.l5.yaml, parsed
	raw           map[string]string         // the same, as text
	stdout        string
	stderr        string
	exit          int
}

type exportRow struct {
	Agent    string   `json:"agent"`
	Status   string   `json:"status"`
	Path     string   `json:"path"`
	Reason   string   `json:"reason"`
	Entities int      `json:"entities"`
	Sessions int      `json:"sessions"`
	Warnings []string `json:"warnings"`
}

// runScenario exports one scenario's stores with a clean environment: HOME
// and every variable the spec names are set or cleared here.
func runScenario(t *testing.T, sc scenario) *runResult {
	t.Helper()
	bin := bourdon(t)
	tmp := t.TempDir()
	if keep := os.Getenv("PROBE_KEEP"); keep != "" {
		// keep the materialised stores (to run another exporter over them)
		tmp = filepath.Join(keep, sc.Name)
		os.RemoveAll(tmp)
	}
	home := filepath.Join(tmp, "home")
	lib := filepath.Join(tmp, "library")
	work := filepath.Join(tmp, "work") // the working directory: no ./claude-brain here
	for _, d := range []string{home, lib, work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	materialise(t, sc.Name, home)
	env := []string{
		"HOME=" + home,
		"PATH=" + os.Getenv("PATH"),
		"TZ=UTC",
		"LANG=C.UTF-8",
		"OPENCLAW_URL=http://127.0.0.1:1",
	}
	for k, v := range sc.Env {
		env = append(env, k+"="+strings.ReplaceAll(v, "{{HOME}}", home))
	}
	args := append([]string{"export-all", "--library", lib, "--json"}, sc.Args...)
	cmd := exec.Command(bin, args...)
	cmd.Dir = work
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := &runResult{home: home, library: lib, stdout: stdout.String(), stderr: stderr.String(),
		rows: map[string]exportRow{}, manifests: map[string]map[string]any{}, raw: map[string]string{}}
	if ee, ok := err.(*exec.ExitError); ok {
		res.exit = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running bourdon: %v", err)
	}
	var doc struct {
		Exports []exportRow `json:"exports"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("export-all --json output is not JSON: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	for _, r := range doc.Exports {
		res.rows[r.Agent] = r
	}
	files, _ := filepath.Glob(filepath.Join(lib, "agents", "*.l5.yaml"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := yaml.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		id := strings.TrimSuffix(filepath.Base(f), ".l5.yaml")
		res.manifests[id] = m
		res.raw[id] = string(b)
	}
	return res
}

// ---- comparison ----

type mismatch struct {
	key      string // stable identity: "<scenario>/<agent>: <what>"
	expected string
	got      string
}

type comparer struct {
	scenario string
	agent    string
	home     string
	out      []mismatch
}

func (c *comparer) sub(s string) string { return strings.ReplaceAll(s, "{{HOME}}", c.home) }

func (c *comparer) add(what, expected, got string) {
	c.out = append(c.out, mismatch{key: fmt.Sprintf("%s/%s: %s", c.scenario, c.agent, what), expected: expected, got: got})
}

func skips(list string, field string) bool {
	for _, f := range strings.Split(list, ",") {
		if strings.TrimSpace(f) == field {
			return true
		}
	}
	return false
}

func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case time.Time:
		return x.Format("2006-01-02")
	default:
		return fmt.Sprint(x)
	}
}

func strs(v any) []string {
	l, ok := v.([]any)
	if !ok {
		if v == nil {
			return nil
		}
		return []string{"<not a list: " + str(v) + ">"}
	}
	out := make([]string, 0, len(l))
	for _, x := range l {
		out = append(out, str(x))
	}
	return out
}

func show(l []string) string {
	if l == nil {
		return "(absent)"
	}
	return "[" + strings.Join(l, ", ") + "]"
}

func showS(s string) string {
	if s == "" {
		return "(absent)"
	}
	if len([]rune(s)) > 90 {
		r := []rune(s)
		return fmt.Sprintf("%q…(%d chars)", string(r[:80]), len(r))
	}
	return fmt.Sprintf("%q", s)
}

func (c *comparer) field(what, skip, name string, expected, got string) {
	if skips(skip, name) {
		return
	}
	expected = c.sub(expected)
	if expected != got {
		c.add(what+"."+name, showS(expected), showS(got))
	}
}

func (c *comparer) list(what, skip, name string, expected, got []string) {
	if skips(skip, name) {
		return
	}
	if len(expected) == 0 && len(got) == 0 {
		return
	}
	if expected != nil {
		e := make([]string, len(expected))
		for i, x := range expected {
			e[i] = c.sub(x)
		}
		expected = e
	}
	if !slices.Equal(expected, got) {
		c.add(what+"."+name, show(expected), show(got))
	}
}

func rowsOf(m map[string]any, key string) []map[string]any {
	l, _ := m[key].([]any)
	var out []map[string]any
	for _, x := range l {
		if r, ok := x.(map[string]any); ok {
			out = append(out, r)
		}
	}
	return out
}

func compareAgent(c *comparer, res *runResult, a agentExp) {
	row, reported := res.rows[a.Agent]
	status := row.Status
	if !reported {
		status = "(not reported)"
	}
	m, written := res.manifests[a.Agent]
	gotKind := status
	if status == "ok" || status == "no_op" {
		gotKind = "ok"
		if written && len(rowsOf(m, "known_entities")) == 0 && len(rowsOf(m, "recent_sessions")) == 0 {
			gotKind = "empty"
		}
	}
	if gotKind != a.Status {
		c.add("status", a.Status, gotKind+reasonOf(row))
		return
	}
	for _, w := range a.Warn {
		found := false
		for _, g := range row.Warnings {
			if strings.Contains(g, w) {
				found = true
			}
		}
		if !found {
			c.add("warning naming "+fmt.Sprintf("%q", w), "a warning", fmt.Sprintf("%d warnings: %s", len(row.Warnings), strings.Join(row.Warnings, " | ")))
		}
	}
	if a.Status != "ok" && a.Status != "empty" {
		return
	}
	if !written {
		c.add("manifest", "written", "no file")
		return
	}
	raw := res.raw[a.Agent]
	for _, s := range a.Absent {
		if strings.Contains(raw, s) {
			c.add(fmt.Sprintf("text %q", s), "absent from the manifest", "present")
		}
	}
	if a.Status == "empty" {
		return
	}
	// header
	agent, _ := m["agent"].(map[string]any)
	host := hostname()
	inst := strings.ReplaceAll(a.Instance, "HOST", host)
	c.field("agent", a.Skip, "instance", inst, str(agent["instance"]))
	c.field("agent", a.Skip, "spec_version_compat", a.Compat, str(agent["spec_version_compat"]))
	c.field("agent", a.Skip, "type", a.Type, str(agent["type"]))
	c.field("manifest", a.Skip, "spec_version", "0.1", str(m["spec_version"]))
	c.list("manifest", a.Skip, "capabilities", a.Caps, strs(m["capabilities"]))
	if !skips(a.Skip, "visibility_policy") {
		pol, has := m["visibility_policy"].(map[string]any)
		switch {
		case a.Policy == nil && has:
			c.add("manifest.visibility_policy", "(absent)", fmt.Sprint(pol))
		case a.Policy != nil && !has:
			c.add("manifest.visibility_policy", "present", "(absent)")
		case a.Policy != nil:
			c.field("visibility_policy", "", "default", a.Policy.Default, str(pol["default"]))
			c.list("visibility_policy", "", "private_tags", a.Policy.Private, strs(pol["private_tags"]))
			if a.Policy.Team != nil {
				c.list("visibility_policy", "", "team_tags", a.Policy.Team, strs(pol["team_tags"]))
			}
		}
	}
	// entities
	got := rowsOf(m, "known_entities")
	byName := map[string][]map[string]any{}
	var gotOrder []string
	for _, e := range got {
		k := strings.ToLower(strings.TrimSpace(str(e["name"])))
		byName[k] = append(byName[k], e)
		gotOrder = append(gotOrder, str(e["name"]))
	}
	expected := map[string]bool{}
	var expOrder []string
	wrongVis := map[string]int{}
	for _, e := range a.Entities {
		k := strings.ToLower(strings.TrimSpace(e.Name))
		expected[k] = true
		expOrder = append(expOrder, e.Name)
		cands := byName[k]
		if e.Absent {
			if len(cands) > 0 {
				c.add(fmt.Sprintf("entity %q", e.Name), "absent", "present")
			}
			continue
		}
		if len(cands) == 0 {
			c.add(fmt.Sprintf("entity %q", e.Name), "present", "missing")
			continue
		}
		want := e.Count
		if want == 0 {
			want = 1
		}
		if len(cands) != want {
			c.add(fmt.Sprintf("entity %q count", e.Name), fmt.Sprint(want), fmt.Sprint(len(cands)))
		}
		g := cands[0]
		what := fmt.Sprintf("entity %q", e.Name)
		c.field(what, e.Skip, "name", e.Name, str(g["name"]))
		c.field(what, e.Skip, "type", e.Type, str(g["type"]))
		c.field(what, e.Skip, "summary", e.Summary, str(g["summary"]))
		c.field(what, e.Skip, "last_touched", e.LastTouched, str(g["last_touched"]))
		c.field(what, e.Skip, "valid_to", e.ValidTo, str(g["valid_to"]))
		c.list(what, e.Skip, "tags", e.Tags, strs(g["tags"]))
		c.list(what, e.Skip, "aliases", e.Aliases, strs(g["aliases"]))
		if e.Vis != "" {
			c.field(what, e.Skip, "visibility", e.Vis, str(g["visibility"]))
		} else if v := str(g["visibility"]); v != a.RowVis {
			wrongVis[v]++
		}
	}
	if !a.EntitiesOpen {
		for _, e := range got {
			k := strings.ToLower(strings.TrimSpace(str(e["name"])))
			if !expected[k] {
				c.add(fmt.Sprintf("entity %q", str(e["name"])), "absent", "present (type "+str(e["type"])+", summary "+showS(str(e["summary"]))+")")
				expected[k] = true
			}
		}
	}
	if a.EntitiesOrdered {
		var present []string
		for _, n := range gotOrder {
			if expected[strings.ToLower(strings.TrimSpace(n))] {
				present = append(present, n)
			}
		}
		var want []string
		for _, e := range a.Entities {
			if !e.Absent && len(byName[strings.ToLower(strings.TrimSpace(e.Name))]) > 0 {
				want = append(want, e.Name)
			}
		}
		if !slices.Equal(dedupe(want), dedupe(present)) {
			c.add("entity order", show(dedupe(want)), show(dedupe(present)))
		}
	}
	// sessions
	gs := rowsOf(m, "recent_sessions")
	used := make([]bool, len(gs))
	var matchedIdx []int
	for _, s := range a.Sessions {
		what := fmt.Sprintf("session %q", s.Key)
		idx := -1
		for i, g := range gs {
			if used[i] {
				continue
			}
			acts, files := strs(g["key_actions"]), strs(g["files_touched"])
			hit := len(files) > 0 && files[0] == s.Key
			for _, a := range acts {
				hit = hit || a == s.Key
			}
			if hit {
				idx = i
				break
			}
		}
		if s.Absent {
			if idx >= 0 {
				c.add(what, "absent", "present (date "+str(gs[idx]["date"])+")")
				used[idx] = true
			}
			continue
		}
		if idx < 0 {
			c.add(what, "present", "missing")
			continue
		}
		used[idx] = true
		matchedIdx = append(matchedIdx, idx)
		g := gs[idx]
		c.field(what, s.Skip, "date", s.Date, str(g["date"]))
		c.field(what, s.Skip, "cwd", s.Cwd, str(g["cwd"]))
		c.list(what, s.Skip, "key_actions", s.Actions, strs(g["key_actions"]))
		c.list(what, s.Skip, "project_focus", s.Focus, strs(g["project_focus"]))
		c.list(what, s.Skip, "files_touched", s.Files, strs(g["files_touched"]))
		if v := str(g["visibility"]); v != a.RowVis {
			wrongVis[v]++
		}
	}
	if !a.SessionsOpen {
		for i, g := range gs {
			if !used[i] {
				acts := strs(g["key_actions"])
				first := ""
				if len(acts) > 0 {
					first = acts[0]
				}
				c.add(fmt.Sprintf("session %q", first), "absent", "present (date "+str(g["date"])+")")
			}
		}
	}
	if !sort.IntsAreSorted(matchedIdx) {
		c.add("session order", "as listed", fmt.Sprint("manifest positions ", matchedIdx))
	}
	if len(wrongVis) > 0 {
		var parts []string
		for v, n := range wrongVis {
			if v == "" {
				v = "(none)"
			}
			parts = append(parts, fmt.Sprintf("%d rows %s", n, v))
		}
		sort.Strings(parts)
		exp := a.RowVis
		if exp == "" {
			exp = "(none: public at L6)"
		}
		c.add("row visibility", exp, strings.Join(parts, ", "))
	}
}

func dedupe(l []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range l {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func reasonOf(r exportRow) string {
	if r.Reason == "" {
		return ""
	}
	s := r.Reason
	if len(s) > 70 {
		s = s[:70] + "…"
	}
	return " (" + s + ")"
}

var hostOnce = sync.OnceValue(func() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "unknown"
	}
	return h
})

func hostname() string { return hostOnce() }

// ---- the test ----

func TestBlindProbe(t *testing.T) {
	start := time.Now()
	var all []mismatch
	expectations := 0
	for _, sc := range scenarios() {
		res := runScenario(t, sc)
		if testing.Verbose() {
			t.Logf("%s: exit %d\n%s", sc.Name, res.exit, res.stderr)
		}
		for _, a := range sc.Agents {
			c := &comparer{scenario: sc.Name, agent: a.Agent, home: res.home}
			compareAgent(c, res, a)
			all = append(all, c.out...)
			expectations += a.count()
		}
		if sc.Check != nil {
			c := &comparer{scenario: sc.Name, agent: "*", home: res.home}
			sc.Check(c, res)
			all = append(all, c.out...)
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].key < all[j].key })

	var b strings.Builder
	fmt.Fprintf(&b, "%d stores, %d expectations, %d mismatches (%s)\n\n", storeCount(), expectations, len(all), time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(&b, "%-4s %-78s | %-40s | %s\n", "", "mismatch", "spec expects", "bourdon wrote")
	seen := map[string]bool{}
	var fresh []mismatch
	for _, m := range all {
		mark := "new"
		if r, ok := known[m.key]; ok {
			mark = "k:" + r.kind
			seen[m.key] = true
		} else {
			fresh = append(fresh, m)
		}
		fmt.Fprintf(&b, "%-4s %-78s | %-40s | %s\n", mark[:min(4, len(mark))], m.key, m.expected, m.got)
	}
	t.Log("\n" + b.String())

	for _, m := range fresh {
		t.Errorf("new mismatch: %s: spec expects %s, bourdon wrote %s", m.key, m.expected, m.got)
	}
	var gone []string
	for k := range known {
		if !seen[k] {
			gone = append(gone, k)
		}
	}
	sort.Strings(gone)
	for _, k := range gone {
		t.Errorf("known mismatch no longer seen (remove it from known_test.go): %s", k)
	}
}
