package peer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "peers.yaml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadFileReadsTheReferenceFormat(t *testing.T) {
	peers, err := LoadFile(writeConfig(t, `# the reference's example, plus a loopback peer
peers:
  - name: pc
    url: https://bourdon-pc.example:7500
    token_env: BOURDON_PEER_TOKEN_PC
  - url: http://127.0.0.1:7501/mcp/
  - name: laptop
    url: https://laptop.example/mcp
    token_env: ""
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Peer{
		{Name: "pc", URL: "https://bourdon-pc.example:7500/mcp", TokenEnv: "BOURDON_PEER_TOKEN_PC"},
		{Name: "http://127.0.0.1:7501/mcp/", URL: "http://127.0.0.1:7501/mcp", TokenEnv: DefaultTokenEnv},
		{Name: "laptop", URL: "https://laptop.example/mcp", TokenEnv: DefaultTokenEnv},
	}
	if len(peers) != len(want) {
		t.Fatalf("got %+v", peers)
	}
	for i := range want {
		if peers[i] != want[i] {
			t.Errorf("peer %d = %+v, want %+v", i, peers[i], want[i])
		}
	}
	if peers, err := LoadFile(writeConfig(t, "peers: []\n")); err != nil || len(peers) != 0 {
		t.Fatalf("an empty list is valid: %v %v", peers, err)
	}
}

func TestLoadFileFailsClosed(t *testing.T) {
	for name, tc := range map[string]struct{ body, want string }{
		"empty":           {"", "empty"},
		"not yaml":        {"peers: [\n", "not valid YAML"},
		"not a mapping":   {"- url: https://a.example\n", "top level must be a mapping"},
		"peers not list":  {"peers: https://a.example\n", `"peers" must be a list`},
		"entry not map":   {"peers:\n  - https://a.example\n", "must be a mapping"},
		"unknown key":     {"peers:\n  - url: https://a.example\n    token-env: X\n", `unknown key "token-env" (line 3)`},
		"top unknown key": {"peer:\n  - url: https://a.example\n", `unknown key "peer"`},
		"no url":          {"peers:\n  - name: a\n", "peer 1 (line 2): url is missing"},
		"plain http":      {"peers:\n  - url: http://a.example:7500\n", "unencrypted"},
		"credentials":     {"peers:\n  - url: https://u:secret@a.example\n", "credentials in the URL are refused"},
		"query":           {"peers:\n  - url: https://a.example/mcp?token=x\n", "remove the ?query"},
		"fragment":        {"peers:\n  - url: https://a.example/mcp#x\n", "remove the #fragment"},
		"token namespace": {"peers:\n  - url: https://a.example\n    token_env: AWS_SECRET_ACCESS_KEY\n", "must be named BOURDON_PEER_*"},
		"duplicate name":  {"peers:\n  - {name: a, url: https://a.example}\n  - {name: a, url: https://b.example}\n", `name "a" is already used by peer 1`},
	} {
		_, err := LoadFile(writeConfig(t, tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: the error repeats the password: %v", name, err)
		}
	}
	_, err := LoadFile(filepath.Join(t.TempDir(), "missing.yaml"))
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("missing file: %v", err)
	}
	big := writeConfig(t, "peers: []\n"+strings.Repeat("#", maxConfigBytes))
	if _, err := LoadFile(big); err == nil || !strings.Contains(err.Error(), "over") {
		t.Fatalf("huge file: %v", err)
	}
}

func TestInlinePeer(t *testing.T) {
	p, err := Inline("http://localhost:7502")
	if err != nil || p.Name != "http://localhost:7502" || p.URL != "http://localhost:7502/mcp" || p.TokenEnv != DefaultTokenEnv {
		t.Fatalf("%+v %v", p, err)
	}
	if _, err := Inline("http://10.0.0.5:7500"); err == nil {
		t.Fatal("plain http to another host accepted")
	}
}
