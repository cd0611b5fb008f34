package turn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/recognition"
	"github.com/getbourdon/bourdon-go/internal/testkit/libgen"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

var testNow = time.Date(2026, 5, 28, 9, 0, 0, 0, time.UTC)

type lib struct {
	t   *testing.T
	dir string
}

func newLib(t *testing.T) *lib {
	return &lib{t: t, dir: t.TempDir()}
}

// agent writes one manifest (JSON, which YAML reads).
func (l *lib) agent(id string, entities, sessions []map[string]any) *lib {
	l.t.Helper()
	doc := map[string]any{
		"spec_version": "0.1", "agent": map[string]any{"id": id, "type": "code-assistant"},
		"last_updated": "2026-05-27T12:00:00+00:00", "known_entities": entities, "recent_sessions": sessions,
	}
	if entities == nil {
		doc["known_entities"] = []any{}
	}
	if sessions == nil {
		doc["recent_sessions"] = []any{}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		l.t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(l.dir, "agents"), 0o755); err != nil {
		l.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(l.dir, "agents", id+".l5.yaml"), b, 0o644); err != nil {
		l.t.Fatal(err)
	}
	return l
}

func (l *lib) compiler(env Env) *Compiler {
	l.t.Helper()
	data := map[string]json.RawMessage{}
	entries, _ := os.ReadDir(filepath.Join(l.dir, "agents"))
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(l.dir, "agents", e.Name()))
		data[e.Name()] = b
	}
	if env.Now == nil {
		env.Now = func() time.Time { return testNow }
	}
	if env.CodexHome == "" {
		env.CodexHome = "-"
	}
	return New(seedStore(l.t, data), env)
}

func ent(name, typ, summary, vis string, extra ...any) map[string]any {
	m := map[string]any{"name": name, "type": typ, "summary": summary, "visibility": vis}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i].(string)] = extra[i+1]
	}
	return m
}

