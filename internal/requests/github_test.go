package requests

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

const token = "ghp_secret"

// fakeGitHub is a loopback stand-in for the REST API.
type fakeGitHub struct {
	mu    sync.Mutex
	calls []fakeCall
	reply func(w http.ResponseWriter, r *http.Request)
}

type fakeCall struct {
	Method, Path, Auth, Accept string
	Body                       map[string]string
}

// call returns the i-th call the fake received.
func (f *fakeGitHub) call(i int) fakeCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[i]
}

func newFakeGitHub(t *testing.T, reply func(w http.ResponseWriter, r *http.Request)) (*fakeGitHub, *GitHub) {
	t.Helper()
	f := &fakeGitHub{reply: reply}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]string
		json.NewDecoder(r.Body).Decode(&body)
		f.mu.Lock()
		f.calls = append(f.calls, fakeCall{r.Method, r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Accept"), body})
		f.mu.Unlock()
		f.reply(w, r)
	}))
	t.Cleanup(srv.Close)
	g, err := NewGitHub(GitHubConfig{Repo: "cogitave/core", Token: token, BaseURL: srv.URL + "/api/v3", Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return f, g
}

// created answers like GitHub: 201 and the html_url of an issue (or of a
// comment, for a comments path).
func created(w http.ResponseWriter, r *http.Request) {
	url := "https://github.com/cogitave/core/issues/5"
	if strings.HasSuffix(r.URL.Path, "/comments") {
		url += "#issuecomment-9"
	}
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(map[string]string{"html_url": url})
}

func TestGitHubForwardsEveryProposal(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		fake, g := newFakeGitHub(t, created)
		s := newStore(t)
		s.Tracker = g
		p, err := s.ProposeIntake(context.Background(), formJSON(t, map[string]any{"problem": "Agents ~~~ cannot list requests, says @carol."}), "@mallory")
		if err != nil {
			t.Fatal(err)
		}
		if p.TrackerURL != "https://github.com/cogitave/core/issues/5" || p.ForwardError != "" {
			t.Fatalf("tracker url %q, error %q", p.TrackerURL, p.ForwardError)
		}
		c := fake.call(0)
		if c.Method != http.MethodPost || c.Path != "/api/v3/repos/cogitave/core/issues" || c.Auth != "Bearer "+token || c.Accept != "application/vnd.github+json" {
			t.Errorf("call %+v", c)
		}
		if c.Body["title"] != "[intake] Agents ~~~ cannot list requests, says @carol." {
			t.Errorf("title %q", c.Body["title"])
		}
		for _, want := range []string{"proposed by `@mallory`", "(proposal `" + p.ID + "`)", "- Owner: `cogitave/platform`", "~~~~text\nAgents ~~~ cannot list requests, says @carol.\n~~~~"} {
			if !strings.Contains(c.Body["body"], want) {
				t.Errorf("body lacks %q:\n%s", want, c.Body["body"])
			}
		}

		_, r, err := s.Approve(context.Background(), p.ID, operator)
		if err != nil {
			t.Fatal(err)
		}
		if l := r.Links[len(r.Links)-1]; l.Kind != LinkIssue || l.URL != p.TrackerURL {
			t.Fatalf("the intake's issue is not linked: %+v", r.Links)
		}
		tp, err := s.ProposeTransition(context.Background(), r.ID, TransitionRequest{To: StageRejected, Reason: "duplicate of REQ-2025-0001"}, agent)
		if err != nil {
			t.Fatal(err)
		}
		c = fake.call(1)
		if c.Path != "/api/v3/repos/cogitave/core/issues/5/comments" || tp.TrackerURL != "https://github.com/cogitave/core/issues/5#issuecomment-9" {
			t.Errorf("comment %+v, url %q", c, tp.TrackerURL)
		}
		if !strings.Contains(c.Body["body"], "**intake → rejected**") || !strings.Contains(c.Body["body"], "~~~text\nduplicate of REQ-2025-0001\n~~~") {
			t.Errorf("comment body:\n%s", c.Body["body"])
		}
	})
}

