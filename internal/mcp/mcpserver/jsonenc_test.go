package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
)

// jsonPieces are the bits random strings are made of: what encoding/json
// escapes (quote, backslash, control characters, <, > and &, U+2028 and
// U+2029), invalid UTF-8 (lone continuation and lead bytes, a truncated
// sequence, a surrogate, an overlong form), and plain and non-ASCII text.
var jsonPieces = []string{
	"", "a", "Bourdon", " ", `"`, `\`, `\"`, "/", "\x00", "\x01", "\x1f", "\b", "\f", "\n", "\r", "\t", "\x7f",
	"<", ">", "&", "<script>", "\u2028", "\u2029", "\u2027", "\u202a", "\ufffd",
	"\xff", "\x80", "\xc3", "\xe2\x80", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80",
	"é", "日本語", "🎵", "\U0010ffff", "peer:a:b", "sk-live-0123456789abcdef",
}

func randomJSONText(r *rand.Rand) string {
	var sb strings.Builder
	for range r.IntN(8) {
		sb.WriteString(jsonPieces[r.IntN(len(jsonPieces))])
	}
	return sb.String()
}

// randomJSONFloat draws from the numbers encoding/json spells in special
// ways: zero and minus zero, the edges of the exponent form (1e-6, 1e21),
// integers, fractions and the extremes.
func randomJSONFloat(r *rand.Rand) float64 {
	special := []float64{0, math.Copysign(0, -1), 1, -1, 1e-6, 9.99e-7, 1e-7, 1e21, 9.99e20, 1e20, 123456.789,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 5e-324, 1.5e-300, 12.5, 1e100}
	switch r.IntN(3) {
	case 0:
		return special[r.IntN(len(special))]
	case 1:
		return float64(r.IntN(2_000_000)) / 100
	default:
		return math.Float64frombits(r.Uint64()) // NaN and infinities redrawn by fillRandom
	}
}

// fillRandom sets every field encoding/json writes of v, reached by reflection so that a field added
// to a payload type later is filled too and the oracle sees it: strings
// from jsonPieces, nil, empty or filled slices, maps and pointers.
func fillRandom(r *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(randomJSONText(r))
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int:
		v.SetInt(r.Int64N(2_000_001) - 1_000_000)
	case reflect.Float64:
		f := randomJSONFloat(r)
		for math.IsNaN(f) || math.IsInf(f, 0) {
			f = randomJSONFloat(r)
		}
		v.SetFloat(f)
	case reflect.Pointer:
		if r.IntN(3) > 0 {
			v.Set(reflect.New(v.Type().Elem()))
			fillRandom(r, v.Elem())
		}
	case reflect.Slice:
		switch n := r.IntN(6) - 1; {
		case n == 0:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		case n > 0:
			v.Set(reflect.MakeSlice(v.Type(), n, n))
			for i := range n {
				fillRandom(r, v.Index(i))
			}
		}
	case reflect.Map:
		if n := r.IntN(6) - 1; n >= 0 {
			m := reflect.MakeMap(v.Type())
			for range n {
				k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
				fillRandom(r, k)
				fillRandom(r, e)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			// encoding/json writes exported fields and those of embedded
			// structs, whose fields are settable here too.
			if f := v.Type().Field(i); f.IsExported() || f.Anonymous {
				fillRandom(r, v.Field(i))
			}
		}
	default:
		panic(fmt.Sprintf("fillRandom: no generator for %s", v.Type()))
	}
}

// checkEncoding holds encodePayload against encoding/json.Marshal for v:
// the same bytes, or an error from both.
func checkEncoding(t *testing.T, v any) {
	t.Helper()
	if _, ok := v.(jsonAppender); !ok {
		t.Fatalf("%T writes no JSON of its own", v)
	}
	want, wantErr := json.Marshal(v)
	got, err := encodePayload(v)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%#v:\nerror %v, encoding/json's %v", v, err, wantErr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%#v:\n got %q\nwant %q", v, got, want)
	}
}

