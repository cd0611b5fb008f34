package deeper

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// openStore opens a store over dir.
func openStore(t testing.TB, dir string) *federation.Store {
	t.Helper()
	lib, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	return federation.New(lib)
}

// seedStore copies the conformance seed library (two agents, public, team
// and private rows).
func seedStore(t testing.TB) *federation.Store {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"claude-code.l5.yaml", "codex.l5.yaml"} {
		b, err := os.ReadFile(filepath.Join("../../../testdata/conformance/fed_seed_library/agents", f))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "agents", f), b)
	}
	return openStore(t, dir)
}

func writeFile(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// writeAgent writes a manifest from a JSON-able document (JSON is YAML).
func writeAgent(t testing.TB, dir, id string, doc map[string]any) {
	t.Helper()
	doc["spec_version"] = "0.1"
	doc["agent"] = map[string]any{"id": id, "type": "code-assistant"}
	doc["last_updated"] = "2026-06-29T12:00:00+00:00"
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "agents", id+".l5.yaml"), b)
}

func ask(t testing.TB, s *Service, prompt string, level visibility.Level) Payload {
	t.Helper()
	return s.DeeperContext(context.Background(), Request{Prompt: prompt, AccessLevel: level.String(), Level: level})
}

func itemTexts(p Payload) string {
	var b strings.Builder
	for _, it := range p.Items {
		b.WriteString(it.Text + "\n")
	}
	return b.String()
}

func TestSeedLibrary(t *testing.T) {
	s := New(seedStore(t), Options{})
	p := ask(t, s, "what about Bourdon", visibility.Team)
	if p.Prompt != "what about Bourdon" || p.AccessLevel != "team" || p.IncludePrivate {
		t.Fatalf("echo %+v", p)
	}
	if p.Context == "" || p.ContextChars != utf8.RuneCountInString(p.Context) || p.Source != "local" || p.Reason != "" {
		t.Fatalf("payload %+v", p)
	}
	if len(p.Entities) != 1 || p.Entities[0].Name != "Bourdon" || !slices.Equal(p.Entities[0].SourceAgents, []string{"claude-code", "codex"}) {
		t.Fatalf("entities %+v", p.Entities)
	}
	first := p.Items[0]
	if first.Kind != "entity" || first.Door != DoorRecognition || first.Name != "Bourdon" ||
		!slices.Equal(first.Agents, []string{"claude-code", "codex"}) ||
		first.Text != "[entity] Bourdon (project) via claude-code, codex: Cross-agent memory federation (granted side). | Federation, codex view." {
		t.Fatalf("first item %+v", first)
	}
	if !slices.Contains(p.Doors, DoorRecognition) || len(p.L1Documents) != 0 || p.L1Documents == nil || p.HydrationHint == "" {
		t.Fatalf("provenance %+v", p)
	}
	// The Bourdon session comes through recognition too.
	found := false
	for _, it := range p.Items {
		if it.Kind == "session" && it.Name == "Bourdon" && it.Door == DoorRecognition && it.Date == "2026-06-08" {
			found = true
		}
	}
	if !found {
		t.Fatalf("no Bourdon session:\n%s", itemTexts(p))
	}
	if !strings.HasPrefix(p.Context, header+"\nRecognized: Bourdon (project)\n1. [entity] Bourdon") {
		t.Fatalf("context:\n%s", p.Context)
	}
}

func TestVisibility(t *testing.T) {
	s := New(seedStore(t), Options{})
	for _, tc := range []struct {
		level   visibility.Level
		prompt  string
		present []string
		absent  []string
	}{
		{visibility.Public, "roadmap planning revenue review notes", nil, []string{"Roadmap", "team planning", "Quarterly Revenue", "private review", "Internal Notes"}},
		{visibility.Team, "roadmap planning revenue review notes", []string{"Roadmap", "team planning", "Internal Notes"}, []string{"Quarterly Revenue", "Q2 numbers", "private review"}},
		{visibility.Private, "roadmap planning revenue review", []string{"Quarterly Revenue", "private review"}, nil},
	} {
		p := ask(t, s, tc.prompt, tc.level)
		all := p.Context + "\n" + itemTexts(p)
		raw, _ := json.Marshal(p)
		for _, w := range tc.present {
			if !strings.Contains(all, w) {
				t.Errorf("%s: %q missing:\n%s", tc.level, w, all)
			}
		}
		for _, w := range tc.absent {
			if strings.Contains(string(raw), w) {
				t.Errorf("%s: %q leaked:\n%s", tc.level, w, raw)
			}
		}
	}
	// A private entity named in the prompt is not recognised at team.
	p := ask(t, s, "Quarterly Revenue", visibility.Team)
	if len(p.Entities) != 0 || p.Context != "" || p.Reason == "" {
		t.Fatalf("payload %+v", p)
	}
}

