package commit

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// The tests below run writers as separate processes: the test binary
// itself, re-run with -test.run=^TestHelperWriter$ and its instructions in
// the environment.

const helperEnv = "BOURDON_COMMIT_HELPER"

// helper starts the test binary as a writer process.
func helper(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+strings.Join(args, "\x1f"))
	cmd.Stderr = os.Stderr
	return cmd
}

// TestHelperWriter is not a test: it is the writer process of the tests
// below, and does nothing unless started by them.
func TestHelperWriter(t *testing.T) {
	spec, ok := os.LookupEnv(helperEnv)
	if !ok {
		t.Skip("helper process only")
	}
	args := strings.Split(spec, "\x1f")
	w := New(args[1])
	ctx := context.Background()
	switch args[0] {
	case "commits":
		// commits ROOT WRITER N AGENT...: commit N entities named
		// w<WRITER>-c<i>, round robin over the agents.
		writer, _ := strconv.Atoi(args[2])
		n, _ := strconv.Atoi(args[3])
		agents := args[4:]
		for i := range n {
			id := agents[(writer+i)%len(agents)]
			_, err := w.Commit(ctx, Request{
				AgentID: id, AgentType: str("other"),
				Entities:   []any{map[string]any{"name": fmt.Sprintf("w%d-c%d", writer, i)}},
				Provenance: Provenance{Caller: "writer-" + args[2]},
			})
			if err != nil {
				fmt.Fprintln(os.Stderr, "helper:", err)
				os.Exit(3)
			}
		}
		os.Exit(0)
	case "forever":
		// forever ROOT AGENT: commit entities e<k>, k counting on from the
		// manifest's entity count, until killed; print "ready" first and
		// "committed" after the first commit.
		id := args[2]
		m, _, err := readManifest(w.ManifestPath(id))
		if err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			os.Exit(3)
		}
		k := 0
		if m != nil {
			k = len(listOf(m, "known_entities"))
		}
		fmt.Println("ready")
		first := true
		for ; ; k++ {
			_, err := w.Commit(ctx, Request{
				AgentID: id, AgentType: str("other"),
				Entities: []any{map[string]any{"name": fmt.Sprintf("e%06d", k), "summary": strings.Repeat("x", k%50)}},
				Sessions: []any{map[string]any{"date": fmt.Sprintf("2026-06-%02d", 1+k%28), "key_actions": []any{fmt.Sprintf("k%d", k)}}},
			})
			if err != nil {
				fmt.Fprintln(os.Stderr, "helper:", err)
				os.Exit(3)
			}
			if first {
				fmt.Println("committed")
				first = false
			}
		}
	}
	t.Fatalf("unknown helper command %q", args[0])
}

// TestConcurrentProcessesLoseNothing: 8 processes commit 200 times each,
// at once, to 4 overlapping agents. Every entity must be in its manifest,
// every commit in the provenance, and every replaced state in the
// versions (all commits but each agent's first, which replaced nothing).
func TestConcurrentProcessesLoseNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("multi-process test")
	}
	root := t.TempDir()
	const procs, commits = 8, 200
	// Four agents, each written by all eight processes. (With three the
	// manifests grow larger and the test takes ~16 s under -race on two
	// cores instead of ~12 s, for no more contention worth having.)
	agents := []string{"alpha", "beta", "delta", "gamma"} // sorted, as the library lists them
	start := time.Now()
	var wg sync.WaitGroup
	for p := range procs {
		cmd := helper(t, append([]string{"commits", root, strconv.Itoa(p), strconv.Itoa(commits)}, agents...)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			if err := cmd.Wait(); err != nil {
				t.Errorf("writer %d: %v", p, err)
			}
		})
	}
	wg.Wait()
	t.Logf("%d commits by %d processes in %v", procs*commits, procs, time.Since(start))

	w := New(root)
	want := map[string]bool{}
	for p := range procs {
		for i := range commits {
			want[fmt.Sprintf("w%d-c%d", p, i)] = true
		}
	}
	provenance, versions := 0, 0
	for _, id := range agents {
		m, _, err := readManifest(w.ManifestPath(id))
		if err != nil || m == nil {
			t.Fatalf("%s: %v", id, err)
		}
		for _, r := range listOf(m, "known_entities") {
			name := textOf(r.(*yaml11.Map).Value("name"))
			if !want[name] {
				t.Errorf("%s: unexpected or duplicate entity %q", id, name)
			}
			delete(want, name)
		}
		changes, err := w.Changes(id)
		if err != nil {
			t.Fatal(err)
		}
		provenance += len(changes)
		// Every archived version is joined to the write that replaced it
		// (listed, not parsed: Versions would parse each of them).
		archived := map[string]bool{}
		for _, c := range changes {
			if c.ArchivedVersion != "" {
				archived[c.ArchivedVersion] = true
			}
		}
		entries, err := os.ReadDir(filepath.Join(root, "history", id, "versions"))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			v, ok := strings.CutSuffix(e.Name(), ".l5.yaml")
			if !ok || !archived[v] {
				t.Errorf("%s: %s is not an archived version joined to its provenance", id, e.Name())
			}
			versions++
		}
		if cur := Digest(m); changes[len(changes)-1].Digest != cur {
			t.Errorf("%s: the last provenance record is not the current state", id)
		}
	}
	if len(want) > 0 {
		for name := range want {
			t.Errorf("%d committed entities lost, e.g. %q", len(want), name)
			break
		}
	}
	if provenance != procs*commits || versions != procs*commits-len(agents) {
		t.Errorf("%d provenance records and %d versions, want %d and %d", provenance, versions, procs*commits, procs*commits-len(agents))
	}
	checkLibrary(t, root, agents)
}

