package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// The documentation knowledge graph: tools over the one graph that holds
// the docs corpus and the memory federation (package knowledge), and
// every node as a cogitave://{type}/{uid} resource. They are offered when
// the server has a knowledge base (serve --docs).

// nodeRef names a node in a tool result.
type nodeRef struct {
	UID   string      `json:"uid"`
	Label graph.Label `json:"label"`
	Title string      `json:"title"`
	URI   string      `json:"uri"`
}

func refOf(n *graph.Node) nodeRef {
	return nodeRef{UID: n.UID, Label: n.Label, Title: n.Title(), URI: graph.URI(n.Label, n.UID)}
}

// refsOf returns the refs of nodes, never nil (the payload shows []).
func refsOf(nodes []*graph.Node) []nodeRef {
	out := make([]nodeRef, len(nodes))
	for i, n := range nodes {
		out[i] = refOf(n)
	}
	return out
}

// view is what the caller may see of the current snapshot; the docs
// tools' handlers ask it (package knowledge) and shape its answers.
type view = knowledge.View

// viewFor returns the caller's view: nodes above its access level, and
// memory nodes of agents a quarantined caller was not granted, do not
// exist for it.
func (s *Server) viewFor(d trust.Decision, level visibility.Level) view {
	return s.opts.Knowledge.Current().View(knowledge.Viewer{Level: level, Reader: reader(d)})
}

// docsFailure words the knowledge graph's errors for a tool result: an
// unknown uid or target skill says how to find the right one, a
// neighbourhood too large how to narrow it.
func docsFailure(err error) error {
	var uid *knowledge.UnknownUIDError
	var skill *knowledge.UnknownSkillError
	var large *knowledge.TooLargeError
	switch {
	case errors.As(err, &uid):
		return fmt.Errorf("%s (describe_schema lists the node types; docs_search finds uids by text)", err)
	case errors.As(err, &skill) && !skill.Known:
		return fmt.Errorf("%s; list skills with query_graph: MATCH (s:Skill) RETURN s.uid, s.title", err)
	case errors.As(err, &large):
		return fmt.Errorf("%s; lower depth or name edgeTypes", err)
	}
	return err
}

// docsAccess is the access_level argument of the docs tools: internal
// docs need team, and memory nodes their row's level.
type docsAccess struct {
	AccessLevel string `json:"access_level,omitempty" jsonschema:"Visibility to read at: public, team or private. Internal docs need team; memory entities need their own level."`
}

func (a docsAccess) level() (visibility.Level, error) {
	return accessArgs{AccessLevel: a.AccessLevel}.level()
}

// docsTool registers a docs tool, which names no namespace: the access
// step decides and audits every call, and the handler gets the caller's
// view at its access level. Its results are redacted as prose
// (redaction.go).
func docsTool[In interface {
	level() (visibility.Level, error)
}, Out any](s *Server, t *mcp.Tool, defaults map[string]any, h func(ctx context.Context, in In, v view) (Out, error)) {
	addTool(s, tool[In, Out]{
		def:      t,
		kind:     redact.Prose,
		defaults: merge(map[string]any{"access_level": s.defaultAccess(visibility.Public).String()}, defaults),
		handle: func(ctx context.Context, c call, in In) (Out, error) {
			level, err := in.level()
			if err != nil {
				var zero Out
				return zero, err
			}
			return h(ctx, in, s.viewFor(c.d, level))
		},
	})
}
