package trust

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// RegistryEnv names the environment variable that overrides the registry
// path.
const RegistryEnv = "BOURDON_FEDERATION_CONFIG"

// LegacyTokenEnv names the environment variable holding the reference's
// legacy shared server token; see AuthenticateLegacy.
const LegacyTokenEnv = "BOURDON_PEER_TOKEN_SERVER"

// TokenPrefix starts every member token, which makes a leaked token easy
// for secret scanners to find.
const TokenPrefix = "bdn_"

// maxRegistryBytes bounds what is read of a registry file; a larger file
// is refused as unreadable.
const maxRegistryBytes = 16 << 20

// DefaultRegistryPath returns $BOURDON_FEDERATION_CONFIG, read with
// getenv, when set, else ~/.bourdon/federation.yaml.
func DefaultRegistryPath(getenv func(string) string) (string, error) {
	return userHomeFile(getenv, RegistryEnv, "federation.yaml", "the federation registry")
}

// RegistryPath is DefaultRegistryPath under a given home directory
// (bourdon doctor's): $BOURDON_FEDERATION_CONFIG, read with getenv, when
// set, else home/.bourdon/federation.yaml.
func RegistryPath(getenv func(string) string, home string) string {
	return homeFile(getenv, home, RegistryEnv, "federation.yaml")
}

// QuarantinedClass reports whether id is an agent that declares itself
// quarantined-class in the reference (OpenClaw). Registering one as
// trusted, or promoting it to trusted, needs an explicit acknowledgement
// from the operator.
func QuarantinedClass(id string) bool { return id == "openclaw" }

// The kinds of RegistryError, for errors.Is.
var (
	ErrUnknownAgent      = errors.New("unknown agent")
	ErrAlreadyRegistered = errors.New("agent already registered")
	ErrAgentRevoked      = errors.New("agent is revoked")
	ErrInvalid           = errors.New("invalid registry argument")
	ErrUnreadable        = errors.New("federation registry unreadable")
)

// RegistryError is a refused registry operation. Its message is the
// reference's where the reference has one.
type RegistryError struct {
	// Kind is one of the Err* values above.
	Kind error
	msg  string
}

// Error returns the message.
func (e *RegistryError) Error() string { return e.msg }

// Unwrap returns the kind, so errors.Is(err, ErrUnknownAgent) works.
func (e *RegistryError) Unwrap() error { return e.Kind }

func regErr(kind error, format string, args ...any) error {
	return &RegistryError{Kind: kind, msg: fmt.Sprintf(format, args...)}
}

// Member is one registry row as it may be shown: never the token nor its
// hash.
type Member struct {
	// ID is the agent id.
	ID string
	// Tier is the tier the member authenticates with.
	Tier Tier
	// TierName is the tier as stored; "" when the row has none.
	TierName string
	// Grants are the namespaces the member may read when quarantined.
	Grants []string
	// Revoked reports that the member's token no longer authenticates.
	Revoked bool
	// HasToken reports that a token hash is stored.
	HasToken bool
	// OAuthSubject is the subject of an external identity provider's
	// access tokens that acts as this member; "" when none.
	OAuthSubject string
	// CreatedAt, RotatedAt and RevokedAt are the stored timestamps
	// (%Y-%m-%dT%H:%M:%SZ), "" when absent.
	CreatedAt, RotatedAt, RevokedAt string
	// Rate is the member's own rate limit (rate_limit, rate_burst); its
	// unset parts are the server's default.
	Rate RateOverride
	// Problem, when set, says why the row does not mean what it seems to:
	// a missing or unknown tier (it authenticates as quarantined) or an
	// ill-formed id (it never authenticates).
	Problem string
}

// RegistryDocument is the registry's name among a store's documents (see
// NewRegistry).
const RegistryDocument = "federation.yaml"

// registryTimeout bounds each read of the registry in a database, so that
// a database that stops answering fails the request closed instead of
// holding it.
const registryTimeout = 10 * time.Second

