package knowledge

import (
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/requests"
)

// Requests of the request lifecycle join the graph as Request nodes, uid
// the request id: stage, owner, type, area, requester and title as
// properties, the problem and desired outcome as content, and an xref
// edge to every node of the graph its links or its plan's blast radius
// name. A request belongs to its area the way an entity belongs to its
// agent: a quarantined caller sees the requests of the areas it was
// granted.

// requestsStamp fingerprints the request store's requests (see
// requests.Store.Stamp); 0 without a store. When they cannot be listed
// now (a database that does not answer), it logs why and returns last,
// the stamp seen before, so that the requests the graph holds stay.
func (b *Base) requestsStamp(last uint64) uint64 {
	if b.opts.Requests == nil {
		return 0
	}
	stamp, err := b.opts.Requests.Stamp()
	if err != nil {
		b.log.Warn("requests cannot be listed", "err", err)
		return last
	}
	return stamp
}

// DocumentChanged tells the base that the library's document name was
// written or removed, "" that any may have been: when it is one of the
// requests (requests.Store.Holds), Watch fingerprints them at its next
// step rather than at its next poll. It never blocks, so a notification
// listener may call it.
func (b *Base) DocumentChanged(name string) {
	if b.opts.Requests == nil || name != "" && !b.opts.Requests.Holds(name) {
		return
	}
	select {
	case b.nudged <- struct{}{}:
	default: // one is pending already; it covers this one
	}
}

// requests returns every accepted request, logging the files that cannot
// be read.
func (b *Base) requests() []*requests.Request {
	if b.opts.Requests == nil {
		return nil
	}
	all, problems, err := b.opts.Requests.All()
	if err != nil {
		b.log.Warn("requests cannot be listed", "err", err)
	}
	for _, p := range problems {
		b.log.Warn("request file skipped", "file", p.File, "problem", p.Message)
	}
	return all
}

// requestNode is the node of a request.
func requestNode(r *requests.Request) graph.Node {
	content := strings.TrimSpace(r.Problem + "\n\n" + r.DesiredOutcome)
	n := graph.Node{
		UID:   r.ID,
		Label: graph.Request,
		Props: map[string]any{
			"title": r.Title, "stage": string(r.Stage), "owner": r.Owner, "type": r.Type, "area": r.Area,
			"requester": r.Requester, "summary": r.Problem, "desiredOutcome": r.DesiredOutcome,
			"transitions": float64(len(r.History)), "visibility": "public",
		},
		Content:      content,
		LastModified: r.Updated,
		Source:       "requests/" + r.ID + ".yaml",
	}
	return hashed(n)
}

// requestTargets lists the uids a request names: its links' and its
// plan's blast radius.
func requestTargets(r *requests.Request) []string {
	var out []string
	for _, l := range r.Links {
		if l.UID != "" {
			out = append(out, l.UID)
		}
	}
	if r.Plan != nil {
		out = append(out, r.Plan.BlastRadius...)
	}
	return out
}
