package setup

import (
	"fmt"
	"strings"
)

// shellJoin joins a command line for a POSIX shell (Claude Code runs hook
// commands through one, Git Bash on Windows): arguments made only of safe
// characters stay bare, others are single-quoted. Backslashes are not
// safe, so Windows paths keep theirs.
func shellJoin(args ...string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = shellQuote(a)
	}
	return strings.Join(out, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// tomlString writes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlStrings writes a TOML array of basic strings on one line.
func tomlStrings(items []string) string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = tomlString(s)
	}
	return "[" + strings.Join(out, ", ") + "]"
}
