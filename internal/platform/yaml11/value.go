// Package yaml11 reads and writes YAML the way a YAML 1.1 reader such as
// PyYAML's safe_load sees it, so that manifests shared with the Python
// reference keep the same meaning on both sides.
//
// Decoding yields plain Go values: nil, bool, int64, *big.Int, float64,
// string, Date, Timestamp, []any and *Map. Plain scalars are resolved with
// the YAML 1.1 rules (unquoted 2026-06-08 is a Date, yes/no/on/off are
// booleans, 0.1 is a float); quoted and block scalars are always strings.
// Encoding quotes every string that a YAML 1.1 reader would otherwise turn
// into something else, so a Python reader gets strings back.
package yaml11

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// Map is a mapping that keeps its keys in insertion order, like a Python
// dict. Keys are strings; a non-string YAML key is stored as its Python
// str() form. The zero value is an empty map ready to use.
type Map struct {
	entries []Entry
}

// Entry is one key/value pair of a Map.
type Entry struct {
	Key   string
	Value any
}

// NewMap returns an empty map with room for n entries.
func NewMap(n int) *Map { return &Map{entries: make([]Entry, 0, n)} }

// Len returns the number of entries.
func (m *Map) Len() int {
	if m == nil {
		return 0
	}
	return len(m.entries)
}

// Entries returns the entries in order. The slice must not be modified.
func (m *Map) Entries() []Entry {
	if m == nil {
		return nil
	}
	return m.entries
}

// Get returns the value stored under key and whether it was present.
func (m *Map) Get(key string) (any, bool) {
	if m == nil {
		return nil, false
	}
	for i := range m.entries {
		if m.entries[i].Key == key {
			return m.entries[i].Value, true
		}
	}
	return nil, false
}

// Value returns the value stored under key, or nil.
func (m *Map) Value(key string) any {
	v, _ := m.Get(key)
	return v
}

// Set stores value under key. An existing key keeps its position, as in a
// Python dict; a new key is appended.
func (m *Map) Set(key string, value any) {
	for i := range m.entries {
		if m.entries[i].Key == key {
			m.entries[i].Value = value
			return
		}
	}
	m.entries = append(m.entries, Entry{Key: key, Value: value})
}

// Delete removes key if present.
func (m *Map) Delete(key string) {
	for i := range m.entries {
		if m.entries[i].Key == key {
			m.entries = append(m.entries[:i], m.entries[i+1:]...)
			return
		}
	}
}

// Clone returns a shallow copy of m: a new entry list holding the same values.
func (m *Map) Clone() *Map {
	if m == nil {
		return NewMap(0)
	}
	c := NewMap(len(m.entries))
	c.entries = append(c.entries, m.entries...)
	return c
}

// MarshalJSON writes the map as a JSON object in insertion order.
func (m *Map) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := appendJSON(&buf, m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// appendJSON writes v as JSON. Non-finite floats, which JSON cannot carry,
// become null; everything else follows encoding/json.
func appendJSON(buf *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case *Map:
		buf.WriteByte('{')
		for i, e := range x.Entries() {
			if i > 0 {
				buf.WriteByte(',')
			}
			k, _ := json.Marshal(e.Key)
			buf.Write(k)
			buf.WriteByte(':')
			if err := appendJSON(buf, e.Value); err != nil {
				return fmt.Errorf("key %q: %w", e.Key, err)
			}
		}
		buf.WriteByte('}')
		return nil
	case []any:
		buf.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := appendJSON(buf, item); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
		return nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			buf.WriteString("null")
			return nil
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	buf.Write(b)
	return nil
}

// Date is a calendar date, what an unquoted 2026-06-08 becomes.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// String returns the date as YYYY-MM-DD, like Python's str(date).
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day) }

// MarshalJSON writes the date as a JSON string YYYY-MM-DD.
func (d Date) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// Timestamp is a date and time, what an unquoted 2026-06-08T10:00:00Z
// becomes. HasZone reports whether the source named a zone; a timestamp
// without one is "naive" in Python terms and Time is then in UTC.
type Timestamp struct {
	Time    time.Time
	HasZone bool
}

// String returns the timestamp the way Python's str(datetime) does:
// "2026-06-08 10:00:00+00:00", with microseconds only when non-zero.
func (t Timestamp) String() string { return t.isoFormat(' ') }

// ISOFormat returns the timestamp the way Python's datetime.isoformat() does.
func (t Timestamp) ISOFormat() string { return t.isoFormat('T') }

func (t Timestamp) isoFormat(sep byte) string {
	tm := t.Time
	s := fmt.Sprintf("%04d-%02d-%02d%c%02d:%02d:%02d", tm.Year(), int(tm.Month()), tm.Day(), sep, tm.Hour(), tm.Minute(), tm.Second())
	if us := tm.Nanosecond() / 1000; us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	if t.HasZone {
		_, off := tm.Zone()
		sign := byte('+')
		if off < 0 {
			sign, off = '-', -off
		}
		s += fmt.Sprintf("%c%02d:%02d", sign, off/3600, off%3600/60)
	}
	return s
}

// MarshalJSON writes the timestamp as an ISO 8601 JSON string.
func (t Timestamp) MarshalJSON() ([]byte, error) { return json.Marshal(t.ISOFormat()) }
