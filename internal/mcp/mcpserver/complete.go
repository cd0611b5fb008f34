package mcpserver

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// maxCompletions bounds one completion answer, as the protocol asks.
const maxCompletions = 100

// complete offers values for the arguments of the resource templates:
// agent ids for {agent_id}, entity names (public ones) for {name}. The
// typed prefix matches case-insensitively. A value that is a credential as
// a field (redaction.go) is not offered: completing it would show it, and
// the sentinel is no value to complete to.
//
// Like every read it goes through the access decision, and is audited.
func (s *Server) complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	r := reader(s.authorize(req.Extra, "completion", ""))
	var values []string
	total := 0
	if ref := req.Params.Ref; ref != nil && ref.Type == "ref/resource" {
		prefix := req.Params.Argument.Value
		switch {
		case strings.HasPrefix(ref.URI, agentMemoryPrefix) && req.Params.Argument.Name == "agent_id":
			values, total = s.store.AgentIDs(prefix, maxCompletions, r, completable)
		case strings.HasPrefix(ref.URI, entityPrefix) && req.Params.Argument.Name == "name":
			values, total = s.store.EntityNames(prefix, visibility.Public, maxCompletions, r, completable)
		}
	}
	if values == nil {
		values = []string{}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{
		Values: values, Total: total, HasMore: total > len(values),
	}}, nil
}
