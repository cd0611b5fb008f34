package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns
// their paths and a pool that trusts the certificate.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "bourdon test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// base is the server's address without the /mcp path.
func (s *server) base() string { return strings.TrimSuffix(s.url, "/mcp") }

// get fetches path from the server with an optional bearer token.
func get(t *testing.T, client *http.Client, url, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestServeTLSDirectly(t *testing.T) {
	cert, key, pool := selfSigned(t)
	s := startHTTP(t, "--library", seedLibrary(t), "--allow-unauthenticated", "--tls-cert", cert, "--tls-key", key)
	if !strings.HasPrefix(s.url, "https://127.0.0.1:") {
		t.Fatalf("banner URL %s", s.url)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: s.url, HTTPClient: client}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_agents", Arguments: map[string]any{}}); err != nil || res.IsError {
		t.Errorf("a tool call over TLS: %v %v", res, err)
	}
	if code, _ := get(t, client, s.base()+"/healthz", ""); code != http.StatusOK {
		t.Errorf("/healthz over TLS: %d", code)
	}
	// Plain HTTP to the TLS port is not served.
	if resp, err := http.Get("http" + strings.TrimPrefix(s.base(), "https") + "/healthz"); err == nil {
		if resp.StatusCode == http.StatusOK {
			t.Error("plain HTTP answered on the TLS port")
		}
		resp.Body.Close()
	}
}

func TestHealthReadinessAndMetrics(t *testing.T) {
	registry := filepath.Join(t.TempDir(), "federation.yaml")
	member := addMember(t, registry, "peer-mac", "--tier", "trusted")
	s := startHTTPWith(t, []string{"BOURDON_PEER_TOKEN_SERVER=op-secret"}, "--port", "0", "--library", seedLibrary(t), "--registry", registry)
	client := http.DefaultClient
	if code, body := get(t, client, s.base()+"/healthz", ""); code != http.StatusOK || !strings.Contains(body, `"ok"`) {
		t.Errorf("/healthz: %d %s", code, body)
	}
	if code, body := get(t, client, s.base()+"/readyz", ""); code != http.StatusOK || !strings.Contains(body, `"ready"`) {
		t.Errorf("/readyz: %d %s", code, body)
	}

	cs, err := connectAs(t, s.url, member, "2025-11-25")
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "find_entity", Arguments: map[string]any{"name": "Bourdon"}}); err != nil {
		t.Fatal(err)
	}
	// Unknown and hostile tool names never become labels.
	for _, name := range []string{"no_such_tool", "evil\"} 1\nbdn_forged_total 9", strings.Repeat("x", 5000)} {
		_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
	}
	get(t, client, s.url, "bdn_wrong") // one auth failure

	if code, _ := get(t, client, s.base()+"/metrics", ""); code != http.StatusUnauthorized {
		t.Errorf("/metrics without a token: %d", code)
	}
	if code, _ := get(t, client, s.base()+"/metrics", member); code != http.StatusForbidden {
		t.Errorf("/metrics with a member's token: %d", code)
	}
	code, body := get(t, client, s.base()+"/metrics", "op-secret")
	if code != http.StatusOK {
		t.Fatalf("/metrics with the operator's token: %d", code)
	}
	for _, want := range []string{
		`bdn_tool_calls_total{outcome="ok",tool="find_entity"} 1`,
		`bdn_auth_failures_total{reason="invalid_token"} 1`,
		`bdn_tool_calls_total{outcome="error",tool="-"} 3`,
		`bdn_library_agents `,
		`bdn_library_rows `,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	// This client's session only: the dashboard's standing one (its cache
	// listens for library changes) is in process and left out.
	if !regexp.MustCompile(`(?m)^bdn_sessions_active 1$`).MatchString(body) {
		t.Errorf("/metrics lacks bdn_sessions_active 1 (the dashboard's in-process sessions left out)")
	}
	if strings.Contains(body, "peer-mac") || strings.Contains(body, "Bourdon") {
		t.Error("a caller id or an entity name is in the metrics")
	}
	if strings.Contains(body, "no_such_tool") || strings.Contains(body, "evil") || strings.Contains(body, "bdn_forged") || strings.Contains(body, "xxxx") {
		t.Error("a tool name the server does not have is in the metrics")
	}

	// Guessing the operator's token at /metrics meets the same refusal
	// limit as at /mcp (20 per address), and the real token still passes.
	limited := false
	for range 25 {
		if code, _ := get(t, client, s.base()+"/metrics", "guess"); code == http.StatusTooManyRequests {
			limited = true
			break
		}
	}
	if !limited {
		t.Error("25 wrong tokens at /metrics were never refused with 429")
	}
	if code, _ := get(t, client, s.base()+"/metrics", "op-secret"); code != http.StatusOK {
		t.Errorf("the operator's token from a limited address: %d", code)
	}

	// A registry that cannot be read makes the server not ready.
	if err := os.WriteFile(registry, []byte("agents: [broken\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, body := get(t, client, s.base()+"/readyz", ""); code != http.StatusServiceUnavailable || !strings.Contains(body, "registry") {
		t.Errorf("/readyz with a broken registry: %d %s", code, body)
	}
}

var metricsRE = regexp.MustCompile(`metrics:\s+(http://\S+/metrics)`)

func TestMetricsOnTheirOwnLoopbackAddress(t *testing.T) {
	// stdio serve with --metrics-listen: the operator's calls are counted
	// and /metrics needs no token on its loopback address.
	cmd := exec.Command(binary, "serve", "--library", seedLibrary(t), "--metrics-listen", "127.0.0.1:0")
	stdin, _ := cmd.StdinPipe()
	stderr, _ := cmd.StderrPipe()
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	url := ""
	for url == "" && lines.Scan() {
		if m := metricsRE.FindStringSubmatch(lines.Text()); m != nil {
			url = m[1]
		}
	}
	go io.Copy(io.Discard, stderr)
	if url == "" {
		t.Fatal("no metrics address in the banner")
	}
	if code, body := get(t, http.DefaultClient, url, ""); code != http.StatusOK || !strings.Contains(body, "bdn_library_agents") {
		t.Errorf("%s: %d", url, code)
	}

	out, err := exec.Command(binary, "serve", "--library", t.TempDir(), "--metrics-listen", "0.0.0.0:9464").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--metrics-listen") {
		t.Errorf("a non-loopback metrics address: %v %s", err, out)
	}
}

