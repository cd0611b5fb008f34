package requests

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/platform/endpoint"
)

// GitHubConfig configures the GitHub tracker.
type GitHubConfig struct {
	// Repo is the repository issues go to, owner/name.
	Repo string
	// Token is a token allowed to create issues and comments there.
	Token string
	// BaseURL is the REST API root; "" for https://api.github.com.
	BaseURL string
	// Timeout bounds one call; 0 for 15 seconds.
	Timeout time.Duration
}

// GitHub is the Tracker that forwards proposals to GitHub issues through
// the REST API: an intake opens an issue; a transition comments on the
// request's issue when one of its links names an issue of the repository,
// and opens an issue otherwise.
type GitHub struct {
	base   *url.URL
	repo   string
	client *http.Client
}

// maxGitHubResponse bounds a response body read from the API.
const maxGitHubResponse = 1 << 20

var repoPattern = regexp.MustCompile(`^[A-Za-z0-9-]+/[A-Za-z0-9._-]+$`)

// NewGitHub checks the configuration and returns the tracker. The tracker
// is off unless configured: with no repository or no token it returns an
// error saying what is missing, and a store without a Tracker forwards
// nothing.
func NewGitHub(c GitHubConfig) (*GitHub, error) {
	if c.Repo == "" {
		return nil, errors.New("github tracker: no repository configured; name one as owner/name to turn forwarding on")
	}
	if !repoPattern.MatchString(c.Repo) {
		return nil, fmt.Errorf("github tracker: repository %q: want owner/name", c.Repo)
	}
	if c.Token == "" || hasSpaceOrControl(c.Token) {
		return nil, errors.New("github tracker: no usable token configured; give a token allowed to create issues in " + c.Repo)
	}
	base, err := endpoint.CheckURL(cmp.Or(c.BaseURL, "https://api.github.com"), "github api url")
	if err != nil {
		return nil, err
	}
	timeout := c.Timeout
	if timeout == 0 {
		timeout = 15 * time.Second
	}
	return &GitHub{base: base, repo: c.Repo, client: &http.Client{
		Timeout:   timeout,
		Transport: endpoint.Bearer{Token: c.Token, MaxBody: maxGitHubResponse},
		// The token must not follow a redirect to another host.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}, nil
}

// Forward implements Tracker.
func (g *GitHub) Forward(ctx context.Context, p *Proposal, r *Request) (string, error) {
	if r != nil {
		if n := g.issueOf(r); n > 0 {
			return g.post(ctx, fmt.Sprintf("issues/%d/comments", n), map[string]string{"body": transitionBody(p, r)}, fmt.Sprintf("commenting on issue #%d", n))
		}
		title := fmt.Sprintf("[%s] %s → %s: %s", r.ID, p.From, p.To, r.Title)
		return g.post(ctx, "issues", map[string]string{"title": truncate(title, 250), "body": transitionBody(p, r)}, "opening an issue")
	}
	return g.post(ctx, "issues", map[string]string{"title": truncate("[intake] "+p.Intake.Title, 250), "body": intakeBody(p)}, "opening an issue")
}

// issueOf returns the number of r's issue in the repository, or 0.
func (g *GitHub) issueOf(r *Request) int {
	for _, l := range r.Links {
		u, err := url.Parse(l.URL)
		if l.Kind != LinkIssue || err != nil {
			continue
		}
		parts := strings.Split(strings.Trim(u.Path, "/"), "/")
		if len(parts) != 4 || !strings.EqualFold(parts[0]+"/"+parts[1], g.repo) || parts[2] != "issues" {
			continue
		}
		if n, err := strconv.Atoi(parts[3]); err == nil && n > 0 {
			return n
		}
	}
	return 0
}

// post sends one JSON call to /repos/<repo>/<path> and returns the
// html_url of what it created; what names the call in errors.
func (g *GitHub) post(ctx context.Context, path string, payload map[string]string, what string) (string, error) {
	body, err := json.Marshal(payload)
	if err != nil {
		return "", err
	}
	u := g.base.JoinPath("repos", g.repo, path)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("User-Agent", "bourdon")
	fail := func(format string, args ...any) (string, error) {
		return "", fmt.Errorf("github: %s in %s: %s", what, g.repo, fmt.Sprintf(format, args...))
	}
	resp, err := g.client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
			return fail("no answer in time")
		}
		return fail("%v", endpoint.Classify(err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fail("%d %s, then %v", resp.StatusCode, http.StatusText(resp.StatusCode), endpoint.Classify(err))
	}
	var answer struct {
		HTMLURL string `json:"html_url"`
		Message string `json:"message"`
		Errors  []struct {
			Field   string `json:"field"`
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	jerr := json.Unmarshal(data, &answer)
	if resp.StatusCode != http.StatusCreated {
		msg := answer.Message
		for _, e := range answer.Errors {
			msg += fmt.Sprintf(" (%s)", strings.Trim(e.Field+" "+cmp.Or(e.Message, e.Code), " "))
		}
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
			msg += "; check the token and its permission to write issues"
		}
		return fail("%d %s: %s", resp.StatusCode, http.StatusText(resp.StatusCode), truncate(cmp.Or(msg, "no message"), maxForwardError/2))
	}
	if jerr != nil || answer.HTMLURL == "" {
		return fail("the answer has no html_url")
	}
	if ps := linkProblems("html_url", Link{Kind: LinkIssue, URL: answer.HTMLURL}); len(ps) > 0 {
		return fail("the answer's html_url is not an http(s) URL")
	}
	return answer.HTMLURL, nil
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}
