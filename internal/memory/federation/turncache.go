package federation

import (
	"encoding/binary"
	"errors"
	"math"
	"sort"

	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/recognition"
)

// The turn cache's encoding. A turn decodes the whole cache, so the format
// is made for decoding: every string is a slice of the one string the file
// was read into (no allocation per string), counts come first so that
// slices are allocated once. Layout, all integers as varints:
//
//	magic "BDTC", format, binary stamp, file count, then per file (in
//	name order): name, stamp (size, mtime, inode, ctime), agent id, rows,
//	problem, entity count, then per entity: name, type, summary,
//	valid_to, visibility, aliases, tags, merge key, phrase keys
//
// where a string is its length then its bytes, and a list its length then
// its items.

const turnCacheMagic = "BDTC"

var errTurnCache = errors.New("malformed")

// minEntityBytes is the least an encoded entity takes (nine fields of at
// least one byte): a count that would not fit in what is left is refused
// before anything is allocated for it.
const minEntityBytes = 9

func encodeTurnCache(c turnCache) []byte {
	b := []byte(turnCacheMagic)
	b = binary.AppendUvarint(b, uint64(c.Format))
	b = appendString(b, c.Binary)
	names := make([]string, 0, len(c.Files))
	for name := range c.Files {
		names = append(names, name)
	}
	sort.Strings(names)
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, name := range names {
		f := c.Files[name]
		b = appendString(b, name)
		b = binary.AppendVarint(b, f.Stamp.Size)
		b = binary.AppendVarint(b, f.Stamp.MTime)
		b = binary.AppendUvarint(b, f.Stamp.Ino)
		b = binary.AppendVarint(b, f.Stamp.CTime)
		b = appendString(b, f.ID)
		b = binary.AppendUvarint(b, uint64(f.Rows))
		b = appendString(b, f.Problem)
		b = binary.AppendUvarint(b, uint64(len(f.Entities)))
		for i := range f.Entities {
			e := &f.Entities[i]
			b = appendString(b, e.Name)
			b = appendString(b, e.Type)
			b = appendString(b, e.Summary)
			b = appendString(b, e.ValidTo)
			b = binary.AppendUvarint(b, uint64(e.Visibility))
			b = appendStrings(b, e.Aliases)
			b = appendStrings(b, e.Tags)
			b = appendString(b, f.Keys[i].Merge)
			b = appendStrings(b, f.Keys[i].Phrases)
		}
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendStrings(b []byte, list []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(list)))
	for _, s := range list {
		b = appendString(b, s)
	}
	return b
}

// decodeTurnCache reads what encodeTurnCache wrote. Strings of the result
// share data's memory. A cache of another format decodes to its format
// and binary alone (no files); anything malformed is an error.
func decodeTurnCache(data string) (c turnCache, err error) {
	d := turnDecoder{data: data}
	if len(data) < len(turnCacheMagic) || data[:len(turnCacheMagic)] != turnCacheMagic {
		return c, errTurnCache
	}
	d.pos = len(turnCacheMagic)
	c.Format = d.number()
	c.Binary = d.str()
	if c.Format != turnCacheFormat || d.err != nil {
		return c, d.err
	}
	n := d.count()
	c.Files = make(map[string]turnFile, n)
	for range n {
		name := d.str()
		var f turnFile
		f.Stamp = library.Stamp{Size: d.varint(), MTime: d.varint(), Ino: d.uvarint(), CTime: d.varint()}
		f.ID = d.str()
		f.Rows = d.number()
		f.Problem = d.str()
		ne := d.count()
		if ne > (len(d.data)-d.pos)/minEntityBytes {
			return turnCache{}, errTurnCache
		}
		if ne > 0 {
			f.Entities = make([]recognition.Entity, ne)
			f.Keys = make([]recognition.Keys, ne)
		}
		for i := range f.Entities {
			e := &f.Entities[i]
			e.Name, e.Type, e.Summary, e.ValidTo = d.str(), d.str(), d.str(), d.str()
			v := d.uvarint()
			if v > uint64(visibility.Private) {
				d.err = errTurnCache
			}
			e.Visibility = visibility.Level(v)
			e.Aliases, e.Tags = d.strs(), d.strs()
			f.Keys[i] = recognition.Keys{Merge: d.str(), Phrases: d.strs()}
		}
		if d.err != nil {
			return turnCache{}, d.err
		}
		c.Files[name] = f
	}
	if d.err != nil || d.pos != len(data) {
		return turnCache{}, errTurnCache
	}
	return c, nil
}

type turnDecoder struct {
	data string
	pos  int
	err  error
	pool []string // backing store of the string lists, taken in chunks
}

func (d *turnDecoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	var x uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if d.pos >= len(d.data) {
			break
		}
		c := d.data[d.pos]
		d.pos++
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x
		}
	}
	d.err = errTurnCache
	return 0
}

func (d *turnDecoder) varint() int64 {
	u := d.uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

// number reads a non-negative int.
func (d *turnDecoder) number() int {
	n := d.uvarint()
	if n > math.MaxInt32 {
		d.err = errTurnCache
		return 0
	}
	return int(n)
}

// count reads a length, which can never exceed the bytes left (every item
// takes at least one).
func (d *turnDecoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.data)-d.pos) || n > math.MaxInt32 {
		d.err = errTurnCache
		return 0
	}
	return int(n)
}

func (d *turnDecoder) str() string {
	n := d.count()
	if d.err != nil {
		return ""
	}
	s := d.data[d.pos : d.pos+n]
	d.pos += n
	return s
}

// strs reads a list of strings. Lists are cut from shared chunks (with
// their capacity capped, so that appending to one copies it) rather than
// allocated one by one.
func (d *turnDecoder) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	if len(d.pool)+n > cap(d.pool) {
		d.pool = make([]string, 0, max(n, 4096))
	}
	start := len(d.pool)
	for range n {
		d.pool = append(d.pool, d.str())
	}
	return d.pool[start:len(d.pool):len(d.pool)]
}
