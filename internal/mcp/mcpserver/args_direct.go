package mcpserver

import (
	"encoding"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// argPlan is the direct path of an argDecoder: for a tool whose input
// schema is an object of scalar properties (strings, booleans, integers,
// each perhaps also null) that only says their types, which are required
// and what their defaults are, it reads the arguments' JSON straight into
// the fields of In, applying the defaults and capping the access level on
// the way, without the map, the schema walk and the second encoding of
// the general path.
//
// It answers only what it is sure the general path answers the same way,
// and declines everything else (decode's ok is false): anything but an
// object of known keys, each once, with a value of its property's type
// written plainly (a string, true or false, null where the schema admits
// it, an integer without fraction or exponent of at most 15 digits, for an
// int field), and every required argument sent. So every error comes
// from the general path, which TestDirectArgsMatchGeneral holds this path
// against.
type argPlan struct {
	props   []argProp
	access  int // index of access_level in props, or -1
	private int // index of include_private in props, or -1
}

// maxDirectArgs bounds the properties of a schema argPlan follows, so
// that a call's values fit in an array on the stack.
const maxDirectArgs = 16

// argType is the JSON type of a property argPlan follows.
type argType uint8

const (
	argString argType = iota
	argBool
	argInt
)

// argProp is one property of an argPlan and the field of In it fills.
type argProp struct {
	name     string
	typ      argType
	nullable bool  // the schema also admits null
	required bool  // listed in the schema's required
	field    []int // the field's index in In (reflect.Value.FieldByIndex)
	pointer  bool  // the field is a pointer to the value
	def      argValue
	hasDef   bool // the schema gives a default (for a property not required)
}

// argValue is the value of one argument in a call.
type argValue struct {
	set  bool // sent, or defaulted
	null bool
	s    string
	b    bool
	n    int64
}

// decode reads raw into dst (In, addressable) and returns the echoes, as
// the general path would; ok is false, and dst untouched, when it
// declines.
func (p *argPlan) decode(raw []byte, ceiling visibility.Level, dst reflect.Value) (echoes map[string]string, ok bool) {
	var vals [maxDirectArgs]argValue
	if !p.scan(raw, &vals) {
		return nil, false
	}
	for i, pr := range p.props {
		if v := vals[i]; v.set && !v.null && pr.typ == argString {
			if echoes == nil {
				echoes = make(map[string]string, len(p.props))
			}
			echoes[pr.name] = v.s
		}
	}
	for i, pr := range p.props {
		switch {
		case vals[i].set:
		case pr.required:
			return nil, false // the general path says it is missing
		case pr.hasDef:
			vals[i] = pr.def
		}
	}
	if p.access >= 0 && vals[p.access].set && !vals[p.access].null {
		if level, lowered := capLevel(vals[p.access].s, ceiling); lowered {
			vals[p.access].s = level
			if p.private >= 0 && vals[p.private].set && clearsPrivate(ceiling) {
				vals[p.private] = argValue{set: true}
			}
		}
	}
	for i, pr := range p.props {
		v := vals[i]
		if !v.set || v.null {
			continue
		}
		f := dst.FieldByIndex(pr.field)
		if pr.pointer {
			ptr := reflect.New(f.Type().Elem())
			f.Set(ptr)
			f = ptr.Elem()
		}
		switch pr.typ {
		case argString:
			f.SetString(v.s)
		case argBool:
			f.SetBool(v.b)
		case argInt:
			f.SetInt(v.n)
		}
	}
	return echoes, true
}

// scan reads the arguments' JSON into vals (by property index); false
// when it declines. No arguments and null are an empty object.
func (p *argPlan) scan(raw []byte, vals *[maxDirectArgs]argValue) bool {
	if len(raw) == 0 || string(raw) == "null" {
		return true
	}
	i := skipSpace(raw, 0)
	if i == len(raw) || raw[i] != '{' {
		return false
	}
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return skipSpace(raw, i+1) == len(raw)
	}
	for {
		if i == len(raw) || raw[i] != '"' {
			return false
		}
		end := i + 1
		for end < len(raw) && raw[end] != '"' && raw[end] != '\\' && raw[end] >= 0x20 {
			end++
		}
		if end == len(raw) || raw[end] != '"' {
			return false // an escape in a key, or no end
		}
		k := p.index(raw[i+1 : end])
		if k < 0 || vals[k].set {
			return false // unknown, or sent twice
		}
		i = skipSpace(raw, end+1)
		if i == len(raw) || raw[i] != ':' {
			return false
		}
		v, next, ok := p.props[k].value(raw, skipSpace(raw, i+1))
		if !ok {
			return false
		}
		vals[k] = v
		i = skipSpace(raw, next)
		if i == len(raw) {
			return false
		}
		switch raw[i] {
		case ',':
			i = skipSpace(raw, i+1)
		case '}':
			return skipSpace(raw, i+1) == len(raw)
		default:
			return false
		}
	}
}

