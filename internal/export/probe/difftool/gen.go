package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite"
)

// gen materialises one HOME of native stores from a seeded generator. Every
// store varies what real users' stores vary: how many projects, names with
// accents, scripts and great length, CRLF line ends, empty and large files,
// optional fields left out, unknown fields added, ids repeated, several
// timestamp spellings and zones, several sessions on one day, and a corrupt
// unit beside the good ones. What it avoids on purpose is listed in
// README.md: the shapes where a documented ⚠ difference would drown
// everything else.
type gen struct {
	r    *rand.Rand
	home string
	errs []error
}

// fixedMtime is every generated file's modification time, so a day derived
// from it is the same for both exporters and every run.
var fixedMtime = time.Date(2026, 11, 20, 15, 30, 0, 0, time.UTC)

var projectWords = []string{
	"payments-api", "atlas", "ledger", "café-ledger", "zürich-svc", "billing_core",
	"Orion", "nebula-ui", "tile-cache", "日本語-notes", "refunds", "outbox-relay",
	"kafka-bridge", "ios-client", "docs-site", "data_pipeline", "Helix", "warehouse",
	"señal", "mobile", "auth-gateway", "search-index", "infra", "payments",
}

var phrases = []string{
	"Add idempotency keys to refunds", "Fix the flaky ledger test", "Wire the outbox relay",
	"Investigate tile eviction in Atlas", "Refactor the auth middleware", "Draft the billing schema",
	"Migrate Kafka consumers to the new cluster", "Speed up the search index rebuild",
	"Review the payments PR", "Update the CI workflow for releases", "Add retries to the webhook sender",
	"Écrire la documentation du grand livre", "修正 the cache invalidation", "Ship the mobile onboarding flow",
	"Clean up dead feature flags", "Investigate memory growth in the relay", "Pair on the ledger reconciliation",
}

var words = []string{
	"refund", "ledger", "outbox", "cache", "tile", "retry", "webhook", "schema", "cluster",
	"index", "deploy", "release", "billing", "invoice", "tenant", "gateway", "token", "queue",
	"migration", "latency", "dashboard", "metric", "worker", "shard", "replica",
}

func (g *gen) pick(l []string) string { return l[g.r.Intn(len(l))] }
func (g *gen) chance(p float64) bool  { return g.r.Float64() < p }

