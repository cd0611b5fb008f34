package mcpserver_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/testkit/libgen"
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

// BenchmarkFindEntityServer measures the server's side of one find_entity
// call alone (the tool handler, as the SDK calls it: arguments, lookup,
// decision and audit line, encoding, redaction), on a generated library
// whose names are known to about 25 agents each, as in the cost bench's
// (payloads of about 2 KB), over every name in turn. general takes the
// arguments by the general path, direct by the direct one:
//
//	go test -run '^$' -bench FindEntityServer -benchmem ./internal/mcp/mcpserver/
func BenchmarkFindEntityServer(b *testing.B) {
	spec := libgen.Spec{Agents: 100, Entities: 50, Sessions: 1, Workstreams: 1, Notes: 1, Seed: 1, Today: libgen.BenchmarkToday}
	dir, err := libgen.Cached(spec)
	if err != nil {
		b.Fatal(err)
	}
	srv, _ := mcptest.NewServer(b, dir, mcpserver.Options{Audit: trust.OpenAudit(filepath.Join(b.TempDir(), "audit.jsonl"))})
	var args []json.RawMessage
	for i := range spec.Entities * 4 {
		raw, _ := json.Marshal(map[string]any{"name": libgen.EntityName(i), "access_level": "team"})
		args = append(args, raw)
	}
	for _, path := range []string{"general", "direct"} {
		b.Run(path, func(b *testing.B) {
			size, i := 0, 0
			for b.Loop() {
				res, err := mcpserver.CallTool(srv, "find_entity", args[i%len(args)], path == "general")
				if err != nil || res.IsError {
					b.Fatal(err, res)
				}
				size += len(res.StructuredContent.(json.RawMessage))
				i++
			}
			b.ReportMetric(float64(size)/float64(i), "payload-bytes/op")
		})
	}
}
