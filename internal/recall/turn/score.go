package turn

import (
	"cmp"
	"hash/maphash"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
	"github.com/getbourdon/bourdon-go/internal/recall/recognition"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// Text limits of the reference's _safe_summary calls, in code points.
const (
	summaryLimit     = 220
	threadNameLimit  = 120
	itemNameLimit    = 120
	itemSummaryLimit = 260
	evidenceLimit    = 160
	longSummary      = 260 // penalty threshold
)

// safe is the text filter every string of the brief passes: whitespace
// collapsed, credential-like text replaced whole, links replaced, cut to
// limit code points with "...".
func safe(s string, limit int) string { return redact.Text(s, limit) }

// genericNames are candidate names too vague to anchor a turn.
var genericNames = map[string]bool{
	"memory": true, "memories": true, "notes": true, "project": true, "session": true,
	"thread": true, "workspace": true, "repo": true, "repository": true,
}

// continuationTerms mark a vague "keep going" prompt.
var continuationTerms = setOf(
	"continue", "next", "working", "work", "here", "this", "repo", "project", "focus", "resume", "again",
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// meaningfulCodex reports whether a token counts as a term for the Codex
// engine's token overlap: meaningful under the reference's stopwords and
// its Codex domain words.
func meaningfulCodex(t string) bool {
	return analyze.Meaningful(t, analyze.RecognitionParity, analyze.CodexParity)
}

// candidate is one thing the brief may name.
type candidate struct {
	kind, name, summary, source string
	sourceAgents                []string
	aliases, tags               []string
	date                        string
	cwd                         *string
	projectFocus, filesTouched  []string
	evidence                    []string

	// Set by scoring.
	comp   Components
	total  float64
	reason string
	names  []string // name, aliases, project focus: what the prompt is matched against
}

// scorer holds the per-turn inputs of scoring.
type scorer struct {
	prompt      string
	tokens      []string
	tokenSet    map[string]bool
	terms       map[string]bool // the prompt's Codex-meaningful terms
	vague       bool
	cwd         *string
	cwdBase     string // lower-cased base name of cwd
	repo        Repo
	repoName    string // lower-cased
	repoASCII   bool
	exhaustive  bool   // build every candidate (tests compare with the filtered path)
	remote      string // lower-cased
	today       time.Time
	resolved    map[string]string // cwd resolution cache
	resolvePath func(string) string
}

func newScorer(prompt string, cwd *string, repo Repo, now time.Time) *scorer {
	sc := &scorer{
		prompt:   prompt,
		tokens:   analyze.Tokens(prompt),
		cwd:      cwd,
		repo:     repo,
		resolved: map[string]string{},
	}
	sc.tokenSet = make(map[string]bool, len(sc.tokens))
	sc.terms = map[string]bool{}
	for _, t := range sc.tokens {
		sc.tokenSet[t] = true
		if meaningfulCodex(t) {
			sc.terms[t] = true
		}
	}
	for t := range sc.tokenSet {
		sc.vague = sc.vague || continuationTerms[t]
	}
	if j := strings.Join(sc.tokens, " "); j == "what should i do" || j == "what should i do next" {
		sc.vague = true
	}
	if cwd != nil {
		sc.cwdBase = strings.ToLower(baseName(*cwd))
	}
	if repo.Name != nil {
		sc.repoName = strings.ToLower(*repo.Name)
		sc.repoASCII = true
		for i := 0; i < len(sc.repoName); i++ {
			sc.repoASCII = sc.repoASCII && sc.repoName[i] < 0x80
		}
	}
	if repo.Remote != nil {
		sc.remote = strings.ToLower(*repo.Remote)
	}
	u := now.UTC()
	sc.today = time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
	return sc
}

// gather builds the candidates: the recognition manifest's entities and
// sessions, then the Codex threads, deduplicated by kind and name.
//
// Only candidates that can pass the recognition gate are built: rows
// sharing a token with the prompt, or (vague prompt) mentioning the
// repository name. Sessions are kept or left out by dedupe group, since
// a left-out session could still lend its agents and evidence to a kept
// one of the same name. The result is the reference's, restricted to the
// candidates scoring keeps; the cost grows with those, not with the
// library.
func gather(sc *scorer, src Source, level visibility.Level, reader federation.Reader, threads []threadRecord) []*candidate {
	rows := src.RecognitionRows(level, reader, func(e *l5.Entity) bool {
		if sc.exhaustive || sc.anyToken(e.Name) || sc.mentionsRepo(e.Name) || sc.mentionsRepo(e.Summary) {
			return true
		}
		for _, a := range e.Aliases {
			if sc.anyToken(a) {
				return true
			}
		}
		return false
	})
	var cands []*candidate
	for i := range rows {
		e := &rows[i]
		name := strings.TrimFunc(e.Name, pyfmt.IsSpace)
		if name == "" {
			continue
		}
		agents := nonBlank(e.SourceAgents, false)
		source := "l6_federation"
		if len(agents) == 1 && agents[0] == "codex" {
			source = "codex_l5"
		}
		c := &candidate{
			kind:         entityKind(e),
			name:         name,
			summary:      safe(e.Summary, summaryLimit),
			source:       source,
			sourceAgents: agents,
			aliases:      nonBlank(e.Aliases, true),
			tags:         nonBlank(e.Tags, true),
		}
		if len(agents) > 0 {
			c.evidence = append(c.evidence, "known by "+strings.Join(agents[:min(4, len(agents))], ", "))
		}
		if len(e.Aliases) > 0 {
			c.evidence = append(c.evidence, "aliases: "+strings.Join(e.Aliases[:min(3, len(e.Aliases))], ", "))
		}
		cands = append(cands, c)
	}
	cands = append(cands, sessionCandidates(sc, src, level, reader)...)
	for _, t := range threads {
		source := "codex_state"
		if t.hasRollout {
			source = "codex_rollout"
		}
		c := &candidate{
			kind:         "thread",
			name:         safe(t.name, threadNameLimit),
			summary:      safe(t.summary(), summaryLimit),
			source:       source,
			sourceAgents: []string{"codex"},
			date:         t.date,
			cwd:          t.cwd,
			evidence:     t.evidence(),
		}
		cands = append(cands, c)
	}
	for _, c := range cands {
		c.names = make([]string, 0, 1+len(c.aliases)+len(c.projectFocus))
		c.names = append(append(append(c.names, c.name), c.aliases...), c.projectFocus...)
	}
	return dedupe(sc, cands)
}

// sessionCandidates returns the candidates of the visible sessions, in
// the recognition manifest's order (date text, newest first, stable over
// agents in id order and file order), keeping the dedupe groups (same
// lower-cased name) of which some session can pass the gate.
func sessionCandidates(sc *scorer, src Source, level visibility.Level, reader federation.Reader) []*candidate {
	type ses struct {
		agent string
		s     *l5.Session
		name  string
	}
	var all []ses
	keep := map[uint64]bool{} // folded-name hashes of the groups kept
	for _, am := range src.Manifests(reader) {
		for i := range am.Manifest.Sessions {
			s := &am.Manifest.Sessions[i]
			if !visibility.Visible(s.Visibility, level) {
				continue
			}
			name := firstNonBlank(s.ProjectFocus)
			if name == "" {
				name = firstNonBlank(s.KeyActions)
			}
			if name == "" {
				continue
			}
			all = append(all, ses{am.ID, s, name})
			k := foldHash(name)
			if keep[k] {
				continue
			}
			pass := sc.exhaustive || sc.anyToken(name)
			for _, f := range s.ProjectFocus {
				pass = pass || sc.anyToken(f)
			}
			if !pass && sc.vague && sc.repoName != "" {
				pass = sc.mentionsRepo(name)
				for _, f := range s.ProjectFocus {
					pass = pass || sc.mentionsRepo(f)
				}
				n := 0
				for _, a := range s.KeyActions {
					if n < 2 && strings.TrimFunc(a, pyfmt.IsSpace) != "" {
						pass = pass || sc.mentionsRepo(a)
						n++
					}
				}
				if n == 0 {
					pass = pass || sc.mentionsRepo("Recent work focused on") // the summary's own words
				}
			}
			if pass {
				keep[k] = true
			}
		}
	}
	// A hash collision only lets in sessions whose own group the gate
	// then rejects.
	kept := all[:0]
	for _, x := range all {
		if keep[foldHash(x.name)] {
			kept = append(kept, x)
		}
	}
	slices.SortStableFunc(kept, func(a, b ses) int { return strings.Compare(b.s.Date, a.s.Date) })

	out := make([]*candidate, 0, len(kept))
	for _, x := range kept {
		s := x.s
		focus := nonBlank(s.ProjectFocus, true)
		acts := nonBlank(s.KeyActions, true)
		var summary string
		switch {
		case len(acts) > 0:
			summary = strings.Join(acts[:min(2, len(acts))], "; ")
		case len(focus) > 0:
			summary = "Recent work focused on " + strings.Join(focus[:min(3, len(focus))], ", ") + "."
		default:
			summary = "Recent federated work item."
		}
		source := "l6_federation"
		if x.agent == "codex" {
			source = "codex_l5"
		}
		c := &candidate{
			kind:         "session",
			name:         x.name,
			summary:      safe(summary, summaryLimit),
			source:       source,
			date:         s.Date,
			cwd:          s.Cwd,
			projectFocus: focus,
			filesTouched: nonBlank(s.FilesTouched, true),
		}
		if x.agent != "" {
			c.sourceAgents = []string{x.agent}
		}
		if s.Date != "" {
			c.evidence = append(c.evidence, "session date "+s.Date)
		}
		if s.Cwd != nil && *s.Cwd != "" {
			c.evidence = append(c.evidence, "cwd "+*s.Cwd)
		}
		if len(s.FilesTouched) > 0 {
			c.evidence = append(c.evidence, "files touched: "+strings.Join(s.FilesTouched[:min(3, len(s.FilesTouched))], ", "))
		}
		out = append(out, c)
	}
	return out
}

// foldHash hashes the lower-cased s (ASCII letters folded without
// allocating; other text lower-cased first).
func foldHash(s string) uint64 {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return maphash.String(hashSeed, strings.ToLower(s))
		}
	}
	var h maphash.Hash
	h.SetSeed(hashSeed)
	var buf [64]byte
	for len(s) > 0 {
		n := min(len(s), len(buf))
		for i := 0; i < n; i++ {
			c := s[i]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf[i] = c
		}
		h.Write(buf[:n])
		s = s[n:]
	}
	return h.Sum64()
}

