package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// TestReplicasAuditIntoTheirStore: two `bourdon serve --store` replicas
// record their calls in the database, not in a file, and `bourdon audit
// --store` shows the calls of both.
func TestReplicasAuditIntoTheirStore(t *testing.T) {
	url := pgtest.Migrated(t)
	file := filepath.Join(t.TempDir(), "audit.jsonl")
	calls := map[string]map[string]any{"find_entity": {"name": "anything"}, "list_agents": {}}
	var ops []string
	for op, args := range calls {
		s := startHTTP(t, "--store", url, "--library", t.TempDir(), "--audit-log", file, "--allow-unauthenticated", "--quiet")
		mcptest.CallJSON(t, s.connect(t), op, args)
		ops = append(ops, op)
	}
	out, errOut, code := runWriteCLI(t, newRootCommand(), "audit", "--store", url, "--json")
	if code != 0 {
		t.Fatalf("audit --store: %q", errOut)
	}
	for _, op := range ops {
		if !strings.Contains(out, `"op": "`+op+`"`) {
			t.Errorf("no %s in the store's audit log:\n%s", op, out)
		}
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the replicas wrote the file %s too: %v", file, err)
	}
}
