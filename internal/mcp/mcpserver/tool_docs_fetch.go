package mcpserver

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

type docsFetchIn struct {
	UID     string `json:"uid" jsonschema:"The node's uid (also accepted as @uid, <xref:uid> or xref:uid)."`
	Moniker string `json:"moniker,omitempty" jsonschema:"The product version the content must apply to, e.g. yuva-2.0."`
	Locale  string `json:"locale,omitempty" jsonschema:"Locale of the content; the corpus is written in en-us, which is served for any other (localeFallback says so)."`
	docsAccess
}

// nodeContent is a node with everything it holds.
type nodeContent struct {
	nodeRef
	Content      string `json:"content"`
	ContentHash  string `json:"contentHash"`
	LastModified string `json:"lastModified"`
	MonikerRange string `json:"monikerRange,omitempty"`
	// Moniker is the version the content was rendered for: moniker
	// blocks of other versions are left out. Empty: every block, as
	// written.
	Moniker        string         `json:"moniker,omitempty"`
	Locale         string         `json:"locale"`
	LocaleFallback bool           `json:"localeFallback,omitempty"`
	FrontMatter    map[string]any `json:"frontMatter,omitempty"`
	Properties     map[string]any `json:"properties"`
	Source         string         `json:"source,omitempty"`
}

func contentOf(n *graph.Node) nodeContent {
	fm, _ := n.Props["frontMatter"].(map[string]any)
	return nodeContent{
		nodeRef: refOf(n), Content: n.Content, ContentHash: n.ContentHash,
		LastModified: n.LastModified.UTC().Format(time.RFC3339), MonikerRange: n.Str("monikerRange"),
		Locale: docs.Locale, FrontMatter: fm, Properties: n.Props, Source: n.Source,
	}
}

func (s *Server) registerDocsFetch() {
	docsTool(s, &mcp.Tool{
		Name:        "docs_fetch",
		Description: "Fetch one node of the documentation graph by uid: its content (markdown for documents; with moniker, as read in that product version), contentHash, lastModified, front matter and properties. An unknown uid names the three closest.",
	}, nil, func(ctx context.Context, in docsFetchIn, v view) (nodeContent, error) {
		c, err := v.Fetch(in.UID, in.Moniker, in.Locale)
		if err != nil {
			return nodeContent{}, docsFailure(err)
		}
		out := contentOf(c.Node)
		out.Content, out.Moniker, out.LocaleFallback = c.Text, c.Moniker, c.LocaleFallback
		return out, nil
	})
}

type resolveXrefIn struct {
	UID     string `json:"uid" jsonschema:"The uid to resolve, as cited: uid, @uid, <xref:uid> or xref:uid."`
	Moniker string `json:"moniker,omitempty" jsonschema:"The product version the citation is read in, e.g. yuva-2.0."`
	docsAccess
}

type backlink struct {
	nodeRef
	EdgeType graph.EdgeType `json:"edgeType"`
}

type resolveXrefOut struct {
	nodeRef
	Href string `json:"href,omitempty"`
	// SupersededBy is the node that replaces this one, if any.
	SupersededBy *nodeRef `json:"supersededBy"`
	// Backlinks are the visible nodes that cite or contain this one.
	Backlinks []backlink `json:"backlinks"`
	// AppliesToMoniker is false when the node's moniker range excludes
	// the requested moniker.
	AppliesToMoniker bool   `json:"appliesToMoniker"`
	MonikerRange     string `json:"monikerRange,omitempty"`
}

func (s *Server) registerResolveXref() {
	docsTool(s, &mcp.Tool{
		Name:        "resolve_xref",
		Description: "Resolve a cross-reference (@uid, <xref:uid>) to the node's current title and URI, moniker-aware; reports the node that supersedes it and the nodes that cite it (backlinks).",
	}, nil, func(ctx context.Context, in resolveXrefIn, v view) (resolveXrefOut, error) {
		x, err := v.ResolveXref(in.UID, in.Moniker)
		if err != nil {
			return resolveXrefOut{}, docsFailure(err)
		}
		n := x.Node
		out := resolveXrefOut{nodeRef: refOf(n), Href: n.Str("href"), Backlinks: []backlink{}, AppliesToMoniker: x.AppliesToMoniker, MonikerRange: n.Str("monikerRange")}
		if x.SupersededBy != nil {
			r := refOf(x.SupersededBy)
			out.SupersededBy = &r
		}
		for _, b := range x.Backlinks {
			out.Backlinks = append(out.Backlinks, backlink{refOf(b.Node), b.Type})
		}
		return out, nil
	})
}
