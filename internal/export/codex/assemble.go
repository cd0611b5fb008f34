package codex

import (
	"cmp"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/codexstore"
)

// Bounds of the texts the export writes. The reference cuts key actions
// at 300 characters; the L5 schema allows 256 (⚠ #9), so they are cut
// there.
const (
	keyActionChars  = export.MaxKeyAction
	topicNameChars  = 120
	prefNameChars   = 80
	prefSummaryChar = 320
)

// entities is the reference's entity map: keyed by (type, lower-cased
// name), in first-insertion order.
type entities struct {
	rows  []*export.Entity
	index map[[2]string]int
}

func key(e *export.Entity) [2]string {
	return [2]string{cmp.Or(e.Type, "topic"), strings.ToLower(e.Name)}
}

// put adds e, or merges it into the entity of the same key.
func (m *entities) put(e export.Entity) {
	k := key(&e)
	if i, ok := m.index[k]; ok {
		merge(m.rows[i], &e)
		return
	}
	m.index[k] = len(m.rows)
	m.rows = append(m.rows, &e)
}

// set adds e, replacing an entity of the same key in place.
func (m *entities) set(e export.Entity) {
	k := key(&e)
	if i, ok := m.index[k]; ok {
		m.rows[i] = &e
		return
	}
	m.index[k] = len(m.rows)
	m.rows = append(m.rows, &e)
}

var visOrder = map[string]int{"private": 0, "team": 1, "public": 2, "": 3}

func merge(into, other *export.Entity) {
	if other.Summary != "" && into.Summary == "" {
		into.Summary = other.Summary
	}
	if other.LastTouched != "" && (into.LastTouched == "" || other.LastTouched > into.LastTouched) {
		into.LastTouched = other.LastTouched
	}
	if visOrder[other.Visibility] < visOrder[into.Visibility] {
		into.Visibility = other.Visibility
	}
	for _, a := range other.Aliases {
		if !slices.Contains(into.Aliases, a) {
			into.Aliases = append(into.Aliases, a)
		}
	}
	for _, t := range other.Tags {
		if !slices.Contains(into.Tags, t) {
			into.Tags = append(into.Tags, t)
		}
	}
}

// orderedLabels is the reference's project_labels: project key to label,
// in first-insertion order.
type orderedLabels struct {
	keys   []string
	labels map[string]string
}

