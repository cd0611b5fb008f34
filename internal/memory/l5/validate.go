package l5

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// schemaJSON is the JSON Schema that Validate applies: the reference's L5
// schema plus known_workstreams and notes.
//
//go:embed l5_schema.json
var schemaJSON []byte

// Violation is one way a document breaks the schema.
type Violation struct {
	Keyword      string `json:"keyword"`      // the failing schema keyword: required, enum, pattern, ...
	InstancePath string `json:"instancePath"` // JSON Pointer to the offending value; "" is the document
	Message      string `json:"message"`
}

func (v Violation) String() string {
	path := v.InstancePath
	if path == "" {
		path = "/"
	}
	return fmt.Sprintf("%s: %s (%s)", path, v.Message, v.Keyword)
}

var (
	compileOnce sync.Once
	compiled    *jsonschema.Schema
	compileErr  error
)

func schema() (*jsonschema.Schema, error) {
	compileOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
		if err != nil {
			compileErr = err
			return
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		const url = "https://bourdon.ai/schema/L5_manifest_v0.1.json"
		if err := c.AddResource(url, doc); err != nil {
			compileErr = err
			return
		}
		compiled, compileErr = c.Compile(url)
	})
	return compiled, compileErr
}

// Validate checks a decoded document (the result of yaml11.Decode, or of
// encoding/json into any) against the L5 schema and returns every
// violation, ordered by path. A YAML date or timestamp written without
// quotes is checked as the text it stands for.
func Validate(doc any) []Violation {
	s, err := schema()
	if err != nil {
		return []Violation{{Keyword: "schema", Message: err.Error()}}
	}
	verr := s.Validate(jsonValue(doc))
	if verr == nil {
		return nil
	}
	ve, ok := verr.(*jsonschema.ValidationError)
	if !ok {
		return []Violation{{Keyword: "schema", Message: verr.Error()}}
	}
	printer := message.NewPrinter(language.English)
	var out []Violation
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			kw := ""
			if p := e.ErrorKind.KeywordPath(); len(p) > 0 {
				kw = p[0]
			}
			out = append(out, Violation{
				Keyword:      kw,
				InstancePath: pointer(e.InstanceLocation),
				Message:      e.ErrorKind.LocalizedString(printer),
			})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.SliceStable(out, func(i, j int) bool { return out[i].InstancePath < out[j].InstancePath })
	return out
}

func pointer(loc []string) string {
	var b strings.Builder
	for _, p := range loc {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
	}
	return b.String()
}

// jsonValue converts decoded YAML into the value model the validator
// expects (maps, slices, strings, json.Number, bools and nil).
func jsonValue(v any) any {
	switch x := v.(type) {
	case *yaml11.Map:
		m := make(map[string]any, x.Len())
		for _, e := range x.Entries() {
			m[e.Key] = jsonValue(e.Value)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = jsonValue(item)
		}
		return out
	case int64:
		return json.Number(strconv.FormatInt(x, 10))
	case *big.Int:
		return json.Number(x.String())
	case float64:
		return json.Number(yaml11.FloatRepr(x))
	case yaml11.Date:
		return x.String()
	case yaml11.Timestamp:
		return x.ISOFormat()
	}
	return v
}
