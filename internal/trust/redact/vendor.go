package redact

import "strings"

// Vendor tokens: the credentials services issue with a fixed prefix of
// their own (PyPI's pypi-, DigitalOcean's dop_v1_, Shopify's shpat_, ...),
// recognisable by their shape alone, which the reference's battery does
// not list. Each is a case-sensitive prefix and a body of one character
// class whose length is within the vendor's bounds, ending at a word
// boundary; a few check the body's structure too. The prefixes are long
// or specific enough that prose does not start a word with them, and
// TestSupersetIsQuietOnTheCorpora holds them to that.

// vendorToken is one vendor's token shape.
type vendorToken struct {
	vendor string
	prefix string
	class  *[256]bool
	// min and max bound the body's length (max 0: no upper bound).
	min, max int
	// check, when set, must accept the body.
	check func(body string) bool
}

// Character classes of token bodies.
var (
	hexLower   = byteSet("0123456789abcdef")
	alnumLower = byteSet(digits + lowers)
	alnum      = byteSet(digits + lowers + uppers)
	b64url     = byteSet(digits + lowers + uppers + "_-")
	b64        = byteSet(digits + lowers + uppers + "+/=")
	b64urlEq   = byteSet(digits + lowers + uppers + "_-=")
	dotted     = byteSet(digits + lowers + uppers + "_-.")
	// bech32Upper is the upper-case bech32 alphabet (age's secret keys),
	// bech32Lower the lower-case one (Nostr's).
	bech32Upper = byteSet("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")
	bech32Lower = byteSet("qpzry9x8gf2tvdw0s3jn54khce6mua7l")
	// base58 is Bitcoin's alphabet (BIP-32 extended keys).
	base58 = byteSet(base58Alphabet)
	// hexDash is a UUID's alphabet; dollarred Braintree's ($ between its
	// parts); pctB64 base64 with percent escapes (Twitter's bearer).
	hexDash   = byteSet("0123456789abcdef-")
	dollarred = byteSet(digits + lowers + uppers + "$")
	pctB64    = byteSet(digits + lowers + uppers + "%_-")
)

const (
	digits = "0123456789"
	lowers = "abcdefghijklmnopqrstuvwxyz"
	uppers = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
)

func byteSet(chars string) *[256]bool {
	var t [256]bool
	for i := 0; i < len(chars); i++ {
		t[chars[i]] = true
	}
	return &t
}

