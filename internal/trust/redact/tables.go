package redact

import "strings"

// Secrets in a markdown table: the name is in the header row, each value
// in a row below it, in the same column ("| service | user | password
// |"), or the name is in a row's cell and the value in the next one (a
// table of variables and their values: "| `API_SECRET` | `...` |"). tableCellAt reads the tables of s (a header row, a separator row
// of dashes, then rows, each with '|' between its cells) and finds the
// cells under a header that names a secret whose text is shaped like
// one.

// maxTableRows bounds the rows read under one header.
const maxTableRows = 256

// tableCellAt finds the first cell at or after from, in a column whose
// header names a secret (tableSecretColumns) or next to a cell of its row
// that names one, that holds a value shaped like a secret (tableValue);
// the span is the value.
func tableCellAt(s string, from int) match {
	if strings.IndexByte(s[from:], '\n') < 0 {
		return noMatch // a table has three lines at least
	}
	pos := from
	if from > 0 && from < len(s) {
		// from may be inside a table: read it from its header.
		ls, _ := lineAround(s, from)
		for n := 0; n < maxTableRows && ls > 0; n++ {
			ps, pe := lineAround(s, ls-1)
			if strings.IndexByte(s[ps:pe], '|') < 0 {
				break
			}
			ls = ps
		}
		pos = ls
	}
	for pos < len(s) {
		d := strings.Index(s[pos:], "--")
		if d < 0 {
			break
		}
		ls, le := lineAround(s, pos+d)
		pos = nextLine(s, le)
		if !separatorRow(s[ls:le]) || ls == 0 {
			continue
		}
		hs, _ := lineAround(s, ls-1)
		cols := tableSecretColumns(s[hs : ls-1])
		// The rows under the separator.
		for r, rs := 0, nextLine(s, le); r < maxTableRows && rs < len(s); r++ {
			_, re := lineAround(s, rs)
			row := s[rs:re]
			if strings.IndexByte(row, '|') < 0 {
				break
			}
			cells, n := tableCells(row)
			named := false // the cell before names a secret
			for c, cell := range cells[:n] {
				byRow := named
				ns, ne := trimCell(row, cell)
				named = ne > ns && ne-ns <= maxNameLen && nameKind(row[ns:ne]) == pAssignment
				if (cols&(1<<c) != 0 || byRow) && rs+cell[0] >= from {
					start, end := trimCell(row, cell)
					if tableValue(row[start:end]) {
						return match{p: pConfigValue, at: rs + start, start: rs + start, end: rs + end}
					}
				}
			}
			rs = nextLine(s, re)
		}
	}
	return noMatch
}

// lineAround returns the bounds of the line that holds s[i], without its
// line break (and a carriage return before it).
func lineAround(s string, i int) (start, end int) {
	start = strings.LastIndexByte(s[:i], '\n') + 1
	end = strings.IndexByte(s[i:], '\n')
	if end < 0 {
		end = len(s)
	} else {
		end += i
	}
	if end > start && s[end-1] == '\r' {
		end--
	}
	return start, end
}

// nextLine returns the start of the line after the one that ends at
// s[end] (its line break, or a carriage return before it), or len(s).
func nextLine(s string, end int) int {
	n := strings.IndexByte(s[end:], '\n')
	if n < 0 {
		return len(s)
	}
	return end + n + 1
}

// separatorRow reports whether line is a markdown table's separator row:
// dashes, colons, '|' and blanks only, with a '|' and three dashes in a
// row.
func separatorRow(line string) bool {
	if !strings.Contains(line, "---") || strings.IndexByte(line, '|') < 0 {
		return false
	}
	for i := 0; i < len(line); i++ {
		if !isOneOf(line[i], "-:| \t") {
			return false
		}
	}
	return true
}

// maxTableCols bounds the cells of a row that are read (a column set is
// a 64-bit word).
const maxTableCols = 64

// tableCells returns the bounds of the cells of a table row, in row: the
// text between two '|' (the row's outer pipes are optional), the first
// maxTableCols of them, and how many there are (by value: reading a
// table allocates nothing).
func tableCells(row string) (cells [maxTableCols][2]int, n int) {
	start := 0
	if t := strings.TrimLeft(row, " \t"); strings.HasPrefix(t, "|") {
		start = len(row) - len(t) + 1
	}
	for start <= len(row) && n < maxTableCols {
		k := strings.IndexByte(row[start:], '|')
		if k < 0 {
			if strings.TrimSpace(row[start:]) != "" {
				cells[n] = [2]int{start, len(row)}
				n++
			}
			break
		}
		cells[n] = [2]int{start, start + k}
		n++
		start += k + 1
	}
	return cells, n
}

// trimCell returns the bounds of a cell's text without the blanks and
// the backticks or emphasis around it.
func trimCell(row string, cell [2]int) (start, end int) {
	start, end = cell[0], cell[1]
	for start < end && isOneOf(row[start], " \t`*_") {
		start++
	}
	for end > start && isOneOf(row[end-1], " \t`*_") {
		end--
	}
	return start, end
}

// tableSecretColumns returns the set of the columns (the first
// maxTableCols) of a
// header row whose header names a secret, read as one word (Password,
// API Key, DB password, Token), by their bit.
func tableSecretColumns(header string) (cols uint64) {
	if strings.IndexByte(header, '|') < 0 {
		return 0
	}
	cells, n := tableCells(header)
	for c, cell := range cells[:n] {
		start, end := trimCell(header, cell)
		if end-start > maxNameLen {
			continue
		}
		var joined [maxNameLen]byte
		n := 0
		for i := start; i < end; i++ {
			if header[i] != ' ' && header[i] != '\t' {
				joined[n] = header[i]
				n++
			}
		}
		if n > 0 && nameKind(string(joined[:n])) == pAssignment {
			cols |= 1 << c
		}
	}
	return cols
}

// tableValue reports whether v, a cell's text under a secret's header,
// is a secret: 6 characters or more without blanks, with a letter and a
// digit, not a placeholder, a secret's name, a URL or a path.
func tableValue(v string) bool {
	if len(v) < 6 || strings.ContainsAny(v, " \t") || !literal(v, 6) || isPlaceholderWord(v) || namesSecret(v) ||
		strings.Contains(v, "://") || v[0] == '/' || v[0] == '~' || v[0] == '.' {
		return false
	}
	return hasLetterAndDigit(v)
}
