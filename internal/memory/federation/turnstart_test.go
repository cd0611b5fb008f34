package federation

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/testkit/libgen"
)

// turnLibrary is the conformance seed library plus the cases the
// recognizer must handle as the store does: two files claiming one agent
// id, a broken manifest, a non-mapping one, unicode, a drifting surface.
// Stats says what opening the recognizer read (a test's view of its cache).
func (r *Recognizer) Stats() TurnStats { return r.stats }

func turnLibrary(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copySeed(t, dir)
	writeManifest(t, dir, "cursor", "known_entities", []any{
		row("name", "Café Crème", "type", "project", "aliases", []any{"creme"}, "summary", "Le café ☕", "visibility", "team"),
		row("name", "bourdon", "type", "concept", "summary", "cursor's view", "visibility", "public"),
	})
	writeManifest(t, dir, "cursor-old", "known_entities", []any{row("name", "Zed", "visibility", "public")})
	data, _ := os.ReadFile(filepath.Join(dir, "agents", "cursor-old.l5.yaml"))
	writeFile(t, filepath.Join(dir, "agents", "cursor-old.l5.yaml"), strings.Replace(string(data), "id: cursor-old", "id: aaa", 1))
	// Sorted before cursor.l5.yaml, which therefore wins agent "cursor".
	writeFile(t, filepath.Join(dir, "agents", "a-dup.l5.yaml"), strings.Replace(string(data), "id: cursor-old", "id: cursor", 1))
	writeFile(t, filepath.Join(dir, "agents", "broken.l5.yaml"), "agent: {id: broken\n  nope: [\n")
	writeFile(t, filepath.Join(dir, "agents", "list.l5.yaml"), "- a\n- b\n")
	writeFile(t, filepath.Join(dir, ".bourdon", "watermarks.json"), `{"version": 1, "surfaces": {"codex": {"high_rows": 40, "high_at": "2026-06-01T00:00:00Z", "rows": 40, "checked_at": "2026-06-01T00:00:00Z"}}}`+"\n")
	settle(t, dir)
	return dir
}

// turnWritten is the modification time settle gives manifests, and
// turnNow a time at which they have long settled.
var (
	turnWritten = time.Date(2026, 6, 30, 8, 0, 0, 0, time.UTC)
	turnNow     = func() time.Time { return june30 }
)

// settle dates the named manifests of dir (all when none are named)
// turnWritten, so that the cache takes them in whatever the machine's
// clock says.
func settle(t *testing.T, dir string, names ...string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "agents", "*.l5.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) > 0 {
		files = nil
		for _, n := range names {
			files = append(files, filepath.Join(dir, "agents", n))
		}
	}
	for _, f := range files {
		if err := os.Chtimes(f, turnWritten, turnWritten); err != nil {
			t.Fatal(err)
		}
	}
}

var turnPrompts = []string{
	"what about Bourdon",
	"bourdon",
	"the café crème and CREME",
	"Zed and SecretProj and Internal Notes",
	"nothing known here",
	"",
}

