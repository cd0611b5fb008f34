package library

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

const good = `spec_version: '0.1'
agent:
  id: %s
  type: code-assistant
last_updated: '2026-06-29T12:00:00+00:00'
known_entities:
- name: %s
`

func manifest(id, entity string) string {
	return strings.Replace(strings.Replace(good, "%s", id, 1), "%s", entity, 1)
}

func put(t *testing.T, dir, name, content string) {
	t.Helper()
	path := filepath.Join(dir, "agents", name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func replace(t *testing.T, dir, name, content string) {
	t.Helper()
	tmp := filepath.Join(dir, "agents", "."+name+".tmp")
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "agents", name)); err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, dir string) *Library {
	t.Helper()
	l, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func entityOf(t *testing.T, s *Snapshot, id string) string {
	t.Helper()
	a, ok := s.Agent(id)
	if !ok {
		t.Fatalf("agent %s missing; have %v", id, s.IDs())
	}
	return a.Manifest.Entities[0].Name
}

func TestMissingLibraryIsEmptyThenFillsIn(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	l := open(t, dir)
	if l.Snapshot().Len() != 0 {
		t.Fatal("missing library must be empty")
	}
	put(t, dir, "a.l5.yaml", manifest("a", "X"))
	if got := l.Snapshot().IDs(); len(got) != 1 || got[0] != "a" {
		t.Fatalf("after creating the directory: %v", got)
	}
}

func TestChangesOnDiskAreSeenByTheNextCall(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, "a.l5.yaml", manifest("a", "First"))
	put(t, dir, "b.l5.yaml", manifest("b", "Other"))
	l := open(t, dir)
	s1 := l.Snapshot()
	if entityOf(t, s1, "a") != "First" {
		t.Fatal("initial load")
	}
	bBefore, _ := s1.Agent("b")

	// Written in place (same inode), as a simple editor or exporter does.
	put(t, dir, "a.l5.yaml", manifest("a", "Second"))
	s2 := l.Snapshot()
	if entityOf(t, s2, "a") != "Second" {
		t.Error("in-place write not seen")
	}
	if bAfter, _ := s2.Agent("b"); bAfter.Manifest != bBefore.Manifest {
		t.Error("an unchanged manifest was read again")
	}

	// Replaced atomically by rename, as the Python writer does.
	replace(t, dir, "a.l5.yaml", manifest("a", "Third"))
	if entityOf(t, l.Snapshot(), "a") != "Third" {
		t.Error("atomic replace not seen")
	}

	// A new agent, then a deletion.
	put(t, dir, "c.l5.yaml", manifest("c", "New"))
	if entityOf(t, l.Snapshot(), "c") != "New" {
		t.Error("new file not seen")
	}
	if err := os.Remove(filepath.Join(dir, "agents", "b.l5.yaml")); err != nil {
		t.Fatal(err)
	}
	if _, ok := l.Snapshot().Agent("b"); ok {
		t.Error("deleted agent still served")
	}
	if l.Snapshot() != l.Snapshot() {
		t.Error("a snapshot with no change in between must be reused")
	}

	// The directory itself removed and recreated.
	if err := os.RemoveAll(filepath.Join(dir, "agents")); err != nil {
		t.Fatal(err)
	}
	if n := l.Snapshot().Len(); n != 0 {
		t.Errorf("removed directory still serves %d agents", n)
	}
	put(t, dir, "d.l5.yaml", manifest("d", "Back"))
	if entityOf(t, l.Snapshot(), "d") != "Back" {
		t.Error("recreated directory not seen")
	}
}

