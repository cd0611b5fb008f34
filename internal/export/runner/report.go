package runner

import (
	"fmt"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// ParseSince reads the --since of the export commands: an RFC 3339
// instant (2026-06-01T09:30:00+02:00), a date and time without a zone
// (2026-06-01T09:30[:00], or with a space), taken as UTC, or a bare date
// (2026-06-01), taken as midnight UTC on every agent. "" is the zero time
// (no filter).
func ParseSince(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02T15:04", "2006-01-02 15:04:05.999999999", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--since %q is not a date (2026-06-01) or a date and time (2026-06-01T09:30:00Z)", s)
}

// Report is a whole run, as `export-all --json` prints it.
type Report struct {
	Library     string `json:"library,omitempty"`
	AccessLevel string `json:"access_level"`
	// Since is the --since instant in RFC 3339, or null.
	Since  *string `json:"since"`
	DryRun bool    `json:"dry_run"`
	// Failed counts the agents whose status is error.
	Failed  int      `json:"failed"`
	Exports []Result `json:"exports"`
}

// NewReport describes a run of opts that gave results.
func NewReport(opts Options, results []Result) Report {
	r := Report{Library: opts.Library, AccessLevel: orDefault(opts.AccessLevel, DefaultAccessLevel), DryRun: opts.DryRun, Exports: results}
	if r.Exports == nil {
		r.Exports = []Result{}
	}
	if !opts.Since.IsZero() {
		s := opts.Since.Format(time.RFC3339Nano)
		r.Since = &s
	}
	for _, res := range results {
		if res.Status == StatusError {
			r.Failed++
		}
	}
	return r
}

// ReferenceYAML renders results in the reference's export-all report
// shape:
//
//	exports:
//	- agent: claude-code
//	  status: ok
//	  path: /home/dev/agent-library/agents/claude-code.l5.yaml
//	  entities: 8
//	  sessions: 3
//	- agent: cursor
//	  status: skipped
//	  reason: ...
//
// Rows that wrote (or would write, or found unchanged) a manifest have
// path, entities and sessions; skipped and error rows have reason. The
// statuses are ours (ok, no_op, skipped, error, would_write); the
// reference only has ok, staged and error.
func ReferenceYAML(results []Result) ([]byte, error) {
	rows := make([]any, 0, len(results))
	for _, r := range results {
		row := yaml11.NewMap(5)
		row.Set("agent", r.Agent)
		row.Set("status", r.Status)
		if r.Status == StatusSkipped || r.Status == StatusError {
			row.Set("reason", r.Reason)
		} else {
			row.Set("path", r.Path)
			row.Set("entities", int64(r.Entities))
			row.Set("sessions", int64(r.Sessions))
		}
		rows = append(rows, row)
	}
	doc := yaml11.NewMap(1)
	doc.Set("exports", rows)
	return yaml11.Encode(doc)
}
