package external

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// Bounds on fetching the provider's keys.
const (
	// minRefresh is the least time between two fetches of the key set: a
	// token naming an unknown key refetches it, and forged tokens must not
	// make the server hammer the provider.
	minRefresh   = 30 * time.Second
	fetchTimeout = 10 * time.Second
	maxJWKSBytes = 1 << 20
)

// keySet is the provider's JWKS (jwks_uri), cached. A token signed with
// a key the cache does not hold refetches the set (the provider rotated
// its keys), at most once per minRefresh. It implements oidc.KeySet.
type keySet struct {
	url    string
	client *http.Client
	algs   []jose.SignatureAlgorithm
	now    func() time.Time

	mu      sync.Mutex
	keys    []jose.JSONWebKey
	fetched time.Time // zero until the first fetch
}

// VerifySignature returns the payload of a compact JWS signed by one of
// the provider's keys.
func (k *keySet) VerifySignature(ctx context.Context, raw string) ([]byte, error) {
	jws, err := jose.ParseSigned(raw, k.algs)
	if err != nil {
		return nil, err
	}
	if len(jws.Signatures) != 1 {
		return nil, errors.New("want exactly one signature")
	}
	kid := jws.Signatures[0].Header.KeyID
	if payload, ok := verifyWith(jws, kid, k.cached()); ok {
		return payload, nil
	}
	keys, err := k.refresh(ctx)
	if err != nil {
		return nil, err
	}
	if payload, ok := verifyWith(jws, kid, keys); ok {
		return payload, nil
	}
	return nil, errors.New("no key of the provider verifies the signature")
}

func verifyWith(jws *jose.JSONWebSignature, kid string, keys []jose.JSONWebKey) ([]byte, bool) {
	for i := range keys {
		if kid != "" && keys[i].KeyID != kid {
			continue
		}
		if payload, err := jws.Verify(&keys[i]); err == nil {
			return payload, true
		}
	}
	return nil, false
}

func (k *keySet) cached() []jose.JSONWebKey {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.keys
}

// refresh fetches the key set unless it was fetched less than minRefresh
// ago, and returns the keys held after it.
func (k *keySet) refresh(ctx context.Context) ([]jose.JSONWebKey, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.fetched.IsZero() && k.now().Sub(k.fetched) < minRefresh {
		return k.keys, nil
	}
	k.fetched = k.now()
	keys, err := k.fetch(ctx)
	if err != nil {
		return k.keys, err
	}
	k.keys = keys
	return keys, nil
}

func (k *keySet) fetch(ctx context.Context) ([]jose.JSONWebKey, error) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, k.url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := k.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching the provider's keys: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching the provider's keys from %s: %s", k.url, resp.Status)
	}
	var set jose.JSONWebKeySet
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxJWKSBytes)).Decode(&set); err != nil {
		return nil, fmt.Errorf("the provider's keys at %s: %w", k.url, err)
	}
	return set.Keys, nil
}
