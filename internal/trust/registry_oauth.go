package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
)

// maxSubjectBytes bounds an OAuth subject stored in the registry.
const maxSubjectBytes = 255

// Lookup returns the caller of an active member (not revoked, with a
// well-formed id) and its generation: an opaque digest of the member's
// current token, which changes when the token is rotated or the member is
// revoked and added again. Credentials derived from a member (OAuth
// tokens) record the generation they were issued for and die with it, so
// revoking or rotating a member kills them, and re-adding it does not
// bring them back. An unreadable registry has no active member.
func (r *Registry) Lookup(id string) (c Caller, generation string, ok bool) {
	doc, err := r.current()
	if err != nil {
		return Caller{}, "", false
	}
	rw := doc.find(id)
	if rw == nil || rw.revoked || !rw.validID {
		return Caller{}, "", false
	}
	sum := sha256.Sum256([]byte("generation\x00" + stampText(rw.raw.Value(keyCreated)) + "\x00" + rw.tokenHash))
	return rw.caller(), hex.EncodeToString(sum[:16]), true
}

// BySubject returns the active member whose oauth_subject is subject,
// for the tokens of an external identity provider. The empty subject, a
// subject no member has, and a subject shared by two active members
// (which is ambiguous, so fails closed) authenticate nobody.
func (r *Registry) BySubject(subject string) (Caller, bool) {
	if subject == "" {
		return Caller{}, false
	}
	doc, err := r.current()
	if err != nil {
		return Caller{}, false
	}
	var match *row
	for _, rw := range doc.rows {
		if rw.subject == subject && !rw.revoked && rw.validID {
			if match != nil {
				return Caller{}, false
			}
			match = rw
		}
	}
	if match == nil {
		return Caller{}, false
	}
	return match.caller(), true
}

// SetSubject maps the subject (the "sub" claim) of an external identity
// provider's access tokens to a member; the empty subject removes the
// mapping. A subject another member already has is refused.
func (r *Registry) SetSubject(id, subject string) error {
	if len(subject) > maxSubjectBytes || !utf8.ValidString(subject) || strings.ContainsFunc(subject, func(c rune) bool { return c < 0x20 || c == 0x7f }) {
		return regErr(ErrInvalid, "invalid OAuth subject: use at most %d bytes of printable UTF-8", maxSubjectBytes)
	}
	return r.update(func(doc *registryDoc) error {
		rw, err := require(doc, id)
		if err != nil {
			return err
		}
		if subject == "" {
			rw.raw.Delete(keySubject)
			return rw.check()
		}
		for _, other := range doc.rows {
			if other != rw && other.subject == subject {
				return regErr(ErrInvalid, "OAuth subject %s already maps to agent %s", pyfmt.Quote(subject), pyfmt.Quote(other.id))
			}
		}
		rw.raw.Set(keySubject, subject)
		return rw.check()
	})
}

// caller returns the HTTP caller of a row.
func (rw *row) caller() Caller {
	return Caller{ID: rw.id, Tier: rw.tier, Grants: slices.Clone(rw.grants), Transport: HTTP, Rate: rw.rate}
}
