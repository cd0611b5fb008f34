package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/drift"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// TestReplicasShareRequestsAndWatermarks runs two `bourdon serve --store`
// on one database, each with a library directory of its own: an intake
// proposed through one replica is approved with `bourdon requests
// --store` and read through the other, and the drift watermarks both keep
// are one document of the database. Neither library directory gets a
// request or a watermark file. (The test waits for the watermarks; the
// go test timeout bounds the wait.)
func TestReplicasShareRequestsAndWatermarks(t *testing.T) {
	url := pgtest.Migrated(t)
	libs := []string{t.TempDir(), t.TempDir()}
	var replicas []*server
	for _, lib := range libs {
		replicas = append(replicas, startHTTP(t, "--store", url, "--library", lib, "--allow-unauthenticated", "--quiet"))
	}
	a, b := replicas[0].connect(t), replicas[1].connect(t)
	form := map[string]any{"problem": "Refunds are posted twice when the provider times out.", "desiredOutcome": "Every refund is posted once.",
		"type": "fix", "area": "payments", "identity": "github:bob", "owner": "demo/payments"}
	proposal, _ := mcptest.CallJSON(t, a, "request_intake", form)
	id, _ := proposal.(map[string]any)["id"].(string)
	if id == "" {
		t.Fatalf("request_intake: %v", proposal)
	}
	// The proposal is the operator's, made by this account: approving it
	// from here needs --self-approve.
	out, errOut, code := runWriteCLI(t, newRequestsCommand(), "approve", id, "--store", url, "--self-approve", "--audit-log", filepath.Join(t.TempDir(), "audit.jsonl"))
	if code != 0 || !strings.Contains(out, "REQ-") {
		t.Fatalf("requests approve --store: %d %q %q", code, out, errOut)
	}
	list, _ := mcptest.CallJSON(t, b, "list_requests", nil)
	if reqs, _ := list.(map[string]any)["requests"].([]any); len(reqs) != 1 {
		t.Errorf("list_requests on the other replica: %v", list)
	}

	// A manifest written through one replica is observed by both.
	if res, err := commitEntity(a, "team", "Refunds"); err != nil || res.IsError {
		t.Fatal(callFailure(res, err))
	}
	docs := pgtest.Open(t, url).Documents()
	for {
		if data, _, err := docs.Read(context.Background(), drift.LibraryName, 1<<20); err == nil && strings.Contains(string(data), `"team"`) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, lib := range libs {
		for _, name := range []string{"requests", drift.LibraryName} {
			if _, err := os.Stat(filepath.Join(lib, filepath.FromSlash(name))); err == nil {
				t.Errorf("%s was written in the replica's library directory %s", name, lib)
			}
		}
	}
}
