// Package cypher is the bounded, read-only graph query engine behind the
// query_graph tool: a hand-written parser for a subset of openCypher and
// an executor over an immutable *graph.Graph.
//
// # The subset
//
// A query is one or more MATCH and OPTIONAL MATCH clauses, each with
// comma-separated patterns and an optional WHERE, then RETURN:
//
//	MATCH (n:Doc {uid: $uid})-[:xref|dependsOn*1..4]->(t)
//	WHERE t.level = 'beginner' AND NOT t.uid STARTS WITH 'cogitave.learn.'
//	OPTIONAL MATCH (t)-[:forRole]->(role:Role)
//	RETURN t.uid AS uid, labels(t), collect(role.title) AS roles
//	ORDER BY uid DESC SKIP 10 LIMIT 20
//
// A WHERE filters the clause it follows; after OPTIONAL MATCH it decides
// what matches, and a row with no match keeps nulls.
//
// Node patterns are (var:Label {key: value, …}), where each part is
// optional and values are expressions (literals or $parameters, usually).
// Relationship patterns are -[var:type1|type2*range]->, <-[…]- and -[…]-
// (either direction), and the short forms -->, <-- and --. A range is
// *min..max, *..max (min 1) or *n (exactly n); max is at most MaxDepth
// (4) and a range must have one, so * and *2.. are refused. Within one
// MATCH clause a relationship is used at most once per match, as in
// Cypher; a node may repeat.
//
// Expressions: literals ('…' and "…" strings with \\ \' \" \n \t \r \b \f
// \uXXXX escapes, integers, floats, true, false, null, [lists]),
// $parameters, variables, n.key, n:Label, = <> < <= > >=, AND OR XOR NOT,
// IN, STARTS WITH, ENDS WITH, CONTAINS, IS NULL, IS NOT NULL,
// parentheses, and the functions labels(n), type(r), id(n) (the uid),
// size(x), toLower(x), toUpper(x), coalesce(…), and the aggregates
// count(*), count(x), count(DISTINCT x), collect(x) and
// collect(DISTINCT x). RETURN takes DISTINCT, AS aliases and *; ORDER BY
// takes ASC and DESC, and may name a column by its alias or by repeating
// its expression. SKIP and LIMIT take an integer or a parameter.
//
// Everything else is refused at parse time with an *Error that says what
// to send instead: writing clauses (CREATE, MERGE, SET, DELETE, DETACH,
// REMOVE, INSERT, FOREACH), CALL procedures and subqueries, LOAD CSV,
// UNWIND, WITH, UNION, schema and admin commands, path variables,
// arithmetic, list indexing, map literals, CASE and EXISTS, functions
// outside the list, labels and edge types outside the vocabulary
// (graph.LookupLabel and graph.LookupEdge), and undefined variables.
// Parameters are checked when the query runs: every one it uses must be
// passed, and the error lists the missing ones.
//
// # Names and case
//
// Keywords and function names are matched without regard to case.
// Labels are written exactly as the vocabulary spells them (:Doc, not
// :doc) and edge types likewise (dependsOn); a near miss in case is
// refused with the right spelling as the hint. Variables, property keys
// and parameter names are case-sensitive.
//
// # Semantics
//
// Values follow Cypher: comparisons with null are null, and WHERE keeps
// only rows whose condition is true; AND, OR and XOR use three-valued
// logic; integers in a query equal the float64 numbers of properties
// (1 = 1.0); comparing values of different kinds with < gives null, and
// = gives false. Functions given null return null; given a value of the
// wrong kind (toLower(5), x IN 'abc') they fail with KindType.
//
// n.uid, n.contentHash and n.lastModified (RFC 3339, UTC) come from the
// node itself; other keys from its properties. Relationships have no
// properties. When RETURN mixes aggregates and other expressions, the
// others are the grouping keys; with no grouping keys and no match, the
// aggregates still give one row (count 0, collect []).
//
// Without ORDER BY, rows come in match order, which is deterministic:
// each pattern starts from its most selective node (one given by a uid,
// through {uid: …}, n.uid = … or id(n) = …, then a uid list through
// n.uid IN …, then the smallest label, then every node in NodeID order)
// and walks edges in adjacency order. DISTINCT keeps the first
// occurrence; ORDER BY is stable, with nulls last ascending and first
// descending.
//
// # Results
//
// Result.Rows hold JSON-ready values: strings, float64 (properties),
// int64 (integer literals, count, size), bools, nil, []any and
// map[string]any. A node is
//
//	{"uid": "cogitave.learn.x", "label": "Module", "properties": {"title": "…", …}}
//
// a relationship is
//
//	{"type": "dependsOn", "from": "<uid>", "to": "<uid>"}
//
// with from and to as stored (whatever the pattern's direction), and a
// variable-length relationship variable is the list of its relationships
// in pattern order, left to right.
//
// # Visibility
//
// Options.Visible hides nodes from a run: a hidden node is never a
// candidate, never the end of a relationship and never a step of a
// variable-length one, so no row names it or anything reached only
// through it. Callers pass the caller's view of the graph here (see
// knowledge.Snapshot.Visible) rather than filtering rows afterwards,
// which would leak through counts, DISTINCT and paths.
//
// # Bounds
//
// A run is bounded by Options: a row limit (DefaultLimit 100, MaxLimit
// 1000; Truncated reports rows beyond it, while the query's own LIMIT is
// not truncation), a deadline (DefaultTimeout 250ms, with the caller's
// context) and an expansion budget (DefaultExpansionBudget, one million
// scanned nodes plus examined edges). Meeting the deadline or the budget
// is an error of KindTimeout or KindBudget naming the bound and how to
// narrow the query, never a partial result. The context is looked at
// every 1024 expansions. Parse refuses a query longer than MaxQueryLength
// (64 KiB), or with expressions nested more than 64 deep, as KindLimit.
package cypher