// TestAppendJSONOracle holds the payloads that write their own JSON
// against encoding/json over generated values, and over a few written out.
func TestAppendJSONOracle(t *testing.T) {
	one, three := 1, 3
	lat := 12.5
	edges := []any{
		findEntityOut{},
		findEntityOut{Matches: []federation.EntityMatch{}},
		findEntityOut{Matches: []federation.EntityMatch{{}}},
		findEntityOut{Matches: []federation.EntityMatch{{Agents: []string{}, Types: []string{}, Summaries: map[string]string{}, Tags: []string{}}}},
		findEntityOut{peerFields: peerFields{PeerLatenciesUS: map[string]*float64{}, PeerErrors: map[string]string{}}},
		findEntityOut{peerFields: peerFields{PeerLatenciesUS: map[string]*float64{"b": nil, "a": &lat, "<": nil}, PeersQueried: &three, PeersResponded: &one, PeerErrors: map[string]string{"b": "x", "a\xff": "y", "a": "z"}}},
		queryAgentMemoryOut{},
		queryAgentMemoryOut{Agent: "a<b>&c", Topic: "\u2028\xff\"\\", Matches: []federation.EntityMatch{{Name: "n", Summaries: map[string]string{"z": "1", "Z": "2", "é": "3"}}}},
	}
	for _, v := range edges {
		checkEncoding(t, v)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20_000 {
		var fe findEntityOut
		fillRandom(r, reflect.ValueOf(&fe).Elem())
		likeFederation(r, fe.Matches)
		checkEncoding(t, fe)
		var qa queryAgentMemoryOut
		fillRandom(r, reflect.ValueOf(&qa).Elem())
		likeFederation(r, qa.Matches)
		checkEncoding(t, qa)
	}
}

// likeFederation reshapes most of the matches as federation builds them,
// agents in byte order and summaries keyed by some of them, so that the
// summaries' fast path is taken; sometimes with a key no agent names, or
// a repeated agent, which must send it the general way.
func likeFederation(r *rand.Rand, matches []federation.EntityMatch) {
	for i := range matches {
		m := &matches[i]
		if r.IntN(4) == 0 || len(m.Agents) == 0 {
			continue
		}
		slices.Sort(m.Agents)
		if r.IntN(8) > 0 {
			m.Agents = slices.Compact(m.Agents)
		}
		m.Summaries = map[string]string{}
		for _, a := range m.Agents {
			if r.IntN(4) > 0 {
				m.Summaries[a] = randomJSONText(r)
			}
		}
		if r.IntN(8) == 0 {
			m.Summaries[randomJSONText(r)] = randomJSONText(r)
		}
	}
}

// TestAppendJSONRefusesWhatJSONRefuses: a latency encoding/json cannot
// write fails the call as it did, with encoding/json's error.
func TestAppendJSONRefusesWhatJSONRefuses(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		v := findEntityOut{Name: "x", peerFields: peerFields{PeerLatenciesUS: map[string]*float64{"p": &f}}}
		checkEncoding(t, v)
		_, want := json.Marshal(v)
		if _, err := encodePayload(v); err == nil || err.Error() != want.Error() {
			t.Errorf("%v: error %v, want %v", f, err, want)
		}
	}
	// The pooled writer forgets the refusal.
	checkEncoding(t, findEntityOut{Name: "after"})
}

// TestEncodePayloadOwnsItsBytes: a result is not overwritten by the
// encodings that follow (the pooled buffer is copied, never handed out).
func TestEncodePayloadOwnsItsBytes(t *testing.T) {
	first, err := encodePayload(findEntityOut{Name: "first"})
	if err != nil {
		t.Fatal(err)
	}
	want := string(first)
	for range 100 {
		if _, err := encodePayload(findEntityOut{Name: strings.Repeat("later", 50)}); err != nil {
			t.Fatal(err)
		}
	}
	if string(first) != want {
		t.Fatalf("the first result now reads %q, was %q", first, want)
	}
}

