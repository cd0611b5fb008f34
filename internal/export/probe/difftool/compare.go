package main

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// diff is one difference between our manifest and the reference's.
type diff struct {
	kind      string // "<agent>: <what>", the grouping key
	seed      int64
	where     string // the row it is in
	ours, ref string
}

type cmp struct {
	agent string
	seed  int64
	out   []diff
}

func (c *cmp) add(what, where string, ours, ref any) {
	c.out = append(c.out, diff{kind: c.agent + ": " + what, seed: c.seed, where: where, ours: show(ours), ref: show(ref)})
}

func show(v any) string {
	s := fmt.Sprintf("%v", v)
	if v == nil {
		s = "(absent)"
	}
	if r := []rune(s); len(r) > 160 {
		s = string(r[:150]) + fmt.Sprintf("…(%d chars)", len(r))
	}
	return s
}

// yamlDate is a YAML timestamp the manifest holds unquoted.
type yamlDate string

// The ignore rules: each leaves out a difference docs/exporters.md
// documents as deliberate, and names the ⚠ item (or the section) it comes
// from. What a rule leaves out is counted (ignored), not printed.
const (
	ruleSkipped    = "⚠2: an absent store is skipped here, the reference writes an empty manifest"
	ruleVisibility = "⚠4: rows stamped with their visibility (the row key is dropped on both sides)"
	rulePolicy     = "⚠4: claude-code's policy default team (reference public); cascade has a policy (reference none)"
	ruleValidTo    = "⚠5: claude-code keeps valid_to (the reference computes and drops it)"
	ruleFence      = "⚠6: front matter the reference does not see (its fences leak into the summary)"
	ruleRedacted   = "⚠7: the runner's broad battery redacts a credential-like value whole"
	ruleCut        = "⚠9/⚠20: a text cut at the schema's bound (the reference writes it longer)"
	ruleLongName   = "⚠9: a name over 128 characters is cut or left out (docs: Long values)"
	ruleVSCodeOrd  = "docs copilot-vscode: memory files in name order (reference: directory order)"
	ruleCursorOrd  = "docs cursor: recurring topics in first-seen order (reference: Python's set order)"
	ruleNewest     = "docs Which rows an export owns: the commit path orders sessions newest first"
	ruleDay        = "⚠9: a date is a real YYYY-MM-DD (a timestamp gives its day; the reference writes the text)"
	ruleScalars    = "docs convention: cascade keeps the string items of lists and writes scalars as text"
	ruleRefFailed  = "⚠13: the reference fails the whole export on one unit it cannot read"
	// An ambiguity (the spec says "stringified"), decided in the docs: the
	// reference writes a null tag as Python's text None; we keep no tag
	// for it, as cursor's null topic_name is absent.
	ruleNullTag = "docs claude-code (⚠13 item): a null item of tags is no tag (reference: the text None)"
)

// ignored counts what each rule left out, over the whole run.
var ignored = map[string]int{}

// policyIgnored are the agents whose visibility_policy differs by ⚠4.
var policyIgnored = map[string]bool{"claude-code": true, "cascade": true}

const redactedNotice = "[redacted credential-like text]"

func rowsOf(m map[string]any, key string) []map[string]any {
	l, _ := m[key].([]any)
	var out []map[string]any
	for _, x := range l {
		if r, ok := x.(map[string]any); ok {
			out = append(out, canonRow(r))
		}
	}
	return out
}

// canonRow turns YAML dates into text and drops what the rules ignore.
func canonRow(r map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range r {
		if k == "visibility" {
			ignored[ruleVisibility]++
			continue
		}
		out[k] = canon(v)
	}
	return out
}

func canon(v any) any {
	switch x := v.(type) {
	case time.Time:
		// An unquoted YAML date stays apart from a string: a reader of
		// the manifest gets another type.
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 {
			return yamlDate(x.Format("2006-01-02"))
		}
		return yamlDate(x.Format(time.RFC3339Nano))
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = canon(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = canon(e)
		}
		return out
	}
	return v
}

func compareManifests(c *cmp, ours, ref map[string]any, refStatus string) {
	switch {
	case ours == nil && ref == nil:
		return
	case ours == nil:
		if len(rowsOf(ref, "known_entities")) == 0 && len(rowsOf(ref, "recent_sessions")) == 0 {
			ignored[ruleSkipped]++
			return
		}
		c.add("manifest written by the reference only", "", "(none)", fmt.Sprintf("%d entities, %d sessions",
			len(rowsOf(ref, "known_entities")), len(rowsOf(ref, "recent_sessions"))))
		return
	case ref == nil && strings.HasPrefix(refStatus, "error"):
		ignored[ruleRefFailed+" ("+refStatus+")"]++
		return
	case ref == nil:
		c.add("manifest written by us only", "", fmt.Sprintf("%d entities, %d sessions",
			len(rowsOf(ours, "known_entities")), len(rowsOf(ours, "recent_sessions"))), "status "+refStatus)
		return
	}
	// header
	for _, k := range []string{"spec_version", "capabilities", "agent"} {
		if !reflect.DeepEqual(canon(ours[k]), canon(ref[k])) {
			c.add("header."+k, "", canon(ours[k]), canon(ref[k]))
		}
	}
	if !reflect.DeepEqual(canon(ours["visibility_policy"]), canon(ref["visibility_policy"])) {
		if policyIgnored[c.agent] {
			ignored[rulePolicy]++
		} else {
			c.add("header.visibility_policy", "", canon(ours["visibility_policy"]), canon(ref["visibility_policy"]))
		}
	}
	compareEntities(c, rowsOf(ours, "known_entities"), rowsOf(ref, "known_entities"))
	compareSessions(c, rowsOf(ours, "recent_sessions"), rowsOf(ref, "recent_sessions"))
}

