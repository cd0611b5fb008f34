// Package doctor checks a machine's bourdon installation and says, one
// line per check, what is fine (OK), what deserves a look (WARN), what is
// broken (FAIL), and what to do about it: the library and its manifests,
// each installed agent's store and how fresh its export is, the MCP
// clients and hooks setup wires, the federation registry, staged writes,
// peers, and the audit log. It reads; it never writes (the audit log is
// checked for writability without a record being added).
package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/peer"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// Status is the outcome of one check.
type Status string

// Check outcomes. Skip is a check that does not apply here (an agent not
// installed, no peers configured); it never fails the run.
const (
	OK   Status = "ok"
	Warn Status = "warn"
	Fail Status = "fail"
	Skip Status = "skip"
)

// Check is one line of the report.
type Check struct {
	// Check names the kind of check: library, manifest, agent, export,
	// client, hook, registry, member, staging, peer, audit; on a store
	// (Options.Store) store, schema and vectors too.
	Check string `json:"check"`
	// Subject is what was checked: an agent id, a client, a member, a
	// peer; "" for checks of the whole machine.
	Subject string `json:"subject,omitempty"`
	Status  Status `json:"status"`
	Message string `json:"message"`
	// Fix says what to do; set when the status is warn or fail.
	Fix string `json:"fix,omitempty"`
	// File and Line point at the file (and line) the check is about.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Related names the other file the problem is about: for a manifest
	// whose agent.id is not its file's name, the file that agent is
	// served from.
	Related string `json:"related,omitempty"`
	// Details are an agent's own facts (its Health details), in order.
	Details *Details `json:"details,omitempty"`
}

// Details are ordered key/value facts; they encode as a JSON object in
// their order.
type Details []export.Detail

// MarshalJSON writes the details as an object, keys in order.
func (d Details) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range d {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv.Key)
		v, err := json.Marshal(kv.Value)
		if err != nil {
			v, _ = json.Marshal(fmt.Sprint(kv.Value))
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Report is every check, in the order they ran.
type Report struct {
	Schema  string  `json:"schema"`
	Library string  `json:"library"`
	Checks  []Check `json:"checks"`
	Summary Summary `json:"summary"`
}

// Summary counts the checks by status.
type Summary struct {
	OK   int `json:"ok"`
	Warn int `json:"warn"`
	Fail int `json:"fail"`
	Skip int `json:"skip"`
}

// Failed reports whether any check failed.
func (r *Report) Failed() bool { return r.Summary.Fail > 0 }

func (r *Report) add(c Check) {
	r.Checks = append(r.Checks, c)
	switch c.Status {
	case OK:
		r.Summary.OK++
	case Warn:
		r.Summary.Warn++
	case Fail:
		r.Summary.Fail++
	case Skip:
		r.Summary.Skip++
	}
}

// Options are one run of doctor.
type Options struct {
	Env *export.Env
	// Library is the library directory ("" for ~/agent-library).
	Library string
	// Store, when set, is the PostgreSQL store (postgres://...) that
	// holds the manifests and staged writes instead of Library: the
	// database is checked rather than the directory.
	Store string
	// Exporters are the agents to check (registry.All()).
	Exporters []export.Exporter
	// Binary is this bourdon executable (the command setup wires).
	Binary string
	// Version is sent to peers as the client version.
	Version string
	// PeerTimeout bounds each peer's answer; 0 means 3 seconds.
	PeerTimeout time.Duration
	// Registry is the registry to check; nil checks the one the server
	// would read: Store's, or the file.
	Registry *trust.Registry
	// ProbePeer asks one peer for something cheap and says what it
	// answered; nil asks list_agents over MCP.
	ProbePeer func(ctx context.Context, p peer.Peer) (string, error)
}

// where names the library in messages: its directory, or its store
// without the password.
func (o Options) where() string {
	if o.Store != "" {
		return postgres.Redact(o.Store)
	}
	return o.Library
}

// file is the library directory, or "" on a store (no file to point at).
func (o Options) file() string {
	if o.Store != "" {
		return ""
	}
	return o.Library
}

// exportFix is the command that fills the library.
func (o Options) exportFix() string {
	if o.Store != "" {
		return "bourdon export-all --store " + o.where()
	}
	return "bourdon export-all --library " + o.Library
}

// getenv reads a variable that names a file, as the doctor reads them:
// trimmed, with a leading ~ expanded.
func (o Options) getenv(name string) string { return o.Env.ExpandHome(o.Env.Var(name)) }

// Run runs every check.
func Run(ctx context.Context, o Options) *Report {
	o.Library = libraryPath(o.Env, o.Library)
	if o.PeerTimeout <= 0 {
		o.PeerTimeout = 3 * time.Second
	}
	r := &Report{Schema: "bourdon.doctor/v1", Library: o.where(), Checks: []Check{}}
	var served map[string]*library.Agent
	var pg *postgres.Store
	staging := commit.New(o.Library)
	if o.Store == "" {
		served = checkLibrary(r, o)
	} else {
		pg = checkStore(ctx, r, o)
		staging = nil
		if pg != nil {
			defer pg.Close()
			served, staging = storeManifests(r, o, pg), commit.OnStore(pg)
		}
	}
	checkAgents(ctx, r, o, served)
	checkClients(r, o)
	switch {
	case o.Store == "":
		checkRegistry(r, o, served)
	case pg != nil:
		if o.Registry == nil {
			o.Registry = trust.NewRegistry(pg.Documents(), trust.RegistryDocument)
		}
		checkRegistry(r, o, served)
	} // a store that cannot be read has said so: its registry neither
	if staging != nil {
		checkStaging(r, o, staging)
	}
	checkPeers(ctx, r, o)
	if o.Store == "" {
		checkAudit(r, o)
	} else if pg != nil {
		checkStoreAudit(ctx, r, pg)
	}
	return r
}

// WriteText writes the report one line per check:
//
//	STATUS  check subject: message; fix: ...
//
// then a line of counts.
func (r *Report) WriteText(w io.Writer) {
	for _, c := range r.Checks {
		name := c.Check
		if c.Subject != "" {
			name += " " + c.Subject
		}
		line := fmt.Sprintf("%-4s  %s: %s", strings.ToUpper(string(c.Status)), name, c.Message)
		if c.Fix != "" {
			line += "; fix: " + c.Fix
		}
		fmt.Fprintln(w, line)
	}
	s := r.Summary
	fmt.Fprintf(w, "\n%d ok, %d warn, %d fail, %d skipped\n", s.OK, s.Warn, s.Fail, s.Skip)
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}
