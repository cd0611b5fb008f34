// Package mcpmetrics is the server's Prometheus metrics: tool calls by
// tool and outcome with their durations (recorded by an MCP receiving
// middleware, so no tool records its own), active sessions, refused
// authentications by reason, rate-limited calls, peer fan-out latency and
// timeouts, commits by outcome, the library's size and its reload time.
// Every label takes a value from a closed set (tool names are the
// server's own, never a caller's string); no caller id or entity name is
// ever a label.
package mcpmetrics

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds the collectors. A nil *Metrics records nothing, so code
// that reports to it needs no check.
type Metrics struct {
	reg          *prometheus.Registry
	toolCalls    *prometheus.CounterVec
	toolDuration *prometheus.HistogramVec
	authFailures *prometheus.CounterVec
	rateLimited  *prometheus.CounterVec
	peerDuration *prometheus.HistogramVec
	commits      *prometheus.CounterVec
	reloads      prometheus.Histogram
	// inProcess, when set, tells the server's own in-process sessions
	// (the dashboard's), which bdn_sessions_active leaves out.
	inProcess atomic.Pointer[func(*mcp.ServerSession) bool]
}

// Tool call outcomes.
const (
	OutcomeOK        = "ok"
	OutcomeDenied    = "denied"     // the access decision refused it
	OutcomeToolError = "tool_error" // the tool answered with an error (bad arguments, a refused write)
	OutcomeError     = "error"      // a protocol error: no such tool, invalid request, cancelled
)

// unknownTool is the tool label of calls that named no tool of the server.
const unknownTool = "-"

// New returns the metrics, with the Go runtime's and the process's own.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		toolCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bdn_tool_calls_total", Help: "MCP tool calls by tool and outcome (ok, denied, tool_error, error).",
		}, []string{"tool", "outcome"}),
		toolDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "bdn_tool_call_duration_seconds", Help: "Time to answer an MCP tool call, by tool.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"tool"}),
		authFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bdn_auth_failures_total", Help: "HTTP requests refused authentication, by reason (missing_token, invalid_token, not_configured).",
		}, []string{"reason"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bdn_rate_limited_total", Help: "Requests refused with 429: calls over their caller's rate limit, by method (tools/call, resources/read, dashboard for a signed-in member's dashboard pages), and requests over their client address's limit before authentication (oauth_register, oauth_requests, auth_refusals).",
		}, []string{"method"}),
		peerDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "bdn_peer_call_duration_seconds", Help: "Time a peer took to answer a federated call, by outcome (ok, error, timeout); the timeout count is the timeouts.",
			Buckets: []float64{.005, .01, .025, .05, .1, .2, .5, 1, 2, 5},
		}, []string{"outcome"}),
		commits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bdn_commits_total", Help: "commit_to_federation calls by outcome (ok, denied, tool_error, error).",
		}, []string{"outcome"}),
		reloads: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "bdn_library_reload_duration_seconds", Help: "Time to take in changes to the library directory.",
			Buckets: []float64{.001, .005, .01, .05, .1, .5, 1, 5, 10, 30},
		}),
	}
	m.reg.MustRegister(m.toolCalls, m.toolDuration, m.authFailures, m.rateLimited, m.peerDuration, m.commits, m.reloads,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// WatchSessions counts srv's open sessions at each scrape, but for those
// ExcludeSessions says are in process.
func (m *Metrics) WatchSessions(srv *mcp.Server) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "bdn_sessions_active", Help: "MCP sessions of clients open now (the dashboard's in-process sessions left out).",
	}, func() float64 {
		inProcess := m.inProcess.Load()
		n := 0
		for ss := range srv.Sessions() {
			if inProcess == nil || !(*inProcess)(ss) {
				n++
			}
		}
		return float64(n)
	}))
}

// ExcludeSessions leaves the sessions for which inProcess is true out of
// bdn_sessions_active: the server's own clients (the dashboard's), told
// apart by a mark clients cannot send.
func (m *Metrics) ExcludeSessions(inProcess func(*mcp.ServerSession) bool) {
	if m != nil {
		m.inProcess.Store(&inProcess)
	}
}

