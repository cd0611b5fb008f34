package requests

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// MaxFileBytes bounds a request or proposal file: a larger file is
// reported, not read, and a change that would make one is refused.
const MaxFileBytes = 1 << 20

// Errors a caller can test for with errors.Is.
var (
	ErrNotFound = errors.New("not found")
	// ErrStale: the request changed after the proposal was made.
	ErrStale = errors.New("stale proposal")
	// ErrDecided: the proposal was approved or rejected already.
	ErrDecided = errors.New("already decided")
)

// Problem is a file of the store that could not be read.
type Problem struct {
	File    string `json:"file"`
	Message string `json:"message"`
}

// Store is the requests folder of a library. Its methods are safe for
// concurrent use, by goroutines and by processes sharing the folder (or
// the PostgreSQL store holding it).
type Store struct {
	// docs holds the store's files, named dir + "/REQ-....yaml",
	// dir + "/proposals/..." and so on. For a directory they are files of
	// the library, read and written through it, so a symbolic link out of
	// the library (a request file, proposals/, requests/ itself) is
	// refused, not followed.
	docs store.Documents
	dir  string // the folder's document name: "requests", or Open's base name
	// Tracker, when set, receives every new proposal (see Tracker). Set it
	// before the store is used.
	Tracker Tracker
	// Account is the operating-system account this store acts as: the one
	// a proposal by the local operator (OperatorProposer) records as its
	// proposer's, and the one a decision records and is judged by (an
	// account may not approve what it proposed). Open sets it to the
	// process's account (CurrentAccount).
	Account Account
	now     func() time.Time
}

// Folder is the document name of a library's requests folder: its
// requests are Folder + "/REQ-....yaml".
const Folder = "requests"

// Folders lists the folders of a library's request documents, for a
// copy: the requests, the pending proposals and the decided ones.
func Folders() []string {
	return []string{Folder, Folder + "/proposals", Folder + "/proposals/decided"}
}

// Open returns the store kept in root, <library>/requests. The folder is
// created by the first write. Its files are confined to the library, the
// folder holding root: a symbolic link that leads out of it is not
// followed.
func Open(root string) (*Store, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("requests folder %s: %w", root, err)
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("requests folder %s is a file", abs)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("requests folder: %w", err)
	}
	dir := filepath.Base(abs)
	if err := store.CheckDocumentName(dir); err != nil {
		return nil, fmt.Errorf("requests folder %s: %w", abs, err)
	}
	return openIn(store.NewDirDocuments(filepath.Dir(abs), filePerm), dir), nil
}

// OpenDocuments returns the store kept in docs, a library's documents
// (see store.Documents), under Folder: in a directory, the same files
// Open(<directory>/requests) keeps; in PostgreSQL, rows every replica
// shares.
func OpenDocuments(docs store.Documents) *Store { return openIn(docs, Folder) }

func openIn(docs store.Documents, dir string) *Store {
	account, _ := CurrentAccount()
	return &Store{docs: docs, dir: dir, Account: account, now: time.Now}
}

// filePerm is the mode of the files a directory store writes.
const filePerm = 0o644

// Root returns the store's folder: its path, or, in a database, where its
// documents are.
func (s *Store) Root() string { return s.docs.Where(s.dir) }

// Documents returns the documents the store keeps its files in.
func (s *Store) Documents() store.Documents { return s.docs }

// Stamp fingerprints the request files as they are now (their names and
// revisions, not their bytes): it changes whenever a request is added,
// removed or rewritten, by this process or any other.
func (s *Store) Stamp() (uint64, error) {
	ctx, cancel := opContext()
	defer cancel()
	list, err := s.docs.List(ctx, s.dir)
	if err != nil {
		return 0, err
	}
	h := fnv.New64a()
	for _, d := range list {
		h.Write([]byte(d.Name))
		h.Write([]byte{0})
		h.Write([]byte(d.Revision))
		h.Write([]byte{0})
	}
	return h.Sum64(), nil
}

// Holds reports whether name, a document name of the store's documents,
// is one of its requests: a change to it changes Stamp.
func (s *Store) Holds(name string) bool {
	rest, ok := strings.CutPrefix(name, s.dir+"/")
	return ok && rest != "" && !strings.Contains(rest, "/")
}

