package main

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/testkit/embedtest"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeEmbedderReachesDeeperContext starts bourdon serve with
// --embedder openai pointed at a fake OpenAI-compatible server, and asks
// get_deeper_context over stdio until its semantic arm has embedded the
// seed library: the payload reports it, no private row was sent, and a
// credential in a prompt was replaced before it left.
func TestServeEmbedderReachesDeeperContext(t *testing.T) {
	fake := &embedtest.Server{Model: "fake", Vectors: func(text string) ([]float32, bool) { return embedtest.Vector(text, 32), true }}
	srv := httptest.NewServer(fake)
	defer srv.Close()

	lib := seedLibrary(t)
	cmd := exec.Command(binary, "serve", "--library", lib, "--quiet",
		"--embedder", "openai", "--embedder-url", srv.URL, "--embedder-model", "fake", "--embedder-dim", "32")
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	var semantic map[string]any
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		got, res := mcptest.CallJSON(t, cs, "get_deeper_context", map[string]any{"prompt": "codex work on the federation", "access_level": "team"})
		if res.IsError {
			t.Fatalf("get_deeper_context: %v", got)
		}
		semantic, _ = got.(map[string]any)["semantic"].(map[string]any)
		if semantic != nil && semantic["status"] == "ok" && semantic["pending"] == float64(0) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("semantic status after 30 s: %v", semantic)
		}
	}
	if rows, _ := semantic["rows"].(float64); rows < 4 {
		t.Errorf("semantic status %v: want the seed library's team rows compared", semantic)
	}
	// The vectors are kept in the library's .bourdon directory.
	cache := filepath.Join(lib, ".bourdon", "deeper-vectors")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(cache); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no vector cache at %s after 30 s", cache)
		}
	}
	// A credential pasted into a prompt is replaced before the prompt
	// leaves; the words around it go.
	token := "ghp_" + strings.Repeat("A1b2C3d4", 4) + "wxyz"
	mcptest.CallJSON(t, cs, "get_deeper_context", map[string]any{"prompt": "codex work with token " + token})
	asked := fake.Texts()
	if !slices.Contains(asked, "codex work on the federation") {
		t.Errorf("the prompt was not embedded: %q", asked)
	}
	if !slices.ContainsFunc(asked, func(text string) bool { return strings.HasPrefix(text, "codex work with token [redacted") }) {
		t.Errorf("the prompt with a token was not embedded redacted: %q", asked)
	}
	for _, text := range asked {
		if strings.Contains(text, token) {
			t.Errorf("a token reached the embedder: %q", text)
		}
		// The seed library's private rows: an entity of each agent and a
		// session.
		if strings.Contains(text, "Internal Notes: codex private") || strings.Contains(text, "Q2 numbers") || strings.Contains(text, "private review") {
			t.Errorf("a private row was sent to the embedder: %q", text)
		}
	}
}
