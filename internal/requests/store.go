package requests

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

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
// concurrent use, by goroutines and by processes sharing the folder.
type Store struct {
	root string
	// tree is the library holding root: every file of the store is read
	// and written through it, so a symbolic link out of the library (a
	// request file, proposals/, requests/ itself) is refused, not followed.
	tree fsutil.Tree
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
	account, _ := CurrentAccount()
	return &Store{root: abs, tree: fsutil.NewTree(filepath.Dir(abs)), Account: account, now: time.Now}, nil
}

// Root returns the store's folder.
func (s *Store) Root() string { return s.root }

func (s *Store) requestPath(id string) string { return filepath.Join(s.root, id+".yaml") }

func (s *Store) pendingDir() string { return filepath.Join(s.root, "proposals") }

func (s *Store) decidedDir() string { return filepath.Join(s.root, "proposals", "decided") }

// lock takes the cross-process lock called name: a request id, or
// "store" for intakes and the allocation of request ids.
func (s *Store) lock(ctx context.Context, name string) (func(), error) {
	return s.tree.Lock(ctx, filepath.Join(s.root, ".locks", name+".lock"))
}

// readBounded reads a regular file of at most MaxFileBytes.
func (s *Store) readBounded(path string) ([]byte, error) {
	data, err := s.tree.ReadRegular(path, MaxFileBytes)
	var tl *fsutil.TooLargeError
	if errors.As(err, &tl) {
		return nil, fmt.Errorf("%s is larger than %d bytes", filepath.Base(path), MaxFileBytes)
	}
	return data, err
}

// decodeFile reads a YAML file into v, refusing unknown fields and extra
// documents, so that a hand edit gone wrong is reported, not half-read.
func (s *Store) decodeFile(path string, v any) error {
	data, err := s.readBounded(path)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s is malformed: %s", filepath.Base(path), strings.Join(strings.Fields(err.Error()), " "))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s is malformed: more than one YAML document", filepath.Base(path))
	}
	return nil
}

// fileHeader starts every file the store writes.
const fileHeader = "# Written by bourdon. Change it through proposals: bourdon requests list-proposals, approve, reject.\n"

// writeFile replaces path with v as YAML, atomically.
func (s *Store) writeFile(path string, v any) error {
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
		return fmt.Errorf("%s would be %d bytes, over the bound of %d; attach less", filepath.Base(path), b.Len(), MaxFileBytes)
	}
	return s.tree.WriteAtomic(path, b.Bytes(), 0o644)
}

// loadRequest reads the request file of a canonical id.
func (s *Store) loadRequest(id string) (*Request, error) {
	path := s.requestPath(id)
	var r Request
	if err := s.decodeFile(path, &r); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("request %s: %w", id, ErrNotFound)
		}
		return nil, err
	}
	if r.ID != id {
		return nil, fmt.Errorf("%s is malformed: its id is %q", filepath.Base(path), r.ID)
	}
	if _, err := ParseStage(string(r.Stage)); err != nil {
		return nil, fmt.Errorf("%s is malformed: %v", filepath.Base(path), err)
	}
	return &r, nil
}

// loadProposal reads a proposal file.
func (s *Store) loadProposal(path, id string) (*Proposal, error) {
	var p Proposal
	if err := s.decodeFile(path, &p); err != nil {
		return nil, err
	}
	switch {
	case p.ID != id:
		return nil, fmt.Errorf("%s is malformed: its id is %q", filepath.Base(path), p.ID)
	case p.Kind != KindIntake && p.Kind != KindTransition:
		return nil, fmt.Errorf("%s is malformed: kind %q", filepath.Base(path), p.Kind)
	case p.Kind == KindIntake && p.Intake == nil:
		return nil, fmt.Errorf("%s is malformed: an intake without its form", filepath.Base(path))
	case p.Kind == KindTransition && !canonicalID(p.RequestID):
		return nil, fmt.Errorf("%s is malformed: request id %q", filepath.Base(path), p.RequestID)
	case p.Status != StatusPending && p.Status != StatusApproved && p.Status != StatusRejected:
		return nil, fmt.Errorf("%s is malformed: status %q", filepath.Base(path), p.Status)
	}
	return &p, nil
}
