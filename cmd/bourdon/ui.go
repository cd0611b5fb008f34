package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/dashboard"
	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/registry"
	"github.com/getbourdon/bourdon-go/internal/install/doctor"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/platform/endpoint"
)

// uiFlags are what bourdon ui adds to serve.
type uiFlags struct {
	command bool // started as bourdon ui: HTTP on a loopback address only
	open    bool // open the sign-in link in a browser
}

// dashboardSettings are the dashboard's settings, resolved from uiFlags
// and the address the server is reached at.
type dashboardSettings struct {
	// signInLink prints a one-time operator sign-in link: on a loopback
	// bind the person at the terminal is the operator.
	signInLink bool
	// open opens that link in a browser (bourdon ui --open).
	open bool
	// secureCookies marks the session cookies Secure on plain HTTP
	// requests too: the public URL is https, a TLS proxy sits in front.
	secureCookies bool
}

// resolve checks bourdon ui's constraints on the serve flags f (HTTP, a
// loopback bind) and resolves the dashboard's settings.
func (u uiFlags) resolve(f serveFlags, remote opsConfig) (dashboardSettings, error) {
	loopback := endpoint.IsLoopbackHost(f.host)
	if u.command {
		if f.transport != "http" {
			return dashboardSettings{}, errors.New("bourdon ui serves HTTP; drop --transport")
		}
		if !loopback {
			return dashboardSettings{}, fmt.Errorf("bourdon ui binds loopback only, not %q; use bourdon serve --transport http --host for a network-reachable server", f.host)
		}
	}
	return dashboardSettings{
		signInLink:    loopback,
		open:          u.open,
		secureCookies: remote.publicURL != nil && remote.publicURL.Scheme == "https",
	}, nil
}

// newUICommand returns "bourdon ui": serve over HTTP on loopback, with
// the dashboard, printing (or opening) a one-time sign-in link.
func newUICommand() *cobra.Command {
	cmd, f := serveCommand()
	cmd.Use = "ui"
	cmd.Short = "Open the web dashboard: a local server on loopback that prints its sign-in link"
	cmd.Long = `Serve the library over HTTP on a loopback address with the web dashboard at
/ui/, and print a one-time link that signs the operator in (--open opens it in
a browser). The MCP endpoint is served at /mcp as by serve --transport http;
every serve flag applies. --demo serves the demo library.

Members of the registry sign in with their bdn_ token at /ui/login. The
dashboard shows what the MCP tools show the signed-in caller, and its
governance pages (staged writes, proposals, rollback) are the operator's and
trusted members' only. See docs/dashboard.md.`
	cmd.Flags().BoolVar(&f.ui.open, "open", false, "open the sign-in link in the default browser")
	serve := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error {
		f.ui.command = true
		if !c.Flags().Changed("transport") {
			f.transport = "http"
		}
		if !c.Flags().Changed("port") {
			f.port = 7501
		}
		return serve(c, args)
	}
	return cmd
}

// dashboardConfig builds the dashboard of an HTTP server from what the
// server was built with and its configuration c.
func dashboardConfig(srv *mcpserver.Server, opts mcpserver.Options, auth *mcphttp.Auth, place trustPlace, c serveConfig, libraryDir string, log *slog.Logger) dashboard.Config {
	cfg := dashboard.Config{
		MCP: srv.Server, Version: opts.Version, Audit: opts.Audit, Writer: opts.Writer, Requests: opts.Requests,
		Peers: opts.Peers, Registry: place.registry(), SecureCookies: c.dashboard.secureCookies, Logger: log,
		Doctor: func(ctx context.Context) *doctor.Report {
			env, err := export.SystemEnv()
			if err != nil {
				return &doctor.Report{Schema: "bourdon.doctor/v1", Library: libraryDir, Checks: []doctor.Check{{Check: "doctor", Status: doctor.Fail, Message: err.Error()}}}
			}
			bin, _ := executable()
			return doctor.Run(ctx, doctor.Options{Env: env, Library: libraryDir, Store: c.store, Exporters: registry.All(), Binary: bin, Version: opts.Version})
		},
	}
	if auth != nil {
		cfg.SignIn, cfg.Registry = auth.Caller, auth.Registry
	}
	return cfg
}

// startDashboard builds the dashboard and says where it is, base being
// the server's address as clients use it. On a loopback bind it prints a
// one-time operator sign-in link (the person who started the server is
// the operator), and opens it with bourdon ui --open.
func startDashboard(cfg dashboard.Config, s dashboardSettings, base string, stderr io.Writer) (*dashboard.Dashboard, error) {
	d, err := dashboard.New(cfg)
	if err != nil {
		return nil, err
	}
	if !s.signInLink {
		fmt.Fprintf(stderr, "dashboard: %s/ui/ (sign in with a member's bdn_ token)\n", base)
		return d, nil
	}
	link := base + d.SignInLink()
	fmt.Fprintf(stderr, "dashboard: %s/ui/ ; one-time operator sign-in (10 minutes): %s\n", base, link)
	if s.open {
		if err := openBrowser(link); err != nil {
			fmt.Fprintf(stderr, "dashboard: could not open a browser (%v); open the link above\n", err)
		}
	}
	return d, nil
}

// openBrowser opens url with the desktop's opener.
func openBrowser(url string) error {
	name, args := "xdg-open", []string{url}
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler", url}
	}
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
