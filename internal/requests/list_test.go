package requests

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestListFiltersAndPages(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		s := newStore(t)
		var ids []string
		for i := range 7 {
			r := accepted(t, s)
			ids = append(ids, r.ID)
			if i%2 == 0 {
				advance(t, s, r.ID, steps()[0])
			}
		}
		// A request of the next year sorts after.
		s.now = func() time.Time { return clock.AddDate(1, 0, 0) }
		ids = append(ids, accepted(t, s).ID)
		if ids[7] != "REQ-2027-0001" {
			t.Fatalf("id %s", ids[7])
		}
		for _, tc := range []struct {
			f    Filter
			want int
		}{
			{Filter{}, 8},
			{Filter{Stage: "EVALUATE"}, 4},
			{Filter{Stage: "intake", Owner: "Cogitave/Platform", Area: "platform", Type: "feature"}, 4},
			{Filter{Owner: "cogitave/docs"}, 0},
		} {
			page, err := s.List(tc.f)
			if err != nil || page.Total != tc.want || len(page.Requests) != tc.want || page.NextCursor != "" {
				t.Errorf("%+v: %d of %d, cursor %q, %v", tc.f, len(page.Requests), page.Total, page.NextCursor, err)
			}
		}
		var got []string
		f := Filter{Limit: 3}
		for {
			page, err := s.List(f)
			if err != nil {
				t.Fatal(err)
			}
			if page.Total != 8 {
				t.Errorf("total %d", page.Total)
			}
			for _, r := range page.Requests {
				got = append(got, r.ID)
			}
			if page.NextCursor == "" {
				break
			}
			f.Cursor = page.NextCursor
		}
		if diff := cmp.Diff(ids, got); diff != "" {
			t.Errorf("paged ids (-want +got):\n%s", diff)
		}
		for _, f := range []Filter{{Cursor: "bm9wZQ"}, {Cursor: "!!"}, {Limit: -1}, {Limit: MaxLimit + 1}, {Stage: "shipped"}} {
			if _, err := s.List(f); err == nil {
				t.Errorf("%+v: no error", f)
			}
		}
		if _, err := s.List(Filter{Cursor: "x"}); err == nil || !strings.Contains(err.Error(), "pass the nextCursor of the previous page unchanged") {
			t.Errorf("bad cursor: %v", err)
		}
	})
}

func TestGetMatchesIDsInAnyCase(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		s := newStore(t)
		r := accepted(t, s)
		for _, id := range []string{"REQ-2026-0001", "req-2026-0001", "Req-2026-0001"} {
			if got, err := s.Get(id); err != nil || got.ID != r.ID {
				t.Errorf("%s: %v", id, err)
			}
		}
		if _, err := s.Get("REQ-2026-0002"); !errors.Is(err, ErrNotFound) {
			t.Errorf("missing: %v", err)
		}
		for _, bad := range []string{"REQ-26-1", "../REQ-2026-0001", "REQ-2026-0001\n", "REQ-2026-0001\x00"} {
			if _, err := s.Get(bad); err == nil || !strings.Contains(err.Error(), "want REQ-YYYY-NNNN") {
				t.Errorf("%q: %v", bad, err)
			}
		}
	})
}

// TestGetForTellsNothingAboutOtherAreas: to a caller limited to some
// areas, a request of another area, a missing one and a malformed id get
// the same answer; a caller with no limit gets Get's errors.
func TestGetForTellsNothingAboutOtherAreas(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		s := newStore(t)
		r := accepted(t, s)
		own := func(area string) bool { return area == r.Area }
		other := func(string) bool { return false }
		if got, err := s.GetFor(r.ID, own); err != nil || got.ID != r.ID {
			t.Fatalf("own area: %v", err)
		}
		if got, err := s.GetFor(r.ID, nil); err != nil || got.ID != r.ID {
			t.Fatalf("no limit: %v", err)
		}
		for _, c := range []struct {
			id      string
			mayRead func(string) bool
		}{{r.ID, other}, {"REQ-2026-0002", other}, {"REQ-2026-0002", nil}, {"REQ-26-1", other}} {
			_, err := s.GetFor(c.id, c.mayRead)
			var nr *NoRequestError
			if !errors.As(err, &nr) || !errors.Is(err, ErrNotFound) || err.Error() != fmt.Sprintf("no request %q; list_requests lists them", c.id) {
				t.Errorf("%s: %v", c.id, err)
			}
		}
		if _, err := s.GetFor("REQ-26-1", nil); err == nil || !strings.Contains(err.Error(), "want REQ-YYYY-NNNN") {
			t.Errorf("a malformed id with no limit: %v", err)
		}
	})
}

