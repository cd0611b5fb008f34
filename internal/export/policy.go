package export

import "slices"

// Resolve returns the visibility of a row under the policy: a private tag
// wins over everything, then the row's own visibility, then a team tag,
// then the policy's default ("team" when the policy has none). This is the
// reference's resolution; unlike the reference, exporters stamp the result
// on the row (docs/exporters.md), so a reader never takes a row without a
// visibility for public.
func (p *Policy) Resolve(own string, tags []string) string {
	def := "team"
	var private, team []string
	if p != nil {
		private, team = p.PrivateTags, p.TeamTags
		if p.Default != "" {
			def = p.Default
		}
	}
	for _, t := range tags {
		if slices.Contains(private, t) {
			return "private"
		}
	}
	if own != "" {
		return own
	}
	for _, t := range tags {
		if slices.Contains(team, t) {
			return "team"
		}
	}
	return def
}

// Stamp resolves and sets the visibility of every entity and session, and
// drops the entities that resolve to private, as the reference does
// (sessions carry no tags and are kept at their resolved level).
func (o *Output) Stamp() {
	kept := o.Entities[:0]
	for _, e := range o.Entities {
		e.Visibility = o.Policy.Resolve(e.Visibility, e.Tags)
		if e.Visibility != "private" {
			kept = append(kept, e)
		}
	}
	o.Entities = kept
	for i := range o.Sessions {
		o.Sessions[i].Visibility = o.Policy.Resolve(o.Sessions[i].Visibility, nil)
	}
}

// The L5 schema's bounds that exporters must respect (⚠ #9): longer lists
// are cut and longer strings shortened before a manifest is written.
const (
	MaxSessions     = 500
	MaxEntities     = 1000
	MaxAliases      = 16
	MaxKeyActions   = 10
	MaxFiles        = 50
	MaxKeyAction    = 256
	MaxEntityName   = 128
	MaxEntityType   = 64
	MaxSummary      = 2000
	MaxCwd          = 512
	MaxCapability   = 64
	MaxCapabilities = 64
)
