package analyze

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestTerms(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"How do I version an API?", []string{"version", "api"}},
		{"RFC 9457 typed-errors, cursor_pagination", []string{"rfc", "9457", "typ", "error", "cursor", "pagination"}},
		{"Çalışma ortamı DÜZENİ", []string{"çalışma", "ortamı", "düzeni"}},
		{"a b 7 x", []string{"7"}},
		{"cogitave.learn.api-design", []string{"cogitav", "learn", "api", "design"}},
		{"", nil},
	} {
		if got := Terms(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("Terms(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestTermsDropLongRuns(t *testing.T) {
	long := strings.Repeat("abcdefghij", 5)
	if got := Terms("keep " + long); !slices.Equal(got, []string{"keep"}) {
		t.Errorf("got %q", got)
	}
}

func TestStem(t *testing.T) {
	groups := [][]string{
		{"configure", "configured", "configures", "configuring"},
		{"policy", "policies"},
		{"query", "queries", "querying"},
		{"apply", "applied", "applies"},
		{"ship", "shipped", "shipping", "ships"},
		{"run", "running", "runs"},
		{"release", "released", "releases", "releasing"},
		{"class", "classes"},
	}
	for _, g := range groups {
		want := Stem(g[0])
		for _, w := range g[1:] {
			if got := Stem(w); got != want {
				t.Errorf("Stem(%q) = %q, want %q (the stem of %q)", w, got, want, g[0])
			}
		}
	}
	for _, w := range []string{"status", "analysis", "process", "speed", "need", "sso", "çalışmalar"} {
		if got := Stem(w); got != w {
			t.Errorf("Stem(%q) = %q, want it unchanged", w, got)
		}
	}
}

func TestCodeTerms(t *testing.T) {
	got := CodeTerms("registry.toLLMTools(createUserMessage) HTTPServer v2")
	want := []string{"registry", "tollmtool", "llm", "tool", "createusermessag", "creat", "user", "messag", "httpserver", "http", "server", "v2", "2"}
	if !slices.Equal(got, want) {
		t.Errorf("CodeTerms = %q, want %q", got, want)
	}
}

func TestEach(t *testing.T) {
	text := "The Idempotency-Key header"
	var got []string
	Each(text, func(term string, start, end int) { got = append(got, term+"="+text[start:end]) })
	want := []string{"idempotency=Idempotency", "key=Key", "header=header"}
	if !slices.Equal(got, want) {
		t.Errorf("Each = %q, want %q", got, want)
	}
}

// firstByEach is the oracle of First: the start of the first term Each
// gives that is one of terms.
func firstByEach(text string, terms []string) int {
	first := -1
	Each(text, func(term string, start, _ int) {
		if first < 0 && slices.Contains(terms, term) {
			first = start
		}
	})
	return first
}

func TestFirst(t *testing.T) {
	// words and separators of the kinds Normalize and the splitting treat
	// apart: stop words, one-letter words, digits, upper case, stems,
	// non-ASCII letters and combining marks, over-long runs, invalid UTF-8
	pieces := []string{
		"the", "The", "AND", "a", "I", "7", "42", "release", "Releases", "RELEASED", "releasing",
		"policy", "Policies", "Çalışma", "çalışma", "DÜZENİ", "ortamı", "e\u0301te", "日本語", "Ωmega",
		strings.Repeat("abcdefghij", 5), "x_y", "api-design",
		" ", "  ", ",", ".", "-", "\n", "\t", "\xff", "\xc3", "—", "\u00a0", "'",
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(16) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := b.String()
		var terms []string
		for range rng.IntN(4) {
			if ts := Terms(text); len(ts) > 0 && rng.IntN(3) > 0 {
				terms = append(terms, ts[rng.IntN(len(ts))])
			} else {
				terms = append(terms, Terms(pieces[rng.IntN(len(pieces))])...)
			}
		}
		if got, want := First(text, terms), firstByEach(text, terms); got != want {
			t.Fatalf("First(%q, %q) = %d, Each finds %d", text, terms, got, want)
		}
	}
	if got := First("The releases were released", []string{"releas"}); got != 4 {
		t.Errorf("First = %d, want 4", got)
	}
	if got := First("the and of", []string{"the"}); got != -1 {
		t.Errorf("First over stop words = %d, want -1", got)
	}
}

func TestSpeller(t *testing.T) {
	terms := []string{"idempotency", "incident", "pagination", "observability", "telemetry"}
	s := NewSpeller(terms)
	for word, want := range map[string]string{
		"idempotancy": "idempotency", "incidnet": "incident", "obervability": "observability", "telemetery": "telemetry",
	} {
		id, sim, ok := s.Nearest(word)
		if !ok || terms[id] != want || sim < MinSimilarity || sim >= 1 {
			t.Errorf("Nearest(%q) = %q, %.2f, %v; want %q", word, terms[id], sim, ok, want)
		}
	}
	for _, word := range []string{"zebra", "api", "quantum"} {
		if id, _, ok := s.Nearest(word); ok {
			t.Errorf("Nearest(%q) = %q, want no match", word, terms[id])
		}
	}
}

func TestCountAll(t *testing.T) {
	docs := [][]string{
		{"Agents agent", "the agent kernel"},
		{"kernel", "Kernel panics"},
		{"", ""},
	}
	counts, terms := CountAll(len(docs), 2, func(d, f int) string { return docs[d][f] }, Prose)
	if want := []string{"agent", "kernel", "panic"}; !slices.Equal(terms, want) {
		t.Fatalf("terms = %q, want %q", terms, want)
	}
	want := [][]Count{
		{{Term: 0, Field: 0, N: 2}, {Term: 0, Field: 1, N: 1}, {Term: 1, Field: 1, N: 1}},
		{{Term: 1, Field: 0, N: 1}, {Term: 1, Field: 1, N: 1}, {Term: 2, Field: 1, N: 1}},
		{},
	}
	for d := range want {
		if !slices.Equal(counts[d], want[d]) {
			t.Errorf("doc %d: counts %v, want %v", d, counts[d], want[d])
		}
	}
}
