package deeper

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/platform/endpoint"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// L2 is an external retrieval backend (the reference's "L2 episodic
// memory"): given the prompt, it returns passages to append to the local
// context. Implementations must honour ctx: the caller gives them a
// deadline and stops waiting when it passes.
type L2 interface {
	Query(ctx context.Context, q L2Query) ([]Passage, error)
}

// L2Query is what a backend is asked.
type L2Query struct {
	// Query is the prompt.
	Query string `json:"query"`
	// TopK is the number of passages wanted.
	TopK int `json:"top_k"`
	// AccessLevel is the caller's access level, for backends that filter
	// by visibility themselves. The server does not apply it to what the
	// backend returns: only configure a backend whose content every caller
	// at any level may see.
	AccessLevel string `json:"access_level"`
}

// Passage is one retrieved passage.
type Passage struct {
	Text   string
	Source string
}

// The HTTP contract of the "http" protocol.
//
// Request: POST <endpoint>, Content-Type: application/json,
//
//	{"query": "<prompt>", "top_k": 5, "access_level": "team"}
//
// with "Authorization: Bearer <token>" when token_env names a set
// variable.
//
// Response: 200 with a JSON body, preferably
//
//	{"results": [{"text": "...", "source": "..."}, ...]}
//
// The shapes the reference's L2 formatter accepts are read too: a string;
// a list of strings or of objects carrying content, text, summary or body
// (the first non-empty); an object with such a list under results,
// passages, documents, items or content (an MCP tool result); an object
// with one of those text keys. A source comes from source, title, uri or
// id. Other bodies, non-2xx statuses and bodies over 1 MiB are errors.
//
// The "mcp" protocol calls the tool tool_name of the MCP server at the
// endpoint (streamable HTTP) with {"query", "top_k"}, as the reference
// does, and reads each text content (JSON in one of the shapes above, or
// plain text) as passages.

// MaxL2Body bounds an HTTP backend's response body.
const MaxL2Body = 1 << 20

// L2Config configures the backend. The file and environment keys follow
// the reference (core/l2_config.yaml, BOURDON_L2_*).
type L2Config struct {
	Enabled bool
	// Endpoint is the backend's URL: https, or http on a loopback host.
	Endpoint string
	// Protocol is "mcp" (the reference's FastMCP client; the default) or
	// "http" (the JSON contract above).
	Protocol string
	// ToolName is the MCP tool called (protocol mcp).
	ToolName string
	// TopK is the number of passages asked for and kept, 1..10.
	TopK int
	// Timeout is the deadline of one query, 50ms..30s. The local context
	// never waits longer than this for the backend.
	Timeout time.Duration
	// TokenEnv names an environment variable (BOURDON_L2_*) holding a
	// bearer token; "" sends none.
	TokenEnv string
}

// Defaults of L2Config. The reference waits up to 8s; this server's
// default deadline is shorter, because the caller waits for it.
const (
	DefaultL2Endpoint = "http://localhost:8765"
	DefaultL2Tool     = "retriever_search"
	DefaultL2TopK     = 5
	DefaultL2Timeout  = 2 * time.Second
	MaxL2TopK         = 10
	MinL2Timeout      = 50 * time.Millisecond
	MaxL2Timeout      = 30 * time.Second
)

// DefaultL2Config is the configuration before any file, variable or flag:
// disabled.
func DefaultL2Config() L2Config {
	return L2Config{Endpoint: DefaultL2Endpoint, Protocol: "mcp", ToolName: DefaultL2Tool, TopK: DefaultL2TopK, Timeout: DefaultL2Timeout}
}

// l2Keys are the keys of a configuration file.
var l2Keys = []string{"enabled", "endpoint", "protocol", "tool_name", "top_k", "timeout_seconds", "token_env"}

// maxConfigBytes bounds an L2 configuration file.
const maxConfigBytes = 1 << 20

