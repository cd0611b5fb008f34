package authserver

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"html/template"
	"net/http"
	"net/url"
	"strings"
)

//go:embed templates
var templates embed.FS

var (
	consentTemplate = template.Must(template.ParseFS(templates, "templates/consent.html"))
	style           = mustRead("templates/style.css")
	// styleHash lets the one inline style block through the page's
	// Content-Security-Policy, which allows no script at all.
	styleHash = func() string {
		sum := sha256.Sum256([]byte(style))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}()
)

func mustRead(name string) string {
	b, err := templates.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// consentView is what the consent page shows.
type consentView struct {
	ID, CSRF         string
	Client, ClientID string
	Redirect         string
	Scopes           []string
}

// page is the template's data.
type page struct {
	consentView
	Style   template.CSS
	Action  string
	Message string
	Error   string
}

// consentPage renders the consent form, with message when the last
// answer could not be accepted.
func (s *Server) consentPage(w http.ResponseWriter, status int, v consentView, message string) {
	s.render(w, status, page{consentView: v, Action: AuthorizePath, Message: message}, v.Redirect)
}

// errorPage renders a refusal that is not sent back to the client.
func (s *Server) errorPage(w http.ResponseWriter, status int, message string) {
	s.render(w, status, page{Error: message}, "")
}

// render writes the page with headers that keep it out of frames, caches
// and referrers, and a Content-Security-Policy that allows no script, no
// remote content, and form posts only to this server and onward to the
// client's redirect URI (browsers check form-action on the redirect).
func (s *Server) render(w http.ResponseWriter, status int, p page, redirect string) {
	p.Style = template.CSS(style)
	var buf bytes.Buffer
	if err := consentTemplate.Execute(&buf, p); err != nil {
		s.cfg.Logger.Warn("oauth consent page", "err", err)
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		return
	}
	formAction := "'self'"
	if src := redirectSource(redirect); src != "" {
		formAction += " " + src
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src "+styleHash+"; form-action "+formAction+"; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// redirectSource returns the CSP source of a redirect URI: its origin, or
// its scheme for a native app's private scheme.
func redirectSource(redirect string) string {
	u, err := url.Parse(redirect)
	if err != nil || u.Scheme == "" || strings.ContainsAny(redirect, " ;,'") {
		return ""
	}
	if u.Host == "" {
		return u.Scheme + ":"
	}
	return u.Scheme + "://" + u.Host
}
