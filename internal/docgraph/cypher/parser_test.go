package cypher

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// accepted are queries Parse must accept; the fuzz target seeds from them.
var accepted = []string{
	// The patterns of the spec (§3.3).
	"MATCH (n)-[:xref|dependsOn*1..4]->(t) WHERE t.uid = $target RETURN DISTINCT n.uid, n.title, labels(n)",
	"MATCH (n)-[:dependsOn*1..4]->(d) WHERE n.uid IN $affected RETURN DISTINCT d",
	"MATCH (s:Standard)-[:appliesTo]->(t {uid:'repo1'}) RETURN s",
	"MATCH (n {uid:$uid})-[:forRole]->(r) RETURN r",
	// The example of the package documentation.
	"MATCH (n:Doc {uid: $uid})-[:xref|dependsOn*1..4]->(t)\nWHERE t.level = 'beginner' AND NOT t.uid STARTS WITH 'cogitave.learn.'\nOPTIONAL MATCH (t)-[:forRole]->(role:Role)\nRETURN t.uid AS uid, labels(t), collect(role.title) AS roles\nORDER BY uid DESC SKIP 10 LIMIT 20",
	// Relationship forms and ranges.
	"MATCH (a)-->(b) RETURN a",
	"MATCH (a)<--(b) RETURN a",
	"MATCH (a)--(b) RETURN a",
	"MATCH (a)<-[r]->(b) RETURN r",
	"MATCH (a)-[*2..3]->(b) RETURN b",
	"MATCH (a)-[*..3]->(b) RETURN b",
	"MATCH (a)-[*3]->(b) RETURN b",
	"MATCH (a)-[r*0..2]-(b) RETURN r",
	"MATCH (a)-[r:xref|:dependsOn]->(b) RETURN type(r)",
	"MATCH (a:Module)<-[:partOf]-(u:Unit), (a)-[:forRole]->(r:Role) MATCH (u)-[:xref]->(x) RETURN a, u, r, x",
	"MATCH (a) OPTIONAL MATCH (a)-[:forRole]->(r) WHERE r.title = 'Developer' RETURN a, r",
	// Keywords in any case, comments, a trailing semicolon.
	"match (n:Doc) where n.uid starts with \"c\" return n order by n.uid desc skip 1 limit 2",
	"// first\nMATCH (n) /* all nodes */ RETURN n;",
	// Expressions.
	"MATCH (n) WHERE n.x IS NOT NULL AND NOT n.y IS NULL XOR n.z = 1 OR n:Doc RETURN n",
	"MATCH (n) WHERE n.level IN ['a', \"b\"] AND n.order >= 1.5 AND n.order < -2 AND n.order <> 3e2 RETURN n",
	"MATCH (n) WHERE n.title ENDS WITH 's' AND n.title CONTAINS $part AND 1 < n.order <= 2 RETURN n",
	"MATCH (n) RETURN count(*), count(DISTINCT n.level), collect(n.uid), collect(DISTINCT n.level), count(n)",
	"MATCH (n) RETURN coalesce(n.x, n.y, 'none') AS v, size(n.title), toLower(n.title), TOUPPER(n.title), id(n)",
	"MATCH (n) RETURN n.level, count(*) AS c ORDER BY c DESC, n.level",
	"MATCH (n) RETURN DISTINCT n.level ORDER BY n.level",
	"MATCH (n) RETURN n.uid AS u ORDER BY toLower(u), n.title DESC SKIP $s LIMIT $l",
	"MATCH (n) RETURN *",
	"MATCH (`my node`) RETURN `my node`.uid",
	"MATCH (` `) RETURN 1",
	"RETURN 'it\\'s \\u00e9\\n' AS s, [1, 2.5, true, null, []] AS l",
}

func TestParseAccepts(t *testing.T) {
	for _, src := range accepted {
		if _, err := Parse(src); err != nil {
			t.Errorf("%s\n  %v", src, err)
		}
	}
}

func TestParseColumnsAndParams(t *testing.T) {
	q, err := Parse("MATCH (n {uid: $uid})-[r]->(m) WHERE m.level IN $levels RETURN n.uid, m.title AS title, count(*) ORDER BY title SKIP $skip")
	if err != nil {
		t.Fatal(err)
	}
	if got := q.Columns(); !slices.Equal(got, []string{"n.uid", "title", "count(*)"}) {
		t.Errorf("columns %q", got)
	}
	if got := q.params; !slices.Equal(got, []string{"levels", "skip", "uid"}) {
		t.Errorf("params %q", got)
	}
}

