package cypher

import "strings"

// refusal explains why a clause keyword is outside the read-only subset
// and what to send instead.
type refusal struct{ msg, hint string }

const readOnlyHint = "query_graph is read-only: send MATCH … WHERE … RETURN"

// refusals maps the clause keywords of openCypher, GQL and their admin
// languages that the subset does not have, in upper case.
var refusals = map[string]refusal{
	"CREATE":    {"CREATE writes to the graph", readOnlyHint},
	"MERGE":     {"MERGE writes to the graph", readOnlyHint},
	"SET":       {"SET writes to the graph", readOnlyHint},
	"DELETE":    {"DELETE writes to the graph", readOnlyHint},
	"DETACH":    {"DETACH DELETE writes to the graph", readOnlyHint},
	"REMOVE":    {"REMOVE writes to the graph", readOnlyHint},
	"INSERT":    {"INSERT writes to the graph", readOnlyHint},
	"FINISH":    {"FINISH is not supported", "end the query with RETURN"},
	"CALL":      {"procedure calls and CALL { … } subqueries are not supported", "describe_schema lists the labels, edge types and properties; write the pattern itself in MATCH"},
	"LOAD":      {"LOAD CSV reads outside the graph", readOnlyHint},
	"FOREACH":   {"FOREACH is not supported", readOnlyHint},
	"UNWIND":    {"UNWIND is not supported", "pass the list as a parameter and filter with IN, as in MATCH (n) WHERE n.uid IN $uids RETURN n"},
	"WITH":      {"WITH is not supported", "chain patterns with several MATCH clauses, filter with WHERE and aggregate in RETURN"},
	"UNION":     {"UNION is not supported", "send each query separately"},
	"USE":       {"USE is not supported", "there is one graph; leave USE out"},
	"DROP":      {"schema and admin commands are not supported", "describe_schema shows the schema; query_graph only reads"},
	"ALTER":     {"schema and admin commands are not supported", "describe_schema shows the schema; query_graph only reads"},
	"GRANT":     {"schema and admin commands are not supported", "query_graph only reads"},
	"DENY":      {"schema and admin commands are not supported", "query_graph only reads"},
	"REVOKE":    {"schema and admin commands are not supported", "query_graph only reads"},
	"SHOW":      {"SHOW commands are not supported", "describe_schema lists the labels, edge types and properties"},
	"START":     {"admin commands are not supported", "query_graph only reads"},
	"STOP":      {"admin commands are not supported", "query_graph only reads"},
	"TERMINATE": {"admin commands are not supported", "query_graph only reads"},
	"EXPLAIN":   {"EXPLAIN is not supported", "send the query itself"},
	"PROFILE":   {"PROFILE is not supported", "send the query itself"},
}

// ddlWords follow CREATE in a schema command (CREATE INDEX …).
var ddlWords = []string{"INDEX", "CONSTRAINT", "DATABASE", "ALIAS", "USER", "ROLE", "GRAPH", "COMPOSITE", "RANGE", "TEXT", "POINT", "LOOKUP", "FULLTEXT", "VECTOR", "BTREE", "OR"}

// refusedAt returns the refusal for the keyword at toks[i], if it is
// one, looking at the next token to tell CREATE INDEX from CREATE and
// CALL { from CALL proc().
func refusedAt(toks []token, i int) (refusal, bool) {
	t := toks[i]
	if t.kind != tIdent || t.quoted {
		return refusal{}, false
	}
	kw := strings.ToUpper(t.text)
	r, ok := refusals[kw]
	if !ok {
		return refusal{}, false
	}
	next := toks[min(i+1, len(toks)-1)]
	switch {
	case kw == "CREATE" && next.kind == tIdent && containsFold(ddlWords, next.text):
		return refusal{"CREATE " + strings.ToUpper(next.text) + " is a schema or admin command, and those are not supported", "describe_schema shows the schema; query_graph only reads"}, true
	case kw == "CALL" && next.is("{"):
		return refusal{"CALL { … } subqueries are not supported", "write the patterns in MATCH clauses and filter with WHERE"}, true
	case kw == "CALL":
		return refusal{"procedure calls (CALL " + next.text + " …) are not supported", r.hint}, true
	}
	return r, true
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
