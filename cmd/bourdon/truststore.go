package main

import (
	"context"

	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/trust"
	"github.com/getbourdon/bourdon-go/internal/trust/oauth/authserver"
)

// trustPlace is where the federation registry and the built-in OAuth
// server's state are kept: the registry file and oauth.json next to it,
// or, with --store, the documents federation.yaml and oauth.json of that
// PostgreSQL store, which every replica shares.
type trustPlace struct {
	registryPath string          // the registry file, when pg is nil
	pg           *postgres.Store // the store, or nil for the files
}

// openTrustPlace opens the registry file at registryPath, or, with url
// set, that PostgreSQL store (on a pool of its own, closed by the
// returned function).
func openTrustPlace(ctx context.Context, registryPath, url string) (trustPlace, func(), error) {
	if url == "" {
		return trustPlace{registryPath: registryPath}, func() {}, nil
	}
	pg, err := openPostgres(ctx, url)
	if err != nil {
		return trustPlace{}, nil, err
	}
	return trustPlace{pg: pg}, pg.Close, nil
}

// registry returns the member registry.
func (p trustPlace) registry() *trust.Registry {
	if p.pg == nil {
		return trust.OpenRegistry(p.registryPath)
	}
	return trust.NewRegistry(p.pg.Documents(), trust.RegistryDocument)
}

// oauthState returns the built-in authorization server's state.
func (p trustPlace) oauthState() *authserver.Store {
	if p.pg == nil {
		return authserver.OpenStore(authserver.DefaultStorePath(p.registryPath))
	}
	return authserver.NewStore(p.pg.Documents(), authserver.StateFile)
}
