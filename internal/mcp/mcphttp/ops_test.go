package mcphttp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// tokenTransport sends one bearer token.
type tokenTransport string

func (t tokenTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(t))
	return http.DefaultTransport.RoundTrip(r)
}

// limitedServer serves the echo tool to two registry members: "burster",
// whose own limit is 10 calls and then one an hour, and "neighbour", on
// the default limit def. It returns their tokens.
func limitedServer(t testing.TB, def trust.RateLimit, refused *atomic.Int64) (url, burster, neighbour string) {
	t.Helper()
	reg := trust.OpenRegistry(filepath.Join(t.TempDir(), "federation.yaml"))
	burster, err := reg.Add("burster", trust.TierTrusted, nil)
	if err != nil {
		t.Fatal(err)
	}
	neighbour, err = reg.Add("neighbour", trust.TierTrusted, nil)
	if err != nil {
		t.Fatal(err)
	}
	perHour := 1.0 / 3600
	if err := reg.SetRateLimit("burster", trust.RateOverride{PerSecond: &perHour, Burst: 10}); err != nil {
		t.Fatal(err)
	}
	hs := testServer(t, mcphttp.Options{
		Auth:          &mcphttp.Auth{Registry: reg},
		Limiter:       mcphttp.NewLimiter(def),
		OnRateLimited: func(string) { refused.Add(1) },
	})
	return hs.URL, burster, neighbour
}

func connectWith(t testing.TB, url, token, version string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: tokenTransport(token)}}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// burst makes n calls from workers goroutines and counts the successes.
func burst(cs *mcp.ClientSession, n, workers int) int64 {
	var ok atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"s": "x"}}); err == nil && !res.IsError {
					ok.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return ok.Load()
}

func TestOneCallerBurstingIsHeldToItsRate(t *testing.T) {
	var refused atomic.Int64
	// The neighbour's default: 100 calls, then one an hour.
	url, burster, neighbour := limitedServer(t, trust.RateLimit{PerSecond: 1.0 / 3600, Burst: 100}, &refused)
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			refused.Store(0)
			a := connectWith(t, url, burster, version)
			b := connectWith(t, url, neighbour, version)
			var neighbourOK int64
			done := make(chan struct{})
			go func() {
				defer close(done)
				neighbourOK = burst(b, 40, 4)
			}()
			// 1,000 calls at once: the burst of 10 passes (the first
			// subtest spent it, so the second gets none), the rest are
			// refused, and the neighbour's 40 calls all pass meanwhile.
			got := burst(a, 1000, 50)
			<-done
			want := int64(10)
			if version == "2026-07-28" {
				want = 0
			}
			if got != want || refused.Load() != 1000-want {
				t.Errorf("the burster got %d calls through (want %d), %d refused", got, want, refused.Load())
			}
			if neighbourOK != 40 {
				t.Errorf("the neighbour got %d of 40 calls through", neighbourOK)
			}
			// The limited caller's session still works for everything else.
			if _, err := a.ListTools(context.Background(), nil); err != nil {
				t.Errorf("tools/list after the limit: %v", err)
			}
			if version == "2026-07-28" {
				return // ping is not a stateless request
			}
			if err := a.Ping(context.Background(), nil); err != nil {
				t.Errorf("ping after the limit: %v", err)
			}
		})
	}
}