// vendorTokens are the shapes, by vendor. Lengths are the documented ones
// where the vendor gives one, else a floor well above any word.
var vendorTokens = [...]vendorToken{
	{vendor: "PyPI", prefix: "pypi-AgE", class: b64url, min: 50},
	{vendor: "RubyGems", prefix: "rubygems_", class: hexLower, min: 48, max: 48},
	{vendor: "SendGrid", prefix: "SG.", class: dotted, min: 66, max: 66, check: func(b string) bool {
		return b[22] == '.' && strings.IndexByte(b[:22], '.') < 0 && strings.IndexByte(b[23:], '.') < 0
	}},
	{vendor: "Mailgun", prefix: "key-", class: hexLower, min: 32, max: 32},
	{vendor: "Twilio", prefix: "SK", class: hexLower, min: 32, max: 32},
	{vendor: "DigitalOcean", prefix: "dop_v1_", class: hexLower, min: 64, max: 64},
	{vendor: "DigitalOcean", prefix: "doo_v1_", class: hexLower, min: 64, max: 64},
	{vendor: "DigitalOcean", prefix: "dor_v1_", class: hexLower, min: 64, max: 64},
	{vendor: "Shopify", prefix: "shpat_", class: hexLower, min: 32, max: 32},
	{vendor: "Shopify", prefix: "shpca_", class: hexLower, min: 32, max: 32},
	{vendor: "Shopify", prefix: "shppa_", class: hexLower, min: 32, max: 32},
	{vendor: "Shopify", prefix: "shpss_", class: hexLower, min: 32, max: 32},
	{vendor: "Databricks", prefix: "dapi", class: hexLower, min: 32, max: 32},
	{vendor: "age", prefix: "AGE-SECRET-KEY-1", class: bech32Upper, min: 58, max: 58},
	{vendor: "Grafana", prefix: "glc_", class: b64, min: 32},
	{vendor: "Grafana", prefix: "glsa_", class: b64url, min: 41, max: 41, check: func(b string) bool {
		return b[32] == '_' && strings.IndexByte(b[:32], '_') < 0
	}},
	{vendor: "GitLab", prefix: "glptt-", class: b64url, min: 20},
	{vendor: "GitLab", prefix: "gldt-", class: b64url, min: 20},
	{vendor: "GitLab", prefix: "glrt-", class: b64url, min: 20},
	{vendor: "GitLab", prefix: "glcbt-", class: b64url, min: 20},
	{vendor: "GitLab", prefix: "glft-", class: b64url, min: 20},
	{vendor: "GitLab", prefix: "gloas-", class: b64url, min: 20},
	{vendor: "HashiCorp Vault", prefix: "hvs.", class: b64url, min: 24},
	{vendor: "HashiCorp Vault", prefix: "hvb.", class: b64url, min: 24},
	{vendor: "Doppler", prefix: "dp.st.", class: dotted, min: 40},
	{vendor: "Doppler", prefix: "dp.pt.", class: dotted, min: 40},
	{vendor: "Doppler", prefix: "dp.ct.", class: dotted, min: 40},
	{vendor: "Doppler", prefix: "dp.sa.", class: dotted, min: 40},
	{vendor: "Linear", prefix: "lin_api_", class: alnum, min: 40},
	{vendor: "Notion", prefix: "secret_", class: alnum, min: 43, max: 43},
	{vendor: "Notion", prefix: "ntn_", class: alnum, min: 40},
	{vendor: "Figma", prefix: "figd_", class: b64url, min: 40},
	{vendor: "Atlassian", prefix: "ATATT3", class: b64urlEq, min: 100},
	{vendor: "Bitbucket", prefix: "ATBB", class: alnum, min: 32},
	{vendor: "Postman", prefix: "PMAK-", class: b64url, min: 59, max: 59, check: func(b string) bool {
		return b[24] == '-' && isHexRun(b[:24]) && isHexRun(b[25:])
	}},
	{vendor: "Pulumi", prefix: "pul-", class: hexLower, min: 40, max: 40},
	{vendor: "Docker Hub", prefix: "dckr_pat_", class: b64url, min: 27},
	{vendor: "Supabase", prefix: "sbp_", class: hexLower, min: 40, max: 40},
	{vendor: "Supabase", prefix: "sb_secret_", class: b64url, min: 20},
	{vendor: "Sentry", prefix: "sntrys_", class: b64urlEq, min: 40},
	{vendor: "Sentry", prefix: "sntryu_", class: hexLower, min: 64, max: 64},
	{vendor: "New Relic", prefix: "NRAK-", class: alnum, min: 27, max: 27},
	{vendor: "Groq", prefix: "gsk_", class: alnum, min: 52, max: 52},
	{vendor: "Perplexity", prefix: "pplx-", class: alnum, min: 48, max: 48},
	{vendor: "xAI", prefix: "xai-", class: alnum, min: 80},
	{vendor: "Slack", prefix: "xapp-", class: b64url, min: 20},
	{vendor: "Square", prefix: "sq0atp-", class: b64url, min: 22},
	{vendor: "Square", prefix: "sq0csp-", class: b64url, min: 43},
	{vendor: "Heroku", prefix: "HRKU-", class: b64url, min: 30},
	{vendor: "Fly.io", prefix: "fo1_", class: b64url, min: 43},
	{vendor: "Netlify", prefix: "nfp_", class: alnum, min: 36},
	{vendor: "PlanetScale", prefix: "pscale_tkn_", class: dotted, min: 32},
	{vendor: "PlanetScale", prefix: "pscale_pw_", class: dotted, min: 32},
	{vendor: "PlanetScale", prefix: "pscale_oauth_", class: dotted, min: 32},
	{vendor: "Google OAuth client", prefix: "GOCSPX-", class: b64url, min: 28, max: 28},
	{vendor: "Stripe webhook", prefix: "whsec_", class: b64, min: 32},
	{vendor: "Mapbox", prefix: "sk.eyJ", class: dotted, min: 50},
	{vendor: "Alibaba Cloud", prefix: "LTAI", class: alnum, min: 20, max: 20},
	{vendor: "JFrog", prefix: "AKCp", class: alnum, min: 69},
	{vendor: "Facebook", prefix: "EAA", class: alnum, min: 100},
	{vendor: "Shippo", prefix: "shippo_live_", class: hexLower, min: 40, max: 40},
	{vendor: "Replicate", prefix: "r8_", class: alnum, min: 37, max: 40},
	{vendor: "Tencent Cloud", prefix: "AKID", class: alnum, min: 32, max: 36},
	{vendor: "Dropbox", prefix: "sl.", class: dotted, min: 100},
	{vendor: "Twitch", prefix: "oauth:", class: alnumLower, min: 30, max: 30},
	{vendor: "Airtable", prefix: "pat", class: dotted, min: 79, max: 79, check: func(b string) bool {
		return b[14] == '.' && mixedKey(b[:14]) && isHexRun(b[15:])
	}},
	{vendor: "Dynatrace", prefix: "dt0c01.", class: dotted, min: 89, max: 89, check: func(b string) bool { return b[24] == '.' }},
	{vendor: "New Relic", prefix: "NRII-", class: b64url, min: 32, max: 32},
	{vendor: "New Relic", prefix: "NRJS-", class: hexLower, min: 19, max: 19},
	{vendor: "Braintree", prefix: "access_token$production$", class: dollarred, min: 49, max: 49, check: func(b string) bool { return b[16] == '$' }},
	{vendor: "Braintree", prefix: "access_token$sandbox$", class: dollarred, min: 49, max: 49, check: func(b string) bool { return b[16] == '$' }},
	{vendor: "Plaid", prefix: "access-production-", class: hexDash, min: 36, max: 36},
	{vendor: "Plaid", prefix: "access-development-", class: hexDash, min: 36, max: 36},
	{vendor: "Plaid", prefix: "access-sandbox-", class: hexDash, min: 36, max: 36},
	{vendor: "HubSpot", prefix: "pat-na1-", class: hexDash, min: 36, max: 36},
	{vendor: "HubSpot", prefix: "pat-eu1-", class: hexDash, min: 36, max: 36},
	{vendor: "Render", prefix: "rnd_", class: alnum, min: 32, check: mixedKey},
	{vendor: "Resend", prefix: "re_", class: b64url, min: 33, max: 33, check: func(b string) bool {
		return b[8] == '_' && strings.IndexByte(b[9:], '_') < 0
	}},
	{vendor: "Pinecone", prefix: "pcsk_", class: b64url, min: 50, check: func(b string) bool { return b[5] == '_' }},
	{vendor: "LangSmith", prefix: "lsv2_pt_", class: b64url, min: 43, max: 43},
	{vendor: "LangSmith", prefix: "lsv2_sk_", class: b64url, min: 43, max: 43},
	{vendor: "Voyage AI", prefix: "pa-", class: b64url, min: 40, check: mixedKey},
	{vendor: "Cerebras", prefix: "csk-", class: alnumLower, min: 48, max: 48},
	{vendor: "Fireworks AI", prefix: "fw_", class: alnum, min: 24, check: mixedKey},
	{vendor: "1Password", prefix: "ops_eyJ", class: b64urlEq, min: 100},
	{vendor: "CircleCI", prefix: "CCIPAT_", class: b64url, min: 40},
	{vendor: "Buildkite", prefix: "bkua_", class: hexLower, min: 40, max: 40},
	{vendor: "Sourcegraph", prefix: "sgp_", class: b64url, min: 40},
	{vendor: "Adafruit IO", prefix: "aio_", class: alnum, min: 28, max: 28, check: mixedKey},
	{vendor: "ReadMe", prefix: "rdme_", class: alnumLower, min: 64},
	{vendor: "Prefect", prefix: "pnu_", class: alnum, min: 36, max: 36},
	{vendor: "Duffel", prefix: "duffel_live_", class: b64url, min: 43},
	{vendor: "Duffel", prefix: "duffel_test_", class: b64url, min: 43},
	{vendor: "EasyPost", prefix: "EZAK", class: alnum, min: 54, max: 54},
	{vendor: "EasyPost", prefix: "EZTK", class: alnum, min: 54, max: 54},
	{vendor: "Flutterwave", prefix: "FLWSECK-", class: b64url, min: 34, check: func(b string) bool { return isHexRun(b[:32]) && b[32] == '-' }},
	{vendor: "Flutterwave", prefix: "FLWSECK_TEST-", class: b64url, min: 34, check: func(b string) bool { return isHexRun(b[:32]) && b[32] == '-' }},
	{vendor: "Typeform", prefix: "tfp_", class: b64url, min: 50},
	{vendor: "AWS Bedrock", prefix: "ABSK", class: b64, min: 100},
	{vendor: "Backblaze B2", prefix: "K00", class: b64, min: 28, max: 28, check: mixedKey},
	{vendor: "Twitter / X app-only bearer", prefix: "AAAAAAAAAAAAAAAAAAAAA", class: pctB64, min: 50},
	{vendor: "BIP-32 extended private key", prefix: "xprv", class: base58, min: 107, max: 108},
	{vendor: "BIP-32 extended private key", prefix: "tprv", class: base58, min: 107, max: 108},
	{vendor: "Nostr", prefix: "nsec1", class: bech32Lower, min: 58, max: 58},
	{vendor: "Cloudflare Origin CA", prefix: "v1.0-", class: b64url, min: 171, max: 171, check: func(b string) bool {
		return b[24] == '-' && isHexRun(b[:24]) && isHexRun(b[25:])
	}},
}

