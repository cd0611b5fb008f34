package dashboard

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/peer"
	"github.com/getbourdon/bourdon-go/internal/requests"
	"github.com/getbourdon/bourdon-go/internal/trust"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// The operations of the governance pages, as the trust decision and the
// audit log name them. None is on the quarantined allowlist, so only the
// operator and trusted members pass.
const (
	opGovernance     = "dashboard_governance"
	opStagingPromote = "staging_promote"
	opStagingReject  = "staging_reject"
	opApprove        = "approve_proposal" // as `bourdon requests approve` records it
	opReject         = "reject_proposal"  // as `bourdon requests reject` records it
	opFederation     = "dashboard_federation"
	opProbePeers     = "dashboard_probe_peers"
)

// governanceView is the Governance page.
type governanceView struct {
	Staged    []stagedAgent
	Proposals []proposalRow
	Agents    []string      // local agents, whose history can be opened
	History   *agentHistory // the history opened (?history=AGENT)
	Problems  []string
	HasWriter bool
	HasReqs   bool
}

// stagedAgent is one agent's staged writes with their diff.
type stagedAgent struct {
	Agent string
	Files []map[string]any // commit.Staged, redacted
	Diffs []map[string]any // commit.StagedDiff, redacted
}

// proposalRow is one pending proposal with its gate or DoD state.
type proposalRow struct {
	P   map[string]any // requests.Proposal, redacted
	DoD map[string]any // get_dod of a transition's request
	// Gate is what approving it as the signed-in caller would do now.
	Gate gateVerdict
}

// gateVerdict is requests.ApprovalCheck for a page, redacted.
type gateVerdict struct {
	Refusal string   // why the approval would be refused; empty: it would pass
	Stage   string   // the request's stage after the approval
	Next    []string // what it would still lack to leave that stage
}

// verdict works out, without side effects, what approving p as caller
// would do: the same checks requests.Store.Approve makes.
func verdict(s *requests.Store, p *requests.Proposal, caller string) gateVerdict {
	c, err := s.CheckApproval(p.ID, caller)
	if err != nil {
		return gateVerdict{Refusal: redact.Text(err.Error(), 1000)}
	}
	if c.Refusal != nil {
		return gateVerdict{Refusal: redact.Text(c.Refusal.Error(), 1000)}
	}
	v := gateVerdict{Stage: string(c.Stage)}
	for _, n := range c.Next {
		v.Next = append(v.Next, redact.Text(n, 500))
	}
	return v
}

// maxGovernanceRows bounds each list of the Governance page.
const maxGovernanceRows = 50

// governancePage lists staged writes, pending proposals and each agent's
// recent history. Only the operator and trusted members may open it.
func (d *Dashboard) governancePage(w http.ResponseWriter, r *request, c *conn) {
	if dec := d.authorize(r.caller, opGovernance, ""); !dec.Allowed {
		d.forbidden(w, r, "Governance", dec.Detail)
		return
	}
	v := governanceView{HasWriter: d.cfg.Writer != nil, HasReqs: d.cfg.Requests != nil}
	if d.cfg.Writer != nil {
		staged, err := d.cfg.Writer.ListStaged()
		if err != nil {
			v.Problems = append(v.Problems, err.Error())
		}
		byAgent := map[string]*stagedAgent{}
		var order []string
		for _, s := range staged {
			if byAgent[s.AgentID] == nil {
				if len(order) == maxGovernanceRows {
					break
				}
				byAgent[s.AgentID] = &stagedAgent{Agent: s.AgentID}
				order = append(order, s.AgentID)
			}
			byAgent[s.AgentID].Files = append(byAgent[s.AgentID].Files, redacted(s))
		}
		for _, id := range order {
			sa := byAgent[id]
			if diffs, err := d.cfg.Writer.DiffStaged(id); err == nil {
				for _, df := range diffs {
					sa.Diffs = append(sa.Diffs, redacted(df))
				}
			} else {
				v.Problems = append(v.Problems, err.Error())
			}
			v.Staged = append(v.Staged, *sa)
		}
	}
	ctx := r.Context()
	if d.cfg.Requests != nil {
		ps, problems, err := d.cfg.Requests.Proposals(requests.ProposalFilter{Status: requests.StatusPending})
		if err != nil {
			v.Problems = append(v.Problems, err.Error())
		}
		for _, p := range problems {
			v.Problems = append(v.Problems, redact.Text(p.File+": "+p.Message, 500))
		}
		for i, p := range ps {
			if i == maxGovernanceRows {
				break
			}
			row := proposalRow{P: redacted(p), Gate: verdict(d.cfg.Requests, p, r.caller.ID)}
			if p.Kind == requests.KindTransition {
				if dod, err := c.call(ctx, "get_dod", map[string]any{"id": p.RequestID}); err == nil {
					row.DoD = dod
				}
			}
			v.Proposals = append(v.Proposals, row)
		}
	}
	if la, err := c.call(ctx, "list_agents", nil); err == nil {
		for _, agent := range strs(la["agents"]) {
			if !strings.HasPrefix(agent, "peer:") {
				v.Agents = append(v.Agents, agent)
			}
		}
	}
	if agent := r.URL.Query().Get("history"); agent != "" {
		h := d.history(r, c, agent, 20)
		v.History = &h
	}
	d.render(w, r, 0, "governance", view{Title: "Governance", Nav: "governance", Live: true, Data: v})
}

