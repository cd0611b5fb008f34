package requests

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

//go:embed intake-form.schema.json
var intakeSchemaJSON []byte

// IntakeSchema returns the JSON Schema (2020-12) of the intake form: what
// request_intake validates and describe_schema serves.
func IntakeSchema() []byte { return bytes.Clone(intakeSchemaJSON) }

// maxFormBytes bounds an intake form as sent.
const maxFormBytes = 256 << 10

// IntakeForm is a valid intake form.
type IntakeForm struct {
	Title          string `yaml:"title,omitempty" json:"title,omitempty"`
	Problem        string `yaml:"problem" json:"problem"`
	DesiredOutcome string `yaml:"desiredOutcome" json:"desiredOutcome"`
	Type           string `yaml:"type" json:"type"`
	Area           string `yaml:"area" json:"area"`
	Identity       string `yaml:"identity" json:"identity"`
	Owner          string `yaml:"owner" json:"owner"`
	Links          []Link `yaml:"links,omitempty" json:"links,omitempty"`
}

// Violation is one way an intake form breaks the schema.
type Violation struct {
	// Pointer is the JSON Pointer of the offending (or missing) value; ""
	// is the whole form.
	Pointer string `json:"pointer"`
	// Message says what is wrong and what to send instead.
	Message string `json:"message"`
}

// FormError is an intake form that does not validate. Its message lists
// every violation.
type FormError struct {
	Violations []Violation
}

func (e *FormError) Error() string {
	var b strings.Builder
	b.WriteString("the intake form is invalid:")
	for _, v := range e.Violations {
		p := v.Pointer
		if p == "" {
			p = "/"
		}
		fmt.Fprintf(&b, "\n- %s: %s", p, v.Message)
	}
	return b.String()
}

// ParseIntake validates a JSON intake form against IntakeSchema and
// decodes it. An invalid form is a *FormError listing every violation.
func ParseIntake(form []byte) (*IntakeForm, error) {
	if len(form) > maxFormBytes {
		return nil, &FormError{[]Violation{{Message: fmt.Sprintf("the form is %d bytes; send at most %d", len(form), maxFormBytes)}}}
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(form))
	if err != nil {
		return nil, &FormError{[]Violation{{Message: "not JSON: " + err.Error() + "; send a JSON object"}}}
	}
	if vs := validateIntake(doc); len(vs) > 0 {
		return nil, &FormError{vs}
	}
	var f IntakeForm
	if err := json.Unmarshal(form, &f); err != nil {
		return nil, &FormError{[]Violation{{Message: err.Error()}}}
	}
	var vs []Violation
	for i, l := range f.Links {
		at := fmt.Sprintf("/links/%d", i)
		for _, p := range linkProblems("", l) {
			vs = append(vs, Violation{at, strings.TrimPrefix(p, ": ")})
		}
	}
	if len(vs) > 0 {
		return nil, &FormError{vs}
	}
	return &f, nil
}

var intakeSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(intakeSchemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	const url = "https://bourdon.ai/schema/requests/intake-form.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
})

// intakeHints maps a schema location below the root (array indices
// written *) to its description, which tells the sender what to send.
var intakeHints = sync.OnceValue(func() map[string]string {
	var schema map[string]any
	_ = json.Unmarshal(intakeSchemaJSON, &schema)
	hints := map[string]string{}
	var walk func(s map[string]any, at string)
	walk = func(s map[string]any, at string) {
		if d, ok := s["description"].(string); ok && at != "" {
			hints[at] = d
		}
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			if ps, ok := p.(map[string]any); ok {
				walk(ps, at+"/"+name)
			}
		}
		if items, ok := s["items"].(map[string]any); ok {
			walk(items, at+"/*")
		}
	}
	walk(schema, "")
	return hints
})

func validateIntake(doc any) []Violation {
	s, err := intakeSchema()
	if err != nil {
		return []Violation{{Message: "the intake schema does not compile: " + err.Error()}}
	}
	verr := s.Validate(doc)
	if verr == nil {
		return nil
	}
	ve, ok := verr.(*jsonschema.ValidationError)
	if !ok {
		return []Violation{{Message: verr.Error()}}
	}
	var out []Violation
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		for _, c := range e.Causes {
			walk(c)
		}
		if len(e.Causes) == 0 {
			out = append(out, violations(e.InstanceLocation, e.ErrorKind)...)
		}
	}
	walk(ve)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return out
}

// violations words one schema error as violations that say what to send.
func violations(loc []string, k jsonschema.ErrorKind) []Violation {
	at := pointer(loc)
	var msg string
	switch k := k.(type) {
	case *kind.Required:
		var out []Violation
		for _, name := range k.Missing {
			p := at + "/" + escapePointer(name)
			out = append(out, Violation{p, withHint("missing", p)})
		}
		return out
	case *kind.AdditionalProperties:
		var out []Violation
		for _, name := range k.Properties {
			out = append(out, Violation{at + "/" + escapePointer(name), "not a field of the form; remove it"})
		}
		return out
	case *kind.Type:
		msg = fmt.Sprintf("is %s, want %s", k.Got, strings.Join(k.Want, " or "))
	case *kind.Enum:
		msg = fmt.Sprintf("%s is not allowed", display(k.Got))
	case *kind.Pattern:
		msg = fmt.Sprintf("%s is not in the expected form", display(k.Got))
	case *kind.MinLength:
		msg = fmt.Sprintf("is %d characters, want at least %d", k.Got, k.Want)
	case *kind.MaxLength:
		msg = fmt.Sprintf("is %d characters, want at most %d", k.Got, k.Want)
	case *kind.MaxItems:
		msg = fmt.Sprintf("has %d entries, want at most %d", k.Got, k.Want)
	default:
		msg = k.LocalizedString(message.NewPrinter(language.English))
	}
	return []Violation{{at, withHint(msg, at)}}
}

// withHint adds to msg what to send at pointer p.
func withHint(msg, p string) string {
	if h := hint(p); h != "" {
		return msg + "; send " + h
	}
	return msg
}

// display quotes a received value, cut short.
func display(v any) string {
	b, _ := json.Marshal(v)
	return truncate(string(b), 80)
}

// hint returns the description of the schema location of a pointer.
func hint(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if s != "" && strings.Trim(s, "0123456789") == "" {
			parts[i] = "*"
		}
	}
	h := intakeHints()[strings.Join(parts, "/")]
	return strings.TrimSuffix(lowerFirst(h), ".")
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func pointer(loc []string) string {
	var b strings.Builder
	for _, p := range loc {
		b.WriteByte('/')
		b.WriteString(escapePointer(p))
	}
	return b.String()
}

func escapePointer(s string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(s) }