func (o *orderedLabels) set(k, v string) {
	if _, ok := o.labels[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.labels[k] = v
}

// assemble turns the records and the memory into the output's rows (§3.5).
func assemble(out *export.Output, l layout, records []record, mem *memoryData, opts export.Options) {
	if mem.count() == 0 {
		if fb := fallbackMemory(records, l); fb.count() > 0 {
			mem.extend(&fb.sections)
			for _, id := range sortedKeys(fb.threads) {
				mem.addThread(id, fb.threads[id])
			}
		}
	}
	phrases := slices.Concat(mem.Keywords, mem.TaskGroups, mem.TaskTitles)
	for _, r := range records {
		phrases = append(phrases, r.ThreadName)
	}

	ents := &entities{index: map[[2]string]int{}}
	labels := &orderedLabels{labels: map[string]string{}}

	// 1. Projects from the cwds, in first-seen order.
	var cwdKeys []string
	counts := map[string]int{}
	newest := map[string]string{}
	for _, r := range records {
		k := l.projectKey(r.Cwd)
		if k == "" {
			continue
		}
		if counts[k] == 0 {
			cwdKeys = append(cwdKeys, k)
		}
		counts[k]++
		newest[k] = max(newest[k], r.Date)
	}
	for _, k := range cwdKeys {
		label := bestDisplayName(k, phrases)
		labels.set(k, label)
		summary := fmt.Sprintf("Observed across %d Codex session(s).", counts[k])
		for _, text := range slices.Concat(mem.Descriptions, mem.TaskGroups) {
			if strings.Contains(strings.ToLower(text), k) {
				summary = text
				break
			}
		}
		ents.set(export.Entity{Name: label, Type: "project", Summary: summary, LastTouched: newest[k],
			Tags: []string{"codex-project"}, Visibility: "team"})
	}

	// 2. Projects named repeatedly in memory.
	for _, k := range l.projectCandidates(&mem.sections) {
		label := bestDisplayName(k, phrases)
		labels.set(k, label)
		summary := "Named repeatedly across Codex memory as " + label + "."
		for _, text := range slices.Concat(mem.Descriptions, mem.TaskGroups) {
			if hasWord(text, k) {
				summary = text
				break
			}
		}
		ents.put(export.Entity{Name: label, Type: "project", Summary: summary,
			Tags: []string{"codex-project", "codex-memory"}, Visibility: "team"})
	}
	var projects []string
	for _, e := range ents.rows {
		if e.Type == "project" {
			projects = append(projects, e.Name)
		}
	}

	// 3. Sessions and one topic per session, after the since cut; the
	// newest export.MaxSessions only (the schema's bound).
	cutoff := ""
	if !opts.Since.IsZero() {
		cutoff = opts.Since.UTC().Format("2006-01-02")
	}
	for _, r := range records {
		if !validDay(r.Date) || r.Date < cutoff {
			continue
		}
		if len(out.Sessions) == export.MaxSessions {
			break
		}
		s := export.Session{Date: r.Date, KeyActions: []string{l.action(r)}, Visibility: "team"}
		if r.HasCwd && utf8.RuneCountInString(r.Cwd) <= export.MaxCwd {
			s.Cwd = r.Cwd
		}
		if label := pickLabel(l, r, labels, projects, mem.threads[r.ID]); label != "" {
			s.ProjectFocus = []string{label}
		}
		s.FilesTouched = r.Files[:min(len(r.Files), export.MaxFiles)]
		out.Sessions = append(out.Sessions, s)

		name := l.topicName(r)
		ents.put(export.Entity{Name: name, Type: "topic", Summary: "Codex thread: " + name, LastTouched: r.Date,
			Tags: []string{"codex-thread"}, Visibility: "team"})
	}

	// 4. Memory topics.
	for _, t := range slices.Concat(mem.TaskGroups, mem.TaskTitles) {
		name := safe(t, topicNameChars)
		ents.put(export.Entity{Name: name, Type: "topic", Summary: "Codex memory topic: " + name,
			Tags: []string{"codex-memory"}, Visibility: "team"})
	}

	// 5. Fallback concepts.
	conceptDay := map[string]string{}
	var recordConcepts []string
	for _, r := range records {
		for _, c := range r.Concepts {
			k := strings.ToLower(c)
			conceptDay[k] = max(conceptDay[k], r.Date)
			recordConcepts = append(recordConcepts, c)
		}
	}
	for _, c := range dedupeFold(append(recoveredConcepts(mem.Descriptions), recordConcepts...)) {
		ents.put(export.Entity{Name: c, Type: "topic", Aliases: aliasesOf(c),
			Summary:     "Codex fallback concept recovered from rollout user prompts: " + c + ".",
			LastTouched: conceptDay[strings.ToLower(c)], Tags: []string{"codex-memory", "codex-fallback-concept"}, Visibility: "team"})
	}

	// 6. Preferences.
	for _, p := range mem.Preferences {
		ents.put(preferenceEntity(p))
	}

	// Junk filter, order, bounds.
	for _, e := range ents.rows {
		if isJunk(e) {
			continue
		}
		e.Name = export.Cut(e.Name, export.MaxEntityName, "...")
		e.Summary = export.Cut(e.Summary, export.MaxSummary, "...")
		e.Aliases = e.Aliases[:min(len(e.Aliases), export.MaxAliases)]
		out.Entities = append(out.Entities, *e)
	}
	out.Entities = boundEntities(out.Entities)
	slices.SortStableFunc(out.Entities, func(a, b export.Entity) int {
		return cmp.Or(strings.Compare(cmp.Or(a.Type, "topic"), cmp.Or(b.Type, "topic")),
			strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)))
	})
	out.Entities = out.Policy.StampEntities(out.Entities)
	out.Sessions = out.Policy.StampSessions(out.Sessions)
}

