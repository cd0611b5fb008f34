package cypher

import (
	"fmt"
	"strings"
)

// Kind classifies an Error, so that a caller can tell a query to fix from
// a query to narrow.
type Kind string

// The kinds of Error.
const (
	// KindSyntax: the text is not a query of the subset, or it names a
	// variable, function or parameter that does not exist.
	KindSyntax Kind = "syntax"
	// KindRefused: the query is valid openCypher but asks for something
	// query_graph does not do: writing, procedures, subqueries, or labels
	// and edge types outside the vocabulary.
	KindRefused Kind = "refused"
	// KindLimit: the query or its options exceed a fixed bound (an
	// unbounded or too deep variable-length path, a row limit over
	// MaxLimit).
	KindLimit Kind = "limit"
	// KindParam: a parameter the query uses was not passed, or has a
	// value of a type a query cannot hold.
	KindParam Kind = "param"
	// KindType: an expression met a value of the wrong type while the
	// query ran (a string where a list was needed, say).
	KindType Kind = "type"
	// KindTimeout: the query ran past its deadline or its context ended.
	KindTimeout Kind = "timeout"
	// KindBudget: the query explored more edges and partial matches than
	// its expansion budget.
	KindBudget Kind = "budget"
)

// Position is a place in the query text. Line and Column count from 1;
// Column counts characters, not bytes. The zero Position means the error
// is not tied to a place.
type Position struct {
	Offset int `json:"offset"`
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Error is every error Parse and Run return.
type Error struct {
	Kind Kind `json:"kind"`
	// Pos is where in the query the problem is, when it has a place.
	Pos Position `json:"position,omitzero"`
	// Msg says what was wrong; Hint says what to send instead.
	Msg  string `json:"message"`
	Hint string `json:"hint,omitempty"`
	// Err is an underlying cause (a context error), if any.
	Err error `json:"-"`
}

// Error returns "<kind> error at line L, column C: <msg>. <hint>".
func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString(string(e.Kind))
	sb.WriteString(" error")
	if e.Pos.Line > 0 {
		fmt.Fprintf(&sb, " at line %d, column %d", e.Pos.Line, e.Pos.Column)
	}
	sb.WriteString(": ")
	sb.WriteString(e.Msg)
	if e.Hint != "" {
		sb.WriteString(". ")
		sb.WriteString(e.Hint)
	}
	return sb.String()
}

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// position converts a byte offset in src to a Position.
func position(src string, offset int) Position {
	offset = min(max(offset, 0), len(src))
	line, col := 1, 1
	for _, r := range src[:offset] {
		if r == '\n' {
			line, col = line+1, 1
			continue
		}
		col++
	}
	return Position{Offset: offset, Line: line, Column: col}
}

// errorAt returns an Error of kind at offset in src.
func errorAt(src string, kind Kind, offset int, hint, format string, args ...any) *Error {
	return &Error{Kind: kind, Pos: position(src, offset), Msg: fmt.Sprintf(format, args...), Hint: hint}
}
