package cursor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// topicStopwords are never recurring topics (the reference's list).
var topicStopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`the and for with this that from have will are was been not but all can has its
		add use set get new fix run now also into make just like need want work code file test data type should would could`) {
		topicStopwords[w] = true
	}
}

// topicMinSessions is how many sessions a word must appear in to be a
// recurring topic.
const topicMinSessions = 3

// sessionsOf joins the databases' results into sessions, in scan order:
// the flat records and chat tabs of each database, the composers of the
// global database (with the folder of the workspace that lists them), and
// the composers a workspace lists that no composerData row describes.
func sessionsOf(ex *extraction) []session {
	cwdOf := map[string]string{}
	described := map[string]bool{}
	for _, r := range ex.results {
		for _, h := range r.Heads {
			if r.Cwd != "" && cwdOf[h.ID] == "" {
				cwdOf[h.ID] = r.Cwd
			}
		}
		for _, c := range r.Composers {
			described[c.Composer] = true
		}
	}
	var out []session
	seen := map[string]bool{}
	for _, r := range ex.results {
		for _, s := range r.Flat {
			if s.Cwd == "" {
				s.Cwd = r.Cwd
			}
			out = append(out, s)
		}
		for _, c := range r.Composers {
			if seen[c.Composer] {
				continue
			}
			seen[c.Composer] = true
			c.Cwd = cwdOf[c.Composer]
			out = append(out, c)
		}
		for _, h := range r.Heads {
			if described[h.ID] || seen[h.ID] || h.Name == "" {
				continue
			}
			seen[h.ID] = true
			out = append(out, session{Composer: h.ID, Action: export.CursorText(h.Name, 0), Date: h.Date, Cwd: r.Cwd})
		}
	}
	return out
}

// baseName is the last component of a cwd, splitting on / and \ on every
// system (the reference uses the host's rules, so a Windows cwd read on
// Linux was one component).
func baseName(cwd string) string {
	parts := strings.FieldsFunc(cwd, func(r rune) bool { return r == '/' || r == '\\' })
	if len(parts) == 0 {
		return ""
	}
	n := strings.TrimSpace(parts[len(parts)-1])
	if n == "." {
		return ""
	}
	return n
}

// assemble builds the rows: a project per workspace base name, recurring
// topics, the short index's topics, and the dated sessions newest first.
func assemble(out *export.Output, ex *extraction, short []export.Entity, opts export.Options) {
	sessions := sessionsOf(ex)

	type project struct {
		name, lastCwd, latest string
		aliases               map[string]bool
		seenLatest            bool
	}
	var order []string
	projects := map[string]*project{}
	for _, s := range sessions {
		name := baseName(s.Cwd)
		if name == "" {
			continue
		}
		p := projects[name]
		if p == nil {
			p = &project{name: name, aliases: map[string]bool{}}
			projects[name] = p
			order = append(order, name)
		}
		if !p.seenLatest || (s.Date != "" && s.Date > p.latest) {
			p.latest, p.seenLatest = s.Date, true
		}
		p.aliases[s.Cwd] = true
		p.lastCwd = s.Cwd
	}
	var entities []export.Entity
	for _, name := range order {
		p := projects[name]
		aliases := make([]string, 0, len(p.aliases))
		for a := range p.aliases {
			aliases = append(aliases, a)
		}
		sort.Strings(aliases)
		entities = append(entities, export.Entity{
			Name:        export.CursorText(name, 120),
			Type:        "project",
			Aliases:     aliases[:min(len(aliases), export.MaxAliases)],
			Summary:     export.CursorText(fmt.Sprintf("Cursor workspace inferred from %s.", p.lastCwd), 0),
			LastTouched: p.latest,
			Tags:        []string{"cursor", "workspace", "sqlite"},
		})
	}

	// Recurring topics, in first-seen order.
	var words []string
	counts := map[string]int{}
	latest := map[string]string{}
	for _, s := range sessions {
		seen := map[string]bool{}
		for _, tok := range strings.Fields(strings.ToLower(s.Action)) {
			w := strings.Trim(tok, ".,;:!?\"'`()[]{}#-/")
			if utf8.RuneCountInString(w) < 4 || topicStopwords[w] || !isAlpha(w) || seen[w] {
				continue
			}
			seen[w] = true
			if counts[w] == 0 {
				words = append(words, w)
			}
			counts[w]++
			if s.Date != "" && s.Date > latest[w] {
				latest[w] = s.Date
			}
		}
	}
	for _, w := range words {
		if counts[w] >= topicMinSessions && projects[w] == nil {
			entities = append(entities, export.Entity{Name: w, Type: "topic",
				Summary:     fmt.Sprintf("Recurring topic across %d Cursor sessions.", counts[w]),
				Tags:        []string{"cursor", "topic", "inferred"},
				LastTouched: latest[w]})
		}
	}

	taken := map[string]bool{}
	for _, e := range entities {
		taken[strings.ToLower(e.Name)] = true
	}
	for _, e := range short {
		if k := strings.ToLower(e.Name); !taken[k] {
			taken[k] = true
			entities = append(entities, e)
		}
	}
	for i := range entities {
		entities[i].Name = export.Cut(entities[i].Name, export.MaxEntityName, "...")
		entities[i].Summary = export.Cut(entities[i].Summary, export.MaxSummary, "...")
	}
	out.Entities = out.Policy.StampEntities(entities)
	out.Entities = out.Entities[:min(len(out.Entities), export.MaxEntities)]

	// Sessions: dated ones only (L5 requires a date; ⚠ #14), after the
	// since cut, newest first (ties keep the scan order).
	cutoff := ""
	if !opts.Since.IsZero() {
		cutoff = opts.Since.UTC().Format("2006-01-02")
	}
	var rows []export.Session
	for _, s := range sessions {
		if s.Date == "" || s.Date < cutoff {
			continue
		}
		row := export.Session{Date: s.Date, KeyActions: []string{s.Action}, FilesTouched: s.Files[:min(len(s.Files), export.MaxFiles)]}
		if utf8.RuneCountInString(s.Cwd) <= export.MaxCwd {
			row.Cwd = s.Cwd
		}
		rows = append(rows, row)
	}
	slices.SortStableFunc(rows, func(a, b export.Session) int { return strings.Compare(b.Date, a.Date) })
	out.Sessions = out.Policy.StampSessions(rows)
	out.Sessions = out.Sessions[:min(len(out.Sessions), export.MaxSessions)]
}

