package docsearch

import (
	"strconv"

	"github.com/getbourdon/bourdon-go/internal/platform/jsontext"
)

// charsPerToken is the token estimate: a token is about four characters
// of English text or JSON.
const charsPerToken = 4

// fitBudget keeps the leading results whose JSON, together, is at most
// budget tokens, and returns them with the number it dropped. size gives
// the length of a result's JSON as json.Marshal writes it, or -1 when
// json.Marshal refuses it: a result that cannot be encoded does not fit.
// Rank order is kept: once one result does not fit, neither does any
// after it.
func fitBudget[T any](rs []T, budget int, size func(*T) int) ([]T, int) {
	used := 0
	for i := range rs {
		n := size(&rs[i])
		used += (n + 1 + charsPerToken - 1) / charsPerToken // +1: the separating comma
		if n < 0 || used > budget {
			return rs[:i], len(rs) - i
		}
	}
	return rs, 0
}

// jsonSize returns len(json.Marshal(r)) without encoding r, or -1 when
// json.Marshal refuses r (a NaN or infinite number).
func (r *Result) jsonSize() int {
	z := sizer{n: len(`{"uid":,"label":,"title":,"uri":,"snippet":,"score":,"signals":}`)}
	z.text(r.UID)
	z.text(string(r.Label))
	z.text(r.Title)
	z.text(r.URI)
	z.text(r.Snippet)
	z.float(r.Score)
	r.Signals.size(&z)
	return z.total()
}

// jsonSize returns len(json.Marshal(r)) without encoding r, or -1 when
// json.Marshal refuses r (a NaN or infinite number).
func (r *CodeResult) jsonSize() int {
	z := sizer{n: len(`{"uid":,"title":,"uri":,"language":,"source":,"code":,"score":,"signals":}`)}
	z.text(r.UID)
	z.text(r.Title)
	z.text(r.URI)
	z.text(r.Language)
	z.text(r.Source)
	if r.Region != "" { // omitempty
		z.n += len(`,"region":`)
		z.text(r.Region)
	}
	z.text(r.Code)
	if r.CodeCut { // omitempty
		z.n += len(`,"codeCut":true`)
	}
	z.float(r.Score)
	r.Signals.size(&z)
	return z.total()
}

// size adds the length of s's JSON to z.
func (s *Signals) size(z *sizer) {
	z.n += len(`{"bm25":,"bm25Rank":,"cosine":,"vectorRank":,"rrf":,"fused":,"final":}`)
	z.float(s.BM25)
	z.int(s.BM25Rank)
	z.float(s.Cosine)
	z.int(s.VectorRank)
	z.float(s.RRF)
	z.float(s.Fused)
	if s.PPRAnchor != 0 { // omitempty
		z.n += len(`,"pprAnchor":`)
		z.float(s.PPRAnchor)
	}
	if len(s.Boosts) > 0 { // omitempty; the order of the keys leaves the length alone
		z.n += len(`,"boosts":{}`) + len(s.Boosts) - 1 // and a comma between entries
		for k, v := range s.Boosts {
			z.text(k)
			z.n++ // the colon
			z.float(v)
		}
	}
	z.float(s.Final)
}

// sizer adds up the lengths of JSON values as json.Marshal writes them.
type sizer struct {
	n       int
	refused bool // a value json.Marshal refuses
}

// total is the length added up, or -1 when a value was refused.
func (z *sizer) total() int {
	if z.refused {
		return -1
	}
	return z.n
}

// text adds a string, HTML-escaped as json.Marshal escapes it.
func (z *sizer) text(s string) { z.n += jsontext.Len(s, jsontext.HTML) }

func (z *sizer) float(f float64) {
	var buf [32]byte // the longest float64, -2.2250738585072014e-308, is 24 bytes
	b, err := jsontext.AppendFloat(buf[:0], f)
	z.n += len(b)
	z.refused = z.refused || err != nil
}

func (z *sizer) int(i int) {
	var buf [24]byte
	z.n += len(strconv.AppendInt(buf[:0], int64(i), 10))
}
