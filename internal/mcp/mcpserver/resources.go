package mcpserver

import (
	"context"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// Resource addresses.
const (
	agentsURI         = "agent-library://agents"
	agentMemoryPrefix = "agent-library://agents/"
	agentMemorySuffix = "/memory"
	entityPrefix      = "agent-library://entities/"
)

func memoryURI(id string) string {
	return agentMemoryPrefix + url.PathEscape(id) + agentMemorySuffix
}

const memoryDescription = "One agent's L5 manifest with only the rows visible at the server's default access level (public unless BOURDON_DEFAULT_ACCESS_LEVEL says otherwise; public for callers that are not trusted)."

// memoryResource describes one agent's memory; it is listed for every
// agent of the library.
func memoryResource(id string) *mcp.Resource {
	return &mcp.Resource{
		URI:         memoryURI(id),
		Name:        id + "-memory",
		Title:       "Memory of " + id,
		Description: memoryDescription,
		MIMEType:    "application/json",
	}
}

func (s *Server) registerResources(srv *mcp.Server) {
	srv.AddResource(&mcp.Resource{
		URI:         agentsURI,
		Name:        "agents",
		Title:       "Agents",
		Description: "JSON list of the agent ids in this library.",
		MIMEType:    "application/json",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		d := s.authorize(req.Extra, "resource:agents", "")
		return jsonResource(req.Params.URI, redact.Field, s.store.ListAgents(reader(d)))
	})
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: agentMemoryPrefix + "{agent_id}" + agentMemorySuffix,
		Name:        "agent-memory",
		Title:       "Agent memory",
		Description: memoryDescription + ` An unknown agent gives {"error": "agent not found: <id>"}.`,
		MIMEType:    "application/json",
	}, s.readMemory)
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: entityPrefix + "{name}",
		Name:        "entity",
		Title:       "Entity across agents",
		Description: "JSON list of the public matches for one entity name or alias across agents (as find_entity at access level public).",
		MIMEType:    "application/json",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		name, ok := segment(req.Params.URI, entityPrefix, "")
		if !ok {
			return nil, mcp.ResourceNotFoundError(req.Params.URI)
		}
		d := s.authorize(req.Extra, "resource:entity", "")
		return jsonResource(req.Params.URI, redact.Field, s.store.FindEntity(name, visibility.Public, reader(d)))
	})
}

// readMemory serves agent-library://agents/{agent_id}/memory.
func (s *Server) readMemory(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	id, ok := segment(req.Params.URI, agentMemoryPrefix, agentMemorySuffix)
	if !ok {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	d := s.authorize(req.Extra, "resource:agent-memory", id)
	if !d.Allowed {
		return jsonResource(req.Params.URI, redact.Field, d.Denial())
	}
	m, found := s.store.AgentManifest(id, s.resourceAccess(d, visibility.Public))
	if !found {
		return jsonResource(req.Params.URI, redact.Prose, map[string]string{"error": "agent not found: " + id})
	}
	return jsonResource(req.Params.URI, redact.Field, m)
}

// segment extracts the single path segment between prefix and suffix of
// uri and percent-decodes it.
func segment(uri, prefix, suffix string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, prefix)
	if !ok {
		return "", false
	}
	if suffix != "" {
		if rest, ok = strings.CutSuffix(rest, suffix); !ok {
			return "", false
		}
	}
	if rest == "" || strings.Contains(rest, "/") {
		return "", false
	}
	v, err := url.PathUnescape(rest)
	if err != nil {
		return "", false
	}
	return v, true
}
