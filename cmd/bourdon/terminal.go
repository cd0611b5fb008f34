package main

import (
	"os"

	"github.com/mattn/go-isatty"
)

// isTerminal reports whether stream (os.Stdin, os.Stderr, ...) is an
// interactive terminal, not merely a character device such as /dev/null.
func isTerminal(stream any) bool {
	f, ok := stream.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
