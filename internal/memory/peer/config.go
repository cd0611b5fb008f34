// Package peer federates a query across machines: each machine runs its
// own bourdon server, and a server configured with peers asks them in
// parallel, merges their rows into its own, and tags every peer row with
// where it came from (peer:<peer-name>:<agent>).
//
// Federation is depth-1: a server always sends federation_hop=1, and a
// server that receives it answers from its own store only, so peers that
// list each other never recurse. Every fan-out is bounded: each peer has a
// timeout, the whole fan-out has a deadline, and the payload reports which
// peers answered, how fast, and why the others did not.
package peer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/getbourdon/bourdon-go/internal/platform/endpoint"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// DefaultTokenEnv is the variable holding the bearer token sent to a peer
// whose configuration names none.
const DefaultTokenEnv = "BOURDON_PEER_TOKEN"

// tokenEnvPrefix is the namespace token variables must stay in, so that a
// peers file cannot make the server send an arbitrary variable (a cloud
// credential, say) to a remote host.
const tokenEnvPrefix = "BOURDON_PEER_"

// maxConfigBytes bounds a peers file.
const maxConfigBytes = 1 << 20

// Peer is one configured peer server.
type Peer struct {
	// Name tags the peer's rows (peer:<Name>:<agent>); the configured
	// name, or the URL as given for a --peer.
	Name string
	// URL is the peer's MCP endpoint; "/mcp" is appended when missing.
	URL string
	// TokenEnv names the variable holding the bearer token to send.
	TokenEnv string
}

// DefaultConfigPath is the peers file --federate loads:
// ~/.bourdon/peers.yaml.
func DefaultConfigPath() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the peers file: %w", err)
	}
	return ConfigPath(home), nil
}

// ConfigPath is the peers file under a given home directory:
// home/.bourdon/peers.yaml.
func ConfigPath(home string) string { return filepath.Join(home, ".bourdon", "peers.yaml") }

// LoadFile reads a peers file:
//
//	peers:
//	  - name: pc
//	    url: https://bourdon-pc.example:7500
//	    token_env: BOURDON_PEER_PC
//
// It fails closed: a missing, unreadable or invalid file is an error that
// says what to fix, never an empty list. An empty peers list is valid.
func LoadFile(path string) ([]Peer, error) {
	data, err := readBounded(path)
	if err != nil {
		return nil, err
	}
	peers, err := parseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("peers file %s: %w", path, err)
	}
	return peers, nil
}

func readBounded(path string) ([]byte, error) {
	data, err := fsutil.ReadRegular(path, maxConfigBytes)
	var tl *fsutil.TooLargeError
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("peers file %s does not exist; create it (see docs/peers.md) or drop the option", path)
	case errors.As(err, &tl):
		return nil, fmt.Errorf("peers file %s is over %d bytes", path, maxConfigBytes)
	case err != nil:
		return nil, fmt.Errorf("peers file: %w", err)
	}
	return data, nil
}

type configEntry struct {
	Name     string `yaml:"name"`
	URL      string `yaml:"url"`
	TokenEnv string `yaml:"token_env"`
}

func parseConfig(data []byte) ([]Peer, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not valid YAML: %v", err)
	}
	if len(doc.Content) == 0 {
		return nil, errors.New(`empty; write "peers:" followed by a list of {name, url, token_env}`)
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, errors.New(`the top level must be a mapping with a "peers" list`)
	}
	if err := checkKeys(top, "top level", "peers"); err != nil {
		return nil, err
	}
	list := valueOf(top, "peers")
	if list == nil || (list.Kind != yaml.SequenceNode && list.Tag != "!!null") {
		return nil, errors.New(`"peers" must be a list of {name, url, token_env}`)
	}
	peers := make([]Peer, 0, len(list.Content))
	names := map[string]int{}
	for i, item := range list.Content {
		where := fmt.Sprintf("peer %d (line %d)", i+1, item.Line)
		if err := checkKeys(item, where, "name", "url", "token_env"); err != nil {
			return nil, err
		}
		var e configEntry
		if err := item.Decode(&e); err != nil {
			return nil, fmt.Errorf("%s: name, url and token_env must be strings: %v", where, cleanYAMLError(err))
		}
		p, err := newPeer(e.Name, e.URL, e.TokenEnv)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if prev, dup := names[p.Name]; dup {
			return nil, fmt.Errorf("%s: name %q is already used by peer %d; names tag rows and must be unique", where, p.Name, prev)
		}
		names[p.Name] = i + 1
		peers = append(peers, p)
	}
	return peers, nil
}

// checkKeys refuses keys outside allowed, so a typo ("token-env") is an
// error rather than a silently unauthenticated peer.
func checkKeys(m *yaml.Node, where string, allowed ...string) error {
	if m.Kind != yaml.MappingNode {
		return fmt.Errorf("%s must be a mapping of %s", where, strings.Join(allowed, ", "))
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i].Value
		ok := false
		for _, a := range allowed {
			ok = ok || k == a
		}
		if !ok {
			return fmt.Errorf("%s: unknown key %q (line %d); allowed: %s", where, k, m.Content[i].Line, strings.Join(allowed, ", "))
		}
	}
	return nil
}

func valueOf(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func cleanYAMLError(err error) string {
	return strings.TrimPrefix(err.Error(), "yaml: ")
}

// Inline returns the peer of a --peer URL: named by its URL as given,
// authenticated with DefaultTokenEnv.
func Inline(rawURL string) (Peer, error) {
	return newPeer("", rawURL, "")
}

func newPeer(name, rawURL, tokenEnv string) (Peer, error) {
	if strings.TrimSpace(rawURL) == "" {
		return Peer{}, errors.New("url is missing; give the peer's MCP endpoint, e.g. https://host:7500/mcp")
	}
	u, err := endpoint.CheckURL(rawURL, "peer url")
	if err != nil {
		return Peer{}, err
	}
	u.Path = strings.TrimRight(u.Path, "/")
	if !strings.HasSuffix(u.Path, "/mcp") {
		u.Path += "/mcp"
	}
	name = strings.TrimSpace(name)
	if name == "" {
		name = strings.TrimSpace(rawURL)
	}
	if strings.ContainsAny(name, "\n\r\t") {
		return Peer{}, fmt.Errorf("name %q: use a single line", name)
	}
	tokenEnv = strings.TrimSpace(tokenEnv)
	if tokenEnv == "" {
		tokenEnv = DefaultTokenEnv
	}
	if !strings.HasPrefix(tokenEnv, tokenEnvPrefix) {
		return Peer{}, fmt.Errorf("token_env %q: the variable must be named %s* (e.g. %sPC)", tokenEnv, tokenEnvPrefix, tokenEnvPrefix)
	}
	return Peer{Name: name, URL: u.String(), TokenEnv: tokenEnv}, nil
}