func compile(t *testing.T, c *Compiler, prompt string, cwd *string, mut ...func(*Request)) *Brief {
	t.Helper()
	req := Request{Prompt: prompt, Cwd: cwd, AccessLevel: "team", MaxItems: DefaultMaxItems, MaxChars: DefaultMaxChars}
	for _, m := range mut {
		m(&req)
	}
	b, err := c.Compile(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func none() *string { s := ""; return &s }

func names(b *Brief) []string {
	var out []string
	for _, it := range b.Items {
		out = append(out, it.Name)
	}
	return out
}

func TestPromptEntityOutranksRecencyOnly(t *testing.T) {
	c := newLib(t).agent("codex", []map[string]any{
		ent("Bourdon", "project", "Recognition orchestration substrate.", "team"),
		ent("Recent But Unrelated", "project", "Fresh unrelated work.", "team"),
	}, []map[string]any{
		{"date": "2026-05-27", "project_focus": []any{"Recent But Unrelated"}, "key_actions": []any{"Recent unrelated session."}, "visibility": "team"},
	}).compiler(Env{})
	b := compile(t, c, "Keep working on Bourdon recognition", none())
	if got := names(b); !slices.Equal(got, []string{"Bourdon"}) {
		t.Fatalf("items %v, want [Bourdon]", got)
	}
}

// gitRepo makes dir/name a repository with an origin remote and a branch.
func gitRepo(t *testing.T, dir, name, remote, branch string) string {
	t.Helper()
	root := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "[core]\n\trepositoryformatversion = 0\n"
	if remote != "" {
		cfg += "[remote \"origin\"]\n\turl = " + remote + "\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
	}
	write(t, filepath.Join(root, ".git", "config"), cfg)
	write(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/"+branch+"\n")
	return root
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestVaguePromptUsesRepoIdentity(t *testing.T) {
	root := gitRepo(t, t.TempDir(), "shipstable", "git@github.com:radlab/shipstable.git", "main")
	c := newLib(t).agent("codex", []map[string]any{
		ent("ShipStable", "project", "Repo-specific launch work.", "team"),
	}, nil).compiler(Env{})
	b := compile(t, c, "What should I do next?", &root)
	if b.Repo.Name == nil || *b.Repo.Name != "shipstable" {
		t.Fatalf("repo %+v", b.Repo)
	}
	if b.Repo.Remote == nil || *b.Repo.Remote != "git@github.com:radlab/shipstable.git" {
		t.Errorf("remote %v", b.Repo.Remote)
	}
	if b.Repo.Branch == nil || *b.Repo.Branch != "main" {
		t.Errorf("branch %v", b.Repo.Branch)
	}
	if len(b.Items) == 0 || b.Items[0].Name != "ShipStable" || !strings.Contains(strings.ToLower(b.Items[0].Reason), "repo") {
		t.Fatalf("items %+v", b.Items)
	}
	// Pinned decision: an anchor the prompt does not name is "low", not
	// "none", and low confidence keeps the brief out of memory files.
	if b.Routing.Confidence != "low" || !slices.Equal(b.Routing.SuppressedSurfaces, []string{"memory_md", "fallback_file"}) {
		t.Errorf("routing %+v", b.Routing)
	}
	if !strings.Contains(b.Delivery.RepoOverlayBlock, "Remote: git@github.com:radlab/shipstable.git") {
		t.Errorf("overlay %q", b.Delivery.RepoOverlayBlock)
	}
}

func TestUnrelatedPromptDoesNotInjectRepoContext(t *testing.T) {
	root := gitRepo(t, t.TempDir(), "bourdon", "", "main")
	c := newLib(t).agent("codex", []map[string]any{
		ent("Bourdon", "project", "Recognition orchestration substrate.", "team"),
	}, []map[string]any{
		{"date": "2026-05-27", "project_focus": []any{"Bourdon"}, "key_actions": []any{"Recent repo work."}, "cwd": root, "visibility": "team"},
	}).compiler(Env{})
	b := compile(t, c, "What's the weather like?", &root)
	if len(b.Items) != 0 || b.Routing.Mode != "observe" || b.Delivery.RepoOverlayBlock != "" {
		t.Fatalf("items %v routing %+v overlay %q", names(b), b.Routing, b.Delivery.RepoOverlayBlock)
	}
}

func TestCrossAgentContextWithoutStage1(t *testing.T) {
	e := ent("Bourdon", "project", "Shared recognition context.", "team")
	c := newLib(t).agent("codex", []map[string]any{e}, nil).agent("claude-code", []map[string]any{e}, nil).
		compiler(Env{CodexHome: filepath.Join(t.TempDir(), "missing")})
	b := compile(t, c, "Bourdon plan", none())
	if b.Health.NativeStage1 != "unknown" {
		t.Errorf("native_stage1 %q", b.Health.NativeStage1)
	}
	it := b.Items[0]
	if it.Name != "Bourdon" || it.Source != "l6_federation" || !slices.Equal(it.SourceAgents, []string{"claude-code", "codex"}) ||
		!strings.Contains(it.Reason, "cross-agent agreement") {
		t.Fatalf("item %+v", it)
	}
	if b.Diagnostics.CodexState != nil {
		t.Errorf("codex_state %+v for a missing Codex home", b.Diagnostics.CodexState)
	}
}

func TestPrivateItemsFilteredAtTeam(t *testing.T) {
	c := newLib(t).agent("codex", []map[string]any{
		ent("Private Anchor", "project", "Should not leak.", "private"),
		ent("Public Anchor", "project", "Visible at team.", "team"),
	}, nil).compiler(Env{})
	b := compile(t, c, "Private Anchor and Public Anchor", none())
	got := names(b)
	if slices.Contains(got, "Private Anchor") || !slices.Contains(got, "Public Anchor") {
		t.Fatalf("items %v", got)
	}
	raw, _ := json.Marshal(b)
	if strings.Contains(string(raw), "Should not leak") {
		t.Fatal("private summary in the brief")
	}
}

func TestCredentialTextRedacted(t *testing.T) {
	c := newLib(t).agent("codex", []map[string]any{
		ent("Bourdon", "project", "api_key should never be echoed.", "team"),
	}, nil).compiler(Env{})
	b := compile(t, c, "Bourdon", none())
	if b.Items[0].Summary != redact.Sentinel || strings.Contains(b.Delivery.ExplicitText, "api_key") {
		t.Fatalf("summary %q text %q", b.Items[0].Summary, b.Delivery.ExplicitText)
	}
}

func TestMaxItemsAndMaxChars(t *testing.T) {
	var es []map[string]any
	for i := range 5 {
		es = append(es, ent(fmt.Sprintf("Bourdon Anchor %d", i), "project", "Recognition context.", "team"))
	}
	c := newLib(t).agent("codex", es, nil).compiler(Env{})
	b := compile(t, c, "Bourdon", none(), func(r *Request) { r.MaxItems, r.MaxChars = 2, 420 })
	if len(b.Items) != 2 || runeLen(b.Delivery.ExplicitText) > 420 {
		t.Fatalf("%d items, text %d chars: %q", len(b.Items), runeLen(b.Delivery.ExplicitText), b.Delivery.ExplicitText)
	}
	b2 := compile(t, c, "Bourdon", none(), func(r *Request) { r.MaxItems, r.MaxChars = 5, 400 })
	if text := b2.Delivery.ExplicitText; len(b2.Items) != 5 || runeLen(text) > 400 || !strings.HasSuffix(text, "...") ||
		b2.Delivery.MCPPayload.PromptContext != text || !strings.Contains(b2.Delivery.MemoryMDBlock, text) {
		t.Fatalf("%d items, text %d chars: %q", len(b2.Items), runeLen(text), text)
	}
	if b.Diagnostics.CandidateCount != 5 || b.Trace.SourceMix.Ignored["codex_l5"] != 3 {
		t.Errorf("candidates %d, mix %+v", b.Diagnostics.CandidateCount, b.Trace.SourceMix)
	}
}

func TestLatencyOnFixtureLibrary(t *testing.T) {
	var es []map[string]any
	for i := range 120 {
		es = append(es, ent(fmt.Sprintf("Project %d", i), "project", "Fixture project.", "team"))
	}
	c := newLib(t).agent("codex", es, nil).compiler(Env{})
	start := time.Now()
	b := compile(t, c, "Project 42", none())
	if len(b.Items) == 0 || b.Items[0].Name != "Project 42" {
		t.Fatalf("items %v", names(b))
	}
	if d := time.Since(start); d > 200*time.Millisecond {
		t.Errorf("compile took %v, budget 200ms", d)
	}
}

func TestHighConfidenceRoutesToExplicitAndMCP(t *testing.T) {
	c := newLib(t).
		agent("codex", []map[string]any{ent("Bourdon", "project", "Recognition orchestration substrate.", "team")}, nil).
		agent("claude-code", []map[string]any{ent("Bourdon", "project", "Cross-agent planning context.", "team")}, nil).
		compiler(Env{})
	b := compile(t, c, "Bourdon", none())
	r := b.Routing
	if r.Mode != "inject" || r.PrimarySurface != "explicit_pre_turn" || !slices.Contains(r.Surfaces, "mcp") || r.Confidence != "high" {
		t.Fatalf("routing %+v", r)
	}
	// A name inside a longer prompt is NAME_SUBSTRING: medium, whatever
	// the raw score.
	b = compile(t, c, "Bourdon recognition orchestration", none())
	if b.Routing.Confidence != "medium" {
		t.Errorf("confidence %q, want medium", b.Routing.Confidence)
	}
}

func TestRepoOverlayCandidate(t *testing.T) {
	root := gitRepo(t, t.TempDir(), "bourdon", "https://x-token:sekrit@github.com/getbourdon/bourdon.git", "dev")
	c := newLib(t).agent("codex", []map[string]any{
		ent("Bourdon", "project", "Recognition orchestration substrate.", "team"),
	}, nil).compiler(Env{})
	b := compile(t, c, "Bourdon recognition orchestration", &root)
	overlay := b.Delivery.RepoOverlayBlock
	for _, want := range []string{
		"<!-- BEGIN BOURDON REPO OVERLAY CANDIDATE -->", "Repo overlay candidate for bourdon",
		"Repo root: " + root, "Remote: https://github.com/getbourdon/bourdon.git", "Bourdon turn recognition brief",
	} {
		if !strings.Contains(overlay, want) {
			t.Errorf("overlay lacks %q:\n%s", want, overlay)
		}
	}
	if !slices.Contains(b.Routing.Surfaces, "repo_overlay_candidate") {
		t.Errorf("surfaces %v", b.Routing.Surfaces)
	}
	raw, _ := json.Marshal(b)
	if strings.Contains(string(raw), "sekrit") {
		t.Error("remote credentials in the brief")
	}
	// The remote reinforces a candidate named after the repository.
	if !strings.Contains(b.Items[0].Reason, "git remote reinforced repo identity") {
		t.Errorf("reason %q", b.Items[0].Reason)
	}
}

func TestTraceExplainsSelectedAndIgnored(t *testing.T) {
	c := newLib(t).agent("codex", []map[string]any{
		ent("Bourdon", "project", "Recognition orchestration substrate.", "team"),
		ent("Bourdon Sidecar", "project", "Different project.", "team"),
	}, []map[string]any{
		{"date": "2026-05-27", "project_focus": []any{"Unrelated"}, "key_actions": []any{"Fresh but lower-signal work."}, "visibility": "team"},
	}).compiler(Env{})
	b := compile(t, c, "Bourdon", none(), func(r *Request) { r.MaxItems = 1 })
	tr := b.Trace
	if tr.RoutingDecision.PrimarySurface != "explicit_pre_turn" || tr.SurfaceHealth.CandidateCount < 2 ||
		tr.SelectedItems[0].Name != "Bourdon" || !slices.Contains(tr.SelectedItems[0].DominantComponents, "prompt") ||
		len(tr.SourceMix.Ignored) == 0 {
		t.Fatalf("trace %+v", tr)
	}
}

func TestArgumentErrorsSayWhatToSend(t *testing.T) {
	c := newLib(t).agent("codex", nil, nil).compiler(Env{})
	for _, tc := range []struct {
		mut  func(*Request)
		arg  string
		want string
	}{
		{func(r *Request) { r.AccessLevel = "Team" }, "access_level",
			"access_level must be one of ['private', 'public', 'team'] (got 'Team'): send public, team or private, in lower case"},
		{func(r *Request) { r.AccessLevel = "" }, "access_level", "(got '')"},
		{func(r *Request) { r.MaxItems = 0 }, "max_items",
			"max_items must be between 1 and 20 (got 0): send an integer from 1 to 20, or leave it out for 6"},
		{func(r *Request) { r.MaxItems = 21 }, "max_items", "(got 21)"},
		{func(r *Request) { r.MaxChars = 399 }, "max_chars",
			"max_chars must be between 400 and 6000 (got 399): send an integer from 400 to 6000, or leave it out for 1800"},
		{func(r *Request) { r.MaxChars = 6001 }, "max_chars", "(got 6001)"},
		{func(r *Request) { r.Delivery = "email" }, "delivery", "delivery must be one of"},
	} {
		req := Request{Prompt: "x", AccessLevel: "team", MaxItems: 6, MaxChars: 1800}
		tc.mut(&req)
		_, err := c.Compile(context.Background(), req)
		var ae *ArgError
		if !errors.As(err, &ae) || ae.Arg != tc.arg || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %s: %q", req, err, tc.arg, tc.want)
		}
	}
	// The bounds themselves are accepted.
	for _, r := range []Request{
		{AccessLevel: "public", MaxItems: 1, MaxChars: 400},
		{AccessLevel: "private", MaxItems: 20, MaxChars: 6000, Delivery: "memory-md"},
	} {
		if _, err := c.Compile(context.Background(), r); err != nil {
			t.Errorf("%+v: %v", r, err)
		}
	}
}

func TestPromptIsStrippedAndBounded(t *testing.T) {
	c := newLib(t).agent("codex", nil, nil).compiler(Env{})
	long := "  " + strings.Repeat("é", MaxPromptChars+50) + "  "
	b := compile(t, c, long, none())
	if runeLen(b.Prompt) != MaxPromptChars || strings.HasPrefix(b.Prompt, " ") {
		t.Fatalf("prompt of %d code points", runeLen(b.Prompt))
	}
}

// Pinned decisions where the reference differs or is silent.
func TestDecisions(t *testing.T) {
	c := newLib(t).agent("claude-code", []map[string]any{
		ent("NAS", "concept", "The storage box.", "team"),
		ent("Atlas", "project", "Atlas project.", "team"),
	}, nil).compiler(Env{})

	t.Run("whole-token prompt match", func(t *testing.T) {
		// The reference before v0.11 matched raw substrings ("nas" in
		// "bananas"); the shared tier ladder does not.
		if b := compile(t, c, "we ate bananas", none()); len(b.Items) != 0 {
			t.Fatalf("items %v", names(b))
		}
		if b := compile(t, c, "is the NAS full", none()); len(b.Items) != 1 {
			t.Fatalf("items %v", names(b))
		}
	})
	t.Run("root cwd earns no basename points", func(t *testing.T) {
		root := "/"
		b := compile(t, c, "about Atlas", &root)
		if b.Items[0].score != 36 || strings.Contains(b.Items[0].Reason, "cwd basename") {
			t.Fatalf("item %+v (reference: +15 for every candidate)", b.Items[0])
		}
		if b.Repo.Name != nil && *b.Repo.Name != "" {
			t.Errorf("repo name %q for /", *b.Repo.Name)
		}
	})
	t.Run("exact prompt is EXACT after tokenizing", func(t *testing.T) {
		b := compile(t, c, "Atlas?", none())
		if b.Items[0].score != 40 || b.Routing.Confidence != "high" {
			t.Fatalf("item %+v routing %+v", b.Items[0], b.Routing)
		}
	})
	t.Run("blank cwd means none", func(t *testing.T) {
		b := compile(t, c, "Atlas", none())
		if b.Cwd != nil || b.Repo.Name != nil || b.Trace.SurfaceHealth.RepoIdentity != "missing" {
			t.Fatalf("cwd %v repo %+v", b.Cwd, b.Repo)
		}
	})
	t.Run("omitted cwd is the server's", func(t *testing.T) {
		dir := gitRepo(t, t.TempDir(), "served", "", "main")
		c2 := newLib(t).agent("codex", nil, nil).compiler(Env{Getwd: func() (string, error) { return dir, nil }})
		b := compile(t, c2, "Atlas", nil)
		if b.Cwd == nil || *b.Cwd != resolvePath(dir) || b.Repo.Name == nil || *b.Repo.Name != "served" {
			t.Fatalf("cwd %v repo %+v", b.Cwd, b.Repo)
		}
	})
}

func TestRepoIdentityIsTimeBounded(t *testing.T) {
	c := newLib(t).agent("claude-code", []map[string]any{ent("Atlas", "project", "Atlas project.", "team")}, nil).
		compiler(Env{RepoTimeout: 20 * time.Millisecond})
	block := make(chan struct{})
	defer close(block)
	c.readRepo = func(string) Repo { <-block; return Repo{} }
	cwd := "/srv/slow/atlas"
	start := time.Now()
	b := compile(t, c, "Atlas", &cwd)
	if d := time.Since(start); d > time.Second {
		t.Fatalf("compile waited %v for a blocked repository read", d)
	}
	if b.Trace.SurfaceHealth.RepoIdentity != "timed_out" || b.Repo.Name == nil || *b.Repo.Name != "atlas" || b.Repo.Root != nil {
		t.Fatalf("repo %+v health %+v", b.Repo, b.Trace.SurfaceHealth)
	}
	if len(b.Items) != 1 {
		t.Fatalf("items %v", names(b))
	}
}

func TestWorktreeRepository(t *testing.T) {
	dir := t.TempDir()
	main := gitRepo(t, dir, "proj", "git@example.com:team/proj.git", "main")
	wtGit := filepath.Join(main, ".git", "worktrees", "feature")
	write(t, filepath.Join(wtGit, "HEAD"), "ref: refs/heads/feature-x\n")
	write(t, filepath.Join(wtGit, "commondir"), "../..\n")
	wt := filepath.Join(dir, "proj-feature")
	write(t, filepath.Join(wt, ".git"), "gitdir: "+wtGit+"\n")
	sub := filepath.Join(wt, "internal", "x")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	r := readRepo(sub)
	if r.Root == nil || *r.Root != wt || *r.Name != "proj-feature" || r.Remote == nil ||
		*r.Remote != "git@example.com:team/proj.git" || r.Branch == nil || *r.Branch != "feature-x" {
		t.Fatalf("repo %+v", r)
	}
	// Detached HEAD: no branch.
	write(t, filepath.Join(main, ".git", "HEAD"), "0123456789abcdef0123456789abcdef01234567\n")
	if r := readRepo(main); r.Branch != nil {
		t.Fatalf("branch %q for a detached HEAD", *r.Branch)
	}
}

// codexHome writes a Codex home with rollout files, a session index and
// a prompt history.
func codexHome(t *testing.T, withDB bool) string {
	home := t.TempDir()
	id1 := "0197a1b2-0000-7000-8000-000000000001"
	id2 := "0197a1b2-0000-7000-8000-000000000002"
	id3 := "0197a1b2-0000-7000-8000-000000000003"
	day := filepath.Join(home, "sessions", "2026", "05", "27")
	write(t, filepath.Join(day, "rollout-2026-05-27T10-00-00-"+id1+".jsonl"),
		`{"timestamp":"2026-05-27T10:00:00Z","type":"session_meta","payload":{"id":"`+id1+`","timestamp":"2026-05-27T10:00:00Z","cwd":"/work/kestrel","instructions":"long"}}`+"\n"+
			`{"timestamp":"2026-05-27T10:00:01Z","type":"response_item","payload":{}}`+"\n")
	write(t, filepath.Join(day, "rollout-2026-05-27T11-00-00-"+id2+".jsonl"),
		`{"id":"`+id2+`","timestamp":"2026-05-27T11:00:00Z"}`+"\n") // an older version's bare meta line
	write(t, filepath.Join(day, "rollout-2026-05-27T12-00-00-"+id3+".jsonl"), "not json\n")
	write(t, filepath.Join(home, "session_index.jsonl"),
		`{"id":"`+id1+`","thread_name":"Old name","updated_at":"2026-05-27T10:00:00Z"}`+"\n"+
			`{"id":"`+id1+`","thread_name":"Kestrel ledger migration","updated_at":"2026-05-27T10:30:00Z"}`+"\n")
	write(t, filepath.Join(home, "history.jsonl"),
		`{"session_id":"`+id2+`","ts":1780000000,"text":"fix the sk-`+strings.Repeat("a", 30)+` leak in Falcon"}`+"\n"+
			`{"session_id":"`+id2+`","ts":1780000100,"text":"second prompt"}`+"\n")
	if withDB {
		write(t, filepath.Join(home, "state_5.sqlite"), "SQLite format 3\x00")
	}
	ts := time.Date(2026, 5, 27, 12, 0, 0, 0, time.UTC)
	filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, ts, ts)
		}
		return nil
	})
	return home
}

