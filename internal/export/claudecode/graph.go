package claudecode

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/nativestore"
)

// credentialPatterns is battery B, the reference's check of knowledge
// graph observations. An observation that matches is shown as
// redactedObservation, and makes its entity private (so it is dropped).
var credentialPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b(?:api[_-]?key|api_token)\b`),
	regexp.MustCompile(`(?i)\b(?:service[_-]?role|access[_-]?token)\b`),
	regexp.MustCompile(`(?i)\bstripe\s+(?:key|secret|token)`),
	regexp.MustCompile(`(?i)\b(?:keystore|private[_-]?key|ssh[_-]?key)\b`),
	regexp.MustCompile(`(?i)\.env\b`),
	regexp.MustCompile(`(?i)\bpassword\b`),
	regexp.MustCompile(`(?i)\bbearer\s+token\b`),
	regexp.MustCompile(`(?i)\b(?:sk|pk)_(?:live|test)_\w+`),
	regexp.MustCompile(`(?i)\bappl_\w+`),
	regexp.MustCompile(`(?i)\bhf_\w{10,}`),
}

const redactedObservation = "[redacted -- contains credential-like content]"

// hasCredential reports whether battery B matches s.
func hasCredential(s string) bool {
	for _, p := range credentialPatterns {
		if p.MatchString(s) {
			return true
		}
	}
	return false
}

// maxObservations is how many observations the summary is made of.
const maxObservations = 2

// readGraph streams the knowledge graph's JSON Lines and returns its
// entity records as entities. Relations and other records are ignored; a
// line that is not UTF-8, not a JSON object, or an entity whose name or
// entityType is not a string is skipped with a warning naming its line.
func readGraph(path string) (unit, error) {
	var u unit
	warn := func(n int, format string, args ...any) {
		u.Warnings = append(u.Warnings, warning(path, n, format, args...))
	}
	long, err := nativestore.FileLines(path, 0, func(n int, line []byte) error {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			return nil
		}
		if !utf8.Valid(line) {
			warn(n, "skipped: not UTF-8 text")
			return nil
		}
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil || rec == nil {
			warn(n, "skipped: not a JSON object")
			return nil
		}
		if rec["type"] != "entity" {
			return nil
		}
		e, ok, why := graphEntity(rec)
		if why != "" {
			warn(n, "skipped: %s", why)
		}
		if ok {
			u.add(e)
		}
		return nil
	})
	for _, n := range long {
		warn(n, "skipped: the line is longer than %d bytes", nativestore.MaxLine)
	}
	return u, err
}

// graphEntity maps one entity record. why says why a record is skipped
// ("" for records that are simply not usable, such as a missing name).
func graphEntity(rec map[string]any) (e export.Entity, ok bool, why string) {
	name, _ := rec["name"].(string)
	if name == "" {
		if _, isString := rec["name"].(string); rec["name"] != nil && !isString {
			return e, false, "the entity's name is not a string"
		}
		return e, false, ""
	}
	slug := ""
	switch t := rec["entityType"].(type) {
	case nil:
	case string:
		slug = t
	default:
		return e, false, "entity " + quote(name) + ": entityType is not a string"
	}
	typ := slug
	if i := strings.LastIndex(slug, "/"); i >= 0 {
		typ = slug[i+1:]
	}
	var items []any
	switch o := rec["observations"].(type) {
	case string:
		items = []any{o}
	case []any:
		items = o
	}
	// The summary is made of the first two observations that are strings
	// (a non-string among the first two is left out); a credential in any
	// observation makes the entity private.
	private := isPrivateType(slug)
	var shown []string
	for i, v := range items {
		obs, isString := v.(string)
		if !isString {
			continue
		}
		cred := hasCredential(obs)
		private = private || cred
		if i < maxObservations {
			if cred {
				obs = redactedObservation
			}
			shown = append(shown, obs)
		}
	}
	e = export.Entity{
		Name:    name,
		Type:    typ,
		Summary: strings.TrimSpace(prefix(strings.Join(shown, " | "), maxSummary)),
	}
	if typ != "" && typ != strings.ToLower(name) {
		e.Tags = []string{typ}
	}
	if private {
		e.Visibility = "private"
	}
	return e, true, ""
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }
