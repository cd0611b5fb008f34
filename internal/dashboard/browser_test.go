package dashboard

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
)

// The browser test drives Debian's chromium, headless, against the demo
// fixture. Screenshots go to $BOURDON_SCREENSHOTS when it is set (the
// ones in docs/img come from `BOURDON_SCREENSHOTS=$PWD/docs/img go test
// ./internal/dashboard -run TestInBrowser`), else to a temporary
// directory.

// chromiumPath finds the browser; "" when none is installed.
func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// stepTimeout bounds each step, so that a page that never shows what
// the test waits for fails the test instead of hanging it.
const stepTimeout = 20 * time.Second

// tab is one browser context (its own cookies) with its console errors.
type tab struct {
	t    *testing.T
	ctx  context.Context
	base string
	mu   sync.Mutex
	errs []string
}

func newTab(t *testing.T, browser context.Context, base string) *tab {
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	tb := &tab{t: t, ctx: ctx, base: base}
	if err := chromedp.Do(ctx); err != nil { // opens the tab, with no deadline
		t.Fatal(err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				tb.mu.Lock()
				tb.errs = append(tb.errs, m.String()+" at "+m.URL)
				tb.mu.Unlock()
			}
		}
	}()
	return tb
}

// open navigates to a dashboard path, waits for its <main>, and fails on
// any console error the page logged.
func (tb *tab) open(path string) string {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(tb.base+path), chromedp.WaitVisible(chromedp.CSS("main"))); err != nil {
		tb.t.Fatalf("%s: %v", path, err)
	}
	return tb.text()
}

// text is the visible text of the page.
func (tb *tab) text() string {
	tb.t.Helper()
	s, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string]("document.body.innerText"))
	if err != nil {
		tb.t.Fatal(err)
	}
	return s
}

func (tb *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		tb.t.Fatal(err)
	}
}

// noConsoleErrors fails on the errors logged so far.
func (tb *tab) noConsoleErrors(where string) {
	tb.t.Helper()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, e := range tb.errs {
		tb.t.Errorf("%s: console: %s", where, e)
	}
	tb.errs = nil
}

// screenshot saves the viewport as docs/img names it.
func (tb *tab) screenshot(dir, name string) {
	tb.t.Helper()
	png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tb.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dashboard-"+name+".png"), png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
}