func TestCodexThreadsFromRolloutFiles(t *testing.T) {
	home := codexHome(t, true)
	c := newLib(t).agent("claude-code", nil, nil).compiler(Env{CodexHome: home})
	cwd := "/work/kestrel"
	b := compile(t, c, "continue the Kestrel ledger migration", &cwd)
	if len(b.Items) == 0 {
		t.Fatal("no items")
	}
	it := b.Items[0]
	if it.Kind != "thread" || it.Name != "Kestrel ledger migration" || it.Source != "codex_rollout" ||
		!slices.Equal(it.SourceAgents, []string{"codex"}) || !slices.Contains(it.Evidence, "cwd /work/kestrel") ||
		!strings.Contains(it.Reason, "cwd matched prior Codex thread") {
		t.Fatalf("item %+v", it)
	}
	st := b.Diagnostics.CodexState
	if st == nil || st.ThreadsSource != "rollout_files" || st.ThreadsRead != 2 ||
		st.StateDB != "present, not read (no SQLite reader in this build)" || !strings.Contains(st.Note, "no readable session_meta") {
		t.Fatalf("codex_state %+v", st)
	}
	if b.Health.NativeStage1 != "unknown" {
		t.Errorf("native_stage1 %q", b.Health.NativeStage1)
	}
	// The thread named by its first prompt is redacted whole.
	b = compile(t, c, "Falcon leak", &cwd)
	raw, _ := json.Marshal(b)
	if strings.Contains(string(raw), "sk-aaaa") {
		t.Fatal("credential from history.jsonl in the brief")
	}
}

