package setup

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var entry = jobj{{"command", "/bin/bourdon"}, {"args", []string{"serve"}}}

func TestWithMemberKeepsLayout(t *testing.T) {
	for name, tc := range map[string]struct{ in, want string }{
		"empty file":               {"", "{\n  \"bourdon\": {\n    \"command\": \"/bin/bourdon\",\n    \"args\": [\n      \"serve\"\n    ]\n  }\n}\n"},
		"empty object":             {"{}", "{\n  \"bourdon\": {\n    \"command\": \"/bin/bourdon\",\n    \"args\": [\n      \"serve\"\n    ]\n  }\n}"},
		"one line":                 {`{"a": 1, "b": [1,2]}`, `{"a": 1, "b": [1,2], "bourdon": {"command": "/bin/bourdon", "args": ["serve"]}}`},
		"tabs":                     {"{\n\t\"a\": 1\n}\n", "{\n\t\"a\": 1,\n\t\"bourdon\": {\n\t\t\"command\": \"/bin/bourdon\",\n\t\t\"args\": [\n\t\t\t\"serve\"\n\t\t]\n\t}\n}\n"},
		"escapes and numbers kept": {"{\n  \"caf\\u00e9\": 1.50e3,\n  \"x\": \"\\/\"\n}", "{\n  \"caf\\u00e9\": 1.50e3,\n  \"x\": \"\\/\",\n  \"bourdon\": {\n    \"command\": \"/bin/bourdon\",\n    \"args\": [\n      \"serve\"\n    ]\n  }\n}"},
		"crlf":                     {"{\r\n  \"a\": 1\r\n}\r\n", "{\r\n  \"a\": 1,\r\n  \"bourdon\": {\r\n    \"command\": \"/bin/bourdon\",\r\n    \"args\": [\r\n      \"serve\"\r\n    ]\r\n  }\r\n}\r\n"},
	} {
		t.Run(name, func(t *testing.T) {
			d, err := parseJSONDoc([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			got := string(d.withMember(d.root, "bourdon", entry))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !json.Valid([]byte(got)) {
				t.Error("not valid JSON")
			}
		})
	}
}

func TestJSONStringLikeJavaScript(t *testing.T) {
	got := jsonString("a\"b\\c\n\t\x01é\u2028</>")
	want := `"a\"b\\c\n\t\u0001é` + "\u2028" + `</>"`
	if got != want {
		t.Errorf("got %s want %s", got, want)
	}
}

func TestWithItemAndRemoval(t *testing.T) {
	in := "{\n  \"list\": [\n    1,\n    {\"x\": 2}\n  ],\n  \"empty\": [],\n  \"inline\": [1, 2]\n}\n"
	d, _ := parseJSONDoc([]byte(in))
	for _, key := range []string{"list", "empty", "inline"} {
		d, _ := parseJSONDoc([]byte(in))
		out := d.withItem(d.root.get(key), entry)
		if !json.Valid(out) {
			t.Fatalf("%s: invalid %s", key, out)
		}
		d2, _ := parseJSONDoc(out)
		arr := d2.root.get(key)
		back := d2.withoutItem(arr, len(arr.items)-1)
		if key != "empty" && string(back) != in {
			t.Errorf("%s: removing the added item gives\n%s", key, back)
		}
		if key == "empty" && !strings.Contains(string(back), `"empty": []`) {
			t.Errorf("empty: %s", back)
		}
	}
	// Removing the first of several members or items.
	if got := string(d.withoutMember(d.root, 0)); got != "{\n  \"empty\": [],\n  \"inline\": [1, 2]\n}\n" {
		t.Errorf("without the first member: %q", got)
	}
	if got := string(d.withoutItem(d.root.get("inline"), 0)); !strings.Contains(got, `"inline": [2]`) {
		t.Errorf("without the first item: %q", got)
	}
}

func TestParseErrorsSayWhere(t *testing.T) {
	_, err := parseJSONDoc([]byte("{\n  \"a\": 1,\n}"))
	if err == nil || !strings.Contains(err.Error(), "line 3, column 1") {
		t.Errorf("err = %v", err)
	}
}

// FuzzWithMember checks, on any JSON object, that adding a member gives
// valid JSON holding exactly the old members plus the new one, and that
// taking it out again gives the original bytes back.
func FuzzWithMember(f *testing.F) {
	for _, s := range []string{"{}", `{"a":1}`, "{\n  \"a\": [1, {\"b\": null}]\n}\n", "{\"mcpServers\": {}}", " { \"x\" : \"y\" } "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseJSONDoc([]byte(s))
		if err != nil || d.root.get("bourdon") != nil || strings.TrimSpace(s) == "" {
			return
		}
		out := d.withMember(d.root, "bourdon", entry)
		var before, after map[string]any
		if err := json.Unmarshal([]byte(s), &before); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("invalid after adding: %v\n%s", err, out)
		}
		before["bourdon"] = map[string]any{"command": "/bin/bourdon", "args": []any{"serve"}}
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("adding changed other members:\n%s", out)
		}
		d2, err := parseJSONDoc(out)
		if err != nil {
			t.Fatal(err)
		}
		i := len(d2.root.members) - 1
		if back := d2.withoutMember(d2.root, i); len(d.root.members) > 0 && string(back) != s {
			t.Fatalf("taking it out again gives %q, want %q", back, s)
		}
	})
}
