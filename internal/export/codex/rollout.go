package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/codexstore"
	"github.com/getbourdon/bourdon-go/internal/export/nativestore"
)

// The reference's bounds on what it reads of one rollout.
const (
	maxPatchScanBytes = 1_000_000 // larger rollouts give no files touched
	maxScanChars      = 2_000_000 // user texts and concepts come from this prefix
	maxUserTexts      = 3
	metaRecords       = 5 // the session meta is among the first records
)

// rolloutInfo is what one rollout file yields, whatever thread it belongs
// to. It is cached per file.
type rolloutInfo struct {
	Meta    codexstore.Meta `json:"m"`
	HasMeta bool            `json:"hm,omitempty"`
	// UserFlags are the concepts found in the first user texts, RawFlags
	// those found in the file's first maxScanChars characters.
	UserFlags uint16 `json:"u,omitempty"`
	RawFlags  uint16 `json:"r,omitempty"`
	// Files are the files apply_patch calls touched (none for a rollout
	// over maxPatchScanBytes, as in the reference).
	Files    []string         `json:"f,omitempty"`
	Warnings []export.Warning `json:"w,omitempty"`
}

var errStop = errors.New("stop")

// lineRecord is the part of a rollout record the scan reads.
type lineRecord struct {
	Type    json.RawMessage `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

type linePayload struct {
	Type      json.RawMessage `json:"type"`
	Role      json.RawMessage `json:"role"`
	Name      json.RawMessage `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Text      json.RawMessage `json:"text"`
	Message   json.RawMessage `json:"message"`
	Content   json.RawMessage `json:"content"`
}

var (
	userMark  = []byte(`"user`)
	patchMark = []byte(`apply_patch`)
)

// scanRollout streams a rollout once, reading no more than it needs: the
// meta among the first records, up to three user texts and the concepts
// in the first two million characters, and (for a rollout of at most
// 1 MB) the files its patches touched. A line that is not valid UTF-8 is
// skipped and reported (the reference fails the whole export on it).
func scanRollout(path string) (rolloutInfo, error) {
	var info rolloutInfo
	st, err := os.Stat(path)
	if err != nil {
		return info, err
	}
	wantFiles := st.Size() <= maxPatchScanBytes
	var (
		records   int
		metaDone  bool
		chars     int
		rawLeft   = maxScanChars
		userTexts int
		badLine   int
		badLines  int
		lower     []byte
		files     []string
	)
	long, err := nativestore.FileLines(path, 0, func(n int, line []byte) error {
		if !utf8.Valid(line) {
			if badLine == 0 {
				badLine = n
			}
			badLines++
			return nil
		}
		runes := utf8.RuneCount(line) + 1
		if rawLeft > 0 {
			seg := line
			if runes-1 > rawLeft {
				seg = prefixRunes(line, rawLeft)
			}
			info.RawFlags |= lineConceptFlags(seg, &lower)
			rawLeft -= runes
		}
		chars += runes
		inWindow := chars <= maxScanChars
		trimmed := bytes.TrimSpace(line)
		if !metaDone && len(trimmed) > 0 {
			m, kind := codexstore.DecodeMeta(trimmed)
			if kind != codexstore.NotRecord {
				switch {
				case kind == codexstore.SessionMeta, kind == codexstore.BareMeta && records == 0:
					info.Meta, info.HasMeta, metaDone = m, true, true
				case kind == codexstore.Record && isSessionMetaType(trimmed):
					metaDone = true // a session_meta without an object payload: no meta
				}
				records++
				if records >= metaRecords {
					metaDone = true
				}
			}
		}
		if inWindow && userTexts < maxUserTexts && bytes.Contains(line, userMark) {
			for _, t := range userTextsOf(trimmed) {
				if userTexts < maxUserTexts {
					info.UserFlags |= conceptFlags(t)
					userTexts++
				}
			}
		}
		if wantFiles && bytes.Contains(line, patchMark) {
			files = append(files, patchFilesOf(trimmed)...)
		}
		if metaDone && rawLeft <= 0 && (!inWindow || userTexts >= maxUserTexts) && !wantFiles {
			return errStop
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return info, err
	}
	info.Files = dedupeFold(files)
	if badLines > 0 {
		info.Warnings = append(info.Warnings, export.Warning{File: path, Line: badLine,
			Msg: plural(badLines, "line is not valid UTF-8; skipped", "lines are not valid UTF-8; skipped")})
	}
	if len(long) > 0 {
		info.Warnings = append(info.Warnings, export.Warning{File: path, Line: long[0],
			Msg: plural(len(long), "line is longer than the line bound; skipped", "lines are longer than the line bound; skipped")})
	}
	return info, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return itoa(n) + " " + many
}

func isSessionMetaType(line []byte) bool {
	var r lineRecord
	return json.Unmarshal(line, &r) == nil && codexstore.String(r.Type) == "session_meta"
}

// prefixRunes returns the first n code points of b.
func prefixRunes(b []byte, n int) []byte {
	i := 0
	for k := 0; k < n && i < len(b); k++ {
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return b[:i]
}

// userTextsOf returns the user texts of one record: a user_input's text,
// a user_message event's message, or a user message's string content or
// input_text items.
func userTextsOf(line []byte) []string {
	var r lineRecord
	if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &r) != nil {
		return nil
	}
	p := bytes.TrimSpace(r.Payload)
	if len(p) == 0 || p[0] != '{' {
		return nil
	}
	var pl linePayload
	if json.Unmarshal(p, &pl) != nil {
		return nil
	}
	text := func(raw json.RawMessage) []string {
		if s := codexstore.String(raw); strings.TrimSpace(s) != "" {
			return []string{s}
		}
		return nil
	}
	switch codexstore.String(r.Type) {
	case "user_input":
		return text(pl.Text)
	case "event_msg":
		if codexstore.String(pl.Type) == "user_message" {
			return text(pl.Message)
		}
		return nil
	case "response_item":
	default:
		return nil
	}
	if codexstore.String(pl.Type) != "message" || codexstore.String(pl.Role) != "user" {
		return nil
	}
	c := bytes.TrimSpace(pl.Content)
	if len(c) > 0 && c[0] == '"' {
		return text(pl.Content)
	}
	var items []json.RawMessage
	if len(c) == 0 || c[0] != '[' || json.Unmarshal(c, &items) != nil {
		return nil
	}
	var out []string
	for _, it := range items {
		var item struct {
			Type json.RawMessage `json:"type"`
			Text json.RawMessage `json:"text"`
		}
		it = bytes.TrimSpace(it)
		if len(it) == 0 || it[0] != '{' || json.Unmarshal(it, &item) != nil || codexstore.String(item.Type) != "input_text" {
			continue
		}
		out = append(out, text(item.Text)...)
	}
	return out
}

// patchFilesOf returns the files of an apply_patch function call record.
func patchFilesOf(line []byte) []string {
	var r lineRecord
	if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &r) != nil || codexstore.String(r.Type) != "response_item" {
		return nil
	}
	var pl linePayload
	p := bytes.TrimSpace(r.Payload)
	if len(p) == 0 || p[0] != '{' || json.Unmarshal(p, &pl) != nil {
		return nil
	}
	if codexstore.String(pl.Type) != "function_call" || codexstore.String(pl.Name) != "apply_patch" {
		return nil
	}
	return filesFromPatch(codexstore.String(pl.Arguments))
}

// filesFromPatch lists the files an apply_patch text updates, adds,
// deletes or moves to.
func filesFromPatch(patch string) []string {
	var files []string
	for _, l := range splitLines(patch) {
		l = strings.TrimSpace(l)
		for _, prefix := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: ", "*** Move to: "} {
			if f, ok := strings.CutPrefix(l, prefix); ok && f != "" {
				files = append(files, strings.TrimSpace(f))
			}
		}
	}
	return dedupeFold(files)
}

