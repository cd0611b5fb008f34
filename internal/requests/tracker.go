package requests

import "context"

// Tracker forwards proposals to an issue tracker, so that people can
// discuss them where they work. A Store with a Tracker forwards every new
// proposal before saving it; the returned URL is kept in the proposal.
type Tracker interface {
	// Forward publishes proposal p. r is the request a transition moves;
	// nil for an intake. It returns the URL of what it created.
	Forward(ctx context.Context, p *Proposal, r *Request) (url string, err error)
}
