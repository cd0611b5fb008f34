package federation

import (
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/l5"
	"github.com/getbourdon/bourdon-go/internal/recognition"
	"github.com/getbourdon/bourdon-go/internal/visibility"
)

// This file gives the context assemblers (internal/deeper, internal/turn)
// what they read from the library. It adds read-only views; it changes
// nothing the other queries do.

// AgentManifest is one agent's manifest as the current snapshot holds it.
// Manifest is shared with the store and every other reader: treat it as
// read-only, and apply visibility.Visible to each row before using it.
// A manifest is replaced, never changed in place, when its file changes,
// so its pointer identifies one version of the agent's memory and can key
// a cache.
type AgentManifest struct {
	ID       string
	Manifest *l5.Manifest
}

// Manifests returns the manifests of the agents reader may read (nil
// reads every agent), in agent id order.
func (s *Store) Manifests(reader Reader) []AgentManifest {
	v := s.current()
	out := make([]AgentManifest, 0, len(v.agents))
	for _, ai := range v.agents {
		if reader.may(ai.id) {
			out = append(out, AgentManifest{ID: ai.id, Manifest: ai.m})
		}
	}
	return out
}

// AgentSession is one visible session and the agent that published it.
// Session points into a shared manifest: read-only.
type AgentSession struct {
	Agent   string
	Session *l5.Session
}

// RecognitionManifest is the library as the reference's
// build_recognition_manifest shapes it for recognition-time consumers:
// every visible entity merged into one row per name, and every visible
// session with its agent.
type RecognitionManifest struct {
	// Entities are the merged rows in recognition-manifest order: by the
	// position of each row's first visible contribution (agent id, then
	// entity order). See recognition.Index.Rows.
	Entities []recognition.Row
	// Sessions are the visible sessions of every agent (agents in id
	// order, sessions in file order), then sorted by date text, newest
	// first, keeping that order among equal dates.
	Sessions []AgentSession
}

// RecognitionManifest returns the recognition manifest at level. Entity
// rows come from the recognition index, which holds every agent; reader
// limits the sessions and drops the entity rows no readable agent
// contributes to (a row that a readable agent shares with an unreadable
// one still shows both agents, as prepare_recognition_context does).
func (s *Store) RecognitionManifest(level visibility.Level, reader Reader) RecognitionManifest {
	v := s.current()
	rows := s.rec.Rows(level)
	if reader != nil {
		rows = slices.DeleteFunc(rows, func(r recognition.Row) bool {
			return !slices.ContainsFunc(r.SourceAgents, reader.may)
		})
	}
	var sessions []AgentSession
	for _, ai := range v.agents {
		if !reader.may(ai.id) {
			continue
		}
		for i := range ai.m.Sessions {
			ses := &ai.m.Sessions[i]
			if visibility.Visible(ses.Visibility, level) {
				sessions = append(sessions, AgentSession{Agent: ai.id, Session: ses})
			}
		}
	}
	slices.SortStableFunc(sessions, func(a, b AgentSession) int {
		return strings.Compare(b.Session.Date, a.Session.Date)
	})
	return RecognitionManifest{Entities: nonNil(rows), Sessions: nonNil(sessions)}
}
