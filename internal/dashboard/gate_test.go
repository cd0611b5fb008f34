package dashboard

import (
	"html"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/requests"
)

// TestProposalShowsGateVerdict: each pending proposal shows what
// approving it as the signed-in member would do now, worked out by the
// request store's own check, and drawing the page decides nothing.
func TestProposalShowsGateVerdict(t *testing.T) {
	f := newFixture(t)
	card := func(token string) string {
		b := f.browser(t)
		b.signIn(token)
		_, page, _ := b.get("/ui/governance")
		i := strings.Index(page, `data-proposal="`+f.proposal+`"`)
		if i < 0 {
			t.Fatalf("no card for the proposal:\n%s", page)
		}
		end := strings.Index(page[i:], "</article>")
		return html.UnescapeString(page[i : i+end])
	}
	// alice proposed it: her approval would be refused as self-approval.
	if c := card(f.tokens[alice]); !strings.Contains(c, "approving it now would be refused") || !strings.Contains(c, "cannot approve it too") {
		t.Errorf("alice's view of her own proposal:\n%s", c)
	}
	// bob may approve it: the gate passes and the request would be in intake.
	if c := card(f.tokens[bob]); !strings.Contains(c, "passes") || !strings.Contains(c, "would be in intake") {
		t.Errorf("bob's view:\n%s", c)
	}
	if p, err := f.reqs.Proposal(f.proposal); err != nil || p.Status != requests.StatusPending {
		t.Errorf("drawing the page decided the proposal: %v %v", p, err)
	}
}