// FuzzFindEntityAppendJSON holds findEntityOut's own JSON against
// encoding/json for values built from fuzzed strings (names, agents,
// summaries' keys and texts, tags, peer names and errors), shape decides
// which slices, maps and pointers are nil, empty or set:
//
//	go test -run '^$' -fuzz FuzzFindEntityAppendJSON -fuzztime 60s ./internal/mcp/mcpserver/
func FuzzFindEntityAppendJSON(f *testing.F) {
	f.Add("Bourdon", "agent-a", "summary <b>&amp;</b>", "tag\u2028", "peer-1", "timeout\xff", uint16(0xffff), 12.5)
	f.Add("", "", "", "", "", "", uint16(0), 0.0)
	f.Add("\"\\\x00\x1f\x7f", "\xed\xa0\x80", "日本語\u2029", "\xc3", "<", ">", uint16(0x5555), 1e-7)
	f.Add("a", "b", "c", "d", "e", "f", uint16(0xaaaa), 1e21)
	f.Add("n", "agent-b", "s", "t", "agent-a", "e", uint16(0xffff), 3.0)
	f.Fuzz(func(t *testing.T, name, agent, summary, tag, peer, peerErr string, shape uint16, latency float64) {
		bit := func(i int) bool { return shape&(1<<i) != 0 }
		// list is nil, empty, or the given strings, as two bits of shape say.
		list := func(i int, s ...string) []string {
			switch {
			case !bit(i):
				return nil
			case !bit(i + 1):
				return []string{}
			}
			return s
		}
		m := federation.EntityMatch{Name: name, Agents: list(0, agent, peer), Types: list(2, tag), Tags: list(4, tag, summary, name)}
		if bit(12) {
			slices.Sort(m.Agents) // as federation orders them
		}
		switch {
		case bit(6) && bit(13):
			m.Summaries = map[string]string{agent: summary, peer: peerErr}
		case bit(6):
			m.Summaries = map[string]string{agent: summary, peer: peerErr, summary: agent}
		case bit(13):
			m.Summaries = map[string]string{peer: summary}
		}
		out := findEntityOut{Name: name, AccessLevel: tag, IncludePrivate: bit(7)}
		if bit(8) {
			out.Matches = []federation.EntityMatch{m, {Name: summary}}
		} else if bit(9) {
			out.Matches = []federation.EntityMatch{}
		}
		if bit(10) {
			n := int(shape) - 30000
			out.PeersQueried, out.PeersResponded = &n, &n
			out.PeerLatenciesUS = map[string]*float64{peer: &latency, agent: nil}
			out.PeerErrors = map[string]string{peer: peerErr, name: tag}
		}
		if bit(11) {
			out.PeersTimedOut = new(int)
		}
		checkEncoding(t, out)
	})
}

// benchmarkFindEntityOut is a large find_entity payload (7 KB; the cost
// bench's average 2 KB): two matches, known to 25 agents each, with a
// summary each that has characters to escape.
func benchmarkFindEntityOut() findEntityOut {
	out := findEntityOut{Name: "Bourdon Federation", AccessLevel: "team"}
	for i := range 2 {
		m := federation.EntityMatch{Name: fmt.Sprintf("Bourdon Federation %d", i), Types: []string{"project", "concept"}, Tags: []string{"memory", "mcp", "federation"}, Summaries: map[string]string{}}
		for a := range 25 {
			agent := fmt.Sprintf("agent-%03d", a*4+i)
			m.Agents = append(m.Agents, agent)
			m.Summaries[agent] = fmt.Sprintf("Agent %d's notes on the federation: how peers answer & what <scope> they share, %d sessions.", a, a*7)
		}
		out.Matches = append(out.Matches, m)
	}
	return out
}

// BenchmarkEncodeFindEntity compares encoding/json with findEntityOut's
// own JSON on one find_entity payload:
//
//	go test -run '^$' -bench EncodeFindEntity -benchmem ./internal/mcp/mcpserver/
func BenchmarkEncodeFindEntity(b *testing.B) {
	out := benchmarkFindEntityOut()
	encoders := []struct {
		name   string
		encode func(any) ([]byte, error)
	}{{"encoding-json", json.Marshal}, {"appendJSON", encodePayload}}
	for _, e := range encoders {
		b.Run(e.name, func(b *testing.B) {
			size := 0
			for b.Loop() {
				p, err := e.encode(out)
				if err != nil {
					b.Fatal(err)
				}
				size = len(p)
			}
			b.ReportMetric(float64(size), "payload-bytes")
		})
	}
}
