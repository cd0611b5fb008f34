package dashboard

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

// cache keeps the answers the Agents page is built from, which are the
// costly ones on a large library: export_agents (it walks every
// manifest) and each agent's row counts (read from its whole memory
// resource). An entry is what a caller of one tier and grants was
// answered; it lives until the MCP server announces a change to the
// library (see watch), so what a page shows is always a tool's answer to
// that caller about the current library.
type cache struct {
	mu      sync.Mutex
	exports map[string]map[string]any            // who -> export_agents payload
	counts  map[string]map[string]map[string]int // agent -> who -> counts by kind
}

// maxCacheEntries bounds each map; a full map is emptied.
const maxCacheEntries = 4096

func newCache() *cache {
	return &cache{exports: map[string]map[string]any{}, counts: map[string]map[string]map[string]int{}}
}

// who names what a caller may see: the same tier and grants see the same
// rows.
func who(c trust.Caller) string {
	g := slices.Clone(c.Grants)
	slices.Sort(g)
	return c.Tier.String() + "|" + strings.Join(g, ",")
}

// export returns export_agents as caller is answered.
func (cc *cache) export(ctx context.Context, c *conn, caller trust.Caller) (map[string]any, error) {
	key := who(caller)
	cc.mu.Lock()
	p, ok := cc.exports[key]
	cc.mu.Unlock()
	if ok {
		return p, nil
	}
	p, err := c.call(ctx, "export_agents", nil)
	if err != nil {
		return nil, err
	}
	cc.mu.Lock()
	if len(cc.exports) >= maxCacheEntries {
		clear(cc.exports)
	}
	cc.exports[key] = p
	cc.mu.Unlock()
	return p, nil
}

// rowCounts returns the counts by kind of agent's memory as caller sees it.
func (cc *cache) rowCounts(ctx context.Context, c *conn, caller trust.Caller, agent string) (map[string]int, error) {
	key := who(caller)
	cc.mu.Lock()
	counts, ok := cc.counts[agent][key]
	cc.mu.Unlock()
	if ok {
		return counts, nil
	}
	m, err := c.read(ctx, memoryURI(agent))
	if err != nil {
		return nil, err
	}
	counts = map[string]int{}
	for _, k := range kinds {
		counts[k.Key] = len(asSlice(m[k.Key]))
	}
	cc.mu.Lock()
	if len(cc.counts) >= maxCacheEntries {
		clear(cc.counts)
	}
	if cc.counts[agent] == nil {
		cc.counts[agent] = map[string]map[string]int{}
	}
	cc.counts[agent][key] = counts
	cc.mu.Unlock()
	return counts, nil
}

// changed drops what a resources/updated notification of uri makes stale.
func (cc *cache) changed(uri string) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	clear(cc.exports)
	if agent, ok := strings.CutSuffix(strings.TrimPrefix(uri, agentsURI+"/"), "/memory"); ok {
		if id, err := url.PathUnescape(agent); err == nil {
			delete(cc.counts, id)
		}
	} else {
		clear(cc.counts)
	}
}

// agentsURI is the MCP resource listing the agents.
const agentsURI = "agent-library://agents"

func memoryURI(agent string) string {
	return agentsURI + "/" + url.PathEscape(agent) + "/memory"
}

// subscribeAll subscribes an MCP session to the agent list and to the
// memory resource of every agent it lists (again when called again).
func subscribeAll(ctx context.Context, c *conn, subscribed map[string]bool) {
	uris := []string{agentsURI}
	if la, err := c.call(ctx, "list_agents", nil); err == nil {
		for _, id := range strs(la["agents"]) {
			if !strings.HasPrefix(id, "peer:") {
				uris = append(uris, memoryURI(id))
			}
		}
	}
	for _, uri := range uris {
		if !subscribed[uri] && c.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}) == nil {
			subscribed[uri] = true
		}
	}
}

// watch keeps the cache in step with the library: one MCP session, as the
// operator, subscribed to every agent's memory, whose notifications only
// drop cache entries (it reads nothing for any page). It reconnects until
// ctx ends.
func (d *Dashboard) watch(ctx context.Context) {
	op := trust.Operator()
	op.Transport = trust.HTTP
	for ctx.Err() == nil {
		changes := make(chan string, 64)
		c, err := d.bridge.connect(ctx, op, true, &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			d.cache.changed(req.Params.URI)
			select {
			case changes <- req.Params.URI:
			default:
			}
		}})
		if err == nil {
			subscribed := map[string]bool{}
			subscribeAll(ctx, c, subscribed)
			for done := false; !done; {
				select {
				case <-ctx.Done():
					done = true
				case uri := <-changes:
					if uri == agentsURI {
						subscribeAll(ctx, c, subscribed)
					}
				}
			}
			c.Close()
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}