// Registry is the federation's member registry, the reference's
// federation.yaml: one row per member with its tier, grants, revocation
// flag and the SHA-256 of its token (the token itself is shown once and
// never stored). It is one document of a store.Documents: a file in a
// directory (OpenRegistry), or a row of a PostgreSQL store (NewRegistry),
// which every replica of a server shares.
//
// Every call first asks the document's revision (for a file: its
// modification time, size and inode; for a row, a number) and reads it
// again when it changed, so a running server sees a revocation made by
// another process or replica on its next call. A document that cannot be
// read or parsed fails closed: nobody authenticates, Err reports why, and
// changes are refused so it is not overwritten.
//
// Changes are written whole and atomically (for a file: a temporary file,
// fsync, rename, fsync of the directory) while holding the lock
// <name>.lock (a lock file next to the file, an advisory lock in
// PostgreSQL), and each change re-reads the document under that lock, so
// concurrent writers in any number of processes never lose each other's
// rows. (The reference writes without a lock; a Python writer racing a Go
// one can still lose a row.) The file is created with mode 0600, its
// directory with 0700.
//
// A Registry is safe for concurrent use.
type Registry struct {
	docs  store.Documents
	name  string // the document
	where string // names it in messages
	now   func() time.Time
	// local is set for a directory's documents, which a context cannot
	// bound (a system call is not cancelled): current arms no timer.
	local bool

	cache *store.Cached[*registryDoc]
}

// OpenRegistry returns the registry stored in the file at path. Nothing
// is read until the first call; a missing file is an empty registry.
//
// The file is read and written through its directory, which a symbolic
// link may not lead out of; a path that is itself a symbolic link (a
// registry kept with one's dotfiles) is followed (see store.FileDocument),
// so the registry is its target, changed in place and locked by a lock
// file next to it, and the link stays.
func OpenRegistry(path string) *Registry {
	r := NewRegistry(store.FileDocument(path, 0o600))
	r.where = path
	return r
}

// NewRegistry returns the registry kept as the document name of docs
// (RegistryDocument in a PostgreSQL store).
func NewRegistry(docs store.Documents, name string) *Registry {
	_, local := docs.(*store.DirDocuments)
	r := &Registry{docs: docs, name: name, where: docs.Where(name), now: time.Now, local: local}
	r.cache = store.NewCached(docs, name, r.read, r.unreadable)
	return r
}

// Path returns where the registry is: its file's path, or its store's
// URL (without a password) and document name.
func (r *Registry) Path() string { return r.where }

// current returns the registry as it is now, reading it again when its
// revision changed (see store.Cached).
func (r *Registry) current() (*registryDoc, error) {
	if r.local {
		return r.cache.Get(context.Background())
	}
	ctx, cancel := context.WithTimeout(context.Background(), registryTimeout)
	defer cancel()
	return r.cache.Get(ctx)
}

func (r *Registry) unreadable(err error) error {
	return regErr(ErrUnreadable, "federation registry %s: %v", r.where, err)
}

// read reads and parses the document, returning the revision of exactly
// the bytes it parsed. A missing document is an empty registry.
func (r *Registry) read(ctx context.Context) (*registryDoc, store.Revision, error) {
	data, rev, err := r.docs.Read(ctx, r.name, maxRegistryBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return &registryDoc{}, store.NoRevision, nil
	}
	var big *fsutil.TooLargeError
	if errors.As(err, &big) {
		return nil, rev, fmt.Errorf("larger than %d bytes", maxRegistryBytes)
	}
	if err != nil {
		return nil, rev, err
	}
	doc, err := parseRegistry(data)
	return doc, rev, err
}

// Err returns why the registry cannot be used, or nil. While it is
// non-nil nobody authenticates.
func (r *Registry) Err() error {
	_, err := r.current()
	return err
}