func TestBadFilesAreSkippedWithAWarning(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, "good.l5.yaml", manifest("good", "X"))
	put(t, dir, "syntax.l5.yaml", "spec_version: '0.1'\nagent:\n  id: syntax\n  type: [unclosed\n")
	put(t, dir, "list.l5.yaml", "- just\n- a list\n")
	put(t, dir, "empty.l5.yaml", "")
	put(t, dir, "other.yaml", "ignored: true\n")
	put(t, dir, "noid.l5.yaml", "spec_version: '0.1'\nagent:\n  type: other\n")
	l := open(t, dir)
	s := l.Snapshot()
	if got := strings.Join(s.IDs(), ","); got != "good,noid" {
		t.Errorf("loaded %s, want good,noid (a manifest without agent.id takes its file name)", got)
	}
	byFile := map[string]Warning{}
	for _, w := range s.Warnings() {
		byFile[filepath.Base(w.File)] = w
	}
	if w := byFile["syntax.l5.yaml"]; w.Line != 4 || !strings.Contains(w.Message, "not valid YAML") {
		t.Errorf("syntax error warning: %+v", w)
	}
	if w := byFile["list.l5.yaml"]; w.Line != 1 || !strings.Contains(w.Message, "not a YAML mapping (found a list)") {
		t.Errorf("list warning: %+v", w)
	}
	if w := byFile["empty.l5.yaml"]; !strings.Contains(w.Message, "an empty document") {
		t.Errorf("empty warning: %+v", w)
	}
	if len(s.Broken()) != 3 {
		t.Errorf("broken files: %v", s.Broken())
	}
}

func TestABadRewriteKeepsTheLastGoodCopy(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, "a.l5.yaml", manifest("a", "Good"))
	l := open(t, dir)
	l.Snapshot()
	put(t, dir, "a.l5.yaml", "agent: {id: a\n")
	s := l.Snapshot()
	a, ok := s.Agent("a")
	if !ok || a.Manifest.Entities[0].Name != "Good" || a.Problem == "" {
		t.Fatalf("after a bad rewrite: %+v", a)
	}
	put(t, dir, "a.l5.yaml", manifest("a", "Fixed"))
	a, _ = l.Snapshot().Agent("a")
	if a.Manifest.Entities[0].Name != "Fixed" || a.Problem != "" {
		t.Errorf("after the fix: %+v", a)
	}
}

// TestAManifestIsServedOnlyAsTheAgentItsFileNames: a second file
// declaring agent.id codex must not shadow codex.l5.yaml (the file every
// write of codex goes to), and a misnamed file alone is not served either;
// both are reported, naming the file and the one the agent lives in.
func TestAManifestIsServedOnlyAsTheAgentItsFileNames(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, "codex.l5.yaml", manifest("codex", "Real"))
	put(t, dir, "zz-shadow.l5.yaml", manifest("codex", "Shadow")) // sorts last: the reference's winner
	put(t, dir, "claude.l5.yaml", manifest("claude-code", "Misnamed"))
	s := open(t, dir).Snapshot()
	if got := strings.Join(s.IDs(), ","); got != "codex" {
		t.Fatalf("agents %s, want codex only", got)
	}
	if entityOf(t, s, "codex") != "Real" {
		t.Error("codex.l5.yaml must be what codex serves")
	}
	broken := map[string]Warning{}
	for _, w := range s.Broken() {
		broken[filepath.Base(w.File)] = w
	}
	for file, home := range map[string]string{"zz-shadow.l5.yaml": "codex.l5.yaml", "claude.l5.yaml": "claude-code.l5.yaml"} {
		w, ok := broken[file]
		if !ok {
			t.Errorf("%s is not reported as broken: %v", file, s.Broken())
			continue
		}
		if filepath.Base(w.Related) != home || !strings.Contains(w.Message, file) || !strings.Contains(w.Message, home) {
			t.Errorf("%s: the warning must name both files: %+v", file, w)
		}
		if w.Line != 3 { // agent.id's line in good
			t.Errorf("%s: the warning must give the line of agent.id: %+v", file, w)
		}
	}
}

// TestDuplicateKeysAreRefusedWithTheirLine: a manifest that says
// agent.id twice (the second one winning, in the reference) is skipped.
func TestDuplicateKeysAreRefusedWithTheirLine(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, "codex.l5.yaml", "spec_version: '0.1'\nagent:\n  id: codex\n  type: code-assistant\n  id: claude-code\n")
	s := open(t, dir).Snapshot()
	if s.Len() != 0 || len(s.Broken()) != 1 {
		t.Fatalf("agents %v, broken %v", s.IDs(), s.Broken())
	}
	if w := s.Broken()[0]; w.Line != 5 || !strings.Contains(w.Message, "duplicate key") || filepath.Base(w.File) != "codex.l5.yaml" {
		t.Errorf("warning %+v", w)
	}
}