// history is one agent's recent versions (list_memory_versions), on
// demand: the tool hashes the whole manifest, so pages never ask it for
// every agent at once.
func (d *Dashboard) history(r *request, c *conn, agent string, limit int) agentHistory {
	h := agentHistory{Agent: agent}
	p, err := c.call(r.Context(), "list_memory_versions", map[string]any{"agent_id": agent, "limit": limit})
	switch {
	case err != nil:
		h.Refused = err.Error()
	default:
		if detail, refused := denied(p); refused {
			h.Refused = detail
		}
		h.CurrentDigest, h.Versions = str(p["current_digest"]), list(p["versions"])
	}
	return h
}

// stagingAction promotes or rejects an agent's staged writes, as
// `bourdon staging promote|reject` does, recorded as the caller.
func (d *Dashboard) stagingAction(w http.ResponseWriter, r *request) {
	agent, action := r.PostFormValue("agent"), r.PostFormValue("action")
	op := map[string]string{"promote": opStagingPromote, "reject": opStagingReject}[action]
	if op == "" || agent == "" {
		http.Error(w, "Bad Request: send agent and action=promote|reject", http.StatusBadRequest)
		return
	}
	if dec := d.authorize(r.caller, op, agent); !dec.Allowed {
		d.forbidden(w, r, "Governance", dec.Detail)
		return
	}
	if d.cfg.Writer == nil {
		http.Error(w, "this server is read-only", http.StatusConflict)
		return
	}
	var notice string
	if action == "promote" {
		prs, err := d.cfg.Writer.Promote(r.Context(), agent, commit.Provenance{Caller: r.caller.ID, CallerTier: r.caller.Tier.String()})
		done := 0
		for _, p := range prs {
			if p.Err == nil {
				done++
			}
		}
		notice = fmt.Sprintf("promoted %d staged write(s) for %s", done, agent)
		var pe *commit.PromoteError
		if errors.As(err, &pe) {
			notice += fmt.Sprintf("; %d could not be promoted and stay staged: %v", len(pe.Failed), err)
		} else if err != nil {
			notice = "promote failed: " + err.Error()
		}
	} else {
		n, err := d.cfg.Writer.Reject(r.Context(), agent)
		notice = fmt.Sprintf("rejected %d staged write(s) for %s", n, agent)
		if err != nil {
			notice = "reject failed: " + err.Error()
		}
	}
	back(w, r, "/ui/governance", redact.Text(notice, 1000))
}

