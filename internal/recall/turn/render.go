package turn

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/recall/recognition"
)

// nativeStage1 is the only Stage 1 health this build can report.
const nativeStage1 = "unknown"

type buildArgs struct {
	prompt   string
	cwd      *string
	repo     repoResult
	threads  threadsResult
	maxItems int
	maxChars int
	delivery string
}

// build assembles the brief from the scored candidates.
func build(sc *scorer, scored []*candidate, a buildArgs) *Brief {
	selected := scored[:min(len(scored), a.maxItems)]
	items := make([]Item, len(selected))
	for i, c := range selected {
		summary := c.summary
		if summary == "" {
			summary = "Recognition anchor."
		}
		ev := c.evidence[:min(4, len(c.evidence))]
		evidence := make([]string, len(ev))
		for j, e := range ev {
			evidence[j] = safe(e, evidenceLimit)
		}
		items[i] = Item{
			Rank:         i + 1,
			Score:        round1(c.total),
			Kind:         c.kind,
			Name:         safe(c.name, itemNameLimit),
			Summary:      safe(summary, itemSummaryLimit),
			Reason:       c.reason,
			Source:       c.source,
			SourceAgents: nonNilStrings(c.sourceAgents),
			Evidence:     evidence,
			score:        c.total,
		}
	}

	repo := a.repo.Repo
	routing := routingFor(sc, selected, items, scored, repo)
	text := explicitText(items, repo, a.maxChars)

	b := &Brief{
		SchemaVersion: SchemaVersion,
		Prompt:        a.prompt,
		Cwd:           a.cwd,
		Repo:          repo,
		Health:        Health{NativeStage1: nativeStage1, Strategy: Strategy},
		Routing:       routing,
		Items:         items,
		Delivery:      delivery(a.delivery, text, items, repo),
		Trace:         trace(selected, scored, repo, a.repo.timedOut, routing),
		Diagnostics: Diagnostics{
			ScoringComponents: map[string]Components{},
			CandidateCount:    len(scored),
			Delivery:          a.delivery,
			MaxItems:          a.maxItems,
			MaxChars:          a.maxChars,
			Stage1Jobs:        Stage1Jobs{ByStatus: map[string]int{}, ErrorClasses: map[string]int{}},
			ExhaustedPaths:    slices.Clone(exhaustedPaths),
			CodexState:        a.threads.state,
		},
	}
	for _, c := range selected {
		b.Diagnostics.ScoringComponents[safe(c.name, itemNameLimit)] = Components{
			Prompt: round1(c.comp.Prompt), CwdRepo: round1(c.comp.CwdRepo), Recency: round1(c.comp.Recency),
			CrossAgent: round1(c.comp.CrossAgent), Continuity: round1(c.comp.Continuity), Penalty: round1(c.comp.Penalty),
		}
	}
	return b
}

// routingFor decides whether and where to inject.
func routingFor(sc *scorer, selected []*candidate, items []Item, scored []*candidate, repo Repo) Routing {
	if len(items) == 0 {
		return Routing{
			Mode:               "observe",
			PrimarySurface:     "none",
			Surfaces:           []string{},
			Confidence:         recognition.ConfidenceNone,
			Reason:             "no high-confidence recognition anchors",
			SuppressedSurfaces: []string{"native_stage1", "memory_md", "fallback_file"},
			NextAction:         "continue without recognition injection",
		}
	}
	top := &items[0]
	confidence := topConfidence(sc.prompt, selected[0])
	surfaces := []string{"explicit_pre_turn"}
	if top.score >= 35 {
		surfaces = append(surfaces, "mcp")
	}
	if repo.Name != nil && *repo.Name != "" && top.score >= 45 {
		surfaces = append(surfaces, "repo_overlay_candidate")
	}
	// native_memory_supporting needs Stage 1 "available", which this
	// build never reports.
	suppressed := []string{}
	if confidence == recognition.ConfidenceLow {
		suppressed = append(suppressed, "memory_md", "fallback_file")
	}
	sources := map[string]bool{}
	for _, c := range scored {
		sources[c.source] = true
	}
	pieces := []string{
		"top anchor scored " + strconv.FormatFloat(top.score, 'f', 1, 64),
		"source mix spans " + strconv.Itoa(len(sources)) + " surface(s)",
	}
	if repo.Name != nil && *repo.Name != "" {
		pieces = append(pieces, "repo identity available as "+*repo.Name)
	}
	return Routing{
		Mode:               "inject",
		PrimarySurface:     surfaces[0],
		Surfaces:           surfaces,
		Confidence:         confidence,
		Reason:             strings.Join(pieces, "; "),
		SuppressedSurfaces: suppressed,
		NextAction:         "prepend delivery.explicit_text before the Codex turn",
	}
}

// topConfidence is the shared tier-only confidence bucket of the top
// item: the strongest tier its name, aliases and project focus reach
// against the prompt. An item the prompt does not name (admitted by the
// vague-continuation gate) is a weak anchor: "low".
func topConfidence(prompt string, top *candidate) string {
	if c := recognition.Bucket(recognition.BestTier(prompt, top.names), 1, false, false); c != recognition.ConfidenceNone {
		return c
	}
	return recognition.ConfidenceLow
}

