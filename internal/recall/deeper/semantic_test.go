package deeper

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/embed"
	"github.com/getbourdon/bourdon-go/internal/testkit/embedtest"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// readTestVectors reads testdata/memoryset/vectors/use-lite.vec.gz (its
// format is in embed.js there): Universal Sentence Encoder Lite vectors
// of every turn and question of the memory set, by text.
func readTestVectors(t testing.TB) (map[string][]float32, int) {
	t.Helper()
	f, err := os.Open("testdata/memoryset/vectors/use-lite.vec.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	rest, ok := bytes.CutPrefix(data, []byte("bourdon-testvec-1\n"))
	if !ok || len(rest) < 8 {
		t.Fatal("use-lite.vec.gz: not a vector file")
	}
	dim, n := int(binary.LittleEndian.Uint32(rest)), int(binary.LittleEndian.Uint32(rest[4:]))
	rest = rest[8:]
	out := make(map[string][]float32, n)
	for range n {
		if len(rest) < 4 {
			t.Fatal("use-lite.vec.gz: truncated")
		}
		tl := int(binary.LittleEndian.Uint32(rest))
		if len(rest) < 4+tl+4+dim {
			t.Fatal("use-lite.vec.gz: truncated")
		}
		text := string(rest[4 : 4+tl])
		scale := math.Float32frombits(binary.LittleEndian.Uint32(rest[4+tl:]))
		v := make([]float32, dim)
		for i, b := range rest[8+tl : 8+tl+dim] {
			v[i] = scale * float32(int8(b))
		}
		out[text] = v
		rest = rest[8+tl+dim:]
	}
	return out, dim
}

// tableServer is a fake embedding service answering from vecs.
func tableServer(vecs map[string][]float32) *embedtest.Server {
	return &embedtest.Server{Vectors: func(text string) ([]float32, bool) {
		v, ok := vecs[text]
		return v, ok
	}}
}

// startEmbedder serves f and returns a client of it.
func startEmbedder(t testing.TB, f *embedtest.Server, dim int) embed.Embedder {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	emb, err := embed.NewHTTP(embed.HTTPConfig{Provider: embed.OpenAI, BaseURL: srv.URL, Model: "use-lite", Dim: dim})
	if err != nil {
		t.Fatal(err)
	}
	return emb
}

// tableEmbedder is an in-process embedder over a vector table; a text
// not in it is an error.
type tableEmbedder struct {
	vecs map[string][]float32
	dim  int
}

func (e tableEmbedder) Name() string { return "table" }
func (e tableEmbedder) Dim() int     { return e.dim }
func (e tableEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, text := range texts {
		v, ok := e.vecs[text]
		if !ok {
			return nil, fmt.Errorf("no vector for %q", text)
		}
		out[i] = slices.Clone(v)
	}
	return out, nil
}

// waitEmbedded asks prompt (at team level) until the semantic arm has
// embedded every visible row (pending 0), and returns that answer; it
// fails the test after within.
func waitEmbedded(t testing.TB, s *Service, prompt string, within time.Duration) Payload {
	t.Helper()
	var p Payload
	if !eventually(within, func() bool {
		p = s.DeeperContext(context.Background(), Request{Prompt: prompt, AccessLevel: "team", Level: visibility.Team})
		return p.Semantic != nil && p.Semantic.Status == "ok" && p.Semantic.Pending == 0
	}) {
		t.Fatalf("rows not embedded after %s: %+v", within, p.Semantic)
	}
	return p
}

// TestMemoryRecallWithVectors scores get_deeper_context with the semantic
// arm on the memory set, its embedder an OpenAI-compatible server that
// answers with Universal Sentence Encoder Lite vectors made beforehand
// (testdata/memoryset/vectors), beside the lexical ranking alone:
//
//	go test -run TestMemoryRecallWithVectors -v ./internal/recall/deeper/
func TestMemoryRecallWithVectors(t *testing.T) {
	vecs, dim := readTestVectors(t)
	emb := startEmbedder(t, tableServer(vecs), dim)
	scores := msScores{}
	var splits []string
	for _, file := range []string{"dialogues.txt", "long_dev.txt", "long_test.txt"} {
		for _, d := range readMemoryFile(t, "testdata/memoryset/"+file) {
			if !slices.Contains(splits, d.split) {
				splits = append(splits, d.split)
			}
			lib := msLibrary(t, d)
			withVectors := msOptions()
			withVectors.Embedder = emb
			lexical, semantic := New(lib, msOptions()), New(lib, withVectors)
			waitEmbedded(t, semantic, d.questions[0].text, 30*time.Second)
			for _, q := range d.questions {
				scores.add(d.split, "lexical", bourdonRanking(lexical, Request{Prompt: q.text}), q.answers)
				scores.add(d.split, "vectors", bourdonRanking(semantic, Request{Prompt: q.text}), q.answers)
			}
		}
	}
	for _, split := range splits {
		lr, lm := scores.values(split, "lexical")
		vr, vm := scores.values(split, "vectors")
		t.Logf("%-8s lexical recall@5 %.3f MRR %.3f   with vectors recall@5 %.3f MRR %.3f", split, lr, lm, vr, vm)
		if f := vectorFloors[split]; vr < f[0] || vm < f[1] {
			t.Errorf("%s with vectors: recall@5 %.3f MRR %.3f, floors %.2f %.2f", split, vr, vm, f[0], f[1])
		}
	}
}

// vectorFloors are the regression thresholds of TestMemoryRecallWithVectors
// (recall@5, MRR): the measured values minus a margin.
var vectorFloors = map[string][2]float64{
	"dev": {0.90, 0.69}, "test": {0.97, 0.72}, "longdev": {0.66, 0.52}, "longtest": {0.50, 0.37},
}

// semanticLibrary is a library of one agent whose notes are texts of the
// vector table, plus a private note and one holding a secret.
func semanticLibrary(t *testing.T, dir string, notes []string) {
	t.Helper()
	var rows []any
	for i, text := range notes {
		rows = append(rows, map[string]any{"date": "2026-03-01", "text": text, "tags": []any{fmt.Sprintf("n%d", i)}, "visibility": "team"})
	}
	writeAgent(t, dir, "chat", map[string]any{"notes": rows})
}

func TestSemanticArm(t *testing.T) {
	vecs, dim := readTestVectors(t)
	// The answer shares no word with the question.
	const (
		flat     = "Anjali: He's a glassblower. He has a studio in RiNo and makes lamps."
		question = "What does Luis do for work?"
	)
	for _, text := range []string{flat, question} {
		if vecs[text] == nil {
			t.Fatalf("the vector table has no %q", text)
		}
	}
	// Thirty turns of the other speaker that share no word with it
	// either.
	var others []string
	for text := range vecs {
		low := strings.ToLower(text)
		if strings.HasPrefix(text, "Rahul: ") && !strings.Contains(low, "work") && !strings.Contains(low, "luis") {
			others = append(others, text)
		}
	}
	slices.Sort(others)
	others = others[:30]

	t.Run("a row sharing no word with the prompt comes in by the semantic door", func(t *testing.T) {
		dir := t.TempDir()
		semanticLibrary(t, dir, append(slices.Clone(others), flat))
		f := tableServer(vecs)
		s := New(openStore(t, dir), Options{Embedder: startEmbedder(t, f, dim)})
		waitEmbedded(t, s, question, 30*time.Second)
		p := ask(t, s, question, visibility.Team)
		if p.Semantic == nil || p.Semantic.Status != "ok" || p.Semantic.Rows != len(others)+1 {
			t.Fatalf("semantic status %+v", p.Semantic)
		}
		i := slices.IndexFunc(p.Items, func(it Item) bool { return strings.Contains(it.Text, "glassblower") })
		if i < 0 {
			t.Fatalf("the flat is not in the context: %+v", p.Items)
		}
		if it := p.Items[i]; it.Door != DoorSemantic || it.Similarity <= 0 || it.Score != 0 {
			t.Errorf("item %+v: want door semantic, a similarity and no BM25 score", it)
		}
		if !slices.Contains(p.Doors, DoorSemantic) {
			t.Errorf("doors %v lack semantic", p.Doors)
		}
		for _, it := range p.Items {
			if it.Similarity == 0 {
				t.Errorf("item %q has no similarity, though every row is embedded", it.Text)
			}
		}
	})

	t.Run("private rows are neither embedded nor compared", func(t *testing.T) {
		dir := t.TempDir()
		rows := []any{map[string]any{"date": "2026-03-01", "text": flat, "visibility": "private"}}
		for _, text := range others {
			rows = append(rows, map[string]any{"date": "2026-03-01", "text": text, "visibility": "public"})
		}
		writeAgent(t, dir, "chat", map[string]any{"notes": rows})
		f := tableServer(vecs)
		s := New(openStore(t, dir), Options{Embedder: startEmbedder(t, f, dim)})
		waitEmbedded(t, s, question, 30*time.Second)
		if slices.Contains(f.Texts(), flat) {
			t.Error("the private note was sent to the embedder")
		}
		for _, level := range []visibility.Level{visibility.Public, visibility.Team, visibility.Private} {
			p := ask(t, s, question, level)
			for _, it := range p.Items {
				if strings.Contains(it.Text, "glassblower") {
					t.Errorf("at %s the private note came in: %+v", level, it)
				}
			}
			if p.Semantic.Rows != len(others) {
				t.Errorf("at %s %d rows compared, want %d", level, p.Semantic.Rows, len(others))
			}
		}
	})

	t.Run("a new row is embedded alone, and a row with a secret not at all", func(t *testing.T) {
		dir := t.TempDir()
		semanticLibrary(t, dir, others)
		f := tableServer(vecs)
		s := New(openStore(t, dir), Options{Embedder: startEmbedder(t, f, dim)})
		waitEmbedded(t, s, question, 30*time.Second)
		rowsAsked := func(from int) []string {
			return slices.DeleteFunc(f.Texts()[from:], func(text string) bool { return text == question })
		}
		if n := len(rowsAsked(0)); n != len(others) {
			t.Fatalf("%d rows embedded, want %d", n, len(others))
		}
		before := len(f.Texts())
		// A row the redaction replaces whole says nothing to embed.
		secret := "Rahul: the wifi key is hunter2, and my token is ghp_" + strings.Repeat("a1B2", 9)
		if safe(secret, maxEmbedRunes) != redact.Sentinel {
			t.Fatalf("the secret note is not redacted whole: %q", safe(secret, maxEmbedRunes))
		}
		semanticLibrary(t, dir, append(slices.Clone(others), secret, flat))
		waitUntil(t, func() bool {
			p := ask(t, s, question, visibility.Team)
			return p.Semantic.Rows == len(others)+1 && p.Semantic.Pending == 0
		})
		if rows := rowsAsked(before); len(rows) != 1 || rows[0] != flat {
			t.Errorf("after adding two rows the embedder was asked for %q, want only the new row without a secret", rows)
		}
		for _, text := range f.Texts() {
			if strings.Contains(text, "hunter2") || strings.Contains(text, "ghp_") || strings.Contains(text, redact.Sentinel) {
				t.Errorf("the secret row reached the embedder: %q", text)
			}
		}
	})

	t.Run("an embedder that fails or is slow leaves the lexical answer", func(t *testing.T) {
		dir := t.TempDir()
		semanticLibrary(t, dir, append(slices.Clone(others), flat))
		lexical := ask(t, New(openStore(t, dir), Options{}), question, visibility.Team)
		for _, c := range []struct {
			name   string
			f      *embedtest.Server
			status string
		}{
			{"down", &embedtest.Server{Vectors: tableServer(vecs).Vectors, Down: true}, "error"},
			{"slow", &embedtest.Server{Vectors: tableServer(vecs).Vectors, Delay: 300 * time.Millisecond}, "timeout"},
		} {
			s := New(openStore(t, dir), Options{Embedder: startEmbedder(t, c.f, dim), EmbedTimeout: 100 * time.Millisecond})
			p := ask(t, s, question, visibility.Team)
			if p.Semantic == nil || p.Semantic.Status != c.status {
				t.Errorf("%s: semantic status %+v, want %s", c.name, p.Semantic, c.status)
			}
			if !slices.EqualFunc(p.Items, lexical.Items, func(a, b Item) bool { return a.Text == b.Text }) {
				t.Errorf("%s: items differ from the lexical answer", c.name)
			}
			if c.status == "error" && strings.Contains(p.Semantic.Detail, "hunter") {
				t.Errorf("detail %q", p.Semantic.Detail)
			}
		}
	})

	t.Run("an empty prompt is not embedded", func(t *testing.T) {
		dir := t.TempDir()
		semanticLibrary(t, dir, others)
		f := tableServer(vecs)
		s := New(openStore(t, dir), Options{Embedder: startEmbedder(t, f, dim)})
		p := ask(t, s, "  ", visibility.Team)
		if p.Semantic == nil || p.Semantic.Status != "skipped" {
			t.Errorf("semantic status %+v, want skipped", p.Semantic)
		}
	})
}

// eventually polls cond until it holds, for up to within, and reports
// whether it did.
func eventually(within time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(within); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// waitUntil polls cond for up to 30 s.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	if !eventually(30*time.Second, cond) {
		t.Fatal("condition not met after 30 s")
	}
}

