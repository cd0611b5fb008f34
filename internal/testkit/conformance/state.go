package conformance

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
)

// sealer protects the requestState of input_required results (SEP-2322).
// A state is the JSON of the server's data and an HMAC-SHA256 over the
// scope it was minted for (the tool or prompt) and that JSON, so a client
// can neither alter a state nor replay one against another tool.
type sealer struct{ key []byte }

func newSealer() *sealer {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return &sealer{key: key}
}

var errBadState = errors.New("requestState failed its integrity check")

func (s *sealer) mac(scope string, payload []byte) []byte {
	h := hmac.New(sha256.New, s.key)
	h.Write([]byte(scope))
	h.Write([]byte{0})
	h.Write(payload)
	return h.Sum(nil)
}

// seal returns the state for v, minted for scope.
func (s *sealer) seal(scope string, v any) string {
	payload, err := json.Marshal(v)
	if err != nil {
		panic(err) // fixture states are plain structs
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(s.mac(scope, payload))
}

// open checks state against scope and decodes it into v.
func (s *sealer) open(scope, state string, v any) error {
	enc := base64.RawURLEncoding
	p, m, ok := strings.Cut(state, ".")
	if !ok {
		return errBadState
	}
	payload, err := enc.DecodeString(p)
	if err != nil {
		return errBadState
	}
	mac, err := enc.DecodeString(m)
	if err != nil || !hmac.Equal(mac, s.mac(scope, payload)) {
		return errBadState
	}
	if err := json.Unmarshal(payload, v); err != nil {
		return errBadState
	}
	return nil
}
