package docs

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// MonikerRange is a parsed moniker range such as ">=yuva-2.0 || namzu-1.0":
// alternatives joined by ||, each a space-separated conjunction of
// comparisons (an operator >=, <=, >, <, = and a moniker name; no operator
// means =).
type MonikerRange struct {
	alts [][]monikerCmp
}

type monikerCmp struct {
	op, name string
}

var monikerTerm = regexp.MustCompile(`^\s*(>=|<=|>|<|=)?\s*([A-Za-z0-9][A-Za-z0-9._-]*)`)

// ParseMonikerRange parses a moniker range. It checks the syntax only;
// names are checked against a registry by Includes and by Load.
func ParseMonikerRange(s string) (MonikerRange, error) {
	var r MonikerRange
	if strings.TrimSpace(s) == "" {
		return r, fmt.Errorf("moniker range is empty")
	}
	for _, alt := range strings.Split(s, "||") {
		var conj []monikerCmp
		rest := alt
		for strings.TrimSpace(rest) != "" {
			m := monikerTerm.FindStringSubmatch(rest)
			if m == nil {
				return MonikerRange{}, fmt.Errorf("moniker range %q: cannot read %q", s, strings.TrimSpace(rest))
			}
			op := m[1]
			if op == "" {
				op = "="
			}
			conj = append(conj, monikerCmp{op, m[2]})
			rest = rest[len(m[0]):]
		}
		if len(conj) == 0 {
			return MonikerRange{}, fmt.Errorf("moniker range %q: an alternative of || is empty", s)
		}
		r.alts = append(r.alts, conj)
	}
	return r, nil
}

// unknown returns the names the range mentions that the registry lacks.
func (r MonikerRange) unknown(registry []graph.Moniker) []string {
	var out []string
	for _, conj := range r.alts {
		for _, c := range conj {
			if _, ok := findMoniker(registry, c.name); !ok && !slices.Contains(out, c.name) {
				out = append(out, c.name)
			}
		}
	}
	return out
}

// Includes reports whether the moniker named name is in the range. A
// comparison holds for monikers of the same product as the one it names,
// ordered by their registry order.
func (r MonikerRange) Includes(name string, registry []graph.Moniker) bool {
	m, ok := findMoniker(registry, name)
	if !ok {
		return false
	}
	for _, conj := range r.alts {
		if allHold(conj, m, registry) {
			return true
		}
	}
	return false
}

func allHold(conj []monikerCmp, m graph.Moniker, registry []graph.Moniker) bool {
	for _, c := range conj {
		ref, ok := findMoniker(registry, c.name)
		if !ok || ref.Product != m.Product {
			return false
		}
		var holds bool
		switch c.op {
		case ">=":
			holds = m.Order >= ref.Order
		case "<=":
			holds = m.Order <= ref.Order
		case ">":
			holds = m.Order > ref.Order
		case "<":
			holds = m.Order < ref.Order
		default:
			holds = m.Name == ref.Name
		}
		if !holds {
			return false
		}
	}
	return true
}

func findMoniker(registry []graph.Moniker, name string) (graph.Moniker, bool) {
	i := slices.IndexFunc(registry, func(m graph.Moniker) bool { return m.Name == name })
	if i < 0 {
		return graph.Moniker{}, false
	}
	return registry[i], true
}

// ContentFor returns markdown as read in one product version: the body of
// each ::: moniker range="…" block is kept when the range includes
// moniker and left out otherwise, and the directive lines themselves are
// dropped. Text outside moniker blocks, and directives inside fenced code,
// are kept as written. An empty moniker returns markdown unchanged.
func ContentFor(markdown, moniker string, registry []graph.Moniker) string {
	if moniker == "" || !strings.Contains(markdown, "moniker") {
		return markdown
	}
	var out strings.Builder
	inBlock, keep, fence := false, true, ""
	for line := range strings.SplitAfterSeq(markdown, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
		case !inBlock && monikerOpen.MatchString(trimmed):
			r, err := ParseMonikerRange(monikerOpen.FindStringSubmatch(trimmed)[1])
			inBlock, keep = true, err == nil && r.Includes(moniker, registry)
			continue
		case inBlock && monikerClose.MatchString(trimmed):
			inBlock, keep = false, true
			continue
		}
		if keep {
			out.WriteString(line)
		}
	}
	return out.String()
}

// Locale is the one locale the corpus is written in.
const Locale = "en-us"

// UnknownMonikerError is a moniker that the registry does not name.
type UnknownMonikerError struct {
	Moniker string
	// Known are the registry's monikers, in its order.
	Known []string
}

func (e *UnknownMonikerError) Error() string {
	return fmt.Sprintf("unknown moniker %q; known monikers: %s", e.Moniker, strings.Join(e.Known, ", "))
}

// NotApplicableError is a node whose moniker range leaves a moniker out.
type NotApplicableError struct {
	UID, Moniker string
	// Range is the node's monikerRange as written.
	Range string
}

func (e *NotApplicableError) Error() string {
	return fmt.Sprintf("%s does not apply to %s (it applies to %s)", e.UID, e.Moniker, e.Range)
}

// AppliesTo checks that a node applies to a product version: nil when
// moniker is empty or the node has no monikerRange or its range includes
// moniker; an *UnknownMonikerError when the registry does not name
// moniker; a *NotApplicableError when the range leaves it out (a range
// that cannot be read includes nothing).
func AppliesTo(n *graph.Node, moniker string, registry []graph.Moniker) error {
	if moniker == "" {
		return nil
	}
	if _, ok := findMoniker(registry, moniker); !ok {
		known := make([]string, len(registry))
		for i, m := range registry {
			known[i] = m.Name
		}
		return &UnknownMonikerError{Moniker: moniker, Known: known}
	}
	rng := n.Str("monikerRange")
	if rng == "" {
		return nil
	}
	if r, err := ParseMonikerRange(rng); err != nil || !r.Includes(moniker, registry) {
		return &NotApplicableError{UID: n.UID, Moniker: moniker, Range: rng}
	}
	return nil
}
