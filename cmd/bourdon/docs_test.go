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

func TestDocsFetchAndPath(t *testing.T) {
	corpus := filepath.Join("..", "..", "internal", "demo", "corpus")
	out, _, code := runWriteCLI(t, newRootCommand(), "docs", "fetch", "@demo.docs.retry-a-refund-safely", corpus, "--moniker", "payments-2.0")
	if code != 0 || !strings.HasPrefix(out, "\n# Retry a refund safely\n") || !strings.Contains(out, `id="refund_v2"`) || strings.Contains(out, `id="refund_v1"`) {
		t.Errorf("fetch for payments-2.0: %d\n%s", code, out)
	}
	cmd := newRootCommand()
	cmd.SetArgs([]string{"docs", "fetch", "demo.docs.payment-api", corpus})
	cmd.SetOut(&strings.Builder{})
	if err := cmd.Execute(); err == nil || !strings.HasPrefix(err.Error(), `unknown uid "demo.docs.payment-api". Closest: demo.docs.payments-api`) {
		t.Errorf("fetch of a misspelt uid: %v", err)
	}

	out, _, code = runWriteCLI(t, newRootCommand(), "docs", "path", "Replay ledger events", corpus, "--known", "demo.skills.make-refunds-idempotent")
	want := `skills for demo.skills.replay-ledger-events (Replay ledger events)
  known  demo.skills.read-the-payments-api
  known  demo.skills.make-refunds-idempotent
  learn  demo.skills.write-through-an-outbox
  learn  demo.skills.replay-ledger-events
steps
  1. demo.learn.ledger-outbox (Write ledger entries through an outbox)
     teaches: demo.skills.replay-ledger-events, demo.skills.write-through-an-outbox
     units:   demo.learn.ledger-outbox.why-an-outbox, demo.learn.ledger-outbox.relay-and-replay, demo.learn.ledger-outbox.knowledge-check
`
	if code != 0 || out != want {
		t.Errorf("path: %d\n%s\nwant\n%s", code, out, want)
	}
	cmd = newRootCommand()
	cmd.SetArgs([]string{"docs", "path", "juggling", corpus})
	cmd.SetOut(&strings.Builder{})
	if err := cmd.Execute(); err == nil || err.Error() != `no skill "juggling"` {
		t.Errorf("path to an unknown skill: %v", err)
	}
}