var hashSeed = maphash.MakeSeed()

// firstNonBlank returns the first item of list that is not blank.
func firstNonBlank(list []string) string {
	for _, s := range list {
		if strings.TrimFunc(s, pyfmt.IsSpace) != "" {
			return s
		}
	}
	return ""
}

// anyToken reports whether s holds one of the prompt's tokens, without
// allocating.
func (sc *scorer) anyToken(s string) bool {
	var buf [64]byte
	for i := 0; i < len(s); {
		if !analyze.IsTokenByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && analyze.IsTokenByte(s[j]) {
			j++
		}
		if j-i <= len(buf) {
			b := buf[:0]
			for k := i; k < j; k++ {
				c := s[k]
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				b = append(b, c)
			}
			if sc.tokenSet[string(b)] {
				return true
			}
		} else if sc.tokenSet[strings.ToLower(s[i:j])] {
			return true
		}
		i = j
	}
	return false
}

// mentionsRepo is a cheap superset of the vague-continuation gate's test:
// the prompt is vague and s contains the repository name (case folded).
func (sc *scorer) mentionsRepo(s string) bool {
	if !sc.vague || sc.repoName == "" {
		return false
	}
	if !sc.repoASCII {
		return strings.Contains(strings.ToLower(s), sc.repoName)
	}
	n := sc.repoName
	for i := 0; i+len(n) <= len(s); i++ {
		j := 0
		for j < len(n) {
			c := s[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != n[j] {
				break
			}
			j++
		}
		if j == len(n) {
			return true
		}
	}
	return false
}

// entityKind classifies a recognition row: project and preference by
// type, handoff by a workflow or handoff tag, else entity.
func entityKind(r *recognition.Row) string {
	t := r.Type
	if t == "" {
		t = "entity"
	}
	if t == "project" || t == "preference" {
		return t
	}
	if slices.Contains(r.Tags, "workflow") || slices.Contains(r.Tags, "handoff") {
		return "handoff"
	}
	return "entity"
}

// nonBlank copies the items of list, dropping blank ones (and, when
// dropBlank is false, only empty ones).
func nonBlank(list []string, dropBlank bool) []string {
	out := make([]string, 0, len(list))
	for _, s := range list {
		if s == "" || (dropBlank && strings.TrimFunc(s, pyfmt.IsSpace) == "") {
			continue
		}
		out = append(out, s)
	}
	return out
}

// dedupe keeps one candidate per kind and lower-cased name: the first,
// unless a later one matches the prompt strictly better (it then takes
// the first one's place); otherwise the later one's agents and evidence
// join the first's.
func dedupe(sc *scorer, cands []*candidate) []*candidate {
	type key struct{ kind, name string }
	index := make(map[key]int, len(cands))
	out := cands[:0:0]
	for _, c := range cands {
		k := key{c.kind, strings.ToLower(c.name)}
		i, ok := index[k]
		if !ok {
			index[k] = len(out)
			out = append(out, c)
			continue
		}
		first := out[i]
		if s, _ := sc.promptScore(c); s > scoreOnly(sc.promptScore(first)) {
			out[i] = c
			continue
		}
		for _, a := range c.sourceAgents {
			if !slices.Contains(first.sourceAgents, a) {
				first.sourceAgents = append(first.sourceAgents, a)
			}
		}
		for _, e := range c.evidence {
			if !slices.Contains(first.evidence, e) {
				first.evidence = append(first.evidence, e)
			}
		}
	}
	return out
}

func scoreOnly(s float64, _ string) float64 { return s }

// promptScore is the prompt component: the best of the candidate's names
// on the tier ladder, and the name that reached it.
func (sc *scorer) promptScore(c *candidate) (float64, string) {
	best, bestName := 0.0, ""
	for _, name := range c.names {
		if strings.TrimFunc(strings.ToLower(name), pyfmt.IsSpace) == "" {
			continue
		}
		s := sc.nameScore(analyze.Tokens(name))
		if s > best {
			best, bestName = s, name
		}
	}
	return best, bestName
}

// The prompt component's points by tier of the shared ladder
// (analyze.TierOf): the reference turn compiler's values.
const (
	pointsExact         = 40
	pointsNameSubstring = 36
	pointsPerSharedTerm = 12 // a token overlap, per shared meaningful term
	pointsOverlapMax    = 24
)

// nameScore scores one name's tokens against the prompt's on the tier
// ladder, a token overlap by the number of meaningful (Codex) terms the
// name shares with the prompt.
func (sc *scorer) nameScore(name []string) float64 {
	switch analyze.TierOf(sc.tokens, name, analyze.RecognitionParity, analyze.CodexParity) {
	case analyze.TierExact:
		return pointsExact
	case analyze.TierNameSubstring:
		return pointsNameSubstring
	case analyze.TierTokenOverlap:
		shared := 0
		seen := make(map[string]bool, len(name))
		for _, t := range name {
			if !seen[t] && sc.terms[t] {
				shared++
			}
			seen[t] = true
		}
		return min(pointsOverlapMax, pointsPerSharedTerm*float64(shared))
	}
	return 0
}

// score computes every candidate's components, drops the ones that fail
// the recognition gate or score nothing, and sorts the rest: score, then
// date (newest first), lower-cased name, source.
func (sc *scorer) score(cands []*candidate) []*candidate {
	out := cands[:0:0]
	for _, c := range cands {
		prompt, matched := sc.promptScore(c)
		if prompt <= 0 && !sc.vagueGate(c) {
			continue
		}
		cwdScore, cwdReason := sc.cwdScore(c)
		c.comp = Components{
			Prompt:     prompt,
			CwdRepo:    cwdScore,
			Recency:    sc.recency(c.date),
			CrossAgent: crossAgent(c.sourceAgents),
			Continuity: sc.continuity(c),
			Penalty:    sc.penalty(c),
		}
		c.total = c.comp.total()
		if c.total <= 0 {
			continue
		}
		var reasons []string
		if matched != "" {
			reasons = append(reasons, "prompt matched "+safe(matched, itemNameLimit))
		}
		if cwdReason != "" {
			reasons = append(reasons, cwdReason)
		}
		if c.comp.CrossAgent > 0 {
			reasons = append(reasons, "cross-agent agreement")
		}
		if c.comp.Recency >= 8 {
			reasons = append(reasons, "recent work")
		}
		if c.comp.Continuity > 0 {
			reasons = append(reasons, "continuity evidence")
		}
		if len(reasons) == 0 {
			reasons = append(reasons, "weak but available recognition signal")
		}
		c.reason = strings.Join(reasons, "; ")
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(a, b *candidate) int {
		if c := cmp.Compare(b.total, a.total); c != 0 {
			return c
		}
		if c := cmp.Compare(sc.ordinal(b.date), sc.ordinal(a.date)); c != 0 {
			return c
		}
		if c := strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)); c != 0 {
			return c
		}
		return strings.Compare(a.source, b.source)
	})
	return out
}