// proposalAction approves or rejects a request proposal, as `bourdon
// requests approve|reject` does, with the caller as the decider.
func (d *Dashboard) proposalAction(w http.ResponseWriter, r *request) {
	id, action, reason := r.PostFormValue("proposal"), r.PostFormValue("action"), strings.TrimSpace(r.PostFormValue("reason"))
	if d.cfg.Requests == nil || id == "" || (action != "approve" && action != "reject") {
		http.Error(w, "Bad Request: send proposal and action=approve|reject", http.StatusBadRequest)
		return
	}
	s := d.cfg.Requests
	p, err := s.Proposal(id)
	if err != nil {
		back(w, r, "/ui/governance", redact.Text(err.Error(), 1000))
		return
	}
	area := ""
	if p.Intake != nil {
		area = p.Intake.Area
	} else if req, err := s.Get(p.RequestID); err == nil {
		area = req.Area
	}
	op := opApprove
	if action == "reject" {
		op = opReject
	}
	if dec := d.authorize(r.caller, op, area); !dec.Allowed {
		d.forbidden(w, r, "Governance", dec.Detail)
		return
	}
	var notice string
	if action == "approve" {
		_, req, err := s.Approve(r.Context(), id, r.caller.ID)
		if err != nil {
			notice = "not approved: " + err.Error()
		} else {
			notice = fmt.Sprintf("approved %s: %s is now in %s", id, req.ID, req.Stage)
		}
	} else {
		if reason == "" {
			reason = "rejected in the dashboard"
		}
		if _, err := s.Reject(r.Context(), id, r.caller.ID, reason); err != nil {
			notice = "not rejected: " + err.Error()
		} else {
			notice = fmt.Sprintf("rejected %s (by %s)", id, r.caller.ID)
		}
	}
	back(w, r, "/ui/governance", redact.Text(notice, 1000))
}

// rollbackView is the confirmation of a rollback.
type rollbackView struct {
	Agent, Version, CurrentDigest string
	Target                        map[string]any   // the version restored
	Discarded                     []map[string]any // the versions newer than it: the writes undone
	Explain                       map[string]any
}

// rollbackConfirm shows what rolling an agent back to a version would
// discard, and carries the current digest to the rollback so that a write
// made in between refuses it.
func (d *Dashboard) rollbackConfirm(w http.ResponseWriter, r *request, c *conn) {
	agent, version := r.URL.Query().Get("agent"), r.URL.Query().Get("version")
	if dec := d.authorize(r.caller, opGovernance, agent); !dec.Allowed {
		d.forbidden(w, r, "Rollback", dec.Detail)
		return
	}
	ctx := r.Context()
	p, err := c.call(ctx, "list_memory_versions", map[string]any{"agent_id": agent, "limit": 100})
	if err != nil {
		d.fail(w, r, "rollback", "Rollback", err)
		return
	}
	v := rollbackView{Agent: agent, Version: version, CurrentDigest: str(p["current_digest"])}
	for _, ver := range list(p["versions"]) {
		if str(ver["version_id"]) == version {
			v.Target = ver
			break
		}
		v.Discarded = append(v.Discarded, ver)
	}
	if v.Target == nil {
		d.render(w, r, http.StatusNotFound, "rollback", view{Title: "Rollback", Nav: "governance", Problem: "no version " + version + " of " + agent + " among its last 100"})
		return
	}
	if rb := mapOf(v.Target["replaced_by"]); rb != nil {
		if e, err := c.call(ctx, "explain_memory_change", map[string]any{"agent_id": agent, "digest": str(rb["digest"])}); err == nil {
			v.Explain = e
		}
	}
	d.render(w, r, 0, "rollback", view{Title: "Roll back " + agent, Nav: "governance", Data: v})
}

