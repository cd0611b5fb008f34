package wordnet

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
)

// The lexicon file: a Lexicon's arrays as they are held, so that the
// server reads WordNet's lexicon from its own binary (lexicon.bin.gz, made
// by go generate from Debian's wordnet-base; see its ORIGIN) in a tenth
// of the time parsing WordNet's 22 MB of text files takes, and needs no
// package installed. The format, gzip-compressed:
//
//	lexiconMagic
//	names                       uint32 length, bytes
//	nameStart, senseStart, senses, wordStart, words,
//	kindStart, kinds, relatedStart, related
//	                            each: uint32 count, count little-endian 32-bit values;
//	                            a table of starts as the differences between them
//	plurals                     uint32 count, count pairs of strings (uint32 length, bytes)

//go:generate go run gen_lexicon.go

// lexiconMagic starts a lexicon file; its last byte is the format's version.
const lexiconMagic = "bourdon wordnet lexicon\x00\x01"

// maxLexiconFile bounds what ReadLexicon reads, decompressed.
const maxLexiconFile = 64 << 20

//go:embed lexicon.bin.gz
var embeddedLexicon []byte

var (
	lexiconOnce    sync.Once
	defaultLexicon *Lexicon
)

// DefaultLexicon is the lexicon built into the binary (lexicon.bin.gz),
// read once.
func DefaultLexicon() *Lexicon {
	lexiconOnce.Do(func() {
		x, err := ReadLexicon(bytes.NewReader(embeddedLexicon))
		if err != nil {
			panic("wordnet: the embedded lexicon does not read: " + err.Error())
		}
		defaultLexicon = x
	})
	return defaultLexicon
}

// fileArray is one of a Lexicon's arrays as the file holds it.
type fileArray struct {
	a      *[]int32
	starts bool // a table of starts, written as differences
}

// arrays returns the lexicon's arrays in the file's order.
func (x *Lexicon) arrays() []fileArray {
	return []fileArray{{&x.senseStart, true}, {&x.senses, false}, {&x.wordStart, true}, {&x.words, false}, {&x.kindStart, true}, {&x.kinds, false}, {&x.relatedStart, true}, {&x.related, false}}
}

// differences returns a's differences from the value before (the first
// from 0).
func differences[T int32 | uint32](a []T) []T {
	out := make([]T, len(a))
	var prev T
	for i, v := range a {
		out[i], prev = v-prev, v
	}
	return out
}

// sums undoes differences, in place.
func sums[T int32 | uint32](a []T) []T {
	for i := 1; i < len(a); i++ {
		a[i] += a[i-1]
	}
	return a
}

// Encode writes the lexicon file (gzip-compressed) to w.
func (x *Lexicon) Encode(w io.Writer) error {
	z := gzip.NewWriter(w)
	b := bufio.NewWriter(z)
	put := func(v uint32) { binary.Write(b, binary.LittleEndian, v) }
	putString := func(s string) {
		put(uint32(len(s)))
		b.WriteString(s)
	}
	b.WriteString(lexiconMagic)
	putString(x.names)
	put(uint32(len(x.nameStart)))
	binary.Write(b, binary.LittleEndian, differences(x.nameStart))
	for _, t := range x.arrays() {
		a := *t.a
		if t.starts {
			a = differences(a)
		}
		put(uint32(len(a)))
		binary.Write(b, binary.LittleEndian, a)
	}
	plurals := make([]string, 0, len(x.plurals))
	for p := range x.plurals {
		plurals = append(plurals, p)
	}
	slices.Sort(plurals)
	put(uint32(len(plurals)))
	for _, p := range plurals {
		putString(p)
		putString(x.plurals[p])
	}
	if err := b.Flush(); err != nil {
		return err
	}
	return z.Close()
}

// ReadLexicon reads a lexicon file that Encode wrote, and checks that
// every list is where its table of starts says and every number names a
// word or a synset of the lexicon.
func ReadLexicon(r io.Reader) (*Lexicon, error) {
	z, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("wordnet: lexicon file: %w", err)
	}
	data, err := io.ReadAll(io.LimitReader(z, maxLexiconFile+1))
	if err != nil {
		return nil, fmt.Errorf("wordnet: lexicon file: %w", err)
	}
	if len(data) > maxLexiconFile {
		return nil, fmt.Errorf("wordnet: lexicon file larger than %d bytes", maxLexiconFile)
	}
	return decodeLexicon(data)
}

// decodeLexicon reads a lexicon file's decompressed bytes.
func decodeLexicon(data []byte) (*Lexicon, error) {
	d := decoder{data: data}
	if string(d.bytes(len(lexiconMagic))) != lexiconMagic {
		return nil, errors.New("wordnet: not a lexicon file of this version")
	}
	x := &Lexicon{plurals: map[string]string{}}
	x.names = d.string()
	x.nameStart = sums(d.uint32s())
	for _, t := range x.arrays() {
		*t.a = d.int32s()
		if t.starts {
			sums(*t.a)
		}
	}
	for n := d.uint32(); n > 0 && d.err == nil; n-- {
		x.plurals[d.string()] = d.string()
	}
	if d.err == nil && len(d.data) > 0 {
		d.err = errors.New("bytes after the end")
	}
	if d.err == nil {
		d.err = x.check()
	}
	if d.err != nil {
		return nil, fmt.Errorf("wordnet: lexicon file: %w", d.err)
	}
	return x, nil
}

// check verifies the lexicon's shape (see ReadLexicon).
func (x *Lexicon) check() error {
	words := len(x.nameStart) - 1
	synsets := len(x.wordStart) - 1
	if words < 1 || synsets < 1 || len(x.kindStart) != synsets+1 || len(x.senseStart) != words+1 || len(x.relatedStart) != words+1 {
		return errors.New("tables of different sizes")
	}
	if x.nameStart[0] != 0 || int(x.nameStart[words]) != len(x.names) || !slices.IsSorted(x.nameStart) {
		return errors.New("the words are not where their table says")
	}
	for i := int32(1); i < int32(words); i++ {
		if x.name(i-1) >= x.name(i) {
			return errors.New("the words are not in order")
		}
	}
	for _, t := range []struct {
		start, values []int32
		below         int
	}{{x.senseStart, x.senses, synsets}, {x.wordStart, x.words, words}, {x.kindStart, x.kinds, synsets}, {x.relatedStart, x.related, words}} {
		if t.start[0] != 0 || int(t.start[len(t.start)-1]) != len(t.values) || !slices.IsSorted(t.start) {
			return errors.New("a list is not where its table says")
		}
		for _, v := range t.values {
			if v < 0 || int(v) >= t.below {
				return errors.New("a number out of range")
			}
		}
	}
	return nil
}

// decoder reads the lexicon file's values; the first error sticks.
type decoder struct {
	data []byte
	err  error
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.data) {
		if d.err == nil {
			d.err = errors.New("cut short")
		}
		return nil
	}
	b := d.data[:n]
	d.data = d.data[n:]
	return b
}

func (d *decoder) uint32() uint32 {
	if b := d.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) string() string { return string(d.bytes(int(d.uint32()))) }

func (d *decoder) uint32s() []uint32 {
	n := int(d.uint32())
	b := d.bytes(4 * n)
	if b == nil {
		return nil
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

func (d *decoder) int32s() []int32 {
	u := d.uint32s()
	out := make([]int32, len(u))
	for i, v := range u {
		out[i] = int32(v)
	}
	return out
}