// boundEntities keeps at most export.MaxEntities entities (the schema's
// bound): projects, then preferences, then memory topics and concepts,
// then thread topics, each newest first.
func boundEntities(es []export.Entity) []export.Entity {
	if len(es) <= export.MaxEntities {
		return es
	}
	rank := func(e export.Entity) int {
		switch {
		case e.Type == "project":
			return 0
		case e.Type == "preference":
			return 1
		case !slices.Contains(e.Tags, "codex-thread"):
			return 2
		}
		return 3
	}
	slices.SortStableFunc(es, func(a, b export.Entity) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(b.LastTouched, a.LastTouched))
	})
	return es[:export.MaxEntities]
}

// projectKey is the project a cwd names: its base name, lower-cased,
// unless it is generic, the user's home directory's name or a generated
// workspace name.
func (l layout) projectKey(cwd string) string {
	parts := strings.FieldsFunc(strings.TrimSpace(cwd), func(r rune) bool { return r == '/' || r == '\\' })
	if len(parts) == 0 {
		return ""
	}
	k := strings.ToLower(strings.TrimSpace(parts[len(parts)-1]))
	if k == "" || genericNames[k] || genericNames[strings.ReplaceAll(k, " ", "-")] || k == l.homeName || generatedName(k) {
		return ""
	}
	return k
}

var datedName = regexp.MustCompile(`^\d{4}[-_ ]\d{2}[-_ ]\d{2}`)

func generatedName(s string) bool {
	return datedName.MatchString(s) || strings.HasPrefix(s, "202") ||
		(strings.Contains(s, "codex") && strings.ContainsFunc(s, unicode.IsDigit))
}

var tokenRE = regexp.MustCompile(`[A-Za-z][A-Za-z0-9-]{2,}`)

func hasUpper(s string) bool { return strings.ContainsFunc(s, unicode.IsUpper) }

// projectCandidates are the words memory names as projects at least twice:
// single-word keywords, capitalised words of longer keywords and the lead
// word of task groups.
func (l layout) projectCandidates(mem *sections) []string {
	var order []string
	counts := map[string]int{}
	count := func(c string) {
		if counts[c] == 0 {
			order = append(order, c)
		}
		counts[c]++
	}
	stop := func(c string) bool { return genericNames[c] || c == l.homeName }
	for _, kw := range mem.Keywords {
		tokens := tokenRE.FindAllString(kw, -1)
		if len(tokens) == 1 {
			if c := strings.ToLower(strings.Trim(tokens[0], "-")); !stop(c) {
				count(c)
			}
			continue
		}
		for _, t := range tokens {
			c := strings.ToLower(strings.Trim(t, "-"))
			if !stop(c) && (unicode.IsUpper(rune(t[0])) || hasUpper(t[1:])) {
				count(c)
			}
		}
	}
	for _, g := range mem.TaskGroups {
		tokens := tokenRE.FindAllString(g, -1)
		if len(tokens) == 0 {
			continue
		}
		lead := strings.Trim(tokens[0], "-")
		c := strings.ToLower(lead)
		if stop(c) {
			continue
		}
		if len(tokens) == 1 || g == strings.ToLower(g) || (lead != "" && (unicode.IsUpper(rune(lead[0])) || hasUpper(lead[1:]))) {
			count(c)
		}
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(counts[b], counts[a]) })
	var out []string
	for _, c := range order {
		if counts[c] >= 2 && !generatedName(c) {
			out = append(out, c)
		}
	}
	return out
}

// bestDisplayName is the most frequent spelling of key among the phrases
// (ties: not all lower-case first, then longer, then first seen), else
// the key made friendly.
func bestDisplayName(key string, phrases []string) string {
	var order []string
	counts := map[string]int{}
	for _, p := range phrases {
		for _, m := range wordMatches(p, key) {
			if counts[m] == 0 {
				order = append(order, m)
			}
			counts[m]++
		}
	}
	if len(order) == 0 {
		return friendlyLabel(key)
	}
	b2i := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(order, func(a, b string) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(b2i(isLower(a)), b2i(isLower(b))),
			cmp.Compare(utf8.RuneCountInString(b), utf8.RuneCountInString(a)))
	})
	return order[0]
}

