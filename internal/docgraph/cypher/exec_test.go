package cypher

import (
	"encoding/json"
	"slices"
	"sync"
	"testing"
)

// execCases run against testGraph; want is the rows as compact JSON. The
// fuzz target seeds from them too.
var execCases = []struct {
	name   string
	src    string
	params map[string]any
	want   string
}{
	// Directions.
	{"out", "MATCH ({uid:'m1'})-->(x) RETURN x.uid", nil, `[["p1"],["s1"],["dev"]]`},
	{"in", "MATCH ({uid:'m1'})<--(x) RETURN x.uid", nil, `[["m2"],["u1"],["u2"],["d1"]]`},
	{"both", "MATCH ({uid:'m1'})--(x) RETURN x.uid", nil, `[["p1"],["s1"],["dev"],["m2"],["u1"],["u2"],["d1"]]`},
	{"both arrows", "MATCH ({uid:'m1'})<-[:partOf]->(x) RETURN x.uid", nil, `[["p1"],["u1"],["u2"]]`},
	{"start on the right", "MATCH (x)-[:partOf]->({uid:'m1'}) RETURN x.uid", nil, `[["u1"],["u2"]]`},
	{"relationship", "MATCH ({uid:'st1'})-[r]->(x) RETURN type(r), r, x.uid", nil,
		`[["supersededBy",{"from":"st1","to":"st2","type":"supersededBy"},"st2"],["appliesTo",{"from":"st1","to":"repo1","type":"appliesTo"},"repo1"]]`},
	{"relationship walked backwards", "MATCH ({uid:'st2'})<-[r]-(x) RETURN r.uid, r", nil, `[[null,{"from":"st1","to":"st2","type":"supersededBy"}]]`},

	// Variable length.
	{"*2..3", "MATCH ({uid:'a'})-[:dependsOn*2..3]->(x) RETURN x.uid", nil, `[["c"],["d"]]`},
	{"*..2", "MATCH ({uid:'a'})-[:dependsOn*..2]->(x) RETURN x.uid", nil, `[["b"],["c"]]`},
	{"*3", "MATCH ({uid:'a'})-[:dependsOn*3]->(x) RETURN x.uid", nil, `[["d"]]`},
	{"*0..1", "MATCH ({uid:'a'})-[r:dependsOn*0..1]->(x) RETURN x.uid, r", nil, `[["a",[]],["b",[{"from":"a","to":"b","type":"dependsOn"}]]]`},
	{"*1..4 stops at 4", "MATCH ({uid:'a'})-[:dependsOn*1..4]->(x) RETURN x.uid", nil, `[["b"],["c"],["d"],["e"]]`},
	{"path length", "MATCH ({uid:'a'})-[r:dependsOn*1..3]->(x) RETURN x.uid, size(r)", nil, `[["b",1],["c",2],["d",3]]`},
	{"path in pattern order when walked from the right", "MATCH (x)-[r:dependsOn*2]->({uid: 'c'}) RETURN x.uid, r", nil,
		`[["a",[{"from":"a","to":"b","type":"dependsOn"},{"from":"b","to":"c","type":"dependsOn"}]]]`},

	// Relationship uniqueness and joins.
	{"a relationship once per match", "MATCH ({uid:'a'})-[:dependsOn]-(b)-[:dependsOn]-(c) RETURN c.uid", nil, `[["c"]]`},
	{"a relationship once per path", "MATCH ({uid:'b'})-[:dependsOn*2]-(c) RETURN c.uid", nil, `[["d"]]`},
	{"a node may repeat", "MATCH (x)-[:partOf]->(m)<-[:partOf]-(y) WHERE x.uid = 'u1' RETURN y.uid", nil, `[["u2"]]`},
	{"patterns joined by a variable", "MATCH (m:Module)-[:partOf]->(p)<-[:partOf]-(o:Module), (m)-[:dependsOn]-(o) RETURN m.uid, o.uid", nil, `[["m1","m2"],["m2","m1"]]`},
	{"cross product", "MATCH (r:Role), (s:Skill) RETURN r.uid, s.uid", nil, `[["dev","s1"],["dev","s2"],["ops","s1"],["ops","s2"]]`},
	{"two MATCH clauses", "MATCH (m:Module) MATCH (m)-[:teachesSkill]->(s) RETURN m.uid, s.uid", nil, `[["m1","s1"],["m2","s2"]]`},

	// OPTIONAL MATCH.
	{"optional with WHERE", "MATCH (m:Module) OPTIONAL MATCH (m)<-[:partOf]-(u) WHERE u.title = 'Paths' RETURN m.uid, u.uid", nil, `[["m1",null],["m2","u3"]]`},
	{"optional with a label", "MATCH (d:Doc) OPTIONAL MATCH (d)-[:xref]->(x:Service) RETURN d.uid, x.uid", nil, `[["d1","a"],["d2",null]]`},
	{"MATCH after a null", "MATCH (d:Doc) OPTIONAL MATCH (d)-[:xref]->(x:Service) MATCH (x)-[:dependsOn]->(y) RETURN d.uid, y.uid", nil, `[["d1","b"]]`},
	{"optional alone", "OPTIONAL MATCH (n:Team) RETURN n", nil, `[[null]]`},
	{"optional relationship", "MATCH (s:Skill) OPTIONAL MATCH (s)-[r:dependsOn]->(t) RETURN s.uid, r, type(r)", nil,
		`[["s1",null,null],["s2",{"from":"s2","to":"s1","type":"dependsOn"},"dependsOn"]]`},

	// WHERE.
	{"STARTS WITH, ENDS WITH", "MATCH (n:Unit) WHERE n.title STARTS WITH 'N' OR n.title ENDS WITH 'hs' RETURN n.uid", nil, `[["u1"],["u3"]]`},
	{"CONTAINS", "MATCH (n:Module) WHERE n.title CONTAINS 'graphs' RETURN n.uid", nil, `[["m1"],["m2"]]`},
	{"IN a list", "MATCH (n:Unit) WHERE n.module IN ['m2', 'x'] RETURN n.uid", nil, `[["u3"]]`},
	{"IS NULL", "MATCH (n:Doc) WHERE n.draft IS NULL RETURN n.uid", nil, `[["d1"],["d2"]]`},
	{"IS NOT NULL", "MATCH (n) WHERE n.order IS NOT NULL RETURN n.uid", nil, `[["m1"],["m2"]]`},
	{"integer equals float", "MATCH (n:Module) WHERE n.order = 1 RETURN n.uid", nil, `[["m1"]]`},
	{"ranges", "MATCH (n:Module) WHERE n.order > 1 AND n.order <= 2.0 RETURN n.uid", nil, `[["m2"]]`},
	{"chained comparison", "MATCH (n:Module) WHERE 0 < n.order < 2 RETURN n.uid", nil, `[["m1"]]`},
	{"strings compare", "MATCH (n:Role) WHERE n.title < 'E' RETURN n.uid", nil, `[["dev"]]`},
	{"NOT", "MATCH (n:Module) WHERE NOT n.level = 'beginner' RETURN n.uid", nil, `[["m2"]]`},
	{"XOR", "MATCH (n:Module) WHERE n.level = 'beginner' XOR n.order >= 1 RETURN n.uid", nil, `[["m2"]]`},
	{"= null is null", "MATCH (n:Module) WHERE n.missing = null RETURN n.uid", nil, `[]`},
	{"<> null is null", "MATCH (n:Module) WHERE n.missing <> 'x' RETURN n.uid", nil, `[]`},
	{"NOT null is null", "MATCH (n:Module) WHERE NOT n.missing = 'x' RETURN n.uid", nil, `[]`},
	{"null OR true", "MATCH (n:Module) WHERE n.missing = 'x' OR true RETURN n.uid", nil, `[["m1"],["m2"]]`},
	{"null AND false", "MATCH (n:Module) WHERE NOT (n.missing = 'x' AND false) RETURN n.uid", nil, `[["m1"],["m2"]]`},
	{"IN with nulls", "RETURN null IN [] AS a, null IN [1] AS b, 1 IN [null, 1] AS c, 2 IN [null, 1] AS d, 1 IN null AS e", nil, `[[false,null,true,null,null]]`},
	{"mixed kinds", "RETURN 1 = '1', 1 < 'a', [1, 2] = [1, 2.0], [1, null] = [1, 2], [1, null] = [2, 2], 'a' STARTS WITH 1", nil, `[[false,null,true,null,false,null]]`},
	{"label test", "MATCH (n) WHERE n:Skill OR n:Role RETURN n.uid", nil, `[["s1"],["s2"],["dev"],["ops"]]`},
	{"parameters", "MATCH (n:Unit) WHERE n.module = $m AND n.title IN $titles RETURN n.uid", map[string]any{"m": "m1", "titles": []string{"Edges"}}, `[["u2"]]`},
	{"an int parameter", "MATCH (n:Module) WHERE n.order = $o RETURN n.uid", map[string]any{"o": 2}, `[["m2"]]`},
	{"uid list with duplicates", "MATCH (n) WHERE n.uid IN $uids RETURN n.uid", map[string]any{"uids": []any{"b", "a", "b", 7, "nope"}}, `[["a"],["b"]]`},
	{"id() equality", "MATCH (n) WHERE id(n) = 'dev' RETURN labels(n)", nil, `[[["Role"]]]`},

	// Functions.
	{"functions", "MATCH (n {uid:'d1'}) RETURN labels(n), id(n), size(n.title), toLower(n.title), toUpper(n.level), coalesce(n.missing, n.level), size(n.tags), n.lastModified, size(n.contentHash)", nil,
		`[[["Doc"],"d1",15,"graph reference","ADVANCED","advanced",2,"2026-03-01T12:00:00Z",64]]`},
	{"functions of null", "MATCH (n {uid:'d2'}) RETURN toLower(n.missing), size(n.missing), labels(null), coalesce(n.missing, null), n.lastModified, type(null), id(null)", nil,
		`[[null,null,null,null,null,null,null]]`},

	// Aggregation.
	{"group", "MATCH (m:Module)<-[:partOf]-(u) RETURN m.uid, count(*) AS units, collect(u.uid) ORDER BY units DESC", nil, `[["m1",2,["u1","u2"]],["m2",1,["u3"]]]`},
	{"aggregates", "MATCH (n) RETURN count(*), count(n.level), count(DISTINCT n.level), collect(DISTINCT n.level)", nil, `[[21,5,2,["beginner","advanced"]]]`},
	{"aggregates of nothing", "MATCH (n:Team) RETURN count(*), collect(n)", nil, `[[0,[]]]`},
	{"groups of nothing", "MATCH (n:Team) RETURN n.uid, count(*)", nil, `[]`},
	{"aggregate inside a function", "MATCH (n:Unit) RETURN size(collect(n.uid)) AS c", nil, `[[3]]`},
	{"DISTINCT over groups", "MATCH (m:Module)-[:forRole]->(r) RETURN DISTINCT count(*) AS c", nil, `[[2]]`},
	{"group by a node", "MATCH (u:Unit)-[:partOf]->(m) RETURN id(m), count(u)", nil, `[["m1",2],["m2",1]]`},

	// DISTINCT, ORDER BY, SKIP, LIMIT.
	{"DISTINCT keeps the first", "MATCH (n)-[:partOf]->(m) RETURN DISTINCT m.uid", nil, `[["p1"],["m1"],["m2"]]`},
	{"ORDER BY DESC", "MATCH (n:Module) RETURN n.uid ORDER BY n.order DESC", nil, `[["m2"],["m1"]]`},
	{"nulls first descending", "MATCH (n) WHERE n:Doc OR n:Module RETURN n.uid ORDER BY n.lastModified DESC, n.uid", nil, `[["d2"],["m1"],["m2"],["d1"]]`},
	{"nulls last ascending", "MATCH (n) WHERE n:Doc OR n:Module RETURN n.uid ORDER BY n.lastModified, n.uid DESC", nil, `[["d1"],["m2"],["m1"],["d2"]]`},
	{"ORDER BY an alias", "MATCH (n:Role) RETURN n.title AS t ORDER BY t DESC", nil, `[["Operator"],["Developer"]]`},
	{"ORDER BY what is not returned", "MATCH (n:Unit) RETURN n.uid ORDER BY n.title", nil, `[["u2"],["u1"],["u3"]]`},
	{"ORDER BY over an alias", "MATCH (n:Role) RETURN n.title AS t ORDER BY toLower(t)", nil, `[["Developer"],["Operator"]]`},
	{"DISTINCT then ORDER BY", "MATCH (n)-[:partOf]->(m) RETURN DISTINCT m.uid ORDER BY m.uid DESC", nil, `[["p1"],["m2"],["m1"]]`},
	{"SKIP and LIMIT", "MATCH (n:Service) RETURN n.uid SKIP 1 LIMIT 2", nil, `[["b"],["c"]]`},
	{"SKIP and LIMIT parameters", "MATCH (n:Service) RETURN n.uid SKIP $s LIMIT $l", map[string]any{"s": 4, "l": 10.0}, `[["e"],["f"]]`},
	{"SKIP past the end", "MATCH (n:Service) RETURN n.uid ORDER BY n.uid SKIP 10", nil, `[]`},
	{"ORDER BY, SKIP, LIMIT", "MATCH (n:Service) RETURN n.uid ORDER BY n.uid DESC SKIP 1 LIMIT 2", nil, `[["e"],["d"]]`},
	{"LIMIT 0", "MATCH (n:Service) RETURN n.uid LIMIT 0", nil, `[]`},
	{"RETURN *", "MATCH (a {uid:'a'})-[r]->(b) RETURN *", nil,
		`[[{"label":"Service","properties":{"title":"Service a"},"uid":"a"},{"from":"a","to":"b","type":"dependsOn"},{"label":"Service","properties":{"title":"Service b"},"uid":"b"}]]`},
	{"no MATCH", "RETURN 1 AS one, 'x', [1, 'a'] AS l, 2.5, -3, true", nil, `[[1,"x",[1,"a"],2.5,-3,true]]`},
}

