package peer

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
)

// sessions returns n rows of the given agents over a few days, newest
// first, as a store lists them.
func sessions(r *rand.Rand, n int, agents ...string) []federation.SessionRef {
	out := make([]federation.SessionRef, n)
	for i := range out {
		cwd := fmt.Sprintf("/w/%d", i)
		out[i] = federation.SessionRef{Agent: agents[r.IntN(len(agents))], Date: fmt.Sprintf("2026-11-%02d", 1+r.IntN(9)), Cwd: &cwd, ProjectFocus: []string{}}
	}
	slices.SortStableFunc(out, newestFirst)
	return out
}

// pageOf serves rows from an offset cursor, as a store does.
func pageOf(rows []federation.SessionRef, cursor string, limit int) (federation.Page[federation.SessionRef], error) {
	c, err := federation.DecodeCursor(cursor)
	if err != nil {
		return federation.Page[federation.SessionRef]{}, err
	}
	start := min(c.Offset, len(rows))
	end := min(start+limit, len(rows))
	p := federation.Page[federation.SessionRef]{Rows: rows[start:end], HasMore: end < len(rows)}
	if p.HasMore {
		next := federation.Cursor{Offset: end}.Encode()
		p.NextCursor = &next
	}
	return p, nil
}

// listingPeer answers list_recent_work from rows, text only.
func listingPeer(t *testing.T, rows []federation.SessionRef) *fakePeer {
	return startPeer(t, map[string]answer{"list_recent_work": func(ctx context.Context, args map[string]any) *mcp.CallToolResult {
		cursor, _ := args["cursor"].(string)
		limit, _ := args["limit"].(float64)
		p, err := pageOf(rows, cursor, int(limit))
		if err != nil {
			return text(map[string]any{"error": err.Error()})(ctx, args)
		}
		return text(map[string]any{"sessions": p.Rows, "has_more": p.HasMore, "next_cursor": p.NextCursor})(ctx, args)
	}})
}

func tagged(peer string, rows []federation.SessionRef) []federation.SessionRef {
	out := slices.Clone(rows)
	for i := range out {
		out[i].Agent = Tag(peer, out[i].Agent)
	}
	return out
}

func key(r federation.SessionRef) string { return r.Date + " " + r.Agent + " " + *r.Cwd }

func TestRecentWorkPagesListEveryRowOnceInOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	local := sessions(r, 37, "claude-code", "codex")
	mac := sessions(r, 23, "codex", "improve")
	pc := sessions(r, 5, "zed")
	s := setOf(t, Options{}, map[string]string{"mac": listingPeer(t, mac).URL, "pc": listingPeer(t, pc).URL})

	want := slices.Concat(local, tagged("mac", mac), tagged("pc", pc))
	slices.SortStableFunc(want, newestFirst)

	for _, limit := range []int{1, 3, 7, 20, 100} {
		var got []federation.SessionRef
		cursor := ""
		for pages := 0; ; pages++ {
			if pages > 200 {
				t.Fatalf("limit %d: no end in sight", limit)
			}
			p, rep, err := s.RecentWork(context.Background(), RecentWork{Limit: limit, Cursor: cursor, Access: Access{Level: "public"}},
				func(c string, l int) (federation.Page[federation.SessionRef], error) { return pageOf(local, c, l) })
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Errors) != 0 || len(p.Rows) > limit {
				t.Fatalf("limit %d: page of %d, report %+v", limit, len(p.Rows), rep)
			}
			got = append(got, p.Rows...)
			if !p.HasMore {
				if p.NextCursor != nil {
					t.Fatal("next_cursor without has_more")
				}
				break
			}
			cursor = *p.NextCursor
		}
		var g, w []string
		for i := range got {
			g = append(g, key(got[i]))
		}
		for i := range want {
			w = append(w, key(want[i]))
		}
		if strings.Join(g, "\n") != strings.Join(w, "\n") {
			t.Errorf("limit %d: listed %d rows, want %d in merged order", limit, len(g), len(w))
		}
	}
}

func TestRecentWorkRoutesATaggedAgentToItsPeer(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	mac := listingPeer(t, sessions(r, 4, "codex"))
	s := setOf(t, Options{}, map[string]string{"mac": mac.URL})
	agent := "peer:mac:codex"
	localAsked := false
	p, rep, err := s.RecentWork(context.Background(), RecentWork{Limit: 10, Agent: &agent, Access: Access{Level: "public"}},
		func(string, int) (federation.Page[federation.SessionRef], error) {
			localAsked = true
			return federation.Page[federation.SessionRef]{}, nil
		})
	if err != nil || localAsked || rep.Queried != 1 || len(p.Rows) != 4 || p.Rows[0].Agent != agent {
		t.Fatalf("rows %+v report %+v local asked %v err %v", p.Rows, rep, localAsked, err)
	}
	if mac.lastArgs()["agent"] != "codex" {
		t.Errorf("peer asked for %v", mac.lastArgs()["agent"])
	}
}

func TestRecentWorkWithAFailingPeerStillPages(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	local := sessions(r, 3, "claude-code")
	s := setOf(t, Options{}, map[string]string{"dead": deadURL(t)})
	p, rep, err := s.RecentWork(context.Background(), RecentWork{Limit: 10, Access: Access{Level: "public"}},
		func(c string, l int) (federation.Page[federation.SessionRef], error) { return pageOf(local, c, l) })
	if err != nil || len(p.Rows) != 3 || rep.Responded != 0 || rep.Errors["dead"] == "" {
		t.Fatalf("rows %d report %+v err %v", len(p.Rows), rep, err)
	}
	// The dead peer is left out of the rest of the listing, which ends.
	if p.HasMore || p.NextCursor != nil {
		t.Fatalf("has_more %v", p.HasMore)
	}
	if _, _, err := s.RecentWork(context.Background(), RecentWork{Limit: 10, Cursor: "eyJvZmZzZXQiOjAsInBlZXJzIjpbMV19"}, nil); err == nil || !strings.Contains(err.Error(), "invalid cursor") {
		t.Fatalf("a cursor with a bad peers part: %v", err)
	}
}