func (s *Store) requestName(id string) string { return s.dir + "/" + id + ".yaml" }

func (s *Store) pendingDir() string { return s.dir + "/proposals" }

func (s *Store) decidedDir() string { return s.dir + "/proposals/decided" }

// rel names a document of the store relative to its folder, as a Problem
// names its file.
func (s *Store) rel(name string) string {
	return filepath.FromSlash(strings.TrimPrefix(name, s.dir+"/"))
}

// lock takes the cross-process lock called name: a request id, or
// "store" for intakes and the allocation of request ids. In a directory
// it is the lock file .locks/<name>.lock.
func (s *Store) lock(ctx context.Context, name string) (func(), error) {
	return s.docs.Lock(ctx, s.dir+"/.locks/"+name+".lock")
}

// opTimeout bounds the methods that take no context (reads), so that a
// database that stops answering fails them instead of hanging them.
const opTimeout = 30 * time.Second

// opContext is the context of a method that takes none.
func opContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), opTimeout)
}

// readBounded reads a document of at most MaxFileBytes (in a directory,
// a regular file).
func (s *Store) readBounded(ctx context.Context, name string) ([]byte, error) {
	data, _, err := s.docs.Read(ctx, name, MaxFileBytes)
	var tl *fsutil.TooLargeError
	if errors.As(err, &tl) {
		return nil, fmt.Errorf("%s is larger than %d bytes", path.Base(name), MaxFileBytes)
	}
	return data, err
}

// decodeFile reads a YAML file into v, refusing unknown fields and extra
// documents, so that a hand edit gone wrong is reported, not half-read.
func (s *Store) decodeFile(ctx context.Context, name string, v any) error {
	data, err := s.readBounded(ctx, name)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s is malformed: %s", path.Base(name), strings.Join(strings.Fields(err.Error()), " "))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s is malformed: more than one YAML document", path.Base(name))
	}
	return nil
}

// fileHeader starts every file the store writes.
const fileHeader = "# Written by bourdon. Change it through proposals: bourdon requests list-proposals, approve, reject.\n"

// writeFile replaces the document name with v as YAML, atomically.
func (s *Store) writeFile(ctx context.Context, name string, v any) error {
	var b bytes.Buffer
	b.WriteString(fileHeader)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	if b.Len() > MaxFileBytes {
		return fmt.Errorf("%s would be %d bytes, over the bound of %d; attach less", path.Base(name), b.Len(), MaxFileBytes)
	}
	_, err := s.docs.Write(ctx, name, b.Bytes())
	return err
}

// loadRequest reads the request file of a canonical id.
func (s *Store) loadRequest(ctx context.Context, id string) (*Request, error) {
	name := s.requestName(id)
	var r Request
	if err := s.decodeFile(ctx, name, &r); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("request %s: %w", id, ErrNotFound)
		}
		return nil, err
	}
	if r.ID != id {
		return nil, fmt.Errorf("%s is malformed: its id is %q", path.Base(name), r.ID)
	}
	if _, err := ParseStage(string(r.Stage)); err != nil {
		return nil, fmt.Errorf("%s is malformed: %v", path.Base(name), err)
	}
	return &r, nil
}

// loadProposal reads a proposal file.
func (s *Store) loadProposal(ctx context.Context, name, id string) (*Proposal, error) {
	var p Proposal
	if err := s.decodeFile(ctx, name, &p); err != nil {
		return nil, err
	}
	switch {
	case p.ID != id:
		return nil, fmt.Errorf("%s is malformed: its id is %q", path.Base(name), p.ID)
	case p.Kind != KindIntake && p.Kind != KindTransition:
		return nil, fmt.Errorf("%s is malformed: kind %q", path.Base(name), p.Kind)
	case p.Kind == KindIntake && p.Intake == nil:
		return nil, fmt.Errorf("%s is malformed: an intake without its form", path.Base(name))
	case p.Kind == KindTransition && !canonicalID(p.RequestID):
		return nil, fmt.Errorf("%s is malformed: request id %q", path.Base(name), p.RequestID)
	case p.Status != StatusPending && p.Status != StatusApproved && p.Status != StatusRejected:
		return nil, fmt.Errorf("%s is malformed: status %q", path.Base(name), p.Status)
	}
	return &p, nil
}
