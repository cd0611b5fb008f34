package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/peer"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

type findEntityIn struct {
	Name string `json:"name" jsonschema:"Entity name or alias to look up; case and surrounding spaces are ignored."`
	accessArgs
	hopArg
}

type findEntityOut struct {
	Name           string                   `json:"name"`
	AccessLevel    string                   `json:"access_level"`
	IncludePrivate bool                     `json:"include_private"`
	Matches        []federation.EntityMatch `json:"matches"`
	peerFields
}

func (s *Server) registerFindEntity() {
	addTool(s, tool[findEntityIn, findEntityOut]{
		def: &mcp.Tool{
			Name:        "find_entity",
			Description: "Find an entity by name or alias across every agent. Each match lists the agents that know it, their summaries, types and tags. With peers configured, peer servers' matches are merged in, their agents tagged peer:<peer>:<agent>.",
		},
		defaults: merge(s.accessDefaults(visibility.Public), hopDefault),
		// Unless peers are asked, the answer is the library's alone.
		memoized: func(d trust.Decision, in findEntityIn) bool { return !s.federates(d, in.FederationHop) },
		handle: func(ctx context.Context, c call, in findEntityIn) (findEntityOut, error) {
			level, err := in.level()
			if err != nil {
				return findEntityOut{}, err
			}
			out := findEntityOut{
				Name:           in.Name,
				AccessLevel:    in.AccessLevel,
				IncludePrivate: in.IncludePrivate,
				Matches:        s.store.FindEntity(in.Name, level, reader(c.d)),
			}
			if s.federates(c.d, in.FederationHop) {
				var rep peer.Report
				out.Matches, rep = s.opts.Peers.FindEntity(ctx, in.Name, peerAccess(level, in.accessArgs), out.Matches)
				out.peerFields = reported(rep)
			}
			return out, nil
		},
	})
}
