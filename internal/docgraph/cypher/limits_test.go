package cypher

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph/graphgen"
)

func TestLimitAndTruncated(t *testing.T) {
	g := testGraph(t) // six services, a to f
	for _, tc := range []struct {
		src       string
		limit     int
		rows      int
		truncated bool
	}{
		{"MATCH (n:Service) RETURN n.uid", 3, 3, true},
		{"MATCH (n:Service) RETURN n.uid", 6, 6, false},
		{"MATCH (n:Service) RETURN n.uid", 0, 6, false},
		{"MATCH (n:Service) RETURN n.uid LIMIT 3", 0, 3, false},
		{"MATCH (n:Service) RETURN n.uid LIMIT 3", 3, 3, false},
		{"MATCH (n:Service) RETURN n.uid LIMIT 5", 3, 3, true},
		{"MATCH (n:Service) RETURN n.uid SKIP 2", 3, 3, true},
		{"MATCH (n:Service) RETURN n.uid SKIP 3", 3, 3, false},
		{"MATCH (n:Service) RETURN DISTINCT n.title", 5, 5, true},
		{"MATCH (n:Service) RETURN n.uid ORDER BY n.uid DESC", 3, 3, true},
		{"MATCH (n:Service) RETURN n.uid ORDER BY n.uid LIMIT 4", 4, 4, false},
		{"MATCH (n:Service) RETURN n.uid, count(*)", 2, 2, true},
	} {
		res, err := Run(t.Context(), g, tc.src, nil, Options{Limit: tc.limit})
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		if len(res.Rows) != tc.rows || res.Truncated != tc.truncated {
			t.Errorf("%s with limit %d: %d rows, truncated %v; want %d, %v", tc.src, tc.limit, len(res.Rows), res.Truncated, tc.rows, tc.truncated)
		}
	}
	res, _ := Run(t.Context(), g, "MATCH (n:Service) RETURN n.uid ORDER BY n.uid DESC", nil, Options{Limit: 2})
	if got := rowsJSON(t, res.Rows); got != `[["f"],["e"]]` {
		t.Errorf("truncation keeps the first rows in order: %s", got)
	}
}

// TestErrors checks errors found when the query runs, each an *Error of
// its kind and with no result.
func TestErrors(t *testing.T) {
	g := testGraph(t)
	for _, tc := range []struct {
		src    string
		params map[string]any
		opts   Options
		kind   Kind
		msg    string
	}{
		{"MATCH (n) RETURN n", nil, Options{Limit: 1001}, KindLimit, "limit 1001 is over the maximum of 1000"},
		{"MATCH (n) RETURN n", nil, Options{Limit: -1}, KindLimit, "negative"},
		{"MATCH (n) RETURN n", nil, Options{Timeout: -time.Second}, KindLimit, "negative timeout"},
		{"MATCH (n) RETURN n", nil, Options{ExpansionBudget: -1}, KindLimit, "negative expansion budget"},
		{"MATCH (n {uid: $uid}) WHERE n.level IN $levels RETURN n LIMIT $n", map[string]any{"levels": nil}, Options{}, KindParam, "missing parameters: $n, $uid"},
		{"MATCH (n {uid: $uid}) RETURN n", map[string]any{"uid": struct{}{}}, Options{}, KindParam, "parameter $uid is a struct {}"},
		{"MATCH (n) RETURN n LIMIT $n", map[string]any{"n": "ten"}, Options{}, KindParam, `not the string "ten"`},
		{"MATCH (n) RETURN n SKIP $n", map[string]any{"n": 1.5}, Options{}, KindParam, "not a number"},
		{"MATCH (n) WHERE n.uid IN $uids RETURN n", map[string]any{"uids": "m1"}, Options{}, KindType, `IN takes a list on its right, not the string "m1"`},
		{"MATCH (n:Module) WHERE n.level IN 'abc' RETURN n", nil, Options{}, KindType, "IN takes a list"},
		{"MATCH (n:Module) RETURN toLower(n.order)", nil, Options{}, KindType, "toLower() and toUpper() take a string, not a number"},
		{"MATCH (n:Module) RETURN size(n)", nil, Options{}, KindType, "size() takes a list or a string, not a node"},
		{"MATCH (n:Module) RETURN labels(n.title)", nil, Options{}, KindType, "labels() takes a node"},
		{"MATCH ()-[r*1..2]->() RETURN type(r)", nil, Options{}, KindType, "not a list of relationships"},
		{"MATCH ()-[r]->() RETURN id(r)", nil, Options{}, KindType, "id() takes a node"},
		{"MATCH (n:Module) WHERE n.title RETURN n", nil, Options{}, KindType, "a WHERE condition must be true, false or null"},
		{"MATCH (n:Module) WHERE n.order OR true RETURN n", nil, Options{}, KindType, "AND, OR and XOR take booleans"},
		{"MATCH (n:Module) WHERE NOT n.order RETURN n", nil, Options{}, KindType, "NOT takes a boolean"},
		{"MATCH (n:Module) RETURN n.title.x", nil, Options{}, KindType, ".x reads a property of a node or a map"},
		{"MATCH (n:Module) RETURN n.title:Doc", nil, Options{}, KindType, "a label test takes a node"},
	} {
		res, err := Run(t.Context(), g, tc.src, tc.params, tc.opts)
		var e *Error
		if !errors.As(err, &e) || e.Kind != tc.kind || !strings.Contains(e.Error(), tc.msg) {
			t.Errorf("%s: got %v (kind %q), want %s error with %q", tc.src, err, kindOf(err), tc.kind, tc.msg)
		}
		if res != nil {
			t.Errorf("%s: a result with the error", tc.src)
		}
	}
}

