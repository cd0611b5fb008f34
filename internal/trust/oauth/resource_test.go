package oauth

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

func TestResource(t *testing.T) {
	r := &Resource{URL: "https://mcp.example.com/mcp", AuthorizationServers: []string{"https://mcp.example.com"}}
	if got := r.MetadataURL(); got != "https://mcp.example.com/.well-known/oauth-protected-resource/mcp" {
		t.Fatalf("MetadataURL = %q", got)
	}
	want := `Bearer realm="bourdon", error="insufficient_scope", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="read write admin"`
	if got := r.Challenge("insufficient_scope", []string{"read", "write", "admin"}); got != want {
		t.Fatalf("Challenge = %s", got)
	}
	cs, err := oauthex.ParseWWWAuthenticate([]string{r.Challenge("", DefaultScopes)})
	if err != nil || cs[0].Params["scope"] != "read write" || cs[0].Params["resource_metadata"] != r.MetadataURL() {
		t.Fatalf("the SDK reads the challenge as %+v, %v", cs, err)
	}
	mux := http.NewServeMux()
	r.Mount(mux)
	for _, path := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		var md oauthex.ProtectedResourceMetadata
		if err := json.Unmarshal(rec.Body.Bytes(), &md); err != nil || md.Resource != r.URL || !slices.Equal(md.ScopesSupported, []string{"read", "write", "admin"}) {
			t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
	}
}

func TestNeededScopes(t *testing.T) {
	cases := map[string][]string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find_entity"}}`:          {"read"},
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"commit_to_federation"}}`: {"read", "write"},
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"reload_library"}}`:       {"read", "admin"},
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"not_a_tool"}}`:           {"read", "admin"},
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"x"}}`:                 {"read"},
		`not json`: {"read"},
	}
	for body, want := range cases {
		if got := NeededScopes([]byte(body)); !slices.Equal(got, want) {
			t.Errorf("NeededScopes(%s) = %v, want %v", body, got, want)
		}
	}
	if got := Missing([]string{"read"}, []string{"read", "write"}); !slices.Equal(got, []string{"write"}) {
		t.Errorf("Missing = %v", got)
	}
}
