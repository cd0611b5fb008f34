// Package mcptest connects real MCP clients to a bourdon server for tests:
// over an in-memory pipe and over streamable HTTP on loopback.
package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
)

// Transports names the ways Connect can reach a server: a transport, and
// after a slash the protocol revision to negotiate (the newest when
// omitted). Over HTTP, 2025-11-25 clients get a session and newer ones the
// stateless endpoint.
var Transports = []string{"in-memory", "in-memory/2025-11-25", "http", "http/2025-11-25"}

// CopyDir copies the regular files of src (recursively) into a new
// temporary directory and returns it, so tests never write into testdata.
func CopyDir(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// NewServer opens the library at dir and returns an MCP server over it,
// writing to it when opts names no other writer.
func NewServer(t testing.TB, dir string, opts mcpserver.Options) (*mcpserver.Server, *federation.Store) {
	t.Helper()
	lib, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	store := federation.New(lib)
	if opts.Writer == nil {
		opts.Writer = commit.New(dir)
	}
	if opts.TurnEnv.CodexHome == "" {
		opts.TurnEnv.CodexHome = "-" // never read the real ~/.codex
	}
	return mcpserver.New(store, opts), store
}

// Connect returns a client session to srv over the named transport (see
// Transports).
func Connect(t testing.TB, srv *mcp.Server, name string) *mcp.ClientSession {
	return ConnectWith(t, srv, name, nil)
}

// ConnectWith is Connect with client options, for tests that handle
// notifications.
func ConnectWith(t testing.TB, srv *mcp.Server, name string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "bourdon-test", Version: "1"}, opts)
	transport, version, _ := strings.Cut(name, "/")
	var ct mcp.Transport
	switch transport {
	case "in-memory":
		st, c := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ss.Close() })
		ct = c
	case "http":
		hs := httptest.NewServer(mcphttp.Handler(srv, mcphttp.Options{}))
		t.Cleanup(hs.Close)
		ct = &mcp.StreamableClientTransport{Endpoint: hs.URL}
	default:
		t.Fatalf("unknown transport %q", transport)
	}
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if version != "" && cs.InitializeResult().ProtocolVersion != version {
		t.Fatalf("negotiated %s, want %s", cs.InitializeResult().ProtocolVersion, version)
	}
	return cs
}

// ConnectAs returns a client session over streamable HTTP, with auth
// enforced and the given bearer token presented, negotiating the newest
// revision (or the one after a slash in version, e.g. "/2025-11-25").
func ConnectAs(t testing.TB, srv *mcp.Server, auth *mcphttp.Auth, token, version string) *mcp.ClientSession {
	t.Helper()
	return ConnectAsWith(t, srv, auth, token, version, nil)
}

// ConnectAsWith is ConnectAs with client options (notification handlers).
func ConnectAsWith(t testing.TB, srv *mcp.Server, auth *mcphttp.Auth, token, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	hs := httptest.NewServer(mcphttp.Handler(srv, mcphttp.Options{Auth: auth}))
	t.Cleanup(hs.Close)
	client := mcp.NewClient(&mcp.Implementation{Name: "bourdon-test", Version: "1"}, opts)
	ct := &mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: &http.Client{Transport: bearer(token)}}
	cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: strings.TrimPrefix(version, "/")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// bearer is an HTTP transport that presents a bearer token.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// CallJSON calls a tool and returns the JSON payload of its single text
// content, the way a Python peer reads it, along with the raw result.
// It fails the test if the text and the structured content disagree.
func CallJSON(t testing.TB, cs *mcp.ClientSession, tool string, args any) (any, *mcp.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return Payload(t, cs, tool, res), res
}

// Payload returns the JSON payload of a tool result's single text
// content. For a result that is not a tool error it also checks that the
// structured content says the same and matches the tool's output schema.
func Payload(t testing.TB, cs *mcp.ClientSession, tool string, res *mcp.CallToolResult) any {
	t.Helper()
	text, err := SingleText(res)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var payload any
	if err := json.Unmarshal([]byte(text), &payload); err != nil {
		t.Fatalf("%s: text content is not JSON: %v\n%s", tool, err, text)
	}
	if !res.IsError {
		sc, _ := json.Marshal(res.StructuredContent)
		var structured any
		_ = json.Unmarshal(sc, &structured)
		a, _ := json.Marshal(payload)
		b, _ := json.Marshal(structured)
		if string(a) != string(b) {
			t.Fatalf("%s: structuredContent and text differ:\n%s\n%s", tool, b, a)
		}
		if err := outputSchema(t, cs, tool).Validate(payload); err != nil {
			t.Fatalf("%s: result does not match the output schema: %v\n%s", tool, err, a)
		}
	}
	return payload
}

var (
	schemaMu sync.Mutex
	schemas  = map[*mcp.ClientSession]map[string]*jsonschema.Resolved{}
)

// outputSchema returns the resolved output schema of a tool, as the
// server lists it.
func outputSchema(t testing.TB, cs *mcp.ClientSession, tool string) *jsonschema.Resolved {
	t.Helper()
	schemaMu.Lock()
	defer schemaMu.Unlock()
	if byTool, ok := schemas[cs]; ok {
		if r, ok := byTool[tool]; ok {
			return r
		}
	}
	byTool := map[string]*jsonschema.Resolved{}
	for tl, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(tl.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: output schema: %v", tl.Name, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: output schema: %v", tl.Name, err)
		}
		byTool[tl.Name] = r
	}
	schemas[cs] = byTool
	r, ok := byTool[tool]
	if !ok {
		t.Fatalf("no tool %s", tool)
	}
	return r
}

// SingleText returns the text of a result that must hold exactly one text
// content.
func SingleText(res *mcp.CallToolResult) (string, error) {
	if len(res.Content) != 1 {
		return "", fmt.Errorf("want 1 content item, got %d", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return "", fmt.Errorf("content is %T, want text", res.Content[0])
	}
	return tc.Text, nil
}
