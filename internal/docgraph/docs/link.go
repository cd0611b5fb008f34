package docs

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// link resolves every reference of the loaded records, applies the gates
// that need the whole corpus, and builds the graph.
func (l *loader) link() *graph.Graph {
	by := l.index()
	l.membership(by, graph.Module)
	l.membership(by, graph.LearningPath)
	l.orphans()
	l.codeSamples(by)
	l.taxonomyNodes(by)
	l.checkMonikers()

	b := graph.NewBuilder()
	b.SetMonikers(l.monikers)
	for _, r := range l.records {
		if _, ok := r.node.Props["headings"]; ok {
			r.node.Props["headings"] = append([]any{}, r.headings...)
		}
		if _, err := b.AddNode(r.node); err != nil {
			l.bad(r.at, RuleSchema, "%v", err)
		}
	}
	var deps []ref
	add := func(f ref) {
		what := cmp.Or(f.what, string(f.typ))
		t := by[f.to]
		switch {
		case t == nil:
			l.bad(f.at, f.rule, "%s %s does not resolve", what, f.to)
		case f.want != "" && t.node.Label != f.want:
			l.bad(f.at, f.rule, "%s %s is labelled %s, not %s", what, f.to, t.node.Label, f.want)
		case f.from == f.to:
			// A node citing itself adds nothing.
		default:
			if err := b.AddEdge(f.from, f.to, f.typ, f.weight); err != nil {
				l.bad(f.at, RuleSchema, "%v", err)
			} else if f.typ == graph.DependsOn {
				deps = append(deps, f)
			}
		}
	}
	for _, r := range l.records {
		for _, f := range r.refs {
			f.from = r.node.UID
			add(f)
		}
	}
	for _, f := range l.relations {
		if by[f.from] == nil {
			l.bad(f.at, RuleBrokenXref, "relation source %s does not resolve", f.from)
			continue
		}
		add(f)
	}
	l.cycles(deps)
	return b.Build()
}

// index maps uids to records, dropping (and reporting) every record whose
// uid is already taken, and checks authored uids against uidPattern.
func (l *loader) index() map[string]*record {
	by := map[string]*record{}
	kept := l.records[:0]
	for _, r := range l.records {
		uid := r.node.UID
		if first, dup := by[uid]; dup {
			where := first.at.file
			if first.at.root != r.at.root {
				where = filepath.Join(first.at.root.dir, first.at.file)
			}
			l.bad(r.at, RuleDuplicateUID, "uid %s is already defined at %s:%d", uid, where, first.at.line)
			continue
		}
		if re := r.at.root.cfg.uidPattern; r.authored && re != nil && !re.MatchString(uid) {
			l.bad(r.at, RuleUIDPattern, "uid %s does not match %s", uid, re)
		}
		by[uid] = r
		kept = append(kept, r)
	}
	l.records = kept
	return by
}

// membership resolves the units[] of modules (label Module) or the
// modules[] of paths (label LearningPath): each listed node gets a partOf
// edge whose weight is its 1-based position. A unit takes its module,
// order, taxonomy and href from the one module that lists it; durations
// add up from units to modules to paths.
func (l *loader) membership(by map[string]*record, label graph.Label) {
	for _, r := range l.records {
		if r.node.Label != label {
			continue
		}
		for _, li := range r.lists {
			t := by[li.uid]
			switch {
			case t == nil:
				l.bad(li.at, RuleUnitMembership, "%s %s does not resolve", strings.ToLower(string(li.want)), li.uid)
				continue
			case t.node.Label != li.want:
				l.bad(li.at, RuleUnitMembership, "%s is labelled %s, not %s", li.uid, t.node.Label, li.want)
				continue
			case li.want == graph.Unit && t.module != "":
				l.bad(li.at, RuleUnitMembership, "unit %s is already listed by module %s", li.uid, t.module)
				continue
			case li.want == graph.Module && slices.Contains(asList(t.node.Props["paths"]), any(r.node.UID)):
				l.bad(li.at, RuleUnitMembership, "module %s is already listed by this path", li.uid)
				continue
			}
			t.refs = append(t.refs, ref{to: r.node.UID, typ: graph.PartOf, weight: float32(li.order), rule: RuleUnitMembership, at: li.at})
			p, tp := r.node.Props, t.node.Props
			p["durationInMinutes"] = p["durationInMinutes"].(float64) + tp["durationInMinutes"].(float64)
			if li.want == graph.Module {
				tp["paths"] = append(asList(tp["paths"]), r.node.UID)
				continue
			}
			t.module = r.node.UID
			tp["module"] = r.node.UID
			tp["order"] = float64(li.order)
			tp["href"] = strings.TrimSuffix(p["href"].(string), "/") + "/" + lastSegment(t.node.UID) + "/"
			for _, k := range taxonomyKeys {
				tp[k] = slices.Clone(asList(p[k]))
			}
		}
	}
}