// key is the merge key of an entity; a long name is keyed by its first
// 100 code points, so a name cut at 128 still meets the whole one (⚠9).
func key(r map[string]any) string {
	k := []rune(strings.ToLower(strings.TrimSpace(fmt.Sprint(r["name"]))))
	if len(k) > 100 {
		k = k[:100]
	}
	return string(k)
}

func compareEntities(c *cmp, ours, ref []map[string]any) {
	if c.agent == "claude-code" {
		for _, e := range ours {
			if _, ok := e["valid_to"]; ok {
				ignored[ruleValidTo]++
				delete(e, "valid_to")
			}
		}
	}
	group := func(l []map[string]any) (map[string][]map[string]any, []string) {
		m := map[string][]map[string]any{}
		var order []string
		for _, e := range l {
			k := key(e)
			if _, ok := m[k]; !ok {
				order = append(order, k)
			}
			m[k] = append(m[k], e)
		}
		return m, order
	}
	om, oorder := group(ours)
	rm, rorder := group(ref)
	var common []string
	for _, k := range rorder {
		o, r := om[k], rm[k]
		if len(o) == 0 {
			if utf8.RuneCountInString(fmt.Sprint(r[0]["name"])) > 128 {
				ignored[ruleLongName]++
				continue
			}
			c.add("entity only in the reference", k, "(absent)", summary(r[0]))
			continue
		}
		common = append(common, k)
		if len(o) != len(r) {
			c.add("entity count for one name", k, len(o), len(r))
		}
		for i := 0; i < len(o) && i < len(r); i++ {
			compareRow(c, "entity", k, o[i], r[i])
		}
	}
	for _, k := range oorder {
		if len(rm[k]) == 0 {
			c.add("entity only in ours", k, summary(om[k][0]), "(absent)")
		}
	}
	var ocommon []string
	for _, k := range oorder {
		if len(rm[k]) > 0 {
			ocommon = append(ocommon, k)
		}
	}
	// Orders the docs leave to us: compare the rest.
	unordered := map[string]bool{}
	for _, e := range ref {
		switch {
		case c.agent == "copilot-vscode" && e["type"] == "vscode-memory":
			unordered[key(e)] = true
		case c.agent == "cursor" && e["type"] == "topic" && !hasTag(e, "short-index"):
			unordered[key(e)] = true
		}
	}
	strip := func(l []string) []string {
		var out []string
		for _, k := range l {
			if !unordered[k] {
				out = append(out, k)
			}
		}
		return out
	}
	if !reflect.DeepEqual(ocommon, common) {
		if reflect.DeepEqual(strip(ocommon), strip(common)) {
			ignored[map[bool]string{true: ruleVSCodeOrd, false: ruleCursorOrd}[c.agent == "copilot-vscode"]]++
		} else {
			c.add("entity order", "", ocommon, common)
		}
	}
}

func summary(r map[string]any) string {
	return fmt.Sprintf("type=%v summary=%v", r["type"], r["summary"])
}

func compareRow(c *cmp, kind, where string, o, r map[string]any) {
	keys := map[string]bool{}
	for k := range o {
		keys[k] = true
	}
	for k := range r {
		keys[k] = true
	}
	var ks []string
	for k := range keys {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		ov, rv := o[k], r[k]
		if empty(ov) && empty(rv) {
			continue
		}
		if reflect.DeepEqual(ov, rv) {
			continue
		}
		switch {
		case strings.Contains(fmt.Sprint(ov), redactedNotice):
			ignored[ruleRedacted]++
		case c.agent == "claude-code" && k == "summary" && strings.HasPrefix(fmt.Sprint(rv), "---"):
			ignored[ruleFence]++
		case cutOnly(ov, rv) || c.agent == "cascade" && cutOnly(ov, stringItems(rv)):
			ignored[ruleCut]++
		case k == "project_focus" && reflect.DeepEqual(ov, withoutLong(rv)):
			ignored[ruleLongName]++
		case (k == "date" || k == "last_touched" || k == "valid_from" || k == "valid_to") && len(fmt.Sprint(rv)) > 10 && fmt.Sprint(rv)[:10] == ov:
			ignored[ruleDay]++
		case c.agent == "claude-code" && k == "tags" && reflect.DeepEqual(ov, withoutNone(rv)):
			ignored[ruleNullTag]++
		case c.agent == "cascade" && (reflect.DeepEqual(ov, stringItems(rv)) || ov == pyStr(rv)):
			ignored[ruleScalars]++
		default:
			c.add(kind+"."+k, where, ov, rv)
		}
	}
}