// Authenticate returns the member a bearer token belongs to, on the HTTP
// transport. The SHA-256 of the token is compared with every row in
// constant time, without stopping at a match. The empty token, unknown
// tokens and revoked members never authenticate; neither does anyone
// while the file is unreadable. Two differences from the reference, both
// failing closed: a row with a missing or unknown tier authenticates as
// quarantined (the reference makes a tierless row trusted), and a row
// whose id is not a well-formed agent id, or whose hash is shared by
// another active row, does not authenticate at all.
func (r *Registry) Authenticate(token string) (Caller, bool) {
	c, ok, _ := r.Identify(token)
	return c, ok
}

// Identify is Authenticate that also returns, when the registry could not
// be read (its database did not answer, the file does not parse), why:
// then nobody is authenticated, and a server can say "retry later"
// instead of "invalid token".
func (r *Registry) Identify(token string) (Caller, bool, error) {
	if token == "" {
		return Caller{}, false, nil
	}
	doc, err := r.current()
	if err != nil {
		return Caller{}, false, err
	}
	// The token is copied to the stack (a member token is 52 bytes) rather
	// than to the heap as []byte(token) would be.
	var buf [64]byte
	sum := sha256.Sum256(append(buf[:0], token...))
	var match *row
	matches := 0
	for _, rw := range doc.rows {
		if rw.digest != nil && digestEqual(&sum, rw.digest) && !rw.revoked && rw.validID {
			match = rw
			matches++
		}
	}
	if matches != 1 {
		return Caller{}, false, nil
	}
	return match.caller(), true, nil
}

