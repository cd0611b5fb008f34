package library

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
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

func TestDuplicateAgentIDsLastFileWins(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, "a.l5.yaml", manifest("same", "FromA"))
	put(t, dir, "b.l5.yaml", manifest("same", "FromB"))
	s := open(t, dir).Snapshot()
	if entityOf(t, s, "same") != "FromB" {
		t.Error("the alphabetically last file must win, as in the reference")
	}
	found := false
	for _, w := range s.Warnings() {
		found = found || strings.Contains(w.Message, "also used by")
	}
	if !found {
		t.Error("a duplicate id must be reported")
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
	put(t, dir, "b.l5.yaml", manifest("bee", "Hive"))
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
	if got := strings.Join(names, " "); got != "a.l5.yaml b.l5.yaml" {
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