// index returns the index of the property named key, or -1.
func (p *argPlan) index(key []byte) int {
	for i := range p.props {
		if p.props[i].name == string(key) {
			return i
		}
	}
	return -1
}

// value reads the JSON value at b[i:] as a value of pr, and returns the
// index just past it; ok is false when the direct path declines it.
func (pr *argProp) value(b []byte, i int) (v argValue, next int, ok bool) {
	if i == len(b) {
		return v, i, false
	}
	v.set = true
	switch c := b[i]; {
	case c == 'n' && pr.nullable && hasLiteral(b, i, "null"):
		v.null = true
		return v, i + 4, true
	case c == 't' && pr.typ == argBool && hasLiteral(b, i, "true"):
		v.b = true
		return v, i + 4, true
	case c == 'f' && pr.typ == argBool && hasLiteral(b, i, "false"):
		return v, i + 5, true
	case c == '"' && pr.typ == argString:
		return pr.stringValue(b, i)
	case (c == '-' || c >= '0' && c <= '9') && pr.typ == argInt:
		return pr.intValue(b, i)
	}
	return v, i, false
}

// stringValue reads the string literal at b[i:]. A literal with escapes
// or bytes that are not UTF-8 is decoded by encoding/json, as the general
// path decodes it.
func (pr *argProp) stringValue(b []byte, i int) (v argValue, next int, ok bool) {
	v.set = true
	escaped, ascii := false, true
	j := i + 1
	for ; j < len(b) && b[j] != '"'; j++ {
		switch c := b[j]; {
		case c == '\\':
			escaped = true
			j++
		case c < 0x20:
			return v, j, false // not valid JSON
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	if j >= len(b) {
		return v, j, false
	}
	if text := b[i+1 : j]; !escaped && (ascii || utf8.Valid(text)) {
		v.s = string(text)
	} else if json.Unmarshal(b[i:j+1], &v.s) != nil {
		return v, j, false
	}
	return v, j + 1, true
}

// intValue reads the integer at b[i:]: an optional minus and at most 15
// digits (so that the general path, which reads it as a float64, gets the
// same number), nothing like a fraction or an exponent after them.
func (pr *argProp) intValue(b []byte, i int) (v argValue, next int, ok bool) {
	v.set = true
	j := i
	if b[j] == '-' {
		j++
	}
	start := j
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		v.n = v.n*10 + int64(b[j]-'0')
		j++
	}
	digits := j - start
	switch {
	case digits == 0 || digits > 15 || digits > 1 && b[start] == '0':
		return v, j, false
	case j < len(b) && (b[j] == '.' || b[j] == 'e' || b[j] == 'E'):
		return v, j, false
	}
	if b[i] == '-' {
		v.n = -v.n
	}
	return v, j, true
}

// hasLiteral reports whether b[i:] starts with lit.
func hasLiteral(b []byte, i int, lit string) bool {
	return len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// planArgs returns the direct path for arguments of type t described by
// schema, or nil when the schema or the type is not one it follows: the
// schema must say no more than an object's scalar property types,
// required properties and defaults (read from its JSON, so that a keyword
// it does not know makes it decline), and each property must fill one
// field of t, found by encoding/json's rules, of a matching kind with no
// decoding method of its own.
func planArgs(schema *jsonschema.Schema, t reflect.Type) *argPlan {
	var top struct {
		Type                 string
		Properties           map[string]json.RawMessage
		Required             []string
		AdditionalProperties *bool
	}
	if !onlyKeys(schema, &top, "type", "properties", "required", "additionalProperties", "description", "title") ||
		top.Type != "object" || top.AdditionalProperties != nil && *top.AdditionalProperties ||
		len(top.Properties) > maxDirectArgs || t.Kind() != reflect.Struct {
		return nil
	}
	p := &argPlan{access: -1, private: -1}
	for _, name := range slices.Sorted(maps.Keys(top.Properties)) {
		pr, ok := planProp(name, top.Properties[name], slices.Contains(top.Required, name), t)
		if !ok {
			return nil
		}
		switch {
		case name == "access_level" && pr.typ == argString:
			p.access = len(p.props)
		case name == "include_private" && pr.typ == argBool:
			p.private = len(p.props)
		case name == "access_level" || name == "include_private":
			return nil // capAccess would treat it otherwise
		}
		p.props = append(p.props, pr)
	}
	for _, name := range top.Required {
		if _, ok := top.Properties[name]; !ok {
			return nil
		}
	}
	return p
}

// planProp returns the argProp of the property name of schema raw.
func planProp(name string, raw json.RawMessage, required bool, t reflect.Type) (argProp, bool) {
	var s struct {
		Type    json.RawMessage
		Default json.RawMessage
	}
	pr := argProp{name: name, required: required}
	if !onlyKeys(raw, &s, "type", "default", "description", "title") {
		return pr, false
	}
	var types []string
	var one string
	if json.Unmarshal(s.Type, &one) == nil {
		types = []string{one}
	} else if json.Unmarshal(s.Type, &types) != nil {
		return pr, false
	}
	if len(types) == 2 && slices.Contains(types, "null") {
		pr.nullable = true
		types = slices.DeleteFunc(types, func(t string) bool { return t == "null" })
	}
	if len(types) != 1 {
		return pr, false
	}
	var field reflect.StructField
	var ok bool
	if pr.field, field, ok = jsonField(t, name); !ok {
		return pr, false
	}
	ft := field.Type
	if ft.Kind() == reflect.Pointer {
		pr.pointer, ft = true, ft.Elem()
	}
	if reflect.PointerTo(ft).Implements(jsonUnmarshaler) || reflect.PointerTo(ft).Implements(textUnmarshaler) {
		return pr, false
	}
	switch k := ft.Kind(); {
	case types[0] == "string" && k == reflect.String:
		pr.typ = argString
	case types[0] == "boolean" && k == reflect.Bool:
		pr.typ = argBool
	case types[0] == "integer" && (k == reflect.Int || k == reflect.Int64):
		pr.typ = argInt
	default:
		return pr, false
	}
	if len(s.Default) > 0 && !required {
		def, next, ok := pr.value(s.Default, skipSpace(s.Default, 0))
		if !ok || skipSpace(s.Default, next) != len(s.Default) {
			return pr, false
		}
		pr.def, pr.hasDef = def, true
	}
	return pr, true
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// onlyKeys decodes the JSON of v (a schema, or a schema's JSON) into dst,
// and reports whether it is an object whose keys are all among keys.
func onlyKeys(v any, dst any, keys ...string) bool {
	b, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			return false
		}
	}
	var all map[string]json.RawMessage
	if json.Unmarshal(b, &all) != nil || all == nil {
		return false
	}
	for k := range all {
		if !slices.Contains(keys, k) {
			return false
		}
	}
	return json.Unmarshal(b, dst) == nil
}

// jsonField returns the index of the field of struct type t that
// encoding/json decodes the key name into (an exact match), by its rules:
// the shallowest match wins, through embedded structs, and of several at
// that depth the only tagged one. ok is false when there is none, when
// the rules leave none, through an embedded pointer, and for a field with
// the ",string" option.
func jsonField(t reflect.Type, name string) (index []int, field reflect.StructField, ok bool) {
	type level struct {
		t     reflect.Type
		index []int
	}
	type match struct {
		f      reflect.StructField
		index  []int
		tagged bool
	}
	for cur := []level{{t, nil}}; len(cur) > 0; {
		var next []level
		var found []match
		for _, l := range cur {
			for i := range l.t.NumField() {
				f := l.t.Field(i)
				tag := f.Tag.Get("json")
				if tag == "-" {
					continue
				}
				tname, opts, _ := strings.Cut(tag, ",")
				idx := append(slices.Clip(l.index), i)
				if f.Anonymous && tname == "" {
					switch f.Type.Kind() {
					case reflect.Struct:
						next = append(next, level{f.Type, idx})
						continue
					case reflect.Pointer:
						return nil, f, false
					}
				}
				if !f.IsExported() || tname != name && (tname != "" || f.Name != name) {
					continue
				}
				if slices.Contains(strings.Split(opts, ","), "string") {
					return nil, f, false
				}
				found = append(found, match{f, idx, tname != ""})
			}
		}
		if len(found) > 1 {
			found = slices.DeleteFunc(found, func(m match) bool { return !m.tagged })
		}
		switch len(found) {
		case 0:
			cur = next
		case 1:
			return found[0].index, found[0].f, true
		default:
			return nil, reflect.StructField{}, false
		}
	}
	return nil, reflect.StructField{}, false
}