// checkLibrary opens the library as the server does: exactly the given
// agents must load, with no warnings (no temporary file taken for a
// manifest, none unreadable).
func checkLibrary(t *testing.T, root string, agents []string) {
	t.Helper()
	lib, err := library.Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	s := lib.Snapshot()
	if !slices.Equal(s.IDs(), agents) || len(s.Warnings()) != 0 || len(s.Broken()) != 0 {
		t.Errorf("library: agents %v (want %v), warnings %v, broken %v", s.IDs(), agents, s.Warnings(), s.Broken())
	}
}

// TestKilledWriterLeavesACommittedState kills a writer process with
// SIGKILL at random points of its commits, 50 times. After every kill the
// manifest must parse and be exactly a state some commit produced: its
// entities are e0..e(k-1) with k never going back, and its digest is
// recorded in the provenance (which is appended before the manifest is
// renamed into place). Archived versions must parse and match their
// digest8. Temporary files a kill leaves behind must not be taken for
// manifests by the library.
func TestKilledWriterLeavesACommittedState(t *testing.T) {
	if testing.Short() {
		t.Skip("multi-process test")
	}
	root := t.TempDir()
	const id, kills = "victim", 50
	w := New(root)
	rng := rand.New(rand.NewPCG(1, 2)) // kill delays; the outcome must not depend on them
	last, temps := 0, 0
	start := time.Now()
	for i := range kills {
		cmd := helper(t, "forever", root, id)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Each writer is killed after its first commit landed, however
		// slow the machine, so that every run adds to the state; where its
		// later commits it is killed depends on the random delay.
		lines := bufio.NewReader(out)
		for _, want := range []string{"ready\n", "committed\n"} {
			if line, err := lines.ReadString('\n'); err != nil || line != want {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("kill %d: writer did not print %q: %q %v", i, want, line, err)
			}
		}
		time.Sleep(time.Duration(rng.IntN(20_000)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("kill %d: the writer was not killed but ended: %v", i, err)
		}

		m, _, err := readManifest(w.ManifestPath(id))
		if err != nil {
			t.Fatalf("kill %d: the manifest does not parse: %v", i, err)
		}
		if m == nil {
			continue // killed before its first commit landed
		}
		ents := listOf(m, "known_entities")
		for j, r := range ents {
			if name := textOf(r.(*yaml11.Map).Value("name")); name != fmt.Sprintf("e%06d", j) {
				t.Fatalf("kill %d: entity %d is %q: not a committed state", i, j, name)
			}
		}
		if len(ents) < last {
			t.Fatalf("kill %d: %d entities, %d before: a committed state was lost", i, len(ents), last)
		}
		last = len(ents)
		changes, err := w.Changes(id)
		if err != nil {
			t.Fatal(err)
		}
		cur := Digest(m)
		if !slices.ContainsFunc(changes, func(c Change) bool { return c.Digest == cur }) {
			t.Fatalf("kill %d: the manifest's digest %s is in no provenance record", i, cur[:8])
		}
	}
	t.Logf("%d kills in %v; %d entities committed", kills, time.Since(start), last)
	if last < kills {
		t.Errorf("only %d commits landed in %d runs, each of which waited for one", last, kills)
	}

	// Archived versions parse and are the state their name says.
	vs, err := w.Versions(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		m, _, err := readManifest(w.versionPath(id, v.VersionID))
		if err != nil || m == nil || Digest(m)[:8] != v.Digest8 {
			t.Errorf("version %s: %v", v.VersionID, err)
		}
	}
	// Leftover temporary files (a kill inside WriteAtomic) are harmless:
	// the library loads only the manifest, without warnings.
	for _, dir := range []string{filepath.Join(root, "agents"), filepath.Join(root, "history", id, "versions")} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if isTemp(e.Name()) {
				temps++
			}
		}
	}
	t.Logf("%d temporary files left by kills", temps)
	checkLibrary(t, root, []string{id})
	if n := len(vs); n < last-1 {
		t.Errorf("%d versions for %d commits", n, last)
	}

	// Once they are a minute old, the next writer's commit removes them.
	old := time.Now().Add(-2 * time.Minute)
	for _, dir := range []string{filepath.Join(root, "agents"), filepath.Join(root, "history", id, "versions")} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if isTemp(e.Name()) {
				os.Chtimes(filepath.Join(dir, e.Name()), old, old)
			}
		}
	}
	if _, err := New(root).Commit(context.Background(), Request{AgentID: id, Entities: []any{map[string]any{"name": fmt.Sprintf("e%06d", last)}}}); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(root, "agents"), filepath.Join(root, "history", id, "versions")} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if isTemp(e.Name()) {
				t.Errorf("stale temporary file %s survived a commit", e.Name())
			}
		}
	}
}