// LoadFile reads a YAML (or JSON) configuration file over c:
// enabled, endpoint, protocol, tool_name, top_k, timeout_seconds,
// token_env. An unknown key or a value of the wrong type is an error that
// names it.
func (c L2Config) LoadFile(path string) (L2Config, error) {
	data, err := fsutil.ReadRegular(path, maxConfigBytes)
	if err != nil {
		return c, fmt.Errorf("L2 config: %w", err)
	}
	doc, err := yaml11.Decode(data)
	if err != nil {
		return c, fmt.Errorf("L2 config %s: %w", path, err)
	}
	if doc == nil {
		return c, nil
	}
	m, ok := doc.(*yaml11.Map)
	if !ok {
		return c, fmt.Errorf("L2 config %s: want a mapping of %s", path, strings.Join(l2Keys, ", "))
	}
	for _, e := range m.Entries() {
		bad := func(want string) error {
			return fmt.Errorf("L2 config %s: %s must be %s, not %s", path, e.Key, want, yaml11.Str(e.Value))
		}
		switch e.Key {
		case "enabled":
			b, ok := parseBool(e.Value)
			if !ok {
				return c, bad("true or false")
			}
			c.Enabled = b
		case "endpoint", "protocol", "tool_name", "token_env":
			s, ok := e.Value.(string)
			if !ok {
				return c, bad("a string")
			}
			switch e.Key {
			case "endpoint":
				c.Endpoint = s
			case "protocol":
				c.Protocol = s
			case "tool_name":
				c.ToolName = s
			default:
				c.TokenEnv = s
			}
		case "top_k":
			n, ok := e.Value.(int64)
			if !ok {
				if i, ok2 := e.Value.(int); ok2 {
					n, ok = int64(i), true
				}
			}
			if !ok {
				return c, bad("an integer")
			}
			c.TopK = int(n)
		case "timeout_seconds":
			f, ok := number(e.Value)
			if !ok {
				return c, bad("a number of seconds")
			}
			c.Timeout = time.Duration(f * float64(time.Second))
		default:
			return c, fmt.Errorf("L2 config %s: unknown key %q (known: %s)", path, e.Key, strings.Join(l2Keys, ", "))
		}
	}
	return c, nil
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// parseBool reads the reference's boolean spellings.
func parseBool(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true", "1", "yes", "on", "t", "y":
			return true, true
		case "false", "0", "no", "off", "f", "n":
			return false, true
		}
	case int, int64:
		n, _ := number(x)
		return n != 0, true
	}
	return false, false
}

// WithEnv applies the BOURDON_L2_* variables over c: ENABLED, ENDPOINT,
// PROTOCOL, TOOL, TOP_K, TIMEOUT (seconds). Unreadable values are ignored
// with a warning, as the reference ignores them.
func (c L2Config) WithEnv(lookup func(string) (string, bool)) (L2Config, []string) {
	var warnings []string
	if v, ok := lookup("BOURDON_L2_ENABLED"); ok {
		if b, ok := parseBool(v); ok {
			c.Enabled = b
		} else {
			warnings = append(warnings, fmt.Sprintf("invalid BOURDON_L2_ENABLED=%q, ignoring", v))
		}
	}
	if v, ok := lookup("BOURDON_L2_ENDPOINT"); ok {
		c.Endpoint = v
	}
	if v, ok := lookup("BOURDON_L2_PROTOCOL"); ok {
		c.Protocol = v
	}
	if v, ok := lookup("BOURDON_L2_TOOL"); ok {
		c.ToolName = v
	}
	if v, ok := lookup("BOURDON_L2_TOP_K"); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
			c.TopK = n
		} else {
			warnings = append(warnings, fmt.Sprintf("invalid BOURDON_L2_TOP_K=%q, ignoring", v))
		}
	}
	if v, ok := lookup("BOURDON_L2_TIMEOUT"); ok {
		if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
			c.Timeout = time.Duration(f * float64(time.Second))
		} else {
			warnings = append(warnings, fmt.Sprintf("invalid BOURDON_L2_TIMEOUT=%q, ignoring", v))
		}
	}
	return c, warnings
}

// Validate checks an enabled configuration and says what to change.
func (c L2Config) Validate() error {
	if !c.Enabled {
		return nil
	}
	if _, err := endpoint.CheckURL(c.Endpoint, "L2 endpoint"); err != nil {
		return err
	}
	switch c.Protocol {
	case "http":
	case "mcp":
		if strings.TrimSpace(c.ToolName) == "" {
			return fmt.Errorf("L2 tool_name is empty: name the MCP tool to call (default %s)", DefaultL2Tool)
		}
	default:
		return fmt.Errorf("L2 protocol %q: use http or mcp", c.Protocol)
	}
	if c.TopK < 1 || c.TopK > MaxL2TopK {
		return fmt.Errorf("L2 top_k %d: use 1 to %d", c.TopK, MaxL2TopK)
	}
	if c.Timeout < MinL2Timeout || c.Timeout > MaxL2Timeout {
		return fmt.Errorf("L2 timeout %v: use %v to %v", c.Timeout, MinL2Timeout, MaxL2Timeout)
	}
	if c.TokenEnv != "" && !strings.HasPrefix(c.TokenEnv, "BOURDON_L2_") {
		return fmt.Errorf("L2 token_env %q: the variable must be named BOURDON_L2_*", c.TokenEnv)
	}
	return nil
}

