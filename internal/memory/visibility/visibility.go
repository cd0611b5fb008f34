// Package visibility holds the one rule that decides which rows of a
// manifest a reader may see. Every read surface calls Visible; none
// re-implements it.
//
// Rows carry a visibility of public, team or private; a reader asks at an
// access level with the same three values. A row is visible when its rank
// is at most the reader's: public < team < private.
package visibility

import (
	"fmt"
	"strings"
)

// Level is a visibility or an access level. The zero value is Public.
type Level uint8

// The three levels, in increasing rank.
const (
	Public Level = iota
	Team
	Private
)

// String returns the lowercase name of the level.
func (l Level) String() string {
	switch l {
	case Team:
		return "team"
	case Private:
		return "private"
	}
	return "public"
}

// Parse accepts public, team or private in any case, surrounded by
// whitespace, and reports whether s named a level.
func Parse(s string) (Level, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "public":
		return Public, true
	case "team":
		return Team, true
	case "private":
		return Private, true
	}
	return Public, false
}

// OfRow returns the visibility of a manifest row from the raw value of its
// visibility field. A missing or null value counts as def (public for
// the read tools, team for the export surface, as in the reference). Any
// other value that is not one of the three names fails closed to private:
// the reference shows such rows to everyone, which leaks a row whose author
// meant "confidential" or mistyped "privat".
func OfRow(raw any, def Level) Level {
	if raw == nil {
		return def
	}
	if s, ok := raw.(string); ok {
		if l, ok := Parse(s); ok {
			return l
		}
	}
	return Private
}

// Visible reports whether a row with visibility row may be shown to a
// reader at access level access. This is the only visibility check in
// the program.
func Visible(row, access Level) bool { return row <= access }

// ErrUnsupported is the error for an access level that is not one of the
// three names. Its text matches the reference: "unsupported access_level: X".
type ErrUnsupported struct{ Value string }

func (e *ErrUnsupported) Error() string { return "unsupported access_level: " + e.Value }

// Resolve picks the access level for a query the way the reference does:
// an explicit level wins (and must be valid), then includePrivate means
// private, then fallback (the reference's BOURDON_DEFAULT_ACCESS_LEVEL
// when set, else public; see FromEnv).
func Resolve(explicit *string, includePrivate bool, fallback Level) (Level, error) {
	if explicit != nil {
		l, ok := Parse(*explicit)
		if !ok {
			return Public, &ErrUnsupported{Value: *explicit}
		}
		return l, nil
	}
	if includePrivate {
		return Private, nil
	}
	return fallback, nil
}

// EnvVar names the environment variable that sets the default access level.
const EnvVar = "BOURDON_DEFAULT_ACCESS_LEVEL"

// FromEnv reads BOURDON_DEFAULT_ACCESS_LEVEL through lookup (os.LookupEnv
// in the commands that resolve their configuration). set is false when the
// variable is unset or blank; err describes a value that is not a level
// (the level is then Public and set is false).
func FromEnv(lookup func(string) (string, bool)) (l Level, set bool, err error) {
	s, ok := lookup(EnvVar)
	if !ok || strings.TrimSpace(s) == "" {
		return Public, false, nil
	}
	l, valid := Parse(s)
	if !valid {
		return Public, false, fmt.Errorf("%s=%q is not public/team/private; falling back to the default", EnvVar, s)
	}
	return l, true, nil
}
