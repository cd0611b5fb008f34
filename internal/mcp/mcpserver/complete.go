package mcpserver

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// maxCompletions bounds one completion answer, as the protocol asks.
const maxCompletions = 100

// complete is the access step of completions: the completion is decided
// and audited like every read (decide), and a refusal completes nothing.
func (s *Server) complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	values, total := []string{}, 0
	if d := s.decide(callerOf(req.Extra), "completion", ""); d.Allowed {
		values, total = s.completions(req.Params, reader(d))
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{
		Values: values, Total: total, HasMore: total > len(values),
	}}, nil
}

// completions offers values for the arguments of the resource templates,
// read as r allows: agent ids for {agent_id}, entity names (public ones)
// for {name}, at most maxCompletions, with how many there are. The typed
// prefix matches case-insensitively. A value that is a credential as a
// field (redaction.go) is not offered, nor counted: completing it would
// show it, and the sentinel is no value to complete to.
func (s *Server) completions(p *mcp.CompleteParams, r federation.Reader) ([]string, int) {
	values, total := []string{}, 0
	ref := p.Ref
	if ref == nil || ref.Type != "ref/resource" {
		return values, total
	}
	prefix := p.Argument.Value
	switch {
	case strings.HasPrefix(ref.URI, agentMemoryPrefix) && p.Argument.Name == "agent_id":
		values, total = s.store.AgentIDs(prefix, maxCompletions, r, completable)
	case strings.HasPrefix(ref.URI, entityPrefix) && p.Argument.Name == "name":
		values, total = s.store.EntityNames(prefix, visibility.Public, maxCompletions, r, completable)
	}
	if values == nil {
		values = []string{}
	}
	return values, total
}
