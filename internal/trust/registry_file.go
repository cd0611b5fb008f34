package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// The keys of a registry row, as the reference names them.
const (
	keyTier      = "tier"
	keyToken     = "token_sha256"
	keyCreated   = "created_at"
	keyRotated   = "rotated_at"
	keyRevoked   = "revoked"
	keyRevokedAt = "revoked_at"
	keyGrants    = "grants"
	keySubject   = "oauth_subject"
	// Our own keys, which the reference ignores: a member's rate limit
	// (see RateOverride).
	keyRateLimit = "rate_limit"
	keyRateBurst = "rate_burst"
)

// row is one member of the registry: the mapping as read from the file,
// kept whole so that keys this package does not know survive a rewrite,
// plus the checked view of the keys it does know.
type row struct {
	id  string
	raw *yaml11.Map

	tierName  string             // "" when the key is missing or null
	tier      Tier               // TierTrusted or TierQuarantined; a missing or unknown name is TierQuarantined
	tokenHash string             // "" when missing or null
	digest    *[sha256.Size]byte // the SHA-256 tokenHash spells, nil unless it is 64 lower-case hex digits
	validID   bool               // id is a well-formed agent id
	grants    []string
	revoked   bool
	subject   string // the OAuth subject that maps to this member; "" when none
	rate      RateOverride
}

// registryDoc is the parsed file: the members in file order.
type registryDoc struct {
	rows []*row
}

// parseRegistry reads a federation.yaml document. Python's reading is the
// model: an empty document or a null agents key is an empty registry. Any
// content whose shape the reference would choke on, or could only read by
// accident (a row that is not a mapping, a tier, hash or grant that is not
// a string, a revoked flag that is not a boolean), makes the whole file
// invalid, so that nobody authenticates off it.
func parseRegistry(data []byte) (*registryDoc, error) {
	v, err := yaml11.Decode(data)
	if err != nil {
		return nil, err
	}
	doc := &registryDoc{}
	if v == nil {
		return doc, nil
	}
	top, ok := v.(*yaml11.Map)
	if !ok {
		return nil, fmt.Errorf("the document is not a mapping")
	}
	agents := top.Value("agents")
	if agents == nil {
		return doc, nil
	}
	am, ok := agents.(*yaml11.Map)
	if !ok {
		return nil, fmt.Errorf("agents is not a mapping")
	}
	// A repeated key has already been resolved as Python does: the last
	// one wins.
	for _, e := range am.Entries() {
		rm, ok := e.Value.(*yaml11.Map)
		if !ok {
			return nil, fmt.Errorf("agent %s: the row is not a mapping", pyfmt.Quote(e.Key))
		}
		r := &row{id: e.Key, raw: rm.Clone()}
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("agent %s: %w", pyfmt.Quote(e.Key), err)
		}
		doc.rows = append(doc.rows, r)
	}
	return doc, nil
}

// digestOf returns the SHA-256 that h spells in lower-case hex, as the
// registry writes token hashes, or nil when h is anything else (no token
// can match such a hash: Identify compares with the lower-case hex of the
// presented token's hash).
func digestOf(h string) *[sha256.Size]byte {
	var d [sha256.Size]byte
	if len(h) != hex.EncodedLen(sha256.Size) {
		return nil
	}
	if _, err := hex.Decode(d[:], []byte(h)); err != nil || hex.EncodeToString(d[:]) != h {
		return nil
	}
	return &d
}

// check derives the typed view of r from its raw mapping.
func (r *row) check() error {
	r.tierName, r.tier, r.tokenHash, r.grants, r.revoked, r.subject, r.rate = "", TierQuarantined, "", nil, false, "", RateOverride{}
	r.digest, r.validID = nil, l5.ValidAgentID(r.id)
	switch t := r.raw.Value(keyTier).(type) {
	case nil:
	case string:
		r.tierName = t
		if t == "trusted" {
			r.tier = TierTrusted
		}
	default:
		return fmt.Errorf("%s is not a string", keyTier)
	}
	switch h := r.raw.Value(keyToken).(type) {
	case nil:
	case string:
		r.tokenHash, r.digest = h, digestOf(h)
	default:
		return fmt.Errorf("%s is not a string", keyToken)
	}
	switch g := r.raw.Value(keyGrants).(type) {
	case nil:
	case []any:
		r.grants = make([]string, 0, len(g))
		for _, item := range g {
			s, ok := item.(string)
			if !ok {
				return fmt.Errorf("%s holds a value that is not a string", keyGrants)
			}
			r.grants = append(r.grants, s)
		}
	default:
		return fmt.Errorf("%s is not a list", keyGrants)
	}
	switch s := r.raw.Value(keySubject).(type) {
	case nil:
	case string:
		r.subject = s
	default:
		return fmt.Errorf("%s is not a string", keySubject)
	}
	switch b := r.raw.Value(keyRevoked).(type) {
	case nil:
	case bool:
		r.revoked = b
	default:
		return fmt.Errorf("%s is not a boolean", keyRevoked)
	}
	return r.checkRate()
}

// checkRate reads the member's rate limit keys; a value that is not a
// rate or a burst makes the row invalid, like any other ill-typed key.
func (r *row) checkRate() error {
	switch v := r.raw.Value(keyRateLimit).(type) {
	case nil:
	case string:
		perSecond, err := ParseRate(v)
		if err != nil {
			return fmt.Errorf("%s: %w", keyRateLimit, err)
		}
		r.rate.PerSecond = &perSecond
	default:
		return fmt.Errorf("%s is not a rate such as 120/m", keyRateLimit)
	}
	switch v := r.raw.Value(keyRateBurst).(type) {
	case nil:
	case int64:
		if err := CheckBurst(int(min(v, MaxBurst+1))); err != nil {
			return fmt.Errorf("%s: %w", keyRateBurst, err)
		}
		r.rate.Burst = int(v)
	default:
		return fmt.Errorf("%s is not a whole number", keyRateBurst)
	}
	return nil
}

// encode writes the registry the way the reference does,
// yaml.safe_dump({"version": 1, "agents": ...}, sort_keys=True): every
// mapping, nested ones included, with sorted keys.
func (d *registryDoc) encode() ([]byte, error) {
	agents := make(map[string]any, len(d.rows))
	for _, r := range d.rows {
		agents[r.id] = sortedDeep(r.raw)
	}
	return yaml11.Encode(map[string]any{"version": 1, "agents": agents})
}

// sortedDeep turns every *yaml11.Map inside v into a map[string]any, which
// yaml11.Encode writes with sorted keys.
func sortedDeep(v any) any {
	switch x := v.(type) {
	case *yaml11.Map:
		m := make(map[string]any, x.Len())
		for _, e := range x.Entries() {
			m[e.Key] = sortedDeep(e.Value)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = sortedDeep(item)
		}
		return out
	}
	return v
}

// find returns the row of id, or nil.
func (d *registryDoc) find(id string) *row {
	for _, r := range d.rows {
		if r.id == id {
			return r
		}
	}
	return nil
}
