package mcpserver_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/requests"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

var form = map[string]any{
	"problem":        "Refunds are posted twice when the provider times out.",
	"desiredOutcome": "Every refund is posted exactly once.",
	"type":           "fix",
	"area":           "payments",
	"identity":       "github:bob",
	"owner":          "demo/payments",
}

func with(m map[string]any, k string, v any) map[string]any {
	out := map[string]any{}
	for key, val := range m {
		out[key] = val
	}
	if v == nil {
		delete(out, k)
	} else {
		out[k] = v
	}
	return out
}

// nextUpdate returns the next resources/updated, passing over those for
// the resource skip; it fails the test if none comes within 30 s.
func nextUpdate(t *testing.T, updates <-chan *mcp.ResourceUpdatedNotificationParams, skip string) *mcp.ResourceUpdatedNotificationParams {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case u := <-updates:
			if u.URI != skip {
				return u
			}
		case <-timeout:
			t.Fatal("no resources/updated within 30 s")
			return nil
		}
	}
}

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// onBothBackends runs test once with the requests in the library
// directory and once in a PostgreSQL store (pgtest: skipped without
// PostgreSQL, except in CI), as subtests; graphServer serves the demo
// library with the requests there.
func onBothBackends(t *testing.T, test func(t *testing.T, graphServer func(*testing.T) (*mcpserver.Server, string, *requests.Store))) {
	backends := []struct {
		name string
		docs func(t *testing.T, lib string) store.Documents
	}{
		{"dir", func(_ *testing.T, lib string) store.Documents { return store.NewDirDocuments(lib, 0o644) }},
		{"postgres", func(t *testing.T, _ string) store.Documents { return pgtest.Open(t, pgtest.Migrated(t)).Documents() }},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			test(t, func(t *testing.T) (*mcpserver.Server, string, *requests.Store) {
				t.Helper()
				return graphServerOn(t, b.docs)
			})
		})
	}
}

// collection is the resource of every request node.
const collection = "cogitave://request/"

// subscribedToRequests connects the operator to srv, subscribed to the
// request collection, and returns the resources/updated it receives.
func subscribedToRequests(t *testing.T, srv *mcpserver.Server) (*mcp.ClientSession, <-chan *mcp.ResourceUpdatedNotificationParams) {
	t.Helper()
	updates := make(chan *mcp.ResourceUpdatedNotificationParams, 16)
	cs := mcptest.ConnectWith(t, srv.Server, "http/2025-11-25", &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { updates <- req.Params },
	})
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: collection}); err != nil {
		t.Fatal(err)
	}
	return cs, updates
}

// reviewerOf opens reqs's documents as another operator's account would.
func reviewerOf(reqs *requests.Store) *requests.Store {
	r := requests.OpenDocuments(reqs.Documents())
	r.Account = requests.Account{Host: "review-host", UID: "4242", User: "alice"}
	return r
}

