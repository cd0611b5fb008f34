package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/requests"
	"github.com/getbourdon/bourdon-go/internal/trust"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// The request lifecycle (package requests): reads are open within the
// caller's grant, and the two write tools only propose. Requests are free
// text: their results are redacted as prose (redaction.go). A proposal becomes
// real when an operator approves it (bourdon requests approve). A
// request's namespace is its area: a quarantined caller reads and
// proposes in the areas it was granted.

// requestIn names one request.
type requestIn struct {
	ID string `json:"id" jsonschema:"The request id, REQ-YYYY-NNNN (any case)."`
}

// loadRequest returns the request id names and the access decision on its
// area (op names the tool).
func (s *Server) loadRequest(extra *mcp.RequestExtra, op, id string) (*requests.Request, trust.Decision, error) {
	r, err := s.opts.Requests.Get(id)
	area := ""
	if err == nil {
		area = r.Area
	}
	d := s.authorize(extra, op, area)
	notFound := fmt.Errorf("no request %q; list_requests lists them", id)
	if !d.Allowed {
		// A caller who may not read the request gets the same answer
		// whether it exists, is malformed or belongs to an area it was not
		// granted, so that the answer tells nothing about other areas.
		return nil, d, notFound
	}
	if errors.Is(err, requests.ErrNotFound) {
		return nil, d, notFound
	}
	if err != nil {
		return nil, d, err
	}
	return r, d, nil
}

func (s *Server) registerRequestTools() {
	addToolAs(s.Server, &mcp.Tool{
		Name:        "list_requests",
		Description: "Requests of the lifecycle (intake, evaluate, plan, document, implement, review, done, rejected), by id, filtered by stage, area, owner and type, paginated with nextCursor. Quarantined callers name one granted area.",
	}, redact.Prose, map[string]any{"limit": requests.DefaultLimit}, func(ctx context.Context, req *mcp.CallToolRequest, in requests.Filter) (requests.Page, error) {
		d := s.authorize(req.Extra, "list_requests", in.Area)
		if !d.Allowed {
			if in.Area == "" {
				return requests.Page{}, errors.New("name an area you were granted: quarantined callers list one area at a time")
			}
			return requests.Page{}, deny(d)
		}
		page, err := s.opts.Requests.List(in)
		if page.Requests == nil {
			page.Requests = []*requests.Request{}
		}
		return page, err
	})
	addToolAs(s.Server, &mcp.Tool{
		Name:        "get_request",
		Description: "One request: stage, classification, owner, requester, plan, links, evidence, Definition of Done states and the history of its transitions (actor, approver, reason, time).",
	}, redact.Prose, nil, func(ctx context.Context, req *mcp.CallToolRequest, in requestIn) (*requests.Request, error) {
		r, _, err := s.loadRequest(req.Extra, "get_request", in.ID)
		return r, err
	})
	addToolAs(s.Server, &mcp.Tool{
		Name: "get_dod",
		Description: "The Definition of Done of a request: the twelve core items (never waivable) and the conditional items its classification adds, each pass, fail, n/a or waived (with approver and reason); " +
			"the result is done only when every applicable item passes or is validly waived and the code owner approved.",
	}, redact.Prose, nil, func(ctx context.Context, req *mcp.CallToolRequest, in requestIn) (requests.Checklist, error) {
		r, _, err := s.loadRequest(req.Extra, "get_dod", in.ID)
		if err != nil {
			return requests.Checklist{}, err
		}
		return requests.DoD(r), nil
	})

	var intake jsonschema.Schema
	if err := json.Unmarshal(requests.IntakeSchema(), &intake); err != nil {
		panic(fmt.Sprintf("the intake form schema: %v", err))
	}
	intake.Schema, intake.ID = "", ""
	addToolAs(s.Server, &mcp.Tool{
		Name: "request_intake",
		Description: "Propose a new request: the intake form (problem, desiredOutcome, type, area, identity of the requester, owner — no owner, no request) is validated against the schema describe_schema serves and staged as a draft in stage intake. " +
			"Nothing is accepted until an operator approves the proposal; with a tracker configured, the proposal is also forwarded as an issue.",
		InputSchema: &intake,
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: new(true)},
	}, redact.Prose, nil, func(ctx context.Context, req *mcp.CallToolRequest, form intakeArgs) (*requests.Proposal, error) {
		area, _ := form["area"].(string)
		d := s.authorize(req.Extra, "request_intake", area)
		if !d.Allowed {
			return nil, deny(d)
		}
		b, err := json.Marshal(form)
		if err != nil {
			return nil, err
		}
		return s.opts.Requests.ProposeIntake(ctx, b, d.Caller.ID)
	})
	addToolAs(s.Server, &mcp.Tool{
		Name: "advance_stage",
		Description: "Propose a stage transition of a request, with what the current stage's gate needs attached (classification and sign-off to leave evaluate, an approved plan to leave plan, an accepted ADR to leave document, a PR and branch to leave implement, a done Definition of Done and evidence to leave review; rejected needs a reason). " +
			"The gate is checked now and again at approval; the transition is staged as a draft until an operator approves it.",
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: new(true)},
	}, redact.Prose, nil, func(ctx context.Context, req *mcp.CallToolRequest, in advanceIn) (*requests.Proposal, error) {
		r, d, err := s.loadRequest(req.Extra, "advance_stage", in.ID)
		if err != nil {
			return nil, err
		}
		return s.opts.Requests.ProposeTransition(ctx, r.ID, in.TransitionRequest, d.Caller.ID)
	})
}

// intakeArgs is the intake form as sent; the request store validates it
// against the intake schema and lists every problem, "no owner, no
// request" included.
type intakeArgs map[string]any

func (intakeArgs) validatesItself() {}

type advanceIn struct {
	ID string `json:"id" jsonschema:"The request id, REQ-YYYY-NNNN (any case)."`
	requests.TransitionRequest
}