func TestCodexThreadsTimeBound(t *testing.T) {
	home := codexHome(t, false)
	c := newLib(t).agent("claude-code", nil, nil).compiler(Env{CodexHome: home, ThreadsTimeout: time.Nanosecond})
	b := compile(t, c, "Kestrel ledger migration", none())
	st := b.Diagnostics.CodexState
	if st == nil || st.ThreadsRead != 0 || !strings.Contains(st.Note, "time") {
		t.Fatalf("codex_state %+v", st)
	}
	if len(b.Items) != 0 {
		t.Fatalf("items %v", names(b))
	}
}

func TestCodexHomeResolution(t *testing.T) {
	home := t.TempDir()
	codex := filepath.Join(home, ".codex")
	envHome := t.TempDir()
	if err := os.MkdirAll(codex, 0o755); err != nil {
		t.Fatal(err)
	}
	c := New(nil, Env{
		Getenv:  func(k string) string { return map[string]string{"CODEX_HOME": envHome}[k] },
		HomeDir: func() (string, error) { return home, nil },
	})
	if got := c.codexHome(); got != envHome {
		t.Errorf("CODEX_HOME: %q", got)
	}
	c.env.Getenv = func(string) string { return "" }
	if got := c.codexHome(); got != codex {
		t.Errorf("~/.codex: %q", got)
	}
	c.env.CodexHome = "-"
	if got := c.codexHome(); got != "" {
		t.Errorf("disabled: %q", got)
	}
}

