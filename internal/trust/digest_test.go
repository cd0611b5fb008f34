package trust

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
	"testing"
)

// TestDigestMatchesTheHexCompare: a row's digest matches a presented token
// exactly when the constant-time compare of the hex spellings did (the
// reference here): the registry's lower-case hex only, not upper case, not
// a hash cut short, grown or with a digit changed.
func TestDigestMatchesTheHexCompare(t *testing.T) {
	for _, tok := range []string{"bdn_" + strings.Repeat("0123456789abcdef", 3), "x", strings.Repeat("long token ", 20)} {
		sum := sha256.Sum256([]byte(tok))
		lower := hex.EncodeToString(sum[:])
		hashes := []string{lower, strings.ToUpper(lower), lower[:63], lower + "0", " " + lower[1:], "", strings.Repeat("z", 64)}
		for i := range lower {
			c := byte('0')
			if lower[i] == '0' {
				c = '1'
			}
			hashes = append(hashes, lower[:i]+string(c)+lower[i+1:])
		}
		for _, h := range hashes {
			want := subtle.ConstantTimeCompare([]byte(lower), []byte(h)) == 1
			d := digestOf(h)
			if got := d != nil && digestEqual(&sum, d); got != want {
				t.Errorf("token %q, hash %q: digest match %v, hex compare %v", tok, h, got, want)
			}
		}
	}
}
