package mcpserver_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/mcptest"
	"github.com/getbourdon/bourdon-go/internal/yaml11"
)

// everything calls every read tool and reads every resource at the given
// access level and returns all the text that left the server.
func everything(t *testing.T, cs *mcp.ClientSession, level string, names []string) string {
	t.Helper()
	var out strings.Builder
	call := func(tool string, args map[string]any) {
		got, _ := mcptest.CallJSON(t, cs, tool, args)
		b, _ := json.Marshal(got)
		out.Write(b)
		out.WriteByte('\n')
	}
	for _, name := range names {
		call("find_entity", map[string]any{"name": name, "access_level": level})
		call("query_agent_memory", map[string]any{"agent": "leaky", "topic": name, "access_level": level})
		call("get_cross_agent_summary", map[string]any{"project": name, "access_level": level})
		call("prepare_recognition_context", map[string]any{"prompt": "tell me about " + name, "access_level": level})
	}
	call("list_recent_work", map[string]any{"since": "2000-01-01", "access_level": level})
	call("list_notes", map[string]any{"since": "2000-01-01", "access_level": level})
	call("list_workstreams", map[string]any{"access_level": level})
	call("list_agents", nil)
	call("export_agents", nil)
	call("list_memory_versions", map[string]any{"agent_id": "leaky"})
	for _, uri := range []string{"agent-library://agents", "agent-library://agents/leaky/memory"} {
		r, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatal(err)
		}
		out.WriteString(r.Contents[0].Text)
	}
	return out.String()
}

func serveManifest(t *testing.T, doc *yaml11.Map) *mcp.ClientSession {
	t.Helper()
	lib := t.TempDir()
	data, err := yaml11.Encode(doc)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(lib, "agents"), 0o755)
	if err := os.WriteFile(filepath.Join(lib, "agents", "leaky.l5.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{})
	return mcptest.Connect(t, srv.Server, "in-memory")
}

// TestNoSecretLeavesAnySurface puts every credential of the redaction
// battery in every kind of field of a manifest, and checks that no tool or
// resource returns any of them, at any access level.
func TestNoSecretLeavesAnySurface(t *testing.T) {
	var battery struct {
		Secrets []struct {
			Fragments []string `json:"fragments"`
		} `json:"secrets"`
	}
	readJSONFile(t, filepath.Join(fixtures, "redaction_battery.json"), &battery)
	var secrets []string
	var entities, sessions []any
	for i, s := range battery.Secrets {
		secret := strings.Join(s.Fragments, "")
		secrets = append(secrets, secret)
		name := "Leak" + strconv.Itoa(i)
		entities = append(entities, row("name", name, "summary", secret, "tags", []any{secret}, "aliases", []any{secret}))
		sessions = append(sessions, row("date", "2026-06-20", "cwd", "/r"+strconv.Itoa(i), "project_focus", []any{name}, "key_actions", []any{secret}, "files_touched", []any{secret}))
	}
	doc := row("spec_version", "0.1",
		"agent", row("id", "leaky", "type", "other", "role_narrative", secrets[0], "instance", secrets[1]),
		"last_updated", "2026-06-29T12:00:00+00:00",
		"capabilities", []any{secrets[2]},
		"known_entities", entities, "recent_sessions", sessions,
		"known_workstreams", []any{row("name", "WS", "status", "active", "summary", secrets[3])},
		"notes", []any{row("date", "2026-06-20", "text", secrets[4])})
	cs := serveManifest(t, doc)
	var names []string
	for i := range battery.Secrets {
		names = append(names, "Leak"+strconv.Itoa(i))
	}
	for _, level := range []string{"public", "private"} {
		out := everything(t, cs, level, names)
		for _, secret := range secrets {
			if strings.Contains(out, secret) || strings.Contains(out, jsonEscaped(secret)) {
				t.Errorf("at %s, a credential left the server: %q", level, secret)
			}
		}
	}
}

func jsonEscaped(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// TestLeakCases serves each manifest of the reference's leak-audit cases:
// the credential it flags never leaves the server, and a row it flags for
// visibility (private, or tagged with a private family or a private tag of
// the manifest's policy) is not served at team level.
func TestLeakCases(t *testing.T) {
	var fx struct {
		Cases []struct {
			Name     string `json:"name"`
			Manifest any    `json:"manifest"`
			Expected []struct {
				Kind     string `json:"kind"`
				Location string `json:"location"`
			} `json:"expected_findings"`
		} `json:"cases"`
	}
	readJSONFile(t, filepath.Join(fixtures, "leak_cases.json"), &fx)
	for _, c := range fx.Cases {
		m, ok := c.Manifest.(map[string]any)
		if !ok {
			continue // garbage manifests: nothing to serve
		}
		t.Run(c.Name, func(t *testing.T) {
			raw, _ := json.Marshal(m)
			docAny, err := yaml11.Decode(raw)
			if err != nil {
				t.Fatal(err)
			}
			doc := docAny.(*yaml11.Map)
			doc.Set("spec_version", "0.1")
			agent, _ := doc.Value("agent").(*yaml11.Map)
			if agent == nil {
				agent = row("type", "other")
				doc.Set("agent", agent)
			}
			agent.Set("id", "leaky")
			doc.Set("last_updated", "2026-06-29T12:00:00+00:00")
			cs := serveManifest(t, doc)
			names := []string{"API", "SecretProj", "Payroll", "Vault", "Bourdon"}
			team := everything(t, cs, "team", names)
			for _, f := range c.Expected {
				v := lookup(m, f.Location)
				switch f.Kind {
				case "credential":
					s, _ := v.(string)
					if s == "" || strings.Contains(team+everything(t, cs, "private", names), s) {
						t.Errorf("credential at %s left the server: %q", f.Location, s)
					}
				case "visibility":
					r, _ := v.(map[string]any)
					if name, ok := r["name"].(string); ok {
						got, _ := mcptest.CallJSON(t, cs, "find_entity", map[string]any{"name": name, "access_level": "team"})
						if n := len(got.(map[string]any)["matches"].([]any)); n != 0 {
							t.Errorf("entity at %s (%q) is served at team level", f.Location, name)
						}
					} else {
						got, _ := mcptest.CallJSON(t, cs, "list_recent_work", map[string]any{"since": "2000-01-01", "access_level": "team"})
						if n := len(got.(map[string]any)["sessions"].([]any)); n != 0 {
							t.Errorf("session at %s is served at team level", f.Location)
						}
					}
				}
			}
		})
	}
}

var locationPart = regexp.MustCompile(`([A-Za-z_]+)|\[(\d+)\]`)

// lookup follows a location such as known_entities[0].summary.
func lookup(v any, location string) any {
	for _, m := range locationPart.FindAllStringSubmatch(location, -1) {
		switch {
		case m[1] != "":
			obj, _ := v.(map[string]any)
			v = obj[m[1]]
		default:
			list, _ := v.([]any)
			i, _ := strconv.Atoi(m[2])
			if i >= len(list) {
				return nil
			}
			v = list[i]
		}
	}
	return v
}

func row(kv ...any) *yaml11.Map {
	m := yaml11.NewMap(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}
