package mcpserver

import (
	"encoding/json"
	"slices"
	"strconv"
	"sync"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/platform/jsontext"
)

// jsonAppender is a payload that appends its own JSON to dst, byte for
// byte what encoding/json.Marshal writes for it, without reflection: the
// payloads of the hottest calls (find_entity, query_agent_memory), whose
// encoding by reflection was a tenth of a call's CPU. A value encoding/json
// refuses (a NaN or infinite number) gives an error, and encoding/json
// then encodes the payload to say why.
//
// The method belongs on payload types alone, never on a type they embed
// (peerFields): promoted, it would make every payload that embeds the type
// answer with the embedded fields alone.
type jsonAppender interface {
	appendJSON(dst []byte) ([]byte, error)
}

// encodePayload returns the JSON of a tool's payload: written by the
// payload itself when it is a jsonAppender, else by encoding/json. Either
// way the bytes are a slice of their own, which the result keeps.
func encodePayload(payload any) ([]byte, error) {
	a, ok := payload.(jsonAppender)
	if !ok {
		return json.Marshal(payload)
	}
	buf := jsonBuffers.Get().(*[]byte)
	b, err := a.appendJSON((*buf)[:0])
	// The result gets a copy of its own, allocated once at its size; the
	// buffer goes back to the pool unless one huge payload grew it.
	var out []byte
	if err == nil {
		out = slices.Clone(b)
	}
	if cap(b) <= maxPooledJSON {
		*buf = b
		jsonBuffers.Put(buf)
	}
	if err != nil {
		return json.Marshal(payload)
	}
	return out, nil
}

// jsonBuffers holds the buffers jsonAppenders write into; a buffer never
// leaves encodePayload.
var jsonBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// maxPooledJSON caps the buffer the pool keeps, so that one huge payload
// does not stay pinned in it.
const maxPooledJSON = 64 << 10

// appendJSONStrings appends list as an array of strings, null when nil.
func appendJSONStrings(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONText(b, s)
	}
	return append(b, ']')
}

// appendJSONFloatRef appends *f, null when f is nil.
func appendJSONFloatRef(b []byte, f *float64) ([]byte, error) {
	if f == nil {
		return append(b, "null"...), nil
	}
	return jsontext.AppendFloat(b, *f)
}

// appendJSONTextValue is appendJSONText as a value writer of
// appendJSONMap.
func appendJSONTextValue(b []byte, s string) ([]byte, error) { return appendJSONText(b, s), nil }

// appendJSONMap appends m as encoding/json writes a map with string keys:
// null when nil, else an object whose entries are in the order of their
// keys' bytes, each value appended by value.
func appendJSONMap[V any](b []byte, m map[string]V, value func([]byte, V) ([]byte, error)) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	var scratch [32]string // the keys of the maps we write, on the stack
	keys := scratch[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	var err error
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONText(b, k)
		b = append(b, ':')
		if b, err = value(b, m[k]); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// appendJSONInt appends member (a comma, the key and the colon) and *n,
// or nothing when n is nil, as omitempty leaves out a nil pointer.
func appendJSONInt(b []byte, member string, n *int) []byte {
	if n == nil {
		return b
	}
	b = append(b, member...)
	return strconv.AppendInt(b, int64(*n), 10)
}

// appendJSONText appends s as a JSON string exactly as
// encoding/json.Marshal writes one (HTML escaping on).
func appendJSONText(b []byte, s string) []byte { return jsontext.AppendString(b, s, jsontext.HTML) }

// appendJSONMatches appends list as encoding/json writes a
// []federation.EntityMatch.
func appendJSONMatches(b []byte, list []federation.EntityMatch) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range list {
		if i > 0 {
			b = append(b, ',')
		}
		m := &list[i]
		b = append(b, `{"name":`...)
		b = appendJSONText(b, m.Name)
		b = append(b, `,"agents":`...)
		b = appendJSONStrings(b, m.Agents)
		b = append(b, `,"types":`...)
		b = appendJSONStrings(b, m.Types)
		b = append(b, `,"summaries":`...)
		b = appendJSONSummaries(b, m.Summaries, m.Agents)
		b = append(b, `,"tags":`...)
		b = appendJSONStrings(b, m.Tags)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendJSONSummaries appends summaries as appendJSONMap does, in the
// order of agents when they are in byte order and name every key, as in
// federation's matches (a summary for each agent that has one): that
// spares collecting and sorting the keys.
func appendJSONSummaries(b []byte, summaries map[string]string, agents []string) []byte {
	if summaries != nil && len(summaries) <= len(agents) && strictlyIncreasing(agents) {
		start, written := len(b), 0
		b = append(b, '{')
		for _, a := range agents {
			s, ok := summaries[a]
			if !ok {
				continue
			}
			if written > 0 {
				b = append(b, ',')
			}
			written++
			b = appendJSONText(b, a)
			b = append(b, ':')
			b = appendJSONText(b, s)
		}
		if written == len(summaries) {
			return append(b, '}')
		}
		b = b[:start] // a key agents do not name: the general way
	}
	b, _ = appendJSONMap(b, summaries, appendJSONTextValue) // strings are never refused
	return b
}

// strictlyIncreasing is whether list is in byte order without repeats.
func strictlyIncreasing(list []string) bool {
	for i := 1; i < len(list); i++ {
		if list[i-1] >= list[i] {
			return false
		}
	}
	return true
}

// appendFields appends p's keys as members that follow others (each after
// a comma), leaving out the empty ones as their omitempty says. It is not
// appendJSON on purpose (see jsonAppender).
func (p *peerFields) appendFields(b []byte) ([]byte, error) {
	var err error
	if len(p.PeerLatenciesUS) > 0 {
		b = append(b, `,"peer_latencies_us":`...)
		if b, err = appendJSONMap(b, p.PeerLatenciesUS, appendJSONFloatRef); err != nil {
			return b, err
		}
	}
	b = appendJSONInt(b, `,"peers_queried":`, p.PeersQueried)
	b = appendJSONInt(b, `,"peers_responded":`, p.PeersResponded)
	b = appendJSONInt(b, `,"peers_timed_out":`, p.PeersTimedOut)
	if len(p.PeerErrors) > 0 {
		b = append(b, `,"peer_errors":`...)
		b, _ = appendJSONMap(b, p.PeerErrors, appendJSONTextValue)
	}
	return b, nil
}

func (o findEntityOut) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"name":`...)
	b = appendJSONText(b, o.Name)
	b = append(b, `,"access_level":`...)
	b = appendJSONText(b, o.AccessLevel)
	b = append(b, `,"include_private":`...)
	b = strconv.AppendBool(b, o.IncludePrivate)
	b = append(b, `,"matches":`...)
	b = appendJSONMatches(b, o.Matches)
	b, err := o.peerFields.appendFields(b)
	return append(b, '}'), err
}

func (o queryAgentMemoryOut) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"agent":`...)
	b = appendJSONText(b, o.Agent)
	b = append(b, `,"topic":`...)
	b = appendJSONText(b, o.Topic)
	b = append(b, `,"access_level":`...)
	b = appendJSONText(b, o.AccessLevel)
	b = append(b, `,"include_private":`...)
	b = strconv.AppendBool(b, o.IncludePrivate)
	b = append(b, `,"matches":`...)
	b = appendJSONMatches(b, o.Matches)
	return append(b, '}'), nil
}
