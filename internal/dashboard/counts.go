package dashboard

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

// countCache keeps the row counts of the Agents page, which come from
// reading each agent's whole memory resource. An entry is the count a
// caller of one tier and grants saw for one agent at one last_updated
// stamp; the event hub drops an agent's entries when the MCP server
// announces a change to its memory resource, so a change that keeps the
// stamp is still seen.
type countCache struct {
	mu      sync.Mutex
	entries map[countKey]map[string]int
}

type countKey struct {
	caller, agent, stamp string
}

// maxCountEntries bounds the cache; it is emptied when full.
const maxCountEntries = 4096

func newCountCache() *countCache { return &countCache{entries: map[countKey]map[string]int{}} }

// who names what a caller may see: the same tier and grants see the same
// rows.
func who(c trust.Caller) string {
	g := slices.Clone(c.Grants)
	slices.Sort(g)
	return c.Tier.String() + "|" + strings.Join(g, ",")
}

// get returns the counts by kind of agent's memory as caller sees it.
func (cc *countCache) get(ctx context.Context, c *conn, caller trust.Caller, agent, stamp string) (map[string]int, error) {
	key := countKey{who(caller), agent, stamp}
	cc.mu.Lock()
	counts, ok := cc.entries[key]
	cc.mu.Unlock()
	if ok {
		return counts, nil
	}
	m, err := c.read(ctx, "agent-library://agents/"+url.PathEscape(agent)+"/memory")
	if err != nil {
		return nil, err
	}
	counts = map[string]int{}
	for _, k := range kinds {
		counts[k.Key] = len(asSlice(m[k.Key]))
	}
	cc.mu.Lock()
	if len(cc.entries) >= maxCountEntries {
		clear(cc.entries)
	}
	cc.entries[key] = counts
	cc.mu.Unlock()
	return counts, nil
}

// forget drops every entry of agent.
func (cc *countCache) forget(agent string) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	for k := range cc.entries {
		if k.agent == agent {
			delete(cc.entries, k)
		}
	}
}
