package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Live updates. Each open page holds one event stream (GET /ui/events).
// Behind it the dashboard opens an MCP session as the signed-in caller and
// subscribes to the agent list and to the memory resource of every agent
// the caller sees, exactly as an MCP client would; each resources/updated
// notification the server sends that session becomes one server-sent
// event, and the page's script fetches the page again.

// hub tracks the open event streams so Close can end them.
type hub struct {
	mu       sync.Mutex
	streams  map[chan struct{}]string // stream -> caller id
	byCaller map[string]int
	closed   bool
}

// Bounds of the open event streams, in all and per caller: each holds an
// MCP session, and the server caps a caller's sessions
// (mcpserver.MaxSessionsPerCaller), which the caller's own MCP clients
// need too. A page over the bound still works, without live updates.
const (
	maxStreams          = 64
	maxStreamsPerCaller = 8
)

func newHub() *hub { return &hub{streams: map[chan struct{}]string{}, byCaller: map[string]int{}} }

func (h *hub) join(caller string) (chan struct{}, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || len(h.streams) >= maxStreams || h.byCaller[caller] >= maxStreamsPerCaller {
		return nil, false
	}
	done := make(chan struct{})
	h.streams[done] = caller
	h.byCaller[caller]++
	return done, true
}

func (h *hub) leave(done chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if caller, ok := h.streams[done]; ok {
		delete(h.streams, done)
		h.byCaller[caller]--
		close(done)
	}
}

func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for done, caller := range h.streams {
		close(done)
		delete(h.streams, done)
		h.byCaller[caller]--
	}
}

// eventStream serves one page's server-sent events until the page goes
// away or the server stops.
func (d *Dashboard) eventStream(w http.ResponseWriter, r *request) {
	done, ok := d.events.join(r.caller.ID)
	if !ok {
		http.Error(w, "Service Unavailable: too many live pages; reload later", http.StatusServiceUnavailable)
		return
	}
	defer d.events.leave(done)
	changes := make(chan string, 64)
	notify := func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		select {
		case changes <- req.Params.URI:
		default: // a page that already has a change pending reloads anyway
		}
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	c, err := d.bridge.connect(ctx, r.caller, true, &mcp.ClientOptions{ResourceUpdatedHandler: notify})
	if err != nil {
		http.Error(w, "Bad Gateway: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer c.Close()
	subscribed := map[string]bool{}
	subscribeAll(ctx, c, subscribed)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	flusher, _ := w.(http.Flusher)
	rc := http.NewResponseController(w)
	send := func(format string, args ...any) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
		if _, err := fmt.Fprintf(w, format, args...); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	if !send("retry: 2000\nevent: ready\ndata: {}\n\n") {
		return
	}
	keepAlive := time.NewTicker(25 * time.Second)
	defer keepAlive.Stop()
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			return
		case <-keepAlive.C:
			if !send(": keep-alive\n\n") {
				return
			}
		case uri := <-changes:
			// The watcher drops stale cache entries too; doing it here as
			// well means the page's refetch never sees them.
			d.cache.changed(uri)
			if uri == agentsURI {
				subscribeAll(ctx, c, subscribed)
			}
			if !send("event: change\ndata: %q\n\n", uri) {
				return
			}
		}
	}
}
