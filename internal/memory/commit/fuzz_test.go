package commit

import (
	"context"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
)

// FuzzCommitRequest sends random requests through Commit (and Stage) into
// a library holding one manifest. Whatever comes in, nothing panics; a
// request that is refused changes nothing on disk; one that is accepted
// leaves manifests that parse, and the state the provenance records is
// the state on disk (so encoding lost nothing the digest sees).
//
// body is a JSON object with any of entities, sessions, workstreams,
// notes, instance, role_narrative and expected_digest; anything else is
// used as the text of one entity's name and summary.
func FuzzCommitRequest(f *testing.F) {
	for _, s := range []struct{ id, typ, mode, body string }{
		{"a", "", "", `{"entities":[{"name":"Base","tags":"y","summary":null}],"sessions":[{"date":"2026-06-01","key_actions":"k"}]}`},
		{"a", "tutor", "replace", `{"entities":[{"name":"R","aliases":["r",1,null,{"x":[]}]}],"notes":[{"date":"","text":"t"}]}`},
		{"new", "other", "merge", `{"workstreams":[{"name":"W","status":"paused","related_entities":"Base"}],"instance":"box","role_narrative":""}`},
		{"new", "", "", `{"entities":[{"name":"X"}]}`},
		{"a", "", "", `{"entities":[{"name":"yes","summary":"2026-06-01","type":"0x1F","tags":["~","null","1e3",".nan"]}]}`},
		{"a", "", "", `{"entities":[{"name":"n","summary":1.5e300,"last_touched":12345678901234567890}]}`},
		{"a", "", "", `{"expected_digest":"00000000","entities":[{"name":"stale"}]}`},
		{"a", "", "", `{"sessions":[{"date":"2026-02-30"}]}`},
		{"a", "", "upsert", `{}`},
		{"A B", "", "", `{}`},
		{"a", "", "", "multi\nline: text # with: colons\n- and dashes"},
		{"a", "", "", "\x00\x01\u2028 tab\t \"quotes\" 'single' \\back"},
		{"a", "", "", "ünïcödé 🙂 \xff\xfe"},
	} {
		f.Add(s.id, s.typ, s.mode, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, agentID, agentType, mode string, body []byte) {
		root := t.TempDir()
		w := New(root)
		now := time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC)
		w.Now = func() time.Time { now = now.Add(time.Second); return now }
		ctx := context.Background()
		if _, err := w.Commit(ctx, Request{AgentID: "a", AgentType: str("other"),
			Entities: []any{map[string]any{"name": "Base", "tags": []any{"x"}}},
			Sessions: []any{map[string]any{"date": "2026-06-01"}},
		}); err != nil {
			t.Fatal(err)
		}
		req := fuzzRequest(agentID, agentType, mode, body)

		before := tree(t, root)
		res, err := w.Commit(ctx, req)
		after := tree(t, root)
		if err != nil {
			if !maps.Equal(before, after) {
				t.Fatalf("refused (%v) but the library changed", err)
			}
		} else {
			checkWritten(t, w, req.AgentID, res.NoOp)
		}

		before = after
		_, err = w.Stage(ctx, req.AgentID, req)
		after = tree(t, root)
		if err != nil {
			if !maps.Equal(before, after) {
				t.Fatalf("staging refused (%v) but the library changed", err)
			}
			return
		}
		m, _, err := readManifest(w.stagedPath(req.AgentID, req.AgentID))
		if err != nil || m == nil {
			t.Fatalf("the staged file does not parse: %v", err)
		}
	})
}

func fuzzRequest(agentID, agentType, mode string, body []byte) Request {
	req := Request{AgentID: agentID, Mode: mode}
	if agentType != "" {
		req.AgentType = &agentType
	}
	var doc map[string]any
	if json.Unmarshal(body, &doc) != nil {
		req.Entities = []any{map[string]any{"name": string(body), "summary": string(body)}}
		return req
	}
	rows := func(key string) []any {
		switch v := doc[key].(type) {
		case nil:
			return nil
		case []any:
			return v
		default:
			return []any{v}
		}
	}
	req.Entities, req.Sessions, req.Workstreams, req.Notes = rows("entities"), rows("sessions"), rows("workstreams"), rows("notes")
	text := func(key string) *string {
		if s, ok := doc[key].(string); ok {
			return &s
		}
		return nil
	}
	req.Instance, req.RoleNarrative, req.ExpectedDigest = text("instance"), text("role_narrative"), text("expected_digest")
	return req
}

// checkWritten checks an accepted commit: the manifest parses, reads as a
// manifest, and is the state the last provenance record names.
func checkWritten(t *testing.T, w *Writer, id string, noOp bool) {
	t.Helper()
	data, err := os.ReadFile(w.ManifestPath(id))
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := readManifest(w.ManifestPath(id))
	if err != nil || m == nil {
		t.Fatalf("the written manifest does not parse: %v\n%s", err, data)
	}
	if _, ok := l5.FromValue(m, id); !ok {
		t.Fatalf("the written manifest is not a manifest:\n%s", data)
	}
	changes, err := w.Changes(id)
	if err != nil || len(changes) == 0 {
		t.Fatalf("no provenance: %v", err)
	}
	if got, want := Digest(m), changes[len(changes)-1].Digest; got != want && !noOp {
		t.Fatalf("the manifest read back has digest %s, the commit recorded %s:\n%s", got[:8], want[:8], data)
	}
}

// tree returns every file under root (but the lock files, which a refused
// request may create) with its content.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == ".locks" {
				return filepath.SkipDir
			}
			out[rel+"/"] = ""
			return nil
		}
		data, err := os.ReadFile(path)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
