package mcpserver_test

import (
	"path/filepath"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// BenchmarkFindEntityCall measures one find_entity round trip through the
// MCP layer (in-memory transport), audit log included:
//
//	go test -run '^$' -bench FindEntityCall -benchmem ./internal/mcp/mcpserver/
func BenchmarkFindEntityCall(b *testing.B) {
	lib := mcptest.CopyDir(b, filepath.Join(fixtures, "fed_seed_library"))
	srv, _ := mcptest.NewServer(b, lib, mcpserver.Options{Audit: trust.OpenAudit(filepath.Join(b.TempDir(), "audit.jsonl"))})
	cs := mcptest.Connect(b, srv.Server, "in-memory")
	args := map[string]any{"name": "Bourdon", "access_level": "team"}
	for b.Loop() {
		mcptest.CallJSON(b, cs, "find_entity", args)
	}
}
