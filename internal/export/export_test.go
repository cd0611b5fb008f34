package export

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

func TestNativeText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"  two\n\tlines  ", "two lines"},
		{"set the API_KEY first", Redacted},
		{"my api key is here", "my api key is here"}, // the reference's pattern needs _ or - or nothing
		{"Bearer   token abc", Redacted},
		{"uses sk_live_abc123", Redacted},
		{"uses SK_LIVE_abc123", "uses SK_LIVE_abc123"}, // case-sensitive, as in the reference
		{"see https://example.com/a?b=c now", "see [link] now"},
		{strings.Repeat("é", 200), strings.Repeat("é", 177) + "..."},
	} {
		if got := NativeText(c.in, 0); got != c.want {
			t.Errorf("NativeText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := CursorText(" a\nb ", 0); got != "a\nb" {
		t.Errorf("CursorText keeps newlines: %q", got)
	}
	if got := CascadeText("the secret sauce"); got != Redacted {
		t.Errorf("CascadeText = %q", got)
	}
	if got := Bounded("abc  def", 5); got != "abc…" {
		t.Errorf("Bounded = %q", got)
	}
}

func TestRowsKeepTheReferenceKeyOrderAndDropEmptyFields(t *testing.T) {
	e := Entity{Name: "Payments API", Type: "project", Tags: []string{"a"}, Visibility: "team"}
	data, err := yaml11.Encode(e.Map())
	if err != nil {
		t.Fatal(err)
	}
	if want := "name: Payments API\ntype: project\ntags:\n- a\nvisibility: team\n"; string(data) != want {
		t.Errorf("entity:\n%s\nwant:\n%s", data, want)
	}
	s := Session{Date: "", KeyActions: []string{"x"}}
	data, _ = yaml11.Encode(s.Map())
	if want := "date: ''\nkey_actions:\n- x\n"; string(data) != want {
		t.Errorf("session:\n%s\nwant:\n%s", data, want)
	}
}

func TestCacheReadsAUnitOnlyWhenItChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.md")
	if err := os.WriteFile(path, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	reads := 0
	read := func() ([]string, error) { reads++; b, err := os.ReadFile(path); return []string{string(b)}, err }
	get := func(c *Cache) []string {
		fp, err := Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		v, err := Cached(c, path, fp, read)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	c := NewCache()
	get(c)
	saved, _ := c.Marshal()
	if !c.Changed() {
		t.Error("a first read must change the cache")
	}

	c = LoadCache(saved)
	if v := get(c); v[0] != "one" || reads != 1 || c.Changed() {
		t.Errorf("unchanged unit: v=%v reads=%d changed=%v", v, reads, c.Changed())
	}
	if err := os.WriteFile(path, []byte("two!"), 0o644); err != nil {
		t.Fatal(err)
	}
	c = LoadCache(saved)
	if v := get(c); v[0] != "two!" || reads != 2 || !c.Changed() {
		t.Errorf("changed unit: v=%v reads=%d", v, reads)
	}
	if c := LoadCache(saved); c.Changed() != true {
		t.Error("a unit not asked for again must count as a change (it is dropped)")
	}
	if c := LoadCache([]byte("{not json")); c.Changed() {
		t.Error("a bad cache file is an empty cache")
	}
	c = NewCache()
	get(c)
	get(c)
	if hits, miss := c.Stats(); reads != 3 || hits != 1 || miss != 1 {
		t.Errorf("a unit asked for twice in one export is read once: reads=%d hits=%d miss=%d", reads, hits, miss)
	}
	if _, err := Cached(NewCache(), "k", "", func() (int, error) { return 0, errors.New("boom") }); err == nil {
		t.Error("errors pass through")
	}
}

func TestManifestIsSchemaShaped(t *testing.T) {
	o := &Output{
		SpecVersion:  "0.1",
		Agent:        Agent{ID: "codex", Type: "code-assistant", Instance: "laptop", SpecVersionCompat: ">=0.1"},
		Capabilities: []string{"sessions"},
		Sessions:     []Session{{Date: "2026-11-25", Visibility: "team"}},
		Entities:     []Entity{{Name: "Payments API", Visibility: "team"}},
		Policy:       &Policy{Default: "team", PrivateTags: []string{"personal"}},
	}
	data, err := yaml11.Encode(o.Manifest("2026-12-01T19:32:28+00:00"))
	if err != nil {
		t.Fatal(err)
	}
	want := `spec_version: '0.1'
agent:
  id: codex
  type: code-assistant
  instance: laptop
  spec_version_compat: '>=0.1'
last_updated: '2026-12-01T19:32:28+00:00'
capabilities:
- sessions
recent_sessions:
- date: '2026-11-25'
  visibility: team
known_entities:
- name: Payments API
  visibility: team
visibility_policy:
  default: team
  private_tags:
  - personal
`
	if string(data) != want {
		t.Errorf("got:\n%s\nwant:\n%s", data, want)
	}
}
