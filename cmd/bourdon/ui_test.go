package main

import (
	"bufio"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

var linkRE = regexp.MustCompile(`one-time operator sign-in \(10 minutes\): (http://\S+)`)

// startUI starts bourdon with args (ui and its flags) and returns it
// with its one-time sign-in link and the banner up to that link; it is
// killed when the test ends, or after a minute.
func startUI(t *testing.T, args ...string) (cmd *exec.Cmd, link string, banner []string) {
	t.Helper()
	cmd = exec.Command(binary, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	deadline := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() }) // a hung test ends
	t.Cleanup(func() { deadline.Stop() })
	for lines := bufio.NewScanner(stderr); link == "" && lines.Scan(); {
		banner = append(banner, lines.Text())
		if m := linkRE.FindStringSubmatch(lines.Text()); m != nil {
			link = m[1]
		}
	}
	if link == "" {
		t.Fatalf("no sign-in link in the banner: %q", banner)
	}
	go io.Copy(io.Discard, stderr)
	return cmd, link, banner
}

func TestUIServesTheDashboardWithASignInLink(t *testing.T) {
	cmd, link, _ := startUI(t, "ui", "--demo", "--port", "0")
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	res, err := client.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasSuffix(res.Request.URL.Path, "/ui/agents") || !strings.Contains(string(body), "claude-code") {
		t.Errorf("the link led to %s (%d)", res.Request.URL, res.StatusCode)
	}
	// The link works once; without a session the pages send you to sign in.
	res, err = http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("the used link answered %d, want 401", res.StatusCode)
	}
	// The dashboard has the MCP endpoint's Host check (DNS rebinding).
	req, _ := http.NewRequest(http.MethodGet, strings.Replace(link, "/ui/login/link", "/ui/login", 1), nil)
	req.Host = "attacker.example"
	if res, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("a foreign Host got %d, want 403", res.StatusCode)
	}
	cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err != nil {
		t.Errorf("bourdon ui did not stop cleanly: %v", err)
	}
}

func TestUIRefusesNetworkBindsAndOtherTransports(t *testing.T) {
	for _, args := range [][]string{{"ui", "--host", "0.0.0.0"}, {"ui", "--transport", "stdio"}} {
		out, err := exec.Command(binary, args...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "bourdon ui") {
			t.Errorf("%v: %v %s", args, err, out)
		}
	}
}