func TestRequestLifecycleOverMCP(t *testing.T) {
	onBothBackends(t, func(t *testing.T, graphServer func(*testing.T) (*mcpserver.Server, string, *requests.Store)) {
		srv, _, reqs := graphServer(t)
		// The subscribers of the request collection hear of every request
		// that joins the graph, and of every change to one.
		cs, updates := subscribedToRequests(t, srv)
		ctx := context.Background()

		// No owner, no request; every problem is said.
		_, res := call(t, cs, "request_intake", with(form, "owner", nil))
		if msg := errText(res); !strings.Contains(strings.ToLower(msg), "no owner, no request") {
			t.Errorf("intake without owner: %q", msg)
		}
		got, res := call(t, cs, "request_intake", form)
		if res.IsError || got["status"] != "pending" || got["kind"] != "intake" {
			t.Fatalf("intake: %v %s", got, errText(res))
		}
		// A proposal is not a request.
		list, _ := call(t, cs, "list_requests", nil)
		if n := len(list["requests"].([]any)); n != 0 {
			t.Fatalf("%d requests before any approval", n)
		}
		// The operator's stdio proposal cannot be approved by the account its
		// server runs as, whatever name the approver gives; another account
		// (a reviewer's) approves it.
		var self *requests.SelfApprovalError
		if _, _, err := reqs.Approve(ctx, got["id"].(string), "cli:operator"); !errors.As(err, &self) {
			t.Fatalf("the server's own account approved the operator's proposal: %v", err)
		}
		reviewer := reviewerOf(reqs)
		_, r, err := reviewer.Approve(ctx, got["id"].(string), "cli:alice")
		if err != nil {
			t.Fatal(err)
		}
		got, _ = call(t, cs, "get_request", map[string]any{"id": strings.ToLower(r.ID)})
		if got["stage"] != "intake" || got["history"].([]any)[0].(map[string]any)["approvedBy"] != "cli:alice" {
			t.Fatalf("accepted request: %v", got)
		}

		// The request is a node: the collection hears of it, and a subscriber
		// of the node hears of its stage change.
		uri := collection + r.ID
		if u := nextUpdate(t, updates, ""); u.URI != collection || u.Meta[mcpserver.NodeURIMetaKey] != uri {
			t.Errorf("update %+v, want one for %s naming %s", u, collection, uri)
		}
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err != nil {
			t.Fatalf("the request is not a node: %v", err)
		}
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			t.Fatal(err)
		}
		got, res = call(t, cs, "advance_stage", map[string]any{"id": r.ID, "to": "evaluate"})
		if res.IsError || got["status"] != "pending" {
			t.Fatalf("advance_stage: %v %s", got, errText(res))
		}
		if now, _ := reqs.Get(r.ID); now.Stage != requests.StageIntake {
			t.Fatal("a proposal moved the request")
		}
		if _, _, err := reviewer.Approve(ctx, got["id"].(string), "cli:alice"); err != nil {
			t.Fatal(err)
		}
		if u := nextUpdate(t, updates, collection); u.URI != uri {
			t.Errorf("update for %s, want %s", u.URI, uri)
		}

		// The gate of evaluate says what is missing.
		_, res = call(t, cs, "advance_stage", map[string]any{"id": r.ID, "to": "plan"})
		if msg := errText(res); !strings.Contains(msg, "no classification") || !strings.Contains(msg, "no security clear") {
			t.Errorf("evaluate gate: %q", msg)
		}
		_, res = call(t, cs, "advance_stage", map[string]any{"id": r.ID, "to": "rejected"})
		if msg := errText(res); !strings.Contains(msg, "needs a reason") {
			t.Errorf("rejected without reason: %q", msg)
		}

		dod, res := call(t, cs, "get_dod", map[string]any{"id": r.ID})
		if res.IsError || dod["result"] != "not-done" || len(dod["items"].([]any)) < 12 {
			t.Errorf("get_dod: %v %s", dod, errText(res))
		}
		schema, _ := call(t, cs, "describe_schema", nil)
		if schema["intakeForm"] == nil {
			t.Error("describe_schema does not serve the intake form")
		}
		q, res := call(t, cs, "query_graph", map[string]any{"pattern": "MATCH (r:Request) RETURN r.uid, r.stage"})
		if res.IsError || len(q["rows"].([]any)) != 1 || q["rows"].([]any)[0].([]any)[1] != "evaluate" {
			t.Errorf("the request in the graph: %v %s", q, errText(res))
		}
	})
}

func TestQuarantinedCallersProposeOnlyWhereGranted(t *testing.T) {
	onBothBackends(t, func(t *testing.T, graphServer func(*testing.T) (*mcpserver.Server, string, *requests.Store)) {
		srv, _, reqs := graphServer(t)
		registry := trust.OpenRegistry(filepath.Join(t.TempDir(), "federation.yaml"))
		token, err := registry.Add("visitor", trust.TierQuarantined, []string{"docs"})
		if err != nil {
			t.Fatal(err)
		}
		cs := mcptest.ConnectAs(t, srv.Server, &mcphttp.Auth{Registry: registry}, token, "")
		got, _ := call(t, cs, "request_intake", form)
		if got["error"] != "access denied" {
			t.Errorf("intake in an ungranted area: %v", got)
		}
		got, res := call(t, cs, "request_intake", with(form, "area", "docs"))
		if res.IsError || got["proposer"] != "visitor" {
			t.Errorf("intake in a granted area: %v %s", got, errText(res))
		}
		if _, res := call(t, cs, "list_requests", nil); !strings.Contains(errText(res), "name an area") {
			t.Errorf("list without area: %q", errText(res))
		}
		got, _ = call(t, cs, "list_requests", map[string]any{"area": "payments"})
		if got["error"] != "access denied" {
			t.Errorf("list of an ungranted area: %v", got)
		}
		ps, _, _ := reqs.Proposals(requests.ProposalFilter{})
		if len(ps) != 1 {
			t.Errorf("%d proposals stored; only the granted one should be", len(ps))
		}
	})
}