// explicitText renders the brief as the text to prepend to the turn,
// bounded to maxChars code points ("..." marks a cut).
func explicitText(items []Item, repo Repo, maxChars int) string {
	lines := []string{
		"Bourdon turn recognition brief",
		"Strategy: turn-scoped compiler; native Stage 1 is " + nativeStage1 + ".",
	}
	if repo.Name != nil && *repo.Name != "" {
		lines = append(lines, "Repo: "+*repo.Name)
	}
	if len(items) == 0 {
		lines = append(lines, "No high-confidence recognition anchors found for this turn.")
	} else {
		lines = append(lines, "Use these as recognition anchors, not as a final answer:")
		for _, it := range items {
			line := strconv.Itoa(it.Rank) + ". " + it.Name + " [" + it.Kind + ", " + it.Source + ", score " +
				strconv.FormatFloat(it.score, 'f', 1, 64) + "]"
			if len(it.SourceAgents) > 0 {
				line += " via " + strings.Join(it.SourceAgents[:min(4, len(it.SourceAgents))], ", ")
			}
			lines = append(lines, line, "   "+it.Summary, "   Why: "+it.Reason)
		}
	}
	text := strings.TrimFunc(strings.Join(lines, "\n"), pyfmt.IsSpace)
	if runeLen(text) <= maxChars {
		return text
	}
	return strings.TrimRightFunc(cutRunes(text, maxChars-3), pyfmt.IsSpace) + "..."
}

// delivery renders the brief's delivery forms the mode asks for.
func delivery(mode, text string, items []Item, repo Repo) Delivery {
	var d Delivery
	if mode == "explicit" || mode == "all" {
		d.ExplicitText = text
	}
	if mode == "mcp" || mode == "all" {
		d.MCPPayload = &MCPPayload{
			SchemaVersion: SchemaVersion, Strategy: Strategy, NativeStage1: nativeStage1,
			Repo: repo, Items: items, PromptContext: text,
		}
	}
	if mode == "memory-md" || mode == "all" {
		d.MemoryMDBlock = block(text, "BOURDON TURN BRIEF")
	}
	if mode == "fallback" || mode == "all" {
		d.FallbackBlock = block(text, "Bourdon Turn Brief")
	}
	if mode == "all" && repo.Name != nil && *repo.Name != "" && len(items) > 0 {
		lines := []string{
			"<!-- BEGIN BOURDON REPO OVERLAY CANDIDATE -->",
			"Repo overlay candidate for " + *repo.Name,
		}
		if repo.Root != nil {
			lines = append(lines, "Repo root: "+*repo.Root)
		}
		if repo.Remote != nil {
			lines = append(lines, "Remote: "+*repo.Remote)
		}
		lines = append(lines,
			"Use only as an explicit, human-reviewed overlay candidate.",
			"",
			text,
			"<!-- END BOURDON REPO OVERLAY CANDIDATE -->")
		d.RepoOverlayBlock = strings.Join(lines, "\n")
	}
	return d
}

func block(text, title string) string {
	return "<!-- BEGIN " + title + " -->\n" + text + "\n<!-- END " + title + " -->"
}

// trace explains the selection.
func trace(selected, scored []*candidate, repo Repo, repoTimedOut bool, routing Routing) Trace {
	t := Trace{
		RoutingDecision: RoutingDecision{
			PrimarySurface: routing.PrimarySurface, Confidence: routing.Confidence, Reason: routing.Reason,
		},
		SurfaceHealth: SurfaceHealth{NativeStage1: nativeStage1, RepoIdentity: "missing", CandidateCount: len(scored)},
		SourceMix:     SourceMix{Candidates: map[string]int{}, Selected: map[string]int{}, Ignored: map[string]int{}},
		SelectedItems: []SelectedItem{},
	}
	switch {
	case repoTimedOut:
		t.SurfaceHealth.RepoIdentity = "timed_out"
	case repo.Name != nil && *repo.Name != "":
		t.SurfaceHealth.RepoIdentity = "available"
	}
	for _, c := range selected {
		t.SourceMix.Selected[c.source]++
	}
	for i, c := range scored {
		t.SourceMix.Candidates[c.source]++
		if i >= len(selected) {
			t.SourceMix.Ignored[c.source]++
			continue
		}
		if len(t.SelectedItems) < 10 {
			t.SelectedItems = append(t.SelectedItems, SelectedItem{
				Name:               safe(c.name, itemNameLimit),
				Kind:               c.kind,
				Score:              round1(c.total),
				DominantComponents: dominant(c.comp),
				Reason:             c.reason,
			})
		}
	}
	return t
}

// dominant lists the (at most three) largest positive components, largest
// first, ties by name.
func dominant(c Components) []string {
	type kv struct {
		name string
		v    float64
	}
	all := []kv{
		{"prompt", c.Prompt}, {"cwd_repo", c.CwdRepo}, {"recency", c.Recency},
		{"cross_agent", c.CrossAgent}, {"continuity", c.Continuity},
	}
	pos := all[:0]
	for _, x := range all {
		if x.v > 0 {
			pos = append(pos, x)
		}
	}
	slices.SortStableFunc(pos, func(a, b kv) int {
		if c := cmp.Compare(b.v, a.v); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	out := make([]string, 0, 3)
	for _, x := range pos[:min(3, len(pos))] {
		out = append(out, x.name)
	}
	return out
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
