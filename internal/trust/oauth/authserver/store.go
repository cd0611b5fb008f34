package authserver

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
)

// StateFile is the name of the authorization server's state, kept next
// to the federation registry.
const StateFile = "oauth.json"

// maxStateBytes bounds what is read of the state file; a larger file is
// refused as unreadable.
const maxStateBytes = 8 << 20

// stateVersion is the layout of the state file.
const stateVersion = 1

// Bounds on what unauthenticated callers (registration, authorization
// requests) can make the server keep.
const (
	maxClients      = 256
	maxPending      = 64
	maxFamilies     = 1024
	maxAccessTokens = 8192
)

// client is a registered OAuth client (RFC 7591).
type client struct {
	Name         string    `json:"client_name,omitempty"`
	RedirectURIs []string  `json:"redirect_uris"`
	GrantTypes   []string  `json:"grant_types"`
	AuthMethod   string    `json:"token_endpoint_auth_method"`
	SecretHash   string    `json:"client_secret_sha256,omitempty"`
	Created      time.Time `json:"created"`
	// Used reports that a person once consented to the client; clients
	// nobody consented to are dropped after unusedClientTTL.
	Used bool `json:"used,omitempty"`
}

// pending is an authorization request waiting for the person's consent,
// or for the operator's approval (bourdon oauth approve).
type pending struct {
	CSRFHash    string    `json:"csrf_sha256"`
	ClientID    string    `json:"client_id"`
	RedirectURI string    `json:"redirect_uri"`
	State       string    `json:"state,omitempty"`
	Challenge   string    `json:"code_challenge"`
	Scopes      []string  `json:"scopes"`
	Resource    string    `json:"resource"`
	Expires     time.Time `json:"expires"`
	// Approved is the member the operator approved the request for.
	Approved string `json:"approved_member,omitempty"`
}

// code is an authorization code, stored by its hash.
type code struct {
	ClientID    string    `json:"client_id"`
	RedirectURI string    `json:"redirect_uri"`
	Challenge   string    `json:"code_challenge"`
	Scopes      []string  `json:"scopes"`
	Resource    string    `json:"resource"`
	Member      string    `json:"member"`
	Generation  string    `json:"generation"`
	Expires     time.Time `json:"expires"`
	// Family is set when the code was exchanged; presenting it again
	// revokes that family.
	Family string `json:"family,omitempty"`
}

// family is one consent and every token refreshed from it: the member,
// client, scopes and resource they all carry, and the hash of the one
// refresh token that may be used next.
type family struct {
	ClientID       string    `json:"client_id"`
	Member         string    `json:"member"`
	Generation     string    `json:"generation"`
	Scopes         []string  `json:"scopes"`
	Resource       string    `json:"resource"`
	Created        time.Time `json:"created"`
	RefreshHash    string    `json:"refresh_sha256,omitempty"`
	RefreshExpires time.Time `json:"refresh_expires,omitzero"`
}

// access is an access token, stored by its hash.
type access struct {
	Family  string    `json:"family"`
	Expires time.Time `json:"expires"`
}

// state is the whole authorization server state.
type state struct {
	Version  int                 `json:"version"`
	Clients  map[string]*client  `json:"clients"`
	Pending  map[string]*pending `json:"pending"`
	Codes    map[string]*code    `json:"codes"`
	Families map[string]*family  `json:"families"`
	Access   map[string]*access  `json:"access_tokens"`
}

func newState() *state {
	return &state{
		Version: stateVersion, Clients: map[string]*client{}, Pending: map[string]*pending{},
		Codes: map[string]*code{}, Families: map[string]*family{}, Access: map[string]*access{},
	}
}

func parseState(data []byte) (*state, error) {
	st := newState()
	if err := json.Unmarshal(data, st); err != nil {
		return nil, err
	}
	if st.Version != stateVersion {
		return nil, fmt.Errorf("unknown version %d", st.Version)
	}
	for _, m := range []bool{st.Clients == nil, st.Pending == nil, st.Codes == nil, st.Families == nil, st.Access == nil} {
		if m {
			return nil, errors.New("a section is missing or null")
		}
	}
	return st, nil
}

// revokeFamily drops a family and every access token of it.
func (st *state) revokeFamily(id string) {
	delete(st.Families, id)
	for h, a := range st.Access {
		if a.Family == id {
			delete(st.Access, h)
		}
	}
}

// unusedClientTTL is how long a client nobody consented to is kept.
const unusedClientTTL = 24 * time.Hour

// prune drops whatever expired by now.
func (st *state) prune(now time.Time) {
	for id, p := range st.Pending {
		if !now.Before(p.Expires) {
			delete(st.Pending, id)
		}
	}
	for h, c := range st.Codes {
		if !now.Before(c.Expires) {
			delete(st.Codes, h)
		}
	}
	live := map[string]bool{}
	for h, a := range st.Access {
		if !now.Before(a.Expires) {
			delete(st.Access, h)
		} else {
			live[a.Family] = true
		}
	}
	for id, f := range st.Families {
		if !live[id] && (f.RefreshHash == "" || !now.Before(f.RefreshExpires)) {
			delete(st.Families, id)
		}
	}
	for id, c := range st.Clients {
		if !c.Used && now.Sub(c.Created) > unusedClientTTL {
			delete(st.Clients, id)
		}
	}
}