func (g *gen) sentence(min, max int) string {
	n := min + g.r.Intn(max-min+1)
	var b []string
	for i := 0; i < n; i++ {
		b = append(b, g.pick(words))
	}
	s := strings.Join(b, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// name is a project-like name: usually a plain one, sometimes unicode or
// very long.
func (g *gen) name() string {
	switch {
	case g.chance(0.08):
		return strings.Repeat(g.pick(projectWords)+"-", 12) + "end"
	default:
		return g.pick(projectWords)
	}
}

func (g *gen) phrase() string {
	if g.chance(0.1) {
		return g.pick(phrases) + " — " + g.sentence(20, 60)
	}
	return g.pick(phrases)
}

// day is a day in November 2026.
func (g *gen) day() time.Time {
	return time.Date(2026, 11, 1+g.r.Intn(20), g.r.Intn(24), g.r.Intn(60), g.r.Intn(60), g.r.Intn(1000)*1e6, time.UTC)
}

// isoStamp spells an instant in one of the ways stores spell them.
func (g *gen) isoStamp(t time.Time) string {
	switch g.r.Intn(5) {
	case 0:
		return t.Format("2006-01-02T15:04:05.000Z")
	case 1:
		return t.Format("2006-01-02T15:04:05Z")
	case 2:
		return t.In(time.FixedZone("", 2*3600)).Format("2006-01-02T15:04:05.000000-07:00")
	case 3:
		return t.Format("2006-01-02T15:04:05.999999Z")
	default:
		return t.In(time.FixedZone("", -5*3600)).Format("2006-01-02T15:04:05-07:00")
	}
}

func (g *gen) write(rel string, content string) {
	p := filepath.Join(g.home, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		g.errs = append(g.errs, err)
		return
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		g.errs = append(g.errs, err)
	}
}

func (g *gen) jsonl(rel string, recs []any) {
	var b strings.Builder
	for _, r := range recs {
		if s, ok := r.(string); ok { // a raw (possibly corrupt) line
			b.WriteString(s + "\n")
			continue
		}
		j, _ := json.Marshal(r)
		b.Write(j)
		b.WriteString("\n")
	}
	g.write(rel, b.String())
}

func (g *gen) db(rel string, stmts ...string) {
	p := filepath.Join(g.home, rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	db, err := sql.Open("sqlite", p)
	if err != nil {
		g.errs = append(g.errs, err)
		return
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			g.errs = append(g.errs, fmt.Errorf("%s: %v: %.200s", rel, err, s))
			return
		}
	}
}

// yamlScalar is a front-matter value as people write them: usually a
// quoted string, sometimes a bare scalar YAML 1.1 reads as something else
// (a date, a number, a boolean, null) or a block scalar.
func (g *gen) yamlScalar(s string) string {
	if !g.chance(0.25) {
		return yq(s)
	}
	return g.pick([]string{"2026-11-01", "yes", "1234", "1.50", "null", "~", "'on'", "off", "0x1F", "1e3",
		"2026-11-03 10:00:00", "|\n  " + s + "\n  second line", ">\n  " + s + "\n  folded", s, "'" + s + "'", "Payments: API"})
}

func q(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func yq(s string) string { j, _ := json.Marshal(s); return string(j) }

// ---- claude-code ----

func (g *gen) claudeCode() {
	// One project with an indexed memory directory (the reference reads
	// one, ⚠3), others with transcripts only.
	slug := "-home-dev-repos-" + strings.ReplaceAll(g.pick(projectWords), "_", "-")
	mem := ".claude/projects/" + slug + "/memory/"
	g.write(mem+"MEMORY.md", "# Memory index\n\n- notes\n")
	if g.chance(0.5) {
		g.write(".claude/projects/-home-dev-scratch/"+fmt.Sprintf("%08x", g.r.Uint32())+".jsonl", "{\"type\":\"user\"}\n")
	}
	n := g.r.Intn(9)
	for i := 0; i < n; i++ {
		file := fmt.Sprintf("%s%s_%d.md", mem, g.pick([]string{"project", "feedback", "reference", "note", "Zeta", "ärger"}), i)
		var b strings.Builder
		crlf := false
		switch g.r.Intn(6) {
		case 0: // no front matter, a heading
			crlf = g.chance(0.3)
			fmt.Fprintf(&b, "%s%s%s\n\n", g.pick([]string{"# ", "#\t", "#  ", "#", "## "}), g.name(), g.pick([]string{"", " — notes", ": details", " - wip", " -- x", ":no-space", " – en dash", "  —  spaced"}))
			g.body(&b)
		case 1: // empty
		default:
			b.WriteString("---\n")
			if g.chance(0.9) {
				fmt.Fprintf(&b, "name: %s\n", g.yamlScalar(g.name()))
			}
			if g.chance(0.7) {
				desc := g.sentence(4, 14)
				if g.chance(0.1) {
					desc = g.sentence(120, 160)
				}
				fmt.Fprintf(&b, "description: %s\n", g.yamlScalar(desc))
			}
			if g.chance(0.7) {
				fmt.Fprintf(&b, "type: %s\n", g.pick([]string{"project", "feedback", "reference", "user", "Project", "notes/reference", " Person "}))
			}
			if g.chance(0.4) {
				fmt.Fprintf(&b, "tags: [%s, %s]\n", g.pick(words), g.pick([]string{"billing", "infra", "personal", "team", "1", "true", "2026-11-01", "null"}))
			}
			if g.chance(0.3) {
				fmt.Fprintf(&b, "originSessionId: %08x\nupdated: 2026-11-%02d\n", g.r.Uint32(), 1+g.r.Intn(20))
			}
			b.WriteString("---\n\n")
			if g.chance(0.5) {
				fmt.Fprintf(&b, "# %s\n\n", g.name())
			}
			g.body(&b)
		}
		s := b.String()
		if crlf {
			s = strings.ReplaceAll(s, "\n", "\r\n")
		}
		switch {
		case g.chance(0.05):
			s = "\ufeff" + s // a byte order mark
		case g.chance(0.03):
			s += strings.Repeat(g.sentence(10, 20)+"\n", 20000) // over a MiB
		}
		g.write(file, s)
	}

	// claude-brain
	if g.chance(0.8) {
		for i, n := 0, g.r.Intn(5); i < n; i++ {
			dir := strings.ToUpper(strings.ReplaceAll(g.pick(projectWords), "-", "_"))
			var b strings.Builder
			if g.chance(0.15) {
				b.WriteString("---\nowner: dev\n---\n")
			}
			if g.chance(0.8) {
				fmt.Fprintf(&b, "# %s%s\n\n", g.name(), g.pick([]string{"", " — overview", ": plan"}))
			}
			fmt.Fprintf(&b, "%s\n\n", g.sentence(5, 20))
			if g.chance(0.8) {
				fmt.Fprintf(&b, "%s\n%s\n", g.pick([]string{"## Status", "## Current Status", "## status (Nov)"}),
					g.pick([]string{"Active, shipping weekly.", "Archived on 2026-10-12.", "Cancelled 2026-09-30 after review.",
						"inactive since summer", "Blocked on legal. Shipped v1.", "archived"}))
			}
			g.write("claude-brain/PROJECTS/"+dir+"/OVERVIEW.md", b.String())
		}
		logs := g.r.Intn(7)
		if g.chance(0.1) {
			logs = 100 + g.r.Intn(30) // past the reference's cap of 100
		}
		for i := 0; i < logs; i++ {
			d := g.day().Format("2006-01-02")
			suffix := g.pick([]string{"", "-laptop", "-desktop-session2", "-mac-late", "-ünï"})
			body := g.sentence(4, 30) + "\n\n" + g.sentence(3, 9) + "\n"
			if g.chance(0.15) {
				body = ""
			}
			if g.chance(0.2) {
				body = "# " + d + "\n\n" + body
			}
			if g.chance(0.15) {
				body = "---\nmachine: laptop\ntags: [log]\n---\n" + body
			}
			if g.chance(0.1) {
				body = strings.ReplaceAll(body, "\n", "\r\n")
			}
			g.write("claude-brain/LOG/"+d+suffix+".md", body)
		}
		g.write("claude-brain/CURRENT.md", "# Current\n\nnothing\n")
	}

	// the MCP memory server's graph
	if g.chance(0.7) {
		var recs []any
		for i, n := 0, g.r.Intn(10); i < n; i++ {
			name := g.name()
			if g.chance(0.3) {
				name = strings.ToUpper(name[:1]) + name[1:] + g.pick([]string{"", " ", "  "})
			}
			rec := map[string]any{"type": "entity", "name": name,
				"entityType": g.pick([]string{"project", "organization", "tool", "concept", "org/team", "Project"})}
			var obs []any
			for j, m := 0, g.r.Intn(4); j < m; j++ {
				obs = append(obs, g.sentence(3, 12))
			}
			if g.chance(0.1) {
				obs = append([]any{42}, obs...)
			}
			if obs != nil || g.chance(0.5) {
				rec["observations"] = obs
			}
			if g.chance(0.2) {
				rec["createdAt"] = g.isoStamp(g.day())
			}
			recs = append(recs, rec)
			if g.chance(0.3) {
				recs = append(recs, map[string]any{"type": "relation", "from": rec["name"], "to": g.name(), "relationType": "uses"})
			}
			if g.chance(0.1) {
				recs = append(recs, "")
			}
		}
		if g.chance(0.2) {
			recs = append(recs, `{"type":"entity","name":"half`)
		}
		g.jsonl("claude-memory/memory.jsonl", recs)
	}
}

// body writes a Markdown body: paragraphs of varied length, headings and
// '#' lines inside paragraphs, leading blank lines, a rule, a list.
func (g *gen) body(b *strings.Builder) {
	if g.chance(0.3) {
		b.WriteString("\n\n")
	}
	for i, n := 0, 1+g.r.Intn(3); i < n; i++ {
		switch g.r.Intn(6) {
		case 0:
			fmt.Fprintf(b, "## %s\n", g.phrase())
		case 1:
			fmt.Fprintf(b, "%s\n# inline heading\n%s\n\n", g.sentence(3, 9), g.sentence(3, 9))
		case 2:
			for j := 0; j < 8; j++ {
				fmt.Fprintf(b, "%s\n", g.sentence(8, 14))
			}
			b.WriteString("\n")
		case 3:
			fmt.Fprintf(b, "- %s\n- %s\n\n", g.sentence(2, 5), g.sentence(2, 5))
		case 4:
			fmt.Fprintf(b, "   %s   \n\t%s\n\n---\n\n", g.sentence(3, 9), g.sentence(3, 9))
		default:
			fmt.Fprintf(b, "%s\n\n**Why:** %s\n", g.sentence(4, 20), g.sentence(3, 8))
		}
	}
}

// ---- codex ----

func (g *gen) codexRollout(id string, t time.Time, cwd, text string, patchFiles []string) string {
	rel := fmt.Sprintf(".codex/sessions/%s/rollout-%s-%s.jsonl", t.Format("2006/01/02"), t.Format("2006-01-02T15-04-05"), id)
	recs := []any{
		map[string]any{"timestamp": t.Format("2006-01-02T15:04:05.000Z"), "type": "session_meta",
			"payload": map[string]any{"id": id, "timestamp": t.Format("2006-01-02T15:04:05.000Z"), "cwd": cwd,
				"originator": "codex_cli_rs", "cli_version": "0.58.0", "source": "cli", "model_provider": "openai"}},
		map[string]any{"type": "response_item", "payload": map[string]any{"type": "message", "role": "user",
			"content": []any{map[string]any{"type": "input_text", "text": "<environment_context>cwd</environment_context>"}}}},
		map[string]any{"type": "event_msg", "payload": map[string]any{"type": "user_message", "message": text}},
	}
	if len(patchFiles) > 0 {
		var b strings.Builder
		b.WriteString("*** Begin Patch\n")
		for _, f := range patchFiles {
			fmt.Fprintf(&b, "*** %s File: %s\n@@\n-old\n+new\n", g.pick([]string{"Update", "Add", "Delete"}), f)
		}
		b.WriteString("*** End Patch\n")
		recs = append(recs, map[string]any{"type": "response_item", "payload": map[string]any{"type": "function_call", "name": "apply_patch", "arguments": b.String()}})
	}
	if g.chance(0.1) {
		recs = append(recs, "not json at all")
	}
	g.jsonl(rel, recs)
	return rel
}

func (g *gen) codex() {
	type thread struct {
		id, name, cwd string
		t             time.Time
		rollout       string
	}
	var threads []thread
	n := 1 + g.r.Intn(8)
	for i := 0; i < n; i++ {
		t := g.day()
		id := fmt.Sprintf("0199a1b2-%04x-7c3e-9d00-%012x", g.r.Intn(0xffff), g.r.Int63n(1<<40))
		cwd := "/home/dev/repos/" + g.name()
		switch {
		case g.chance(0.15):
			cwd = "/home/dev/" + g.pick([]string{"src", "projects", "tmp", "Backend", "my app"})
		case g.chance(0.1):
			cwd = g.home // the home directory itself
		case g.chance(0.1):
			cwd = filepath.Join(g.home, ".codex", "memories")
		case g.chance(0.1) && len(threads) > 0:
			cwd = threads[0].cwd // several threads in one project
			t = threads[0].t.Add(time.Duration(g.r.Intn(3600)) * time.Second)
		case g.chance(0.1):
			cwd = "/home/dev/repos/" + g.pick([]string{"codex-2", "2026-11-01-spike", "v2", "Payments API", "ledger/"})
		}
		name := g.phrase()
		if g.chance(0.1) {
			name = g.pick([]string{"(untitled)", "Bourdon recognition first runtime layer", "Continuo runtime recognition notes", "  spaced   name  ", "   "})
		}
		th := thread{id: id, name: name, cwd: cwd, t: t}
		var files []string
		for j, m := 0, g.r.Intn(4); j < m; j++ {
			files = append(files, g.pick([]string{"services/refunds/handler.go", "README.md", "src/Ledger.ts", "docs/ñandú.md", "Services/Refunds/Handler.go"}))
		}
		th.rollout = g.codexRollout(id, t, cwd, th.name, files)
		threads = append(threads, th)
	}
	if g.chance(0.5) {
		// the state database path: epoch seconds (current Codex), epoch
		// milliseconds, or ISO text
		stamps := g.r.Intn(3)
		stmts := []string{`CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT, created_at INTEGER, updated_at INTEGER,
			source TEXT, model_provider TEXT, cwd TEXT, title TEXT, sandbox_policy TEXT, approval_mode TEXT,
			tokens_used INTEGER, has_user_event INTEGER, archived INTEGER, archived_at INTEGER, git_sha TEXT,
			git_branch TEXT, git_origin_url TEXT, cli_version TEXT, first_user_message TEXT, agent_nickname TEXT,
			agent_role TEXT, memory_mode TEXT)`}
		for _, th := range threads {
			title := th.name
			if g.chance(0.15) {
				title = ""
			}
			created, updated := fmt.Sprint(th.t.Unix()-600), fmt.Sprint(th.t.Unix())
			switch stamps {
			case 1:
				created, updated = fmt.Sprint(th.t.UnixMilli()-600000), fmt.Sprint(th.t.UnixMilli())
			case 2:
				created, updated = q(th.t.Add(-10*time.Minute).Format(time.RFC3339)), q(g.isoStamp(th.t))
			}
			stmts = append(stmts, fmt.Sprintf("INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, first_user_message, archived, cli_version, memory_mode) VALUES (%s, %s, %s, %s, 'cli', 'openai', %s, %s, %s, %d, '0.58.0', 'enabled')",
				q(th.id), q(filepath.Join(g.home, th.rollout)), created, updated, q(th.cwd), q(title), q(th.name), g.r.Intn(2)))
		}
		g.db(".codex/state_5.sqlite", stmts...)
	} else {
		var recs []any
		for _, th := range threads {
			u := th.t.Add(5 * time.Minute)
			recs = append(recs, map[string]any{"id": th.id, "thread_name": th.name, "updated_at": g.pick([]string{
				u.Format("2006-01-02T15:04:05.000000Z"), u.Format("2006-01-02T15:04:05Z"), u.Format("2006-01-02T15:04:05"),
				u.In(time.FixedZone("", -8*3600)).Format("2006-01-02T15:04:05-07:00")})})
		}
		g.r.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
		g.jsonl(".codex/session_index.jsonl", recs)
	}
	if g.chance(0.6) {
		var b strings.Builder
		for i, n := 0, 1+g.r.Intn(3); i < n; i++ {
			p := g.pick(projectWords)
			fmt.Fprintf(&b, "# Task Group: %s %s\n\n## Task 1: %s\n\n### keywords\n- %s, %s\n\n", p, g.pick(words), g.phrase(), p, g.pick(words))
			if g.chance(0.5) {
				fmt.Fprintf(&b, "description: %s\n\n", g.sentence(5, 12))
			}
		}
		b.WriteString("## User preferences\n")
		for i, n := 0, g.r.Intn(4); i < n; i++ {
			fmt.Fprintf(&b, "- %s [Task %d]\n", g.pick([]string{"prefer backend-first delivery", "the user wants short commit messages",
				"Stop and wait when asked", "use exact paths in instructions", "default to pnpm over npm for the web app",
				"user prefers tests before refactors -> tests first", "commit and push from the mac before switching"}), i+1)
		}
		g.write(".codex/memories/MEMORY.md", b.String())
	}
	if g.chance(0.3) && len(threads) > 0 {
		g.write(".codex/memories/raw_memories.md", fmt.Sprintf("# Raw Memories\n\n## Thread `%s`\ntask_group: %s-work\ntask: fix-%s\nkeywords: %s, `%s`\n- prefer %s\n",
			threads[0].id, g.pick(projectWords), g.pick(words), g.pick(projectWords), g.pick(words), g.sentence(3, 6)))
	}
	if g.chance(0.4) {
		// the grammar's other line forms, in a varied order
		lines := []string{"task_group: " + g.pick(projectWords) + "-rollout", "task: wire-" + g.pick(words),
			"description: " + g.pick(projectWords) + " " + g.sentence(3, 7), "keywords: " + g.pick(projectWords) + ", `" + g.pick(words) + "`, Helix",
			"### Task 2: " + g.phrase(), "## Task 3", "# " + g.pick(projectWords) + " notes", "## reusable knowledge", "- " + g.sentence(4, 8),
			"## keywords", "- " + g.pick(projectWords) + ", " + g.pick(words), "preference signals:", "- " + g.pick([]string{
				"Wait for review before merging", "use the exact path C:\\repo when on Windows", "the user gave up on full rewrite of the iOS app",
				"prefer commit + push before switching to the mac for xcode", "Future: default to small PRs.", "for the ledger: prefer: idempotent writes; always"}),
			"rollout context:", "- ignored after a reset", "references:", "## Other heading", "- " + g.sentence(2, 4)}
		g.r.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
		g.write(".codex/memories/rollout_summaries/notes-"+fmt.Sprint(g.r.Intn(9))+".md", strings.Join(lines, "\n")+"\n")
	}
	if g.chance(0.3) {
		g.write(".codex/memories/rollout_summaries/2026-11-0"+fmt.Sprint(1+g.r.Intn(9))+".md",
			fmt.Sprintf("## Task: %s\nreusable knowledge:\n- %s\n### preference signals\n- %s -> %s\n", g.phrase(), g.sentence(4, 9), g.sentence(3, 6), g.sentence(3, 6)))
	}
	if g.chance(0.2) {
		g.write("codex-brain/notes.md", fmt.Sprintf("# %s\n- %s\n", g.pick(projectWords), g.sentence(3, 8)))
	}
	g.write(".codex/config.toml", "model = \"gpt-5\"\n")
}

// ---- cursor ----

func (g *gen) cursor() {
	root := ".config/Cursor/"
	ws := 1 + g.r.Intn(3)
	for w := 0; w < ws; w++ {
		hash := fmt.Sprintf("%012x", g.r.Int63n(1<<48))
		stmts := []string{"CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)"}
		for i, n := 0, g.r.Intn(6); i < n; i++ {
			// No Windows cwd: its base name is split on "\\" here, on the
			// host's rules there (docs/exporters.md, cursor).
			cwd := "/home/dev/repos/" + g.name()
			rec := map[string]any{}
			switch g.r.Intn(3) {
			case 0:
				rec["workspacePath"] = cwd
			case 1:
				rec["workspace"] = map[string]any{"path": cwd}
			default:
				rec["cwd"] = cwd
			}
			t := g.day()
			switch g.r.Intn(7) {
			case 0:
				rec["createdAt"] = t.UnixMilli()
			case 1:
				rec["timestamp"] = t.Unix()
			case 2:
				rec["updatedAt"] = g.isoStamp(t)
			case 3:
				rec["lastUpdatedAt"] = t.Format("2006-01-02")
			case 4:
				rec["time"] = float64(t.UnixMilli()) + 0.5
			case 5:
				// (not a millisecond count as text: Python 3.11 reads
				// "1795072420854" as an ISO date of 1795, README.md)
				rec["createdAt"] = t.Format("20060102")
				rec["updatedAt"] = t.Unix()
			default:
				rec["createdAt"] = t.In(time.FixedZone("", 9*3600)).Format("2006-01-02T15:04:05+09:00")
			}
			switch {
			case g.chance(0.7):
				rec["title"] = g.phrase()
			case g.chance(0.3):
				rec["title"] = "   "
				rec["prompt"] = g.phrase()
			}
			var msgs []any
			for j, m := 0, g.r.Intn(3); j < m; j++ {
				m := map[string]any{"role": "user", "files": []any{"src/" + g.pick(words) + ".ts"}}
				if g.chance(0.5) {
					m["content"] = g.phrase()
				} else {
					m["text"] = g.phrase()
					m["references"] = []any{map[string]any{"relativePath": "lib/" + g.pick(words) + ".ts"}}
				}
				msgs = append(msgs, m)
			}
			if msgs != nil {
				rec["messages"] = msgs
			}
			if g.chance(0.5) {
				rec["filesTouched"] = []any{"api/refunds.ts", map[string]any{"uri": "file:///home/dev/api/db.ts"}}
			}
			if g.chance(0.2) {
				rec["unknownField"] = map[string]any{"x": 1}
			}
			key := g.pick([]string{"composer.", "aiChat.", "workbench.chat.", "cursorChat."}) + fmt.Sprint(i)
			j, _ := json.Marshal(rec)
			stmts = append(stmts, fmt.Sprintf("INSERT INTO ItemTable VALUES (%s, %s)", q(key), q(string(j))))
		}
		stmts = append(stmts, "INSERT INTO ItemTable VALUES ('workbench.editor.state', '{\"open\":3}')")
		if g.chance(0.2) {
			stmts = append(stmts, "INSERT INTO ItemTable VALUES ('composer.broken', 'not json')")
		}
		g.db(root+"User/workspaceStorage/"+hash+"/state.vscdb", stmts...)
		g.write(root+"User/workspaceStorage/"+hash+"/workspace.json", `{"folder":"file:///home/dev/repos/x"}`)
	}
	if g.chance(0.6) {
		var entries []any
		for i, n := 0, g.r.Intn(5); i < n; i++ {
			e := map[string]any{"topic_key": strings.ToLower(g.pick(words)) + fmt.Sprint(i)}
			if g.chance(0.15) {
				e["topic_key"] = strings.ToUpper(g.pick(words)) + "0" // may repeat another's key
			}
			switch {
			case g.chance(0.6):
				e["topic_name"] = g.phrase()
			case g.chance(0.3):
				e["topic_name"] = g.pick(projectWords) // a project's name
			}
			if g.chance(0.6) {
				e["triggers"] = []any{g.pick(words), g.pick(words)}
			} else if g.chance(0.3) {
				e["aliases"] = []any{g.pick(words)}
			}
			if g.chance(0.8) {
				e["summary"] = g.sentence(4, 12)
			}
			if g.chance(0.5) {
				e["tags"] = []any{g.pick(words)}
			}
			e["access_level"] = g.pick([]string{"team", "public", "private", "workspace"})
			if g.chance(0.6) {
				e["last_updated"] = g.day().Format("2006-01-02")
			}
			entries = append(entries, e)
		}
		j, _ := json.MarshalIndent(map[string]any{"entries": entries, "version": 2}, "", "  ")
		bom := ""
		if g.chance(0.2) {
			bom = "\ufeff"
		}
		g.write(".cursor/memory/short-index.json", bom+string(j))
	}
}

// ---- copilot-cli (schema v4) ----

func (g *gen) copilotCLI() {
	stmts := []string{
		`CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, repository TEXT, host_type TEXT, branch TEXT, summary TEXT, created_at TEXT, updated_at TEXT)`,
		`CREATE TABLE turns (session_id TEXT, turn_index INTEGER, user_message TEXT, assistant_response TEXT, timestamp TEXT)`,
		`CREATE TABLE checkpoints (session_id TEXT, checkpoint_number INTEGER, title TEXT, overview TEXT, history TEXT, work_done TEXT, technical_details TEXT, important_files TEXT, next_steps TEXT, created_at TEXT)`,
		`CREATE TABLE session_files (session_id TEXT, file_path TEXT, tool_name TEXT, turn_index INTEGER, first_seen_at TEXT)`,
		`CREATE TABLE session_refs (session_id TEXT, ref_type TEXT, ref_value TEXT, turn_index INTEGER, created_at TEXT)`,
		`CREATE TABLE dynamic_context_items (repository TEXT, branch TEXT, src TEXT, name TEXT, description TEXT, content TEXT, read_count INTEGER, count INTEGER)`,
	}
	// One spelling per store, as one CLI version writes them (texts of
	// several spellings sort by instant here, as text there: docs).
	createdForm := g.pick([]string{"2006-01-02T15:04:05.000Z", "2006-01-02 15:04:05", "2006-01-02T15:04:05.000000+00:00"})
	for i, n := 0, g.r.Intn(10); i < n; i++ {
		id := fmt.Sprintf("%08x-%04x", g.r.Uint32(), i)
		t := g.day()
		repo := "NULL"
		if g.chance(0.8) {
			repo = q("dev/" + g.name())
		}
		created := q(t.Format(createdForm))
		summary := "NULL"
		switch {
		case g.chance(0.8):
			summary = q(g.phrase())
		case g.chance(0.3):
			summary = q("  \n ")
		}
		stmts = append(stmts, fmt.Sprintf("INSERT INTO sessions VALUES (%s, %s, %s, 'cli', 'main', %s, %s, %s)",
			q(id), q("/home/dev/repos/"+g.name()), repo, summary, created, q(t.Add(time.Hour).Format("2006-01-02T15:04:05.000Z"))))
		for j, m := 0, g.r.Intn(4); j < m; j++ {
			stmts = append(stmts, fmt.Sprintf("INSERT INTO turns VALUES (%s, %d, 'x', 'y', NULL)", q(id), j))
		}
		for j, m := 0, g.r.Intn(5); j < m; j++ {
			title := "NULL"
			if g.chance(0.8) {
				title = q(g.phrase())
			}
			stmts = append(stmts, fmt.Sprintf("INSERT INTO checkpoints (session_id, checkpoint_number, title) VALUES (%s, %d, %s)", q(id), m-j, title))
		}
		files := g.r.Intn(5)
		if g.chance(0.1) {
			files = 25
		}
		for j := 0; j < files; j++ {
			stmts = append(stmts, fmt.Sprintf("INSERT INTO session_files VALUES (%s, %s, 'edit', %d, NULL)", q(id), q(fmt.Sprintf("src/%s%d.go", g.pick(words), j)), j))
		}
		for j, m := 0, g.r.Intn(5); j < m; j++ {
			stmts = append(stmts, fmt.Sprintf("INSERT INTO session_refs VALUES (%s, %s, %s, %d, NULL)", q(id), q(g.pick([]string{"commit", "pr", "issue"})), q(fmt.Sprintf("%07x", g.r.Uint32())), j))
		}
	}
	for i, n := 0, g.r.Intn(5); i < n; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO dynamic_context_items VALUES ('dev/x', 'main', %s, %s, %s, %s, %d, %d)",
			q(g.pick([]string{"instructions", "skill", "personal", "agents-md", ""})), q(g.pick([]string{g.pick(words) + "-" + fmt.Sprint(i), "dev/" + g.pick(projectWords), ""})), q(g.sentence(3, 8)), q(g.sentence(3, 8)), g.r.Intn(9), g.r.Intn(5)))
	}
	g.db(".copilot/session-store.db", stmts...)
}