func TestReaderLimitsAgents(t *testing.T) {
	s := New(seedStore(t), Options{})
	p := s.DeeperContext(context.Background(), Request{
		Prompt: "Bourdon SecretProj", AccessLevel: "team", Level: visibility.Team,
		Reader: func(a string) bool { return a == "claude-code" },
	})
	raw, _ := json.Marshal(p)
	if strings.Contains(string(raw), "codex") || strings.Contains(string(raw), "SecretProj known") {
		t.Fatalf("codex rows reached a reader limited to claude-code:\n%s", raw)
	}
	if len(p.Entities) != 1 || !slices.Equal(p.Entities[0].SourceAgents, []string{"claude-code"}) {
		t.Fatalf("entities %+v", p.Entities)
	}
}

func TestRedaction(t *testing.T) {
	dir := t.TempDir()
	writeAgent(t, dir, "a", map[string]any{
		"known_entities": []any{
			map[string]any{"name": "Vault", "type": "project", "summary": "the api_key is abc123 for vault", "visibility": "public"},
			map[string]any{"name": "Docs", "type": "project", "summary": "see https://internal.example.com/vault?token=x", "visibility": "public"},
		},
		"notes": []any{map[string]any{"date": "2026-06-01", "text": "vault password: hunter2hunter2", "visibility": "public"}},
	})
	s := New(openStore(t, dir), Options{})
	p := ask(t, s, "vault docs", visibility.Team)
	raw, _ := json.Marshal(p)
	for _, leak := range []string{"abc123", "hunter2", "internal.example.com"} {
		if strings.Contains(string(raw), leak) {
			t.Fatalf("%q leaked:\n%s", leak, raw)
		}
	}
	if !strings.Contains(p.Context, redact.Sentinel) || !strings.Contains(p.Context, "[link]") {
		t.Fatalf("context:\n%s", p.Context)
	}
}

// TestCredentialsHaveNoTerms: an item's terms are prompt words, and a
// fuzzy match shows the library word it matched; a credential's pieces
// came out that way, lower-cased, whether the prompt or a row held it.
func TestCredentialsHaveNoTerms(t *testing.T) {
	dir := t.TempDir()
	tok := "ghp_" + strings.Repeat("Kq7", 12)
	writeAgent(t, dir, "a", map[string]any{
		"known_entities": []any{map[string]any{"name": "Mirror", "type": "project", "summary": "the mirror pushes with " + tok, "visibility": "public"}},
		"notes":          []any{map[string]any{"date": "2026-06-01", "text": "mirror deploy uses DB_PASSWORD=Zz9mirrorpw", "visibility": "public"}},
	})
	s := New(openStore(t, dir), Options{})
	for _, prompt := range []string{"mirror " + tok, "mirror " + strings.Repeat("kq7", 12), "mirror zz9mirrorpx"} {
		p := ask(t, s, prompt, visibility.Team)
		p.Prompt = "" // the caller's own text, echoed (the MCP layer redacts echoes)
		raw, _ := json.Marshal(p)
		low := strings.ToLower(string(raw))
		for _, leak := range []string{strings.ToLower(tok[4:]), "zz9mirrorpw"} {
			if strings.Contains(low, leak) {
				t.Errorf("asked %q, a credential's piece %q came back:\n%s", prompt, leak, raw)
			}
		}
		if !strings.Contains(low, `"mirror"`) {
			t.Errorf("asked %q, the benign term is not reported:\n%s", prompt, raw)
		}
	}
}

