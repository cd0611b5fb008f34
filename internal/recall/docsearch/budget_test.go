package docsearch

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// fitBudgetByEncoding is fitBudget as it was written first, measuring
// each result by encoding it: the oracle of jsonSize.
func fitBudgetByEncoding[T any](rs []T, budget int) ([]T, int) {
	used := 0
	for i, r := range rs {
		b, err := json.Marshal(r)
		used += (len(b) + 1 + charsPerToken - 1) / charsPerToken
		if err != nil || used > budget {
			return rs[:i], len(rs) - i
		}
	}
	return rs, 0
}

// jsonPieces are the kinds of text the encoder escapes apart.
var jsonPieces = []string{
	"a", "Z", " ", "uid.of.a.doc", "\"", "\\", "/", "<", ">", "&", "\n", "\t", "\x00", "\x1f",
	"é", "日本", "\u2028", "\u2029", "😀", "\xff", "\xc3", "…", strings.Repeat("long text ", 30),
}

// jsonFloats are the floats whose spelling encoding/json treats apart;
// NaN and the infinities are drawn rarely, as refusals.
var jsonFloats = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e20, 1e21, 1e-6, 1e-7, -3.25e-9, 123.456789}

// fillRandom sets every field of v, recursively, to a random value: text
// of jsonPieces, edge and random floats, ints of every size, maps and
// slices nil, empty or filled. A kind it does not know fails the test, so
// that a new field of Result is filled or noticed.
func fillRandom(t *testing.T, rng *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(jsonPieces[rng.IntN(len(jsonPieces))])
		}
		v.SetString(b.String())
	case reflect.Float64:
		switch k := rng.IntN(100); {
		case k == 0:
			v.SetFloat([]float64{math.NaN(), math.Inf(1), math.Inf(-1)}[rng.IntN(3)])
		case k < 40:
			v.SetFloat(jsonFloats[rng.IntN(len(jsonFloats))])
		case k < 70:
			v.SetFloat(round(rng.NormFloat64() * 10))
		default:
			v.SetFloat(math.Ldexp(rng.Float64()-0.5, rng.IntN(160)-80))
		}
	case reflect.Int:
		v.SetInt(rng.Int64N(1<<uint(rng.IntN(63))) - rng.Int64N(2)*rng.Int64N(1000))
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Struct:
		for i := range v.NumField() {
			fillRandom(t, rng, v.Field(i))
		}
	case reflect.Map:
		if rng.IntN(3) == 0 {
			v.SetZero()
			return
		}
		v.Set(reflect.MakeMap(v.Type()))
		for range rng.IntN(4) {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fillRandom(t, rng, k)
			fillRandom(t, rng, e)
			v.SetMapIndex(k, e)
		}
	case reflect.Slice:
		if rng.IntN(3) == 0 {
			v.SetZero()
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), rng.IntN(4), 4))
		for i := range v.Len() {
			fillRandom(t, rng, v.Index(i))
		}
	default:
		t.Fatalf("fillRandom does not fill a %s", v.Type())
	}
}

func TestResultJSONSize(t *testing.T) { checkJSONSize(t, (*Result).jsonSize) }

func TestCodeResultJSONSize(t *testing.T) { checkJSONSize(t, (*CodeResult).jsonSize) }

// checkJSONSize holds size, a result type's jsonSize, against
// json.Marshal on 20,000 random results (every field filled, so that a
// field added later and not measured fails), and fitBudget with it
// against fitBudgetByEncoding.
func checkJSONSize[T any](t *testing.T, size func(*T) int) {
	rng := rand.New(rand.NewPCG(11, 12))
	var all []T
	for range 20000 {
		var r T
		fillRandom(t, rng, reflect.ValueOf(&r).Elem())
		all = append(all, r)
		want := -1
		if b, err := json.Marshal(r); err == nil {
			want = len(b)
		}
		if got := size(&r); got != want {
			b, _ := json.Marshal(r)
			t.Fatalf("jsonSize = %d, json.Marshal writes %d bytes: %s", got, want, b)
		}
	}
	for range 5000 {
		start := rng.IntN(len(all) - 12)
		rs := all[start : start+rng.IntN(12)]
		budget := rng.IntN(600)
		got, gotDropped := fitBudget(rs, budget, size)
		want, wantDropped := fitBudgetByEncoding(rs, budget)
		if len(got) != len(want) || gotDropped != wantDropped {
			t.Fatalf("budget %d: fitBudget keeps %d and drops %d, by encoding %d and %d", budget, len(got), gotDropped, len(want), wantDropped)
		}
	}
}
