package redact

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestJSONRedactsValuesNotKeys(t *testing.T) {
	in := `{"password: x":"my password is hunter2","multi":"line one\nline two","list":["fine","see https://example.com/a?b=c"],"n":1,"nested":{"q":"say \"hi\""}}`
	got := string(JSON([]byte(in)))
	var doc map[string]any
	if err := json.Unmarshal([]byte(got), &doc); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, got)
	}
	if doc["password: x"] != Sentinel {
		t.Errorf("value not redacted: %s", got)
	}
	if l := doc["list"].([]any); l[0] != "fine" || l[1] != "see https://example.com/a?b=c" {
		t.Errorf("list: %v", l)
	}
	if doc["nested"].(map[string]any)["q"] != `say "hi"` {
		t.Errorf("escapes: %s", got)
	}
	if doc["multi"] != "line one\nline two" {
		t.Errorf("text without secrets must be left exactly as it is: %q", doc["multi"])
	}
	if !strings.Contains(got, `"password: x"`) {
		t.Error("keys must be left alone")
	}
	plain := []byte(`{"a":"b","c":[1,2,"d"]}`)
	if out := JSON(plain); &out[0] != &plain[0] {
		t.Error("a clean document must come back as is")
	}
}

func BenchmarkJSONClean(b *testing.B) {
	doc := []byte(`{"name":"Bourdon","access_level":"team","include_private":false,"matches":[{"name":"Bourdon","agents":["claude-code","codex"],"types":["project"],"summaries":{"claude-code":"Cross-agent memory federation (granted side).","codex":"Federation, codex view."},"tags":["infra"]}]}`)
	for b.Loop() {
		JSON(doc)
	}
}

// TestJSONAsKindsAndEchoes: a Prose document keeps all but the credential;
// a Field document replaces the value whole, except a top-level value that
// echoes the caller's argument of the same name, which is prose.
func TestJSONAsKindsAndEchoes(t *testing.T) {
	in := `{"name":"../../etc/passwd","other":"../../etc/passwd","rows":[{"name":"../../etc/passwd"}],"note":"DB_PASSWORD=` + `hunter2 then"}`
	echo := map[string]string{"name": "../../etc/passwd", "note": "something else"}
	got := string(JSONAs([]byte(in), Field, echo))
	want := `{"name":"../../etc/passwd","other":"` + Sentinel + `","rows":[{"name":"` + Sentinel + `"}],"note":"` + Sentinel + `"}`
	if got != want {
		t.Errorf("Field with echoes:\n got %s\nwant %s", got, want)
	}
	got = string(JSONAs([]byte(in), Prose, nil))
	want = `{"name":"../../etc/passwd","other":"../../etc/passwd","rows":[{"name":"../../etc/passwd"}],"note":"DB_PASSWORD=` + Sentinel + ` then"}`
	if got != want {
		t.Errorf("Prose:\n got %s\nwant %s", got, want)
	}
	// An echo is prose, not a free pass: a token sent back is redacted.
	tok := "ghp_" + strings.Repeat("a", 36)
	got = string(JSONAs([]byte(`{"name":"`+tok+`"}`), Field, map[string]string{"name": tok}))
	if got != `{"name":"`+Sentinel+`"}` {
		t.Errorf("echoed token: %s", got)
	}
}

// BenchmarkJSONFindEntity redacts a find_entity payload as the server
// answers it (testdata/find_entity.json: 30 agents' summaries of one
// entity of a libgen library, about 2.8 KB, no credential in it).
func BenchmarkJSONFindEntity(b *testing.B) {
	doc, err := os.ReadFile("testdata/find_entity.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if out := JSONAs(doc, Field, nil); &out[0] != &doc[0] {
			b.Fatal("the payload was changed")
		}
	}
}