func TestExecute(t *testing.T) {
	g := testGraph(t)
	for _, tc := range execCases {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, g, tc.src, tc.params)
			if got := rowsJSON(t, res.Rows); got != tc.want {
				t.Fatalf("%s\n  got  %s\n  want %s", tc.src, got, tc.want)
			}
			if res.Truncated {
				t.Fatal("truncated")
			}
		})
	}
}

func TestColumns(t *testing.T) {
	g := testGraph(t)
	res := run(t, g, "MATCH (a {uid:'a'})-[r]->(b) RETURN *", nil)
	if !slices.Equal(res.Columns, []string{"a", "r", "b"}) {
		t.Fatalf("RETURN * columns %q", res.Columns)
	}
	res = run(t, g, "MATCH (n:Role) RETURN n.uid, toLower( n.title ) AS t, count(*)", nil)
	if !slices.Equal(res.Columns, []string{"n.uid", "t", "count(*)"}) {
		t.Fatalf("columns %q", res.Columns)
	}
}

// TestSpecExamples runs the four queries of the spec (§3.3) as written.
func TestSpecExamples(t *testing.T) {
	g := testGraph(t)
	for _, tc := range []struct {
		src    string
		params map[string]any
		want   string
	}{
		{"MATCH (n)-[:xref|dependsOn*1..4]->(t) WHERE t.uid = $target RETURN DISTINCT n.uid, n.title, labels(n)",
			map[string]any{"target": "m1"},
			`[["m2","Advanced graphs",["Module"]],["d1","Graph reference",["Doc"]],["d2","Getting started",["Doc"]]]`},
		{"MATCH (n)-[:dependsOn*1..4]->(d) WHERE n.uid IN $affected RETURN DISTINCT d",
			map[string]any{"affected": []any{"m2", "c"}},
			`[[{"label":"Module","properties":{"level":"beginner","order":1,"products":["core"],"title":"Intro to graphs"},"uid":"m1"}],` +
				`[{"label":"Service","properties":{"title":"Service d"},"uid":"d"}],` +
				`[{"label":"Service","properties":{"title":"Service e"},"uid":"e"}],` +
				`[{"label":"Service","properties":{"title":"Service f"},"uid":"f"}]]`},
		{"MATCH (s:Standard)-[:appliesTo]->(t {uid:'repo1'}) RETURN s", nil,
			`[[{"label":"Standard","properties":{"title":"Old naming"},"uid":"st1"}],[{"label":"Standard","properties":{"title":"Naming"},"uid":"st2"}]]`},
		{"MATCH (n {uid:$uid})-[:forRole]->(r) RETURN r", map[string]any{"uid": "p1"},
			`[[{"label":"Role","properties":{"title":"Developer"},"uid":"dev"}]]`},
	} {
		res := run(t, g, tc.src, tc.params)
		if got := rowsJSON(t, res.Rows); got != tc.want {
			t.Errorf("%s\n  got  %s\n  want %s", tc.src, got, tc.want)
		}
	}
}

