package mcpserver

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust"
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

// resource declares one resource read, as tool declares a tool: its
// operation in the access rules, how the URI names what to read (A) and
// the namespace, how the answer is redacted, and the read itself.
type resource[A any] struct {
	op   string
	kind redact.Kind
	// target returns what uri names and the namespace it reads ("" for
	// none); ok is false for a URI that names nothing this resource serves.
	target func(uri string) (arg A, namespace string, ok bool)
	// read answers an allowed read. An inBand error answers with another
	// payload, redacted as prose: it is an error that echoes the URI.
	read func(d trust.Decision, arg A) (any, error)
}

// resourceHandler is the access step of resource reads, as addTool is of
// tool calls: a URI that names nothing is not found; otherwise the read is
// decided and audited (decide), a refusal answered with the denial
// payload, and only an allowed read reaches r.read, whose answer is
// redacted as r.kind (jsonResource).
func resourceHandler[A any](s *Server, r resource[A]) mcp.ResourceHandler {
	s.offer(r.op)
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		arg, namespace, ok := r.target(uri)
		if !ok {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		d := s.decide(callerOf(req.Extra), r.op, namespace)
		if !d.Allowed {
			return jsonResource(uri, r.kind, d.Denial())
		}
		v, err := r.read(d, arg)
		var other inBand
		switch {
		case errors.As(err, &other):
			return jsonResource(uri, redact.Prose, other.payload)
		case err != nil:
			return nil, err
		}
		return jsonResource(uri, r.kind, v)
	}
}

// exactly is the target of a resource with one URI, which names nothing
// more.
func exactly(string) (struct{}, string, bool) { return struct{}{}, "", true }

// memoryTarget is the target of agent-library://agents/{agent_id}/memory:
// the agent, which is also the namespace read.
func memoryTarget(uri string) (string, string, bool) {
	id, ok := segment(uri, agentMemoryPrefix, agentMemorySuffix)
	return id, id, ok
}

// entityTarget is the target of agent-library://entities/{name}, which
// reads every namespace (filtered to the caller's grants).
func entityTarget(uri string) (string, string, bool) {
	name, ok := segment(uri, entityPrefix, "")
	return name, "", ok
}

func (s *Server) registerResources() {
	s.AddResource(&mcp.Resource{
		URI:         agentsURI,
		Name:        "agents",
		Title:       "Agents",
		Description: "JSON list of the agent ids in this library.",
		MIMEType:    "application/json",
	}, resourceHandler(s, resource[struct{}]{op: "resource:agents", target: exactly, read: func(d trust.Decision, _ struct{}) (any, error) {
		return s.store.ListAgents(reader(d)), nil
	}}))
	// The agents' memory resources are listed (and added as they come,
	// announce) with the handler of the template.
	s.readMemory = resourceHandler(s, resource[string]{op: "resource:agent-memory", target: memoryTarget, read: func(d trust.Decision, id string) (any, error) {
		m, found := s.store.AgentManifest(id, s.resourceAccess(d, visibility.Public))
		if !found {
			return nil, inBand{map[string]string{"error": "agent not found: " + id}}
		}
		return m, nil
	}})
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: agentMemoryPrefix + "{agent_id}" + agentMemorySuffix,
		Name:        "agent-memory",
		Title:       "Agent memory",
		Description: memoryDescription + ` An unknown agent gives {"error": "agent not found: <id>"}.`,
		MIMEType:    "application/json",
	}, s.readMemory)
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: entityPrefix + "{name}",
		Name:        "entity",
		Title:       "Entity across agents",
		Description: "JSON list of the public matches for one entity name or alias across agents (as find_entity at access level public).",
		MIMEType:    "application/json",
	}, resourceHandler(s, resource[string]{op: "resource:entity", target: entityTarget, read: func(d trust.Decision, name string) (any, error) {
		return s.store.FindEntity(name, visibility.Public, reader(d)), nil
	}}))
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