// ---- copilot-vscode ----

func (g *gen) copilotVSCode() {
	base := ".config/Code/User/workspaceStorage/"
	for w, ws := 0, 1+g.r.Intn(3); w < ws; w++ {
		dir := base + fmt.Sprintf("%010x", g.r.Int63n(1<<40)) + "/GitHub.copilot-chat/"
		for i, n := 0, g.r.Intn(4); i < n; i++ {
			t := g.day()
			start := map[string]any{"sessionId": fmt.Sprintf("%08x", g.r.Uint32()), "producer": g.pick([]string{"copilot-agent", "copilot-ask"}),
				"copilotVersion": "0.33.2", "vscodeVersion": "1.106.0", "startTime": g.isoStamp(t)}
			recs := []any{map[string]any{"type": "session.start", "data": start}}
			if g.chance(0.1) {
				recs = append(recs, map[string]any{"type": "user.message", "data": nil}, "{not json",
					map[string]any{"type": "tool.call", "data": map[string]any{"name": "read"}})
			}
			for j, m := 0, g.r.Intn(4); j < m; j++ {
				msg := g.phrase()
				switch {
				case g.chance(0.3):
					msg = g.pick([]string{"/fix ", "/explain ", "/tests ", "/fix", "  /new ", "/Fix\t"}) + msg
				case g.chance(0.1):
					msg = g.sentence(40, 60)
				case g.chance(0.1):
					msg = "   "
				}
				recs = append(recs, map[string]any{"type": "user.message", "data": map[string]any{"content": msg, "attachments": []any{}}},
					map[string]any{"type": "assistant.turn_end", "data": map[string]any{"turnId": fmt.Sprint(j)}})
			}
			g.jsonl(dir+"transcripts/"+fmt.Sprintf("%08x-%04d", g.r.Uint32(), i)+".jsonl", recs)
		}
		for i, n := 0, g.r.Intn(3); i < n; i++ {
			var b strings.Builder
			fmt.Fprintf(&b, "# Notes\n\n")
			for j, m := 0, g.r.Intn(5); j < m; j++ {
				fmt.Fprintf(&b, "- %s\n", g.sentence(3, 9))
			}
			g.write(dir+"memory-tool/memories/"+g.pick([]string{"repo/", ""})+fmt.Sprintf("%s-%d-%d.md", g.pick(words), w, i), b.String())
		}
	}
}

