package recognition

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// Bounds of the prompt-context fragment. FieldLimit is the reference's;
// the others are this implementation's (the reference writes one line per
// match and lists every source agent, without limit).
const (
	// FieldLimit bounds every quoted field of the fragment (recognition
	// string, entity name, type, summary), in code points, "..." included.
	FieldLimit = 240
	// MaxContextEntities bounds the number of entity lines.
	MaxContextEntities = 8
	// MaxContextChars bounds the whole fragment, in code points, newlines
	// included.
	MaxContextChars = 2400
	// MaxViaAgents bounds the agents named on one entity line; the rest
	// are counted ("(+3 more)").
	MaxViaAgents = 8
	// AgentLimit bounds one agent id on an entity line, in code points.
	AgentLimit = 64
)

// The fixed lines of the fragment.
const (
	contextHeader   = "Bourdon recognition context"
	entitiesHeader  = "Matched entities:"
	contextFooter   = "Use this as timing-layer context, not as a final answer."
	recognitionHead = "Immediate recognition: "
)

// LineKind says what a fragment line is.
type LineKind uint8

// The kinds of fragment lines, in the order they appear.
const (
	// LineHeader is the fixed first line, "Bourdon recognition context".
	LineHeader LineKind = iota
	// LineRecognition quotes the recognition string.
	LineRecognition
	// LineEntitiesHeader is "Matched entities:".
	LineEntitiesHeader
	// LineEntity describes one match, drawn from the entity rows of
	// Line.Agents, with the summary of Line.SummaryAgent.
	LineEntity
	// LineOmitted counts the matches left out by the bounds.
	LineOmitted
	// LineFooter is the fixed last line.
	LineFooter
	// LinePeer quotes a peer server's recognition, "[peer:<name>] ...",
	// appended after the local fragment by a federated call; Line.Agents
	// holds "peer:<name>".
	LinePeer
)

// String names the kind: header, recognition, entities_header, entity,
// omitted, footer or peer.
func (k LineKind) String() string {
	switch k {
	case LineHeader:
		return "header"
	case LineRecognition:
		return "recognition"
	case LineEntitiesHeader:
		return "entities_header"
	case LineEntity:
		return "entity"
	case LineOmitted:
		return "omitted"
	case LinePeer:
		return "peer"
	}
	return "footer"
}

// MarshalText writes the kind's name.
func (k LineKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Line is one line of the fragment and where it came from.
type Line struct {
	Text string   `json:"-"`
	Kind LineKind `json:"kind"`
	// Entity is the name of the matched entity an entity line describes.
	Entity string `json:"entity,omitempty"`
	// Agents are the agents whose entity rows an entity line is drawn
	// from (all of them, also when the line names only the first
	// MaxViaAgents).
	Agents []string `json:"agents,omitempty"`
	// SummaryAgent is the agent whose summary an entity line quotes, ""
	// when it quotes none.
	SummaryAgent string `json:"summary_agent,omitempty"`
}

// Fragment is the prompt_context an agent can prepend to its prompt:
//
//	Bourdon recognition context
//	Immediate recognition: {recognition}
//	Matched entities:
//	- {name} ({type}) via {agent}, {agent}: {summary}
//	Use this as timing-layer context, not as a final answer.
//
// Every quoted field passes redact.Text with limit FieldLimit (whitespace
// collapsed, credential-like text replaced whole, links replaced, long
// text cut with "..."); agent ids pass it with limit AgentLimit. Each
// entity line says where it came from: the agents that know the entity
// (Line.Agents, SummaryAgent give the same in structured form).
//
// The fragment is the reference's, byte for byte, while it is within
// bounds. Beyond MaxContextEntities matches or MaxContextChars code
// points, entity lines are kept in match order while they fit and a line
// "(+N more matched entities not shown)" replaces the rest; an entity
// known to more than MaxViaAgents agents names the first ones and counts
// the others. Truncated reports whether any of that happened.
type Fragment struct {
	Text  string
	Lines []Line
	// Truncated is true when the bounds left out something the
	// reference's fragment would show.
	Truncated bool
	// OmittedEntities is the number of matches without an entity line.
	OmittedEntities int
}

// BuildFragment returns the prompt-context fragment for a recognition
// string and its matches; empty when recognition is empty.
func BuildFragment(recognition string, ms []Match) Fragment {
	if recognition == "" {
		return Fragment{}
	}
	head := []Line{
		{Text: contextHeader, Kind: LineHeader},
		{Text: recognitionHead + safe(recognition, FieldLimit), Kind: LineRecognition},
	}
	if len(ms) > 0 {
		head = append(head, Line{Text: entitiesHeader, Kind: LineEntitiesHeader})
	}
	foot := Line{Text: contextFooter, Kind: LineFooter}

	var f Fragment
	shown := min(len(ms), MaxContextEntities)
	entities := make([]Line, shown)
	for i := range shown {
		var short bool
		entities[i], short = entityLine(&ms[i])
		f.Truncated = f.Truncated || short
	}

	used := lineChars(head) + runes(foot.Text) + len(head) // newlines
	budget := MaxContextChars
	if len(ms) > shown || used+lineChars(entities)+len(entities) > budget {
		// Keep entity lines while they fit next to the longest possible
		// omission line.
		budget -= runes(omittedLine(len(ms)).Text) + 1
		kept := 0
		for kept < shown {
			n := runes(entities[kept].Text) + 1
			if used+n > budget {
				break
			}
			used += n
			kept++
		}
		entities = entities[:kept]
		f.OmittedEntities = len(ms) - kept
	}

	f.Lines = make([]Line, 0, len(head)+len(entities)+2)
	f.Lines = append(f.Lines, head...)
	f.Lines = append(f.Lines, entities...)
	if f.OmittedEntities > 0 {
		f.Truncated = true
		f.Lines = append(f.Lines, omittedLine(f.OmittedEntities))
	}
	f.Lines = append(f.Lines, foot)

	size := 0
	for _, l := range f.Lines {
		size += len(l.Text) + 1
	}
	var b strings.Builder
	b.Grow(size)
	for i, l := range f.Lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.Text)
	}
	f.Text = b.String()
	return f
}

