package cypher

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// function is one function of the subset. Names are matched without
// regard to case, as in Cypher.
type function struct {
	name      string
	signature string
	minArgs   int
	maxArgs   int // -1: any number
	aggregate bool
	// eval computes a scalar function from its evaluated arguments; it is
	// nil for the aggregates, which project.go computes.
	eval func(x *executor, pos int, args []any) (any, error)
}

// arity describes how many arguments fn takes, for messages.
func (fn *function) arity() string {
	switch {
	case fn.maxArgs < 0:
		return fmt.Sprintf("at least %d arguments", fn.minArgs)
	case fn.minArgs == fn.maxArgs && fn.minArgs == 1:
		return "one argument"
	case fn.minArgs == fn.maxArgs:
		return fmt.Sprintf("%d arguments", fn.minArgs)
	}
	return fmt.Sprintf("%d to %d arguments", fn.minArgs, fn.maxArgs)
}

// functions is keyed by the lower-case name.
var functions = map[string]*function{
	"labels":   {name: "labels", signature: "labels(node)", minArgs: 1, maxArgs: 1, eval: fnLabels},
	"type":     {name: "type", signature: "type(relationship)", minArgs: 1, maxArgs: 1, eval: fnType},
	"id":       {name: "id", signature: "id(node), which is its uid", minArgs: 1, maxArgs: 1, eval: fnID},
	"size":     {name: "size", signature: "size(list or string)", minArgs: 1, maxArgs: 1, eval: fnSize},
	"tolower":  {name: "toLower", signature: "toLower(string)", minArgs: 1, maxArgs: 1, eval: fnCase(strings.ToLower)},
	"toupper":  {name: "toUpper", signature: "toUpper(string)", minArgs: 1, maxArgs: 1, eval: fnCase(strings.ToUpper)},
	"coalesce": {name: "coalesce", signature: "coalesce(x, y, …)", minArgs: 1, maxArgs: -1, eval: fnCoalesce},
	"count":    {name: "count", signature: "count(*), count(x) or count(DISTINCT x)", minArgs: 1, maxArgs: 1, aggregate: true},
	"collect":  {name: "collect", signature: "collect(x) or collect(DISTINCT x)", minArgs: 1, maxArgs: 1, aggregate: true},
}

// functionList names the functions for hints.
func functionList() string {
	var names []string
	for _, fn := range functions {
		names = append(names, fn.name+"()")
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func fnLabels(x *executor, pos int, args []any) (any, error) {
	switch v := args[0].(type) {
	case nil:
		return nil, nil
	case nodeVal:
		return []any{string(x.g.Node(graph.NodeID(v)).Label)}, nil
	}
	return nil, x.typeError(pos, "labels() takes a node", args[0])
}

func fnType(x *executor, pos int, args []any) (any, error) {
	switch v := args[0].(type) {
	case nil:
		return nil, nil
	case edgeRef:
		return string(v.typ), nil
	}
	return nil, x.typeError(pos, "type() takes a single relationship; for a variable-length one, return the list", args[0])
}

func fnID(x *executor, pos int, args []any) (any, error) {
	switch v := args[0].(type) {
	case nil:
		return nil, nil
	case nodeVal:
		return x.g.Node(graph.NodeID(v)).UID, nil
	}
	return nil, x.typeError(pos, "id() takes a node and gives its uid", args[0])
}

func fnSize(x *executor, pos int, args []any) (any, error) {
	switch v := args[0].(type) {
	case nil:
		return nil, nil
	case string:
		return int64(utf8.RuneCountInString(v)), nil
	case []any:
		return int64(len(v)), nil
	}
	return nil, x.typeError(pos, "size() takes a list or a string", args[0])
}

func fnCase(f func(string) string) func(*executor, int, []any) (any, error) {
	return func(x *executor, pos int, args []any) (any, error) {
		switch v := args[0].(type) {
		case nil:
			return nil, nil
		case string:
			return f(v), nil
		}
		return nil, x.typeError(pos, "toLower() and toUpper() take a string", args[0])
	}
}

func fnCoalesce(_ *executor, _ int, args []any) (any, error) {
	for _, a := range args {
		if a != nil {
			return a, nil
		}
	}
	return nil, nil
}
