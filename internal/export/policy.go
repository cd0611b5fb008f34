package export

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// Level resolves the visibility of a row with the policy, in the
// reference's order: a private tag makes the row private whatever else it
// says; then the row's own visibility (own) when it has one; then a team
// tag makes it team; then the policy's default (team when the policy has
// none). An own visibility that is not one of the three names counts as
// private (fail closed). Tags match without regard to case, so a
// "Personal" tag withholds a row as "personal" does.
func (p Policy) Level(own string, tags []string) string {
	if hasTag(tags, p.PrivateTags) {
		return visibility.Private.String()
	}
	if strings.TrimSpace(own) != "" {
		l, ok := visibility.Parse(own)
		if !ok {
			return visibility.Private.String()
		}
		return l.String()
	}
	if hasTag(tags, p.TeamTags) {
		return visibility.Team.String()
	}
	if l, ok := visibility.Parse(p.Default); ok {
		return l.String()
	}
	return visibility.Team.String()
}

// StampEntities writes every entity's resolved level into its Visibility
// and returns the entities that are not private, in order. (The reference
// drops private entities too, but leaves the others unstamped, which
// readers take as public.)
func (p Policy) StampEntities(es []Entity) []Entity {
	kept := es[:0:0]
	for _, e := range es {
		e.Visibility = p.Level(e.Visibility, e.Tags)
		if e.Visibility != visibility.Private.String() {
			kept = append(kept, e)
		}
	}
	return kept
}

// StampSessions writes every session's resolved level (its own
// visibility, else the policy's default; sessions have no tags) into its
// Visibility and returns the sessions that are not private, in order: a
// private row never leaves an exporter, whatever its kind.
func (p Policy) StampSessions(ss []Session) []Session {
	kept := ss[:0:0]
	for _, s := range ss {
		s.Visibility = p.Level(s.Visibility, nil)
		if s.Visibility != visibility.Private.String() {
			kept = append(kept, s)
		}
	}
	return kept
}

func hasTag(tags, set []string) bool {
	for _, t := range tags {
		for _, s := range set {
			if strings.EqualFold(strings.TrimSpace(t), s) {
				return true
			}
		}
	}
	return false
}

// PrivateTags returns the private tags most of the reference's exporters
// write into their policy (cursor, cascade and openclaw have their own).
func PrivateTags() []string {
	return []string{"personal", "financial", "credential", "health", "family", "legal"}
}

// ExcludeMarker is the name of a file (its content does not matter) that
// keeps an exporter out of the directory holding it: a Claude Code
// project's memory directory, a claude-brain project, an automation's
// directory. It is how a person keeps one project out of the library
// without touching the agent's own files.
const ExcludeMarker = ".bourdon-exclude"

// Excluded reports whether dir holds an ExcludeMarker.
func Excluded(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ExcludeMarker))
	return err == nil
}
