package trust

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadAuditFileSkipsAndReportsBadLines: a copy reads every entry in
// the order of the lines and reports, by number, each line that is not
// one; writing the entries back gives the good lines byte for byte.
func TestReadAuditFileSkipsAndReportsBadLines(t *testing.T) {
	fixture, err := os.ReadFile(filepath.Join(conformance, "on_disk", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	good := strings.SplitAfter(string(fixture), "\n")
	good = good[:len(good)-1] // after the last newline
	bad := []string{
		"not json\n",
		"\n",
		`{"ts": "yesterday", "agent": "a"}` + "\n",
		`{"ts": "` + strings.Repeat("x", MaxAuditLine) + `"}` + "\n",
	}
	var data string
	for i, l := range good {
		data += l
		if i < len(bad) {
			data += bad[i]
		}
	}
	data += `{"ts": "2026-06-29T00:00:09.000000Z", "agent": "torn` // a writer died here
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	var entries []Entry
	var problems []int
	err = ReadAuditFile(path, func(e Entry) error { entries = append(entries, e); return nil },
		func(line int, why string) { problems = append(problems, line) })
	if err != nil || len(entries) != len(good) {
		t.Fatalf("%d entries, want %d (%v)", len(entries), len(good), err)
	}
	if want := []int{2, 6, 8, 10}; !slices.Equal(problems, want) {
		t.Errorf("problems on lines %v, want %v", problems, want)
	}

	out := filepath.Join(t.TempDir(), "sub", "audit.jsonl")
	each := func(yield func(Entry) error) error {
		for _, e := range entries {
			if err := yield(e); err != nil {
				return err
			}
		}
		return nil
	}
	n, err := WriteAuditFile(out, each)
	if err != nil || n != len(good) {
		t.Fatalf("wrote %d: %v", n, err)
	}
	got, _ := os.ReadFile(out)
	if !bytes.Equal(got, fixture) {
		t.Errorf("written back:\n%s\nwant\n%s", got, fixture)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v (%v)", fi.Mode(), err)
	}
	if _, err := WriteAuditFile(out, each); err == nil || !strings.Contains(err.Error(), "already has entries") {
		t.Errorf("writing over a log: %v", err)
	}
	if again, _ := os.ReadFile(out); !bytes.Equal(again, fixture) {
		t.Error("a refused write changed the log")
	}
	if err := ReadAuditFile(filepath.Join(t.TempDir(), "missing"), nil, nil); err != nil {
		t.Errorf("a missing log: %v", err)
	}
}
