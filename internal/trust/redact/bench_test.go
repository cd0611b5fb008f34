package redact

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// learnCorpus reads the documentation corpus of testdata/learn (about
// 330 files, 2 MB of markdown, YAML and code, no credential in them):
// what the prose surfaces redact most.
func learnCorpus(b *testing.B) []string {
	b.Helper()
	var texts []string
	err := filepath.WalkDir("../../../testdata/learn", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil {
			texts = append(texts, string(data))
		}
		return err
	})
	if err != nil || len(texts) == 0 {
		b.Skip("no corpus:", err)
	}
	return texts
}

// BenchmarkSpanCorpus runs Span, the prose redaction, over every file of
// the documentation corpus.
func BenchmarkSpanCorpus(b *testing.B) {
	texts := learnCorpus(b)
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, t := range texts {
			if Span(t) != t {
				b.Fatal("the corpus was changed")
			}
		}
	}
}

// BenchmarkFlaggedLines runs Flagged, the field redaction's test, over
// every line of the documentation corpus, as a memory row's short values
// are tested.
func BenchmarkFlaggedLines(b *testing.B) {
	var lines []string
	n := 0
	for _, t := range learnCorpus(b) {
		for _, l := range strings.Split(t, "\n") {
			lines = append(lines, l)
			n += len(l)
		}
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, l := range lines {
			Flagged(l)
		}
	}
}
