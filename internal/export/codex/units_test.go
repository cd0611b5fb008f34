package codex

import (
	"reflect"
	"slices"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/export"
)

func TestVocabularyIsTheReferences(t *testing.T) {
	if len(genericNames) != 146 {
		t.Errorf("%d generic names, the reference has 146", len(genericNames))
	}
}

func TestMemoryGrammar(t *testing.T) {
	got := parseMemory(`# Task Group: Coolculator monorepo bootstrap and Mac handoff
scope: generic

## Task 1: Build the shared contracts

### keywords

- Coolculator
- Fastify, ` + "`Jetpack Compose`" + `

## User preferences

- prefer backend-first delivery
## Some other heading
- still a preference (other ## headings do not reset)
Key steps:
- not a preference
task_group: coolculator-monorepo
task: build-context-export
description: Coolculator monorepo workstream.
keywords: Coolculator, SwiftUI
Reusable knowledge:
- Coolculator is the active product name.
# Raw Memories
### Task 2
- COOLCULATOR
`)
	want := sections{
		TaskGroups:   []string{"Coolculator monorepo bootstrap and Mac handoff", "coolculator monorepo"},
		TaskTitles:   []string{"Build the shared contracts", "build context export", "Task 2"},
		Preferences:  []string{"prefer backend-first delivery", "still a preference (other ## headings do not reset)"},
		Keywords:     []string{"Coolculator", "Fastify", "Jetpack Compose", "SwiftUI"},
		Descriptions: []string{"Coolculator monorepo workstream.", "Coolculator is the active product name."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	threads := parseRawMemoryThreads("# Raw Memories\n## Thread `t1`\nkeywords: A1, B2\n## Thread `t2`\n\n## Thread `t1`\ntask: x-y\n")
	if len(threads) != 1 || !slices.Equal(threads["t1"].Keywords, []string{"A1", "B2"}) || !slices.Equal(threads["t1"].TaskTitles, []string{"x y"}) {
		t.Errorf("threads = %+v", threads)
	}
}

func TestStripBourdonBlock(t *testing.T) {
	for in, want := range map[string]string{
		"a\n" + bourdonBegin + "\nx\n" + bourdonEnd + "\n\nb\n":             "a\n\nb\n",
		bourdonBegin + "\nx\n" + bourdonEnd + "\n":                          "",
		"keep\n\n" + bourdonBegin + "\nunterminated\n":                      "keep",
		"a\n" + bourdonBegin + bourdonEnd + "b" + bourdonBegin + bourdonEnd: "a\n\nb",
	} {
		if got := stripBourdonBlock(in); got != want {
			t.Errorf("strip(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPreferenceNames(t *testing.T) {
	for in, want := range map[string]string{
		"prefer backend-first delivery [Task 1]": "backend-first delivery preference",
		"for cross-machine work, the user gave a clear workflow: \"we will commit push then move to the ios machine\" [Task 3]": "cross-machine handoff workflow",
		"user accepted the handoff after the push -> future machine switches should preserve the same branch and checkpoint":    "machine-switch checkpoint workflow",
		"before any reinstall, the user wants a clear handoff artifact and offline recovery path":                               "reinstall recovery handoff",
		"Don't stop mid-task.":                                 "stop/wait interruption preference",
		"for money formatting the user prefers Intl over code": "money formatting prefers intl over preference",
		"the user prefers the new docs.":                       "codex preference",
	} {
		if got := preferenceName(cleanPreference(in)); got != want {
			t.Errorf("preferenceName(%q) = %q, want %q", in, got, want)
		}
	}
	e := preferenceEntity("commit and push before switching to the Mac [Task 2]")
	if e.Summary != "User preference: commit and push before switching to the Mac" || !slices.Equal(e.Tags, []string{"codex-preference", "workflow"}) {
		t.Errorf("entity = %+v", e)
	}
}

func TestJunkFilter(t *testing.T) {
	for _, c := range []struct {
		e    export.Entity
		junk bool
	}{
		{export.Entity{Name: "Project 2"}, true},
		{export.Entity{Name: "New Project"}, true},
		{export.Entity{Name: "untitled"}, true},
		{export.Entity{Name: "(untitled)"}, false}, // ⚠ as in the reference
		{export.Entity{Name: "memories"}, true},
		{export.Entity{Name: "ios"}, false},
		{export.Entity{Name: "abc"}, true},
		{export.Entity{Name: "Ledger", Summary: "Observed across 3 Codex session(s).", Tags: []string{"codex-project"}}, true},
		{export.Entity{Name: "Ledger", Summary: "Observed across 3 Codex session(s).", Tags: []string{"codex-project", "finance"}}, false},
		{export.Entity{Name: "Ledger", Summary: "Observed across 3 Codex session(s).", Aliases: []string{"ledger-svc"}}, false},
		{export.Entity{Name: "Payments API", Summary: "Codex thread: x"}, false},
	} {
		if got := isJunk(&c.e); got != c.junk {
			t.Errorf("isJunk(%+v) = %v", c.e, got)
		}
	}
}

func TestProjectKeysAndLabels(t *testing.T) {
	l := layout{homeName: "dev"}
	for cwd, want := range map[string]string{
		"/home/dev/repos/Payments-API":                        "payments-api",
		`C:\Users\dev\Documents\Codex\2026-04-11-new-project`: "",
		"/home/dev":         "",
		"/home/dev/src":     "",
		"/tmp/codex-42":     "",
		"/work/New Project": "",
		"/w/café-ledger/":   "café-ledger",
	} {
		if got := l.projectKey(cwd); got != want {
			t.Errorf("projectKey(%q) = %q, want %q", cwd, got, want)
		}
	}
	phrases := []string{"payments-api v2", "Payments-API", "the Payments-API outage", "café-ledger and Café-Ledger", "Café-Ledger"}
	if got := bestDisplayName("payments-api", phrases); got != "Payments-API" {
		t.Errorf("label %q", got)
	}
	if got := bestDisplayName("café-ledger", phrases); got != "Café-Ledger" {
		t.Errorf("label %q", got)
	}
	if got := bestDisplayName("ledger_svc", nil); got != "Ledger Svc" {
		t.Errorf("label %q", got)
	}
	mem := &sections{Keywords: []string{"Coolculator", "Fastify", "SwiftUI", "Coolculator, Mac handoff"}, TaskGroups: []string{"Coolculator monorepo", "coolculator-monorepo"}}
	if got := l.projectCandidates(mem); !slices.Equal(got, []string{"coolculator"}) {
		t.Errorf("candidates %v", got)
	}
}

func TestConceptsAndDates(t *testing.T) {
	f := conceptFlags("Continuo became Bourdon; it needs run-time recognition as a recognition-first runtime layer. xbourdon")
	if got := conceptsOf(f); !slices.Equal(got, []string{"Bourdon recognition first runtime layer", "Bourdon", "Continuo", "runtime recognition", "recognition first runtime layer"}) {
		t.Errorf("concepts %v", got)
	}
	if conceptFlags("éBourdon bourdons") != 0 {
		t.Error("a word boundary is Unicode-aware and required")
	}
	for in, want := range map[string]string{
		"2026-11-12T09:30:05.512345Z": "2026-11-12", "2026-11-06T00:30:00+01:00": "2026-11-06", "20261112T093005Z": "2026-11-12",
		"2026-02-30": "", "garbage": "", "": "",
	} {
		if got := isoDay(in); got != want {
			t.Errorf("isoDay(%q) = %q", in, got)
		}
	}
	if epochDay("1762246800") != "2025-11-04" || epochDay("1762246800000") != "2025-11-04" || epochDay("0") != "" {
		t.Error("epochDay")
	}
	if got := filesFromPatch("*** Begin Patch\n*** Update File: a.go\n*** Add File: B.go\n*** Update File: A.GO\n*** Move to: c.go\n"); !slices.Equal(got, []string{"a.go", "B.go", "c.go"}) {
		t.Errorf("files %v", got)
	}
}
