package dashboard

import (
	"cmp"
	"context"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// agentRow is one line of the Agents page.
type agentRow struct {
	ID, Type, Instance, LastUpdated, Freshest, ParseError, Source string
	Fresh                                                         string // fresh, stale, old or unknown: the colour
	Counts                                                        map[string]int
	CountErr                                                      string
	Peer                                                          bool
	Drift                                                         string // the drift verdict's reason; "" when healthy
}

// agentsView is the Agents page.
type agentsView struct {
	Agents     []agentRow
	DriftKnown bool   // the caller may see drift verdicts
	Page, Next int    // 1-based page, next page (0: none)
	Prev       int    // previous page (0: none)
	Total      int    // agents in all
	Kinds      []kind // the row kinds counted
}

type kind struct{ Key, Name string }

// kinds are the row kinds of a manifest, as the memory resource names them.
var kinds = []kind{{"known_entities", "entities"}, {"recent_sessions", "sessions"}, {"known_workstreams", "workstreams"}, {"notes", "notes"}}

// agentsPerPage bounds the Agents page.
const agentsPerPage = 25

// agentsPage lists every agent the caller may see: this machine's from
// export_agents (freshness, parse errors), the peers' from list_agents,
// row counts from each agent's memory resource, drift verdicts from
// prepare_recognition_context.
func (d *Dashboard) agentsPage(w http.ResponseWriter, r *request, c *conn) {
	ctx := r.Context()
	exp, err := d.cache.export(ctx, c, r.caller)
	if err != nil {
		d.fail(w, r, "agents", "Agents", err)
		return
	}
	var rows []agentRow
	local := map[string]bool{}
	for _, a := range list(exp["agents"]) {
		row := agentRow{ID: str(a["id"]), Type: str(a["type"]), Instance: str(a["instance"]), LastUpdated: str(a["last_updated"]),
			Freshest: str(a["freshest_session_date"]), ParseError: str(a["parse_error"]), Source: str(a["source_kind"])}
		row.Fresh = freshness(row.LastUpdated, time.Now())
		local[row.ID] = true
		rows = append(rows, row)
	}
	if la, err := c.call(ctx, "list_agents", nil); err == nil {
		for _, id := range strs(la["agents"]) {
			if !local[id] && strings.HasPrefix(id, "peer:") {
				rows = append(rows, agentRow{ID: id, Source: "peer", Peer: true, Fresh: "unknown"})
			}
		}
	}
	slices.SortStableFunc(rows, func(a, b agentRow) int { return cmp.Compare(a.ID, b.ID) })
	v := agentsView{Total: len(rows), Kinds: kinds}
	v.Page = max(1, atoi(r.URL.Query().Get("page")))
	from := min((v.Page-1)*agentsPerPage, len(rows))
	to := min(from+agentsPerPage, len(rows))
	if to < len(rows) {
		v.Next = v.Page + 1
	}
	if v.Page > 1 {
		v.Prev = v.Page - 1
	}
	v.Agents = rows[from:to]
	d.fillCounts(ctx, c, r, v.Agents)
	if rec, err := c.call(ctx, "prepare_recognition_context", map[string]any{"prompt": "dashboard"}); err == nil {
		if _, refused := denied(rec); !refused {
			v.DriftKnown = true
			for _, s := range list(rec["drifting_surfaces"]) {
				for i := range v.Agents {
					if v.Agents[i].ID == str(s["agent"]) {
						v.Agents[i].Drift = str(s["reason"])
					}
				}
			}
		}
	}
	d.render(w, r, 0, "agents", view{Title: "Agents", Nav: "agents", Live: true, Data: v})
}

// fillCounts reads the memory resource of each local agent on the page,
// at most four at a time, through the count cache.
func (d *Dashboard) fillCounts(ctx context.Context, c *conn, r *request, rows []agentRow) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i := range rows {
		if rows[i].Peer || rows[i].ParseError != "" {
			continue
		}
		wg.Add(1)
		go func(row *agentRow) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			counts, err := d.cache.rowCounts(ctx, c, r.caller, row.ID)
			if err != nil {
				row.CountErr = err.Error()
				return
			}
			row.Counts = counts
		}(&rows[i])
	}
	wg.Wait()
}

// freshness colours an agent by the age of its last update.
func freshness(lastUpdated string, now time.Time) string {
	t, err := time.Parse(time.RFC3339, lastUpdated)
	if err != nil {
		return "unknown"
	}
	switch age := now.Sub(t); {
	case age < 24*time.Hour:
		return "fresh"
	case age < 7*24*time.Hour:
		return "stale"
	default:
		return "old"
	}
}

// activityView is the Activity page.
type activityView struct {
	Days                         []day
	Agent, Project, Level, Since string
	Levels                       []string
	Next                         template.URL // the next page; "" when there is none
	Agents                       []string
	Problems                     []string
}

// day is one day of the timeline.
type day struct {
	Date     string
	Sessions []map[string]any
	Notes    []map[string]any
}