// mailchimpKeyAt matches, at s[i] == '-', a Mailchimp API key, which has
// no prefix but a suffix: 32 lower-case hex digits, -us and the data
// center's number (1 or 2 digits), at word boundaries. The span is the
// key.
func mailchimpKeyAt(s string, i int) match {
	const hexLen = 32
	if i < hexLen || !strings.HasPrefix(s[i:], "-us") || i > hexLen && isASCIIWord(s[i-hexLen-1]) {
		return noMatch
	}
	for k := i - hexLen; k < i; k++ {
		if !hexLower[s[k]] {
			return noMatch
		}
	}
	j := i + len("-us")
	for j < len(s) && j-i < 5 && isDigit(s[j]) {
		j++
	}
	if n := j - i - len("-us"); n < 1 || n > 2 || j < len(s) && isASCIIWord(s[j]) {
		return noMatch
	}
	return match{p: pVendorToken, at: i, start: i - hexLen, end: j}
}

// vendorsByFirst[c] lists the indexes in vendorTokens of the shapes whose
// prefix starts with the byte c.
var vendorsByFirst = func() (t [256][]uint8) {
	for i, v := range vendorTokens {
		t[v.prefix[0]] = append(t[v.prefix[0]], uint8(i))
	}
	return t
}()

// vendorPrefixAt reports whether a vendor token's prefix starts t (which
// exactHead has let through: its first two bytes may be a prefix's).
func vendorPrefixAt(t string) bool {
	for _, k := range vendorsByFirst[t[0]] {
		if strings.HasPrefix(t, vendorTokens[k].prefix) {
			return true
		}
	}
	return false
}

