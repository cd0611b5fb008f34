package pyfmt

import (
	"testing"
)

func TestJSONIsPythonsIndentedEnsureASCII(t *testing.T) {
	type row struct {
		Name  string   `json:"name"`
		Empty []string `json:"empty"`
		Null  *string  `json:"null"`
		N     int      `json:"n"`
		Map   struct{} `json:"map"`
	}
	v := struct {
		A    string `json:"a"`
		Rows []row  `json:"rows"`
	}{"café ☕ 😀 <b>&\"\\\n\t\b\f\x01\x7f\u2028", []row{{Name: "x", Empty: []string{}, N: 2}}}
	got, err := JSON(v)
	if err != nil {
		t.Fatal(err)
	}
	// json.dumps(v, indent=2) in Python 3.12.
	want := `{
  "a": "caf\u00e9 \u2615 \ud83d\ude00 <b>&\"\\\n\t\b\f\u0001\u007f\u2028",
  "rows": [
    {
      "name": "x",
      "empty": [],
      "null": null,
      "n": 2,
      "map": {}
    }
  ]
}
`
	if string(got) != want {
		t.Errorf("JSON =\n%s\nwant\n%s", got, want)
	}
	plain := []byte(`{"a": 1}`)
	if out := EnsureASCII(plain); &out[0] != &plain[0] {
		t.Error("an ASCII document must come back as is")
	}
	if got := string(EnsureASCII([]byte("\"\xff\""))); got != `"\ufffd"` {
		t.Errorf("invalid UTF-8: %s", got)
	}
}
