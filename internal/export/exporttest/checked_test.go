package exporttest

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export"
)

// fake is an exporter whose Export is a function.
type fake func(ctx context.Context, opts export.Options) (*export.Output, error)

func (fake) Info() export.Info                                 { return export.Info{ID: "fake", Type: "other"} }
func (fake) Detect(*export.Env) export.Presence                { return export.Presence{} }
func (fake) Health(context.Context, *export.Env) export.Health { return export.Health{} }
func (f fake) Export(ctx context.Context, _ *export.Env, opts export.Options) (*export.Output, error) {
	return f(ctx, opts)
}

func good() *export.Output {
	return &export.Output{SpecVersion: "0.1", Agent: export.Agent{ID: "fake", Type: "other"},
		Entities: []export.Entity{{Name: "Payments API", Type: "project", Visibility: "team"}},
		Sessions: []export.Session{{Date: "2026-11-03", KeyActions: []string{"Reviewed the refund PR"}, Visibility: "team"}}}
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = append(r.failed, fmt.Sprintf(format, args...))
}
func (r *recorder) Error(args ...any) { r.Errorf("%s", fmt.Sprint(args...)) }
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

// check runs Checked on e with a recorder and returns what it reported.
func check(t *testing.T, e export.Exporter) string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Checked(r, e, Env(t, nil), export.Options{})
	}()
	<-done
	return strings.Join(r.failed, "\n")
}

// short makes Checked's deadlines short for one test.
func short(t *testing.T) {
	exportTimeout, exportGrace = 200*time.Millisecond, 300*time.Millisecond
	t.Cleanup(func() { exportTimeout, exportGrace = ExportTimeout, hangGrace })
}

func TestCheckedFindsWhatTheRunnerRefuses(t *testing.T) {
	short(t)
	if got := check(t, fake(func(context.Context, export.Options) (*export.Output, error) { return good(), nil })); got != "" {
		t.Fatalf("a good output: %s", got)
	}
	for _, c := range []struct {
		name, want string
		mutate     func(*export.Output)
	}{
		{"invalid UTF-8", "entities[0].summary is not valid UTF-8", func(o *export.Output) { o.Entities[0].Summary = "caf\xe9" }},
		{"a warning not UTF-8", "warnings[0].msg is not valid UTF-8", func(o *export.Output) { o.Warn("f", 1, "bad \xff") }},
		{"a long key action", "sessions[0].key_actions[0] has 257 code points", func(o *export.Output) {
			o.Sessions[0].KeyActions[0] = strings.Repeat("é", export.MaxKeyAction+1)
		}},
		{"too many files", "files_touched has 51 items", func(o *export.Output) { o.Sessions[0].FilesTouched = make([]string, 51) }},
		{"no name", "entities[0] has no name", func(o *export.Output) { o.Entities[0].Name = "" }},
		{"not a date", "schema: /recent_sessions/0/date", func(o *export.Output) { o.Sessions[0].Date = "2026-02-30" }},
		{"another agent", `the Output is of agent "other"`, func(o *export.Output) { o.Agent.ID = "other" }},
	} {
		got := check(t, fake(func(context.Context, export.Options) (*export.Output, error) {
			o := good()
			c.mutate(o)
			return o, nil
		}))
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: reported %q, want %q", c.name, got, c.want)
		}
	}

	// An export that reads otherwise from its cache.
	n := 0
	got := check(t, fake(func(context.Context, export.Options) (*export.Output, error) {
		o := good()
		if n++; n > 1 {
			o.Entities[0].Name = "Payments"
		}
		return o, nil
	}))
	if !strings.Contains(got, "the export from the cache differs") {
		t.Errorf("cache: %q", got)
	}

	// An export that runs out of its deadline.
	got = check(t, fake(func(ctx context.Context, _ export.Options) (*export.Output, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}))
	if !strings.Contains(got, "ran out of its") {
		t.Errorf("deadline: %q", got)
	}
}

func TestCheckedFailsAnExportThatIgnoresItsContext(t *testing.T) {
	short(t)
	release := make(chan struct{})
	defer close(release)
	start := time.Now()
	got := check(t, fake(func(context.Context, export.Options) (*export.Output, error) {
		<-release
		return good(), nil
	}))
	if !strings.Contains(got, "did not return within") || time.Since(start) > exportTimeout+2*exportGrace {
		t.Errorf("hang: %q after %v", got, time.Since(start))
	}
}