func isAlpha(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// readShortIndex reads the hand-curated topics of short-index.json
// ({"entries":[{topic_key, topic_name, triggers|aliases, summary, tags,
// access_level, last_updated}]}); a file that cannot be read is reported
// and ignored.
// maxShortIndex bounds the short index, which is read whole.
const maxShortIndex = 16 << 20

func readShortIndex(path string, cache *export.Cache, out *export.Output) []export.Entity {
	if !isFile(path) {
		return nil
	}
	fp, err := export.Stat(path)
	if err != nil {
		out.Warn(path, 0, "cannot be read: %v; ignored", err)
		return nil
	}
	type result struct {
		Entities []export.Entity `json:"e,omitempty"`
		Err      string          `json:"err,omitempty"`
	}
	res, _ := export.Cached(cache, "cursor/short-index:"+path, fp, func() (result, error) {
		data, err := fsutil.ReadRegular(path, maxShortIndex)
		if err != nil {
			return result{Err: err.Error()}, nil
		}
		es, err := parseShortIndex(data)
		if err != nil {
			return result{Err: err.Error()}, nil
		}
		return result{Entities: es}, nil
	})
	if res.Err != "" {
		out.Warn(path, 0, "cannot be read (%s); ignored", res.Err)
		return nil
	}
	out.Sources = append(out.Sources, export.Source{Kind: "short-index", Path: path})
	return res.Entities
}

func parseShortIndex(data []byte) ([]export.Entity, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("not valid UTF-8")
	}
	var doc any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	m, _ := doc.(map[string]any)
	var keys []string
	byKey := map[string]map[string]any{}
	for _, e := range list(m["entries"]) {
		e, ok := e.(map[string]any)
		if !ok || isFalsy(e["topic_key"]) {
			continue
		}
		k := strings.ToLower(strings.TrimSpace(text(e["topic_key"])))
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = e
	}
	var out []export.Entity
	for _, k := range keys {
		e := byKey[k]
		// ⚠ a null topic_name was the text "None" in the reference.
		name := strings.TrimSpace(text(e["topic_name"]))
		if name == "" {
			name = strings.TrimSpace(text(e["topic_key"]))
		}
		if name == "" {
			continue
		}
		aliasesRaw, ok := e["triggers"]
		if !ok {
			aliasesRaw = e["aliases"]
		}
		var tags []string
		for _, t := range list(e["tags"]) {
			if s := strings.TrimSpace(text(t)); s != "" {
				tags = append(tags, s)
			}
		}
		vis := "team"
		switch strings.ToLower(strings.TrimSpace(text(e["access_level"]))) {
		case "private":
			vis = "private"
		case "public":
			vis = "public"
		}
		var aliases []string
		for _, a := range list(aliasesRaw) {
			if s := strings.TrimSpace(text(a)); s != "" {
				aliases = append(aliases, s)
			}
		}
		out = append(out, export.Entity{
			Name: name, Type: "topic", Aliases: aliases[:min(len(aliases), export.MaxAliases)],
			Summary: strings.TrimSpace(text(e["summary"])), Tags: append(tags, "short-index"),
			LastTouched: dateOf(e["last_updated"]), Visibility: vis,
		})
	}
	return withhold(out), nil
}

// withhold returns the topics without the private ones, for the cache,
// which lives in the library. Of topics with the same name (without case)
// only the first could be written, so a name whose first topic is private
// keeps the others out, as the merge does.
func withhold(topics []export.Entity) []export.Entity {
	pol := policy()
	seen := map[string]bool{}
	var kept []export.Entity
	for _, e := range topics {
		k := strings.ToLower(e.Name)
		if seen[k] {
			continue
		}
		seen[k] = true
		if pol.Level(e.Visibility, e.Tags) != "private" {
			kept = append(kept, e)
		}
	}
	return kept
}

// text is a JSON scalar as text ("" for null, lists and objects).
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		if x {
			return "True"
		}
		return "False"
	}
	return ""
}
