package authserver

import (
	"context"
	"testing"
)

// BenchmarkVerify measures checking a built-in access token on every
// request, next to checking a bdn_ token (the baseline) on the same
// registry.
func BenchmarkVerify(b *testing.B) {
	f := newFixture(b)
	id := f.register("authorization_code")
	_, tok := f.exchange(id, f.authorize(id, nil, "alice").Query().Get("code"), nil)
	access := tok["access_token"].(string)
	bdn := f.tokens["alice"]
	b.Run("bdn_token", func(b *testing.B) {
		for b.Loop() {
			if _, ok := f.reg.Authenticate(bdn); !ok {
				b.Fatal("bdn_ token refused")
			}
		}
	})
	b.Run("oauth_access_token", func(b *testing.B) {
		for b.Loop() {
			if _, err := f.as.Verify(context.Background(), access); err != nil {
				b.Fatal(err)
			}
		}
	})
}