func TestRecognizerGivesTheStorePayload(t *testing.T) {
	dir := turnLibrary(t)
	now := turnNow
	store := openStore(t, dir, june30)
	store.drift.Now = now
	cache := filepath.Join(t.TempDir(), "turn.gob")
	ignoreLatency := cmpopts.IgnoreFields(RecognitionContext{}, "RecognitionLatencyUS")
	check := func(name string, r *Recognizer) {
		t.Helper()
		for _, p := range turnPrompts {
			for _, level := range []visibility.Level{visibility.Public, visibility.Team, visibility.Private} {
				req := RecognitionRequest{Prompt: p, AccessLevel: level.String(), Level: level}
				want := store.RecognitionContext(req)
				got := r.RecognitionContext(req)
				if d := cmp.Diff(want, got, ignoreLatency); d != "" {
					t.Errorf("%s: %q at %s: recognizer and store differ (-store +recognizer):\n%s", name, p, level, d)
				}
			}
		}
	}
	// The store observes first: both then share the watermarks.
	if got := store.RecognitionContext(RecognitionRequest{Prompt: "bourdon", Level: visibility.Team}); len(got.DriftingSurfaces) != 5 {
		t.Fatalf("the library must have five drifting surfaces (codex, broken, list, and the misnamed a-dup and cursor-old): %+v", got.DriftingSurfaces)
	}
	if got := store.RecognitionContext(RecognitionRequest{Prompt: "Café crème", Level: visibility.Team}); len(got.MatchedEntities) != 1 || got.MatchedEntities[0].SourceAgents[0] != "cursor" {
		t.Fatalf("the library must recognise cursor's entity: %+v", got.MatchedEntities)
	}

	uncached, err := OpenRecognizer(dir, RecognizerOptions{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	check("without a cache", uncached)
	if st := uncached.Stats(); st.Manifests != 7 || st.Parsed != 7 || st.CacheWritten {
		t.Errorf("without a cache: %+v", st)
	}

	first, err := OpenRecognizer(dir, RecognizerOptions{CachePath: cache, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	check("filling the cache", first)
	if st := first.Stats(); st.Parsed != 7 || !st.CacheWritten || st.CacheError != "" {
		t.Errorf("filling the cache: %+v", st)
	}
	second, err := OpenRecognizer(dir, RecognizerOptions{CachePath: cache, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	check("from the cache", second)
	if st := second.Stats(); st.Parsed != 0 || st.CacheWritten || st.CacheError != "" {
		t.Errorf("an unchanged library must parse nothing and write nothing: %+v", st)
	}

	// One manifest replaced: only it is parsed again.
	writeManifest(t, dir, "codex", "known_entities", []any{row("name", "Bourdon", "summary", "rewritten", "visibility", "public")})
	settle(t, dir, "codex.l5.yaml")
	third, err := OpenRecognizer(dir, RecognizerOptions{CachePath: cache, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if st := third.Stats(); st.Parsed != 1 || !st.CacheWritten {
		t.Errorf("one changed manifest: %+v", st)
	}
	store.Library().Snapshot()
	check("after a change", third)

	// A manifest removed.
	if err := os.Remove(filepath.Join(dir, "agents", "list.l5.yaml")); err != nil {
		t.Fatal(err)
	}
	fourth, err := OpenRecognizer(dir, RecognizerOptions{CachePath: cache, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if st := fourth.Stats(); st.Parsed != 0 || !st.CacheWritten {
		t.Errorf("one removed manifest: %+v", st)
	}
	check("after a removal", fourth)
}

func TestRecognizerCacheProblems(t *testing.T) {
	dir := turnLibrary(t)
	now := turnNow
	cache := filepath.Join(t.TempDir(), "turn.gob")
	writeFile(t, cache, "not gob")
	r, err := OpenRecognizer(dir, RecognizerOptions{CachePath: cache, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if st := r.Stats(); st.Parsed != 7 || !st.CacheWritten || !strings.Contains(st.CacheError, "rebuilt") {
		t.Errorf("a corrupt cache is rebuilt and reported: %+v", st)
	}
	if r, _ = OpenRecognizer(dir, RecognizerOptions{CachePath: cache, Now: now}); r.Stats().Parsed != 0 {
		t.Errorf("the rebuilt cache must serve the next turn: %+v", r.Stats())
	}

	// A cache that cannot be written only costs the next turn.
	blocked := filepath.Join(t.TempDir(), "file")
	writeFile(t, blocked, "")
	r, err = OpenRecognizer(dir, RecognizerOptions{CachePath: filepath.Join(blocked, "turn.gob"), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if st := r.Stats(); st.CacheWritten || st.CacheError == "" {
		t.Errorf("an unwritable cache must be reported: %+v", st)
	}
	if got := r.RecognitionContext(RecognitionRequest{Prompt: "bourdon", Level: visibility.Team}); len(got.MatchedEntities) != 1 {
		t.Errorf("recognition must work without a cache: %+v", got)
	}

	// A manifest modified just now is parsed but not cached (a rewrite
	// within the same clock tick could keep its stamp).
	fresh := func() time.Time { return turnWritten.Add(time.Second) }
	cache = filepath.Join(t.TempDir(), "turn.gob")
	r, _ = OpenRecognizer(dir, RecognizerOptions{CachePath: cache, Now: fresh})
	if st := r.Stats(); st.Parsed != 7 || st.CacheWritten {
		t.Errorf("files newer than the settling time are not cached: %+v", st)
	}
	if r, _ = OpenRecognizer(dir, RecognizerOptions{CachePath: cache, Now: fresh}); r.Stats().Parsed != 7 || r.Stats().CacheWritten {
		t.Errorf("unsettled files are parsed on every turn, and the cache is not rewritten for them: %+v", r.Stats())
	}

	// A missing library is an empty one.
	r, err = OpenRecognizer(filepath.Join(t.TempDir(), "none"), RecognizerOptions{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.RecognitionContext(RecognitionRequest{Prompt: "bourdon", Level: visibility.Team}); len(got.MatchedEntities) != 0 || got.Recognition != "" {
		t.Errorf("empty library: %+v", got)
	}
}

func TestRecognizerAgreesWithTheStoreOnAGeneratedLibrary(t *testing.T) {
	dir := t.TempDir()
	spec := libgen.Spec{Agents: 6, Entities: 150, Sessions: 5, Seed: 3, Today: june30}
	if _, err := libgen.Write(dir, spec); err != nil {
		t.Fatal(err)
	}
	settle(t, dir)
	store := openStore(t, dir, june30)
	store.drift.Now = turnNow
	cache := filepath.Join(t.TempDir(), "turn.gob")
	for pass := range 2 {
		r, err := OpenRecognizer(dir, RecognizerOptions{CachePath: cache, Now: turnNow})
		if err != nil {
			t.Fatal(err)
		}
		if parsed := r.Stats().Parsed; parsed != []int{6, 0}[pass] {
			t.Fatalf("pass %d parsed %d manifests", pass, parsed)
		}
		matched := 0
		for i := range 120 {
			name := libgen.EntityName(i * 5)
			prompt := []string{"what about " + name, strings.ToLower(name), name + " and " + libgen.EntityName(i), "the " + strings.Fields(name)[0]}[i%4]
			for _, level := range []visibility.Level{visibility.Public, visibility.Team, visibility.Private} {
				req := RecognitionRequest{Prompt: prompt, AccessLevel: level.String(), Level: level}
				want, got := store.RecognitionContext(req), r.RecognitionContext(req)
				want.RecognitionLatencyUS, got.RecognitionLatencyUS = 0, 0
				if d := cmp.Diff(want, got); d != "" {
					t.Fatalf("pass %d: %q at %s (-store +recognizer):\n%s", pass, prompt, level, d)
				}
				if len(got.MatchedEntities) > 0 {
					matched++
				}
			}
		}
		if matched < 100 {
			t.Errorf("only %d queries matched: the test is too weak", matched)
		}
	}
}