func TestParamsAreBoundNotSpliced(t *testing.T) {
	g := testGraph(t)
	res := run(t, g, "MATCH (n) WHERE n.uid = $uid RETURN n.uid", map[string]any{"uid": "m1' OR 1=1 //"})
	if len(res.Rows) != 0 {
		t.Fatalf("rows %v", res.Rows)
	}
	res = run(t, g, "MATCH (n) WHERE n.title = $t RETURN n.uid", map[string]any{"t": "Intro to graphs", "unused": 1})
	if got := rowsJSON(t, res.Rows); got != `[["m1"]]` {
		t.Fatalf("rows %s", got)
	}
}

// denseGraph is big enough that an unanchored depth-4 query cannot finish
// within a small budget or deadline.
func denseGraph(t testing.TB) *graph.Graph {
	t.Helper()
	g, err := graphgen.Generate(2_000, 20_000, 1)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

const explosive = "MATCH (a)-[*1..4]-(b) RETURN count(*)"

func TestBudget(t *testing.T) {
	g := denseGraph(t)
	res, err := Run(t.Context(), g, explosive, nil, Options{ExpansionBudget: 5000})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindBudget || res != nil {
		t.Fatalf("got %v, %v; want a budget error", res, err)
	}
	if !strings.Contains(e.Msg, "expansion budget of 5000") || !strings.Contains(e.Hint, "uid") {
		t.Fatalf("message %q, hint %q", e.Msg, e.Hint)
	}
	// The same query from one node fits.
	start := g.Node(0).UID
	res, err = Run(t.Context(), g, "MATCH (a {uid: $s})-[*1..2]-(b) RETURN count(*)", map[string]any{"s": start}, Options{ExpansionBudget: 100_000})
	if err != nil || res.Stats.Expanded == 0 || res.Stats.Expanded > 100_000 {
		t.Fatalf("anchored: %v, %+v", err, res)
	}
}

func TestTimeout(t *testing.T) {
	g := denseGraph(t)
	res, err := Run(t.Context(), g, explosive, nil, Options{Timeout: time.Nanosecond, ExpansionBudget: 1 << 40})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindTimeout || res != nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, %v; want a timeout error", res, err)
	}
	if !strings.Contains(e.Msg, "deadline") || e.Hint == "" {
		t.Fatalf("message %q, hint %q", e.Msg, e.Hint)
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = Run(ctx, g, explosive, nil, Options{})
	if kindOf(err) != KindTimeout || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestDeadlineDuringTheRun lets the caller's deadline pass while the
// matcher runs (a full run takes seconds), so that the periodic check,
// not the one before the start, notices.
func TestDeadlineDuringTheRun(t *testing.T) {
	g := denseGraph(t)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := Run(ctx, g, explosive, nil, Options{Timeout: time.Minute, ExpansionBudget: 1 << 40})
	if kindOf(err) != KindTimeout || res != nil {
		t.Fatalf("got %v, %v; want a timeout error", res, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("stopped %v after the start", d)
	}
}

// TestOutputIsBounded: a result's size is counted against a budget, like
// the work and the time of a run; literals and parameters are bounded too.
func TestOutputIsBounded(t *testing.T) {
	g, err := graphgen.Generate(3000, 6000, 1)
	if err != nil {
		t.Fatal(err)
	}
	lit := strings.Repeat("x", MaxLiteralBytes)
	res, err := Run(t.Context(), g, "MATCH (n) RETURN '"+lit+"' AS s", nil, Options{Limit: MaxLimit, Timeout: time.Minute})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindBudget || !strings.Contains(e.Msg, "output budget") {
		t.Fatalf("1000 rows of a 4 KiB literal: err = %v, res rows = %v", err, res != nil)
	}
	// Escapes count: 200 rows of 2,000 '<' are 2.4 MB of JSON.
	_, err = Run(t.Context(), g, "MATCH (n) RETURN $s AS s", map[string]any{"s": strings.Repeat("<", 2000)}, Options{Limit: 200})
	if !errors.As(err, &e) || e.Kind != KindBudget {
		t.Errorf("escaped text: err = %v", err)
	}
	// Whole nodes within the budget are fine; the same under a small one is not.
	if _, err := Run(t.Context(), g, "MATCH (n) RETURN n", nil, Options{Limit: 50}); err != nil {
		t.Errorf("50 nodes: %v", err)
	}
	if _, err := Run(t.Context(), g, "MATCH (n) RETURN n", nil, Options{Limit: 50, MaxOutputBytes: 2000}); !errors.As(err, &e) || e.Kind != KindBudget {
		t.Errorf("50 nodes in 2,000 bytes: err = %v", err)
	}
	// Sorting many rows is not output: only the returned rows count.
	if _, err := Run(t.Context(), g, "MATCH (n) RETURN n.uid ORDER BY n.uid LIMIT 10", nil, Options{MaxOutputBytes: 4000}); err != nil {
		t.Errorf("sorted, 10 rows returned: %v", err)
	}
	if _, err := Run(t.Context(), g, "RETURN '"+lit+"x' AS s", nil, Options{}); !errors.As(err, &e) || e.Kind != KindLimit || !strings.Contains(e.Msg, "string literal") {
		t.Errorf("a literal over the maximum: err = %v", err)
	}
	big := []any{strings.Repeat("p", MaxParamBytes/2), strings.Repeat("q", MaxParamBytes/2)}
	if _, err := Run(t.Context(), g, "MATCH (n) WHERE n.uid IN $l RETURN n.uid", map[string]any{"l": big}, Options{}); !errors.As(err, &e) || e.Kind != KindLimit || !strings.Contains(e.Msg, "parameters") {
		t.Errorf("parameters over the maximum: err = %v", err)
	}
}
