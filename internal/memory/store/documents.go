package store

import (
	"context"
	"time"
)

// Documents keeps the small named documents a federation shares besides
// its manifests: the member registry, the authorization server's state,
// the drift watermarks, requests and proposals. In a directory they are
// files; in PostgreSQL, rows, so that every replica reads and changes the
// same ones.
//
// A name is a slash-separated path relative to the documents' root, such
// as "federation.yaml" or "requests/proposals/P-0001.yaml", with no "."
// or ".." element. Every method that takes one refuses any other with an
// error.
//
// Each write replaces one document whole: a reader sees the old bytes or
// the new ones, never a mix. A change that spans documents, or a
// read-modify-write, takes Lock first.
type Documents interface {
	// Where names a document in messages: its file's path, or the store's
	// URL (without its password) and the name.
	Where(name string) string
	// Read returns the document's bytes and revision. A missing document
	// is os.ErrNotExist; one larger than limit bytes (limit > 0) is a
	// *fsutil.TooLargeError.
	Read(ctx context.Context, name string, limit int64) ([]byte, Revision, error)
	// Revision returns the document's current revision (NoRevision when
	// there is none) without reading it: cheap enough to ask on every
	// request, so that a reader can keep what it parsed until it changes.
	Revision(ctx context.Context, name string) (Revision, error)
	// Write makes data the document's content and returns its new
	// revision.
	Write(ctx context.Context, name string, data []byte) (Revision, error)
	// Remove deletes the document; a missing one is no error.
	Remove(ctx context.Context, name string) error
	// List returns the documents directly in dir ("" for the root),
	// sorted by name; a missing dir lists nothing.
	List(ctx context.Context, dir string) ([]DocumentInfo, error)
	// Lock takes the lock called name, held against every other holder
	// in any process until unlock is called. The name is the lock file's
	// in a directory ("federation.yaml.lock"), so that the directory
	// backend keeps the locks the reference takes.
	Lock(ctx context.Context, name string) (unlock func(), err error)
}

// Revision identifies one state of a document. Two reads return the same
// revision only if the document did not change between them (for a file:
// its size, modification time and inode; for a row: a number no other
// write of the database has had).
type Revision string

// NoRevision is the revision of a document that does not exist.
const NoRevision Revision = ""

// DocumentInfo is one document as listed.
type DocumentInfo struct {
	Name     string // the document's name: dir + "/" + its base name
	Revision Revision
	Modified time.Time // when it was last written
}
