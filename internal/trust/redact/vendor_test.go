package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// vendorSample returns a token of shape v with a body of n characters
// drawn from its class, holding the separators its check asks for.
func vendorSample(r *rand.Rand, v vendorToken, n int) string {
	var plain []byte // the class without the separators a check places
	for c := range 256 {
		if v.class[c] && (v.check == nil || !strings.ContainsRune("._-", rune(c))) {
			plain = append(plain, byte(c))
		}
	}
	body := make([]byte, n)
	for i := range body {
		body[i] = plain[r.IntN(len(plain))]
	}
	switch v.vendor {
	case "SendGrid":
		body[22] = '.'
	case "Grafana":
		if v.check != nil {
			body[32] = '_'
		}
	case "Postman", "Cloudflare Origin CA":
		for i := range body {
			body[i] = "0123456789abcdef"[r.IntN(16)]
		}
		body[24] = '-'
	case "Dynatrace":
		body[24] = '.'
	case "Airtable":
		copy(body, "aB3")
		for i := 15; i < len(body); i++ {
			body[i] = "0123456789abcdef"[r.IntN(16)]
		}
		body[14] = '.'
	case "Braintree":
		body[16] = '$'
	case "Resend":
		body[8] = '_'
	case "Pinecone":
		body[5] = '_'
	case "Flutterwave":
		for i := range 32 {
			body[i] = "0123456789abcdef"[r.IntN(16)]
		}
		body[32] = '-'
	}
	return v.prefix + string(body)
}

// TestVendorTokens: every vendor shape is caught at its least and, when
// bounded, its greatest length, in a field and in prose, where only the
// token goes; one character short or long, or glued to a word, it is
// no vendor token.
func TestVendorTokens(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, v := range vendorTokens {
		lengths := []int{v.min}
		if v.max > v.min {
			lengths = append(lengths, v.max)
		}
		for _, n := range lengths {
			tok := vendorSample(r, v, n)
			for _, in := range []string{tok, "the " + v.vendor + " token is " + tok + ", keep it", `{"k": "` + tok + `"}`} {
				if got := Secret(in); got != Sentinel {
					t.Errorf("%s: Secret(%q) = %q", v.vendor, in, got)
				}
				if got, want := Span(in), strings.Replace(in, tok, Sentinel, 1); got != want {
					t.Errorf("%s: Span(%q) = %q, want %q", v.vendor, in, got, want)
				}
			}
		}
		var misses []string
		if v.check == nil {
			misses = append(misses, vendorSample(r, v, v.min-1))
			if v.max > 0 {
				misses = append(misses, vendorSample(r, v, v.max+1))
			}
		}
		misses = append(misses, "x"+vendorSample(r, v, v.min))
		if v.class == hexLower {
			misses = append(misses, vendorSample(r, v, v.min)+"g") // a word goes on
		}
		for _, in := range misses {
			if m, _ := scan(in, 1<<pVendorToken, 0, true); m.p >= 0 {
				t.Errorf("%s: %q is taken for a token", v.vendor, in)
			}
		}
	}
}

// TestVendorNearMissesOfProse: words and identifiers that begin like a
// vendor's prefix are not tokens.
func TestVendorNearMissesOfProse(t *testing.T) {
	for _, in := range []string{
		"key-value pairs", "key-" + strings.Repeat("0123456789abcdef", 3), "SKU 1234", "SKIP", "secret_sauce",
		"dapi-compatible", "glc_ is the prefix", "hvs.x", "pypi-AgE", "dp.st.short", "lin_api_key",
		"ntn_ tokens are documented", "figd_ and figu_", "EAAS is a word", "LTAI is an id prefix",
		"SG.abc.def", "whsec_ stands for webhook secret", "sk.eyJ", "xapp-level", "HRKU-AA",
		"sq0atp-", "fo1_", "nfp_", "pscale_tkn_", "GOCSPX-", "AKCp", "ATBB", "ATATT3",
		"sha " + strings.Repeat("0123456789abcdef", 4),
	} {
		if got := Secret(in); got != in && !strings.Contains(in, "secret") {
			t.Errorf("Secret(%q) = %q, want it unchanged", in, got)
		}
		if got := Span(in); got != in {
			t.Errorf("Span(%q) = %q, want it unchanged", in, got)
		}
	}
}

// TestMailchimpKeys: 32 lower-case hex digits and -us with one or two
// digits are a Mailchimp key; other lengths, upper case, or a longer word
// are not.
func TestMailchimpKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(4181, 6765))
	hex := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "0123456789abcdef"[r.IntN(16)]
		}
		return string(b)
	}
	k1, k2 := hex(32)+"-us18", hex(32)+"-us6"
	checkCaught(t, "newsletter sync uses "+k1+" (audience 'customers')", k1)
	checkCaught(t, `MC_KEY="`+k2+`"`, k2)
	for _, in := range []string{
		hex(31) + "-us18", hex(33) + "-us18", strings.ToUpper(hex(32)) + "-us18", hex(32) + "-us123",
		hex(32) + "-usa", "x" + hex(32) + "-us1", hex(32) + "-us1x", "sha " + hex(32) + "-users",
	} {
		checkQuiet(t, in, false)
	}
}