// ---- claude-desktop ----

func (g *gen) claudeDesktop() {
	for _, store := range []string{"claude-code-sessions", "local-agent-mode-sessions"} {
		if g.chance(0.3) {
			continue
		}
		dir := ".config/Claude/" + store + "/5b0e6a5e-acc1/9f2d-org1/"
		for i, n := 0, g.r.Intn(5); i < n; i++ {
			t := g.day()
			st := map[string]any{"sessionId": fmt.Sprintf("local_%d", i), "cwd": "/home/dev/repos/" + g.name(),
				"model": g.pick([]string{"claude-opus-4", "claude-sonnet-4-5"}), "permissionMode": "default",
				"enabledMcpTools": map[string]any{"a": true, "b": false, "c": true}}
			switch g.r.Intn(6) {
			case 0:
				st["createdAt"] = t.UnixMilli()
			case 1:
				st["createdAt"] = fmt.Sprint(t.Unix())
			case 2:
				st["createdAt"] = float64(t.UnixMilli()) + 0.25
			case 3:
				st["createdAt"] = true
				st["lastActivityAt"] = t.Unix()
			case 4:
				st["createdAt"] = fmt.Sprint(t.UnixMilli())
			default:
				st["lastActivityAt"] = t.UnixMilli()
			}
			switch {
			case g.chance(0.7):
				st["title"] = g.phrase()
			case g.chance(0.5):
				st["title"] = g.pick([]string{"", "   ", "\n"})
			}
			if g.chance(0.2) {
				delete(st, "cwd")
			}
			if g.chance(0.2) {
				st["cwd"] = "/home/dev/Bourdon-notes/ShipStable"
			}
			if store == "claude-code-sessions" {
				st["effort"] = "high"
			} else {
				st["userSelectedFolders"] = []any{"/home/dev/" + g.name()}
			}
			j, _ := json.Marshal(st)
			g.write(dir+fmt.Sprintf("local_%d.json", i), string(j))
			if store == "local-agent-mode-sessions" && g.chance(0.7) {
				recs := []any{map[string]any{"type": "system", "subtype": "init", "tools": []any{"Bash", "Read", "Edit"},
					"mcp_servers": []any{map[string]any{"name": "x"}}, "skills": []any{"pdf"}, "claude_code_version": "2.0.1"}}
				for k, m := 0, g.r.Intn(3); k < m; k++ {
					recs = append(recs, map[string]any{"type": "user", "message": "never read"},
						map[string]any{"type": "result", "total_cost_usd": g.r.Float64() * 3, "num_turns": 1 + g.r.Intn(9),
							"is_error": g.chance(0.2), "duration_ms": g.r.Intn(90000), "stop_reason": "end_turn"})
				}
				if g.chance(0.2) {
					recs = append(recs, "{broken")
				}
				g.jsonl(dir+fmt.Sprintf("local_%d/audit.jsonl", i), recs)
			}
		}
	}
}