// stateTimeout bounds each read of the state in a database, so that a
// database that stops answering fails the request closed instead of
// holding it.
const stateTimeout = 10 * time.Second

// Store is the authorization server's state, one document of a
// store.Documents: the file oauth.json next to the registry file
// (OpenStore), or the document StateFile of a PostgreSQL store
// (NewStore), which every replica of a server shares, so that a client
// registered or a token issued through one replica works through every
// other. It is kept with the registry's care: changes are made under the
// lock <name>.lock (a lock file next to the file, an advisory lock in
// PostgreSQL) on a fresh read and written whole and atomically, a file
// with mode 0600; a state that cannot be read or parsed fails closed (no
// token verifies, nothing is issued) and is never overwritten. Reads are
// cached until the document's revision changes, which every use asks, so
// a running server sees the operator's approvals and revocations made by
// another process or replica.
type Store struct {
	docs  store.Documents
	name  string
	where string

	cache *store.Cached[*state]
}

// OpenStore returns the store in the file at path (a symbolic link there
// is followed, see store.FileDocument); nothing is read until it is used.
func OpenStore(path string) *Store {
	s := NewStore(store.FileDocument(path, 0o600))
	s.where = path
	return s
}

// NewStore returns the store kept as the document name of docs (StateFile
// in a PostgreSQL store).
func NewStore(docs store.Documents, name string) *Store {
	s := &Store{docs: docs, name: name, where: docs.Where(name)}
	s.cache = store.NewCached(docs, name, s.load, s.unreadable)
	return s
}

// DefaultStorePath returns the state file next to the registry file.
func DefaultStorePath(registryPath string) string {
	return filepath.Join(filepath.Dir(registryPath), StateFile)
}

// Path returns where the state is: its file's path, or its store's URL
// (without a password) and document name.
func (s *Store) Path() string { return s.where }

// read returns the state as it is now (see store.Cached). The caller
// must not change it.
func (s *Store) read() (*state, error) {
	ctx, cancel := context.WithTimeout(context.Background(), stateTimeout)
	defer cancel()
	return s.cache.Get(ctx)
}

func (s *Store) unreadable(err error) error {
	return fmt.Errorf("OAuth state %s is unreadable (%v); nothing is issued or accepted until it is fixed or removed", s.where, err)
}

// load reads and parses the document; a missing one is an empty state.
func (s *Store) load(ctx context.Context) (*state, store.Revision, error) {
	data, rev, err := s.docs.Read(ctx, s.name, maxStateBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return newState(), store.NoRevision, nil
	}
	if err != nil {
		return nil, rev, err
	}
	st, err := parseState(data)
	return st, rev, err
}

// update applies change to a fresh read of the state under the lock,
// drops what expired, and writes the result. When change fails nothing is
// written, unless it returns errCommit, whose changes are kept (a refusal
// that must still revoke something).
func (s *Store) update(now time.Time, change func(*state) error) error {
	ctx := context.Background()
	unlock, err := s.docs.Lock(ctx, s.name+".lock")
	if err != nil {
		return err
	}
	defer unlock()
	st, rev, err := s.load(ctx)
	if err != nil {
		s.cache.Set(rev, nil, err)
		return s.unreadable(err)
	}
	st.prune(now)
	cerr := change(st)
	if errors.Is(cerr, errUnchanged) {
		return nil
	}
	var keep *commitError
	if cerr != nil && !errors.As(cerr, &keep) {
		return cerr
	}
	data, err := json.MarshalIndent(st, "", " ")
	if err != nil {
		return err
	}
	if rev, err = s.docs.Write(ctx, s.name, data); err != nil {
		return err
	}
	s.cache.Set(rev, st, nil)
	if keep != nil {
		return keep.err
	}
	return nil
}

// errUnchanged, returned by a change, makes update succeed without
// writing: the change found nothing to do (a refused consent, an unknown
// token to revoke), and a caller repeating it must not make the server
// rewrite the file.
var errUnchanged = errors.New("nothing changed")

// commitError is a refusal whose changes to the state must be written
// (a replayed code or refresh token revokes its family).
type commitError struct{ err error }

func (e *commitError) Error() string { return e.err.Error() }

// keepChanges wraps a refusal so that update still writes the state.
func keepChanges(err error) error { return &commitError{err} }

// secret returns prefix followed by n random bytes in hex.
func secret(prefix string, n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails; the runtime aborts instead
	return prefix + hex.EncodeToString(b)
}

// hash returns the hex SHA-256 under which a secret is stored.
func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
