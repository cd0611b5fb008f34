package knowledge

import (
	"crypto/sha256"
	"encoding/hex"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// The uid prefixes of memory nodes.
const (
	agentPrefix  = "bourdon.agent."
	entityPrefix = "bourdon.entity."
)

// agentMemory is one manifest as graph nodes, with their content hashes
// computed, made once per manifest.
type agentMemory struct {
	// id is the agent's id, as the library has it (its node shows it
	// redacted).
	id       string
	agent    graph.Node
	entities []graph.Node
	// keys are, by entity, the federation.Key of its name and of each of
	// its aliases, each once: what its xref edges match.
	keys [][]string
}

// newAgentMemory makes the nodes of one agent's manifest. Their text is
// redacted as the memory tools redact it (redact.Secret: a value the
// battery flags is replaced whole), and their uids never spell a flagged
// name or agent id (uidPart), so neither a query nor a uid in a result
// shows what find_entity would not.
func newAgentMemory(a *library.Agent) *agentMemory {
	m := a.Manifest
	updated := parseTime(m.LastUpdated)
	id := redact.Secret(a.ID)
	props := map[string]any{
		"title":      id,
		"agent":      id,
		"agentType":  redact.Secret(m.Agent.Type),
		"visibility": visibility.Public.String(),
	}
	if m.Agent.RoleNarrative != "" {
		props["roleNarrative"] = redact.Secret(m.Agent.RoleNarrative)
	}
	agentUID := uidPart(a.ID, a.ID)
	am := &agentMemory{
		id: a.ID,
		agent: hashed(graph.Node{
			UID: agentPrefix + agentUID, Label: graph.Agent, Props: props, LastModified: updated, Source: id,
		}),
		entities: make([]graph.Node, 0, len(m.Entities)),
		keys:     make([][]string, 0, len(m.Entities)),
	}
	// Values every entity of the agent shares (property values are never
	// modified), boxed once.
	agentID, agents := any(id), []any{id}
	used := map[string]bool{}
	for i := range m.Entities {
		e := &m.Entities[i]
		name := strings.TrimSpace(e.Name)
		if name == "" {
			continue
		}
		modified := parseTime(e.LastTouched)
		if modified.IsZero() {
			modified = updated
		}
		summary := redact.Secret(e.Summary)
		am.entities = append(am.entities, hashed(graph.Node{
			UID:   entityPrefix + agentUID + "." + uniqueSlug(name, used),
			Label: graph.Entity,
			Props: map[string]any{
				"title":      redact.Secret(name),
				"agents":     agents,
				"agent":      agentID,
				"type":       redact.Secret(e.Type),
				"summary":    summary,
				"aliases":    list(e.Aliases),
				"tags":       list(e.Tags),
				"visibility": e.Visibility.String(),
			},
			Content:      summary,
			LastModified: modified,
			Source:       id,
		}))
		am.keys = append(am.keys, entityKeys(name, e))
	}
	return am
}

// hashed returns n with its content hash.
func hashed(n graph.Node) graph.Node {
	n.ContentHash = graph.ContentHash(&n)
	return n
}

// entityKeys returns the federation.Key of the entity's name and aliases,
// each once.
func entityKeys(name string, e *l5.Entity) []string {
	keys := []string{federation.Key(name)}
	for _, alias := range e.Aliases {
		if k := federation.Key(alias); k != "" && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// uniqueSlug returns the slug of name (uidPart), with "-2", "-3"…
// appended when used already holds it, and records it in used.
func uniqueSlug(name string, used map[string]bool) string {
	base := uidPart(name, slug(name))
	s := base
	for n := 2; used[s]; n++ {
		s = base + "-" + strconv.Itoa(n)
	}
	used[s] = true
	return s
}

// slug lowercases name and turns each run of characters other than a-z
// and 0-9 into one "-", trimmed at both ends. A name with none of those
// characters gets "x" and the first eight hex digits of its SHA-256.
func slug(name string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if gap && b.Len() > 0 {
				b.WriteByte('-')
			}
			gap = false
			b.WriteRune(r)
			continue
		}
		gap = true
	}
	if b.Len() == 0 {
		sum := sha256.Sum256([]byte(name))
		return "x" + hex.EncodeToString(sum[:4])
	}
	return b.String()
}

// uidPart returns part, the uid segment made from name, unless the
// redaction battery flags name or part as a field: then "x" and the first
// eight hex digits of the name's SHA-256, so that no uid spells a
// credential (a slug lower-cases and drops the underscores that let a
// token be recognised).
func uidPart(name, part string) string {
	if !redact.Flagged(name) && !redact.Flagged(part) {
		return part
	}
	sum := sha256.Sum256([]byte(name))
	return "x" + hex.EncodeToString(sum[:4])
}

// list returns a list property: the strings, redacted as fields
// (redact.Secret), as []any, never nil.
func list(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = redact.Secret(s)
	}
	return out
}

// parseTime reads an RFC 3339 time or an ISO date; anything else is the
// zero time.
func parseTime(s string) time.Time {
	for _, layout := range []string{time.RFC3339, time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// parallel calls fn(i) for every i < n on up to GOMAXPROCS goroutines.
func parallel(n int, fn func(i int)) {
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), n)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				fn(i)
			}
		})
	}
	wg.Wait()
}
