package turn

import "encoding/json"

// The payload of compile_codex_turn: the reference's TurnBrief.to_dict(),
// keys in the reference's order. Maps with names for keys (scoring
// components, source mixes, Stage 1 counters) are Go maps; JSON object
// key order carries no meaning and encoding/json writes them sorted.

// SchemaVersion is the brief's schema_version.
const SchemaVersion = "codex-turn-brief/v1"

// Strategy is health.strategy and mcp_payload.strategy.
const Strategy = "turn_compiled"

// Brief is a compiled turn brief.
type Brief struct {
	SchemaVersion string      `json:"schema_version"`
	Prompt        string      `json:"prompt"`
	Cwd           *string     `json:"cwd"`
	Repo          Repo        `json:"repo"`
	Health        Health      `json:"health"`
	Routing       Routing     `json:"routing"`
	Items         []Item      `json:"items"`
	Delivery      Delivery    `json:"delivery"`
	Trace         Trace       `json:"trace"`
	Diagnostics   Diagnostics `json:"diagnostics"`
}

// Repo is the working directory's repository identity. Name is the
// repository root's directory name, or the working directory's when it is
// not inside a repository; Root and Remote are null outside a repository;
// Remote is the url of [remote "origin"]. Branch, an addition to the
// reference's keys, is the checked-out branch, and the key is absent when
// it is not known (no repository, detached HEAD, or not read in time).
type Repo struct {
	Name   *string `json:"name"`
	Root   *string `json:"root"`
	Remote *string `json:"remote"`
	Branch *string `json:"branch,omitempty"`
}

// Health reports the state of Codex's native memory pipeline.
type Health struct {
	// NativeStage1 is "available", "degraded" or "unknown". This build
	// cannot read Codex's SQLite state database, so it is always
	// "unknown" (see package documentation).
	NativeStage1 string `json:"native_stage1"`
	Strategy     string `json:"strategy"`
}

// Routing says whether and where to inject the brief.
type Routing struct {
	// Mode is "inject" when the brief has items, else "observe".
	Mode               string   `json:"mode"`
	PrimarySurface     string   `json:"primary_surface"`
	Surfaces           []string `json:"surfaces"`
	Confidence         string   `json:"confidence"`
	Reason             string   `json:"reason"`
	SuppressedSurfaces []string `json:"suppressed_surfaces"`
	NextAction         string   `json:"next_action"`
}

// Item is one recognition anchor of the brief.
type Item struct {
	Rank int `json:"rank"`
	// Score is rounded to one decimal, as the reference's to_dict does.
	Score        float64  `json:"score"`
	Kind         string   `json:"kind"`
	Name         string   `json:"name"`
	Summary      string   `json:"summary"`
	Reason       string   `json:"reason"`
	Source       string   `json:"source"`
	SourceAgents []string `json:"source_agents"`
	Evidence     []string `json:"evidence"`

	// score is the unrounded score, which the text renders.
	score float64
}

// Delivery holds the brief in every form a host can inject it. A form the
// requested delivery mode leaves out is "" (mcp_payload: {}).
type Delivery struct {
	ExplicitText     string      `json:"explicit_text"`
	MCPPayload       *MCPPayload `json:"mcp_payload"`
	MemoryMDBlock    string      `json:"memory_md_block"`
	FallbackBlock    string      `json:"fallback_block"`
	RepoOverlayBlock string      `json:"repo_overlay_block"`
}

// MarshalJSON writes a nil MCPPayload (left out by the delivery mode) as
// {}, as the reference does.
func (d Delivery) MarshalJSON() ([]byte, error) {
	type plain Delivery
	if d.MCPPayload != nil {
		return json.Marshal(plain(d))
	}
	var out struct {
		ExplicitText     string   `json:"explicit_text"`
		MCPPayload       struct{} `json:"mcp_payload"`
		MemoryMDBlock    string   `json:"memory_md_block"`
		FallbackBlock    string   `json:"fallback_block"`
		RepoOverlayBlock string   `json:"repo_overlay_block"`
	}
	out.ExplicitText, out.MemoryMDBlock = d.ExplicitText, d.MemoryMDBlock
	out.FallbackBlock, out.RepoOverlayBlock = d.FallbackBlock, d.RepoOverlayBlock
	return json.Marshal(out)
}

// MCPPayload is delivery.mcp_payload: the brief for an MCP caller.
type MCPPayload struct {
	SchemaVersion string `json:"schema_version"`
	Strategy      string `json:"strategy"`
	NativeStage1  string `json:"native_stage1"`
	Repo          Repo   `json:"repo"`
	Items         []Item `json:"items"`
	PromptContext string `json:"prompt_context"`
}

