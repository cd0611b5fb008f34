package requests

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIntakeSchemaIsServed(t *testing.T) {
	var s map[string]any
	if err := json.Unmarshal(IntakeSchema(), &s); err != nil {
		t.Fatal(err)
	}
	if s["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema %v", s["$schema"])
	}
	if _, err := intakeSchema(); err != nil {
		t.Fatal(err)
	}
	IntakeSchema()[0] = 'x'
	if IntakeSchema()[0] != '{' {
		t.Error("callers can change the schema")
	}
}

func TestParseIntakeValid(t *testing.T) {
	f, err := ParseIntake(formJSON(t, map[string]any{"links": []any{map[string]any{"kind": "issue", "url": "https://github.com/o/r/issues/1"}}}))
	if err != nil {
		t.Fatal(err)
	}
	if f.Owner != owner || f.Identity != "github:bob" || len(f.Links) != 1 || f.Links[0].URL != "https://github.com/o/r/issues/1" {
		t.Errorf("%+v", f)
	}
}

func TestParseIntakeViolations(t *testing.T) {
	for _, tc := range []struct {
		name string
		form []byte
		want []Violation
	}{
		{"no owner", formJSON(t, map[string]any{"owner": nil}), []Violation{
			{"/owner", "missing; send the accountable team as org/team, e.g. cogitave/platform. No owner, no request"},
		}},
		{"many problems", formJSON(t, map[string]any{
			"problem": "too short", "type": "wish", "area": "Platform Team", "identity": nil, "owner": "platform",
			"priority": "high", "desiredOutcome": 7,
			"links": []any{map[string]any{"kind": "ticket", "url": "x"}},
		}), []Violation{
			{"/area", `"Platform Team" is not in the expected form; send the provisional area in lower-case letters, digits and dashes, e.g. platform`},
			{"/desiredOutcome", "is number, want string; send what done looks like, 10 to 10000 characters"},
			{"/identity", "missing; send the requester's identity, a handle without spaces, e.g. github:alice"},
			{"/links/0/kind", `"ticket" is not allowed; send one of issue, pr, branch, adr, rfc, doc, commit`},
			{"/links/0/url", `"x" is not in the expected form; send an http(s) URL, at most 2000 characters`},
			{"/owner", `"platform" is not in the expected form; send the accountable team as org/team, e.g. cogitave/platform. No owner, no request`},
			{"/priority", "not a field of the form; remove it"},
			{"/problem", "is 9 characters, want at least 20; send the problem statement: what is wrong or missing and for whom, 20 to 10000 characters"},
			{"/type", `"wish" is not allowed; send the provisional type: one of feature, fix, docs, chore, refactor, infra, security, deps`},
		}},
		{"control characters", formJSON(t, map[string]any{"problem": "a problem statement that\x07 rings a bell"}), []Violation{
			{"/problem", `"a problem statement that\u0007 rings a bell" is not in the expected form; send the problem statement: what is wrong or missing and for whom, 20 to 10000 characters`},
		}},
		{"link without its target", formJSON(t, map[string]any{"links": []any{map[string]any{"kind": "pr", "uid": "x.y"}}}), []Violation{
			{"/links/0", "a pr link needs url"},
		}},
		{"not an object", []byte(`["a"]`), []Violation{{"", "is array, want object"}}},
		{"not JSON", []byte(`{"problem":`), nil},
		{"too large", []byte(`"` + strings.Repeat("a", maxFormBytes) + `"`), []Violation{{"", "the form is 262146 bytes; send at most 262144"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseIntake(tc.form)
			var fe *FormError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a *FormError", err)
			}
			if tc.want == nil {
				if len(fe.Violations) != 1 || !strings.HasPrefix(fe.Violations[0].Message, "not JSON") {
					t.Errorf("%+v", fe.Violations)
				}
				return
			}
			if diff := cmp.Diff(tc.want, fe.Violations); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFormErrorListsEveryViolation(t *testing.T) {
	_, err := ParseIntake(formJSON(t, map[string]any{"owner": nil, "area": nil}))
	want := "the intake form is invalid:\n- /area: missing; send the provisional area in lower-case letters, digits and dashes, e.g. platform\n- /owner: missing; send the accountable team as org/team, e.g. cogitave/platform. No owner, no request"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}