// orphans reports units no module lists.
func (l *loader) orphans() {
	for _, r := range l.records {
		if r.node.Label == graph.Unit && r.module == "" {
			l.bad(r.at, RuleUnitMembership, "unit %s is not listed by any module", r.node.UID)
		}
	}
}

// taxonomyNodes adds a Role node per role and a Product node per product that
// paths, modules, docs, ADRs and overlay nodes name, with forRole and
// appliesTo edges from them. Units (whose taxonomy is their module's) and
// code samples (whose products are their citers') add no edges.
func (l *loader) taxonomyNodes(by map[string]*record) {
	kinds := []struct {
		key    string
		label  graph.Label
		prefix string
		edge   graph.EdgeType
	}{
		{"roles", graph.Role, "cogitave.role.", graph.ForRole},
		{"products", graph.Product, "cogitave.product.", graph.AppliesTo},
	}
	for _, r := range slices.Clone(l.records) {
		if r.node.Label == graph.Unit || r.node.Label == graph.CodeSample {
			continue
		}
		for _, k := range kinds {
			for _, name := range asList(r.node.Props[k.key]) {
				name, _ := name.(string)
				if name == "" {
					continue
				}
				uid := k.prefix + taxonomySlug(name)
				t := by[uid]
				if t == nil {
					t = l.newRecord(r.at, k.label, uid, false, r.node.LastModified)
					t.node.Source = ""
					t.node.Props = map[string]any{"title": name}
					by[uid] = t
				}
				t.touch(r.node.LastModified)
				r.refs = append(r.refs, ref{to: uid, typ: k.edge, rule: RuleBrokenXref, at: r.at})
			}
		}
	}
}

// taxonomySlug makes a role or product name a uid segment.
func taxonomySlug(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, name)
}

// checkMonikers checks every moniker range against the registry.
func (l *loader) checkMonikers() {
	for _, r := range l.records {
		for _, m := range r.monikers {
			rng, err := ParseMonikerRange(m.rng)
			if err != nil {
				l.bad(m.at, RuleSchema, "%v", err)
				continue
			}
			for _, name := range rng.unknown(l.monikers) {
				l.bad(m.at, RuleSchema, "moniker range %q names unknown moniker %s", m.rng, name)
			}
		}
	}
}

// cycles reports dependsOn edges that close a cycle.
func (l *loader) cycles(deps []ref) {
	out := map[string][]ref{}
	var order []string
	for _, d := range deps {
		if _, seen := out[d.from]; !seen {
			order = append(order, d.from)
		}
		out[d.from] = append(out[d.from], d)
	}
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var path []string
	var visit func(uid string)
	visit = func(uid string) {
		color[uid] = grey
		path = append(path, uid)
		for _, d := range out[uid] {
			switch color[d.to] {
			case grey:
				i := slices.Index(path, d.to)
				cycle := append(slices.Clone(path[i:]), d.to)
				l.bad(d.at, RuleDependencyCycle, "dependsOn %s closes a cycle: %s", d.to, strings.Join(cycle, " -> "))
			case white:
				visit(d.to)
			}
		}
		path = path[:len(path)-1]
		color[uid] = black
	}
	for _, uid := range order {
		if color[uid] == white {
			visit(uid)
		}
	}
}