// Trace explains the routing decision and the source mix.
type Trace struct {
	RoutingDecision RoutingDecision `json:"routing_decision"`
	SurfaceHealth   SurfaceHealth   `json:"surface_health"`
	SourceMix       SourceMix       `json:"source_mix"`
	SelectedItems   []SelectedItem  `json:"selected_items"`
}

// RoutingDecision repeats the routing's primary surface, confidence and
// reason.
type RoutingDecision struct {
	PrimarySurface string `json:"primary_surface"`
	Confidence     string `json:"confidence"`
	Reason         string `json:"reason"`
}

// SurfaceHealth summarises the inputs the compiler had.
type SurfaceHealth struct {
	NativeStage1 string `json:"native_stage1"`
	// RepoIdentity is "available" when a repository name is known, else
	// "missing"; "timed_out" when reading the repository took longer
	// than the time bound (the name then comes from the working
	// directory alone).
	RepoIdentity   string `json:"repo_identity"`
	CandidateCount int    `json:"candidate_count"`
}

// SourceMix counts candidates by source: every scored candidate, the
// selected ones, and the others.
type SourceMix struct {
	Candidates map[string]int `json:"candidates"`
	Selected   map[string]int `json:"selected"`
	Ignored    map[string]int `json:"ignored"`
}

// SelectedItem explains one selected item.
type SelectedItem struct {
	Name               string   `json:"name"`
	Kind               string   `json:"kind"`
	Score              float64  `json:"score"`
	DominantComponents []string `json:"dominant_components"`
	Reason             string   `json:"reason"`
}

// Diagnostics carries the scoring details and the bounds in force.
type Diagnostics struct {
	// ScoringComponents maps the name of each selected candidate to its
	// score components; candidates sharing a name share the entry, and
	// the lower-ranked one wins (as in the reference).
	ScoringComponents map[string]Components `json:"scoring_components"`
	CandidateCount    int                   `json:"candidate_count"`
	Delivery          string                `json:"delivery"`
	MaxItems          int                   `json:"max_items"`
	MaxChars          int                   `json:"max_chars"`
	Stage1Jobs        Stage1Jobs            `json:"stage1_jobs"`
	ExhaustedPaths    []string              `json:"exhausted_paths"`
	// CodexState, an addition to the reference's keys, says what was read
	// from the Codex home. The key is present only when the Codex home
	// holds something this build reads or knows it cannot read.
	CodexState *CodexState `json:"codex_state,omitempty"`
}

// Components are the parts of a candidate's score, rounded to one decimal.
type Components struct {
	Prompt     float64 `json:"prompt"`
	CwdRepo    float64 `json:"cwd_repo"`
	Recency    float64 `json:"recency"`
	CrossAgent float64 `json:"cross_agent"`
	Continuity float64 `json:"continuity"`
	Penalty    float64 `json:"penalty"`
}

func (c Components) total() float64 {
	return c.Prompt + c.CwdRepo + c.Recency + c.CrossAgent + c.Continuity + c.Penalty
}

// Stage1Jobs summarises Codex's memory_stage1 jobs. This build does not
// read them (see Health.NativeStage1): always zero and empty.
type Stage1Jobs struct {
	Total        int            `json:"total"`
	ByStatus     map[string]int `json:"by_status"`
	ErrorClasses map[string]int `json:"error_classes"`
}

// CodexState reports what the compiler read from the Codex home.
type CodexState struct {
	// ThreadsSource is where thread metadata came from: "rollout_files"
	// ($CODEX_HOME/sessions) or "none".
	ThreadsSource string `json:"threads_source"`
	// ThreadsRead is the number of threads read (before dedupe and
	// scoring).
	ThreadsRead int `json:"threads_read"`
	// StateDB describes $CODEX_HOME/state_5.sqlite: "absent", or
	// "present, not read" (no SQLite reader in this build, so native
	// Stage 1 stays "unknown").
	StateDB string `json:"state_db"`
	// Note explains a partial read (time bound reached, unreadable
	// files); absent when everything was read.
	Note string `json:"note,omitempty"`
}

// exhaustedPaths are the delivery strategies the turn compiler replaces.
var exhaustedPaths = []string{
	"native_stage1_primary",
	"static_fallback_primary",
	"l5_export_only",
	"sync_native_only",
}
