package trust

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// fixedClock returns a clock that starts at start and advances by step on
// every call.
func fixedClock(start time.Time, step time.Duration) func() time.Time {
	var mu sync.Mutex
	next := start
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t := next
		next = next.Add(step)
		return t
	}
}

// TestAuditFixtureRoundTrip parses every line of the reference's audit log
// and writes it back to the same bytes.
func TestAuditFixtureRoundTrip(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(conformance, "on_disk", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	if len(lines) != 5 {
		t.Fatalf("%d lines, want 5", len(lines))
	}
	for i, line := range lines {
		e, ok := ParseEntry(line)
		if !ok {
			t.Fatalf("line %d does not parse", i+1)
		}
		if got := append(e.Line(), '\n'); !bytes.Equal(got, line) {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, got, line)
		}
	}
}

// TestAuditReproducesFixtureFromDecisions records, through Decide, the
// calls the fixture describes, and gets the fixture's bytes back.
func TestAuditReproducesFixtureFromDecisions(t *testing.T) {
	want, err := os.ReadFile(filepath.Join(conformance, "on_disk", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	a := OpenAudit(filepath.Join(t.TempDir(), "audit.jsonl"))
	a.now = fixedClock(time.Date(2026, 6, 29, 0, 0, 0, 0, time.UTC), time.Second)
	openclaw := Caller{ID: "openclaw", Tier: TierQuarantined, Grants: []string{"claude-code"}, Transport: HTTP}
	find := Decide("find_entity", openclaw, "")
	find.Namespace = "claude-code" // the fixture's synthetic first line names one
	for _, d := range []Decision{
		find,
		Decide("query_agent_memory", openclaw, "codex"),
		Decide("commit_to_federation", openclaw, "openclaw"),
		Decide("list_agents", Operator(), ""),
		Decide("get_cross_agent_summary", openclaw, ""),
	} {
		if err := a.RecordDecision(d); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(a.Path())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestEntryLineEscapesLikePython(t *testing.T) {
	// Expected values are Python 3's json.dumps({"ts": s}, ensure_ascii=False).
	for in, want := range map[string]string{
		"é ✓":                     `{"ts": "é ✓"`,
		`a"b\c`:                   `{"ts": "a\"b\\c"`,
		"\x01\x1f\x7f":            `{"ts": "\u0001\u001f` + "\x7f" + `"`,
		"\u2028\u2029":            "{\"ts\": \"\u2028\u2029\"",
		"tab\tnl\nbs\bff\f":       `{"ts": "tab\tnl\nbs\bff\f"`,
		"<>&":                     `{"ts": "<>&"`,
		"😀":                       `{"ts": "😀"`,
		"bad \xff utf-8":          `{"ts": "bad ` + "\uFFFD" + ` utf-8"`,
		"cr\r and nul \x00 there": `{"ts": "cr\r and nul \u0000 there"`,
	} {
		got := string(Entry{TS: in}.Line())
		if !strings.HasPrefix(got, want+", ") {
			t.Errorf("%q: got %s, want prefix %s", in, got, want)
		}
	}
	full := Entry{TS: "t", Agent: "a", Op: "o", Namespace: "n", Decision: "deny", Detail: "d"}
	if got, want := string(full.Line()), `{"ts": "t", "agent": "a", "op": "o", "namespace": "n", "decision": "deny", "detail": "d"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestRecordDefaultsAndTimestamp(t *testing.T) {
	a := OpenAudit(filepath.Join(t.TempDir(), "sub", "dir", "audit.jsonl"))
	a.now = func() time.Time { return time.Date(2026, 6, 29, 1, 2, 3, 456789999, time.FixedZone("CEST", 2*3600)) }
	if err := a.Record(Entry{Agent: "operator", Op: "list_agents"}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(a.Path())
	if err != nil {
		t.Fatal(err)
	}
	// UTC, microseconds truncated as Python's %f of a datetime.
	want := `{"ts": "2026-06-28T23:02:03.456789Z", "agent": "operator", "op": "list_agents", "namespace": "*", "decision": "allow"}` + "\n"
	if string(got) != want {
		t.Errorf("got  %swant %s", got, want)
	}
	if runtime.GOOS == "windows" {
		return // no Unix modes
	}
	for path, mode := range map[string]os.FileMode{a.Path(): 0o600, filepath.Dir(a.Path()): 0o700 | os.ModeDir} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != mode {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode(), mode)
		}
	}
}

func TestEntriesFilters(t *testing.T) {
	a := OpenAudit(filepath.Join(t.TempDir(), "audit.jsonl"))
	a.now = fixedClock(time.Date(2026, 6, 29, 0, 0, 0, 0, time.UTC), time.Second)
	rec := []Entry{
		{Agent: "openclaw", Op: "find_entity"},
		{Agent: "openclaw", Op: "query_agent_memory", Namespace: "codex", Decision: Deny, Detail: "namespace 'codex' not granted"},
		{Agent: "operator", Op: "list_agents"},
		{Agent: "clyde", Op: "get_deeper_context", Decision: Deny, Detail: "x"},
		{Agent: "openclaw", Op: "list_agents"},
	}
	for _, e := range rec {
		if err := a.Record(e); err != nil {
			t.Fatal(err)
		}
	}
	ops := func(es []Entry) string {
		var s []string
		for _, e := range es {
			s = append(s, e.Agent+":"+e.Op)
		}
		return strings.Join(s, " ")
	}
	for _, c := range []struct {
		f    AuditFilter
		want string
	}{
		{AuditFilter{}, "openclaw:find_entity openclaw:query_agent_memory operator:list_agents clyde:get_deeper_context openclaw:list_agents"},
		{AuditFilter{Agent: "openclaw"}, "openclaw:find_entity openclaw:query_agent_memory openclaw:list_agents"},
		{AuditFilter{DenialsOnly: true}, "openclaw:query_agent_memory clyde:get_deeper_context"},
		{AuditFilter{Agent: "openclaw", DenialsOnly: true}, "openclaw:query_agent_memory"},
		{AuditFilter{Limit: 2}, "clyde:get_deeper_context openclaw:list_agents"},
		{AuditFilter{Agent: "openclaw", Limit: 1}, "openclaw:list_agents"},
		{AuditFilter{Limit: 0}, "openclaw:find_entity openclaw:query_agent_memory operator:list_agents clyde:get_deeper_context openclaw:list_agents"},
		{AuditFilter{Limit: -1}, "openclaw:find_entity openclaw:query_agent_memory operator:list_agents clyde:get_deeper_context openclaw:list_agents"},
		{AuditFilter{Limit: 99}, "openclaw:find_entity openclaw:query_agent_memory operator:list_agents clyde:get_deeper_context openclaw:list_agents"},
		{AuditFilter{Agent: "ghost"}, ""},
	} {
		got, err := a.Entries(c.f)
		if err != nil {
			t.Fatal(err)
		}
		if ops(got) != c.want {
			t.Errorf("%+v: got %q, want %q", c.f, ops(got), c.want)
		}
	}
	got, _ := a.Entries(AuditFilter{DenialsOnly: true, Limit: 1})
	want := []Entry{{TS: "2026-06-29T00:00:03.000000Z", Agent: "clyde", Op: "get_deeper_context", Namespace: "*", Decision: "deny", Detail: "x"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	missing, err := OpenAudit(filepath.Join(t.TempDir(), "none.jsonl")).Entries(AuditFilter{})
	if err != nil || missing != nil {
		t.Errorf("missing log: %v, %v", missing, err)
	}
}

func TestTornTailIsSkippedAndNotGluedTo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	whole := `{"ts": "2026-06-29T00:00:00.000000Z", "agent": "openclaw", "op": "find_entity", "namespace": "*", "decision": "allow"}` + "\n"
	torn := `{"ts": "2026-06-29T00:00:01.000000Z", "agent": "open`
	if err := os.WriteFile(path, []byte(whole+"\n  \nnot json\n[1, 2]\n"+torn), 0o600); err != nil {
		t.Fatal(err)
	}
	a := OpenAudit(path)
	got, err := a.Entries(AuditFilter{})
	if err != nil || len(got) != 1 || got[0].Op != "find_entity" {
		t.Fatalf("entries = %+v, %v", got, err)
	}
	a.now = func() time.Time { return time.Date(2026, 6, 29, 0, 0, 2, 0, time.UTC) }
	if err := a.Record(Entry{Agent: "operator", Op: "list_agents"}); err != nil {
		t.Fatal(err)
	}
	got, _ = a.Entries(AuditFilter{})
	if len(got) != 2 || got[1].Op != "list_agents" {
		t.Fatalf("after a record: %+v", got)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasSuffix(string(data), torn+"\n"+`{"ts": "2026-06-29T00:00:02.000000Z", "agent": "operator", "op": "list_agents", "namespace": "*", "decision": "allow"}`+"\n") {
		t.Errorf("file ends %q", data[len(data)-160:])
	}
}

func TestAuditWriteFailureReturnsError(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{
		filepath.Join(file, "audit.jsonl"), // parent is a file
		dir,                                // the log is a directory
	} {
		if err := OpenAudit(path).Record(Entry{Agent: "a", Op: "b"}); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v", path, err)
		}
	}
	var none *Audit
	if err := none.Record(Entry{Agent: "a", Op: "b"}); err != nil {
		t.Errorf("nil audit: %v", err)
	}
}

func TestConcurrentRecordsStayWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		a := OpenAudit(path) // separate values: only O_APPEND keeps them apart
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if err := a.Record(Entry{Agent: fmt.Sprintf("w%d", w), Op: "find_entity", Detail: strings.Repeat("x", i)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	got, err := OpenAudit(path).Entries(AuditFilter{})
	if err != nil || len(got) != 400 {
		t.Fatalf("%d entries, %v", len(got), err)
	}
}

func TestTableRow(t *testing.T) {
	e := Entry{TS: "2026-06-29T00:00:01.000000Z", Agent: "openclaw", Op: "query_agent_memory", Namespace: "codex", Decision: "deny", Detail: "namespace 'codex' not granted"}
	want := "2026-06-29T00:00:01.000000Z  deny  openclaw             query_agent_memory           ns=codex  (namespace 'codex' not granted)"
	if got := e.TableRow(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestDefaultAuditPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("home directory and separators differ")
	}
	t.Setenv(AuditEnv, "/x/audit.jsonl")
	if p, err := DefaultAuditPath(os.Getenv); err != nil || p != "/x/audit.jsonl" {
		t.Errorf("env: %q %v", p, err)
	}
	t.Setenv(AuditEnv, "")
	t.Setenv("HOME", "/home/someone")
	if p, err := DefaultAuditPath(os.Getenv); err != nil || p != "/home/someone/.bourdon/audit.jsonl" {
		t.Errorf("default: %q %v", p, err)
	}
}

// TestRecentReadsNewestFirst checks Recent against a plain forward read
// of a log whose lines cross block boundaries, with blank, corrupt,
// overlong and torn lines.
func TestRecentReadsNewestFirst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var b strings.Builder
	base := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	agents := []string{"openclaw", "clyde", "operator"}
	for i := range 1500 {
		e := Entry{
			TS:    base.Add(time.Duration(i) * time.Minute).Format("2006-01-02T15:04:05.000000Z"),
			Agent: agents[i%3], Op: "find_entity", Namespace: "*", Decision: Allow,
			Detail: strings.Repeat("é", i%97),
		}
		if i%7 == 0 {
			e.Decision, e.Detail = Deny, "namespace 'codex' not granted"
		}
		b.Write(e.Line())
		b.WriteByte('\n')
		switch i {
		case 10:
			b.WriteString("\n\nnot json\n")
		case 800:
			b.WriteString(`{"ts": "` + strings.Repeat("x", MaxAuditLine+10) + `"}` + "\n")
		}
	}
	b.WriteString(`{"ts": "2026-06-29T00:00:01.000000Z", "agent": "open`) // torn
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	a := OpenAudit(path)
	// plain is the oracle: every line, forward, filtered, then reversed.
	var readable []Entry
	for _, l := range strings.Split(b.String(), "\n") {
		if e, ok := ParseEntry([]byte(l)); ok && len(l) <= MaxAuditLine {
			readable = append(readable, e)
		}
	}
	plain := func(f AuditFilter) []Entry {
		var out []Entry
		for _, e := range readable {
			if f.Agent != "" && e.Agent != f.Agent || f.DenialsOnly && e.Decision != Deny {
				continue
			}
			if ts, err := time.Parse(time.RFC3339Nano, e.TS); !f.Since.IsZero() && (err != nil || ts.Before(f.Since)) {
				continue
			}
			out = append(out, e)
		}
		slices.Reverse(out)
		return out
	}
	since := base.Add(1000 * time.Minute)
	for _, f := range []AuditFilter{
		{}, {Limit: 50}, {Agent: "clyde", Limit: 7}, {DenialsOnly: true}, {Agent: "operator", DenialsOnly: true, Limit: 1000},
		{Since: since}, {Since: since, Agent: "clyde", Limit: 5}, {Since: base.Add(10 * 24 * time.Hour)}, {Agent: "ghost", Limit: 3},
	} {
		want := plain(f)
		if f.Limit > 0 && len(want) > f.Limit {
			want = want[:f.Limit]
		}
		var got []Entry
		full, err := a.Recent(f, func(e Entry) bool { got = append(got, e); return true })
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%+v: Recent differs from a forward read (-want +got):\n%s", f, diff)
		}
		oldest := slices.Clone(want)
		slices.Reverse(oldest)
		if diff := cmp.Diff(oldest, mustEntries(t, a, f), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%+v: Entries is not the same, oldest first (-want +got):\n%s", f, diff)
		}
		if wantFull := f.Limit > 0 && len(got) == f.Limit; full != wantFull {
			t.Errorf("%+v: full = %v", f, full)
		}
	}
	if n := len(mustEntries(t, a, AuditFilter{})); n != 1500 {
		t.Fatalf("the log must hold 1500 readable entries, not %d", n)
	}

	// fn can stop the walk.
	n := 0
	if _, err := a.Recent(AuditFilter{}, func(Entry) bool { n++; return n < 3 }); err != nil || n != 3 {
		t.Errorf("stopping: %d calls, %v", n, err)
	}
	// A missing log has no entries.
	if full, err := OpenAudit(filepath.Join(t.TempDir(), "none")).Recent(AuditFilter{}, func(Entry) bool { t.Error("no entry expected"); return true }); full || err != nil {
		t.Errorf("missing log: %v, %v", full, err)
	}
}

func mustEntries(t *testing.T, a *Audit, f AuditFilter) []Entry {
	t.Helper()
	es, err := a.Entries(f)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// TestAuditFollowsItsPath checks the kept file of an audit log: after the
// log is removed, or replaced by another file, the next entry goes to the
// file the path names; after another writer left a line cut short, the
// next entry starts on a line of its own.
func TestAuditFollowsItsPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logs", "audit.jsonl")
	a := OpenAudit(path)
	record := func(op string) {
		t.Helper()
		if err := a.Record(Entry{Agent: "a", Op: op}); err != nil {
			t.Fatal(err)
		}
	}
	ops := func() []string {
		t.Helper()
		got, err := OpenAudit(path).Entries(AuditFilter{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range got {
			out = append(out, e.Op)
		}
		return out
	}
	record("one")
	if err := os.RemoveAll(filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	record("two")
	if got := ops(); !slices.Equal(got, []string{"two"}) {
		t.Errorf("after the log was removed: %v, want [two]", got)
	}
	other := path + ".new"
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	record("three")
	if got := ops(); !slices.Equal(got, []string{"three"}) {
		t.Errorf("after the log was replaced: %v, want [three]", got)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"ts":"cut short`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	record("four")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "cut short\n{") {
		t.Errorf("the entry after a line cut short does not start a line:\n%s", data)
	}
}

// TestFormatTSMatchesFormat holds FormatTS against time.Format with its
// layout, over times of every field width, zones and years at the edges.
func TestFormatTSMatchesFormat(t *testing.T) {
	zone := time.FixedZone("x", -(9*3600 + 30*60))
	times := []time.Time{
		{}, time.Unix(0, 0), time.Unix(0, 999), time.Unix(0, 1000), time.Unix(1, 999_999_999),
		time.Date(2026, 12, 2, 8, 4, 5, 123456789, time.UTC), time.Date(2026, 1, 1, 0, 0, 0, 0, zone),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(999, 3, 4, 5, 6, 7, 8000, zone),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		times = append(times, time.Unix(r.Int64N(1<<36)-1<<35, r.Int64N(1e9)).In(zone))
	}
	for _, tm := range times {
		if got, want := FormatTS(tm), tm.UTC().Format("2006-01-02T15:04:05.000000Z"); got != want {
			t.Errorf("FormatTS(%v) = %q, want %q", tm, got, want)
		}
	}
}

// TestAuditAppendAllocations: appending an entry to the file allocates
// only what finding the file costs (a stat), not the line.
func TestAuditAppendAllocations(t *testing.T) {
	a := OpenAudit(filepath.Join(t.TempDir(), "audit.jsonl"))
	e := Entry{TS: "2026-12-02T08:00:00.000000Z", Agent: "a", Op: "find_entity"}
	if err := a.Record(e); err != nil {
		t.Fatal(err)
	}
	base := testing.AllocsPerRun(50, func() { os.Stat(a.Path()) })
	if n := testing.AllocsPerRun(50, func() { a.Record(e) }); n > base {
		t.Errorf("Record allocates %v times, a stat %v", n, base)
	}
}
