package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// Every node of the knowledge graph is a resource, cogitave://{type}/{uid}
// (type is the lowercase label, the uid path-escaped), read as the JSON of
// docs_fetch. Each label has its resource template, with a title,
// description, MIME type and icon. resources/list lists the catalogue: the
// documentation nodes every caller may see (memory nodes, internal docs
// and anything above public are readable by those allowed, never listed);
// a client may narrow it with _meta {"type": "<label>", "product": "<name>"}.
//
// Subscriptions take a node URI, or a collection cogitave://{type}/; when
// the graph changes, each changed node's subscribers get
// resources/updated for its URI, and a collection's subscribers get one
// resources/updated per changed node of that type, with the collection as
// uri and the node in _meta["io.getbourdon/uri"].

// NodeURIMetaKey names the node a collection's resources/updated is about.
const NodeURIMetaKey = "io.getbourdon/uri"

func (s *Server) registerNodeResources() {
	s.readNode = resourceHandler(s, resource[nodeTarget]{op: "resource:node", kind: redact.Prose, target: nodeTargetOf, read: s.nodeRead})
	for _, l := range graph.Labels() {
		s.AddResourceTemplate(&mcp.ResourceTemplate{
			URITemplate: graph.URIScheme + l.URIType() + "/{uid}",
			Name:        l.URIType(),
			Title:       l.Title,
			Description: l.Description + " Read as JSON: content, contentHash, lastModified, properties.",
			MIMEType:    "application/json",
			Icons:       []mcp.Icon{{Source: l.IconURI(), MIMEType: "image/svg+xml", Sizes: []string{"any"}}},
		}, s.readNode)
	}
	s.AddReceivingMiddleware(s.filterNodeList)
	s.syncCatalogue(nil, s.opts.Knowledge.Current())
}

// nodeTarget is what a node URI names: the URI itself (for its not-found
// error), the label and the uid.
type nodeTarget struct {
	uri   string
	label graph.Label
	uid   string
}

// nodeTargetOf is the target of cogitave://{type}/{uid}, which names no
// namespace (memory nodes are filtered to the caller's grants).
func nodeTargetOf(uri string) (nodeTarget, string, bool) {
	spec, uid, ok := graph.ParseURI(uri)
	return nodeTarget{uri: uri, label: spec.Label, uid: uid}, "", ok && uid != ""
}

// nodeRead reads cogitave://{type}/{uid} at the server's default access
// level, as the JSON of docs_fetch.
func (s *Server) nodeRead(d trust.Decision, t nodeTarget) (any, error) {
	v := s.viewFor(d, s.resourceAccess(d, visibility.Public))
	_, n, ok := v.Lookup(t.uid)
	if !ok || n.Label != t.label {
		return nil, mcp.ResourceNotFoundError(t.uri)
	}
	return contentOf(n), nil
}

func nodeResource(n *graph.Node) *mcp.Resource {
	spec, _ := graph.LookupLabel(string(n.Label))
	return &mcp.Resource{
		URI: graph.URI(n.Label, n.UID), Name: n.UID, Title: n.Title(), Description: n.Str("summary"),
		MIMEType: "application/json",
		Icons:    []mcp.Icon{{Source: spec.IconURI(), MIMEType: "image/svg+xml", Sizes: []string{"any"}}},
		Meta:     mcp.Meta{"type": spec.URIType(), "products": n.Strings("products")},
	}
}

// syncCatalogue brings the listed resources in line with a new snapshot
// (the SDK announces list_changed when the set changes).
func (s *Server) syncCatalogue(old, cur *knowledge.Snapshot) {
	added, removed := knowledge.CatalogueChanges(old, cur)
	for _, n := range added {
		s.AddResource(nodeResource(n), s.readNode)
	}
	if len(removed) > 0 {
		s.RemoveResources(removed...)
	}
}

// filterNodeList narrows resources/list to the _meta type and product a
// client asks for. A filtered page may hold fewer resources than a page;
// its cursor goes on as usual.
func (s *Server) filterNodeList(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		lr, ok := req.(*mcp.ListResourcesRequest)
		if err != nil || !ok || lr.Params == nil || lr.Params.Meta == nil {
			return res, err
		}
		typ, _ := lr.Params.Meta["type"].(string)
		product, _ := lr.Params.Meta["product"].(string)
		list, ok := res.(*mcp.ListResourcesResult)
		if !ok || (typ == "" && product == "") {
			return res, err
		}
		kept := list.Resources[:0:0]
		for _, r := range list.Resources {
			if typ != "" && (r.Meta == nil || !strings.EqualFold(fmt.Sprint(r.Meta["type"]), typ)) {
				continue
			}
			if product != "" && (r.Meta == nil || !containsString(r.Meta["products"], product)) {
				continue
			}
			kept = append(kept, r)
		}
		out := *list
		out.Resources = kept
		return &out, nil
	}
}

func containsString(v any, want string) bool {
	list, _ := v.([]string)
	for _, s := range list {
		if strings.EqualFold(s, want) {
			return true
		}
	}
	return false
}

// isNodeURI reports whether uri is a node or a collection of this server.
func isNodeURI(uri string) bool {
	_, _, ok := graph.ParseURI(uri)
	return ok
}

// announceGraph tells subscribers what changed between two snapshots.
func (s *Server) announceGraph(ctx context.Context, old, cur *knowledge.Snapshot, changed, added, removed []string) {
	s.syncCatalogue(old, cur)
	s.mu.Lock()
	subs := make(map[string]bool, len(s.subs))
	for uri := range s.subs {
		subs[uri] = true
	}
	s.mu.Unlock()
	seers := map[string]func(uid string) bool{} // by collection
	see := func(coll string) func(uid string) bool {
		f, ok := seers[coll]
		if !ok {
			f = s.subscribersSee(coll)
			seers[coll] = f
		}
		return f
	}
	notify := func(uri string, meta mcp.Meta) {
		if err := s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri, Meta: meta}); err != nil && s.opts.Logger != nil {
			s.opts.Logger.Warn("resource update notification failed", "uri", uri, "err", err)
		}
	}
	for _, set := range []struct {
		g    *graph.Graph
		uids []string
	}{{cur.Graph, changed}, {cur.Graph, added}, {old.Graph, removed}} {
		for _, uid := range set.uids {
			id, ok := set.g.Lookup(uid)
			if !ok {
				continue
			}
			n := set.g.Node(id)
			uri := graph.URI(n.Label, n.UID)
			if subs[uri] {
				notify(uri, nil)
			}
			// Every subscriber of a collection gets its notification, so
			// it names the node only when all of them may see it; else it
			// says only that the collection changed.
			if coll := graph.URIScheme + strings.ToLower(string(n.Label)) + "/"; subs[coll] {
				var meta mcp.Meta
				if see(coll)(n.UID) {
					meta = mcp.Meta{NodeURIMetaKey: uri}
				}
				notify(coll, meta)
			}
		}
	}
}

// WatchKnowledge follows the knowledge base until ctx ends and notifies
// subscribers of the nodes that change.
func (s *Server) WatchKnowledge(ctx context.Context) {
	if s.opts.Knowledge == nil {
		return
	}
	s.opts.Knowledge.Watch(ctx, func(old, cur *knowledge.Snapshot, changed, added, removed []string) {
		s.announceGraph(ctx, old, cur, changed, added, removed)
	})
}
