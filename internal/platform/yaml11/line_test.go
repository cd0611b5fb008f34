package yaml11

import "testing"

func TestLine(t *testing.T) {
	doc := []byte(`# a comment
spec_version: '0.1'
agent:
  id: codex
  type: code-assistant
recent_sessions:
- date: '2026-11-06'
  cwd: /repos/a
- {date: yesterday, cwd: "/repos/b~c/d"}
a/b: slash
m~n: tilde
`)
	for pointer, want := range map[string]int{
		"":                        2,
		"/agent/id":               4,
		"/agent/type":             5,
		"/agent/missing":          3,
		"/recent_sessions/0/date": 7,
		"/recent_sessions/0/cwd":  8,
		"/recent_sessions/1/date": 9,
		"/recent_sessions/1":      9,
		"/recent_sessions/7/date": 6,
		"/recent_sessions/x":      6,
		"/a~1b":                   10,
		"/m~0n":                   11,
		"/nowhere/deeper":         2,
	} {
		if got := Line(doc, pointer); got != want {
			t.Errorf("Line(%q) = %d, want %d", pointer, got, want)
		}
	}
	for _, bad := range []string{"", "agent: [unclosed\n"} {
		if got := Line([]byte(bad), "/agent"); got != 0 {
			t.Errorf("Line of %q = %d, want 0", bad, got)
		}
	}
}
