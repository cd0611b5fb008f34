package knowledge_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// TestMemoryNodesAreRedacted: a memory node's uid was its name's slug and
// its properties the raw rows, so a credential in a name came out
// lower-cased in every uid, and a query could match raw summaries. Now the
// text is redacted as fields and a flagged name's uid part is a digest.
func TestMemoryNodesAreRedacted(t *testing.T) {
	t.Parallel()
	gh := "ghp_" + strings.Repeat("Ab3", 12)
	sk := "SK_" + strings.Repeat("ABCDEFG", 3) // not flagged, but its slug "sk-abc…" is
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "agents", "vault"+library.ManifestSuffix), `spec_version: '0.1'
agent:
  id: vault
  type: other
  role_narrative: "DB_PASSWORD=hunter2 everywhere"
last_updated: '2026-06-29T12:00:00+00:00'
known_entities:
- name: `+gh+`
  summary: deploy key
  aliases: ["postgres://app:pw9Leak@db/app"]
  tags: [`+gh+`]
- name: Deploy notes
  summary: "uses `+gh+` for the mirror"
- name: `+sk+`
- name: Password reset
  summary: the reset flow
`)
	lib, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	kb, err := knowledge.Open(context.Background(), knowledge.Options{Store: federation.New(lib), Embedder: testEmbedder})
	if err != nil {
		t.Fatal(err)
	}
	g := kb.Current().Graph
	var all strings.Builder
	uids := map[string]bool{}
	for _, id := range append(g.ByLabel(graph.Entity), g.ByLabel(graph.Agent)...) {
		n := g.Node(id)
		uids[n.UID] = true
		b, _ := json.Marshal(n)
		all.Write(b)
	}
	low := strings.ToLower(all.String())
	for _, leak := range []string{strings.ToLower(gh[4:]), "hunter2", "pw9leak", "sk-abcdefg"} {
		if strings.Contains(low, leak) {
			t.Errorf("a memory node shows %q:\n%s", leak, all.String())
		}
	}
	if !uids["bourdon.entity.vault.deploy-notes"] || !uids["bourdon.agent.vault"] {
		t.Errorf("benign names keep their slugs: %v", uids)
	}
	if uids["bourdon.entity.vault.password-reset"] {
		t.Error("a name the battery flags as a field keeps its slug")
	}
	n := node(t, g, "bourdon.entity.vault.deploy-notes")
	if n.Str("summary") != redact.Sentinel || n.Content != redact.Sentinel || n.Str("title") != "Deploy notes" {
		t.Errorf("summary %q, content %q, title %q", n.Str("summary"), n.Content, n.Str("title"))
	}
	if got := node(t, g, "bourdon.agent.vault").Str("roleNarrative"); got != redact.Sentinel {
		t.Errorf("roleNarrative %q", got)
	}
}
