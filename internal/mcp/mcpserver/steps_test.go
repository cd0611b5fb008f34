package mcpserver_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestOnlyTheAccessStepsDecide: no handler decides access for itself, so
// none can skip or bend the decision. In the package's code, trust.Decide
// and the audit are called only by decide (and trust.Decide by
// subscribersSee, which decides what a notification may name, not a call),
// and decide only by the access steps: callTool (every tool call, which
// addTool installs),
// resourceHandler (every resource read), complete and maySubscribe. Tools
// are added to the SDK server only by addTool, and every resource handler
// is made by resourceHandler.
func TestOnlyTheAccessStepsDecide(t *testing.T) {
	allowed := map[string][]string{
		"trust.Decide":   {"decide", "subscribersSee"},
		"RecordDecision": {"decide"},
		"decide":         {"callTool", "resourceHandler", "complete", "maySubscribe"},
		"AddTool":        {"addTool"},
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := c.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				callee := sel.Sel.Name
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "trust" {
					callee = "trust." + callee
				}
				if (callee == "AddResource" || callee == "AddResourceTemplate") && len(c.Args) == 2 && !stepped(c.Args[1]) {
					t.Errorf("%s: %s adds a resource whose handler is not made by resourceHandler", fset.Position(c.Pos()), fn.Name.Name)
				}
				if callers, watched := allowed[callee]; watched {
					seen[callee] = true
					if !slices.Contains(callers, fn.Name.Name) {
						t.Errorf("%s: %s calls %s; only %v may", fset.Position(c.Pos()), fn.Name.Name, callee, callers)
					}
				}
				return true
			})
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if a, ok := n.(*ast.AssignStmt); ok && len(a.Lhs) == 1 && len(a.Rhs) == 1 {
					if sel, ok := a.Lhs[0].(*ast.SelectorExpr); ok && slices.Contains(handlerFields, sel.Sel.Name) && !stepped(a.Rhs[0]) {
						t.Errorf("%s: %s is set to a handler not made by resourceHandler", fset.Position(a.Pos()), sel.Sel.Name)
					}
				}
				return true
			})
		}
	}
	for callee := range allowed {
		if !seen[callee] {
			t.Errorf("no call of %s found: is this test still looking at the right names?", callee)
		}
	}
}

// handlerFields are the Server fields that hold a resource handler made by
// resourceHandler, for the resources added as the library changes.
var handlerFields = []string{"readMemory", "readNode"}

// stepped reports whether e is a resource handler made by resourceHandler:
// a call of it, or one of the handlerFields.
func stepped(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok {
			return id.Name == "resourceHandler"
		}
	case *ast.SelectorExpr:
		return slices.Contains(handlerFields, x.Sel.Name)
	}
	return false
}
