package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/platform/endpoint"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/recall/embed"
	"github.com/getbourdon/bourdon-go/internal/recall/wordnet"
	"github.com/getbourdon/bourdon-go/internal/requests"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// docsFlags select the documentation corpus and the embedder.
type docsFlags struct {
	roots  []string
	config string
	embedderConfig
}

// embedderConfig names an HTTP embedding service; an empty provider means
// the offline embedder learned from the corpus.
type embedderConfig struct {
	Provider string `yaml:"provider"`
	URL      string `yaml:"url"`
	Model    string `yaml:"model"`
	Dim      int    `yaml:"dim"`
	TokenEnv string `yaml:"token_env"`
	// token is the value of TokenEnv, read by docsFlags.resolve.
	token string
}

// docsConfigFile is the file --docs-config reads:
//
//	docs: [path/to/corpus, path/to/overlay]   # relative to the file
//	embedder: {provider: ollama, url: http://127.0.0.1:11434, model: nomic-embed-text, dim: 768}
type docsConfigFile struct {
	Docs     []string        `yaml:"docs"`
	Embedder *embedderConfig `yaml:"embedder"`
}

// embedTokenPrefix is the namespace of the embedder's token variable.
const embedTokenPrefix = "BOURDON_EMBED_"

// readDocsConfig merges the --docs-config file into the flags: its roots
// come first, and flags override its embedder settings.
func (f *docsFlags) readDocsConfig() error {
	if f.config == "" {
		return nil
	}
	data, err := fsutil.ReadRegular(f.config, 1<<20)
	if err != nil {
		return fmt.Errorf("--docs-config: %w", err)
	}
	var cfg docsConfigFile
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("--docs-config %s: %v (keys: docs, embedder{provider, url, model, dim, token_env})", f.config, err)
	}
	base := filepath.Dir(f.config)
	var roots []string
	for _, r := range cfg.Docs {
		if !filepath.IsAbs(r) {
			r = filepath.Join(base, r)
		}
		roots = append(roots, r)
	}
	f.roots = append(roots, f.roots...)
	if e := cfg.Embedder; e != nil {
		if f.Provider == "" {
			f.Provider = e.Provider
		}
		if f.URL == "" {
			f.URL = e.URL
		}
		if f.Model == "" {
			f.Model = e.Model
		}
		if f.Dim == 0 {
			f.Dim = e.Dim
		}
		if f.TokenEnv == "" {
			f.TokenEnv = e.TokenEnv
		}
	}
	return nil
}

// embedder returns the configured HTTP embedder, which sees every text
// redacted; nil for the offline one.
func (e embedderConfig) embedder() (embed.Embedder, error) {
	if e.Provider == "" && e.URL == "" {
		return nil, nil
	}
	if _, err := endpoint.CheckURL(e.URL, "embedder url"); err != nil {
		return nil, err
	}
	if e.Model == "" || e.Dim <= 0 {
		return nil, errors.New("an embedder needs --embedder-model and --embedder-dim (the vector length the model returns)")
	}
	h, err := embed.NewHTTP(embed.HTTPConfig{Provider: embed.Provider(e.Provider), BaseURL: e.URL, Model: e.Model, Dim: e.Dim, Token: e.token, Timeout: 30 * time.Second})
	if err != nil {
		return nil, err
	}
	// Nothing the battery flags leaves for the service: not a docs
	// page's example key, nor one pasted into a prompt.
	return embed.Redacting(h, redact.Span), nil
}

// spellingDictionary keeps docs search's spelling repair to misspelt
// words: WordNet's, built in.
func spellingDictionary() embed.Dictionary { return wordnet.DefaultLexicon() }

// knowledgeBase opens the documentation graph joined with the memory
// store; nil when no corpus is configured. f has been resolved
// (docsFlags.resolve); emb is its embedder (nil: the offline one).
func knowledgeBase(ctx context.Context, f docsFlags, emb embed.Embedder, store *federation.Store, reqs *requests.Store, reconcile time.Duration, log *slog.Logger) (*knowledge.Base, error) {
	if len(f.roots) == 0 {
		return nil, nil
	}
	opts := knowledge.Options{Dirs: f.roots, Store: store, Requests: reqs, RequestsReconcile: reconcile, Embedder: emb, Dictionary: spellingDictionary(), Logger: log}
	if store != nil && emb == nil { // a restart reads the offline embedder back
		opts.EmbedderCache = filepath.Join(store.Library().Root(), ".bourdon", "embedder")
	}
	kb, err := knowledge.Open(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("docs: %w", err)
	}
	snap := kb.Current()
	for i, p := range snap.Problems {
		if i == 20 {
			log.Warn(fmt.Sprintf("and %d more problems; run bourdon docs check", len(snap.Problems)-20))
			break
		}
		log.Warn("docs problem", "at", p.String())
	}
	return kb, nil
}
