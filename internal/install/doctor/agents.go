package doctor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
)

// checkAgents reports each agent: its store as its exporter's Health sees
// it, and for an installed agent how fresh its manifest is (served: the
// agents the library serves).
func checkAgents(ctx context.Context, r *Report, o Options, served map[string]*library.Agent) {
	for _, e := range o.Exporters {
		info := e.Info()
		p := e.Detect(o.Env)
		if !p.Present {
			r.add(Check{Check: "agent", Subject: info.ID, Status: Skip, Message: fmt.Sprintf("%s is not installed (no %s)", info.Label, p.Path)})
			continue
		}
		h, panicked := health(ctx, e, o.Env)
		c := Check{Check: "agent", Subject: info.ID, File: p.Path}
		if len(h.Details) > 0 {
			d := Details(h.Details)
			c.Details = &d
		}
		switch {
		case panicked != "":
			c.Status, c.Message, c.Fix = Fail, "the exporter failed while checking its store: "+panicked, "report it at https://github.com/getbourdon/bourdon-go/issues with this output"
		case h.Status == export.StatusOK:
			c.Status, c.Message = OK, info.Label+" store found"
		default:
			// An installed agent with nothing to read is worth a look,
			// not a failure of bourdon.
			c.Status, c.Message, c.Fix = Warn, fmt.Sprintf("%s store %s: %s", info.Label, h.Status, orText(h.Reason, "no reason given")), orText(h.Fix, "see docs/exporters.md")
		}
		r.add(c)
		if panicked == "" && h.Status != export.StatusBlocked {
			r.add(freshness(o, info, h, served[info.ID]))
		}
	}
}

func orText(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// health runs an exporter's Health, turning a panic into a message.
func health(ctx context.Context, e export.Exporter, env *export.Env) (h export.Health, panicked string) {
	defer func() {
		if v := recover(); v != nil {
			panicked = fmt.Sprint(v)
		}
	}()
	return e.Health(ctx, env), ""
}

// freshness compares an agent's manifest with its store: when was it last
// exported, and did the store change since. The store's last change is
// the newest modification time among the paths its Health names (each
// path, and the entries of a directory, one level down, at most
// maxStatEntries of them): cheap, and close enough to say "export again".
// The export's time is the served manifest's last_updated, else (no
// manifest the library serves, or no time in it) the file's modification
// time.
func freshness(o Options, info export.Info, h export.Health, a *library.Agent) Check {
	c := Check{Check: "export", Subject: info.ID}
	exported, file, ok := exportedAt(o, info.ID, a)
	c.File = file
	if !ok {
		c.Status, c.Message = Warn, fmt.Sprintf("never exported into %s", o.where())
		c.Fix = o.exportFix()
		return c
	}
	now := o.Env.Time()
	newest, ok := newestChange(h.Details, o.Env)
	// A minute of slack: an export stamps last_updated before it returns.
	if ok && newest.After(exported.Add(time.Minute)) {
		c.Status = Warn
		c.Message = fmt.Sprintf("the store changed after the last export (store %s, export %s)", stamp(newest), stamp(exported))
		c.Fix = o.exportFix() + " (Claude Code's SessionEnd hook from bourdon setup does it after every session)"
		return c
	}
	c.Status = OK
	c.Message = fmt.Sprintf("last exported %s ago (%s)", age(now.Sub(exported)), stamp(exported))
	if ok {
		c.Message += "; the store has not changed since"
	}
	return c
}

// exportedAt is when agent id was last exported, and its manifest's
// file: the served manifest's last_updated, else its file's modification
// time (a store has no such time: its manifest must say). ok is false
// when there is no manifest.
func exportedAt(o Options, id string, a *library.Agent) (t time.Time, file string, ok bool) {
	if o.Store != "" {
		if a == nil {
			return time.Time{}, "", false
		}
		t, ok = lastUpdated(a)
		return t, a.File, ok
	}
	file = filepath.Join(o.Library, "agents", id+library.ManifestSuffix)
	fi, err := os.Stat(file)
	if err != nil {
		return time.Time{}, file, false
	}
	if t, ok := lastUpdated(a); ok {
		return t, file, true
	}
	return fi.ModTime(), file, true
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// age writes a duration the way people say it.
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "less than a minute"
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(d.Hours()))
	}
	return fmt.Sprintf("%d days", int(d.Hours()/24))
}

// lastUpdated is a served manifest's last_updated.
func lastUpdated(a *library.Agent) (time.Time, bool) {
	if a == nil {
		return time.Time{}, false
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02"} {
		if t, err := time.Parse(layout, a.Manifest.LastUpdated); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// maxStatEntries bounds the directory entries freshness looks at.
const maxStatEntries = 512

// newestChange returns the newest modification time among the absolute
// paths in an agent's Health details.
func newestChange(details []export.Detail, env *export.Env) (time.Time, bool) {
	var newest time.Time
	found := false
	budget := maxStatEntries
	see := func(t time.Time) {
		if !found || t.After(newest) {
			newest, found = t, true
		}
	}
	for _, d := range details {
		s, ok := d.Value.(string)
		if !ok {
			continue
		}
		s = env.ExpandHome(s)
		if !filepath.IsAbs(s) || strings.ContainsAny(s, "\n") {
			continue
		}
		fi, err := os.Stat(s)
		if err != nil {
			continue
		}
		see(fi.ModTime())
		if !fi.IsDir() {
			continue
		}
		entries, err := os.ReadDir(s)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if budget == 0 {
				break
			}
			budget--
			if info, err := e.Info(); err == nil {
				see(info.ModTime())
			}
		}
	}
	return newest, found
}