func TestInBrowser(t *testing.T) {
	path := chromiumPath()
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed, and CI must run the browser test: .ci/run installs it with apt-get install chromium")
		}
		t.Skip("chromium is not installed (apt-get install chromium); skipping the browser test")
	}
	shots := os.Getenv("BOURDON_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	f := newFixture(t)
	home := t.TempDir()
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 760),
		// The browser writes its caches under HOME: keep them in the test's.
		chromedp.Env("HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_CACHE_HOME="+filepath.Join(home, ".cache")),
	)
	defer cancel()
	browser, stop := chromedp.NewContext(alloc)
	defer stop()
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	base := f.http.URL

	t.Run("sign-in is required and a wrong token is refused", func(t *testing.T) {
		tb := newTab(t, browser, base)
		tb.open("/ui/agents")
		loc, _ := chromedp.Run(tb.ctx, chromedp.Location())
		if !strings.Contains(loc, "/ui/login") {
			t.Fatalf("without a session the agents page is at %s", loc)
		}
		tb.screenshot(shots, "login")
		tb.do(chromedp.SetValue(chromedp.CSS("#token"), "bdn_not-a-token"), chromedp.Click(chromedp.CSS("form.login button")), chromedp.WaitVisible(chromedp.CSS("p.problem")))
		if text := tb.text(); !strings.Contains(text, "That token was refused") {
			t.Errorf("a wrong token: %q", text)
		}
		tb.mu.Lock()
		tb.errs = nil // the refused sign-in's 401 is logged as a failed load
		tb.mu.Unlock()
	})

	t.Run("every page loads without console errors", func(t *testing.T) {
		tb := newTab(t, browser, base)
		tb.open(f.dash.SignInLink())
		for _, p := range []struct{ name, path, want string }{
			{"agents", "/ui/agents", "claude-code"},
			{"activity", "/ui/activity?visibility=team", "drafted the outbox schema"},
			{"search", "/ui/search?q=refund+retry", "Retry with an idempotency key"},
			{"entity", "/ui/entity?name=Payments+API", "What each agent knows"},
			{"node", "/ui/node?uid=demo.docs.payments-api", "Neighbourhood"},
			{"governance", "/ui/governance", "Staged writes"},
			{"federation", "/ui/federation", "Registry members"},
		} {
			if text := tb.open(p.path); !strings.Contains(text, p.want) {
				t.Errorf("%s: no %q in\n%s", p.path, p.want, text)
			}
			tb.screenshot(shots, p.name)
			tb.noConsoleErrors(p.path)
		}
	})

	t.Run("a quarantined member cannot open governance", func(t *testing.T) {
		tb := newTab(t, browser, base)
		tb.open("/ui/login")
		tb.do(chromedp.SetValue(chromedp.CSS("#token"), f.tokens[scout]), chromedp.Click(chromedp.CSS("form.login button")), chromedp.WaitVisible(chromedp.CSS("table#agents")))
		text := tb.open("/ui/governance")
		if !strings.Contains(text, "Only the operator and trusted members") || strings.Contains(text, "Staged writes") {
			t.Errorf("scout's governance page: %q", text)
		}
	})

	t.Run("promoting a staged write makes it visible to find_entity", func(t *testing.T) {
		tb := newTab(t, browser, base)
		tb.open("/ui/login")
		tb.do(chromedp.SetValue(chromedp.CSS("#token"), f.tokens[bob]), chromedp.Click(chromedp.CSS("form.login button")), chromedp.WaitVisible(chromedp.CSS("table#agents")))
		tb.open("/ui/governance")
		tb.do(chromedp.Click(chromedp.CSS(`article[data-agent="scout"] button[value="promote"]`)), chromedp.WaitVisible(chromedp.CSS("p.notice")))
		if text := tb.text(); !strings.Contains(text, "promoted 1 staged write(s) for scout") {
			t.Fatalf("after promote: %q", text)
		}
		cs := mcptest.ConnectAs(t, f.srv.Server, f.auth, f.tokens[alice], "")
		p, _ := mcptest.CallJSON(t, cs, "find_entity", map[string]any{"name": stagedEntity})
		if len(list(mapOf(p)["matches"])) != 1 {
			t.Errorf("find_entity after the promotion: %v", p)
		}
		tb.noConsoleErrors("promote")
	})

	t.Run("rejecting a proposal records who did it", func(t *testing.T) {
		tb := newTab(t, browser, base)
		tb.open("/ui/login")
		tb.do(chromedp.SetValue(chromedp.CSS("#token"), f.tokens[bob]), chromedp.Click(chromedp.CSS("form.login button")), chromedp.WaitVisible(chromedp.CSS("table#agents")))
		tb.open("/ui/governance")
		card := fmt.Sprintf(`article[data-proposal=%q]`, f.proposal)
		tb.do(chromedp.SendKeys(chromedp.CSS(card+` input[name="reason"]`), "not this quarter"),
			chromedp.Click(chromedp.CSS(card+` button[value="reject"]`)), chromedp.WaitVisible(chromedp.CSS("p.notice")))
		p, err := f.reqs.Proposal(f.proposal)
		if err != nil {
			t.Fatal(err)
		}
		if p.Status != "rejected" || p.DecidedBy != bob {
			t.Errorf("the proposal is %s, decided by %q; want rejected by bob", p.Status, p.DecidedBy)
		}
		tb.noConsoleErrors("reject")
	})

	t.Run("a change on disk reaches the activity page within 2 s", func(t *testing.T) {
		tb := newTab(t, browser, base)
		tb.open(f.dash.SignInLink())
		tb.open("/ui/activity?visibility=team")
		// The page is live once its event stream said ready.
		wait, cancel := context.WithTimeout(tb.ctx, 10*time.Second)
		defer cancel()
		if _, err := chromedp.Run(wait, chromedp.Poll[bool](`document.body.dataset.liveReady === "1"`, chromedp.WithPollingMutation())); err != nil {
			t.Fatalf("the page never went live: %v", err)
		}
		today := time.Now().Format("2006-01-02")
		manifest := fmt.Sprintf("spec_version: '0.1'\nagent: {id: gemini, type: code-assistant}\nlast_updated: '%sT12:00:00+00:00'\nrecent_sessions:\n- {date: '%s', cwd: /home/dev/payments, project_focus: [Payments API], key_actions: [replayed the ledger outbox by hand], visibility: public}\n", today, today)
		if err := os.WriteFile(filepath.Join(f.dir, "agents", "gemini.l5.yaml"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		deadline, cancel2 := context.WithTimeout(tb.ctx, 2*time.Second)
		defer cancel2()
		if _, err := chromedp.Run(deadline, chromedp.Poll[bool](`document.body.innerText.includes("replayed the ledger outbox by hand")`, chromedp.WithPollingMutation())); err != nil {
			t.Fatalf("the new session did not appear within 2 s: %v", err)
		}
		tb.screenshot(shots, "activity-live")
		tb.noConsoleErrors("live activity")
	})

	t.Run("the keyboard reaches the content and the navigation", func(t *testing.T) {
		tb := newTab(t, browser, base)
		tb.open(f.dash.SignInLink())
		tb.open("/ui/agents")
		focused := func() string {
			s, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string]("document.activeElement ? document.activeElement.textContent.trim() : ''"))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		tb.do(chromedp.KeyEvent("\t"))
		if got := focused(); got != "Skip to content" {
			t.Errorf("the first Tab focuses %q, want the skip link", got)
		}
		tb.do(chromedp.KeyEvent("\t"), chromedp.KeyEvent("\t"), chromedp.KeyEvent("\r"), chromedp.WaitVisible(chromedp.CSS("ol.timeline")))
		if loc, _ := chromedp.Run(tb.ctx, chromedp.Location()); !strings.Contains(loc, "/ui/activity") {
			t.Errorf("Tab, Tab, Enter from the skip link opened %s, want the Activity page", loc)
		}
		tb.noConsoleErrors("keyboard")
	})

	t.Run("a phone-width page keeps its navigation", func(t *testing.T) {
		tb := newTab(t, browser, base)
		tb.open(f.dash.SignInLink())
		tb.do(chromedp.EmulateViewport(390, 844))
		text := tb.open("/ui/agents")
		if !strings.Contains(text, "Activity") || !strings.Contains(text, "codex") {
			t.Errorf("phone width: %q", text)
		}
		tb.screenshot(shots, "phone")
	})
}