func TestRateLimitEndToEnd(t *testing.T) {
	registry := filepath.Join(t.TempDir(), "federation.yaml")
	member := addMember(t, registry, "peer-mac", "--tier", "trusted")
	if out, err := exec.Command(binary, "registry", "set-limit", "peer-mac", "1/h", "--burst", "3", "--registry", registry).CombinedOutput(); err != nil {
		t.Fatalf("set-limit: %v %s", err, out)
	}
	s := startHTTP(t, "--library", seedLibrary(t), "--registry", registry)
	cs, err := connectAs(t, s.url, member, "2025-11-25")
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	ok := 0
	for range 10 {
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_agents", Arguments: map[string]any{}}); err == nil {
			ok++
		} else if !strings.Contains(err.Error(), "Too Many Requests") {
			t.Errorf("a refused call's error: %v", err)
		}
	}
	if ok != 3 {
		t.Errorf("%d of 10 calls passed a burst of 3", ok)
	}
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Errorf("the session after the limit: %v", err)
	}

	// Without authentication every caller is the operator (loopback
	// only), and the operator is never limited.
	open := startHTTP(t, "--library", seedLibrary(t), "--allow-unauthenticated", "--rate-limit", "1/h", "--rate-burst", "1")
	operator := open.connect(t)
	for i := range 5 {
		if _, err := operator.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_agents", Arguments: map[string]any{}}); err != nil {
			t.Errorf("the operator's call %d: %v", i, err)
		}
	}

	// Nor over stdio, whatever --rate-limit says.
	stdio, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(context.Background(),
		&mcp.CommandTransport{Command: exec.Command(binary, "serve", "--library", seedLibrary(t), "--quiet", "--rate-limit", "1/h", "--rate-burst", "1")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stdio.Close()
	for i := range 5 {
		if res, err := stdio.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_agents", Arguments: map[string]any{}}); err != nil || res.IsError {
			t.Errorf("the operator's call %d over stdio: %v", i, err)
		}
	}
}

func TestPublicURLAndTrustedProxy(t *testing.T) {
	lib := seedLibrary(t)
	// A request relayed by a proxy on 127.0.0.1 for mem.example.com: the
	// Host check accepts the public host only when the proxy is trusted.
	relay := func(s *server) int {
		req, _ := http.NewRequest(http.MethodPost, s.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
		req.Host = "internal.invalid"
		req.Header.Set("X-Forwarded-Host", "mem.example.com")
		req.Header.Set("X-Forwarded-Proto", "https")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	trusted := startHTTP(t, "--library", lib, "--allow-unauthenticated", "--public-url", "https://mem.example.com/mcp", "--trusted-proxy", "127.0.0.1")
	if code := relay(trusted); code != http.StatusOK {
		t.Errorf("through a trusted proxy: %d", code)
	}
	untrusted := startHTTP(t, "--library", lib, "--allow-unauthenticated", "--public-url", "https://mem.example.com/mcp", "--trusted-proxy", "10.0.0.0/8")
	if code := relay(untrusted); code != http.StatusForbidden {
		t.Errorf("through an untrusted proxy: %d", code)
	}

	for _, bad := range []string{"http://mem.example.com/mcp", "https://mem.example.com/other", "https://u:p@mem.example.com/mcp", "mem.example.com"} {
		out, err := exec.Command(binary, "serve", "--transport", "http", "--port", "0", "--library", t.TempDir(), "--allow-unauthenticated", "--public-url", bad).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "--public-url") {
			t.Errorf("--public-url %s: %v %s", bad, err, out)
		}
	}
}

func TestJSONLogs(t *testing.T) {
	s := startHTTP(t, "--library", seedLibrary(t), "--allow-unauthenticated", "--log-format", "json")
	for _, line := range s.banner {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec["msg"] == nil || rec["level"] == nil {
			t.Errorf("not a JSON log record: %q", line)
		}
	}
	if !strings.Contains(strings.Join(s.banner, "\n"), `library `) || !strings.Contains(strings.Join(s.banner, "\n"), `agents)"`) {
		t.Errorf("the library line is not one record: %q", s.banner)
	}
}