// vagueGate admits a candidate the prompt does not name: the prompt is a
// vague continuation and the repository name appears as a word in the
// candidate's name, summary or project focus. Threads never pass.
func (sc *scorer) vagueGate(c *candidate) bool {
	if !sc.vague || c.kind == "thread" || sc.repoName == "" {
		return false
	}
	parts := append([]string{c.name, c.summary}, c.projectFocus...)
	return containsWord(strings.ToLower(strings.Join(parts, " ")), sc.repoName)
}

// cwdScore is the cwd_repo component and its reasons; the largest
// applicable value wins, every applicable reason is listed.
func (sc *scorer) cwdScore(c *candidate) (float64, string) {
	if sc.cwd == nil && sc.repoName == "" {
		return 0, ""
	}
	score := 0.0
	var reasons []string
	cwdText := ""
	if c.cwd != nil {
		cwdText = *c.cwd
	}
	parts := append([]string{c.name, c.summary}, c.projectFocus...)
	text := strings.ToLower(strings.Join(append(parts, cwdText), " "))

	if cwdText != "" && sc.cwd != nil {
		p := sc.resolve(cwdText)
		switch {
		case nestedOrSame(p, *sc.cwd):
			score = max(score, 25)
			reasons = append(reasons, "cwd matched prior Codex thread")
		case sc.repo.Root != nil && nestedOrSame(p, *sc.repo.Root):
			score = max(score, 22)
			reasons = append(reasons, "repo root matched prior Codex thread")
		}
	}
	if sc.repoName != "" && containsWord(text, sc.repoName) {
		score = max(score, 18)
		reasons = append(reasons, "repo name matched candidate")
	}
	if sc.repoName != "" && sc.remote != "" && strings.Contains(sc.remote, sc.repoName) &&
		strings.Contains(strings.ToLower(c.name), sc.repoName) {
		score = max(score, 14)
		reasons = append(reasons, "git remote reinforced repo identity")
	}
	if sc.cwdBase != "" && strings.Contains(text, sc.cwdBase) && !genericNames[sc.cwdBase] {
		score = max(score, 15)
		reasons = append(reasons, "cwd basename matched candidate")
	}
	return score, strings.Join(reasons, "; ")
}