// activityPageSize is the page size passed to list_recent_work and
// list_notes.
const activityPageSize = 20

// activityPage is the timeline of sessions and notes by day: one page of
// list_recent_work and one of list_notes, with their cursors, filtered by
// agent and access level as the tools filter, and by project within the
// page.
func (d *Dashboard) activityPage(w http.ResponseWriter, r *request, c *conn) {
	q := r.URL.Query()
	v := activityView{Agent: q.Get("agent"), Project: q.Get("project"), Level: q.Get("visibility"), Since: q.Get("since"), Levels: []string{"public", "team", "private"}}
	if _, ok := visibility.Parse(v.Level); !ok || v.Level == "" {
		v.Level = "public"
	}
	ctx := r.Context()
	args := func(cursor string) map[string]any {
		a := map[string]any{"access_level": v.Level, "limit": activityPageSize}
		if v.Agent != "" {
			a["agent"] = v.Agent
		}
		if v.Since != "" {
			a["since"] = v.Since
		}
		if cursor != "" {
			a["cursor"] = cursor
		}
		return a
	}
	byDate := map[string]*day{}
	at := func(date string) *day {
		if byDate[date] == nil {
			byDate[date] = &day{Date: date}
		}
		return byDate[date]
	}
	next := url.Values{}
	for k, vs := range q {
		if k != "cursor" && k != "ncursor" {
			next[k] = vs
		}
	}
	more := v.page(ctx, c, q, next, "list_recent_work", "cursor", "sessions", "project_focus", args, func(row map[string]any) {
		at(str(row["date"])).Sessions = append(at(str(row["date"])).Sessions, row)
	})
	if v.page(ctx, c, q, next, "list_notes", "ncursor", "notes", "related_entities", args, func(row map[string]any) {
		at(str(row["date"])).Notes = append(at(str(row["date"])).Notes, row)
	}) {
		more = true
	}
	if more {
		// Built here from url.Values, so it is a well-formed relative URL.
		v.Next = template.URL("/ui/activity?" + next.Encode())
	}
	for _, dd := range byDate {
		v.Days = append(v.Days, *dd)
	}
	slices.SortFunc(v.Days, func(a, b day) int { return cmp.Compare(b.Date, a.Date) })
	if la, err := c.call(ctx, "list_agents", nil); err == nil {
		v.Agents = strs(la["agents"])
	}
	d.render(w, r, 0, "activity", view{Title: "Activity", Nav: "activity", Live: true, Data: v})
}

// page fetches one page of a paginated list tool (list_recent_work,
// list_notes) at the cursor the query holds under key ("-": that list is
// exhausted), adds the rows naming the project filter, sets the cursor of
// the next page in next, and reports whether there is one.
func (v *activityView) page(ctx context.Context, c *conn, q, next url.Values, tool, key, rows, projects string, args func(string) map[string]any, add func(map[string]any)) bool {
	next.Set(key, "-")
	if q.Get(key) == "-" {
		return false
	}
	p, err := c.call(ctx, tool, args(q.Get(key)))
	if err != nil {
		v.Problems = append(v.Problems, err.Error())
		return false
	}
	if detail, refused := denied(p); refused {
		v.Problems = append(v.Problems, rows+": "+detail)
	}
	for _, row := range list(p[rows]) {
		if v.Project == "" || slices.Contains(strs(row[projects]), v.Project) {
			add(row)
		}
	}
	if nc := str(p["next_cursor"]); nc != "" {
		next.Set(key, nc)
		return true
	}
	return false
}

// searchView is the Search page: three answers side by side.
type searchView struct {
	Query    string
	Entities []map[string]any
	Deeper   []map[string]any
	Docs     []map[string]any
	HasDocs  bool
	Problems map[string]string // column -> why it is empty
}

// searchPage answers one query from find_entity, get_deeper_context and
// docs_search.
func (d *Dashboard) searchPage(w http.ResponseWriter, r *request, c *conn) {
	v := searchView{Query: strings.TrimSpace(r.URL.Query().Get("q")), Problems: map[string]string{}}
	if len(v.Query) > 500 {
		v.Query = v.Query[:500]
	}
	if v.Query == "" {
		d.render(w, r, 0, "search", view{Title: "Search", Nav: "search", Data: v})
		return
	}
	ctx := r.Context()
	tools, _ := c.tools(ctx)
	v.HasDocs = tools["docs_search"]
	level := r.caller.MaxAccess().String()
	column := func(name, tool string, args map[string]any, key string) []map[string]any {
		p, err := c.call(ctx, tool, args)
		if err != nil {
			v.Problems[name] = err.Error()
			return nil
		}
		if detail, refused := denied(p); refused {
			v.Problems[name] = detail
			return nil
		}
		return list(p[key])
	}
	v.Entities = column("entities", "find_entity", map[string]any{"name": v.Query, "access_level": level}, "matches")
	v.Deeper = column("deeper", "get_deeper_context", map[string]any{"prompt": v.Query, "access_level": level}, "items")
	if v.HasDocs {
		v.Docs = column("docs", "docs_search", map[string]any{"query": v.Query, "topK": 10}, "results")
	}
	d.render(w, r, 0, "search", view{Title: "Search: " + v.Query, Nav: "search", Data: v})
}