// bigLibrary writes n entities sharing the word "ledger".
func bigLibrary(t testing.TB, n int) *federation.Store {
	dir := t.TempDir()
	var ents, sessions []any
	for i := range n {
		ents = append(ents, map[string]any{"name": "Ledger " + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + strings.Repeat("y", i/26),
			"type": "concept", "summary": "A ledger component " + strings.Repeat("with a rather long summary ", 5), "visibility": "public"})
		sessions = append(sessions, map[string]any{"date": "2026-06-01", "project_focus": []any{"Ledger work"}, "key_actions": []any{"ledger migration step"}, "visibility": "public"})
	}
	writeAgent(t, dir, "a", map[string]any{"known_entities": ents, "recent_sessions": sessions})
	return openStore(t, dir)
}

func TestBounds(t *testing.T) {
	store := bigLibrary(t, 60)
	s := New(store, Options{MaxItems: 5, MaxChars: 5000})
	p := ask(t, s, "ledger", visibility.Public)
	if len(p.Items) != 5 || !p.Truncated {
		t.Fatalf("%d items, truncated %v", len(p.Items), p.Truncated)
	}
	for i, it := range p.Items {
		if it.Rank != i+1 || !strings.Contains(p.Context, "\n"+itoa(i+1)+". "+it.Text) {
			t.Fatalf("item %d: %+v not in context", i, it)
		}
	}
	s = New(store, Options{MaxItems: 20, MaxChars: 600})
	p = ask(t, s, "ledger", visibility.Public)
	if p.ContextChars > 600 || !p.Truncated || len(p.Items) == 0 {
		t.Fatalf("%d chars, truncated %v, %d items", p.ContextChars, p.Truncated, len(p.Items))
	}
	// Nothing is left out: not truncated.
	s = New(seedStore(t), Options{})
	if p := ask(t, s, "SecretProj", visibility.Public); p.Truncated {
		t.Fatalf("truncated: %+v", p)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestEmptyAnswers(t *testing.T) {
	s := New(seedStore(t), Options{})
	p := ask(t, s, "   ", visibility.Team)
	if p.Context != "" || p.Reason != "the prompt is empty" || p.Source != "none" || p.HydrationHint != hintEmpty {
		t.Fatalf("blank: %+v", p)
	}
	p = ask(t, s, "zebra xylophone", visibility.Team)
	if p.Context != "" || p.ContextChars != 0 || p.Reason != "no library row visible at access level team matches the prompt" ||
		p.Items == nil || p.Doors == nil || p.Entities == nil || p.L2 != nil {
		t.Fatalf("no match: %+v", p)
	}
	empty := New(openStore(t, t.TempDir()), Options{})
	if p := ask(t, empty, "Bourdon", visibility.Team); p.Reason != "the library has no row visible at access level team" {
		t.Fatalf("empty library: %+v", p)
	}
}

func TestFuzzyDoor(t *testing.T) {
	dir := t.TempDir()
	writeAgent(t, dir, "a", map[string]any{"known_entities": []any{
		map[string]any{"name": "Kestrel Ledger", "type": "project", "summary": "Double-entry bookkeeping service.", "visibility": "public"},
		map[string]any{"name": "Falcon Gateway", "type": "project", "summary": "Edge proxy.", "visibility": "public"},
	}})
	s := New(openStore(t, dir), Options{})
	p := ask(t, s, "how is the kestral ledgr going", visibility.Public)
	if len(p.Entities) != 0 {
		t.Fatalf("recognition matched a misspelling: %+v", p.Entities)
	}
	if len(p.Items) == 0 || p.Items[0].Name != "Kestrel Ledger" || p.Items[0].Door != DoorFuzzy ||
		!slices.Equal(p.Items[0].Terms, []string{"kestral~kestrel", "ledgr~ledger"}) {
		t.Fatalf("items %+v", p.Items)
	}
	if !slices.Equal(p.Doors, []string{DoorFuzzy}) {
		t.Fatalf("doors %v", p.Doors)
	}
	// An exact word outranks a fuzzy one, and its door is lexical.
	p = ask(t, s, "kestrel proxi", visibility.Public)
	if p.Items[0].Name != "Kestrel Ledger" || p.Items[0].Door != DoorLexical || p.Items[1].Door != DoorFuzzy {
		t.Fatalf("items %+v", p.Items)
	}
}

func TestFuzzyTermsRespectVisibility(t *testing.T) {
	dir := t.TempDir()
	writeAgent(t, dir, "a", map[string]any{"known_entities": []any{
		map[string]any{"name": "Zanzibar", "type": "project", "summary": "secret", "visibility": "private"},
	}})
	s := New(openStore(t, dir), Options{})
	p := ask(t, s, "zanzibr", visibility.Team)
	raw, _ := json.Marshal(p)
	if strings.Contains(strings.ToLower(string(raw)), "zanzibar") {
		t.Fatalf("a private term surfaced:\n%s", raw)
	}
}

func TestIndexFollowsTheLibrary(t *testing.T) {
	dir := t.TempDir()
	writeAgent(t, dir, "a", map[string]any{"known_entities": []any{map[string]any{"name": "Alpha", "summary": "first", "visibility": "public"}}})
	writeAgent(t, dir, "b", map[string]any{"known_entities": []any{map[string]any{"name": "Beta", "summary": "second", "visibility": "public"}}})
	store := openStore(t, dir)
	s := New(store, Options{})
	v1 := s.index.sync(store.Manifests(nil))
	if v2 := s.index.sync(store.Manifests(nil)); v2 != v1 {
		t.Fatal("unchanged library re-indexed")
	}
	writeAgent(t, dir, "b", map[string]any{"known_entities": []any{map[string]any{"name": "Gamma", "summary": "third", "visibility": "public"}}})
	p := ask(t, s, "gamma", visibility.Public)
	if len(p.Items) != 1 || p.Items[0].Name != "Gamma" {
		t.Fatalf("items %+v", p.Items)
	}
	v3 := s.index.sync(store.Manifests(nil))
	if v3.segs[0] != v1.segs[0] || v3.segs[1] == v1.segs[1] {
		t.Fatal("want agent a's segment reused and b's rebuilt")
	}
}

func TestConcurrentCalls(t *testing.T) {
	s := New(bigLibrary(t, 200), Options{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				p := ask(t, s, "ledger migration "+itoa(i), visibility.Public)
				if len(p.Items) == 0 {
					t.Error("no items")
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestPayloadMatchesInferredSchema checks the payload against the output
// schema the MCP layer infers from Payload.
func TestPayloadMatchesInferredSchema(t *testing.T) {
	schema, err := jsonschema.For[Payload](nil)
	if err != nil {
		t.Fatal(err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	s := New(seedStore(t), Options{L2: fakeL2(func(context.Context, L2Query) ([]Passage, error) {
		return []Passage{{Text: "an external passage", Source: "wiki"}}, nil
	})})
	for _, prompt := range []string{"what about Bourdon", "nothing here", ""} {
		p := ask(t, s, prompt, visibility.Team)
		b, _ := json.Marshal(p)
		var v any
		json.Unmarshal(b, &v)
		if err := resolved.Validate(v); err != nil {
			t.Errorf("%q: %v", prompt, err)
		}
	}
}

// TestCallsWhileTheLibraryChanges runs calls while a manifest is being
// rewritten (run with -race).
func TestCallsWhileTheLibraryChanges(t *testing.T) {
	dir := t.TempDir()
	writeAgent(t, dir, "a", map[string]any{"known_entities": []any{map[string]any{"name": "Alpha", "summary": "ledger", "visibility": "public"}}})
	writeAgent(t, dir, "b", map[string]any{"known_entities": []any{map[string]any{"name": "Beta", "summary": "ledger", "visibility": "public"}}})
	s := New(openStore(t, dir), Options{})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if p := ask(t, s, "ledger", visibility.Public); len(p.Items) == 0 {
					t.Error("no items")
					return
				}
			}
		}()
	}
	for i := range 30 {
		writeAgent(t, dir, "b", map[string]any{"known_entities": []any{map[string]any{"name": "Beta " + itoa(i), "summary": "ledger", "visibility": "public"}}})
	}
	close(stop)
	wg.Wait()
	p := ask(t, s, "beta 29", visibility.Public)
	if len(p.Items) == 0 || p.Items[0].Name != "Beta 29" {
		t.Fatalf("items %+v", p.Items)
	}
}