func TestMalformedFilesAreReportedAndKept(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		s := newStore(t)
		r := accepted(t, s)
		pending, err := s.ProposeTransition(context.Background(), r.ID, steps()[0], agent)
		if err != nil {
			t.Fatal(err)
		}
		entries, _ := os.ReadDir("testdata/malformed")
		for _, e := range entries {
			data, _ := os.ReadFile(filepath.Join("testdata/malformed", e.Name()))
			writeDoc(t, s, e.Name(), data)
		}
		big := append([]byte("id: REQ-2026-0008\n# "), bytes.Repeat([]byte("x"), MaxFileBytes)...)
		writeDoc(t, s, "REQ-2026-0008.yaml", big)
		writeDoc(t, s, "proposals/prop-00000000000a.yaml", []byte("id: [\n"))
		escape := "id: prop-00000000000b\nkind: transition\nstatus: pending\nrequestId: ../../outside\nto: done\nproposer: x\n"
		writeDoc(t, s, "proposals/prop-00000000000b.yaml", []byte(escape))

		page, err := s.List(Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Requests) != 1 || page.Requests[0].ID != r.ID {
			t.Errorf("requests %v", page.Requests)
		}
		want := map[string]string{
			"REQ-2026-0002.yaml": "REQ-2026-0002.yaml is malformed: yaml: line 1: did not find expected ',' or ']'",
			"REQ-2026-0003.yaml": "REQ-2026-0003.yaml is malformed: yaml: unmarshal errors: line 3: field stagee not found in type requests.Request",
			"REQ-2026-0004.yaml": `REQ-2026-0004.yaml is malformed: its id is "REQ-2026-0044"`,
			"REQ-2026-0005.yaml": `REQ-2026-0005.yaml is malformed: unknown stage "shipped": want one of intake, evaluate, plan, document, implement, review, done, rejected`,
			"REQ-2026-0007.yaml": "REQ-2026-0007.yaml is malformed: more than one YAML document",
			"REQ-2026-0008.yaml": "REQ-2026-0008.yaml is larger than 1048576 bytes",
			"notes.yaml":         "not a request file: name it REQ-YYYY-NNNN.yaml",
			"req-2026-0006.yaml": "rename it REQ-2026-0006.yaml",
		}
		got := map[string]string{}
		for _, p := range page.Problems {
			got[p.File] = p.Message
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("problems (-want +got):\n%s", diff)
		}
		if _, err := s.Get("REQ-2026-0003"); err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "malformed") {
			t.Errorf("get malformed: %v", err)
		}
		if _, problems, _ := s.Proposals(ProposalFilter{}); len(problems) != 2 || problems[0].File != filepath.Join("proposals", "prop-00000000000a.yaml") ||
			problems[1].Message != `prop-00000000000b.yaml is malformed: request id "../../outside"` {
			t.Errorf("proposal problems %v", problems)
		}
		if _, _, err := s.Approve(context.Background(), "prop-00000000000b", operator); err == nil || !strings.Contains(err.Error(), "malformed") {
			t.Errorf("approving a malformed proposal: %v", err)
		}

		// A new request takes an id no file holds, whatever its state.
		if next := accepted(t, s); next.ID != "REQ-2026-0009" {
			t.Errorf("new id %s", next.ID)
		}
		// A request that became malformed is not overwritten by an approval.
		broken := []byte("id: REQ-2026-0001\nstage: intake\nowner: [\n")
		writeDoc(t, s, r.ID+".yaml", broken)
		if _, _, err := s.Approve(context.Background(), pending.ID, operator); err == nil || !strings.Contains(err.Error(), "malformed") {
			t.Errorf("approving on a malformed file: %v", err)
		}
		if data, _ := readDoc(s, r.ID+".yaml"); !bytes.Equal(data, broken) {
			t.Error("the malformed file was overwritten")
		}
		if p, _ := s.Proposal(pending.ID); p.Status != StatusPending {
			t.Error("the proposal was decided")
		}
	})
}

func TestOpenRefusesAFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "requests")
	os.WriteFile(f, nil, 0o644)
	if _, err := Open(f); err == nil {
		t.Error("opened a file")
	}
	s, err := Open(filepath.Join(t.TempDir(), "absent"))
	if err != nil {
		t.Fatal(err)
	}
	if page, err := s.List(Filter{}); err != nil || page.Total != 0 {
		t.Errorf("an absent folder: %+v %v", page, err)
	}
}

// TestAFIFOInTheStoreIsAProblemNotAHang: a named pipe among the request
// files used to block listing and reading forever.
func TestAFIFOInTheStoreIsAProblemNotAHang(t *testing.T) {
	s := newStore(t)
	r := accepted(t, s)
	if err := syscall.Mkfifo(filepath.Join(s.Root(), "REQ-2026-0009.yaml"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	page, err := s.List(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Requests) != 1 || page.Requests[0].ID != r.ID {
		t.Errorf("requests %v", page.Requests)
	}
	if len(page.Problems) != 1 || !strings.Contains(page.Problems[0].Message, "not a regular file (a named pipe)") {
		t.Errorf("problems %v", page.Problems)
	}
	if _, err := s.Get("REQ-2026-0009"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("get: %v", err)
	}
}