// stuckEmbedder never answers and ignores its context.
type stuckEmbedder struct{ release chan struct{} }

func (stuckEmbedder) Name() string { return "stuck" }
func (stuckEmbedder) Dim() int     { return 4 }
func (e stuckEmbedder) Embed(context.Context, []string) ([][]float32, error) {
	<-e.release
	return nil, fmt.Errorf("released")
}

// TestSemanticArmOutlivesAStuckEmbedder: an embedder that ignores its
// context delays a call by its timeout and a second at most, and the call
// answers lexically.
func TestSemanticArmOutlivesAStuckEmbedder(t *testing.T) {
	dir := t.TempDir()
	semanticLibrary(t, dir, []string{"Rahul: the brewery opens on Friday."})
	e := stuckEmbedder{release: make(chan struct{})}
	defer close(e.release)
	s := New(openStore(t, dir), Options{Embedder: e, EmbedTimeout: 50 * time.Millisecond})
	start := time.Now()
	p := ask(t, s, "when does the brewery open?", visibility.Team)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the call took %s", took)
	}
	if p.Semantic == nil || p.Semantic.Status != "timeout" || len(p.Items) != 1 {
		t.Errorf("semantic %+v, %d items; want a timeout and the lexical item", p.Semantic, len(p.Items))
	}
}