func TestGitHubOpensAnIssueWhenNoneIsKnown(t *testing.T) {
	fake, g := newFakeGitHub(t, created)
	r := request(StageIntake, false)
	r.Title = "List requests"
	r.Links = []Link{{Kind: LinkIssue, URL: "https://github.com/other/repo/issues/3"}}
	p := &Proposal{ID: "prop-0123456789ab", Kind: KindTransition, From: StageIntake, To: StageEvaluate, Proposer: agent, Attachments: steps()[0].Attachments}
	if _, err := g.Forward(context.Background(), p, r); err != nil {
		t.Fatal(err)
	}
	c := fake.call(0)
	if c.Path != "/api/v3/repos/cogitave/core/issues" || c.Body["title"] != "[REQ-2026-0001] intake → evaluate: List requests" {
		t.Errorf("call %+v", c)
	}
	if !strings.Contains(c.Body["body"], "### Attachments\n\n~~~yaml\nclassification:\n") {
		t.Errorf("body:\n%s", c.Body["body"])
	}
}

func TestGitHubErrors(t *testing.T) {
	intake := &Proposal{ID: "prop-0123456789ab", Kind: KindIntake, Intake: &IntakeForm{Title: "t"}, Proposer: agent}
	for _, tc := range []struct {
		name  string
		reply func(w http.ResponseWriter, r *http.Request)
		want  string
	}{
		{"unauthorized", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest"}`)
		}, "github: opening an issue in cogitave/core: 401 Unauthorized: Bad credentials; check the token and its permission to write issues"},
		{"validation", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnprocessableEntity)
			io.WriteString(w, `{"message":"Validation Failed","errors":[{"resource":"Issue","field":"title","code":"missing_field"}]}`)
		}, "github: opening an issue in cogitave/core: 422 Unprocessable Entity: Validation Failed (title missing_field)"},
		{"not JSON", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadGateway)
			io.WriteString(w, "<html>")
		}, "github: opening an issue in cogitave/core: 502 Bad Gateway: no message"},
		{"redirect", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://elsewhere.example/steal", http.StatusTemporaryRedirect)
		}, "github: opening an issue in cogitave/core: 307 Temporary Redirect: no message"},
		{"no html_url", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusCreated)
			io.WriteString(w, `{}`)
		}, "github: opening an issue in cogitave/core: the answer has no html_url"},
		{"html_url not a URL", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusCreated)
			io.WriteString(w, `{"html_url":"javascript:alert(1)"}`)
		}, "github: opening an issue in cogitave/core: the answer's html_url is not an http(s) URL"},
		{"slow", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, "github: opening an issue in cogitave/core: no answer in time"},
		{"oversized", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusCreated)
			io.WriteString(w, `{"html_url":"`+strings.Repeat("x", maxGitHubResponse)+`"}`)
		}, "github: opening an issue in cogitave/core: 201 Created, then request failed: response too large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, g := newFakeGitHub(t, tc.reply)
			url, err := g.Forward(context.Background(), intake, nil)
			if err == nil || err.Error() != tc.want || url != "" {
				t.Fatalf("got %q, %v\nwant %s", url, err, tc.want)
			}
			if strings.Contains(err.Error(), token) {
				t.Error("the error shows the token")
			}
		})
	}
}

func TestForwardFailureKeepsTheProposal(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		_, g := newFakeGitHub(t, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"message":"Bad credentials"}`)
		})
		s := newStore(t)
		s.Tracker = g
		p, err := s.ProposeIntake(context.Background(), formJSON(t, nil), agent)
		if err != nil {
			t.Fatal(err)
		}
		saved, err := s.Proposal(p.ID)
		if err != nil || saved.TrackerURL != "" || !strings.Contains(saved.ForwardError, "401 Unauthorized: Bad credentials") {
			t.Fatalf("%+v %v", saved, err)
		}
	})
}

func TestNewGitHubNeedsConfiguration(t *testing.T) {
	for _, tc := range []struct {
		c    GitHubConfig
		want string
	}{
		{GitHubConfig{Token: token}, "github tracker: no repository configured; name one as owner/name to turn forwarding on"},
		{GitHubConfig{Repo: "core", Token: token}, `github tracker: repository "core": want owner/name`},
		{GitHubConfig{Repo: "cogitave/core"}, "github tracker: no usable token configured; give a token allowed to create issues in cogitave/core"},
		{GitHubConfig{Repo: "cogitave/core", Token: token, BaseURL: "http://github.example/api/v3"}, "unencrypted"},
	} {
		_, err := NewGitHub(tc.c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.c, err, tc.want)
		}
	}
	g, err := NewGitHub(GitHubConfig{Repo: "cogitave/core", Token: token})
	if err != nil || g.base.String() != "https://api.github.com" || g.client.Timeout != 15*time.Second {
		t.Errorf("defaults: %+v %v", g, err)
	}
}
