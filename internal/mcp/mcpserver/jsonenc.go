package mcpserver

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
)

// jsonAppender is a payload that writes its own JSON into w, byte for byte
// what encoding/json.Marshal writes for it, without reflection: the
// payloads of the hottest calls (find_entity, query_agent_memory), whose
// encoding by reflection was a tenth of a call's CPU. A value that
// encoding/json refuses (a NaN or infinite number) marks w refused, and
// encoding/json then encodes the payload to say why.
//
// The method belongs on payload types alone, never on a type they embed
// (peerFields): promoted, it would make every payload that embeds the type
// answer with the embedded fields alone.
type jsonAppender interface {
	appendJSON(w *jsonWriter)
}

// encodePayload returns the JSON of a tool's payload: written by the
// payload itself when it is a jsonAppender, else by encoding/json. Either
// way the bytes are a slice of their own, which the result keeps.
func encodePayload(payload any) ([]byte, error) {
	a, ok := payload.(jsonAppender)
	if !ok {
		return json.Marshal(payload)
	}
	w := jsonWriters.Get().(*jsonWriter)
	defer w.release()
	a.appendJSON(w)
	if w.refused {
		return json.Marshal(payload)
	}
	// The writer's buffer goes back to the pool; the result gets a copy
	// of the exact size, allocated once.
	return slices.Clone(w.buf), nil
}

// jsonWriter holds the JSON a jsonAppender writes, and the scratch it
// sorts map keys in. Writers are pooled (jsonWriters); their buffer never
// leaves encodePayload.
type jsonWriter struct {
	buf  []byte
	keys []string
	// refused is set by a value encoding/json would not encode.
	refused bool
}

var jsonWriters = sync.Pool{New: func() any { return &jsonWriter{buf: make([]byte, 0, 4096)} }}

// maxPooledJSON caps the buffer a pooled writer keeps, so that one huge
// payload does not stay pinned in the pool.
const maxPooledJSON = 64 << 10

// release empties w and puts it back into the pool.
func (w *jsonWriter) release() {
	if cap(w.buf) > maxPooledJSON {
		return
	}
	w.buf, w.refused = w.buf[:0], false
	jsonWriters.Put(w)
}

// raw writes s as it is: punctuation and pre-spelled keys.
func (w *jsonWriter) raw(s string) { w.buf = append(w.buf, s...) }

// string writes s as a JSON string, as encoding/json does (appendJSONText).
func (w *jsonWriter) string(s string) { w.buf = appendJSONText(w.buf, s) }

// strings writes list as an array of strings, null when nil.
func (w *jsonWriter) strings(list []string) {
	if list == nil {
		w.raw("null")
		return
	}
	w.buf = append(w.buf, '[')
	for i, s := range list {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		w.string(s)
	}
	w.buf = append(w.buf, ']')
}

func (w *jsonWriter) bool(v bool) { w.buf = strconv.AppendBool(w.buf, v) }

// optionalInt writes member (a comma, the key and the colon) and *n, or
// nothing when n is nil, as omitempty leaves out a nil pointer.
func (w *jsonWriter) optionalInt(member string, n *int) {
	if n != nil {
		w.raw(member)
		w.buf = strconv.AppendInt(w.buf, int64(*n), 10)
	}
}

// float writes f as encoding/json writes a float64: the shortest digits
// that read back as f, in exponent form below 1e-6 and from 1e21 up, the
// exponent without leading zeros. NaN and the infinities are refused.
func (w *jsonWriter) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.refused = true
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(w.buf, f, format, -1, 64)
	if n := len(b); format == 'e' && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // 1e-07 is written 1e-7
		b = b[:n-1]
	}
	w.buf = b
}

