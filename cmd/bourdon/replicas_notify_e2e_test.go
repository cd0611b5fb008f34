package main

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/demo"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// requestCollection is the resource of every request node.
const requestCollection = "cogitave://request/"

// requestReplicas starts n `bourdon serve --store url --docs` with
// --store-reconcile every, each with a library directory of its own and
// the demo corpus (request nodes are nodes of the knowledge graph).
func requestReplicas(t *testing.T, url string, n int, every string) []*server {
	t.Helper()
	corpus := t.TempDir()
	if err := demo.WriteDocs(corpus); err != nil {
		t.Fatal(err)
	}
	var out []*server
	for range n {
		out = append(out, startHTTP(t, "--store", url, "--store-reconcile", every, "--docs", corpus,
			"--library", t.TempDir(), "--allow-unauthenticated", "--quiet"))
	}
	return out
}

// subscriber connects to s subscribed to uris and returns the uris of the
// resources/updated notifications it receives.
func (s *server) subscriber(t *testing.T, uris ...string) (*mcp.ClientSession, <-chan string) {
	t.Helper()
	updated := make(chan string, 64)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case updated <- req.Params.URI:
			default:
			}
		},
	})
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: s.url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	for _, uri := range uris {
		if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri}); err != nil {
			t.Fatal(err)
		}
	}
	return cs, updated
}

// awaitUpdate waits for a notification about uri until deadline, failing
// the test (with what) after it.
func awaitUpdate(t *testing.T, updated <-chan string, uri string, deadline time.Time, what string) {
	t.Helper()
	timeout := time.After(time.Until(deadline))
	for {
		select {
		case got := <-updated:
			if got == uri {
				return
			}
		case <-timeout:
			t.Fatalf("%s: no resources/updated for %s before the reconciliation would have run", what, uri)
		}
	}
}

// fileRequest proposes an intake through cs and approves it with
// `bourdon requests approve --store`, returning the request's id.
func fileRequest(t *testing.T, cs *mcp.ClientSession, url, problem string) string {
	t.Helper()
	form := map[string]any{"problem": problem, "desiredOutcome": "Every refund is posted once.",
		"type": "fix", "area": "payments", "identity": "github:bob", "owner": "demo/payments"}
	proposal, _ := mcptest.CallJSON(t, cs, "request_intake", form)
	id, _ := proposal.(map[string]any)["id"].(string)
	if id == "" {
		t.Fatalf("request_intake: %v", proposal)
	}
	return approveProposal(t, url, id)
}

// approveProposal approves proposal id with `bourdon requests approve
// --store` and returns the request's id.
func approveProposal(t *testing.T, url, id string) string {
	t.Helper()
	out, errOut, code := runWriteCLI(t, newRequestsCommand(), "approve", id, "--store", url, "--self-approve", "--audit-log", filepath.Join(t.TempDir(), "audit.jsonl"))
	m := approvedRE.FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("requests approve --store: %d %q %q", code, out, errOut)
	}
	return m[1]
}

// approvedRE finds the request's id in what `bourdon requests approve`
// prints.
var approvedRE = regexp.MustCompile(`^approved \S+: (\S+) is now in`)

// TestReplicasAnnounceRequestsThroughNotifications: with the replicas'
// reconciliation a minute apart, a request filed through replica A (an
// intake proposed there, approved from the command line) reaches the
// subscribers of the request collection on both replicas well before the
// reconciliation would have found it: through the database's
// notifications. After the listeners' connections are terminated by the
// server, they reconnect, and the next change to the request reaches a
// subscriber of its node on B as fast.
func TestReplicasAnnounceRequestsThroughNotifications(t *testing.T) {
	url := pgtest.Migrated(t)
	replicas := requestReplicas(t, url, 2, "1m")
	// The reconciliation would first look a minute after the replicas
	// started; the notifications must be heard before then.
	before := time.Now().Add(time.Minute)
	a, updatesA := replicas[0].subscriber(t, requestCollection)
	_, updatesB := replicas[1].subscriber(t, requestCollection)
	id := fileRequest(t, a, url, "Refunds are posted twice when the provider times out.")
	awaitUpdate(t, updatesB, requestCollection, before, "replica B")
	awaitUpdate(t, updatesA, requestCollection, before, "replica A")

	node := requestCollection + id
	_, nodeB := replicas[1].subscriber(t, node)
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	tag, err := conn.Exec(context.Background(), "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()")
	if err != nil || tag.RowsAffected() != 2 {
		t.Fatalf("terminating the listeners' connections: %v (%d)", err, tag.RowsAffected())
	}
	// The terminations were the first minute's; the next is measured
	// from now.
	before = time.Now().Add(time.Minute)
	proposal, _ := mcptest.CallJSON(t, a, "advance_stage", map[string]any{"id": id, "to": "evaluate"})
	pid, _ := proposal.(map[string]any)["id"].(string)
	if pid == "" {
		t.Fatalf("advance_stage: %v", proposal)
	}
	approveProposal(t, url, pid)
	awaitUpdate(t, nodeB, node, before, "replica B after its listener was cut")
}

// TestReplicaReconciliationCatchesALostNotification: a change to a
// request that notifies nobody (its row rewritten in SQL, as a
// notification lost would leave it) reaches a subscriber of the request
// on another replica through the periodic reconciliation.
func TestReplicaReconciliationCatchesALostNotification(t *testing.T) {
	url := pgtest.Migrated(t)
	replicas := requestReplicas(t, url, 2, "200ms")
	a, _ := replicas[0].subscriber(t)
	id := fileRequest(t, a, url, "Refunds are posted twice when the provider times out.")
	node := requestCollection + id
	b, nodeB := replicas[1].subscriber(t)
	for { // B has the request (the go test timeout bounds the wait)
		if _, err := b.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: node}); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := b.Subscribe(context.Background(), &mcp.SubscribeParams{URI: node}); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	tag, err := conn.Exec(context.Background(), `UPDATE bourdon_documents
		SET data = convert_to(replace(convert_from(data, 'UTF8'), 'posted twice', 'posted three times'), 'UTF8'),
			revision = nextval('bourdon_document_revisions')
		WHERE name = $1`, "requests/"+id+".yaml")
	if err != nil || tag.RowsAffected() != 1 {
		t.Fatalf("rewriting the request: %v (%d)", err, tag.RowsAffected())
	}
	for uri := range nodeB { // the go test timeout bounds the wait
		if uri == node {
			break
		}
	}
	res, err := b.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: node})
	if err != nil || !strings.Contains(res.Contents[0].Text, "posted three times") {
		t.Errorf("the request on B after the reconciliation: %v %v", res, err)
	}
}
