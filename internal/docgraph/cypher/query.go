package cypher

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// The bounds of a run.
const (
	// DefaultLimit is the row limit when Options.Limit is zero.
	DefaultLimit = 100
	// MaxLimit is the largest Options.Limit.
	MaxLimit = 1000
	// DefaultTimeout is the deadline when Options.Timeout is zero.
	DefaultTimeout = 250 * time.Millisecond
	// DefaultExpansionBudget is the budget when Options.ExpansionBudget
	// is zero. A bare walk costs some 40ns an expansion, so the budget is
	// about 40ms of work; conditions and columns that read the properties
	// of every node reached cost up to ten times as much on a graph of
	// 100,000 nodes, and such a query may meet the deadline first.
	DefaultExpansionBudget = 1_000_000
	// MaxQueryLength is the longest query text Parse accepts, in bytes.
	MaxQueryLength = 64 << 10
	// MaxLiteralBytes is the longest string literal a query may hold.
	MaxLiteralBytes = 4 << 10
	// MaxParamBytes bounds the parameters of a run, all together, in the
	// bytes of their values.
	MaxParamBytes = 64 << 10
	// DefaultMaxOutputBytes is the output budget when
	// Options.MaxOutputBytes is zero: about the size of the result's
	// JSON. A single row of full nodes is a few KiB.
	DefaultMaxOutputBytes = 1 << 20
)

// Options bound one run of a query. The zero Options means the defaults.
type Options struct {
	// Limit is the most rows returned: DefaultLimit when zero, at most
	// MaxLimit. When the query has more rows, the first Limit are
	// returned and Result.Truncated is set.
	Limit int
	// Timeout bounds the run's wall-clock time: DefaultTimeout when zero.
	Timeout time.Duration
	// ExpansionBudget bounds the run's work: the candidate nodes it scans
	// plus the edges it examines while matching, whatever their type.
	// DefaultExpansionBudget when zero.
	ExpansionBudget int
	// MaxOutputBytes bounds the size of the result (the rows it keeps
	// while running, and the JSON it returns): DefaultMaxOutputBytes when
	// zero. Going over it is an error of KindBudget, never a silently
	// shortened result.
	MaxOutputBytes int
	// Visible, when set, hides the nodes for which it returns false: the
	// query never matches them, never walks through them and never
	// returns them, as if they and their edges were not in the graph.
	// Scanning them and examining their edges count against the budget,
	// but not in Stats.Expanded. Nil means every node is visible.
	Visible func(graph.NodeID) bool
}

// Result is the outcome of a run.
type Result struct {
	// Columns are the names of the RETURN items: their aliases, or else
	// their text as written.
	Columns []string `json:"columns"`
	// Rows hold JSON-ready values (see the package documentation), never
	// nil.
	Rows [][]any `json:"rows"`
	// Truncated is set when the query had more rows than Options.Limit
	// (after its own SKIP and LIMIT); Rows then holds the first Limit.
	Truncated bool  `json:"truncated"`
	Stats     Stats `json:"stats"`
}

// Stats describe a run's cost.
type Stats struct {
	// Expanded counts the candidate nodes scanned and edges examined,
	// leaving out those that met a node Options.Visible hides.
	Expanded int `json:"expanded"`
	// Elapsed is the run's wall-clock time.
	Elapsed time.Duration `json:"elapsedNs"`
}

// Query is a parsed and checked query. It does not depend on a graph, and
// it is safe for concurrent use.
type Query struct {
	src     string
	ast     *query
	kinds   []varKind // by slot
	params  []string
	aggs    []*callExpr
	columns []string
}

// Parse parses and checks a query. Every error is an *Error.
func Parse(src string) (*Query, error) {
	if len(src) > MaxQueryLength {
		return nil, &Error{Kind: KindLimit, Msg: fmt.Sprintf("the query is %d bytes, over the maximum of %d", len(src), MaxQueryLength), Hint: "send a shorter query, with long lists passed as parameters"}
	}
	ast, err := parse(src)
	if err != nil {
		return nil, err
	}
	c := &checker{src: src, scope: map[string]*variable{}, params: map[string]struct{}{}}
	if err := c.query(ast); err != nil {
		return nil, err
	}
	q := &Query{src: src, ast: ast, kinds: c.kinds, aggs: c.aggs}
	q.params = slices.Sorted(maps.Keys(c.params))
	for _, it := range ast.ret.items {
		q.columns = append(q.columns, it.name)
	}
	return q, nil
}

// Columns returns the names of the result's columns.
func (q *Query) Columns() []string { return slices.Clone(q.columns) }

// Run parses src and runs it; see Query.Run.
func Run(ctx context.Context, g *graph.Graph, src string, params map[string]any, opts Options) (*Result, error) {
	q, err := Parse(src)
	if err != nil {
		return nil, err
	}
	return q.Run(ctx, g, params, opts)
}

const narrowHint = "narrow the query: start from a node given by uid, as in (n {uid: $uid}), add labels, name fewer relationship types, lower the maximum depth, or add a LIMIT"

// outputError reports a result over its output budget.
func outputError(budget int) error {
	return &Error{Kind: KindBudget,
		Msg:  fmt.Sprintf("the result would be more than its output budget of %d bytes", budget),
		Hint: "return fewer or smaller columns (a uid or a title instead of whole nodes, no long text), add a LIMIT, or page with SKIP"}
}

func budgetMsg(budget int) string {
	return fmt.Sprintf("the query needed more than its expansion budget of %d scanned nodes and examined edges", budget)
}