// ---- copilot and cascade convention files ----

func (g *gen) convention(rel string) {
	var b strings.Builder
	b.WriteString("---\nentities:\n")
	for i, n := 0, g.r.Intn(5); i < n; i++ {
		fmt.Fprintf(&b, "  - name: %s\n    type: %s\n    summary: %s\n    tags: [%s, %s]\n", g.yamlScalar(g.name()), g.pick([]string{"project", "tool", "topic", "3", "yes"}),
			yq(g.sentence(3, 10)), g.pick(words), g.pick([]string{"x", "1", "true", "2026-11-01", "personal"}))
		if g.chance(0.5) {
			d := g.day()
			fmt.Fprintf(&b, "    last_touched: %s\n", g.pick([]string{d.Format("2006-01-02"), yq(d.Format("2006-01-02")), d.Format("2006-01-02T15:04:05Z"), yq(g.isoStamp(d))}))
		}
		if g.chance(0.2) {
			fmt.Fprintf(&b, "    valid_from: %s\n    extra_field: {a: 1}\n", g.day().Format("2006-01-02"))
		}
		if g.chance(0.3) {
			fmt.Fprintf(&b, "    aliases: [%s]\n", g.pick(words))
		}
	}
	b.WriteString("sessions:\n")
	for i, n := 0, g.r.Intn(4); i < n; i++ {
		d := g.day()
		date := g.pick([]string{d.Format("2006-01-02"), d.Format("2006-01-02 15:04:05Z"), d.Format("2006-01-02T15:04:05+02:00"),
			yq(g.isoStamp(d)), yq(d.Format("2006-01-02")), d.Format("2006-01-02 15:04:05")})
		fmt.Fprintf(&b, "  - date: %s\n    cwd: /home/dev/repos/%s\n    key_actions: [%s, %s]\n    project_focus: [%s]\n", date, g.pick(projectWords), yq(g.phrase()),
			g.pick([]string{"42", "true", yq("second"), "2026-11-02"}), yq(g.name()))
		if g.chance(0.3) {
			fmt.Fprintf(&b, "    files_touched: [a.go, %s]\n", g.pick([]string{"b.go", "7", "null"}))
		}
	}
	b.WriteString("---\nFree text for the assistant.\n")
	g.write(rel, b.String())
}

