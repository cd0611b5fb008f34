package mcpserver

import (
	"context"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
)

// Timing of change notifications: the library is looked at every
// watchTick; a burst of writes is announced once it has been quiet for
// watchQuiet, or after watchMaxDelay at the latest.
const (
	watchTick     = 50 * time.Millisecond
	watchQuiet    = 150 * time.Millisecond
	watchMaxDelay = 600 * time.Millisecond
)

// Watch follows the library until ctx ends and notifies clients of
// changes: resources/updated for the memory resource of every agent whose
// manifest changed and for subscribed entity resources, and, when agents
// come or go, resources/updated for the agent list plus a list_changed
// notification (their memory resources join or leave resources/list).
// Bursts of writes are coalesced into one round of notifications.
func (s *Server) Watch(ctx context.Context) {
	t := time.NewTicker(watchTick)
	defer t.Stop()
	var lastGen uint64
	var first, last time.Time // first and latest unannounced change
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if gen := s.store.Snapshot().Generation; gen != lastGen {
				lastGen = gen
				if first.IsZero() {
					first = now
				}
				last = now
			}
			if !first.IsZero() && (now.Sub(last) >= watchQuiet || now.Sub(first) >= watchMaxDelay) {
				s.announce(ctx, true)
				first = time.Time{}
			}
		}
	}
}

// announce brings the registered agent resources in line with the library
// and, when notify is set, tells subscribers what changed.
func (s *Server) announce(ctx context.Context, notify bool) {
	snap := s.store.Snapshot()
	s.mu.Lock()
	var changed, added, removed []string
	current := make(map[string]*l5.Manifest, snap.Len())
	for _, id := range snap.IDs() {
		a, _ := snap.Agent(id)
		current[id] = a.Manifest
		switch old, ok := s.announced[id]; {
		case !ok:
			added = append(added, id)
		case old != a.Manifest:
			changed = append(changed, id)
		}
	}
	for id := range s.announced {
		if _, ok := current[id]; !ok {
			removed = append(removed, id)
		}
	}
	s.announced = current
	var entityURIs []string
	for uri := range s.subs {
		if strings.HasPrefix(uri, entityPrefix) {
			entityURIs = append(entityURIs, uri)
		}
	}
	s.mu.Unlock()

	for _, id := range added {
		s.AddResource(memoryResource(id), s.readMemory)
	}
	if len(removed) > 0 {
		uris := make([]string, len(removed))
		for i, id := range removed {
			uris[i] = memoryURI(id)
		}
		s.RemoveResources(uris...)
	}
	if !notify {
		return
	}
	var updated []string
	for _, list := range [][]string{added, changed, removed} {
		for _, id := range list {
			updated = append(updated, memoryURI(id))
		}
	}
	if len(added)+len(removed) > 0 {
		updated = append(updated, agentsURI)
	}
	if len(added)+len(changed)+len(removed) > 0 {
		updated = append(updated, entityURIs...)
	}
	for _, uri := range updated {
		if err := s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil && s.opts.Logger != nil {
			s.opts.Logger.Warn("resource update notification failed", "uri", uri, "err", err)
		}
	}
}

func (s *Server) isOurs(uri string) bool {
	if uri == agentsURI || (s.opts.Knowledge != nil && isNodeURI(uri)) {
		return true
	}
	if _, ok := segment(uri, agentMemoryPrefix, agentMemorySuffix); ok {
		return true
	}
	_, ok := segment(uri, entityPrefix, "")
	return ok
}