// timeoutError reports the end of a run's context.
func timeoutError(err error, expanded int) error {
	msg := fmt.Sprintf("the query ran past its deadline after %d expansions", expanded)
	if errors.Is(err, context.Canceled) {
		msg = fmt.Sprintf("the query was cancelled after %d expansions", expanded)
	}
	return &Error{Kind: KindTimeout, Msg: msg, Hint: narrowHint, Err: err}
}

// Run runs the query over g with the parameters, which are bound by name
// and never spliced into the text. Parameters the query does not use are
// ignored. Every error is an *Error; a run that errs returns no result,
// never a partial one.
func (q *Query) Run(ctx context.Context, g *graph.Graph, params map[string]any, opts Options) (*Result, error) {
	start := time.Now()
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	bound, err := q.bind(params)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	x := &executor{
		ctx: ctx, src: q.src, g: g, params: bound,
		plans:   planQuery(g, q.ast.clauses),
		env:     make([]binding, len(q.kinds)),
		used:    make([]edgeRef, 0, 64),
		bases:   make([]int, len(q.ast.clauses)),
		hits:    make([]int, len(q.ast.clauses)),
		budget:  opts.ExpansionBudget,
		output:  opts.MaxOutputBytes,
		visible: opts.Visible,
	}
	skip, err := q.count(x, q.ast.ret.skip, 0)
	if err != nil {
		return nil, err
	}
	queryLimit, err := q.count(x, q.ast.ret.limit, -1)
	if err != nil {
		return nil, err
	}
	need := opts.Limit + 1
	if queryLimit >= 0 && queryLimit <= opts.Limit {
		need = queryLimit
	}
	x.proj = newProjector(q.ast.ret, q.aggs, skip, need)
	if err := x.alive(); err != nil {
		return nil, err
	}
	if need > 0 {
		if err := x.match(0); err != nil && !errors.Is(err, errStop) {
			return nil, err
		}
	}
	rows, truncated, err := x.proj.finish(x, opts.Limit, queryLimit)
	if err != nil {
		return nil, err
	}
	return &Result{
		Columns:   q.Columns(),
		Rows:      rows,
		Truncated: truncated,
		Stats:     Stats{Expanded: x.shown(), Elapsed: time.Since(start)},
	}, nil
}

func (o Options) withDefaults() (Options, error) {
	switch {
	case o.Limit < 0:
		return o, &Error{Kind: KindLimit, Msg: fmt.Sprintf("limit %d is negative", o.Limit), Hint: fmt.Sprintf("ask for 1 to %d rows, or leave the limit out for %d", MaxLimit, DefaultLimit)}
	case o.Limit > MaxLimit:
		return o, &Error{Kind: KindLimit, Msg: fmt.Sprintf("limit %d is over the maximum of %d", o.Limit, MaxLimit), Hint: fmt.Sprintf("ask for at most %d rows and page with SKIP", MaxLimit)}
	case o.Timeout < 0:
		return o, &Error{Kind: KindLimit, Msg: "negative timeout"}
	case o.ExpansionBudget < 0:
		return o, &Error{Kind: KindLimit, Msg: "negative expansion budget"}
	case o.MaxOutputBytes < 0:
		return o, &Error{Kind: KindLimit, Msg: "negative output budget"}
	}
	if o.MaxOutputBytes == 0 {
		o.MaxOutputBytes = DefaultMaxOutputBytes
	}
	if o.Limit == 0 {
		o.Limit = DefaultLimit
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.ExpansionBudget == 0 {
		o.ExpansionBudget = DefaultExpansionBudget
	}
	return o, nil
}

// bind checks that every parameter the query uses was passed, and
// normalises their values.
func (q *Query) bind(params map[string]any) (map[string]any, error) {
	var missing []string
	bound := make(map[string]any, len(q.params))
	size := 0
	for _, name := range q.params {
		v, ok := params[name]
		if !ok {
			missing = append(missing, "$"+name)
			continue
		}
		n, ok := normalize(v)
		if !ok {
			return nil, &Error{Kind: KindParam, Msg: fmt.Sprintf("parameter $%s is a %T, which a query cannot hold", name, v), Hint: "pass strings, numbers, booleans, null, and lists and maps of them"}
		}
		if size += jsonSize(n); size > MaxParamBytes {
			return nil, &Error{Kind: KindLimit, Msg: fmt.Sprintf("the parameters are more than %d bytes", MaxParamBytes), Hint: "pass fewer or shorter values; match on uids rather than long text"}
		}
		bound[name] = n
	}
	if len(missing) > 0 {
		return nil, &Error{Kind: KindParam, Msg: "missing parameters: " + strings.Join(missing, ", "), Hint: "pass each in params, by name without the $; values are bound, never spliced into the query"}
	}
	return bound, nil
}

// count evaluates SKIP or LIMIT: absent gives def, otherwise it must be
// a non-negative whole number.
func (q *Query) count(x *executor, e expr, def int) (int, error) {
	if e == nil {
		return def, nil
	}
	v, err := x.eval(e)
	if err != nil {
		return 0, err
	}
	switch n := v.(type) {
	case int64:
		if n >= 0 {
			return int(min(n, math.MaxInt32)), nil
		}
	case float64:
		if n >= 0 && n == math.Trunc(n) {
			return int(min(n, math.MaxInt32)), nil
		}
	}
	return 0, errorAt(q.src, KindParam, e.position(), "pass a whole number, 0 or more", "SKIP and LIMIT take a non-negative integer, not %s", describeValue(v))
}