// ---- automations ----

func (g *gen) automations(dir string, copilot bool) {
	for i, n := 0, g.r.Intn(4); i < n; i++ {
		id := fmt.Sprintf("%s-%d", g.pick([]string{"nightly-triage", "billing-check", "release-gate", "docs-sync"}), i)
		var t strings.Builder
		if g.chance(0.8) {
			fmt.Fprintf(&t, "id = %s\n", yq(id))
		}
		switch {
		case g.chance(0.7):
			fmt.Fprintf(&t, "name = %s\n", yq(g.phrase()))
		case g.chance(0.3):
			t.WriteString("name = \"  \"\n")
		}
		switch {
		case g.chance(0.1):
			t.WriteString("status = 3\n")
		case g.chance(0.1):
		default:
			fmt.Fprintf(&t, "status = %s\n", yq(g.pick([]string{"ACTIVE", "paused", "Active", " active "})))
		}
		if g.chance(0.1) {
			t.WriteString("[extra]\nnote = \"unknown table\"\n")
		}
		if copilot {
			fmt.Fprintf(&t, "trigger = \"schedule\"\nkind = \"workflow\"\nrepos = [%s]\n", yq("dev/"+g.name()))
		} else {
			fmt.Fprintf(&t, "rrule = \"FREQ=DAILY;BYHOUR=2\"\nkind = \"cron\"\ncwds = [%s]\n", yq("/home/dev/repos/"+g.name()))
		}
		g.write(dir+"/"+id+"/automation.toml", t.String())
		var m strings.Builder
		for j, k := 0, g.r.Intn(4); j < k; j++ {
			fmt.Fprintf(&m, "%s%s\n", g.day().Format("2006-01-02"), g.pick([]string{"", " run: " + g.phrase(), " — " + g.phrase(), ": " + g.phrase(),
				" - " + g.phrase(), "T10:00:00Z " + g.phrase(), "x not a date", " first run"}))
			for a, b := 0, g.r.Intn(4); a < b; a++ {
				fmt.Fprintf(&m, "%s%s\n", g.pick([]string{"- ", "", "  - ", "* "}), g.pick([]string{g.sentence(3, 8), "first run", "follow-up", "run: " + g.phrase(), "Runtime note", "runtime 3s", "Manual dashboard refresh needed for Bourdon", "CI failure on the release workflow run", "billing drift on Prun invoices"}))
			}
		}
		g.write(dir+"/"+id+"/memory.md", m.String())
	}
}

// generate writes one HOME.
func generate(seed int64, home string) error {
	g := &gen{r: rand.New(rand.NewSource(seed)), home: home}
	g.claudeCode()
	g.codex()
	g.cursor()
	g.copilotCLI()
	g.copilotVSCode()
	g.claudeDesktop()
	g.convention(".copilot-bourdon/memory.md")
	g.convention(".cascade-bourdon/memory.md")
	g.automations(".codex/automations", false)
	g.automations(".cursor/automations", false)
	g.automations(".claude/automations", false)
	g.automations(".copilot-bourdon/automations", true)
	if len(g.errs) > 0 {
		return g.errs[0]
	}
	var paths []string
	filepath.Walk(home, func(p string, _ os.FileInfo, err error) error {
		if err == nil {
			paths = append(paths, p)
		}
		return nil
	})
	for i := len(paths) - 1; i >= 0; i-- {
		os.Chtimes(paths[i], fixedMtime, fixedMtime)
	}
	return nil
}