// TestStartsFromTheUid checks that a uid equality makes the start: the
// first spec query reads a handful of edges, not the whole graph.
func TestStartsFromTheUid(t *testing.T) {
	g := testGraph(t)
	for _, src := range []string{
		"MATCH (n)-[:xref|dependsOn*1..4]->(t) WHERE t.uid = $target RETURN n.uid",
		"MATCH (n)-[:xref|dependsOn*1..4]->(t {uid: $target}) RETURN n.uid",
		"MATCH (n)-[:xref|dependsOn*1..4]->(t) WHERE $target = id(t) RETURN n.uid",
	} {
		res := run(t, g, src, map[string]any{"target": "m1"})
		if res.Stats.Expanded > 10 {
			t.Errorf("%s: %d expansions", src, res.Stats.Expanded)
		}
	}
}

func TestResultRowsAreNeverNil(t *testing.T) {
	res := run(t, testGraph(t), "MATCH (n:Team) RETURN n", nil)
	if res.Rows == nil || len(res.Rows) != 0 {
		t.Fatalf("rows %#v", res.Rows)
	}
}

func TestQueryIsSafeForConcurrentUse(t *testing.T) {
	g := testGraph(t)
	q, err := Parse("MATCH (n)-[:xref|dependsOn*1..4]->(t) WHERE t.uid = $target RETURN DISTINCT n.uid ORDER BY n.uid")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"m1": `[["d1"],["d2"],["m2"]]`, "c": `[["a"],["b"],["d1"],["d2"]]`}
	var wg sync.WaitGroup
	for i := range 8 {
		target := []string{"m1", "c"}[i%2]
		wg.Go(func() {
			res, err := q.Run(t.Context(), g, map[string]any{"target": target}, Options{})
			if err != nil {
				t.Error(err)
				return
			}
			if got, _ := json.Marshal(res.Rows); string(got) != want[target] {
				t.Errorf("%s: %s", target, got)
			}
		})
	}
	wg.Wait()
}