// TestBriefMatchesInferredSchema checks that a brief validates against
// the output schema the MCP layer infers from Brief.
func TestBriefMatchesInferredSchema(t *testing.T) {
	root := gitRepo(t, t.TempDir(), "bourdon", "git@x:y/bourdon.git", "main")
	c := newLib(t).agent("codex", []map[string]any{ent("Bourdon", "project", "Substrate.", "team")}, nil).
		compiler(Env{CodexHome: codexHome(t, true)})
	schema, err := jsonschema.For[Brief](nil)
	if err != nil {
		t.Fatal(err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, prompt := range []string{"Bourdon", "weather"} {
		b := compile(t, c, prompt, &root)
		if err := resolved.Validate(asJSON(t, b)); err != nil {
			t.Errorf("%q: %v", prompt, err)
		}
	}
}

// TestPrefilterIsExact compiles many prompts over a generated library
// with and without the candidate prefilter: the briefs must be equal.
func TestPrefilterIsExact(t *testing.T) {
	dir := t.TempDir()
	spec := libgen.Spec{Agents: 6, Entities: 60, Sessions: 40, Workstreams: 3, Notes: 3, Seed: 3, Today: testNow}
	if _, err := libgen.Write(dir, spec); err != nil {
		t.Fatal(err)
	}
	lib, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	store := federation.New(lib)
	repo := gitRepo(t, t.TempDir(), "kestrel", "git@x:y/kestrel.git", "main")
	env := Env{Now: func() time.Time { return testNow }, CodexHome: "-"}
	fast, slow := New(store, env), New(store, env)
	items, vagueItems := 0, 0
	slow.exhaustive = true
	prompts := []string{
		"what's next", "continue", "what should I do next", "Atlas Iris 31", "E35", "atlas-35",
		"refactored the kestrel module", "review quartz notes", "kestrel", "continue the kestrel work",
		libgen.EntityName(7), "tell me about " + libgen.EntityName(101) + " and " + libgen.EntityName(3),
		"weather", "",
	}
	for _, cwd := range []*string{nil, none(), &repo} {
		for _, level := range []string{"public", "team", "private"} {
			for _, p := range prompts {
				req := Request{Prompt: p, Cwd: cwd, AccessLevel: level, MaxItems: 20, MaxChars: 6000}
				a, err1 := fast.Compile(context.Background(), req)
				b, err2 := slow.Compile(context.Background(), req)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				ja, _ := json.Marshal(a)
				jb, _ := json.Marshal(b)
				if string(ja) != string(jb) {
					t.Fatalf("prompt %q at %s: prefiltered brief differs:\n%s\n%s", p, level, ja, jb)
				}
				items += len(a.Items)
				for _, c := range a.Diagnostics.ScoringComponents {
					if c.Prompt == 0 {
						vagueItems++
					}
				}
			}
		}
	}
	if items < 100 || vagueItems == 0 {
		t.Fatalf("%d items, %d by the vague gate: the comparison covers too little", items, vagueItems)
	}
	t.Logf("%d items compared, %d admitted by the vague gate", items, vagueItems)
}

// TestRecognitionRowsFiltered checks federation.Store.RecognitionRows: the
// filtered path (keep, reader) merges rows exactly as the full
// recognition index does.
func TestRecognitionRowsFiltered(t *testing.T) {
	dir := t.TempDir()
	if _, err := libgen.Write(dir, libgen.Spec{Agents: 5, Entities: 80, Seed: 9, Today: testNow}); err != nil {
		t.Fatal(err)
	}
	lib, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	store := federation.New(lib)
	for _, level := range []visibility.Level{visibility.Public, visibility.Team, visibility.Private} {
		full := store.RecognitionRows(level, nil, nil)
		all := store.RecognitionRows(level, nil, func(*l5.Entity) bool { return true })
		if len(full) == 0 || !reflect.DeepEqual(full, all) {
			t.Fatalf("%s: filtered path differs from the index (%d vs %d rows)", level, len(all), len(full))
		}
		// keep selects rows by any visible contribution.
		some := store.RecognitionRows(level, nil, func(e *l5.Entity) bool { return strings.Contains(e.Name, "Atlas") })
		var want []recognition.Row
		for _, r := range full {
			if strings.Contains(r.Name, "Atlas") {
				want = append(want, r)
			}
		}
		if !reflect.DeepEqual(some, want) {
			t.Fatalf("%s: keep selected %d rows, want %d", level, len(some), len(want))
		}
		// A reader limits the contributing agents.
		for _, r := range store.RecognitionRows(level, func(a string) bool { return a == "agent-001" }, nil) {
			if !slices.Equal(r.SourceAgents, []string{"agent-001"}) {
				t.Fatalf("row %q from %v", r.Name, r.SourceAgents)
			}
		}
	}
}
