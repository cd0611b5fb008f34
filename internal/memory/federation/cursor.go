package federation

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
)

// Cursor is a page cursor: base64url (with padding) of a compact JSON
// object {"offset":N}, exactly as the reference writes it, so a cursor
// from either server reads the same. When the 14-day default window
// applied to the first page, the cursor also carries it as
// "since":"YYYY-MM-DD", so following pages keep the same window without
// the caller re-sending it. A federated page (package peer) adds its
// position in each peer's list as "peers"; the local store ignores it.
type Cursor struct {
	Offset int             `json:"offset"`
	Since  string          `json:"since,omitempty"`
	Peers  json.RawMessage `json:"peers,omitempty"`
}

// maxOffset bounds the offset a cursor may carry.
const maxOffset = 1 << 30

// Encode returns the cursor's text.
func (c Cursor) Encode() string {
	b, _ := json.Marshal(c)
	return base64.URLEncoding.EncodeToString(b)
}

// CursorError is a cursor that could not be read. Its message matches the
// reference: invalid cursor: '<cursor>'.
type CursorError struct{ Cursor string }

func (e *CursorError) Error() string { return "invalid cursor: " + pyfmt.Quote(e.Cursor) }

// DecodeCursor reads a cursor. An empty cursor is offset 0. Like the
// reference it accepts the standard and URL-safe alphabets and an offset
// written as a number or a numeric string; unlike it, missing padding is
// tolerated.
func DecodeCursor(s string) (Cursor, error) {
	if s == "" {
		return Cursor{}, nil
	}
	bad := &CursorError{Cursor: s}
	clean := strings.NewReplacer("+", "-", "/", "_").Replace(strings.TrimRight(strings.TrimSpace(s), "="))
	raw, err := base64.RawURLEncoding.DecodeString(clean)
	if err != nil {
		return Cursor{}, bad
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		return Cursor{}, bad
	}
	off, ok := offsetValue(doc["offset"])
	if !ok {
		return Cursor{}, bad
	}
	c := Cursor{Offset: off, Peers: doc["peers"]}
	if since, ok := doc["since"]; ok {
		if err := json.Unmarshal(since, &c.Since); err != nil {
			return Cursor{}, bad
		}
		if _, ok := parseDayText(c.Since); !ok {
			return Cursor{}, bad
		}
	}
	return c, nil
}

func offsetValue(raw json.RawMessage) (int, bool) {
	if raw == nil {
		return 0, false
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0, false
		}
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return 0, false
		}
		f = float64(n)
	}
	f = math.Trunc(f)
	if f < 0 || f > maxOffset || math.IsNaN(f) {
		return 0, false
	}
	return int(f), true
}