// rollback calls rollback_agent_memory with the digest the confirmation
// showed as expected_digest.
func (d *Dashboard) rollback(w http.ResponseWriter, r *request, c *conn) {
	agent, version, digest := r.PostFormValue("agent"), r.PostFormValue("version"), r.PostFormValue("expected_digest")
	if agent == "" || version == "" || digest == "" {
		http.Error(w, "Bad Request: send agent, version and expected_digest", http.StatusBadRequest)
		return
	}
	p, err := c.call(r.Context(), "rollback_agent_memory", map[string]any{"agent_id": agent, "version_id": version, "expected_digest": digest})
	var notice string
	switch {
	case err != nil:
		notice = "rollback refused: " + err.Error()
	default:
		if detail, refused := denied(p); refused {
			notice = "rollback refused: " + detail
		} else if msg := str(p["error"]); msg != "" {
			notice = "rollback refused: " + msg
		} else {
			notice = fmt.Sprintf("rolled %s back to %s", agent, version)
		}
	}
	back(w, r, "/ui/governance", redact.Text(notice, 1000))
}

// federationView is the Federation page.
type federationView struct {
	Peers    []peer.Status // each peer's last call, as the server's fan-outs made it
	HasPeers bool
	Members  []map[string]any
	Denials  []trust.Entry
	Doctor   map[string]any
	Problems []string
}

// maxDenials bounds the denials shown.
const maxDenials = 50

// doctorTimeout bounds the doctor checks of the Federation page.
const doctorTimeout = 10 * time.Second

// federationPage shows peers, registry members, recent denials and the
// doctor checks; only the operator and trusted members may open it.
func (d *Dashboard) federationPage(w http.ResponseWriter, r *request) {
	if dec := d.authorize(r.caller, opFederation, ""); !dec.Allowed {
		d.forbidden(w, r, "Federation", dec.Detail)
		return
	}
	v := federationView{HasPeers: d.cfg.Peers != nil}
	if d.cfg.Peers != nil {
		v.Peers = d.cfg.Peers.Statuses()
	}
	if d.cfg.Registry != nil {
		ms, err := d.cfg.Registry.List()
		if err != nil {
			v.Problems = append(v.Problems, err.Error())
		}
		for _, m := range ms {
			v.Members = append(v.Members, redacted(map[string]any{"id": m.ID, "tier": m.Tier.String(), "grants": m.Grants, "revoked": m.Revoked, "created_at": m.CreatedAt, "rotated_at": m.RotatedAt, "problem": m.Problem}))
		}
	}
	if d.cfg.Audit != nil {
		es, err := d.cfg.Audit.Entries(trust.AuditFilter{DenialsOnly: true, Limit: maxDenials})
		if err != nil {
			v.Problems = append(v.Problems, err.Error())
		}
		slices.Reverse(es)
		for i := range es {
			es[i].Detail = redact.Text(es[i].Detail, 500)
			es[i].Agent = redact.Text(es[i].Agent, 200)
		}
		v.Denials = es
	}
	if d.cfg.Doctor != nil {
		ctx, cancel := context.WithTimeout(r.Context(), doctorTimeout)
		v.Doctor = redacted(d.cfg.Doctor(ctx))
		cancel()
	}
	// Not live: a page that runs the doctor is drawn when asked for, not
	// on every change to the library.
	d.render(w, r, 0, "federation", view{Title: "Federation", Nav: "federation", Data: v})
}

// probePeers calls list_agents on every peer through the server's own
// fan-out (its tokens, timeouts and deadline), which records each peer's
// outcome for the Federation page.
func (d *Dashboard) probePeers(w http.ResponseWriter, r *request) {
	if dec := d.authorize(r.caller, opProbePeers, ""); !dec.Allowed {
		d.forbidden(w, r, "Federation", dec.Detail)
		return
	}
	if d.cfg.Peers == nil {
		back(w, r, "/ui/federation", "no peers configured")
		return
	}
	_, rep := d.cfg.Peers.ListAgents(r.Context(), nil)
	back(w, r, "/ui/federation", fmt.Sprintf("probed %d peer(s): %d answered, %d timed out", rep.Queried, rep.Responded, rep.TimedOut))
}

// redacted turns v into generic JSON with every string field passed
// through the server's redaction, for values that reach a page without an
// MCP tool (whose results are redacted by the server).
func redacted(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	var out map[string]any
	_ = json.Unmarshal(redact.JSON(b), &out)
	return out
}
