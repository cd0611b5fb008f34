package setup

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// A run of setup that changes anything leaves a record under
// ~/.bourdon/setup/<UTC time>-<n>/: record.json, which lists every file it
// wrote (with the SHA-256 of the content before and after, its mode, and
// how to take each addition out again) and every directory it created,
// and files/, a copy of each file as it was before. setup --undo reads the
// newest record that is not undone yet.

// recordSchema names the format of record.json.
const recordSchema = "bourdon.setup-record/v1"

// Record is what one run of setup changed.
type Record struct {
	Schema    string `json:"schema"`
	CreatedAt string `json:"created_at"`
	Binary    string `json:"binary"`
	Library   string `json:"library"`
	// Files are the files written, in the order they were written.
	Files []RecordFile `json:"files"`
	// DirsCreated are the directories created, parents first.
	DirsCreated []string `json:"dirs_created,omitempty"`
	// UndoneAt is set once setup --undo has taken the run back.
	UndoneAt string `json:"undone_at,omitempty"`

	dir string
}

// RecordFile is one file a run wrote.
type RecordFile struct {
	// Path is the file as setup names it; Written is the file actually
	// written (Path with symbolic links resolved).
	Path    string `json:"path"`
	Written string `json:"written"`
	// Existed is false for a file setup created.
	Existed bool        `json:"existed"`
	Mode    fs.FileMode `json:"mode"`
	// Backup is the copy of the file before setup, relative to the
	// record's directory ("" when the file did not exist).
	Backup       string `json:"backup,omitempty"`
	SHA256Before string `json:"sha256_before,omitempty"`
	SHA256After  string `json:"sha256_after"`
	// Items are the entries added ("Codex MCP server").
	Items []string `json:"items"`
	// Edits say how to take the entries out again when the file changed
	// after setup wrote it.
	Edits []Edit `json:"edits"`
}

// Dir returns the record's directory.
func (r *Record) Dir() string { return r.dir }

// RecordsDir is where setup keeps its records: ~/.bourdon/setup.
func RecordsDir(env *export.Env) string { return env.HomePath(".bourdon", "setup") }

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// newRecordDir creates the directory of a new record, named after the
// time with a counter, so names sort in the order runs happened.
func newRecordDir(env *export.Env) (string, error) {
	root := RecordsDir(env)
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", err
	}
	stamp := env.Time().UTC().Format("20060102T150405Z")
	for n := 1; n < 1000; n++ {
		dir := filepath.Join(root, fmt.Sprintf("%s-%03d", stamp, n))
		err := os.Mkdir(dir, 0o700)
		if err == nil {
			return dir, os.Mkdir(filepath.Join(dir, "files"), 0o700)
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", fmt.Errorf("too many setup records for %s in %s", stamp, root)
}

// save writes record.json atomically.
func (r *Record) save() error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return fsutil.WriteAtomic(filepath.Join(r.dir, "record.json"), append(data, '\n'), 0o600)
}

// LastRecord returns the newest record not yet undone, or nil when there
// is none. A record that cannot be read is an error naming it, so undo
// never skips over a run it does not understand.
func LastRecord(env *export.Env) (*Record, error) {
	root := RecordsDir(env)
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	for i := len(names) - 1; i >= 0; i-- {
		dir := filepath.Join(root, names[i])
		data, err := os.ReadFile(filepath.Join(dir, "record.json"))
		if errors.Is(err, fs.ErrNotExist) {
			continue // a run that stopped before writing anything
		}
		if err != nil {
			return nil, err
		}
		r := &Record{}
		if err := json.Unmarshal(data, r); err != nil || r.Schema != recordSchema {
			return nil, fmt.Errorf("setup record %s cannot be read (%v); move it away to undo older runs", filepath.Join(dir, "record.json"), errOr(err, "unknown schema "+r.Schema))
		}
		if r.UndoneAt != "" {
			continue
		}
		r.dir = dir
		return r, nil
	}
	return nil, nil
}

func errOr(err error, msg string) any {
	if err != nil {
		return err
	}
	return msg
}