func empty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	}
	return false
}

// compareSessions sorts both lists newest first (stably) and pairs them:
// first identical rows, then rows of the same date and first key action,
// then what is left in order.
func compareSessions(c *cmp, ours, ref []map[string]any) {
	byDate := func(l []map[string]any) {
		sort.SliceStable(l, func(i, j int) bool { return fmt.Sprint(l[i]["date"]) > fmt.Sprint(l[j]["date"]) })
	}
	before := fmt.Sprint(ref)
	byDate(ours)
	byDate(ref)
	if fmt.Sprint(ref) != before {
		ignored[ruleNewest]++
	}
	if len(ours) != len(ref) {
		c.add("session count", "", len(ours), len(ref))
	}
	usedO := make([]bool, len(ours))
	usedR := make([]bool, len(ref))
	for i, r := range ref {
		for j, o := range ours {
			if !usedO[j] && reflect.DeepEqual(o, r) {
				usedO[j], usedR[i] = true, true
				break
			}
		}
	}
	first := func(s map[string]any) string {
		if l, ok := s["key_actions"].([]any); ok && len(l) > 0 {
			return fmt.Sprint(l[0])
		}
		return ""
	}
	pair := func(match func(o, r map[string]any) bool) {
		for i, r := range ref {
			if usedR[i] {
				continue
			}
			for j, o := range ours {
				if !usedO[j] && match(o, r) {
					usedO[j], usedR[i] = true, true
					compareRow(c, "session", fmt.Sprintf("%v %q", r["date"], first(r)), o, r)
					break
				}
			}
		}
	}
	pair(func(o, r map[string]any) bool { return o["date"] == r["date"] && first(o) == first(r) })
	pair(func(o, r map[string]any) bool { return first(o) == first(r) && first(o) != "" })
	pair(func(o, r map[string]any) bool { return o["date"] == r["date"] && o["cwd"] == r["cwd"] })
	for i, r := range ref {
		if !usedR[i] {
			c.add("session only in the reference", "", "(absent)", fmt.Sprintf("%v %q", r["date"], first(r)))
		}
	}
	for j, o := range ours {
		if !usedO[j] {
			c.add("session only in ours", "", fmt.Sprintf("%v %q", o["date"], first(o)), "(absent)")
		}
	}
}

func hasTag(e map[string]any, tag string) bool {
	l, _ := e["tags"].([]any)
	for _, t := range l {
		if t == tag {
			return true
		}
	}
	return false
}

// cutOnly reports whether ours differs from ref only by being cut shorter
// with an ellipsis (strings, or lists of the same length item by item).
func cutOnly(ours, ref any) bool {
	switch o := ours.(type) {
	case string:
		r, ok := ref.(string)
		if !ok || utf8.RuneCountInString(r) <= utf8.RuneCountInString(o) {
			return false
		}
		trim := func(s string) string { return strings.TrimSuffix(strings.TrimSuffix(s, "..."), "…") }
		return o != trim(o) && strings.HasPrefix(trim(r), trim(o))
	case []any:
		r, ok := ref.([]any)
		if !ok || len(r) != len(o) {
			return false
		}
		cut := false
		for i := range o {
			if reflect.DeepEqual(o[i], r[i]) {
				continue
			}
			if !cutOnly(o[i], r[i]) {
				return false
			}
			cut = true
		}
		return cut
	}
	return false
}

// withoutLong is a list without its items over 128 code points.
func withoutLong(v any) any {
	return keepItems(v, func(x any) bool { return utf8.RuneCountInString(fmt.Sprint(x)) <= 128 })
}

// stringItems is a list's string items.
func stringItems(v any) any {
	return keepItems(v, func(x any) bool { _, ok := x.(string); return ok })
}

// keepItems is a list's items that keep says to keep, nil when none is;
// a value that is not a list is returned as it is.
func keepItems(v any, keep func(any) bool) any {
	l, ok := v.([]any)
	if !ok {
		return v
	}
	var out []any
	for _, x := range l {
		if keep(x) {
			out = append(out, x)
		}
	}
	if out == nil {
		return nil
	}
	return out
}

// pyStr is a YAML scalar as Python's str() writes it.
func pyStr(v any) string {
	switch x := v.(type) {
	case bool:
		if x {
			return "True"
		}
		return "False"
	case nil:
		return "None"
	}
	return fmt.Sprint(v)
}

func withoutNone(v any) any {
	l, _ := v.([]any)
	var out []any
	for _, x := range l {
		if x != "None" {
			out = append(out, x)
		}
	}
	return out
}
