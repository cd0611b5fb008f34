package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpmetrics"
	"github.com/getbourdon/bourdon-go/internal/platform/endpoint"
	"github.com/getbourdon/bourdon-go/internal/trust"
	"github.com/getbourdon/bourdon-go/internal/trust/oauth"
	"github.com/getbourdon/bourdon-go/internal/trust/oauth/authserver"
	"github.com/getbourdon/bourdon-go/internal/trust/oauth/external"
)

// Limits per client address (after --trusted-proxy) on what needs no
// token; docs/remote.md explains them.
var (
	// registrationLimit: 5 client registrations, then one per 10 minutes,
	// fewer a day than the 256 clients the built-in server holds (it drops
	// the clients nobody consented to after a day).
	registrationLimit = trust.RateLimit{PerSecond: 1.0 / 600, Burst: 5}
	// oauthRequestLimit: 20 requests to /authorize, /token and /revoke,
	// then 2 a minute: at most 40 authorization requests within the 10
	// minutes one waits for consent, fewer than the 64 the server holds.
	oauthRequestLimit = trust.RateLimit{PerSecond: 2.0 / 60, Burst: 20}
	// refusalLimit: 20 requests refused for a missing or invalid token
	// (401), then one a second; beyond it they get 429.
	refusalLimit = trust.RateLimit{PerSecond: 1, Burst: 20}
)

// addrLimiter returns a limiter per client address whose refusals are
// counted in metrics as label.
func addrLimiter(limit trust.RateLimit, label string, metrics *mcpmetrics.Metrics) *mcphttp.AddrLimiter {
	l := mcphttp.NewAddrLimiter(limit)
	l.OnLimited = func() { metrics.RateLimited(label) }
	return l
}

// oauthSetup makes the HTTP server an OAuth protected resource, unless it
// runs without authentication or with --no-oauth: with --oauth-issuer it
// accepts that provider's JWTs, otherwise it runs the built-in
// authorization server (which needs https, or a loopback address). It
// sets auth.OAuth and returns what to mount next to /mcp. The built-in
// server keeps its state where place says and records its decisions in
// audit, the server's audit log.
func oauthSetup(ctx context.Context, f serveFlags, auth *mcphttp.Auth, place trustPlace, metrics *mcpmetrics.Metrics, audit *trust.Audit, base string, stderr io.Writer, log *slog.Logger) (func(*http.ServeMux), error) {
	if auth == nil || f.noOAuth {
		return nil, nil
	}
	res := &oauth.Resource{URL: base + "/mcp"}
	if f.oauthIssuer != "" {
		if _, err := endpoint.CheckURL(f.oauthIssuer, "--oauth-issuer"); err != nil {
			return nil, err
		}
		v, err := external.New(ctx, external.Config{Issuer: f.oauthIssuer, Audience: res.URL, Registry: auth.Registry})
		if err != nil {
			return nil, err
		}
		res.AuthorizationServers, res.Verifier = []string{v.Issuer()}, v
		auth.OAuth = res
		fmt.Fprintf(stderr, "oauth:     tokens of %s for %s, members by `bourdon registry set-subject`\n", v.Issuer(), res.URL)
		return res.Mount, nil
	}
	u, _ := url.Parse(base)
	if u.Scheme != "https" && !endpoint.IsLoopbackHost(u.Hostname()) {
		log.Warn("the built-in OAuth server is off: it needs an https --public-url (TLS in front, or --tls-cert); bdn_ tokens still work", "public_url", base)
		return nil, nil
	}
	state := place.oauthState()
	as := authserver.New(authserver.Config{
		Issuer: base, Resource: res.URL, Registry: auth.Registry,
		Store: state, Audit: audit, Logger: log,
		LimitRegistration: addrLimiter(registrationLimit, "oauth_register", metrics).Guard,
		LimitRequests:     addrLimiter(oauthRequestLimit, "oauth_requests", metrics).Guard,
	})
	res.AuthorizationServers, res.Verifier = []string{base}, as
	auth.OAuth = res
	fmt.Fprintf(stderr, "oauth:     built-in authorization server at %s (state %s)\n", base, state.Path())
	return func(mux *http.ServeMux) {
		res.Mount(mux)
		as.Mount(mux)
	}, nil
}

