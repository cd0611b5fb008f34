package trust

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// auditFile is the audit log kept in one JSON-lines file, the default
// AuditLog. The file stays open between appends; each append checks that
// the path still names it (a log removed or replaced is opened again).
type auditFile struct {
	path string
	mu   sync.Mutex
	open *keptFile // nil until the first append
	line []byte    // the buffer of Append's line, kept
}

// keptFile is the file an auditFile appends to, with what it knows of
// it. It is closed when its auditFile is no longer reachable.
type keptFile struct {
	f   *os.File
	id  fs.FileInfo // f's identity, to compare with what the path names
	end int64       // the file's size after this process's last write
}

func (l *auditFile) Append(e Entry) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.line = append(e.appendLine(l.line[:0]), '\n')
	err := l.append(l.line)
	if cap(l.line) > 4<<10 {
		l.line = nil // not kept for an unusually long entry
	}
	if err != nil {
		return fmt.Errorf("audit log %s: %w", l.path, err)
	}
	return nil
}

// append writes line at the end of the file, after a newline if the
// file does not end with one (a line cut short by a crash elsewhere).
func (l *auditFile) append(line []byte) error {
	fi, err := os.Stat(l.path)
	if l.open == nil || err != nil || !os.SameFile(fi, l.open.id) {
		if fi, err = l.reopen(); err != nil {
			return err
		}
	}
	k := l.open
	// Another process may have appended since; only then is the last
	// byte read.
	if size := fi.Size(); size > 0 && size != k.end {
		last := make([]byte, 1)
		if _, err := k.f.ReadAt(last, size-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	// One write of the whole line: appends from other processes do not
	// interleave with it.
	n, err := k.f.Write(line)
	k.end = fi.Size() + int64(n)
	if err != nil {
		l.closeKept()
	}
	return err
}

// reopen opens the file at the path, creating it and its directory, in
// place of the one kept, and returns what it is.
func (l *auditFile) reopen() (fs.FileInfo, error) {
	l.closeKept()
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(l.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	l.open = &keptFile{f: f, id: fi, end: -1}
	runtime.AddCleanup(l, func(k *keptFile) { k.f.Close() }, l.open)
	return fi, nil
}

// closeKept closes the kept file, if any.
func (l *auditFile) closeKept() {
	if l.open != nil {
		l.open.f.Close()
		l.open = nil
	}
}

// sinceSlack is how far before Since Recent keeps reading: entries are
// appended in time order, but writers in several processes may interleave
// by a little.
const sinceSlack = time.Minute

func (l *auditFile) Recent(f AuditFilter, fn func(Entry) bool) (full bool, err error) {
	file, err := fsutil.OpenRegular(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return false, err
	}
	const block = 64 << 10
	n := 0
	stop := false
	// line handles one line; it reports whether to go on.
	line := func(b []byte) bool {
		e, ok := ParseEntry(b)
		if !ok {
			return true
		}
		if !f.Since.IsZero() {
			if t, ok := e.Time(); ok && t.Before(f.Since.Add(-sinceSlack)) {
				return false
			}
		}
		if !f.match(e) {
			return true
		}
		n++
		if !fn(e) {
			return false
		}
		if f.Limit > 0 && n >= f.Limit {
			full = true
			return false
		}
		return true
	}
	var tail []byte   // the start of a line whose end was in a later block
	skipping := false // tail overflowed: drop the rest of that line
	buf := make([]byte, block)
	for pos := fi.Size(); pos > 0 && !stop; {
		size := int64(min(block, pos))
		pos -= size
		chunk := buf[:size]
		if _, err := file.ReadAt(chunk, pos); err != nil && err != io.EOF {
			return full, fmt.Errorf("reading audit log %s: %w", l.path, err)
		}
		data := append(slices.Clip(chunk), tail...)
		for !stop {
			i := bytes.LastIndexByte(data, '\n')
			if i < 0 {
				break
			}
			switch {
			case skipping:
				skipping = false
			case len(data)-i-1 > MaxAuditLine:
				// overlong: skipped
			case !line(data[i+1:]):
				stop = true
			}
			data = data[:i]
		}
		if !stop {
			tail = append(tail[:0:0], data...)
			if len(tail) > MaxAuditLine {
				tail, skipping = nil, true
			}
		}
	}
	if !stop && !skipping && len(tail) > 0 && len(tail) <= MaxAuditLine {
		line(tail)
	}
	return full, nil
}

// ReadAuditFile calls fn with the entries of the audit file at path in the
// order of its lines, oldest first, for copying a log elsewhere; an error
// of fn stops it. Lines that are not entries are passed to bad with their
// number (from 1) and why, and skipped: a torn or unparseable line, a line
// longer than MaxAuditLine, an entry whose ts is not a time. Blank lines
// are skipped silently. A missing file has no entries.
func ReadAuditFile(path string, fn func(Entry) error, bad func(line int, why string)) error {
	file, err := fsutil.OpenRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer file.Close()
	r := bufio.NewReaderSize(file, 64<<10)
	for n := 1; ; n++ {
		line, overlong, err := readLine(r)
		if err == io.EOF && len(line) == 0 && !overlong {
			return nil
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("reading audit log %s: %w", path, err)
		}
		switch e, ok := ParseEntry(line); {
		case overlong:
			bad(n, fmt.Sprintf("longer than %d bytes", MaxAuditLine))
		case len(bytes.TrimSpace(line)) == 0:
		case !ok:
			bad(n, "not a JSON object (a torn or damaged line)")
		case !validTime(e):
			bad(n, fmt.Sprintf("its ts %q is not a time", clip(e.TS, 40)))
		default:
			if err := fn(e); err != nil {
				return err
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

func validTime(e Entry) bool { _, ok := e.Time(); return ok }

// clip returns at most n bytes of s, for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// readLine returns the next line of r without its newline; a line longer
// than MaxAuditLine is read to its end and dropped (overlong true).
func readLine(r *bufio.Reader) (line []byte, overlong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !overlong {
			if len(line)+len(chunk) > MaxAuditLine+1 {
				overlong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSuffix(line, []byte{'\n'}), overlong, err
	}
}

// WriteAuditFile writes the entries each yields, in that order, as a new
// audit file at path, and returns how many it wrote. The file is written
// whole or not at all (a temporary file renamed into place), and only if
// path holds nothing yet: an existing log is never mixed with another's
// entries. Nothing is created when there are no entries.
func WriteAuditFile(path string, each func(yield func(Entry) error) error) (int, error) {
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		return 0, fmt.Errorf("the audit log %s already has entries: copying would mix two logs", path)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(dir, ".audit-*.jsonl.tmp")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	w := bufio.NewWriter(tmp)
	n := 0
	err = each(func(e Entry) error {
		n++
		w.Write(e.Line())
		return w.WriteByte('\n')
	})
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil || n == 0 {
		return 0, err
	}
	if err := os.Chmod(tmp.Name(), 0o600); err != nil {
		return 0, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return 0, err
	}
	return n, nil
}
