package dashboard

import (
	"context"
	"fmt"
	"html/template"
	"math"
	"net/url"
	"strings"
)

// graphView is a neighbourhood drawn as SVG, with the same nodes and
// edges listed as text for screen readers and keyboards.
type graphView struct {
	SVG       template.HTML
	Nodes     []graphNode
	Edges     []graphEdge
	Truncated bool
}

type graphNode struct {
	UID, Title, Label, Href string
}

type graphEdge struct {
	From, To, Type string
}

// maxGraphNodes bounds a drawing.
const maxGraphNodes = 24

// neighbourhood is an entity's graph: the entity, each agent's node of it
// (query_graph), and what each of those links to (get_related).
func (d *Dashboard) neighbourhood(ctx context.Context, c *conn, name string, views []map[string]any) graphView {
	g := newGraphBuilder(graphNode{UID: "entity:" + name, Title: name, Label: "Entity", Href: "/ui/entity?name=" + url.QueryEscape(name)})
	for _, v := range views {
		uid := str(v["uid"])
		agent := str(mapOf(v["properties"])["agent"])
		g.add(graphNode{UID: uid, Title: agent + "'s view", Label: "Entity", Href: nodeHref(uid)}, g.center.UID, "view")
		g.related(ctx, c, uid)
	}
	return g.view()
}

// related is a node's neighbourhood (get_related, depth 1).
func (d *Dashboard) related(ctx context.Context, c *conn, uid, title string) graphView {
	g := newGraphBuilder(graphNode{UID: uid, Title: title, Label: "", Href: nodeHref(uid)})
	g.related(ctx, c, uid)
	return g.view()
}

type graphBuilder struct {
	center    graphNode
	nodes     []graphNode
	index     map[string]bool
	edges     []graphEdge
	truncated bool
}

func newGraphBuilder(center graphNode) *graphBuilder {
	return &graphBuilder{center: center, index: map[string]bool{center.UID: true}}
}

func (g *graphBuilder) add(n graphNode, from, edge string) {
	if !g.index[n.UID] {
		if len(g.nodes) >= maxGraphNodes {
			g.truncated = true
			return
		}
		g.index[n.UID] = true
		g.nodes = append(g.nodes, n)
	}
	g.edges = append(g.edges, graphEdge{From: from, To: n.UID, Type: edge})
}

func (g *graphBuilder) related(ctx context.Context, c *conn, uid string) {
	p, err := c.call(ctx, "get_related", map[string]any{"uid": uid})
	if err != nil {
		return
	}
	if p["truncated"] == true {
		g.truncated = true
	}
	for _, r := range list(p["results"]) {
		n := graphNode{UID: str(r["uid"]), Title: str(r["title"]), Label: str(r["label"]), Href: nodeHref(str(r["uid"]))}
		if str(r["direction"]) == "in" {
			g.add(n, uid, str(r["edgeType"])+" (in)")
		} else {
			g.add(n, uid, str(r["edgeType"]))
		}
	}
}

func nodeHref(uid string) string { return "/ui/node?uid=" + url.QueryEscape(uid) }

// view lays the nodes out on a circle around the centre and draws them.
func (g *graphBuilder) view() graphView {
	const w, h, cx, cy, radius = 720.0, 460.0, 360.0, 230.0, 180.0
	pos := map[string][2]float64{g.center.UID: {cx, cy}}
	for i, n := range g.nodes {
		a := 2*math.Pi*float64(i)/float64(max(1, len(g.nodes))) - math.Pi/2
		pos[n.UID] = [2]float64{cx + radius*1.45*math.Cos(a), cy + radius*math.Sin(a)}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="graph" viewBox="0 0 %.0f %.0f" role="img" aria-labelledby="graph-title"><title id="graph-title">Neighbourhood of %s</title>`, w, h, esc(g.center.Title))
	for _, e := range g.edges {
		p, q := pos[e.From], pos[e.To]
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#8a94a6" stroke-width="1.2"/>`, p[0], p[1], q[0], q[1])
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="10" fill="#5b6475" text-anchor="middle">%s</text>`, (p[0]+q[0])/2, (p[1]+q[1])/2-3, esc(e.Type))
	}
	draw := func(n graphNode, center bool) {
		p := pos[n.UID]
		fill := "#e8eefc"
		if center {
			fill = "#2451b7"
		}
		text := "#1b2333"
		if center {
			text = "#ffffff"
		}
		label := n.Title
		if len(label) > 28 {
			label = label[:27] + "…"
		}
		fmt.Fprintf(&b, `<a href="%s"><rect x="%.1f" y="%.1f" width="150" height="34" rx="6" fill="%s" stroke="#2451b7"/>`, esc(n.Href), p[0]-75, p[1]-17, fill)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="11" fill="%s" text-anchor="middle">%s</text>`, p[0], p[1]-2, text, esc(label))
		if n.Label != "" {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="9" fill="%s" text-anchor="middle">%s</text>`, p[0], p[1]+11, text, esc(n.Label))
		}
		b.WriteString(`</a>`)
	}
	for _, n := range g.nodes {
		draw(n, false)
	}
	draw(g.center, true)
	b.WriteString(`</svg>`)
	nodes := append([]graphNode{g.center}, g.nodes...)
	// The SVG is built from escaped text only.
	return graphView{SVG: template.HTML(b.String()), Nodes: nodes, Edges: g.edges, Truncated: g.truncated}
}

func esc(s string) string { return template.HTMLEscapeString(s) }
