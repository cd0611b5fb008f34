package embed

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

// modelMagic opens the binary form of a Model, with its format version.
const modelMagic = "bourdon-lsa-1\n"

// maxStoredTerms bounds the vocabulary of a model read back (training
// keeps at most maxVocab).
const maxStoredTerms = maxVocab

// MarshalBinary encodes the model: the magic, the dimension, the terms,
// their idf and their vectors. A model read back by UnmarshalModel is
// the same model, name included.
func (m *Model) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(modelMagic)
	b.Write(binary.AppendUvarint(nil, uint64(m.dim)))
	b.Write(binary.AppendUvarint(nil, uint64(len(m.terms))))
	for _, t := range m.terms {
		b.Write(binary.AppendUvarint(nil, uint64(len(t))))
		b.WriteString(t)
	}
	buf := make([]byte, 4)
	for _, xs := range [][]float32{m.idf, m.vecs} {
		for _, x := range xs {
			binary.LittleEndian.PutUint32(buf, math.Float32bits(x))
			b.Write(buf)
		}
	}
	return b.Bytes(), nil
}

// UnmarshalModel decodes a model encoded by MarshalBinary. Input that is
// not one, truncated or oversized is an error.
func UnmarshalModel(data []byte) (*Model, error) {
	rest, ok := bytes.CutPrefix(data, []byte(modelMagic))
	if !ok {
		return nil, errors.New("embed: not a stored model")
	}
	uvarint := func(limit uint64) (uint64, error) {
		v, n := binary.Uvarint(rest)
		if n <= 0 || v > limit {
			return 0, errors.New("embed: stored model is malformed")
		}
		rest = rest[n:]
		return v, nil
	}
	dim, err := uvarint(1 << 14)
	if err != nil {
		return nil, err
	}
	nterms, err := uvarint(maxStoredTerms)
	if err != nil {
		return nil, err
	}
	if dim == 0 || uint64(len(rest)) < 4*nterms*(dim+1) {
		return nil, errors.New("embed: stored model is truncated")
	}
	m := &Model{dim: int(dim), vocab: make(map[string]int32, nterms), terms: make([]string, nterms)}
	for i := range m.terms {
		l, err := uvarint(analyze.MaxTermLen * 4)
		if err != nil || uint64(len(rest)) < l {
			return nil, errors.New("embed: stored model is malformed")
		}
		m.terms[i] = string(rest[:l])
		m.vocab[m.terms[i]] = int32(i)
		rest = rest[l:]
	}
	floats := func(n uint64) ([]float32, error) {
		if uint64(len(rest)) < 4*n {
			return nil, errors.New("embed: stored model is truncated")
		}
		out := make([]float32, n)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(rest[4*i:]))
		}
		rest = rest[4*n:]
		return out, nil
	}
	if m.idf, err = floats(nterms); err != nil {
		return nil, err
	}
	if m.vecs, err = floats(nterms * dim); err != nil {
		return nil, err
	}
	if len(rest) != 0 || len(m.vocab) != len(m.terms) {
		return nil, fmt.Errorf("embed: stored model is malformed (%d bytes left)", len(rest))
	}
	m.speller = analyze.NewSpeller(m.terms)
	m.name = modelName(m)
	return m, nil
}