// pickLabel is a session's project: its cwd's, else the first project its
// thread's raw memory names, else the first its name names, else the only
// project there is.
func pickLabel(l layout, r record, labels *orderedLabels, projects []string, thread *sections) string {
	match := func(phrases []string) string {
		for _, p := range phrases {
			for _, k := range labels.keys {
				if hasWord(p, k) || hasWord(p, labels.labels[k]) {
					return labels.labels[k]
				}
			}
		}
		return ""
	}
	if k := l.projectKey(r.Cwd); k != "" {
		if label, ok := labels.labels[k]; ok {
			return label
		}
	}
	if thread != nil {
		if m := match(slices.Concat(thread.TaskGroups, thread.TaskTitles, thread.Keywords, thread.Descriptions)); m != "" {
			return m
		}
	}
	if m := match([]string{r.ThreadName}); m != "" {
		return m
	}
	if len(projects) == 1 {
		return projects[0]
	}
	return ""
}

// isMemoryCwd reports whether a thread ran in the Codex home's memories
// directory (Codex's own memory pipeline).
func (l layout) isMemoryCwd(r record) bool {
	if !r.HasCwd || r.Cwd == "" || l.home == "" {
		return false
	}
	c, m := codexstore.ComparePath(r.Cwd, l.goos), codexstore.ComparePath(filepath.Join(l.home, "memories"), l.goos)
	return c == m || strings.HasPrefix(c, m+"/")
}

// action is a session's key action.
func (l layout) action(r record) string {
	if l.isMemoryCwd(r) {
		return memoryAction(r.Files)
	}
	return safe(cmpOr(r.ThreadName, "(untitled)"), keyActionChars)
}

func memoryAction(files []string) string {
	const base = "Updated Codex memory artifacts"
	var shown []string
	for _, f := range files[:min(5, len(files))] {
		if strings.TrimSpace(f) != "" {
			shown = append(shown, safe(f, 90))
		}
	}
	if len(shown) == 0 {
		return base
	}
	suffix := ""
	if len(files) > len(shown) {
		suffix = ", ..."
	}
	return safe(base+": "+strings.Join(shown, ", ")+suffix, keyActionChars)
}

func (l layout) topicName(r record) string {
	if l.isMemoryCwd(r) {
		return "Codex memory artifacts"
	}
	return safe(cmpOr(r.ThreadName, "(untitled)"), topicNameChars)
}

func recoveredConcepts(descriptions []string) []string {
	var out []string
	for _, d := range descriptions {
		if c, ok := strings.CutPrefix(d, "Recovered concept:"); ok {
			if c = norm(c); c != "" {
				out = append(out, c)
			}
		}
	}
	return dedupeFold(out)
}

func aliasesOf(name string) []string {
	for _, c := range concepts {
		if strings.EqualFold(c.name, name) {
			return slices.Clone(c.aliases)
		}
	}
	return nil
}

// fallbackMemory is the memory derived from the sessions when Codex has
// distilled none.
func fallbackMemory(records []record, l layout) *memoryData {
	m := &memoryData{threads: map[string]*sections{}}
	for _, r := range records {
		var t sections
		if name := strings.TrimSpace(r.ThreadName); name != "" && name != "(untitled)" {
			if looksLikeMemoriesPath(r) {
				t.TaskTitles = append(t.TaskTitles, "Codex memory artifacts")
			} else {
				t.TaskTitles = append(t.TaskTitles, safe(name, topicNameChars))
			}
		}
		if k := l.projectKey(r.Cwd); k != "" {
			label := friendlyLabel(k)
			t.Keywords = append(t.Keywords, label)
			t.TaskGroups = append(t.TaskGroups, label+" Codex session history")
		}
		t.Keywords = append(t.Keywords, r.Concepts...)
		for _, c := range r.Concepts {
			t.Descriptions = append(t.Descriptions, "Recovered concept: "+c)
		}
		if len(r.Files) > 0 {
			t.Descriptions = append(t.Descriptions, "Structured patch evidence touched: "+strings.Join(r.Files[:min(5, len(r.Files))], ", "))
		}
		if t.count() == 0 {
			continue
		}
		m.extend(&t)
		if r.ID != "" {
			m.addThread(r.ID, &t)
		}
	}
	return m
}

