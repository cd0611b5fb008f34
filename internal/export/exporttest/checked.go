package exporttest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// MaxSeed bounds the size of a fixture file or value the exporters' fuzz
// targets take as a seed: the fuzzer mutates small inputs faster, so the
// tests' largest fixtures (megabyte transcripts and state files) are left
// out.
const MaxSeed = 64 << 10

// ExportTimeout is the deadline of the context Checked gives an export.
// The stores the fuzz targets build are small: an export that takes this
// long hangs.
const ExportTimeout = 10 * time.Second

// hangGrace is how much longer than ExportTimeout Checked waits for an
// export that ignores its context before it fails the test.
const hangGrace = 5 * time.Second

// exportTimeout and exportGrace are ExportTimeout and hangGrace, shortened
// by Checked's own tests.
var exportTimeout, exportGrace = ExportTimeout, hangGrace

// Checked runs e.Export on env the way the runner does, and fails t unless
// what comes back is something the runner can write whatever the store
// held. It is the shared oracle of the exporters' fuzz targets:
//
//   - Export returns within ExportTimeout (the deadline of its context);
//     one that ignores the context and hangs fails the test hangGrace
//     later, rather than blocking the fuzzer;
//   - it returns an Output or an error (a bad store may be an error, such
//     as a convention file that is not YAML), never neither, and never
//     the deadline's error;
//   - a panic is not recovered: it fails the test, and the fuzzer keeps
//     the input;
//   - the Output is the agent's (e.Info's id and type), and every string
//     of it (header, capabilities, rows, policy, sources, warnings) is
//     valid UTF-8;
//   - the rows stay within the schema's bounds of export/limits.go
//     (lengths in code points), and an entity has a name;
//   - the manifest built from the Output passes l5.Validate, as it is and
//     with every string redacted as the runner redacts it (Redacted), and
//     again once written as YAML and read back, which must give the same
//     YAML;
//   - a second export from the incremental cache the first one filled
//     (saved and loaded, as the runner's next run does) gives the same
//     manifest and the same warnings.
//
// opts.Cache must be nil: Checked uses caches of its own. It returns the
// first export's Output and error for the target's own checks.
func Checked(t testing.TB, e export.Exporter, env *export.Env, opts export.Options) (*export.Output, error) {
	t.Helper()
	if opts.Cache != nil {
		t.Fatal("exporttest.Checked: opts.Cache must be nil")
	}
	info := e.Info()
	cache := export.NewCache()
	opts.Cache = cache
	out, err := timedExport(t, e, env, opts)
	if err != nil {
		if out != nil {
			t.Errorf("%s: Export returned an Output and an error: %v", info.ID, err)
		}
		if errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%s: Export ran out of its %v: %v", info.ID, exportTimeout, err)
		}
		if !utf8.ValidString(err.Error()) {
			t.Errorf("%s: the error is not UTF-8: %q", info.ID, err.Error())
		}
		return nil, err
	}
	if out == nil {
		t.Fatalf("%s: Export returned neither an Output nor an error", info.ID)
	}
	if out.Agent.ID != info.ID || out.Agent.Type != info.Type {
		t.Errorf("%s: the Output is of agent %q (type %q)", info.ID, out.Agent.ID, out.Agent.Type)
	}
	for _, p := range problems(out) {
		t.Error(info.ID + ": " + p)
	}
	first := checkedManifest(t, info.ID, out)

	saved, merr := cache.Marshal()
	if merr != nil {
		t.Fatalf("%s: the cache does not save: %v", info.ID, merr)
	}
	opts.Cache = export.LoadCache(saved)
	again, err := timedExport(t, e, env, opts)
	if err != nil {
		t.Fatalf("%s: the export from the cache failed: %v", info.ID, err)
	}
	if second := rendered(t, again); !bytes.Equal(first, second) {
		t.Errorf("%s: the export from the cache differs:\n--- first\n%s\n--- from the cache\n%s", info.ID, first, second)
	}
	if !slices.Equal(out.Warnings, again.Warnings) {
		t.Errorf("%s: the export from the cache warns otherwise:\n--- first\n%v\n--- from the cache\n%v", info.ID, out.Warnings, again.Warnings)
	}
	return out, nil
}

// timedExport runs Export under ExportTimeout, on a goroutine so that an
// export that ignores its context fails the test instead of blocking it.
func timedExport(t testing.TB, e export.Exporter, env *export.Env, opts export.Options) (*export.Output, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), exportTimeout)
	defer cancel()
	type result struct {
		out *export.Output
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := e.Export(ctx, env, opts)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-time.After(exportTimeout + exportGrace):
		t.Fatalf("%s: Export did not return within %v", e.Info().ID, exportTimeout+exportGrace)
		return nil, nil
	}
}

