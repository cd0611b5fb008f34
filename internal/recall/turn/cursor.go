package turn

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
	"github.com/getbourdon/bourdon-go/internal/recall/recognition"
)

// The Cursor variant (cursor-turn-brief/v1): a flat additive scorer over
// every visible entity row of every agent, no merge across agents.

// CursorSchemaVersion is the Cursor brief's schema_version.
const CursorSchemaVersion = "cursor-turn-brief/v1"

// CursorBrief is the reference's CursorTurnBrief.
type CursorBrief struct {
	SchemaVersion   string        `json:"schema_version"`
	Strategy        string        `json:"strategy"`
	PromptTokens    []string      `json:"prompt_tokens"`
	CwdProject      string        `json:"cwd_project"`
	MatchedEntities []CursorMatch `json:"matched_entities"`
	Routing         CursorRouting `json:"routing"`
	// CompileLatency is how long compiling took, in microseconds.
	CompileLatency float64 `json:"compile_latency_us"`
}

// CursorMatch is one matched entity row.
type CursorMatch struct {
	Name    string  `json:"name"`
	Type    string  `json:"type"`
	Agent   string  `json:"agent"`
	Summary string  `json:"summary"`
	Score   float64 `json:"score"` // rounded to 2 decimals
}

// CursorRouting is the Cursor brief's routing.
type CursorRouting struct {
	Confidence string `json:"confidence"`
	Strategy   string `json:"strategy"`
}

type cursorScored struct {
	score float64
	agent string
	e     *l5Entity
}

// l5Entity is the part of an entity row the Cursor scorer reads.
type l5Entity struct {
	name, typ, summary, lastTouched string
	aliases                         []string
}

// CursorRequest is one Cursor compile.
type CursorRequest struct {
	Prompt string
	// Cwd names the project by its base name; nil or blank for none.
	Cwd *string
	// AccessLevel is resolved like the store's lookups (case and
	// surrounding space ignored).
	AccessLevel string
	// MaxItems is clamped to 1..20 (the reference clamps here instead of
	// failing).
	MaxItems int
	Now      time.Time
}

// CompileCursor builds the Cursor brief over the given manifests (in
// agent id order). The only error is an unknown access level.
func CompileCursor(agents []federation.AgentManifest, req CursorRequest) (*CursorBrief, error) {
	start := time.Now()
	level, ok := visibility.Parse(req.AccessLevel)
	if !ok {
		return nil, &visibility.ErrUnsupported{Value: req.AccessLevel}
	}
	maxItems := min(max(req.MaxItems, MinMaxItems), MaxMaxItems)
	prompt := cutRunes(req.Prompt, MaxPromptChars)

	tokens := []string{}
	for _, t := range analyze.Tokens(prompt) {
		if analyze.Meaningful(t, analyze.RecognitionParity) {
			tokens = append(tokens, t)
		}
	}
	project := ""
	if req.Cwd != nil {
		if b := strings.TrimSpace(cursorBase(*req.Cwd)); b != "." && b != "/" && b != "~" {
			project = b
		}
	}
	today := time.Date(req.Now.Year(), req.Now.Month(), req.Now.Day(), 0, 0, 0, 0, time.UTC)

	var scored []*cursorScored
	for _, a := range agents {
		for i := range a.Manifest.Entities {
			ent := &a.Manifest.Entities[i]
			if !visibility.Visible(ent.Visibility, level) {
				continue
			}
			e := &l5Entity{name: ent.Name, typ: ent.Type, summary: ent.Summary, lastTouched: ent.LastTouched, aliases: ent.Aliases}
			if s := cursorScore(e, tokens, project, today); s > 0 {
				scored = append(scored, &cursorScored{score: s, agent: a.ID, e: e})
			}
		}
	}
	slices.SortStableFunc(scored, func(a, b *cursorScored) int { return cmp.Compare(b.score, a.score) })
	top := scored[:min(len(scored), maxItems)]

	b := &CursorBrief{
		SchemaVersion:   CursorSchemaVersion,
		Strategy:        Strategy,
		PromptTokens:    tokens,
		CwdProject:      project,
		MatchedEntities: make([]CursorMatch, len(top)),
		Routing:         CursorRouting{Confidence: recognition.ConfidenceNone, Strategy: Strategy},
	}
	for i, s := range top {
		typ := s.e.typ
		if typ == "" {
			typ = "topic"
		}
		b.MatchedEntities[i] = CursorMatch{Name: s.e.name, Type: typ, Agent: s.agent, Summary: s.e.summary, Score: round2(s.score)}
	}
	if len(top) > 0 {
		// The shared tier-only bucket of the best match's name and
		// aliases: recency or cwd alone never make a recognition.
		b.Routing.Confidence = recognition.Confidence(prompt, append([]string{top[0].e.name}, top[0].e.aliases...))
	}
	b.CompileLatency = math.Round(float64(time.Since(start).Nanoseconds())/100) / 10
	return b, nil
}

// cursorBase is the Cursor compiler's project name: the path's last
// component.
func cursorBase(p string) string {
	p = strings.TrimRight(p, "/")
	if p == "" {
		return "/"
	}
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// cursorScore: 2 per prompt term that is a token of the name or an alias
// (repeated terms count again), 3 when the project name is inside the
// name or an alias, and 1 (touched within 7 days) or 0.5 (within 30) for
// recency.
func cursorScore(e *l5Entity, tokens []string, project string, today time.Time) float64 {
	name := strings.ToLower(e.name)
	aliases := make([]string, len(e.aliases))
	set := map[string]bool{}
	for _, t := range analyze.Tokens(name) {
		set[t] = true
	}
	for i, a := range e.aliases {
		aliases[i] = strings.ToLower(a)
		for _, t := range analyze.Tokens(aliases[i]) {
			set[t] = true
		}
	}
	score := 0.0
	for _, t := range tokens {
		if set[t] {
			score += 2
		}
	}
	if project != "" && strings.Contains(name+" "+strings.Join(aliases, " "), strings.ToLower(project)) {
		score += 3
	}
	if len(e.lastTouched) == 10 {
		if d, err := time.Parse("2006-01-02", e.lastTouched); err == nil {
			days := int(today.Sub(d).Hours() / 24)
			switch {
			case days <= 7:
				score++
			case days <= 30:
				score += 0.5
			}
		}
	}
	return score
}

func round2(x float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 2, 64), 64)
	return r
}

// Text renders the brief for a system prompt, bounded to maxChars code
// points.
func (b *CursorBrief) Text(maxChars int) string {
	var lines []string
	if b.CwdProject != "" {
		lines = append(lines, "Project: "+b.CwdProject)
	}
	if len(b.MatchedEntities) > 0 {
		lines = append(lines, "Federation context:")
		for _, m := range b.MatchedEntities {
			name, agent := m.Name, m.Agent
			if name == "" {
				name = "?"
			}
			line := "  - " + name + " (via " + agent + ")"
			if m.Summary != "" {
				line += ": " + safe(m.Summary, 160)
			}
			lines = append(lines, line)
		}
	}
	lines = append(lines, "Confidence: "+b.Routing.Confidence)
	text := strings.Join(lines, "\n")
	if runeLen(text) > maxChars {
		text = strings.TrimRightFunc(cutRunes(text, maxChars-3), pyfmt.IsSpace) + "..."
	}
	return text
}