func looksLikeMemoriesPath(r record) bool {
	if !r.HasCwd || strings.TrimSpace(r.Cwd) == "" {
		return false
	}
	c := strings.ToLower(strings.TrimRight(strings.ReplaceAll(r.Cwd, `\`, "/"), "/"))
	return strings.HasSuffix(c, "/.codex/memories") || strings.Contains(c, "/.codex/memories/")
}

var (
	taskSuffixRE = regexp.MustCompile(`(?i)\s*\[Task\s+\d+\]\s*$`)
	splitPrefRE  = regexp.MustCompile(`[:.;]`)
	quoteRE      = regexp.MustCompile("[^a-z0-9][\"'`][^a-z0-9]")
	prefTokenRE  = regexp.MustCompile(`[a-z][a-z0-9-]{2,}`)
)

func cleanPreference(s string) string {
	return strings.Trim(taskSuffixRE.ReplaceAllString(norm(s), ""), " .")
}

// preferenceName names a preference bullet: the first rule of
// preferenceRules that matches, else its own first words.
func preferenceName(clean string) string {
	lower := strings.ToLower(clean)
	for _, rule := range preferenceRules {
		ok := true
		for _, w := range rule.all {
			ok = ok && strings.Contains(lower, w)
		}
		if ok && len(rule.any) > 0 {
			ok = slices.ContainsFunc(rule.any, func(w string) bool { return strings.Contains(lower, w) })
		}
		if ok && rule.re != nil {
			ok = rule.re.MatchString(lower)
		}
		if ok {
			return rule.name
		}
	}
	cand := lower
	if _, after, found := strings.Cut(lower, "->"); found {
		cand = strings.TrimSpace(after)
	}
	for _, p := range preferencePrefixes {
		cand = p.ReplaceAllString(cand, "")
	}
	if loc := splitPrefRE.FindStringIndex(cand); loc != nil {
		cand = cand[:loc[0]]
	}
	cand = quoteRE.ReplaceAllString(cand, " ")
	var tokens []string
	for _, t := range prefTokenRE.FindAllString(cand, -1) {
		if !genericNames[t] {
			tokens = append(tokens, t)
		}
	}
	if len(tokens) == 0 {
		return "codex preference"
	}
	name := strings.Join(tokens[:min(6, len(tokens))], " ")
	if !strings.HasSuffix(name, "preference") {
		name += " preference"
	}
	return safe(name, prefNameChars)
}

func preferenceEntity(text string) export.Entity {
	clean := cleanPreference(text)
	name := preferenceName(clean)
	tags := []string{"codex-preference"}
	if strings.Contains(name, "workflow") || strings.Contains(name, "handoff") {
		tags = append(tags, "workflow")
	}
	return export.Entity{Name: name, Type: "preference", Summary: safe("User preference: "+clean, prefSummaryChar),
		Tags: tags, Visibility: "team"}
}

// isJunk is the reference's junk filter (its issue #78).
func isJunk(e *export.Entity) bool {
	name := strings.TrimSpace(e.Name)
	if name == "" {
		return true
	}
	lower := strings.ToLower(name)
	if junkNameRE.MatchString(name) || junkSingleWords[lower] {
		return true
	}
	if utf8.RuneCountInString(name) < 4 && !shortNamesKept[lower] {
		return true
	}
	if s := strings.TrimSpace(e.Summary); s != "" && observedRE.MatchString(s) && len(e.Aliases) == 0 &&
		!slices.ContainsFunc(e.Tags, func(t string) bool { return t != "" && !plainTags[t] }) {
		return true
	}
	return false
}