// checkedManifest validates the manifest of out as the runner would
// commit it and as the library then holds it, and returns its YAML.
func checkedManifest(t testing.TB, id string, out *export.Output) []byte {
	t.Helper()
	doc := out.Manifest(LastUpdated)
	for _, v := range l5.Validate(doc) {
		t.Errorf("%s: schema: %s", id, v)
	}
	redacted := export.RedactDocument(doc)
	for _, v := range l5.Validate(redacted) {
		t.Errorf("%s: schema, once redacted: %s", id, v)
	}
	data, err := yaml11.Encode(redacted)
	if err != nil {
		t.Fatalf("%s: the manifest does not encode: %v", id, err)
	}
	back, err := yaml11.Decode(data)
	if err != nil {
		t.Fatalf("%s: the manifest does not read back: %v\n%s", id, err, data)
	}
	for _, v := range l5.Validate(back) {
		t.Errorf("%s: schema, read back: %s", id, v)
	}
	again, err := yaml11.Encode(back)
	if err != nil || !bytes.Equal(again, data) {
		t.Errorf("%s: the manifest reads back otherwise (%v):\n--- written\n%s\n--- read back\n%s", id, err, data, again)
	}
	return rendered(t, out)
}

// rendered is the manifest of out as YAML, unredacted.
func rendered(t testing.TB, out *export.Output) []byte {
	t.Helper()
	data, err := yaml11.Encode(out.Manifest(LastUpdated))
	if err != nil {
		t.Fatalf("the manifest does not encode: %v", err)
	}
	return data
}

// problems lists what in out is not valid UTF-8 or breaks a bound of
// export/limits.go.
func problems(out *export.Output) []string {
	var ps []string
	bad := func(format string, args ...any) { ps = append(ps, fmt.Sprintf(format, args...)) }
	text := func(where, s string, limit int) {
		if !utf8.ValidString(s) {
			bad("%s is not valid UTF-8: %q", where, s)
		}
		if n := utf8.RuneCountInString(s); limit > 0 && n > limit {
			bad("%s has %d code points, over %d: %q", where, n, limit, s)
		}
	}
	list := func(where string, l []string, maxItems, limit int) {
		if maxItems > 0 && len(l) > maxItems {
			bad("%s has %d items, over %d", where, len(l), maxItems)
		}
		for i, s := range l {
			text(fmt.Sprintf("%s[%d]", where, i), s, limit)
		}
	}
	a := out.Agent
	text("agent.id", a.ID, 0)
	text("agent.type", a.Type, 0)
	text("agent.instance", a.Instance, 0)
	text("agent.spec_version_compat", a.SpecVersionCompat, 0)
	text("agent.role_narrative", a.RoleNarrative, 0)
	text("spec_version", out.SpecVersion, 0)
	list("capabilities", out.Capabilities, export.MaxCapabilities, export.MaxCapability)
	if len(out.Entities) > export.MaxEntities {
		bad("%d entities, over %d", len(out.Entities), export.MaxEntities)
	}
	for i, e := range out.Entities {
		w := fmt.Sprintf("entities[%d]", i)
		if e.Name == "" {
			bad("%s has no name", w)
		}
		text(w+".name", e.Name, export.MaxEntityName)
		text(w+".type", e.Type, export.MaxEntityType)
		list(w+".aliases", e.Aliases, export.MaxAliases, 0)
		text(w+".summary", e.Summary, export.MaxSummary)
		text(w+".last_touched", e.LastTouched, 0)
		list(w+".tags", e.Tags, 0, 0)
		text(w+".visibility", e.Visibility, 0)
		text(w+".valid_from", e.ValidFrom, 0)
		text(w+".valid_to", e.ValidTo, 0)
	}
	if len(out.Sessions) > export.MaxSessions {
		bad("%d sessions, over %d", len(out.Sessions), export.MaxSessions)
	}
	for i, s := range out.Sessions {
		w := fmt.Sprintf("sessions[%d]", i)
		text(w+".date", s.Date, 0)
		text(w+".cwd", s.Cwd, export.MaxCwd)
		list(w+".project_focus", s.ProjectFocus, 0, 0)
		list(w+".key_actions", s.KeyActions, export.MaxKeyActions, export.MaxKeyAction)
		list(w+".files_touched", s.FilesTouched, export.MaxFiles, 0)
		text(w+".visibility", s.Visibility, 0)
	}
	if p := out.Policy; p != nil {
		text("visibility_policy.default", p.Default, 0)
		list("visibility_policy.private_tags", p.PrivateTags, 0, 0)
		list("visibility_policy.team_tags", p.TeamTags, 0, 0)
	}
	for i, s := range out.Sources {
		text(fmt.Sprintf("sources[%d].kind", i), s.Kind, 0)
		text(fmt.Sprintf("sources[%d].path", i), s.Path, 0)
	}
	for i, w := range out.Warnings {
		text(fmt.Sprintf("warnings[%d].file", i), w.File, 0)
		text(fmt.Sprintf("warnings[%d].msg", i), w.Msg, 0)
	}
	return ps
}