// WatchLibrary reports the library's size at each scrape: size returns
// its agents and rows (sessions, entities, workstreams and notes).
func (m *Metrics) WatchLibrary(size func() (agents, rows int)) {
	m.reg.MustRegister(librarySize{size})
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Middleware records every tools/call: its outcome and duration, and for
// commit_to_federation the commit's outcome. Add it with
// (*mcp.Server).AddReceivingMiddleware after the tools are registered.
func (m *Metrics) Middleware(tools []string) mcp.Middleware {
	known := map[string]bool{}
	for _, t := range tools {
		known[t] = true
	}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, ok := req.(*mcp.CallToolRequest)
			if m == nil || method != "tools/call" || !ok {
				return next(ctx, method, req)
			}
			start := time.Now()
			res, err := next(ctx, method, req)
			tool := unknownTool
			if call.Params != nil && known[call.Params.Name] {
				tool = call.Params.Name
			}
			outcome := outcomeOf(res, err)
			m.toolCalls.WithLabelValues(tool, outcome).Inc()
			m.toolDuration.WithLabelValues(tool).Observe(time.Since(start).Seconds())
			if tool == "commit_to_federation" {
				m.commits.WithLabelValues(outcome).Inc()
			}
			return res, err
		}
	}
}

// outcomeOf classifies a tool call's answer.
func outcomeOf(res mcp.Result, err error) string {
	r, ok := res.(*mcp.CallToolResult)
	switch {
	case err != nil || !ok || r == nil:
		return OutcomeError
	case r.IsError:
		return OutcomeToolError
	case deniedPayload(r.StructuredContent):
		return OutcomeDenied
	}
	return OutcomeOK
}

// deniedHead is how far into an encoded payload a denial's words are
// looked for: a denial is written with "error" as its first key (the
// reference's key order, trust.Denial), so a payload that does not hold
// them this early is not one, however long it is.
const deniedHead = 64

// deniedPayload reports whether a result is the reference's denial,
// {"error": "access denied", ...}.
func deniedPayload(sc any) bool {
	var head struct {
		Error string `json:"error"`
	}
	switch v := sc.(type) {
	case json.RawMessage:
		// Only a payload that holds the words in its head is decoded
		// (most are not denials, and decoding one costs more than the
		// scan).
		if bytes.Contains(v[:min(len(v), deniedHead)], []byte(`"access denied"`)) {
			_ = json.Unmarshal(v, &head)
		}
	case map[string]any:
		head.Error, _ = v["error"].(string)
	}
	return head.Error == "access denied"
}

// AuthFailed counts a refused authentication.
func (m *Metrics) AuthFailed(reason string) {
	if m != nil {
		m.authFailures.WithLabelValues(reason).Inc()
	}
}

// RateLimited counts a call refused for its caller's rate.
func (m *Metrics) RateLimited(method string) {
	if m != nil {
		m.rateLimited.WithLabelValues(method).Inc()
	}
}

// PeerCall records one peer's answer (or failure) to a federated call.
func (m *Metrics) PeerCall(took time.Duration, err error) {
	if m == nil {
		return
	}
	outcome := "ok"
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		outcome = "timeout"
	case err != nil:
		outcome = "error"
	}
	m.peerDuration.WithLabelValues(outcome).Observe(took.Seconds())
}

// Reloaded records how long taking in the library's changes took.
func (m *Metrics) Reloaded(took time.Duration) {
	if m != nil {
		m.reloads.Observe(took.Seconds())
	}
}

// librarySize reports the library's agents and rows at each scrape.
type librarySize struct{ size func() (agents, rows int) }

var (
	agentsDesc = prometheus.NewDesc("bdn_library_agents", "Agents (manifests) in the library.", nil, nil)
	rowsDesc   = prometheus.NewDesc("bdn_library_rows", "Rows in the library: sessions, entities, workstreams and notes.", nil, nil)
)

func (librarySize) Describe(ch chan<- *prometheus.Desc) { ch <- agentsDesc; ch <- rowsDesc }

func (l librarySize) Collect(ch chan<- prometheus.Metric) {
	agents, rows := l.size()
	ch <- prometheus.MustNewConstMetric(agentsDesc, prometheus.GaugeValue, float64(agents))
	ch <- prometheus.MustNewConstMetric(rowsDesc, prometheus.GaugeValue, float64(rows))
}
