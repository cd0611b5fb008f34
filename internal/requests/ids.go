package requests

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

var (
	requestIDPattern  = regexp.MustCompile(`^(?i)req-([0-9]{4})-([0-9]{4,6})$`)
	proposalIDPattern = regexp.MustCompile(`^(?i)prop-[0-9a-f]{12}$`)
)

// ParseID reads a request id, REQ-YYYY-NNNN in any case, and returns it in
// its canonical form: upper case, the number in at least four digits.
func ParseID(s string) (string, error) {
	if !requestIDPattern.MatchString(s) {
		return "", fmt.Errorf("request id %q: want REQ-YYYY-NNNN, e.g. REQ-2026-0001", s)
	}
	return formatID(idParts(s)), nil
}

// canonicalID reports whether s is a request id in canonical form.
func canonicalID(s string) bool {
	id, err := ParseID(s)
	return err == nil && id == s
}

// idParts returns the year and the number of a request id.
func idParts(id string) (year, n int) {
	m := requestIDPattern.FindStringSubmatch(id)
	if m == nil {
		return 0, 0
	}
	year, _ = strconv.Atoi(m[1])
	n, _ = strconv.Atoi(m[2])
	return year, n
}

func formatID(year, n int) string { return fmt.Sprintf("REQ-%04d-%04d", year, n) }

// parseProposalID reads a proposal id, prop-<12 hex digits> in any case,
// and returns it in lower case.
func parseProposalID(s string) (string, error) {
	if !proposalIDPattern.MatchString(s) {
		return "", fmt.Errorf("proposal id %q: want prop- and 12 hex digits, e.g. prop-0123456789ab", s)
	}
	return strings.ToLower(s), nil
}

func newProposalID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "prop-" + hex.EncodeToString(b[:])
}

// maxIdentity bounds an identity: a proposer, an approver, an owner.
const maxIdentity = 200

// checkIdentity refuses an empty, overlong or unprintable identity; what
// names it in the message.
func checkIdentity(what, s string) error {
	switch {
	case strings.TrimSpace(s) == "":
		return fmt.Errorf("%s is empty: name who acts, e.g. github:alice", what)
	case len(s) > maxIdentity:
		return fmt.Errorf("%s is longer than %d bytes", what, maxIdentity)
	case strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) }) >= 0:
		return fmt.Errorf("%s %q holds spaces or control characters", what, s)
	}
	return nil
}

// sameIdentity compares identities, ignoring case.
func sameIdentity(a, b string) bool { return strings.EqualFold(a, b) }
