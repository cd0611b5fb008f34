package redact

import (
	"encoding/json"
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

func TestMarshalRedacts(t *testing.T) {
	got, err := Marshal(struct {
		A string   `json:"a"`
		B []string `json:"b"`
	}{"my password is hunter2", []string{"fine"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":"` + Sentinel + `","b":["fine"]}`; string(got) != want {
		t.Errorf("Marshal = %s, want %s", got, want)
	}
	if _, err := Marshal(func() {}); err == nil {
		t.Error("a value encoding/json refuses must be an error")
	}
}

func BenchmarkJSONClean(b *testing.B) {
	doc := []byte(`{"name":"Bourdon","access_level":"team","include_private":false,"matches":[{"name":"Bourdon","agents":["claude-code","codex"],"types":["project"],"summaries":{"claude-code":"Cross-agent memory federation (granted side).","codex":"Federation, codex view."},"tags":["infra"]}]}`)
	for b.Loop() {
		JSON(doc)
	}
}
