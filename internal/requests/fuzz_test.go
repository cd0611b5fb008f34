package requests

import (
	"encoding/json"
	"testing"
)

// FuzzParseIntake feeds arbitrary bytes to the intake form parser: it
// must never panic, and a form it accepts must satisfy the schema's
// required fields.
func FuzzParseIntake(f *testing.F) {
	f.Add([]byte(`{"problem":"Agents cannot see which requests wait.","desiredOutcome":"A filter.","type":"feature","area":"platform","identity":"github:bob","owner":"cogitave/platform"}`))
	f.Add([]byte(`{"owner": null}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"problem": "\u0000"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		form, err := ParseIntake(data)
		if err != nil {
			return
		}
		if form.Owner == "" || form.Identity == "" || form.Problem == "" || !json.Valid(data) {
			t.Fatalf("accepted an incomplete form: %+v from %q", form, data)
		}
	})
}
