package deeper

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// The semantic arm's vectors on disk (Options.VectorCache), so that a
// restart does not send the whole library to the embedding service
// again. The file is a cache: checked when read, ignored when it is not
// one, of another embedder or damaged, and rewritten whole (never
// synced) when the arm has embedded new rows.
//
// Format: the line vectorCacheMagic, the embedder's name (uvarint length
// and bytes), the dimension and the number of vectors (uvarints), then
// each vector as the SHA-256 of its text and dimension float32 values,
// little-endian.
const (
	vectorCacheMagic = "bourdon-deeper-vectors-1\n"
	// maxVectorCacheBytes bounds the file read (about 400,000 vectors of
	// 768 dimensions).
	maxVectorCacheBytes = 1 << 30
	maxCacheDim         = 1 << 14
)

// readVectorCache returns the vectors of the file at path if it is a
// cache of embedder name with dimension dim.
func readVectorCache(path, name string, dim int) (map[[sha256.Size]byte][]float32, error) {
	data, err := fsutil.ReadRegular(path, maxVectorCacheBytes)
	if err != nil {
		return nil, err
	}
	rest, ok := bytes.CutPrefix(data, []byte(vectorCacheMagic))
	if !ok {
		return nil, errors.New("not a vector cache")
	}
	uvarint := func() (uint64, bool) {
		v, n := binary.Uvarint(rest)
		if n <= 0 {
			return 0, false
		}
		rest = rest[n:]
		return v, true
	}
	nameLen, ok := uvarint()
	if !ok || nameLen > uint64(len(rest)) {
		return nil, errors.New("vector cache: malformed header")
	}
	gotName := string(rest[:nameLen])
	rest = rest[nameLen:]
	gotDim, ok1 := uvarint()
	count, ok2 := uvarint()
	switch {
	case !ok1 || !ok2 || gotDim == 0 || gotDim > maxCacheDim:
		return nil, errors.New("vector cache: malformed header")
	case gotName != name || int(gotDim) != dim:
		return nil, fmt.Errorf("vector cache of %s (dimension %d), not of %s (dimension %d)", gotName, gotDim, name, dim)
	}
	record := sha256.Size + 4*dim
	if count != uint64(len(rest)/record) || len(rest)%record != 0 {
		return nil, errors.New("vector cache: truncated or oversized")
	}
	out := make(map[[sha256.Size]byte][]float32, count)
	for r := rest; len(r) > 0; r = r[record:] {
		v := make([]float32, dim)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(r[sha256.Size+4*i:]))
			if math.IsNaN(float64(v[i])) || math.IsInf(float64(v[i]), 0) {
				return nil, errors.New("vector cache: a non-finite value")
			}
		}
		out[[sha256.Size]byte(r[:sha256.Size])] = v
	}
	return out, nil
}

// writeVectorCache writes vecs as the cache of embedder name to path.
func writeVectorCache(path, name string, dim int, vecs map[[sha256.Size]byte][]float32) error {
	b := make([]byte, 0, len(vectorCacheMagic)+len(name)+32+len(vecs)*(sha256.Size+4*dim))
	b = append(b, vectorCacheMagic...)
	b = binary.AppendUvarint(b, uint64(len(name)))
	b = append(b, name...)
	b = binary.AppendUvarint(b, uint64(dim))
	b = binary.AppendUvarint(b, uint64(len(vecs)))
	for k, v := range vecs {
		b = append(b, k[:]...)
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	return fsutil.WriteCache(path, b, 0o600)
}
