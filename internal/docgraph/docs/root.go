package docs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// MaxFileSize is the largest file Load reads; a larger one is a schema
// problem and is skipped.
const MaxFileSize = 8 << 20

// root is one corpus root. Every read goes through an os.Root, so no path
// (with .. or through a symbolic link) reaches outside the directory.
type root struct {
	dir string // as passed to Load
	abs string
	fs  *os.Root
	cfg *config
}

func openRoot(dir string) (*root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("docs: corpus root %s: %w", dir, err)
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("docs: corpus root %s: %w", dir, err)
	}
	return &root{dir: dir, abs: abs, fs: r}, nil
}

// textFile is a file read from a root.
type textFile struct {
	text string
	mod  time.Time
}

// read returns the text of the file at rel (slash-separated, relative to
// the root), with CRLF line ends made LF and a byte order mark dropped. A
// file that is not regular, larger than MaxFileSize, or not UTF-8 text is
// an error.
func (r *root) read(rel string) (textFile, error) {
	f, err := fsutil.OpenRegularIn(r.fs, filepath.FromSlash(rel))
	if fsutil.IsNotRegular(err) {
		return textFile{}, errors.New("not a regular file")
	}
	if err != nil {
		return textFile{}, unwrapPathError(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return textFile{}, unwrapPathError(err)
	}
	if !st.Mode().IsRegular() {
		return textFile{}, errors.New("not a regular file")
	}
	if st.Size() > MaxFileSize {
		return textFile{}, fmt.Errorf("file is %d bytes, more than the %d-byte limit", st.Size(), MaxFileSize)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return textFile{}, unwrapPathError(err)
	}
	if len(b) > MaxFileSize {
		return textFile{}, fmt.Errorf("file is more than the %d-byte limit", MaxFileSize)
	}
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return textFile{}, errors.New("not UTF-8 text")
	}
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	return textFile{text: string(b), mod: st.ModTime()}, nil
}

// unwrapPathError drops the operation and path of an *os.PathError, which
// a problem already names; a missing file is fs.ErrNotExist on every
// platform.
func unwrapPathError(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fs.ErrNotExist
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// resolveRel resolves target, a path written in the file at from, against
// from's directory. It reports false when target is absolute, a URL, or
// climbs out of the root.
func resolveRel(from, target string) (string, bool) {
	if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "/") || filepath.IsAbs(target) || strings.Contains(target, "\\") {
		return "", false
	}
	p := path.Join(path.Dir(from), target)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}