// maxVendorBody bounds how far a body is read: the longest token above is
// far shorter, so a longer run is no token of theirs.
const maxVendorBody = 1024

// vendorTokenAt matches a vendor token at s[i:], a word boundary; the
// span is the token, prefix included.
func vendorTokenAt(s string, i int) match {
	for _, k := range vendorsByFirst[s[i]] {
		v := &vendorTokens[k]
		if !strings.HasPrefix(s[i:], v.prefix) {
			continue
		}
		start := i + len(v.prefix)
		j, ok := tokenBody(s, start, v.class, v.min)
		if !ok || v.max > 0 && j-start > v.max {
			continue
		}
		if v.check != nil && !v.check(s[start:j]) {
			continue
		}
		return match{p: pVendorToken, at: i, start: i, end: j}
	}
	return noMatch
}

// tokenBody returns the end of the run of class bytes at s[start:] and
// whether it is a token's body: min to maxVendorBody bytes, with no word
// byte right after it.
func tokenBody(s string, start int, class *[256]bool, min int) (end int, ok bool) {
	j := start
	for j < len(s) && j-start <= maxVendorBody && class[s[j]] {
		j++
	}
	n := j - start
	return j, n >= min && n <= maxVendorBody && (j == len(s) || !isASCIIWord(s[j]))
}

// isHexRun reports whether s is made of hexadecimal digits only.
func isHexRun(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
