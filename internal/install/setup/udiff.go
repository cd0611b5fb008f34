package setup

import (
	"fmt"
	"strings"
)

// unifiedDiff returns the unified diff (3 lines of context) that turns
// before into after, with the headers naming the file. A nil before is a
// file being created, a nil after one being removed. Equal contents give
// "".
func unifiedDiff(path string, before, after []byte) string {
	if string(before) == string(after) && (before == nil) == (after == nil) {
		return ""
	}
	from, to := path, path
	if before == nil {
		from = "/dev/null"
	}
	if after == nil {
		to = "/dev/null"
	}
	a, b := splitLines(string(before)), splitLines(string(after))
	ops := diffLines(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
	const context = 3
	// Group the edit script into hunks: runs of changes with up to
	// 2*context equal lines between them.
	i := 0
	for i < len(ops) {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-context, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(end+context, len(ops))
				break
			}
			end = run
		}
		writeHunk(&out, ops[start:end])
		i = end
	}
	return out.String()
}

// writeHunk writes one hunk with its @@ header.
func writeHunk(out *strings.Builder, ops []lineOp) {
	aStart, bStart := ops[0].a, ops[0].b
	aLen, bLen := 0, 0
	for _, op := range ops {
		if op.kind != '+' {
			aLen++
		}
		if op.kind != '-' {
			bLen++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, op := range ops {
		out.WriteByte(op.kind)
		out.WriteString(strings.TrimSuffix(op.text, "\n"))
		out.WriteByte('\n')
		if !strings.HasSuffix(op.text, "\n") {
			out.WriteString("\\ No newline at end of file\n")
		}
	}
}

// hunkRange formats a hunk's line range; start is the 0-based index of its
// first line.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits s into lines, each with its newline (the last one may
// have none).
func splitLines(s string) []string {
	var lines []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// lineOp is one line of an edit script: ' ' kept, '-' removed, '+' added;
// a and b are the line's (or the next line's) 0-based index in each side.
type lineOp struct {
	kind byte
	text string
	a, b int
}

// diffLines returns a shortest edit script from a to b (Myers' O(ND)
// algorithm), after taking off the common prefix and suffix, which is all
// a configuration edit usually leaves.
func diffLines(a, b []string) []lineOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []lineOp
	for i := range pre {
		ops = append(ops, lineOp{' ', a[i], i, i})
	}
	for _, op := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		op.a += pre
		op.b += pre
		ops = append(ops, op)
	}
	for i := range suf {
		ai, bi := len(a)-suf+i, len(b)-suf+i
		ops = append(ops, lineOp{' ', a[ai], ai, bi})
	}
	return ops
}

func myers(a, b []string) []lineOp {
	n, m := len(a), len(b)
	if n == 0 && m == 0 {
		return nil
	}
	maxD := n + m
	offset := maxD
	v := make([]int, 2*maxD+2)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[offset+k-1] < v[offset+k+1]) {
				x = v[offset+k+1]
			} else {
				x = v[offset+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[offset+k] = x
			if x >= n && y >= m {
				return backtrack(trace, a, b, offset, d, x, y)
			}
		}
	}
	return nil
}

func backtrack(trace [][]int, a, b []string, offset, d, x, y int) []lineOp {
	var rev []lineOp
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && v[offset+k-1] < v[offset+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[offset+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, lineOp{' ', a[x], x, y})
		}
		if x == prevX {
			y--
			rev = append(rev, lineOp{'+', b[y], x, y})
		} else {
			x--
			rev = append(rev, lineOp{'-', a[x], x, y})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, lineOp{' ', a[x], x, y})
	}
	ops := make([]lineOp, len(rev))
	for i, op := range rev {
		ops[len(rev)-1-i] = op
	}
	return ops
}
