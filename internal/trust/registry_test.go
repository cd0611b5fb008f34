package trust

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
)

var fixtureRegistry = filepath.Join(conformance, "on_disk", "federation.yaml")

// copyFixture copies the reference's registry into a temporary directory.
func copyFixture(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(fixtureRegistry)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "federation.yaml")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// testRegistry returns an empty registry in a temporary directory with a
// clock that starts at 2026-06-29T00:00:00Z and ticks a minute per call.
func testRegistry(t *testing.T) *Registry {
	t.Helper()
	r := OpenRegistry(filepath.Join(t.TempDir(), "home", ".bourdon", "federation.yaml"))
	r.now = fixedClock(time.Date(2026, 6, 29, 0, 0, 0, 0, time.UTC), time.Minute)
	return r
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestRegistryReadsTheFixture(t *testing.T) {
	r := OpenRegistry(fixtureRegistry)
	got, err := r.List()
	if err != nil {
		t.Fatal(err)
	}
	want := []Member{
		{ID: "claude-code", Tier: TierTrusted, TierName: "trusted", Grants: []string{}, HasToken: true, CreatedAt: "2026-06-29T00:00:00Z"},
		{ID: "openclaw", Tier: TierQuarantined, TierName: "quarantined", Grants: []string{"claude-code"}, HasToken: true, CreatedAt: "2026-06-29T00:00:00Z"},
		{ID: "retired", Tier: TierTrusted, TierName: "trusted", Grants: []string{}, Revoked: true, HasToken: true, CreatedAt: "2026-06-29T00:00:00Z", RevokedAt: "2026-06-29T00:05:00Z"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if !r.IsConfigured() || !r.HasActiveAgents() || r.Err() != nil {
		t.Errorf("configured %v active %v err %v", r.IsConfigured(), r.HasActiveAgents(), r.Err())
	}
	// Every field of every row, as Python's yaml.safe_load gives it.
	data, _ := os.ReadFile(fixtureRegistry)
	doc, err := parseRegistry(data)
	if err != nil {
		t.Fatal(err)
	}
	raw := map[string]any{}
	for _, rw := range doc.rows {
		raw[rw.id] = sortedDeep(rw.raw)
	}
	wantRaw := map[string]any{
		"claude-code": map[string]any{"created_at": "2026-06-29T00:00:00Z", "grants": []any{}, "revoked": false, "tier": "trusted",
			"token_sha256": "80c71ecc7b197ed7bd5bdcd41e42cfe5af208bb098d29fbb9c0b523f13b98b35"},
		"openclaw": map[string]any{"created_at": "2026-06-29T00:00:00Z", "grants": []any{"claude-code"}, "revoked": false, "tier": "quarantined",
			"token_sha256": "bf87f09f006e25f14839dbf9e8ebdfa04f5a2a5e50384ab6df00e36d24f3423c"},
		"retired": map[string]any{"created_at": "2026-06-29T00:00:00Z", "grants": []any{}, "revoked": true, "revoked_at": "2026-06-29T00:05:00Z", "tier": "trusted",
			"token_sha256": "7d65ddc8d41109dad18817a3b193db09185a0dedd066da5438efb530e1cababf"},
	}
	if diff := cmp.Diff(wantRaw, raw); diff != "" {
		t.Errorf("raw rows (-want +got)\n%s", diff)
	}
}

// TestRegistryWritesTheReferenceLayout: what the reference wrote comes
// back byte for byte, through a change that touches nothing.
func TestRegistryWritesTheReferenceLayout(t *testing.T) {
	want, err := os.ReadFile(fixtureRegistry)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := parseRegistry(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := doc.encode()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	path := copyFixture(t)
	if err := OpenRegistry(path).Ungrant("openclaw", "not-granted"); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(path)
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("after a no-op change (-want +got)\n%s", diff)
	}
}

func TestAuthVectors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(conformance, "on_disk", "auth_vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		RegistryFile string `json:"registry_file"`
		Vectors      []struct {
			Name      string   `json:"name"`
			Fragments []string `json:"token_fragments"`
			Expect    *struct {
				AgentID string   `json:"agent_id"`
				Tier    string   `json:"tier"`
				Grants  []string `json:"grants"`
			} `json:"expect"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(data, &fx); err != nil {
		t.Fatal(err)
	}
	if len(fx.Vectors) != 5 {
		t.Fatalf("%d vectors, want 5", len(fx.Vectors))
	}
	r := OpenRegistry(filepath.Join(conformance, "on_disk", fx.RegistryFile))
	for _, v := range fx.Vectors {
		got, ok := r.Authenticate(strings.Join(v.Fragments, ""))
		if (v.Expect != nil) != ok {
			t.Errorf("%s: authenticated %v (%+v), want %v", v.Name, ok, got, v.Expect != nil)
			continue
		}
		if !ok {
			continue
		}
		want := Caller{ID: v.Expect.AgentID, Grants: v.Expect.Grants, Transport: HTTP}
		want.Tier, err = ParseTier(v.Expect.Tier)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: (-want +got)\n%s", v.Name, diff)
		}
	}
}

var tokenPattern = regexp.MustCompile(`^bdn_[0-9a-f]{48}$`)

func TestRegistryLifecycle(t *testing.T) {
	r := testRegistry(t)
	if r.IsConfigured() || r.HasActiveAgents() || r.Err() != nil {
		t.Fatal("a missing file is not an empty registry")
	}
	tok, err := r.Add("openclaw", TierQuarantined, []string{"claude-code", "claude-code"})
	if err != nil {
		t.Fatal(err)
	}
	if !tokenPattern.MatchString(tok) {
		t.Fatalf("token %q", tok)
	}
	data, _ := os.ReadFile(r.Path())
	want := `agents:
  openclaw:
    created_at: '2026-06-29T00:00:00Z'
    grants:
    - claude-code
    revoked: false
    tier: quarantined
    token_sha256: ` + hashToken(tok) + `
version: 1
`
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("file (-want +got)\n%s", diff)
	}
	if strings.Contains(string(data), tok) || strings.Contains(string(data), tok[4:]) {
		t.Error("the token is stored in plain text")
	}
	c, ok := r.Authenticate(tok)
	if diff := cmp.Diff(Caller{ID: "openclaw", Tier: TierQuarantined, Grants: []string{"claude-code"}, Transport: HTTP}, c); !ok || diff != "" {
		t.Fatalf("authenticate: %v (-want +got)\n%s", ok, diff)
	}

	// Another Registry value on the same file: what the server would hold.
	server := OpenRegistry(r.Path())
	if _, ok := server.Authenticate(tok); !ok {
		t.Fatal("server does not see the member")
	}

	tok2, err := r.Rotate("openclaw")
	if err != nil || !tokenPattern.MatchString(tok2) || tok2 == tok {
		t.Fatalf("rotate: %q %v", tok2, err)
	}
	if _, ok := server.Authenticate(tok); ok {
		t.Error("the old token still authenticates after rotate")
	}
	if c, ok := server.Authenticate(tok2); !ok || c.Tier != TierQuarantined || len(c.Grants) != 1 {
		t.Errorf("the rotated token: %+v %v", c, ok)
	}

	steps := []struct {
		name string
		run  func() error
		want string
	}{
		{"grant", func() error { return r.Grant("openclaw", "codex") }, ""},
		{"grant again", func() error { return r.Grant("openclaw", "codex") }, ""},
		{"ungrant", func() error { return r.Ungrant("openclaw", "claude-code") }, ""},
		{"ungrant absent", func() error { return r.Ungrant("openclaw", "nope") }, ""},
		{"set tier", func() error { return r.SetTier("openclaw", TierTrusted) }, ""},
		{"duplicate add", func() error { _, err := r.Add("openclaw", TierTrusted, nil); return err },
			"agent 'openclaw' already registered; use `bourdon registry rotate` for a new token or `bourdon registry revoke` first"},
	}
	for _, s := range steps {
		err := s.run()
		if got := fmt.Sprint(err); (s.want == "" && err != nil) || (s.want != "" && got != s.want) {
			t.Errorf("%s: %v, want %q", s.name, err, s.want)
		}
	}
	if c, ok := server.Authenticate(tok2); !ok || c.Tier != TierTrusted || !cmp.Equal(c.Grants, []string{"codex"}) {
		t.Errorf("after grant/ungrant/set-tier: %+v %v", c, ok)
	}

	if err := r.Revoke("openclaw"); err != nil {
		t.Fatal(err)
	}
	if _, ok := server.Authenticate(tok2); ok {
		t.Error("a revoked token authenticates")
	}
	if !server.IsConfigured() || server.HasActiveAgents() {
		t.Errorf("after revoking the last member: configured %v active %v", server.IsConfigured(), server.HasActiveAgents())
	}
	if _, err := r.Rotate("openclaw"); err == nil || err.Error() != "agent 'openclaw' is revoked; re-add it instead" || !errors.Is(err, ErrAgentRevoked) {
		t.Errorf("rotate revoked: %v", err)
	}
	members, _ := server.List()
	want2 := []Member{{ID: "openclaw", Tier: TierTrusted, TierName: "trusted", Grants: []string{"codex"}, Revoked: true, HasToken: true,
		CreatedAt: "2026-06-29T00:00:00Z", RotatedAt: "2026-06-29T00:01:00Z", RevokedAt: "2026-06-29T00:02:00Z"}}
	if diff := cmp.Diff(want2, members); diff != "" {
		t.Errorf("list (-want +got)\n%s", diff)
	}
	if s := fmt.Sprintf("%+v", members); strings.Contains(s, hashToken(tok2)) || strings.Contains(s, "bdn_") {
		t.Error("List exposes token material")
	}

	// A revoked member can be added again, with a new row.
	tok3, err := r.Add("openclaw", TierQuarantined, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := server.Authenticate(tok3); !ok || c.Tier != TierQuarantined || len(c.Grants) != 0 {
		t.Errorf("re-added: %+v %v", c, ok)
	}
	members, _ = server.List()
	if members[0].Revoked || members[0].RevokedAt != "" || members[0].RotatedAt != "" {
		t.Errorf("re-added row keeps old fields: %+v", members[0])
	}
}

func TestRegistryRefusals(t *testing.T) {
	r := testRegistry(t)
	if _, err := r.Add("openclaw", TierQuarantined, nil); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(r.Path())
	for _, c := range []struct {
		name string
		run  func() error
		kind error
		want string
	}{
		{"bad id", func() error { _, err := r.Add("Bad Slug!", TierQuarantined, nil); return err },
			ErrInvalid, "invalid agent_id 'Bad Slug!': must match ^[a-z0-9][a-z0-9_-]*$ (at most 64 characters)"},
		{"id with a trailing newline", func() error { _, err := r.Add("abc\n", TierQuarantined, nil); return err },
			ErrInvalid, `invalid agent_id 'abc\n': must match ^[a-z0-9][a-z0-9_-]*$ (at most 64 characters)`},
		{"empty id", func() error { _, err := r.Add("", TierQuarantined, nil); return err },
			ErrInvalid, "invalid agent_id '': must match ^[a-z0-9][a-z0-9_-]*$ (at most 64 characters)"},
		{"reserved operator", func() error { _, err := r.Add("operator", TierTrusted, nil); return err },
			ErrInvalid, "agent_id 'operator' is reserved for the server's own callers"},
		{"reserved unknown", func() error { _, err := r.Add("unknown", TierQuarantined, nil); return err },
			ErrInvalid, "agent_id 'unknown' is reserved for the server's own callers"},
		{"operator tier", func() error { _, err := r.Add("clyde", TierOperator, nil); return err },
			ErrInvalid, "invalid tier 'operator': must be one of ('trusted', 'quarantined')"},
		{"bad grant on add", func() error { _, err := r.Add("clyde", TierQuarantined, []string{"peer:x:codex"}); return err },
			ErrInvalid, "invalid namespace 'peer:x:codex'"},
		{"bad grant", func() error { return r.Grant("openclaw", "peer:x:codex") },
			ErrInvalid, "invalid namespace 'peer:x:codex'"},
		{"set operator tier", func() error { return r.SetTier("openclaw", TierOperator) },
			ErrInvalid, "invalid tier 'operator': must be one of ('trusted', 'quarantined')"},
		{"rotate ghost", func() error { _, err := r.Rotate("ghost"); return err }, ErrUnknownAgent, "unknown agent 'ghost'"},
		{"revoke ghost", func() error { return r.Revoke("ghost") }, ErrUnknownAgent, "unknown agent 'ghost'"},
		{"grant ghost", func() error { return r.Grant("ghost", "codex") }, ErrUnknownAgent, "unknown agent 'ghost'"},
		{"ungrant ghost", func() error { return r.Ungrant("ghost", "codex") }, ErrUnknownAgent, "unknown agent 'ghost'"},
		{"set-tier ghost", func() error { return r.SetTier("ghost", TierTrusted) }, ErrUnknownAgent, "unknown agent 'ghost'"},
	} {
		err := c.run()
		if err == nil || err.Error() != c.want || !errors.Is(err, c.kind) {
			t.Errorf("%s: %v, want %q (%v)", c.name, err, c.want, c.kind)
		}
	}
	after, _ := os.ReadFile(r.Path())
	if !bytes.Equal(before, after) {
		t.Error("a refused change altered the file")
	}
	for _, c := range []struct {
		in   string
		tier Tier
		want string
	}{
		{"trusted", TierTrusted, ""},
		{"quarantined", TierQuarantined, ""},
		{"observer", 0, "invalid tier 'observer': must be one of ('trusted', 'quarantined')"},
		{"operator", 0, "invalid tier 'operator': must be one of ('trusted', 'quarantined')"},
		{"Trusted", 0, "invalid tier 'Trusted': must be one of ('trusted', 'quarantined')"},
	} {
		got, err := ParseTier(c.in)
		if got != c.tier || fmt.Sprint(err) != map[bool]string{true: "<nil>", false: c.want}[c.want == ""] {
			t.Errorf("ParseTier(%q) = %v, %v", c.in, got, err)
		}
	}
}

// TestRowsWithoutAValidTierFailClosed pins the answer to the reference's
// gap: a row with no tier (or one this server does not know, operator
// included) authenticates as quarantined, never as trusted.
func TestRowsWithoutAValidTierFailClosed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "federation.yaml")
	tok := "bdn_" + strings.Repeat("1", 48)
	h := hashToken(tok)
	for _, c := range []struct {
		name, row string
		problem   string
	}{
		{"missing", "{grants: [codex], token_sha256: " + h + "}", "the row has no tier, so the member authenticates as quarantined"},
		{"null", "{grants: [codex], tier: null, token_sha256: " + h + "}", "the row has no tier, so the member authenticates as quarantined"},
		{"empty", "{grants: [codex], tier: '', token_sha256: " + h + "}", "the row has no tier, so the member authenticates as quarantined"},
		{"observer", "{grants: [codex], tier: observer, token_sha256: " + h + "}", "unknown tier 'observer', so the member authenticates as quarantined"},
		{"operator", "{grants: [codex], tier: operator, token_sha256: " + h + "}", "unknown tier 'operator', so the member authenticates as quarantined"},
		{"case", "{grants: [codex], tier: Trusted, token_sha256: " + h + "}", "unknown tier 'Trusted', so the member authenticates as quarantined"},
	} {
		writeFile(t, path, "agents:\n  clyde: "+c.row+"\nversion: 1\n")
		r := OpenRegistry(path)
		got, ok := r.Authenticate(tok)
		want := Caller{ID: "clyde", Tier: TierQuarantined, Grants: []string{"codex"}, Transport: HTTP}
		if diff := cmp.Diff(want, got); !ok || diff != "" {
			t.Errorf("%s: %v (-want +got)\n%s", c.name, ok, diff)
		}
		if d := Decide("get_cross_agent_summary", got, ""); d.Allowed {
			t.Errorf("%s: a tierless member may call a trusted-only tool", c.name)
		}
		members, err := r.List()
		if err != nil || len(members) != 1 || members[0].Problem != c.problem {
			t.Errorf("%s: list %+v %v", c.name, members, err)
		}
	}
}

func TestRowsThatNeverAuthenticate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "federation.yaml")
	tok := "bdn_" + strings.Repeat("2", 48)
	h := hashToken(tok)
	for _, c := range []struct{ name, agents string }{
		{"ill-formed id", "  'Bad Id': {tier: trusted, token_sha256: " + h + "}\n"},
		{"path-like id", "  ../x: {tier: trusted, token_sha256: " + h + "}\n"},
		{"shared hash", "  a: {tier: trusted, token_sha256: " + h + "}\n  b: {tier: quarantined, token_sha256: " + h + "}\n"},
		{"revoked", "  a: {tier: trusted, revoked: true, token_sha256: " + h + "}\n"},
		{"no hash", "  a: {tier: trusted}\n"},
		{"uppercase hash", "  a: {tier: trusted, token_sha256: " + strings.ToUpper(h) + "}\n"},
	} {
		writeFile(t, path, "agents:\n"+c.agents)
		if got, ok := OpenRegistry(path).Authenticate(tok); ok {
			t.Errorf("%s: authenticated as %+v", c.name, got)
		}
	}
	// A shared hash whose other row is revoked is no longer ambiguous.
	writeFile(t, path, "agents:\n  a: {tier: trusted, token_sha256: "+h+"}\n  b: {revoked: true, token_sha256: "+h+"}\n")
	if got, ok := OpenRegistry(path).Authenticate(tok); !ok || got.ID != "a" {
		t.Errorf("shared with a revoked row: %+v %v", got, ok)
	}
}

func TestEmptyTokenNeverAuthenticates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "federation.yaml")
	// A row holding the hash of the empty string.
	writeFile(t, path, "agents:\n  a: {tier: trusted, token_sha256: "+hashToken("")+"}\n")
	if got, ok := OpenRegistry(path).Authenticate(""); ok {
		t.Errorf("the empty token authenticated as %+v", got)
	}
}

func TestCorruptRegistryFailsClosed(t *testing.T) {
	tok := "bdn_" + strings.Repeat("3", 48)
	good := "agents:\n  a: {tier: trusted, token_sha256: " + hashToken(tok) + "}\n"
	for _, c := range []struct{ name, data, reason string }{
		{"syntax", "agents: [unbalanced", "line"},
		{"top-level list", "- a\n- b\n", "the document is not a mapping"},
		{"agents list", "agents: [a, b]\n", "agents is not a mapping"},
		{"row scalar", good + "  b: 5\n", "agent 'b': the row is not a mapping"},
		{"row null", good + "  b:\n", "agent 'b': the row is not a mapping"},
		{"grants string", good + "  b: {grants: codex}\n", "agent 'b': grants is not a list"},
		{"grants of numbers", good + "  b: {grants: [1]}\n", "agent 'b': grants holds a value that is not a string"},
		{"revoked number", good + "  b: {revoked: 1}\n", "agent 'b': revoked is not a boolean"},
		{"revoked string", good + "  b: {revoked: 'no'}\n", "agent 'b': revoked is not a boolean"},
		{"tier number", good + "  b: {tier: 5}\n", "agent 'b': tier is not a string"},
		{"numeric hash", good + "  b: {token_sha256: 1234}\n", "agent 'b': token_sha256 is not a string"},
	} {
		path := filepath.Join(t.TempDir(), "federation.yaml")
		writeFile(t, path, c.data)
		r := OpenRegistry(path)
		if _, ok := r.Authenticate(tok); ok {
			t.Errorf("%s: authenticated off a corrupt registry", c.name)
		}
		err := r.Err()
		if !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%s: Err() = %v", c.name, err)
		}
		if r.IsConfigured() || r.HasActiveAgents() {
			t.Errorf("%s: a corrupt registry counts as configured", c.name)
		}
		if _, err := r.List(); !errors.Is(err, ErrUnreadable) {
			t.Errorf("%s: List: %v", c.name, err)
		}
		if _, err := r.Add("clyde", TierTrusted, nil); !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), "fix or remove it") {
			t.Errorf("%s: Add: %v", c.name, err)
		}
		if data, _ := os.ReadFile(path); string(data) != c.data {
			t.Errorf("%s: a change overwrote the corrupt file", c.name)
		}
		// Repairing the file is picked up by the next call.
		writeFile(t, path, good)
		if _, ok := r.Authenticate(tok); !ok || r.Err() != nil {
			t.Errorf("%s: not recovered after repair: %v", c.name, r.Err())
		}
	}
	// Not a regular file.
	dir := t.TempDir()
	r := OpenRegistry(dir)
	if _, ok := r.Authenticate(tok); ok || !errors.Is(r.Err(), ErrUnreadable) {
		t.Errorf("directory as registry: %v", r.Err())
	}
}

func TestEmptyAndSparseFilesAreEmptyRegistries(t *testing.T) {
	for _, data := range []string{"", "\n", "# nothing\n", "agents:\n", "agents: null\nversion: 1\n", "version: 1\n", "agents: {}\nversion: 1\n"} {
		path := filepath.Join(t.TempDir(), "federation.yaml")
		writeFile(t, path, data)
		r := OpenRegistry(path)
		if r.Err() != nil || r.IsConfigured() {
			t.Errorf("%q: err %v configured %v", data, r.Err(), r.IsConfigured())
		}
	}
}

func TestUnknownKeysSurviveAChange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "federation.yaml")
	writeFile(t, path, `agents:
  clyde:
    tier: trusted
    note: {zeta: 1, alpha: [b, a]}
    created_at: 2026-06-29
    token_sha256: abc
version: 1
extra_top: dropped like the reference drops it
`)
	r := OpenRegistry(path)
	r.now = fixedClock(time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), time.Minute)
	if err := r.Revoke("clyde"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := `agents:
  clyde:
    created_at: 2026-06-29
    note:
      alpha:
      - b
      - a
      zeta: 1
    revoked: true
    revoked_at: '2026-07-01T00:00:00Z'
    tier: trusted
    token_sha256: abc
version: 1
`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestWritesAreAtomicAndPrivate(t *testing.T) {
	r := testRegistry(t)
	for i := 0; i < 5; i++ {
		if _, err := r.Add("a"+strconv.Itoa(i), TierQuarantined, nil); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Dir(r.Path())
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"federation.yaml", "federation.yaml.lock"}, names); diff != "" {
		t.Errorf("directory holds (-want +got)\n%s", diff)
	}
	if runtime.GOOS == "windows" {
		return // no Unix modes
	}
	for path, mode := range map[string]os.FileMode{r.Path(): 0o600, dir: 0o700 | os.ModeDir} {
		if fi, err := os.Stat(path); err != nil || fi.Mode() != mode {
			t.Errorf("%s: %v %v, want %v", path, fi.Mode(), err, mode)
		}
	}
}

// TestConcurrentWritersLoseNothing: eight Registry values on one file (as
// eight CLI processes would hold) add rows at the same time.
func TestConcurrentWritersLoseNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "federation.yaml")
	const writers, each = 8, 10
	tokens := make([][]string, writers)
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := OpenRegistry(path)
			for i := 0; i < each; i++ {
				tok, err := r.Add(fmt.Sprintf("w%d-%d", w, i), TierQuarantined, nil)
				if err != nil {
					t.Error(err)
					return
				}
				tokens[w] = append(tokens[w], tok)
				if i%3 == 0 {
					if err := r.Grant(fmt.Sprintf("w%d-%d", w, i), "codex"); err != nil {
						t.Error(err)
					}
				}
			}
		}()
	}
	wg.Wait()
	r := OpenRegistry(path)
	members, err := r.List()
	if err != nil || len(members) != writers*each {
		t.Fatalf("%d members, %v", len(members), err)
	}
	for w := range tokens {
		for i, tok := range tokens[w] {
			c, ok := r.Authenticate(tok)
			if !ok || c.ID != fmt.Sprintf("w%d-%d", w, i) || (i%3 == 0) != (len(c.Grants) == 1) {
				t.Errorf("w%d-%d: %+v %v", w, i, c, ok)
			}
		}
	}
}

// helperEnv makes the test binary, run again, add rows as a separate
// process would.
const helperEnv = "TRUST_TEST_HELPER_REGISTRY"

func TestHelperProcessAdds(t *testing.T) {
	path := os.Getenv(helperEnv)
	if path == "" {
		t.Skip("helper process only")
	}
	r := OpenRegistry(path)
	prefix := os.Getenv(helperEnv + "_PREFIX")
	for i := 0; i < 15; i++ {
		tok, err := r.Add(fmt.Sprintf("%s-%d", prefix, i), TierQuarantined, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Println(tok)
	}
}

func TestConcurrentProcessesLoseNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "federation.yaml")
	const procs = 4
	outs := make([]bytes.Buffer, procs)
	cmds := make([]*exec.Cmd, procs)
	for p := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcessAdds$", "-test.count=1")
		cmd.Env = append(os.Environ(), helperEnv+"="+path, fmt.Sprintf("%s_PREFIX=p%d", helperEnv, p))
		cmd.Stdout = &outs[p]
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[p] = cmd
	}
	for p, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("process %d: %v", p, err)
		}
	}
	r := OpenRegistry(path)
	members, err := r.List()
	if err != nil || len(members) != procs*15 {
		t.Fatalf("%d members, %v", len(members), err)
	}
	n := 0
	for p := range outs {
		for _, line := range strings.Fields(outs[p].String()) {
			if !tokenPattern.MatchString(line) {
				continue
			}
			if c, ok := r.Authenticate(line); !ok || !strings.HasPrefix(c.ID, fmt.Sprintf("p%d-", p)) {
				t.Errorf("process %d token: %+v %v", p, c, ok)
			}
			n++
		}
	}
	if n != procs*15 {
		t.Errorf("%d tokens printed", n)
	}
}

// TestExternalRewriteIsSeen: a registry rewritten by another program (the
// reference's CLI, an editor) is read again on the next call.
func TestExternalRewriteIsSeen(t *testing.T) {
	path := copyFixture(t)
	r := OpenRegistry(path)
	tok := "bdn_" + strings.Repeat("b", 48)
	if _, ok := r.Authenticate(tok); !ok {
		t.Fatal("fixture member does not authenticate")
	}
	data, _ := os.ReadFile(path)
	// In place, same size: only the modification time tells.
	revoked := bytes.Replace(data, []byte("    revoked: false\n    tier: quarantined"), []byte("    revoked: true \n    tier: quarantined"), 1)
	if len(revoked) != len(data) || bytes.Equal(revoked, data) {
		t.Fatal("bad edit")
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(revoked, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, future, future); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Authenticate(tok); ok {
		t.Error("an in-place revocation is not seen")
	}
}

func TestDefaultRegistryPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("home directory and separators differ")
	}
	t.Setenv(RegistryEnv, "/x/fed.yaml")
	if p, err := DefaultRegistryPath(os.Getenv); err != nil || p != "/x/fed.yaml" {
		t.Errorf("env: %q %v", p, err)
	}
	t.Setenv(RegistryEnv, "")
	t.Setenv("HOME", "/home/someone")
	if p, err := DefaultRegistryPath(os.Getenv); err != nil || p != "/home/someone/.bourdon/federation.yaml" {
		t.Errorf("default: %q %v", p, err)
	}
}

func TestQuarantinedClass(t *testing.T) {
	if !QuarantinedClass("openclaw") || QuarantinedClass("clyde") {
		t.Error("quarantined-class agents are openclaw only")
	}
}

// FuzzRegistryParse: parsing never panics, and a file that parses is
// written in a form that parses to the same registry and is written again
// identically.
func FuzzRegistryParse(f *testing.F) {
	if data, err := os.ReadFile(fixtureRegistry); err == nil {
		f.Add(data)
	}
	for _, s := range []string{
		"", "agents:\n", "agents: [a]\n", "- 1\n", "agents:\n  a: 5\n",
		"agents:\n  a: {tier: trusted, grants: [x, y], revoked: yes, token_sha256: '00'}\n",
		"agents:\n  '1': {created_at: 2026-06-29, extra: {b: 1, a: [null, 1.5, 'x: y']}}\nversion: 2\n",
		"agents:\n  a: &x {tier: trusted}\n  b: *x\n",
		"agents:\n  \"\\u00e9t\\xe9\": {tier: \"\\t\"}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := parseRegistry(data)
		if err != nil {
			return
		}
		out, err := doc.encode()
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		doc2, err := parseRegistry(out)
		if err != nil {
			t.Fatalf("re-parse: %v\n%s", err, out)
		}
		out2, err := doc2.encode()
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("second encoding differs (%v):\n%s\n---\n%s", err, out, out2)
		}
		view := func(d *registryDoc) map[string]string {
			m := map[string]string{}
			for _, rw := range d.rows {
				m[rw.id] = fmt.Sprintf("%q %d %q %q %v", rw.tierName, rw.tier, rw.tokenHash, rw.grants, rw.revoked)
			}
			return m
		}
		if diff := cmp.Diff(view(doc), view(doc2)); diff != "" {
			t.Fatalf("rows changed through a write (-first +second)\n%s", diff)
		}
	})
}

// TestRegistryAndWritePathShareOneAgentIDRule: a member whose id the write
// path would refuse (65 characters) cannot be added, so no member can
// authenticate and then never commit.
func TestRegistryAndWritePathShareOneAgentIDRule(t *testing.T) {
	r := OpenRegistry(filepath.Join(t.TempDir(), "federation.yaml"))
	long := strings.Repeat("a", l5.MaxAgentIDLength+1)
	_, err := r.Add(long, TierTrusted, nil)
	if err == nil || !strings.Contains(err.Error(), "at most 64 characters") {
		t.Errorf("a %d-character id: %v, want a message that states the length limit", len(long), err)
	}
	if _, err := r.Add(long[:l5.MaxAgentIDLength], TierTrusted, nil); err != nil {
		t.Errorf("a %d-character id: %v", l5.MaxAgentIDLength, err)
	}
}

func TestRegistryOAuthSubject(t *testing.T) {
	path := filepath.Join(t.TempDir(), "federation.yaml")
	reg := OpenRegistry(path)
	if _, err := reg.Add("alice", TierTrusted, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Add("bob", TierQuarantined, []string{"alice"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := reg.BySubject("auth0|alice"); ok {
		t.Fatal("an unmapped subject authenticated")
	}
	if err := reg.SetSubject("alice", "auth0|alice"); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetSubject("bob", "auth0|alice"); err == nil {
		t.Fatal("a subject was mapped to two members")
	}
	if err := reg.SetSubject("bob", "bad\nsubject"); err == nil {
		t.Fatal("a subject with a newline was stored")
	}
	// A fresh reader sees the field: it is stored in the file, next to
	// the reference's keys.
	other := OpenRegistry(path)
	c, ok := other.BySubject("auth0|alice")
	if !ok || c.ID != "alice" || c.Tier != TierTrusted {
		t.Fatalf("BySubject = %+v, %v", c, ok)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "oauth_subject: auth0|alice") {
		t.Fatalf("registry file lacks the subject:\n%s", data)
	}
	members, _ := other.List()
	if members[0].OAuthSubject != "auth0|alice" {
		t.Fatalf("List: %+v", members[0])
	}
	_, gen, ok := reg.Lookup("alice")
	if !ok || gen == "" {
		t.Fatalf("Lookup alice: %q %v", gen, ok)
	}
	if err := reg.Revoke("alice"); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := reg.Lookup("alice"); ok {
		t.Fatal("Lookup found a revoked member")
	}
	if _, ok := reg.BySubject("auth0|alice"); ok {
		t.Fatal("a revoked member's subject authenticated")
	}
	if err := reg.SetSubject("bob", ""); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := reg.Lookup("nobody"); ok {
		t.Fatal("Lookup found an unknown member")
	}
}

func TestRegistryRejectsNonStringSubject(t *testing.T) {
	path := filepath.Join(t.TempDir(), "federation.yaml")
	if err := os.WriteFile(path, []byte("version: 1\nagents:\n  alice:\n    tier: trusted\n    oauth_subject: [1]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := OpenRegistry(path).Err(); err == nil {
		t.Fatal("a list subject was accepted")
	}
}
