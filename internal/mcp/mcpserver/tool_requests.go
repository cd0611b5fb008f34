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

// request returns the request id names, once the access step allowed the
// call. The id names no namespace the decision could check, so a filtered
// caller is limited to the areas it may read (requests.Store.GetFor).
func (s *Server) request(d trust.Decision, id string) (*requests.Request, error) {
	var mayRead func(string) bool
	if d.Filter {
		mayRead = d.Caller.MayRead
	}
	return s.opts.Requests.GetFor(id, mayRead)
}

func (s *Server) registerRequestTools() {
	addTool(s, tool[requests.Filter, requests.Page]{
		def: &mcp.Tool{
			Name:        "list_requests",
			Description: "Requests of the lifecycle (intake, evaluate, plan, document, implement, review, done, rejected), by id, filtered by stage, area, owner and type, paginated with nextCursor. Quarantined callers name one granted area.",
		},
		kind:      redact.Prose,
		defaults:  map[string]any{"limit": requests.DefaultLimit},
		namespace: func(in requests.Filter) string { return in.Area },
		refused: func(in requests.Filter) error {
			if in.Area == "" {
				return errors.New("name an area you were granted: quarantined callers list one area at a time")
			}
			return nil
		},
		handle: func(ctx context.Context, _ call, in requests.Filter) (requests.Page, error) {
			page, err := s.opts.Requests.List(in)
			if page.Requests == nil {
				page.Requests = []*requests.Request{}
			}
			return page, err
		},
	})
	addTool(s, tool[requestIn, *requests.Request]{
		def: &mcp.Tool{
			Name:        "get_request",
			Description: "One request: stage, classification, owner, requester, plan, links, evidence, Definition of Done states and the history of its transitions (actor, approver, reason, time).",
		},
		kind: redact.Prose,
		handle: func(ctx context.Context, c call, in requestIn) (*requests.Request, error) {
			return s.request(c.d, in.ID)
		},
	})
	addTool(s, tool[requestIn, requests.Checklist]{
		def: &mcp.Tool{
			Name: "get_dod",
			Description: "The Definition of Done of a request: the twelve core items (never waivable) and the conditional items its classification adds, each pass, fail, n/a or waived (with approver and reason); " +
				"the result is done only when every applicable item passes or is validly waived and the code owner approved.",
		},
		kind: redact.Prose,
		handle: func(ctx context.Context, c call, in requestIn) (requests.Checklist, error) {
			r, err := s.request(c.d, in.ID)
			if err != nil {
				return requests.Checklist{}, err
			}
			return requests.DoD(r), nil
		},
	})

	var intake jsonschema.Schema
	if err := json.Unmarshal(requests.IntakeSchema(), &intake); err != nil {
		panic(fmt.Sprintf("the intake form schema: %v", err))
	}
	intake.Schema, intake.ID = "", ""
	addTool(s, tool[intakeArgs, *requests.Proposal]{
		def: &mcp.Tool{
			Name: "request_intake",
			Description: "Propose a new request: the intake form (problem, desiredOutcome, type, area, identity of the requester, owner — no owner, no request) is validated against the schema describe_schema serves and staged as a draft in stage intake. " +
				"Nothing is accepted until an operator approves the proposal; with a tracker configured, the proposal is also forwarded as an issue.",
			InputSchema: &intake,
			Annotations: &mcp.ToolAnnotations{OpenWorldHint: new(true)},
		},
		kind: redact.Prose,
		namespace: func(form intakeArgs) string {
			area, _ := form["area"].(string)
			return area
		},
		handle: func(ctx context.Context, c call, form intakeArgs) (*requests.Proposal, error) {
			b, err := json.Marshal(form)
			if err != nil {
				return nil, err
			}
			return s.opts.Requests.ProposeIntake(ctx, b, c.d.Caller.ID)
		},
	})
	addTool(s, tool[advanceIn, *requests.Proposal]{
		def: &mcp.Tool{
			Name: "advance_stage",
			Description: "Propose a stage transition of a request, with what the current stage's gate needs attached (classification and sign-off to leave evaluate, an approved plan to leave plan, an accepted ADR to leave document, a PR and branch to leave implement, a done Definition of Done and evidence to leave review; rejected needs a reason). " +
				"The gate is checked now and again at approval; the transition is staged as a draft until an operator approves it.",
			Annotations: &mcp.ToolAnnotations{OpenWorldHint: new(true)},
		},
		kind: redact.Prose,
		handle: func(ctx context.Context, c call, in advanceIn) (*requests.Proposal, error) {
			r, err := s.request(c.d, in.ID)
			if err != nil {
				return nil, err
			}
			return s.opts.Requests.ProposeTransition(ctx, r.ID, in.TransitionRequest, c.d.Caller.ID)
		},
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