// resolve resolves a candidate's cwd the way the turn's own is resolved
// ("~" expanded, relative paths from the server's working directory,
// existing symbolic links followed), once per distinct path.
func (sc *scorer) resolve(p string) string {
	if r, ok := sc.resolved[p]; ok {
		return r
	}
	r := p
	if sc.resolvePath != nil {
		r = sc.resolvePath(p)
	}
	sc.resolved[p] = r
	return r
}

// nestedOrSame reports whether path is dir or lies inside it.
func nestedOrSame(path, dir string) bool {
	if path == dir {
		return true
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// containsWord reports whether word occurs in text between word
// boundaries, as Python's re.search(r"\b" + re.escape(word) + r"\b")
// decides (Unicode word characters: letters, digits, underscore).
func containsWord(text, word string) bool {
	if word == "" {
		return false
	}
	for off := 0; off <= len(text)-len(word); {
		i := strings.Index(text[off:], word)
		if i < 0 {
			return false
		}
		s := off + i
		e := s + len(word)
		if boundary(text, s) && boundary(text, e) {
			return true
		}
		off = s + 1
	}
	return false
}

// boundary reports whether byte offset i of s is a word boundary.
func boundary(s string, i int) bool {
	var before, after bool
	if i > 0 {
		r := lastRune(s[:i])
		before = isWordRune(r)
	}
	if i < len(s) {
		r := firstRune(s[i:])
		after = isWordRune(r)
	}
	return before != after
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

func lastRune(s string) rune {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] < 0x80 || s[i] >= 0xC0 {
			return firstRune(s[i:])
		}
	}
	return 0
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// recency is the recency component of a date.
func (sc *scorer) recency(date string) float64 {
	age, ok := sc.ageDays(date)
	if !ok {
		return 0
	}
	switch {
	case age <= 1:
		return 15
	case age <= 7:
		return 12
	case age <= 30:
		return 8
	case age <= 90:
		return 4
	}
	return 1
}

// ageDays is the number of days from date to today, at least 0.
func (sc *scorer) ageDays(date string) (int, bool) {
	d, ok := parseDate(date)
	if !ok {
		return 0, false
	}
	return max(0, int(sc.today.Sub(d).Hours()/24)), true
}

// ordinal orders dates; 0 for none.
func (sc *scorer) ordinal(date string) int64 {
	d, ok := parseDate(date)
	if !ok {
		return 0
	}
	return d.Unix()/86400 + 1<<32
}

// parseDate reads a calendar date: YYYY-MM-DD at the start of the text,
// else an RFC 3339 timestamp (its own calendar day).
func parseDate(s string) (time.Time, bool) {
	s = strings.TrimFunc(s, pyfmt.IsSpace)
	if s == "" {
		return time.Time{}, false
	}
	if len(s) >= 10 && s[4] == '-' && s[7] == '-' {
		d, err := time.Parse("2006-01-02", s[:10])
		return d, err == nil
	}
	t, err := time.Parse(time.RFC3339Nano, strings.Replace(s, "Z", "+00:00", 1))
	if err != nil {
		return time.Time{}, false
	}
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), true
}

func crossAgent(agents []string) float64 {
	n := 0
	seen := map[string]bool{}
	for _, a := range agents {
		if !seen[a] {
			seen[a] = true
			n++
		}
	}
	if n <= 1 {
		return 0
	}
	return min(10, 4+float64(n-1)*2)
}

func (sc *scorer) continuity(c *candidate) float64 {
	s := 0.0
	if len(c.filesTouched) > 0 {
		s += 5
	}
	if (c.kind == "thread" || c.kind == "session") && c.date != "" {
		s += min(5, sc.recency(c.date)/3)
	}
	if sc.repo.Name != nil && *sc.repo.Name != "" {
		for _, f := range c.filesTouched {
			if strings.Contains(strings.ToLower(f), sc.repoName) {
				s += 3
				break
			}
		}
	}
	if sc.cwd != nil && c.cwd != nil && *c.cwd != "" {
		s += 2
	}
	return min(10, s)
}

func (sc *scorer) penalty(c *candidate) float64 {
	p := 0.0
	if genericNames[strings.ToLower(c.name)] {
		p -= 10
	}
	if runeLen(c.summary) > longSummary {
		p -= 4
	}
	if c.source == "codex_l5" && c.date != "" {
		if age, ok := sc.ageDays(c.date); ok && age > 30 {
			p -= 4
		}
	}
	return p
}

// round1 is Python's round(x, 1) for the scores of a brief: correctly
// rounded to one decimal.
func round1(x float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 1, 64), 64)
	return r
}