// newOAuthCommand is `bourdon oauth`: the operator's side of the built-in
// authorization server.
func newOAuthCommand() *cobra.Command {
	var registry, url, auditLog string
	cmd := &cobra.Command{
		Use:   "oauth",
		Short: "The built-in OAuth authorization server: pending requests and the operator's approval",
		Long: `The built-in OAuth authorization server of serve --transport http keeps its
state next to the registry (oauth.json), or with --store in that PostgreSQL
database, shared by every replica. A person connecting an application
(Claude.ai, ChatGPT, Claude Desktop) proves on the consent page who they are
with a member's bdn_ token, or asks the operator, who approves the request
shown on that page with bourdon oauth approve ID --member MEMBER. Revoking the
member (bourdon registry revoke) kills every token issued for it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.PersistentFlags().StringVar(&registry, "registry", "", "registry file (default $"+trust.RegistryEnv+" or ~/.bourdon/federation.yaml); the state is oauth.json next to it")
	cmd.PersistentFlags().StringVar(&url, "store", "", registryStoreHelp)
	cmd.PersistentFlags().StringVar(&auditLog, "audit-log", "", "audit log (default $"+trust.AuditEnv+" or ~/.bourdon/audit.jsonl)")
	// open opens the registry file and the state next to it, or the
	// store's; the returned function closes them.
	open := func(ctx context.Context) (trustPlace, func(), error) {
		p := registry
		switch {
		case p != "" && url != "":
			return trustPlace{}, nil, errors.New("--registry names a file, --store a database: give one of them")
		case p == "" && url == "":
			var err error
			if p, err = trust.DefaultRegistryPath(os.Getenv); err != nil {
				return trustPlace{}, nil, err
			}
		}
		return openTrustPlace(ctx, p, url)
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List the authorization requests waiting for consent",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			place, closePlace, err := open(cmd.Context())
			if err != nil {
				return err
			}
			defer closePlace()
			reqs, err := place.oauthState().Requests(time.Now())
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if len(reqs) == 0 {
				fmt.Fprintln(out, "no authorization request is waiting")
			}
			for _, r := range reqs {
				state := "waiting"
				if r.Approved != "" {
					state = "approved for " + r.Approved
				}
				fmt.Fprintf(out, "%s  %-20q  scopes %-16s  back to %s  (%s, expires %s)\n", r.ID, r.Client, strings.Join(r.Scopes, " "), r.Redirect, state, r.Expires.Local().Format("15:04:05"))
			}
			return nil
		},
	}
	var member string
	approve := &cobra.Command{
		Use:   "approve ID --member MEMBER",
		Short: "Approve a pending authorization request as a registry member",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if member == "" {
				return fmt.Errorf("--member: name the registry member the application will act as")
			}
			place, closePlace, err := open(cmd.Context())
			if err != nil {
				return err
			}
			defer closePlace()
			audit := auditLog
			if audit == "" {
				if audit, err = trust.DefaultAuditPath(os.Getenv); err != nil {
					return err
				}
			}
			as := authserver.New(authserver.Config{Registry: place.registry(), Store: place.oauthState(), Audit: trust.OpenAudit(audit)})
			if err := as.Approve(strings.ToUpper(args[0]), member); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "approved %s as %s: the person presses Continue on the consent page\n", strings.ToUpper(args[0]), member)
			return nil
		},
	}
	approve.Flags().StringVar(&member, "member", "", "the registry member the application acts as (its tier caps the scopes)")
	cmd.AddCommand(list, approve)
	return cmd
}
