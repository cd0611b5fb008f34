package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/peer"
)

// checkPeers asks every peer in ~/.bourdon/peers.yaml for its agent list,
// all at once, each within the peer timeout. Without a peers file there is
// nothing to check.
func checkPeers(ctx context.Context, r *Report, o Options) {
	path := peer.ConfigPath(o.Env.Home)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		r.add(Check{Check: "peer", Status: Skip, Message: "no peers configured (" + path + ")"})
		return
	}
	peers, err := peer.LoadFile(path)
	if err != nil {
		r.add(Check{Check: "peer", Status: Fail, File: path, Message: err.Error(), Fix: "correct " + path + " (see docs/peers.md)"})
		return
	}
	if len(peers) == 0 {
		r.add(Check{Check: "peer", Status: Skip, File: path, Message: "no peers listed in " + path})
		return
	}
	probe := o.ProbePeer
	if probe == nil {
		probe = func(ctx context.Context, p peer.Peer) (string, error) { return listAgents(ctx, p, o) }
	}
	checks := make([]Check, len(peers))
	var wg sync.WaitGroup
	for i, p := range peers {
		wg.Go(func() {
			pctx, cancel := context.WithTimeout(ctx, o.PeerTimeout)
			defer cancel()
			c := Check{Check: "peer", Subject: p.Name}
			msg, err := probe(pctx, p)
			if err != nil {
				c.Status = Fail
				c.Message = fmt.Sprintf("%s did not answer: %v", p.URL, err)
				c.Fix = fmt.Sprintf("check that the peer runs bourdon serve --transport http at %s and that $%s holds a token it accepts", p.URL, p.TokenEnv)
			} else {
				c.Status, c.Message = OK, p.URL+" "+msg
			}
			checks[i] = c
		})
	}
	wg.Wait()
	for _, c := range checks {
		r.add(c)
	}
}

// listAgents calls list_agents on a peer, at depth 1 like a federated
// call, and says how long it took.
func listAgents(ctx context.Context, p peer.Peer, o Options) (string, error) {
	c := peer.NewClient(p, o.Env.Getenv, o.Version, o.PeerTimeout)
	defer c.Close()
	start := time.Now()
	res, err := c.Call(ctx, "list_agents", map[string]any{"federation_hop": 1})
	if err != nil {
		return "", err
	}
	n := 0
	if agents, ok := res["agents"].([]any); ok {
		n = len(agents)
	}
	return fmt.Sprintf("answered list_agents in %d ms (%d agent(s))", time.Since(start).Milliseconds(), n), nil
}