// statelessMeta is what a 2026-07-28 request carries in params._meta.
const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"x","version":"1"}}`

func TestARefusedCallGets429WithRetryAfter(t *testing.T) {
	var refused atomic.Int64
	url, burster, _ := limitedServer(t, trust.RateLimit{}, &refused)
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"s":"x"},` + statelessMeta + `}}`
	header := map[string]string{"Authorization": "Bearer " + burster, "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "echo"}
	for range 10 {
		if resp, body := post(t, url, call, header); resp.StatusCode != http.StatusOK {
			t.Fatalf("within the burst: %d %s", resp.StatusCode, body)
		}
	}
	resp, body := post(t, url, call, header)
	retry, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if resp.StatusCode != http.StatusTooManyRequests || err != nil || retry < 1 || retry > 3600 {
		t.Fatalf("over the limit: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	var msg struct {
		ID    int `json:"id"`
		Error struct {
			Code int            `json:"code"`
			Data map[string]int `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &msg); err != nil || msg.ID != 7 || msg.Error.Code != -32029 || msg.Error.Data["retryAfterSeconds"] != retry {
		t.Errorf("the JSON-RPC error: %s (%v)", body, err)
	}
	// Listing is not limited.
	header["Mcp-Method"] = "tools/list"
	delete(header, "Mcp-Name")
	if resp, body := post(t, url, `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{`+statelessMeta+`}}`, header); resp.StatusCode != http.StatusOK {
		t.Errorf("tools/list: %d %s", resp.StatusCode, body)
	}
}

// BenchmarkNeighbourLatencyUnderBurst reports the neighbour's call
// latency while the burster sends calls past its limit as fast as 1 or 4
// connections allow, as a ratio to the neighbour's latency with the server
// idle, measured in alternating rounds of the same run (busy/idle; the
// goal is under 2). The
// burster's client runs on the same CPU as the server, so on a small
// shared machine the ratio also counts the client's own work.
func BenchmarkNeighbourLatencyUnderBurst(b *testing.B) {
	for _, conns := range []int{1, 4} {
		b.Run(fmt.Sprintf("connections=%d", conns), func(b *testing.B) {
			var refused atomic.Int64
			// The neighbour is not limited: its own latency is what is measured.
			url, burster, neighbour := limitedServer(b, trust.RateLimit{}, &refused)
			nb := connectWith(b, url, neighbour, "2026-07-28")
			measure := func(n int) time.Duration {
				start := time.Now()
				for range n {
					if _, err := nb.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"s": "x"}}); err != nil {
						b.Fatal(err)
					}
				}
				return time.Since(start) / time.Duration(n)
			}
			// Idle and busy rounds alternate, so that a change in the
			// machine's load during the run weighs on both alike.
			const rounds = 10
			n := max(b.N/rounds, 10)
			var idle, busy time.Duration
			for range rounds {
				idle += measure(n)
				stop := flood(url, burster, conns)
				busy += measure(n)
				stop()
			}
			b.ReportMetric(float64(busy)/float64(idle), "busy/idle")
			b.ReportMetric(float64(refused.Load())/float64(n*rounds), "refused/neighbour-call")
		})
	}
}

// flood sends raw tools/call requests as token on conns connections
// until the returned stop is called.
func flood(url, token string, conns int) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"s":"x"},` + statelessMeta + `}}`
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conns}}
	for range conns {
		wg.Go(func() {
			for ctx.Err() == nil {
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+token)
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
				req.Header.Set("Mcp-Method", "tools/call")
				req.Header.Set("Mcp-Name", "echo")
				if resp, err := client.Do(req); err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}
		})
	}
	return func() { cancel(); wg.Wait() }
}

func TestAuthRefusalsAreReportedByReason(t *testing.T) {
	reasons := map[string]int{}
	var mu sync.Mutex
	onRefused := func(r string) { mu.Lock(); reasons[r]++; mu.Unlock() }
	configured := testServer(t, mcphttp.Options{Auth: &mcphttp.Auth{LegacyToken: "secret", OnRefused: onRefused}})
	post(t, configured.URL, initialize, nil)
	post(t, configured.URL, initialize, map[string]string{"Authorization": "Bearer wrong"})
	post(t, configured.URL, initialize, map[string]string{"Authorization": "Bearer secret"})
	empty := testServer(t, mcphttp.Options{Auth: &mcphttp.Auth{OnRefused: onRefused}})
	post(t, empty.URL, initialize, nil)
	want := map[string]int{mcphttp.RefusedMissingToken: 1, mcphttp.RefusedInvalidToken: 1, mcphttp.RefusedNotConfigured: 1}
	if fmt.Sprint(reasons) != fmt.Sprint(want) {
		t.Errorf("reasons %v, want %v", reasons, want)
	}
}

// TestUnreadableRegistryAnswers503: a registry that cannot be read (a
// broken file here; a database that is down behind --store) lets nobody
// in, with a 503 that says so and asks to retry, not "no auth
// configured".
func TestUnreadableRegistryAnswers503(t *testing.T) {
	path := filepath.Join(t.TempDir(), "federation.yaml")
	if err := os.WriteFile(path, []byte("agents: [broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	hs := testServer(t, mcphttp.Options{Auth: &mcphttp.Auth{Registry: trust.OpenRegistry(path)}})
	resp, body := post(t, hs.URL, initialize, map[string]string{"Authorization": "Bearer bdn_" + strings.Repeat("0", 48)})
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "registry cannot be read") {
		t.Errorf("%d %v %s", resp.StatusCode, resp.Header, body)
	}
}
