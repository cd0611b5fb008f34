package docs

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// configFile is the name of a root's build configuration.
const configFile = "docs.config.json"

// defaultModes are the Diataxis modes when the configuration names none.
var defaultModes = []string{"tutorial", "how-to", "reference", "explanation"}

// config is what the loader uses of a root's docs.config.json.
type config struct {
	uidPattern *regexp.Regexp
	modes      []string
	global     map[string]any
	// fileMeta maps a metadata key to its path-glob scoped values, in
	// file order; the last matching glob wins.
	fileMeta map[string][]globValue
}

type globValue struct {
	glob  *regexp.Regexp
	value any
}

// rawConfig is the part of docs.config.json the loader reads.
type rawConfig struct {
	Build struct {
		GlobalMetadata map[string]any             `json:"globalMetadata"`
		FileMetadata   map[string]json.RawMessage `json:"fileMetadata"`
		Monikers       struct {
			Definitions []graph.Moniker `json:"definitions"`
		} `json:"monikers"`
		Xref struct {
			UIDPattern string `json:"uidPattern"`
		} `json:"xref"`
		Diataxis struct {
			Modes []string `json:"modes"`
		} `json:"diataxis"`
	} `json:"build"`
}

// parseConfig reads a docs.config.json. Problems are reported through bad
// with the line of the offending text; what could be read is kept.
func parseConfig(text string, bad func(line int, rule, format string, args ...any)) (*config, []graph.Moniker) {
	cfg := &config{modes: defaultModes, fileMeta: map[string][]globValue{}}
	var raw rawConfig
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		line := 1
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			line = lineAt(text, int(se.Offset))
		case errors.As(err, &te):
			line = lineAt(text, int(te.Offset))
		}
		bad(line, RuleSchema, "%s is not valid: %v", configFile, err)
		return cfg, nil
	}
	b := raw.Build
	if p := b.Xref.UIDPattern; p != "" {
		re, err := regexp.Compile(p)
		if err != nil {
			bad(lineOf(text, `"uidPattern"`), RuleSchema, "build.xref.uidPattern: %v", err)
		}
		cfg.uidPattern = re
	}
	if len(b.Diataxis.Modes) > 0 {
		cfg.modes = b.Diataxis.Modes
	}
	cfg.global = b.GlobalMetadata
	delete(cfg.global, "comment")
	for key, rawGlobs := range b.FileMetadata {
		if key == "comment" {
			continue
		}
		pairs, err := orderedObject(rawGlobs)
		if err != nil {
			bad(lineOf(text, `"`+key+`"`), RuleSchema, "build.fileMetadata.%s: want an object of glob: value", key)
			continue
		}
		for _, kv := range pairs {
			re, err := globRegexp(kv.key)
			if err != nil {
				bad(lineOf(text, `"`+kv.key+`"`), RuleSchema, "build.fileMetadata.%s: glob %q: %v", key, kv.key, err)
				continue
			}
			cfg.fileMeta[key] = append(cfg.fileMeta[key], globValue{re, kv.value})
		}
	}
	var monikers []graph.Moniker
	for _, m := range b.Monikers.Definitions {
		if m.Name == "" || m.Product == "" {
			bad(lineOf(text, `"definitions"`), RuleSchema, "build.monikers.definitions: a moniker needs a name and a product")
			continue
		}
		monikers = append(monikers, m)
	}
	return cfg, monikers
}

// meta returns the configured default of a metadata key for the file at
// rel: the value of the last matching fileMetadata glob, else the
// globalMetadata value.
func (c *config) meta(rel, key string) (any, bool) {
	globs := c.fileMeta[key]
	for i := len(globs) - 1; i >= 0; i-- {
		if globs[i].glob.MatchString(rel) {
			return globs[i].value, true
		}
	}
	v, ok := c.global[key]
	return v, ok
}

type keyValue struct {
	key   string
	value any
}

// orderedObject decodes a JSON object keeping its key order.
func orderedObject(raw json.RawMessage) ([]keyValue, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	var out []keyValue
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, keyValue{t.(string), v})
	}
	return out, nil
}

// globRegexp translates a path glob: ** matches any number of
// directories, * and ? match within one path segment.
func globRegexp(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	rs := []rune(glob)
	for i := 0; i < len(rs); i++ {
		switch {
		case strings.HasPrefix(string(rs[i:]), "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(string(rs[i:]), "**"):
			b.WriteString(".*")
			i++
		case rs[i] == '*':
			b.WriteString("[^/]*")
		case rs[i] == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(rs[i])))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// lineAt returns the 1-based line of byte offset off in text.
func lineAt(text string, off int) int {
	off = min(max(off, 0), len(text))
	return strings.Count(text[:off], "\n") + 1
}

// lineOf returns the line of the first occurrence of s in text, or 1.
func lineOf(text, s string) int {
	if i := strings.Index(text, s); i >= 0 {
		return lineAt(text, i)
	}
	return 1
}