// entityView is the entity page.
type entityView struct {
	Name     string
	Match    map[string]any   // find_entity's merged view
	Views    []map[string]any // each agent's node (query_graph), when docs are served
	Agents   []string         // the local agents that know it
	History  *agentHistory    // the history opened (?history=AGENT)
	Explain  map[string]any
	Graph    graphView
	Problems []string
}

// agentHistory is one agent's versions of its memory.
type agentHistory struct {
	Agent         string
	CurrentDigest string
	Versions      []map[string]any
	Refused       string
}

// entityPage shows every agent's view of an entity, the history of the
// agents that hold it, and its neighbourhood across docs and memory.
func (d *Dashboard) entityPage(w http.ResponseWriter, r *request, c *conn) {
	name := strings.TrimSpace(r.URL.Query().Get("name"))
	if name == "" || len(name) > 300 {
		d.render(w, r, http.StatusBadRequest, "entity", view{Title: "Entity", Nav: "search", Problem: "Name an entity: /ui/entity?name=Payments%20API"})
		return
	}
	ctx := r.Context()
	v := entityView{Name: name}
	level := r.caller.MaxAccess().String()
	fe, err := c.call(ctx, "find_entity", map[string]any{"name": name, "access_level": level})
	if err != nil {
		d.fail(w, r, "entity", name, err)
		return
	}
	matches := list(fe["matches"])
	if len(matches) > 0 {
		v.Match = matches[0]
		v.Name = str(v.Match["name"])
	}
	tools, _ := c.tools(ctx)
	if tools["query_graph"] {
		g, err := c.call(ctx, "query_graph", map[string]any{"pattern": "MATCH (n:Entity {title: $name}) RETURN n LIMIT 50", "params": map[string]any{"name": v.Name}})
		if err != nil {
			v.Problems = append(v.Problems, err.Error())
		}
		for _, row := range lists(g["rows"]) {
			if len(row) > 0 {
				if n, ok := row[0].(map[string]any); ok {
					v.Views = append(v.Views, n)
				}
			}
		}
		v.Graph = d.neighbourhood(ctx, c, v.Name, v.Views)
	}
	for _, agent := range strs(mapOf(v.Match)["agents"]) {
		if !strings.HasPrefix(agent, "peer:") {
			v.Agents = append(v.Agents, agent)
		}
	}
	if agent := r.URL.Query().Get("history"); agent != "" && slices.Contains(v.Agents, agent) {
		h := d.history(r, c, agent, 10)
		v.History = &h
	}
	if agent, digest := r.URL.Query().Get("agent"), r.URL.Query().Get("digest"); agent != "" && digest != "" {
		if p, err := c.call(ctx, "explain_memory_change", map[string]any{"agent_id": agent, "digest": digest}); err == nil {
			v.Explain = p
		} else {
			v.Problems = append(v.Problems, err.Error())
		}
	}
	title := v.Name
	if v.Match == nil {
		title = name + " (not found)"
	}
	d.render(w, r, 0, "entity", view{Title: title, Nav: "search", Data: v})
}

// nodeView is a docs node's page.
type nodeView struct {
	UID   string
	Node  map[string]any
	Graph graphView
}

// nodePage shows a docs or memory node (docs_fetch) and its neighbourhood
// (get_related).
func (d *Dashboard) nodePage(w http.ResponseWriter, r *request, c *conn) {
	uid := strings.TrimSpace(r.URL.Query().Get("uid"))
	if uid == "" || len(uid) > 500 {
		d.render(w, r, http.StatusBadRequest, "node", view{Title: "Node", Nav: "search", Problem: "Name a node: /ui/node?uid=..."})
		return
	}
	ctx := r.Context()
	v := nodeView{UID: uid}
	node, err := c.call(ctx, "docs_fetch", map[string]any{"uid": uid})
	if err != nil {
		d.render(w, r, http.StatusNotFound, "node", view{Title: uid, Nav: "search", Problem: err.Error(), Data: v})
		return
	}
	v.Node = node
	v.Graph = d.related(ctx, c, uid, str(node["title"]))
	d.render(w, r, 0, "node", view{Title: str(node["title"]), Nav: "search", Data: v})
}

// Helpers over decoded JSON.

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

func strs(v any) []string {
	var out []string
	for _, x := range asSlice(v) {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func list(v any) []map[string]any {
	var out []map[string]any
	for _, x := range asSlice(v) {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func lists(v any) [][]any {
	var out [][]any
	for _, x := range asSlice(v) {
		if l, ok := x.([]any); ok {
			out = append(out, l)
		}
	}
	return out
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func mapOf(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
