package codex

import (
	"context"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/export"
)

const syncNative = "`bourdon codex sync-native --from-library --memory-md --write`"

// Health reports whether Codex's stores are there and readable (§3.6):
// blocked without a Codex home; ok when the state database yields a
// thread, or when both session_index.jsonl and sessions/ exist; degraded
// otherwise, and when the state database exists but cannot be read.
func (Exporter) Health(ctx context.Context, env *export.Env) export.Health {
	l := newLayout(env)
	var details []export.Detail
	for _, s := range l.sources() {
		v := s.Path
		if v == "" {
			v = "missing"
		}
		details = append(details, export.Detail{Key: s.Kind, Value: v})
	}
	if l.home == "" {
		return export.Health{
			Status:  export.StatusBlocked,
			Reason:  "~/.codex/ not found -- Codex CLI never used on this machine",
			Details: details,
			Fix: "Install OpenAI Codex (https://github.com/openai/codex) and sign in once. Then " + syncNative +
				" to seed Codex's local recognition surface from your federation library.",
		}
	}
	db := l.path("state_5.sqlite")
	index, sessions := isFile(l.path("session_index.jsonl")), isDir(l.path("sessions"))
	dbErr := ""
	if isFile(db) {
		res, err := readState(ctx, db, 1)
		switch {
		case err != nil:
			dbErr = err.Error()
		case len(res.Threads) > 0:
			return export.Health{Status: export.StatusOK, Details: details}
		}
	}
	if dbErr != "" {
		details = append(details, export.Detail{Key: "state_db_error", Value: dbErr})
		fallback := "session_index.jsonl and the rollouts are read instead"
		if !index && !sessions {
			fallback = "and there is no session_index.jsonl or sessions/ to read instead"
		}
		return export.Health{
			Status:  export.StatusDegraded,
			Reason:  "state_5.sqlite cannot be read; " + fallback,
			Details: details,
			Fix:     "Check that " + db + " is a Codex state database (Codex rebuilds it when it is moved away), then run `bourdon export-all` again.",
		}
	}
	if index && sessions {
		return export.Health{Status: export.StatusOK, Details: details}
	}
	var missing []string
	for _, m := range []struct {
		name string
		ok   bool
	}{{"state_db", isFile(db)}, {"session_index", index}, {"sessions_dir", sessions}} {
		if !m.ok {
			missing = append(missing, m.name)
		}
	}
	return export.Health{
		Status:  export.StatusDegraded,
		Reason:  "Missing Codex sub-sources: " + strings.Join(missing, ", "),
		Details: details,
		Fix: "If Codex was just signed in but has no chat history, this is expected -- run " + syncNative +
			" to seed recognition substrate from your federation library.",
	}
}