// refusedQueries are queries Parse must refuse, with the kind, a part of
// the message and where.
var refusedQueries = []struct {
	src       string
	kind      Kind
	msg, hint string
	line, col int
}{
	{"CREATE (n:Doc)", KindRefused, "CREATE writes to the graph", "read-only", 1, 1},
	{"CREATE INDEX FOR (n:Doc) ON (n.uid)", KindRefused, "CREATE INDEX is a schema", "describe_schema", 1, 1},
	{"MATCH (n) SET n.x = 1 RETURN n", KindRefused, "SET writes", "MATCH … WHERE … RETURN", 1, 11},
	{"MATCH (n) WHERE n.x = 1 DELETE n", KindRefused, "DELETE writes", "read-only", 1, 25},
	{"MATCH (n) DETACH DELETE n", KindRefused, "DETACH DELETE writes", "read-only", 1, 11},
	{"MATCH (n) REMOVE n.x RETURN n", KindRefused, "REMOVE writes", "", 1, 11},
	{"MERGE (n:Doc {uid: 'x'})", KindRefused, "MERGE writes", "", 1, 1},
	{"INSERT (n:Doc)", KindRefused, "INSERT writes", "", 1, 1},
	{"CALL db.labels()", KindRefused, "procedure calls (CALL db", "describe_schema", 1, 1},
	{"MATCH (n) CALL { MATCH (m) RETURN m } RETURN n", KindRefused, "CALL { … } subqueries", "", 1, 11},
	{"LOAD CSV FROM 'file:///x' AS row RETURN row", KindRefused, "LOAD CSV", "", 1, 1},
	{"FOREACH (x IN [1] | CREATE ())", KindRefused, "FOREACH", "", 1, 1},
	{"UNWIND $uids AS u MATCH (n {uid: u}) RETURN n", KindRefused, "UNWIND is not supported", "IN $uids", 1, 1},
	{"MATCH (n) WITH n RETURN n", KindRefused, "WITH is not supported", "several MATCH", 1, 11},
	{"MATCH (n) RETURN n UNION MATCH (m) RETURN m", KindRefused, "UNION", "separately", 1, 20},
	{"DROP INDEX uid_index", KindRefused, "schema and admin", "", 1, 1},
	{"SHOW INDEXES", KindRefused, "SHOW", "describe_schema", 1, 1},
	{"EXPLAIN MATCH (n) RETURN n", KindRefused, "EXPLAIN", "", 1, 1},
	{"MATCH (n:Widget) RETURN n", KindRefused, "unknown label :Widget", "the labels are Org, Repo", 1, 10},
	{"MATCH (n:doc) RETURN n", KindRefused, "labels are case-sensitive: :doc", "write :Doc", 1, 10},
	{"MATCH (n:Doc:Module) RETURN n", KindRefused, "exactly one label", "n:Doc OR n:Article", 1, 13},
	{"MATCH (n:Doc|Module) RETURN n", KindRefused, "exactly one label", "", 1, 13},
	{"MATCH (n) WHERE n:Widget RETURN n", KindRefused, "unknown label :Widget", "", 1, 19},
	{"MATCH ()-[:likes]->() RETURN 1", KindRefused, "unknown relationship type :likes", "the types are partOf, dependsOn", 1, 12},
	{"MATCH ()-[:DEPENDSON]->() RETURN 1", KindRefused, "relationship types are case-sensitive", "write :dependsOn", 1, 12},
	{"MATCH (a)-[*]->(b) RETURN b", KindLimit, "needs an upper bound", "*1..4", 1, 12},
	{"MATCH (a)-[*1..]->(b) RETURN b", KindLimit, "needs an upper bound", "", 1, 12},
	{"MATCH (a)-[:xref*1..5]->(b) RETURN b", KindLimit, "depth 5 is over the maximum of 4", "", 1, 17},
	{"MATCH (a)-[*3..2]->(b) RETURN b", KindSyntax, "lower bound 3 is over the upper bound 2", "", 1, 12},
	{"MATCH (a)-[*1.5]->(b) RETURN b", KindSyntax, "whole numbers", "", 1, 13},
	{"MATCH (n) RETURN foo(n)", KindRefused, "unknown function foo()", "coalesce(), collect(), count()", 1, 18},
	{"MATCH (n) RETURN apoc.text.join(n)", KindRefused, "namespaced functions", "", 1, 18},
	{"MATCH (n) RETURN m", KindSyntax, "variable m is not defined", "the variables are n", 1, 18},
	{"MATCH (n) WHERE m.x = 1 RETURN n", KindSyntax, "variable m is not defined", "", 1, 17},
	{"MATCH (n)\nRETURN m.uid", KindSyntax, "variable m is not defined", "", 2, 8},
	{"MATCH (n) WHERE n.x = $x MATCH (m {uid: k}) RETURN n", KindSyntax, "variable k is not defined", "the variables are n, m", 1, 41},
	{"MATCH (n) WHERE count(*) > 1 RETURN n", KindSyntax, "only allowed in RETURN", "", 1, 17},
	{"MATCH (n) RETURN count(collect(n))", KindSyntax, "nested in another aggregate", "", 1, 24},
	{"MATCH (n) RETURN n.uid, n.uid", KindSyntax, "two columns are named n.uid", "AS", 1, 25},
	{"MATCH (n) RETURN n.level, count(*) ORDER BY n.title", KindSyntax, "ORDER BY uses n, which is not returned", "alias", 1, 45},
	{"MATCH (n) RETURN DISTINCT n.uid ORDER BY n.title", KindSyntax, "ORDER BY uses n", "", 1, 42},
	{"MATCH (n) RETURN n.uid ORDER BY count(*)", KindSyntax, "ORDER BY uses count()", "", 1, 33},
	{"MATCH (n) RETURN n.uid, size(n.title) + count(*)", KindRefused, "arithmetic (+)", "", 1, 39},
	{"MATCH (n) RETURN coalesce(n.uid, count(*))", KindSyntax, "n is used outside the aggregate", "", 1, 27},
	{"MATCH (n) WHERE (n)-->() RETURN n", KindRefused, "patterns inside expressions", "MATCH", 1, 20},
	{"MATCH p = (n)-->(m) RETURN p", KindRefused, "path variables", "-[r:dependsOn*1..4]->", 1, 7},
	{"MATCH shortestPath((a)-->(b)) RETURN a", KindRefused, "shortestPath", "", 1, 7},
	{"MATCH (n) RETURN n.tags[0]", KindRefused, "indexing", "", 1, 24},
	{"MATCH (n) RETURN -n.order", KindRefused, "negation", "", 1, 18},
	{"MATCH (n) WHERE n.x != 1 RETURN n", KindSyntax, "!= is not Cypher", "<>", 1, 21},
	{"MATCH (n) RETURN 'abc", KindSyntax, "unterminated string", "", 1, 18},
	{"MATCH (n) RETURN 'a\\qb'", KindSyntax, "unknown escape \\q", "", 1, 20},
	{"MATCH (n) /* RETURN n", KindSyntax, "unterminated comment", "", 1, 11},
	{"MATCH (n) RETURN 99999999999999999999", KindSyntax, "out of range", "", 1, 18},
	{"MATCH (n) RETURN 12abc", KindSyntax, "malformed number", "", 1, 18},
	{"MATCH (n) RETURN n#", KindSyntax, "unexpected character '#'", "", 1, 19},
	{"", KindSyntax, "empty query", "MATCH pattern", 1, 1},
	{"   ", KindSyntax, "empty query", "", 1, 1},
	{"MATCH (n)", KindSyntax, "expected MATCH, OPTIONAL MATCH, WHERE or RETURN, found the end of the query", "", 1, 10},
	{"OPTIONAL (n) RETURN n", KindSyntax, "expected MATCH after OPTIONAL", "", 1, 10},
	{"MATCH (n) RETURN n LIMIT -1", KindSyntax, "LIMIT needs a non-negative integer", "LIMIT $n", 1, 26},
	{"MATCH (n) RETURN n SKIP 'x'", KindSyntax, "SKIP needs a non-negative integer", "", 1, 25},
	{"MATCH (n) RETURN n LIMIT 1 LIMIT 2", KindSyntax, "the end of the query after RETURN", "", 1, 28},
	{"MATCH (n) RETURN count(DISTINCT *)", KindSyntax, "count(*) is not", "", 1, 33},
	{"MATCH (n) RETURN size(DISTINCT n)", KindSyntax, "size() does not take DISTINCT", "", 1, 23},
	{"MATCH (n) RETURN size(n, n)", KindSyntax, "size() takes one argument, not 2", "size(list or string)", 1, 18},
	{"MATCH (n) RETURN coalesce()", KindSyntax, "coalesce() takes at least 1 arguments, not 0", "", 1, 18},
	{"MATCH (a)-[r]->(b), (b)-[r]->(c) RETURN r", KindSyntax, "relationship variable r is already bound", "", 1, 24},
	{"MATCH (a)-[a]->(b) RETURN a", KindSyntax, "a is already a node", "", 1, 10},
	{"MATCH (a)-[r]->(b) MATCH (r) RETURN a", KindSyntax, "relationship variable r is already bound", "", 1, 26},
	{"MATCH (n)-[r {weight: 1}]->(m) RETURN n", KindRefused, "relationship property maps", "", 1, 14},
	{"MATCH (n) RETURN CASE WHEN true THEN 1 END", KindRefused, "CASE expressions", "", 1, 18},
	{"MATCH (n) WHERE EXISTS { (n)-->() } RETURN n", KindRefused, "EXISTS expressions", "", 1, 17},
	{"MATCH (n) RETURN {a: 1}", KindRefused, "map literals", "parameter", 1, 18},
	{"MATCH () RETURN *", KindSyntax, "RETURN * has no named variables", "", 1, 10},
	{"MATCH (n {uid: }) RETURN n", KindSyntax, "expected an expression, found \"}\"", "", 1, 16},
	{"MATCH (n) RETURN n.", KindSyntax, "expected a property name after the dot", "", 1, 20},
	{"MATCH (n) RETURN (1", KindSyntax, `expected ")", found the end of the query`, "", 1, 20},
	{"MATCH (n) RETURN n AS", KindSyntax, "expected a column name", "", 1, 22},
	{"MATCH (n) RETURN n ORDER n", KindSyntax, "expected BY after ORDER", "", 1, 26},
	{"MATCH (n) WHERE n IS 1 RETURN n", KindSyntax, "expected NULL", "", 1, 22},
	{"MATCH (n) WHERE n.x STARTS 'a' RETURN n", KindSyntax, "expected WITH after STARTS", "", 1, 28},
	{"MATCH (n)-[:xref]-> RETURN n", KindSyntax, `expected "("`, "", 1, 21},
	{"MATCH (n)-[:]->(m) RETURN n", KindSyntax, "expected a relationship type", "", 1, 13},
	{"MATCH (n:) RETURN n", KindSyntax, "expected a label", "", 1, 10},
	{"MATCH (n) RETURN $", KindSyntax, "$ without a parameter name", "", 1, 18},
	{"MATCH (``) RETURN 1", KindSyntax, "empty quoted name", "", 1, 8},
	{"RETURN " + strings.Repeat("(", 100) + "1" + strings.Repeat(")", 100), KindLimit, "nest more than 64 deep", "", 1, 72},
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range refusedQueries {
		_, err := Parse(tc.src)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: got %v, want an *Error", tc.src, err)
			continue
		}
		if e.Kind != tc.kind || !strings.Contains(e.Msg, tc.msg) || !strings.Contains(e.Hint, tc.hint) || e.Pos.Line != tc.line || e.Pos.Column != tc.col {
			t.Errorf("%q:\n  got  %s %d:%d %q (hint %q)\n  want %s %d:%d %q (hint %q)", tc.src, e.Kind, e.Pos.Line, e.Pos.Column, e.Msg, e.Hint, tc.kind, tc.line, tc.col, tc.msg, tc.hint)
		}
		if e.Hint == "" {
			t.Errorf("%q: no hint", tc.src)
		}
	}
}

func TestParseRefusesLongQueries(t *testing.T) {
	src := "RETURN '" + strings.Repeat("x", MaxQueryLength) + "'"
	if _, err := Parse(src); kindOf(err) != KindLimit || !strings.Contains(err.Error(), "over the maximum of 65536") {
		t.Fatalf("%v", err)
	}
}

func TestErrorText(t *testing.T) {
	_, err := Parse("MATCH (n)\nSET n.x = 1")
	want := "refused error at line 2, column 1: SET writes to the graph. query_graph is read-only: send MATCH … WHERE … RETURN"
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	if got := (&Error{Kind: KindBudget, Msg: "too much"}).Error(); got != "budget error: too much" {
		t.Fatalf("no position, no hint: %q", got)
	}
}

func TestPositionCountsCharacters(t *testing.T) {
	_, err := Parse("MATCH (é:Doc) RETURN x")
	var e *Error
	if !errors.As(err, &e) || e.Pos.Line != 1 || e.Pos.Column != 22 || e.Pos.Offset != 22 {
		t.Fatalf("%+v", err)
	}
}
