package requests

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

const (
	agent    = "agent:codex"
	operator = "github:alice"
	owner    = "cogitave/platform"
)

var clock = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// newStore opens a store in a fresh folder with a fixed clock.
func newStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s.now = func() time.Time { return clock }
	return s
}

// backends are the stores' documents the behaviour tests run on: files
// of a directory, and rows of a PostgreSQL database (pgtest: skipped
// without PostgreSQL, except in CI).
var backends = []struct {
	name string
	// fresh makes fresh, empty documents and returns how to open them,
	// each call as another process (or replica) does: the same
	// directory, or a new connection pool to the same database.
	fresh func(t testing.TB) func() store.Documents
}{
	{"dir", func(t testing.TB) func() store.Documents {
		dir := t.TempDir()
		return func() store.Documents { return store.NewDirDocuments(dir, filePerm) }
	}},
	{"postgres", func(t testing.TB) func() store.Documents {
		url := pgtest.Migrated(t)
		return func() store.Documents { return pgtest.Open(t, url).Documents() }
	}},
}

// onBothBackends runs test once per backend, as a subtest named after
// it; newStore opens a store on fresh documents of that backend, with a
// fixed clock.
func onBothBackends(t *testing.T, test func(t *testing.T, newStore func(*testing.T) *Store)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			test(t, func(t *testing.T) *Store {
				t.Helper()
				s := OpenDocuments(b.fresh(t)())
				s.now = func() time.Time { return clock }
				return s
			})
		})
	}
}

// reopen returns another store on s's documents, as another process (or
// replica) opens it: its own account, s's clock.
func reopen(s *Store) *Store {
	o := openIn(s.docs, s.dir)
	o.now = s.now
	return o
}

// formJSON returns a valid intake form with the given fields replaced
// (a nil value removes the field).
func formJSON(t *testing.T, with map[string]any) []byte {
	t.Helper()
	f := map[string]any{
		"problem":        "Agents cannot see which requests are waiting for review.",
		"desiredOutcome": "list_requests filters by stage.",
		"type":           "feature",
		"area":           "platform",
		"identity":       "github:bob",
		"owner":          owner,
	}
	maps.Copy(f, with)
	maps.DeleteFunc(f, func(_ string, v any) bool { return v == nil })
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// accepted proposes and approves an intake and returns the request.
func accepted(t *testing.T, s *Store) *Request {
	t.Helper()
	p, err := s.ProposeIntake(context.Background(), formJSON(t, nil), agent)
	if err != nil {
		t.Fatal(err)
	}
	_, r, err := s.Approve(context.Background(), p.ID, operator)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// advance proposes and approves one transition.
func advance(t *testing.T, s *Store, id string, tr TransitionRequest) *Request {
	t.Helper()
	p, err := s.ProposeTransition(context.Background(), id, tr, agent)
	if err != nil {
		t.Fatalf("proposing %s: %v", tr.To, err)
	}
	_, r, err := s.Approve(context.Background(), p.ID, operator)
	if err != nil {
		t.Fatalf("approving %s: %v", tr.To, err)
	}
	return r
}

func classification(designClass bool) *Classification {
	return &Classification{Type: "feature", Area: "platform", Impact: &Impact{}, DesignClass: designClass}
}

// allPass records every core item as passing, with the code owner's
// approval.
func allPass() Attachments {
	a := Attachments{DoD: map[string]ItemState{}, CodeownerApproval: &Approval{Approved: true, By: "github:carol"}}
	for _, id := range itemIDs()[:12] {
		a.DoD[id] = ItemState{Status: Pass, Evidence: "https://ci.example/run/1"}
	}
	return a
}

// steps are the attachments that pass each gate, in order, for work that
// is not design-class (document is skipped).
func steps() []TransitionRequest {
	done := allPass()
	done.Evidence = []Evidence{{Kind: "changelog", Ref: "CHANGELOG.md#1.2.0"}}
	return []TransitionRequest{
		{To: StageEvaluate, Attachments: Attachments{Classification: classification(false)}},
		{To: StagePlan, Attachments: Attachments{SignedOffBy: owner, SecurityClear: true}},
		{To: StageImplement, Attachments: Attachments{Plan: &Plan{Tasks: []Task{{ID: "T1", Scope: "write:internal/requests"}}}, PlanApprovedBy: []string{owner}}},
		{To: StageReview, Attachments: Attachments{Links: []Link{{Kind: LinkBranch, Name: "feat/requests"}, {Kind: LinkPR, URL: "https://github.com/getbourdon/bourdon-go/pull/7"}}}},
		{To: StageDone, Attachments: done},
	}
}

// request builds, without a store, a request standing in stage st with
// everything the earlier gates needed.
func request(st Stage, designClass bool) *Request {
	r := &Request{ID: "REQ-2026-0001", Stage: StageIntake, Owner: owner, Requester: "github:bob", Type: "feature", Area: "platform"}
	all := steps()
	if designClass {
		all[0].Attachments.Classification = classification(true)
		all[2].To = StageDocument
		done := &all[len(all)-1].Attachments
		done.DoD["R1"] = ItemState{Status: Pass, Evidence: "cogitave.core.adr-0005"}
		done.DoD["R2"] = ItemState{Status: Pass, Evidence: "docs/decisions/0005.md#notes"}
		all = slices.Insert(all, 3, TransitionRequest{To: StageImplement, Attachments: Attachments{Links: []Link{{Kind: LinkADR, UID: "cogitave.core.adr-0005", Status: "accepted"}}}})
	}
	for _, tr := range all {
		if r.Stage == st {
			break
		}
		m, _, err := checkTransition(r, tr, agent, clock)
		if err != nil {
			panic(err)
		}
		r = m
	}
	return r
}

// requestPath returns where the document of request id is: for a
// directory store, the file's path.
func (s *Store) requestPath(id string) string { return s.docs.Where(s.requestName(id)) }

// readDoc reads the document name of s's folder ("proposals/x.yaml").
func readDoc(s *Store, name string) ([]byte, error) {
	data, _, err := s.docs.Read(context.Background(), s.dir+"/"+name, 4*MaxFileBytes)
	return data, err
}

// writeDoc writes the document name of s's folder, as a hand edit would.
func writeDoc(t *testing.T, s *Store, name string, data []byte) {
	t.Helper()
	if _, err := s.docs.Write(context.Background(), s.dir+"/"+name, data); err != nil {
		t.Fatal(err)
	}
}

// removeDoc removes the document name of s's folder.
func removeDoc(t *testing.T, s *Store, name string) {
	t.Helper()
	if err := s.docs.Remove(context.Background(), s.dir+"/"+name); err != nil {
		t.Fatal(err)
	}
}

// documents returns every document of the store's folders, by name.
func documents(t *testing.T, s *Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range []string{s.dir, s.pendingDir(), s.decidedDir()} {
		list, err := s.docs.List(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range list {
			data, _, err := s.docs.Read(context.Background(), d.Name, MaxFileBytes)
			if err != nil {
				t.Fatal(err)
			}
			out[d.Name] = string(data)
		}
	}
	return out
}