// entityLine renders one match, and reports whether its agent list was
// shortened.
func entityLine(m *Match) (Line, bool) {
	var b strings.Builder
	b.Grow(64 + len(m.Name) + len(m.Type) + len(m.Summary) + 12*min(len(m.SourceAgents), MaxViaAgents))
	b.WriteString("- ")
	b.WriteString(safe(m.Name, FieldLimit))
	b.WriteString(" (")
	b.WriteString(safe(typeOrTopic(m.Type), FieldLimit))
	b.WriteByte(')')
	agents := m.SourceAgents
	if slices.Contains(agents, "") {
		agents = slices.DeleteFunc(slices.Clone(agents), func(a string) bool { return a == "" })
	}
	short := len(agents) > MaxViaAgents
	if len(agents) > 0 {
		b.WriteString(" via ")
		for i, a := range agents[:min(len(agents), MaxViaAgents)] {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(safe(a, AgentLimit))
		}
		if short {
			b.WriteString(" (+")
			b.WriteString(strconv.Itoa(len(agents) - MaxViaAgents))
			b.WriteString(" more)")
		}
	}
	summaryAgent := ""
	if s := pyStrip(m.Summary); s != "" {
		b.WriteString(": ")
		b.WriteString(safe(s, FieldLimit))
		summaryAgent = m.SummaryAgent
	}
	return Line{Text: b.String(), Kind: LineEntity, Entity: m.Name, Agents: agents, SummaryAgent: summaryAgent}, short
}

// omittedLine is the line that counts the matches left out.
func omittedLine(n int) Line {
	return Line{Text: "(+" + strconv.Itoa(n) + " more matched entities not shown)", Kind: LineOmitted}
}

// safe is the fragment's text filter: redact.Text, the server's shared
// redaction pipeline.
func safe(s string, limit int) string { return redact.Text(s, limit) }

func runes(s string) int { return utf8.RuneCountInString(s) }

func lineChars(lines []Line) int {
	n := 0
	for _, l := range lines {
		n += runes(l.Text)
	}
	return n
}

// Result is the recognition part of the prepare_recognition_context
// payload, with the reference's keys. The tool adds prompt, access_level,
// include_private and recognition_latency_us.
type Result struct {
	// Recognition is the immediate acknowledgement ([RecognitionString]).
	Recognition string `json:"recognition"`
	// Confidence is the first match's bucket, "none" without matches.
	Confidence string `json:"confidence"`
	// MatchedEntities lists the matches: name, type ("topic" when
	// missing), source agents.
	MatchedEntities []MatchedEntity `json:"matched_entities"`
	// HydrationScheduled is true when something matched (the reference
	// schedules, and immediately drops, an L1 hydration then).
	HydrationScheduled bool `json:"hydration_scheduled"`
	// PromptContext is Fragment.Text.
	PromptContext string `json:"prompt_context"`
	// PromptContextTruncated is Fragment.Truncated; the key is absent when
	// false.
	PromptContextTruncated bool `json:"prompt_context_truncated,omitempty"`
	// PromptContextOmitted is Fragment.OmittedEntities; the key is absent
	// when zero.
	PromptContextOmitted int `json:"prompt_context_omitted_entities,omitempty"`

	// Fragment is the prompt context with the provenance of each line.
	Fragment Fragment `json:"-"`
	// Matches are the matches the result was built from.
	Matches []Match `json:"-"`
}

// NewResult builds the payload parts from matches (from [Index.Detect]).
func NewResult(ms []Match) Result {
	r := Result{
		Recognition:     RecognitionString(ms),
		Confidence:      ConfidenceNone,
		MatchedEntities: make([]MatchedEntity, len(ms)),
		Matches:         ms,
	}
	for i := range ms {
		m := &ms[i]
		r.MatchedEntities[i] = MatchedEntity{Name: m.Name, Type: typeOrTopic(m.Type), SourceAgents: nonNil(m.SourceAgents)}
	}
	if len(ms) > 0 {
		r.Confidence = ms[0].Confidence
		r.HydrationScheduled = true
	}
	r.Fragment = BuildFragment(r.Recognition, ms)
	r.PromptContext = r.Fragment.Text
	r.PromptContextTruncated = r.Fragment.Truncated
	r.PromptContextOmitted = r.Fragment.OmittedEntities
	return r
}
