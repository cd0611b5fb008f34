package dashboard

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/testkit/libgen"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// BenchmarkPages measures the server time of each page on the benchmark
// library (100 agents x 1,000 entities x 500 sessions), signed in as the
// operator, and reports its median beside the median of one find_entity
// call over an in-memory MCP session, measured in the same run:
//
//	go test ./internal/dashboard -run '^$' -bench Pages -benchtime 50x
func BenchmarkPages(b *testing.B) {
	dir := libgen.BenchmarkLibrary(b)
	srv, _ := mcptest.NewServer(b, mcptest.CopyDir(b, dir), mcpserver.Options{})
	d, err := New(Config{MCP: srv.Server})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(d.Close)
	op := trust.Operator()
	op.Transport = trust.HTTP
	ss := d.sessions.open("", op)
	cs := mcptest.Connect(b, srv.Server, "in-memory")
	b.Run("baseline: find_entity over MCP", func(b *testing.B) {
		median(b, func() {
			mcptest.CallJSON(b, cs, "find_entity", map[string]any{"name": libgen.EntityName(7), "access_level": "team"})
		})
	})
	for _, path := range []string{
		"/ui/agents", "/ui/activity?visibility=team", "/ui/activity?visibility=team&since=2000-01-01",
		"/ui/search?q=" + url.QueryEscape(libgen.EntityName(7)), "/ui/entity?name=" + url.QueryEscape(libgen.EntityName(7)), "/ui/governance", "/ui/governance?history=agent-007",
	} {
		b.Run(path, func(b *testing.B) {
			median(b, func() {
				req := httptest.NewRequest(http.MethodGet, path, nil)
				req.AddCookie(&http.Cookie{Name: cookieName, Value: ss.id})
				rec := httptest.NewRecorder()
				d.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d", path, rec.Code)
				}
			})
		})
	}
}

// median runs f b.N times and reports the median in milliseconds.
func median(b *testing.B, f func()) {
	times := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		f()
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2])/1e6, "p50-ms")
}