// digestEqual reports whether a and b are equal, in a time that does not
// depend on where they differ.
func digestEqual(a, b *[sha256.Size]byte) bool {
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// IsConfigured reports whether any member was ever registered, even if
// all are revoked. An HTTP server uses it to tell "auth never set up"
// from "your token is invalid". An unreadable registry is not configured.
func (r *Registry) IsConfigured() bool {
	doc, err := r.current()
	return err == nil && len(doc.rows) > 0
}

// HasActiveAgents reports whether some member could authenticate: it has
// a token hash, is not revoked and has a well-formed id.
func (r *Registry) HasActiveAgents() bool {
	doc, err := r.current()
	if err != nil {
		return false
	}
	for _, rw := range doc.rows {
		if rw.tokenHash != "" && !rw.revoked && rw.validID {
			return true
		}
	}
	return false
}

// List returns every member sorted by id, without token material.
func (r *Registry) List() ([]Member, error) {
	doc, err := r.current()
	if err != nil {
		return nil, err
	}
	out := make([]Member, 0, len(doc.rows))
	for _, rw := range doc.rows {
		m := Member{
			ID:           rw.id,
			Tier:         rw.tier,
			TierName:     rw.tierName,
			Grants:       slices.Clone(rw.grants),
			Revoked:      rw.revoked,
			HasToken:     rw.tokenHash != "",
			OAuthSubject: rw.subject,
			Rate:         rw.rate,
			CreatedAt:    stampText(rw.raw.Value(keyCreated)),
			RotatedAt:    stampText(rw.raw.Value(keyRotated)),
			RevokedAt:    stampText(rw.raw.Value(keyRevokedAt)),
		}
		switch {
		case !rw.validID:
			m.Problem = "the id is not a well-formed agent id, so the member never authenticates"
		case rw.tierName == "":
			m.Problem = "the row has no tier, so the member authenticates as quarantined"
		case rw.tierName != "trusted" && rw.tierName != "quarantined":
			m.Problem = "unknown tier " + pyfmt.Quote(rw.tierName) + ", so the member authenticates as quarantined"
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func stampText(v any) string {
	if v == nil {
		return ""
	}
	return yaml11.Str(v)
}

// newToken returns a fresh member token: TokenPrefix and 48 lowercase hex
// digits (24 random bytes), like the reference's secrets.token_hex(24).
func newToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // never fails; the runtime aborts instead
	return TokenPrefix + hex.EncodeToString(b)
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func (r *Registry) timestamp() string {
	now := time.Now
	if r.now != nil {
		now = r.now
	}
	return now().UTC().Format("2006-01-02T15:04:05Z")
}

// tierArg checks a tier given to Add or SetTier: only trusted and
// quarantined can be stored.
func tierArg(t Tier) error {
	if t != TierTrusted && t != TierQuarantined {
		name := t.String()
		if t > TierOperator {
			name = fmt.Sprintf("Tier(%d)", t)
		}
		return regErr(ErrInvalid, "invalid tier %s: must be one of ('trusted', 'quarantined')", pyfmt.Quote(name))
	}
	return nil
}

// ParseTier reads a tier name given on a command line: trusted or
// quarantined, with the reference's message otherwise. The operator tier
// cannot be given to a member.
func ParseTier(name string) (Tier, error) {
	switch name {
	case "trusted":
		return TierTrusted, nil
	case "quarantined":
		return TierQuarantined, nil
	}
	return 0, regErr(ErrInvalid, "invalid tier %s: must be one of ('trusted', 'quarantined')", pyfmt.Quote(name))
}

// reservedIDs are the caller ids the server gives its own callers; a
// member with one of them would be indistinguishable in the audit trail.
var reservedIDs = []string{OperatorID, UnidentifiedID}

// Add registers a member and returns its token, which is stored only as a
// hash and must be shown to the operator once. A revoked member of the
// same id is replaced; an active one is refused. Unlike the reference,
// the grants are checked like Grant checks them, duplicates are dropped,
// and the ids "operator" and "unknown" are refused.
func (r *Registry) Add(id string, tier Tier, grants []string) (string, error) {
	if !l5.ValidAgentID(id) {
		return "", regErr(ErrInvalid, "invalid agent_id %s: %s", pyfmt.Quote(id), l5.AgentIDRule)
	}
	if slices.Contains(reservedIDs, id) {
		return "", regErr(ErrInvalid, "agent_id %s is reserved for the server's own callers", pyfmt.Quote(id))
	}
	if err := tierArg(tier); err != nil {
		return "", err
	}
	list := make([]any, 0, len(grants))
	for _, ns := range grants {
		if !l5.ValidAgentID(ns) {
			return "", regErr(ErrInvalid, "invalid namespace %s", pyfmt.Quote(ns))
		}
		if !slices.Contains(list, any(ns)) {
			list = append(list, ns)
		}
	}
	token := newToken()
	err := r.update(func(doc *registryDoc) error {
		old := doc.find(id)
		if old != nil && !old.revoked {
			return regErr(ErrAlreadyRegistered, "agent %s already registered; use `bourdon registry rotate` for a new token or `bourdon registry revoke` first", pyfmt.Quote(id))
		}
		raw := yaml11.NewMap(5)
		raw.Set(keyTier, tier.String())
		raw.Set(keyToken, hashToken(token))
		raw.Set(keyCreated, r.timestamp())
		raw.Set(keyRevoked, false)
		raw.Set(keyGrants, list)
		if old != nil {
			old.raw = raw
			return old.check()
		}
		nr := &row{id: id, raw: raw}
		doc.rows = append(doc.rows, nr)
		return nr.check()
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// Rotate gives a member a new token, keeping its tier and grants, and
// returns it. The old token stops authenticating. A revoked member is
// refused: re-add it instead.
func (r *Registry) Rotate(id string) (string, error) {
	token := newToken()
	err := r.update(func(doc *registryDoc) error {
		rw, err := require(doc, id)
		if err != nil {
			return err
		}
		if rw.revoked {
			return regErr(ErrAgentRevoked, "agent %s is revoked; re-add it instead", pyfmt.Quote(id))
		}
		rw.raw.Set(keyToken, hashToken(token))
		rw.raw.Set(keyRotated, r.timestamp())
		return rw.check()
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// Revoke makes a member's token stop authenticating, from the next call
// of any process on. The row, and the member's audit history, remain.
func (r *Registry) Revoke(id string) error {
	return r.update(func(doc *registryDoc) error {
		rw, err := require(doc, id)
		if err != nil {
			return err
		}
		rw.raw.Set(keyRevoked, true)
		rw.raw.Set(keyRevokedAt, r.timestamp())
		return rw.check()
	})
}

// SetTier changes a member's tier (trusted or quarantined).
func (r *Registry) SetTier(id string, tier Tier) error {
	if err := tierArg(tier); err != nil {
		return err
	}
	return r.update(func(doc *registryDoc) error {
		rw, err := require(doc, id)
		if err != nil {
			return err
		}
		rw.raw.Set(keyTier, tier.String())
		return rw.check()
	})
}

// Grant lets a member read one more namespace while quarantined. The
// namespace must be a well-formed agent id (so peer-tagged names can never
// be granted); granting it twice changes nothing.
func (r *Registry) Grant(id, namespace string) error {
	if !l5.ValidAgentID(namespace) {
		return regErr(ErrInvalid, "invalid namespace %s", pyfmt.Quote(namespace))
	}
	return r.update(func(doc *registryDoc) error {
		rw, err := require(doc, id)
		if err != nil {
			return err
		}
		list := grantList(rw)
		if !slices.Contains(list, any(namespace)) {
			list = append(list, namespace)
		}
		rw.raw.Set(keyGrants, list)
		return rw.check()
	})
}

// Ungrant removes a namespace from a member's grants; removing one it
// does not have changes nothing.
func (r *Registry) Ungrant(id, namespace string) error {
	return r.update(func(doc *registryDoc) error {
		rw, err := require(doc, id)
		if err != nil {
			return err
		}
		list := slices.DeleteFunc(grantList(rw), func(v any) bool { return v == any(namespace) })
		rw.raw.Set(keyGrants, list)
		return rw.check()
	})
}

// SetRateLimit sets a member's own rate limit; the unset parts of o are
// removed from the row, so the server's default applies to them again.
func (r *Registry) SetRateLimit(id string, o RateOverride) error {
	if o.Burst != 0 {
		if err := CheckBurst(o.Burst); err != nil {
			return regErr(ErrInvalid, "invalid rate limit: %v", err)
		}
	}
	return r.update(func(doc *registryDoc) error {
		rw, err := require(doc, id)
		if err != nil {
			return err
		}
		if o.PerSecond == nil {
			rw.raw.Delete(keyRateLimit)
		} else {
			rw.raw.Set(keyRateLimit, FormatRate(*o.PerSecond))
		}
		if o.Burst == 0 {
			rw.raw.Delete(keyRateBurst)
		} else {
			rw.raw.Set(keyRateBurst, int64(o.Burst))
		}
		return rw.check()
	})
}

// grantList returns a fresh copy of a row's grants.
func grantList(rw *row) []any {
	list := make([]any, 0, len(rw.grants)+1)
	for _, g := range rw.grants {
		list = append(list, g)
	}
	return list
}

func require(doc *registryDoc, id string) (*row, error) {
	rw := doc.find(id)
	if rw == nil {
		return nil, regErr(ErrUnknownAgent, "unknown agent %s", pyfmt.Quote(id))
	}
	return rw, nil
}

// update applies change to the registry as it is now, under the
// cross-process lock, and writes the result whole. A change that fails
// leaves the document untouched; an unreadable one is never replaced.
func (r *Registry) update(change func(*registryDoc) error) error {
	ctx := context.Background()
	unlock, err := r.docs.Lock(ctx, r.name+".lock")
	if err != nil {
		return err
	}
	defer unlock()
	doc, rev, err := r.read(ctx)
	if err != nil {
		r.cache.Set(rev, nil, err)
		return regErr(ErrUnreadable, "federation registry %s: %v; fix or remove it before changing it", r.where, err)
	}
	// doc is a fresh parse, never the cached document Authenticate may be
	// reading.
	if err := change(doc); err != nil {
		return err
	}
	data, err := doc.encode()
	if err != nil {
		return err
	}
	if rev, err = r.docs.Write(ctx, r.name, data); err != nil {
		return err
	}
	r.cache.Set(rev, doc, nil)
	return nil
}