// TestLinksOutOfTheLibraryAreNotFollowed: a manifest that is a symbolic
// link to a file outside the library (or an agents/ folder that is one)
// is not served, and the warning names the link; a link inside is
// followed.
func TestLinksOutOfTheLibraryAreNotFollowed(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "lib")
	outside := filepath.Join(base, "elsewhere")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "leak.l5.yaml"), []byte(manifest("leak", "Outside secret")), 0o644); err != nil {
		t.Fatal(err)
	}
	put(t, dir, "codex.l5.yaml", manifest("codex", "X"))
	if err := os.MkdirAll(filepath.Join(dir, "kept"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kept", "inside.yaml"), []byte(manifest("inside", "In")), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"leak.l5.yaml":   filepath.Join(outside, "leak.l5.yaml"),
		"rel.l5.yaml":    "../../elsewhere/leak.l5.yaml",
		"pipe.l5.yaml":   "/dev/null",
		"inside.l5.yaml": "../kept/inside.yaml",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, "agents", name)); err != nil {
			t.Fatal(err)
		}
	}
	s := open(t, dir).Snapshot()
	if got := strings.Join(s.IDs(), ","); got != "codex,inside" {
		t.Errorf("agents %s, want codex,inside", got)
	}
	broken := map[string]Warning{}
	for _, w := range s.Broken() {
		broken[filepath.Base(w.File)] = w
	}
	for _, name := range []string{"leak.l5.yaml", "rel.l5.yaml", "pipe.l5.yaml"} {
		if w := broken[name]; !strings.Contains(w.Message, "outside") || !strings.Contains(w.Message, filepath.Join(dir, "agents", name)) {
			t.Errorf("%s: warning %+v", name, w)
		}
	}

	// agents/ itself a link out of the library.
	dir2 := filepath.Join(base, "lib2")
	if err := os.MkdirAll(dir2, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir2, "agents")); err != nil {
		t.Fatal(err)
	}
	s = open(t, dir2).Snapshot()
	if s.Len() != 0 || len(s.Broken()) != 1 || !strings.Contains(s.Broken()[0].Message, "outside") {
		t.Errorf("agents/ linked out: agents %v, broken %v", s.IDs(), s.Broken())
	}
}

func TestOversizedFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "agents", "big.l5.yaml")
	put(t, dir, "big.l5.yaml", "")
	if err := os.Truncate(path, MaxManifestBytes+1); err != nil {
		t.Fatal(err)
	}
	s := open(t, dir).Snapshot()
	if len(s.Broken()) != 1 || !strings.Contains(s.Broken()[0].Message, "larger than") {
		t.Errorf("oversized file: %v", s.Warnings())
	}
}

func TestSameSizeRewriteWithinOneClockTickIsSeen(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs change notification; elsewhere file stamps decide")
	}
	dir := t.TempDir()
	put(t, dir, "a.l5.yaml", manifest("a", "AAAA"))
	l := open(t, dir)
	for i, name := range []string{"BBBB", "CCCC", "DDDD", "EEEE"} {
		// Same size, written back to back: size and times may not change.
		put(t, dir, "a.l5.yaml", manifest("a", name))
		if got := entityOf(t, l.Snapshot(), "a"); got != name {
			t.Fatalf("rewrite %d: serving %s, want %s", i, got, name)
		}
	}
}