// NewL2 returns the backend c configures, nil when it is disabled.
// getenv reads the token variable.
func NewL2(c L2Config, getenv func(string) string) (L2, error) {
	if !c.Enabled {
		return nil, nil
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	token := ""
	if c.TokenEnv != "" && getenv != nil {
		token = getenv(c.TokenEnv)
	}
	client := &http.Client{Timeout: c.Timeout + time.Second}
	if c.Protocol == "http" {
		return &HTTPL2{Endpoint: c.Endpoint, Token: token, Client: client}, nil
	}
	return &MCPL2{Endpoint: c.Endpoint, Tool: c.ToolName, Token: token, Client: client}, nil
}

// HTTPL2 is a backend speaking the JSON contract above.
type HTTPL2 struct {
	Endpoint string
	Token    string
	Client   *http.Client // nil: http.DefaultClient
}

// Query posts the query and reads the passages.
func (b *HTTPL2) Query(ctx context.Context, q L2Query) ([]Passage, error) {
	body, err := json.Marshal(q)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.Endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "bourdon-go")
	if b.Token != "" {
		req.Header.Set("Authorization", "Bearer "+b.Token)
	}
	client := b.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, endpoint.Classify(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxL2Body+1))
	if err != nil {
		return nil, fmt.Errorf("reading the response: %w", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	if len(data) > MaxL2Body {
		return nil, fmt.Errorf("response larger than %d bytes", MaxL2Body)
	}
	return parsePassages(data)
}

// MCPL2 is a backend reached as an MCP tool, the reference's way.
type MCPL2 struct {
	Endpoint string
	Tool     string
	Token    string
	Client   *http.Client
}

// Query connects, calls the tool and disconnects: one session per query,
// as the reference's client does.
func (b *MCPL2) Query(ctx context.Context, q L2Query) ([]Passage, error) {
	hc := b.Client
	if hc == nil {
		hc = http.DefaultClient
	}
	if b.Token != "" {
		c := *hc
		c.Transport = endpoint.Bearer{Token: b.Token, Next: hc.Transport}
		hc = &c
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "bourdon-go-l2", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint: b.Endpoint, HTTPClient: hc, MaxRetries: -1, DisableStandaloneSSE: true,
	}, nil)
	if err != nil {
		return nil, endpoint.Classify(err)
	}
	// Closing sends a DELETE the server may be slow to answer; the query's
	// answer does not wait for it.
	defer func() { go session.Close() }()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: b.Tool, Arguments: map[string]any{"query": q.Query, "top_k": q.TopK}})
	if err != nil {
		return nil, endpoint.Classify(err)
	}
	var texts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	if res.IsError {
		return nil, fmt.Errorf("tool error: %s", strings.Join(texts, " "))
	}
	var out []Passage
	for _, t := range texts {
		trimmed := strings.TrimSpace(t)
		if strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, "[") || strings.HasPrefix(trimmed, `"`) {
			if ps, err := parsePassages([]byte(trimmed)); err == nil {
				out = append(out, ps...)
				continue
			}
		}
		if trimmed != "" {
			out = append(out, Passage{Text: trimmed})
		}
	}
	if len(out) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			if ps, err := parsePassages(b); err == nil {
				out = ps
			}
		}
	}
	return out, nil
}

// errShape is a body in none of the accepted shapes.
var errShape = errors.New("response is not one of the accepted shapes (see the L2 contract)")

// parsePassages reads a backend's JSON body.
func parsePassages(data []byte) ([]Passage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("response is not JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("response holds more than one JSON value")
	}
	return passagesOf(v, 0)
}

var textKeys = []string{"content", "text", "summary", "body"}
var listKeys = []string{"results", "passages", "documents", "items", "content"}
var sourceKeys = []string{"source", "title", "uri", "id"}

func passagesOf(v any, depth int) ([]Passage, error) {
	if depth > 3 {
		return nil, errShape
	}
	switch x := v.(type) {
	case string:
		if s := strings.TrimSpace(x); s != "" {
			return []Passage{{Text: s}}, nil
		}
		return []Passage{}, nil
	case []any:
		out := []Passage{}
		shaped := 0 // items of an accepted shape, blank or not
		for _, item := range x {
			switch it := item.(type) {
			case string:
				shaped++
				if s := strings.TrimSpace(it); s != "" {
					out = append(out, Passage{Text: s})
				}
			case map[string]any:
				if p, ok := passageOf(it); ok {
					out = append(out, p)
				}
				for _, k := range textKeys {
					if _, ok := it[k].(string); ok {
						shaped++
						break
					}
				}
			}
		}
		if shaped == 0 && len(x) > 0 {
			return nil, errShape
		}
		return out, nil
	case map[string]any:
		if e, ok := x["error"]; ok && e != nil && e != false {
			return nil, errors.New("backend reported an error")
		}
		for _, k := range listKeys {
			if list, ok := x[k].([]any); ok {
				return passagesOf(list, depth+1)
			}
		}
		if p, ok := passageOf(x); ok {
			return []Passage{p}, nil
		}
	}
	return nil, errShape
}

// passageOf reads one passage object: the first non-empty text key.
func passageOf(m map[string]any) (Passage, bool) {
	for _, k := range textKeys {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			p := Passage{Text: strings.TrimSpace(s)}
			for _, sk := range sourceKeys {
				if src, ok := m[sk].(string); ok && strings.TrimSpace(src) != "" {
					p.Source = strings.TrimSpace(src)
					break
				}
			}
			return p, true
		}
	}
	return Passage{}, false
}
