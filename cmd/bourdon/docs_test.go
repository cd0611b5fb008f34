package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDocsCheck(t *testing.T) {
	learn, overlay := filepath.Join("..", "..", "testdata", "learn"), filepath.Join("..", "..", "testdata", "learn-overlay")
	out, errOut, code := runWriteCLI(t, newRootCommand(), "docs", "check", learn, overlay)
	quoted := `a plain value holds ": ", which YAML does not allow; read as a quoted string (quote the value)`
	want := strings.Join([]string{
		filepath.Join(learn, "achievements.yml") + ":151: schema: " + quoted,
		filepath.Join(learn, "achievements.yml") + ":156: schema: " + quoted,
		filepath.Join(learn, "cogitave/observability-and-reliability/3-reliability-and-slos.yml") + ":6: schema: " + quoted,
		filepath.Join(learn, "cogitave/operate-from-day-1/3-flow-based-ways-of-working.yml") + ":6: schema: " + quoted,
		filepath.Join(learn, "docs/deployment.md") + ":2: metadata-required: missing required key products",
	}, "\n") + "\n"
	if code != 1 || out != want || errOut != "277 node(s), 463 edge(s), 5 problem(s)\n" {
		t.Errorf("check: %d\n%s\nwant\n%s\nstderr %q", code, out, want, errOut)
	}

	dir := t.TempDir()
	doc := `---
uid: cogitave.learn.docs.only
title: The only doc
description: A corpus of one doc, with every field the metadata-required gate asks of a doc.
type: reference
owner: cogitave/platform
lastReviewed: 2026-07-01
products: [namzu]
roles: [developer]
level: beginner
---

# The only doc
`
	if err := os.MkdirAll(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "docs", "only.md"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runWriteCLI(t, newRootCommand(), "docs", "check", dir)
	if code != 0 || out != "" || errOut != "3 node(s), 2 edge(s), 0 problem(s)\n" {
		t.Errorf("valid corpus: %d %q %q", code, out, errOut)
	}

	cmd := newRootCommand()
	cmd.SetArgs([]string{"docs", "check", filepath.Join(dir, "missing")})
	cmd.SetOut(&strings.Builder{})
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), "corpus root") {
		t.Errorf("missing root: %v", err)
	}
}

func TestDocsStats(t *testing.T) {
	out, _, code := runWriteCLI(t, newRootCommand(), "docs", "stats", filepath.Join("..", "..", "testdata", "learn"), filepath.Join("..", "..", "testdata", "learn-overlay"))
	for _, want := range []string{
		"nodes 277\n", "  Unit              153\n", "  LearningPath        8\n", "  Skill               6\n",
		"edges 463\n", "  partOf            186\n", "  certifies           6\n",
		"monikers 4\n", "  namzu-2.0         200  namzu stable\n", "problems 5\n",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("stats: %d, want %q in\n%s", code, want, out)
		}
	}
}