func TestReloadContextReportsProgressAndHonoursCancellation(t *testing.T) {
	dir := t.TempDir()
	for i := range 5 {
		put(t, dir, string(rune('a'+i))+".l5.yaml", manifest(string(rune('a'+i)), "X"))
	}
	l := open(t, dir)
	before := l.Snapshot()
	var calls []int
	snap, n, err := l.ReloadContext(context.Background(), func(done, total int) {
		if total != 5 {
			t.Errorf("total %d, want 5", total)
		}
		calls = append(calls, done)
	})
	if err != nil || n != 5 || snap.Len() != 5 || len(calls) != 5 || calls[4] != 5 {
		t.Errorf("reload: n=%d agents=%d progress=%v err=%v", n, snap.Len(), calls, err)
	}
	put(t, dir, "a.l5.yaml", manifest("a", "Changed"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	snap, _, err = l.ReloadContext(ctx, nil)
	if err == nil || snap.Generation < before.Generation {
		t.Errorf("cancelled reload: err=%v", err)
	}
	if entityOf(t, snap, "a") != "X" {
		t.Error("a cancelled reload must change nothing")
	}
	if entityOf(t, l.Snapshot(), "a") != "Changed" {
		t.Error("the next call must still see the change")
	}
}

// TestAFIFOIsSkippedNotWaitedFor: opening a named pipe without a writer
// blocks; the library must pass it by and load the rest.
func TestAFIFOIsSkippedNotWaitedFor(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, "codex.l5.yaml", manifest("codex", "Payments API"))
	if err := syscall.Mkfifo(filepath.Join(dir, "agents", "pipe.l5.yaml"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	s := open(t, dir).Snapshot()
	if s.Len() != 1 {
		t.Errorf("the rest of the library must load: %d agents", s.Len())
	}
}

func TestListManifestsAndLoadManifest(t *testing.T) {
	dir := t.TempDir()
	agents := filepath.Join(dir, "agents")
	if files, err := ListManifests(agents); err != nil || files != nil {
		t.Fatalf("missing directory: %v, %v", files, err)
	}
	put(t, dir, "bee.l5.yaml", manifest("bee", "Hive"))
	put(t, dir, "a.l5.yaml", "- not\n- a mapping\n")
	put(t, dir, ".hidden.l5.yaml", manifest("hidden", "X"))
	put(t, dir, "notes.txt", "not a manifest")
	put(t, dir, "sub.l5.yaml/inner.l5.yaml", manifest("inner", "Y"))
	files, err := ListManifests(agents)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
		if f.Path != filepath.Join(agents, f.Name) || f.Stamp.Size == 0 || f.Stamp.MTime == 0 {
			t.Errorf("%s: path %s, stamp %+v", f.Name, f.Path, f.Stamp)
		}
	}
	if got := strings.Join(names, " "); got != "a.l5.yaml bee.l5.yaml" {
		t.Errorf("listed %q; want the two manifests, sorted, without hidden files or directories", got)
	}
	a, warnings := LoadManifest(files[1].Path)
	if a == nil || a.ID != "bee" || len(warnings) != 0 || a.Manifest.Entities[0].Name != "Hive" {
		t.Errorf("good manifest: %+v, %v", a, warnings)
	}
	a, warnings = LoadManifest(files[0].Path)
	if a != nil || len(warnings) != 1 || warnings[0].Line != 1 || !strings.Contains(warnings[0].Message, "not a YAML mapping") {
		t.Errorf("non-mapping: %+v, %v", a, warnings)
	}
}

// TestSourceReadsAServedManifestAsTheLibraryDoes: the bytes of the file
// as they are now, and never through a link out of the library.
func TestSourceReadsAServedManifestAsTheLibraryDoes(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "lib")
	put(t, dir, "codex.l5.yaml", manifest("codex", "X"))
	l := open(t, dir)
	a, _ := l.Snapshot().Agent("codex")
	if b, err := l.Source(a); err != nil || string(b) != manifest("codex", "X") {
		t.Fatalf("Source: %q %v", b, err)
	}
	// Replaced by a link out of the library after it was loaded.
	outside := filepath.Join(base, "codex.l5.yaml")
	if err := os.WriteFile(outside, []byte(manifest("codex", "Outside")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(a.File); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, a.File); err != nil {
		t.Fatal(err)
	}
	if b, err := l.Source(a); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("Source through a link out: %q %v", b, err)
	}
}

func TestReloadsAreObserved(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, "codex.l5.yaml", manifest("codex", "One"))
	l := open(t, dir)
	var seen []time.Duration
	l.ObserveReloads(func(took time.Duration) { seen = append(seen, took) })
	l.Snapshot() // nothing changed: nothing read, nothing observed
	if len(seen) != 0 {
		t.Fatalf("a rescan that read nothing was observed: %v", seen)
	}
	l.Reload()
	if len(seen) != 1 || seen[0] <= 0 {
		t.Errorf("one reload, observed %v", seen)
	}
}