// TestRequestLookupsTellNothingAcrossAreas: a quarantined member granted
// one area gets the same answer for a request of another area as for one
// that does not exist.
func TestRequestLookupsTellNothingAcrossAreas(t *testing.T) {
	onBothBackends(t, func(t *testing.T, graphServer func(*testing.T) (*mcpserver.Server, string, *requests.Store)) {
		srv, _, reqs := graphServer(t)
		ctx := context.Background()
		op := mcptest.Connect(t, srv.Server, "in-memory")
		got, res := call(t, op, "request_intake", form) // area payments
		if res.IsError {
			t.Fatal(errText(res))
		}
		reviewer := reviewerOf(reqs)
		_, r, err := reviewer.Approve(ctx, got["id"].(string), "cli:alice")
		if err != nil {
			t.Fatal(err)
		}
		registry := trust.OpenRegistry(filepath.Join(t.TempDir(), "federation.yaml"))
		token, err := registry.Add("outsider", trust.TierQuarantined, []string{"platform"})
		if err != nil {
			t.Fatal(err)
		}
		q := mcptest.ConnectAs(t, srv.Server, &mcphttp.Auth{Registry: registry}, token, "")
		for tool, args := range map[string]map[string]any{"get_request": nil, "get_dod": nil, "advance_stage": {"to": "evaluate"}} {
			_, other := call(t, q, tool, with(args, "id", r.ID))
			_, missing := call(t, q, tool, with(args, "id", "REQ-2099-0999"))
			wantOther := strings.Replace(errText(missing), "REQ-2099-0999", r.ID, 1)
			if !other.IsError || errText(other) != wantOther {
				t.Errorf("%s of another area's request: %q; of a missing one: %q", tool, errText(other), errText(missing))
			}
		}
		// The operator still reads it.
		if _, res := call(t, op, "get_request", map[string]any{"id": r.ID}); res.IsError {
			t.Errorf("operator: %s", errText(res))
		}
	})
}

// TestCollectionNotificationsNameOnlyWhatEverySubscriberSees: with a
// quarantined member among the subscribers of the request collection, a
// new request of an area it was not granted is announced without its uri.
func TestCollectionNotificationsNameOnlyWhatEverySubscriberSees(t *testing.T) {
	onBothBackends(t, func(t *testing.T, graphServer func(*testing.T) (*mcpserver.Server, string, *requests.Store)) {
		srv, _, reqs := graphServer(t)
		ctx := context.Background()
		registry := trust.OpenRegistry(filepath.Join(t.TempDir(), "federation.yaml"))
		token, err := registry.Add("outsider", trust.TierQuarantined, []string{"platform"})
		if err != nil {
			t.Fatal(err)
		}
		updates := make(chan *mcp.ResourceUpdatedNotificationParams, 16)
		q := mcptest.ConnectAsWith(t, srv.Server, &mcphttp.Auth{Registry: registry}, token, "2025-11-25", &mcp.ClientOptions{
			ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { updates <- req.Params },
		})
		if err := q.Subscribe(ctx, &mcp.SubscribeParams{URI: collection}); err != nil {
			t.Fatal(err)
		}
		op := mcptest.Connect(t, srv.Server, "in-memory")
		got, res := call(t, op, "request_intake", form) // area payments
		if res.IsError {
			t.Fatal(errText(res))
		}
		reviewer := reviewerOf(reqs)
		if _, _, err := reviewer.Approve(ctx, got["id"].(string), "cli:alice"); err != nil {
			t.Fatal(err)
		}
		u := nextUpdate(t, updates, "")
		if u.URI != collection {
			t.Fatalf("update %+v", u)
		}
		if name, ok := u.Meta[mcpserver.NodeURIMetaKey]; ok {
			t.Errorf("the quarantined subscriber was told of %v, a request of an area it was not granted", name)
		}
	})
}

// TestReplicasShareRequests: two servers on one PostgreSQL store (two
// replicas, each its own connection pool): an intake proposed on one is
// approved from the other's store, and a subscriber of the first hears of
// the new request and reads it, as list_requests on the second does.
func TestReplicasShareRequests(t *testing.T) {
	url := pgtest.Migrated(t)
	replica := func(_ *testing.T, _ string) store.Documents { return pgtest.Open(t, url).Documents() }
	a, _, _ := graphServerOn(t, replica)
	b, _, reqsB := graphServerOn(t, replica)
	ca, updates := subscribedToRequests(t, a)
	ctx := context.Background()
	got, res := call(t, ca, "request_intake", form)
	if res.IsError {
		t.Fatal(errText(res))
	}
	reviewer := reviewerOf(reqsB)
	_, r, err := reviewer.Approve(ctx, got["id"].(string), "cli:alice")
	if err != nil {
		t.Fatal(err)
	}
	if u := nextUpdate(t, updates, ""); u.URI != collection || u.Meta[mcpserver.NodeURIMetaKey] != collection+r.ID {
		t.Errorf("update %+v, want one naming %s", u, collection+r.ID)
	}
	if got, res := call(t, ca, "get_request", map[string]any{"id": r.ID}); res.IsError || got["stage"] != "intake" {
		t.Errorf("get_request on the proposing replica: %v %s", got, errText(res))
	}
	cb := mcptest.Connect(t, b.Server, "in-memory")
	if list, res := call(t, cb, "list_requests", nil); res.IsError || len(list["requests"].([]any)) != 1 {
		t.Errorf("list_requests on the other replica: %v %s", list, errText(res))
	}
}
