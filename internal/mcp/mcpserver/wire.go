package mcpserver

import (
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/memory/commit"
)

// Wire types: the payload shapes of the tools whose core types serve
// another purpose besides the payload, so that changing that purpose (a
// storage record's fields, the graph vocabulary's model) cannot change
// what the tools answer. Each is converted field by field; the pinned tool
// schemas (testdata/tool_schemas) hold the shapes themselves.
//
// The other tools answer with their core package's own payload types,
// which exist to be that payload, in the reference's shape, and are shared
// on purpose with the CLI twins and the peer client (federation's lists
// and summaries, recognition, deeper context, the turn brief, the commit
// result, search and query results, requests): a copy here would let those
// surfaces drift apart.

// changeWire is a write's provenance as the history tools show it;
// commit.Change is also the line format of provenance.jsonl.
type changeWire struct {
	Time            string              `json:"time"`
	Op              string              `json:"op"`
	AgentID         string              `json:"agent_id"`
	Mode            string              `json:"mode,omitempty"`
	Digest          string              `json:"digest"`
	Digest8         string              `json:"digest8"`
	PreviousDigest  string              `json:"previous_digest,omitempty"`
	ArchivedVersion string              `json:"archived_version,omitempty"`
	RolledBackTo    string              `json:"rolled_back_to,omitempty"`
	StagedBy        string              `json:"staged_by,omitempty"`
	Caller          string              `json:"caller"`
	CallerTier      string              `json:"caller_tier,omitempty"`
	SessionID       string              `json:"session_id,omitempty"`
	TranscriptRef   string              `json:"transcript_ref,omitempty"`
	CallerAsserted  []string            `json:"caller_asserted"`
	Changes         map[string][]string `json:"changes,omitempty"`
}

func changeOf(c *commit.Change) *changeWire {
	if c == nil {
		return nil
	}
	return &changeWire{
		Time: c.Time, Op: c.Op, AgentID: c.AgentID, Mode: c.Mode, Digest: c.Digest, Digest8: c.Digest8,
		PreviousDigest: c.PreviousDigest, ArchivedVersion: c.ArchivedVersion, RolledBackTo: c.RolledBackTo, StagedBy: c.StagedBy,
		Caller: c.Caller, CallerTier: c.CallerTier, SessionID: c.SessionID, TranscriptRef: c.TranscriptRef,
		CallerAsserted: c.CallerAsserted, Changes: c.Changes,
	}
}

// versionWire is one archived state in list_memory_versions.
type versionWire struct {
	VersionID   string      `json:"version_id"`
	Digest8     string      `json:"digest8"`
	ArchivedAt  string      `json:"archived_at"`
	Entities    int         `json:"entities"`
	Sessions    int         `json:"sessions"`
	Workstreams int         `json:"workstreams"`
	Notes       int         `json:"notes"`
	ReplacedBy  *changeWire `json:"replaced_by"`
}

func versionOf(v commit.Version) versionWire {
	return versionWire{
		VersionID: v.VersionID, Digest8: v.Digest8, ArchivedAt: v.ArchivedAt,
		Entities: v.Entities, Sessions: v.Sessions, Workstreams: v.Workstreams, Notes: v.Notes,
		ReplacedBy: changeOf(v.ReplacedBy),
	}
}

// labelWire is a node label in describe_schema; graph.LabelSpec is the
// vocabulary's model, which also presents the node resources.
type labelWire struct {
	Label       graph.Label `json:"label"`
	Title       string      `json:"title"`
	Description string      `json:"description"`
	Required    []string    `json:"required"`
	MimeType    string      `json:"mimeType"`
	Icon        string      `json:"icon,omitempty"`
}

func labelOf(l graph.LabelSpec) labelWire {
	return labelWire{Label: l.Label, Title: l.Title, Description: l.Description, Required: l.Required, MimeType: l.MimeType, Icon: l.Icon}
}

// edgeWire is an edge type in describe_schema.
type edgeWire struct {
	Type        graph.EdgeType `json:"type"`
	Description string         `json:"description"`
	From        []graph.Label  `json:"from,omitempty"`
	To          []graph.Label  `json:"to,omitempty"`
}

func edgeOf(e graph.EdgeSpec) edgeWire {
	return edgeWire{Type: e.Type, Description: e.Description, From: e.From, To: e.To}
}

// monikerWire is a product version in describe_schema.
type monikerWire struct {
	Name    string `json:"name"`
	Product string `json:"product"`
	Order   int    `json:"order"`
	Status  string `json:"status"`
	Default bool   `json:"default,omitempty"`
}

func monikerOf(m graph.Moniker) monikerWire {
	return monikerWire{Name: m.Name, Product: m.Product, Order: m.Order, Status: m.Status, Default: m.Default}
}

// wireList converts a list to its wire type; nil stays nil (null in the
// payload), as it was.
func wireList[T, W any](in []T, wire func(T) W) []W {
	if in == nil {
		return nil
	}
	out := make([]W, len(in))
	for i, v := range in {
		out[i] = wire(v)
	}
	return out
}