// conceptFlags returns the concepts found in s, one bit per entry of
// concepts.
func conceptFlags(s string) uint16 {
	var buf []byte
	return lineConceptFlags([]byte(s), &buf)
}

// lineConceptFlags is conceptFlags over a line; lower is a reusable
// buffer.
func lineConceptFlags(line []byte, lower *[]byte) uint16 {
	if !hasAnchor(line) {
		return 0
	}
	buf := (*lower)[:0]
	for _, c := range line {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	*lower = buf
	var f uint16
	for i, c := range concepts {
		for _, sp := range c.spellings {
			if findBounded(line, buf, sp) {
				f |= 1 << i
				break
			}
		}
	}
	return f
}

// anchorStart maps a byte to the anchors (bits of conceptAnchors) that
// start with it, in either case.
var anchorStart = func() (t [256]uint8) {
	for i, a := range conceptAnchors {
		t[a[0]] |= 1 << i
		t[a[0]-'a'+'A'] |= 1 << i
	}
	return t
}()

// hasAnchor reports, in one pass, whether line contains one of
// conceptAnchors, ASCII case-insensitively: no concept can match a line
// that does not.
func hasAnchor(line []byte) bool {
	for i, c := range line {
		m := anchorStart[c]
		if m == 0 {
			continue
		}
		for k, a := range conceptAnchors {
			if m&(1<<k) != 0 && len(line)-i >= len(a) && asciiFoldPrefix(line[i:], a) {
				return true
			}
		}
	}
	return false
}

func asciiFoldPrefix(s, lowerPrefix []byte) bool {
	for j, p := range lowerPrefix {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != p {
			return false
		}
	}
	return true
}

// findBounded reports whether word (lower case) occurs in lower (line,
// ASCII-lower-cased) between Unicode word boundaries of line.
func findBounded(line, lower []byte, word string) bool {
	for off := 0; ; {
		i := bytes.Index(lower[off:], []byte(word))
		if i < 0 {
			return false
		}
		start := off + i
		end := start + len(word)
		if byteBoundary(line, start) && byteBoundary(line, end) {
			return true
		}
		off = start + 1
	}
}

func byteBoundary(s []byte, i int) bool {
	var before, after rune = -1, -1
	if i > 0 {
		before, _ = utf8.DecodeLastRune(s[:i])
	}
	if i < len(s) {
		after, _ = utf8.DecodeRune(s[i:])
	}
	return (before >= 0 && isWord(before)) != (after >= 0 && isWord(after))
}

// conceptsOf returns the concepts of flags in the reference's order: the
// combined concept first when both of its parts were found.
func conceptsOf(f uint16) []string {
	var out []string
	if f&(1<<combinedWord) != 0 && f&(1<<combinedPhrase) != 0 {
		out = append(out, concepts[combinedConcept].name)
	}
	for i, c := range concepts {
		if f&(1<<i) != 0 {
			out = append(out, c.name)
		}
	}
	return dedupeFold(out)
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	if n == 0 {
		return "0"
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