// writeMap writes m as encoding/json writes a map with string keys: null
// when nil, else an object whose entries are in the order of their keys'
// bytes, each value written by value.
func writeMap[V any](w *jsonWriter, m map[string]V, value func(*jsonWriter, V)) {
	if m == nil {
		w.raw("null")
		return
	}
	start := len(w.keys)
	for k := range m {
		w.keys = append(w.keys, k)
	}
	keys := w.keys[start:]
	slices.Sort(keys)
	w.buf = append(w.buf, '{')
	for i, k := range keys {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		w.string(k)
		w.buf = append(w.buf, ':')
		value(w, m[k])
	}
	w.buf = append(w.buf, '}')
	clear(keys) // the pool keeps no library strings alive
	w.keys = w.keys[:start]
}

func (w *jsonWriter) stringValue(s string) { w.string(s) }

// floatRef writes *f, null when f is nil.
func (w *jsonWriter) floatRef(f *float64) {
	if f == nil {
		w.raw("null")
		return
	}
	w.float(*f)
}

// jsonPlain[c] is whether encoding/json writes byte c inside a string as
// it is, HTML escaping on: printable ASCII but the quote, the backslash
// and <, > and &. Bytes from 0x80 up start a UTF-8 sequence, which
// appendJSONText decodes.
var jsonPlain = func() (plain [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		plain[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return plain
}()

const jsonHex = "0123456789abcdef"

// appendJSONText appends s as a JSON string exactly as encoding/json.Marshal
// writes one (HTML escaping on): the quote and the backslash escaped,
// \b \f \n \r \t by name, other control characters and <, > and & as
// \u00XX, each byte of invalid UTF-8 as \ufffd, and U+2028 and U+2029 as
// \u2028 and \u2029.
func appendJSONText(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonPlain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', jsonHex[c>>4], jsonHex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', jsonHex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// entityMatches writes list as encoding/json writes a []federation.EntityMatch.
func (w *jsonWriter) entityMatches(list []federation.EntityMatch) {
	if list == nil {
		w.raw("null")
		return
	}
	w.buf = append(w.buf, '[')
	for i := range list {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		m := &list[i]
		w.raw(`{"name":`)
		w.string(m.Name)
		w.raw(`,"agents":`)
		w.strings(m.Agents)
		w.raw(`,"types":`)
		w.strings(m.Types)
		w.raw(`,"summaries":`)
		writeMap(w, m.Summaries, (*jsonWriter).stringValue)
		w.raw(`,"tags":`)
		w.strings(m.Tags)
		w.buf = append(w.buf, '}')
	}
	w.buf = append(w.buf, ']')
}

// appendFields writes p's keys as members that follow others (each after
// a comma), leaving out the empty ones as their omitempty says. It is not
// appendJSON on purpose (see jsonAppender).
func (p *peerFields) appendFields(w *jsonWriter) {
	if len(p.PeerLatenciesUS) > 0 {
		w.raw(`,"peer_latencies_us":`)
		writeMap(w, p.PeerLatenciesUS, (*jsonWriter).floatRef)
	}
	w.optionalInt(`,"peers_queried":`, p.PeersQueried)
	w.optionalInt(`,"peers_responded":`, p.PeersResponded)
	w.optionalInt(`,"peers_timed_out":`, p.PeersTimedOut)
	if len(p.PeerErrors) > 0 {
		w.raw(`,"peer_errors":`)
		writeMap(w, p.PeerErrors, (*jsonWriter).stringValue)
	}
}

func (o findEntityOut) appendJSON(w *jsonWriter) {
	w.raw(`{"name":`)
	w.string(o.Name)
	w.raw(`,"access_level":`)
	w.string(o.AccessLevel)
	w.raw(`,"include_private":`)
	w.bool(o.IncludePrivate)
	w.raw(`,"matches":`)
	w.entityMatches(o.Matches)
	o.peerFields.appendFields(w)
	w.buf = append(w.buf, '}')
}

func (o queryAgentMemoryOut) appendJSON(w *jsonWriter) {
	w.raw(`{"agent":`)
	w.string(o.Agent)
	w.raw(`,"topic":`)
	w.string(o.Topic)
	w.raw(`,"access_level":`)
	w.string(o.AccessLevel)
	w.raw(`,"include_private":`)
	w.bool(o.IncludePrivate)
	w.raw(`,"matches":`)
	w.entityMatches(o.Matches)
	w.buf = append(w.buf, '}')
}
