package redact

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The fast paths of the clean case (scan's word skipping and two-letter
// test, isCollapsed's eight bytes at a time, stringEnd's search for the
// closing quote) are held against their byte-by-byte references
// (reference_test.go) over generated near-misses of every pattern.

// nearMissPieces are the starts of every pattern of the battery and of
// the superset, whole, with the separators and neighbours that decide
// whether they match.
var nearMissPieces = []string{
	"api_key", "api-token", "apikeys", "access_token", "refresh-tokens", "bearer token", "Bearer\ttoken",
	"service_role", "client-secret", "password", "passwd", "stripe secret", "keystore", "private_key",
	"ssh-key", ".env", ".ENV", "sk_live_", "rk_test_", "pk_live_", "kk_test_", "appl_", "hf_", "AKIA", "ASIA",
	"ghp_", "gho_", "ghs_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "sk-", "sk-ant-", "AIza", "ya29.",
	"npm_", "eyJ", "-----BEGIN ", "-----BEGIN RSA PRIVATE KEY-----", "-----END ", "PRIVATE KEY-----",
	"https://", "postgres://", ":~1~1", "user:", "pw@", "Basic ", "Bearer ", "bdn_", "aws_secret_access_key",
	"secret_access_key", "aws_secret", "DB_PASSWORD=", "token: ", "X-API-Key:", "AccountKey=",
	"SharedAccessSignature=", "?sig=", "&sig=", "=>", ":=", "==", "::",
	strings.Repeat("0123456789abcdef", 3), strings.Repeat("Ab0+", 16), strings.Repeat("aB9/", 19),
	strings.Repeat("A", 16), strings.Repeat("x1", 20), "ZGVwbG95OnMzY3IzdC1wdw==",
	"my pw: ", "DB_PASSPHRASE=", "api key is ", "password is '", " is ", "Is", "IS x1y2z3w4",
	// Tokens known by their structure.
	"MTA", "NzI", "ODk", "Oz", ".atlasv1.", ":APA91b", "AAAA", "8Q~", "Q~", "x1Y2z3W4v5",
	// Key files and password files.
	"Private-Lines: ", "Private-Lines: 2\\n", "db:5432:", "*:*:*:*:", ":5432",
	// Windows command lines.
	"net user ", "net use ", "\\\\srv\\share ", "/pass:", "/p:", "/password:",
	// Passwords in words, in English and in other languages.
	"password to ", "password for ", "db-prod: ", "Passwort: ", "Kennwort ist ", "mot de passe est ", "contraseña: ",
	"senha é ", "wachtwoord is ", "hasło to ", "lösenordet är ", "şifre ", "ŞİFRE: ", "пароль: ", "Пароль — ",
	"密码是", "密碼：", "パスワードは ", "비밀번호는 ", "「", "」",
	"for db is ", "we use is ", "del db è ", "kata sandi ", "adalah ", "heslo je ", "clave ",
	"passordet ", "salasana ", "jelszó: ", "palavra-pas", "parola d'",
	// Passwords as commands' arguments.
	"htpasswd -b ", "rabbitmqctl ", "add_user u ", "sqlplus u/", "echo 'u:", "| chpasswd",
	"passwd --", "smbpasswd", "-passout ", "pass:", "-storepass ", "-U u%", "mysqladmin ",
	// Keys in shapes of their own.
	`{"kty":"EC","d":"`, `"d": "`, "<RSAKeyValue><D>", "</D>", "5K", "[1,2,",
}

func init() {
	// The vendor tokens' prefixes, and their bodies at the least length.
	for _, v := range vendorTokens {
		body := make([]byte, v.min)
		for i := range body {
			for c := range 256 {
				if v.class[c] && (v.check == nil || c != '.' && c != '_' && c != '-') {
					body[i] = byte(c)
					break
				}
			}
		}
		nearMissPieces = append(nearMissPieces, v.prefix, v.prefix+string(body))
	}
}

// nearMissGlue are what stands between and around the pieces: spaces of
// every kind, escapes, quotes, word bytes and non-ASCII letters (the four
// runes Python's IGNORECASE folds among them).
var nearMissGlue = []string{
	"", " ", "  ", "\t", "\n", "\r\n", "\v", "\x1c", "\u00a0", "\u2028", "\u3000", "\\n", "\\t", `\"`, `"`, "'",
	"_", "-", ".", ":", "=", "/", "x", "Z", "9", "é", "中", "\u0130", "\u0131", "\u017f", "\u212a", "\x85", "\xff",
}

// nearMiss returns a generated string: pieces, cut short, case-changed or
// whole, with glue between them.
func nearMiss(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(6) {
		b.WriteString(nearMissGlue[r.IntN(len(nearMissGlue))])
		p := nearMissPieces[r.IntN(len(nearMissPieces))]
		switch r.IntN(5) {
		case 0:
			p = p[:r.IntN(len(p)+1)] // a prefix (maybe inside a rune of glue: bytes, not runes)
		case 1:
			p = strings.ToUpper(p)
		case 2:
			p = swapCase(p)
		case 3:
			p = p[r.IntN(len(p)+1):] // a tail
		}
		b.WriteString(p)
		if r.IntN(3) == 0 {
			b.WriteString(strings.Repeat(string(rune('a'+r.IntN(26))), r.IntN(50)))
		}
	}
	b.WriteString(nearMissGlue[r.IntN(len(nearMissGlue))])
	return b.String()
}

func swapCase(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, s)
}

// scanMasks are the pattern sets scan is called with, and a few others.
var scanMasks = []uint64{allPatterns, proseMask, caseInsensitiveMask, referenceMask, keywordMask, 1 << pAssignment, allPatterns &^ 1}

// checkFastPaths compares each fast path with its reference on s.
func checkFastPaths(t *testing.T, s string) {
	t.Helper()
	if got, want := isCollapsed(s), referenceIsCollapsed(s); got != want {
		t.Fatalf("isCollapsed(%q) = %v, the reference says %v", s, got, want)
	}
	for _, mask := range scanMasks {
		for _, from := range []int{0, len(s) / 3, len(s) / 2} {
			for _, span := range []bool{false, true} {
				m, fold := scan(s, mask, from, span)
				rm, rfold := referenceScan(s, mask, from, span)
				if m != rm || fold != rfold {
					t.Fatalf("scan(%q, %#x, %d, %v) = %v %v, the reference says %v %v", s, mask, from, span, m, fold, rm, rfold)
				}
			}
		}
	}
	for _, doc := range jsonDocs(s) {
		for _, kind := range []Kind{Field, Prose} {
			for _, echo := range []map[string]string{nil, {"a": s, "b": "x"}} {
				got, want := JSONAs(doc, kind, echo), referenceJSONAs(doc, kind, echo)
				if string(got) != string(want) || (&got[0] == &doc[0]) != (&want[0] == &doc[0]) {
					t.Fatalf("JSONAs(%s, %d) = %s, the reference says %s", doc, kind, got, want)
				}
			}
		}
	}
}

// jsonDocs are JSON documents holding s: as encoding/json writes it, with
// s also a key and inside an array, and raw (s between quotes as it is,
// which may hold escapes of its own, or end early, or not be JSON).
func jsonDocs(s string) [][]byte {
	enc, _ := json.Marshal(map[string]any{"a": s, s: []any{s, 1, map[string]string{"b": s}}, "c": "plain text"})
	raw := []byte(`{"a":"` + s + `","l":["` + s + `",{"x` + s + `":"` + s + `"}]}`)
	return [][]byte{enc, raw, []byte(`"` + s + `"`)}
}

func TestFastPathsAgreeWithTheReference(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 8))
	n := 4000
	if testing.Short() {
		n = 500
	}
	for range n {
		checkFastPaths(t, nearMiss(r))
	}
	for _, s := range append(append([]string{}, nearMissPieces...), nearMissGlue...) {
		checkFastPaths(t, s)
	}
}

// TestMayStartPatternIsSound: a word that mayStartPattern rejects is one
// wordStartCandidates has no candidate for, whatever its first two bytes
// and whatever follows them among the rest of every prefix it tests.
func TestMayStartPatternIsSound(t *testing.T) {
	// wordStartCandidates looks at the first 16 bytes at most (the
	// longest prefix it tests, AGE-SECRET-KEY-1), so longer tails add
	// nothing.
	tails := []string{""}
	for _, p := range nearMissPieces {
		for i := 2; i <= min(len(p), 24); i++ {
			tails = append(tails, p[2:i], strings.ToLower(p[2:i]), strings.ToUpper(p[2:i]))
		}
	}
	slices.Sort(tails)
	tails = slices.Compact(tails)
	accepted := 0
	for c0 := range 256 {
		if byteClass[c0] != bStart {
			continue
		}
		for c1 := range 256 {
			head := string([]byte{byte(c0), byte(c1)})
			if mayStartPattern(head) {
				accepted++
				continue
			}
			for _, tail := range tails {
				if c := wordStartCandidates(head + tail + strings.Repeat("a", 48)); c != 0 {
					t.Fatalf("mayStartPattern rejects %q, which may start patterns %#x", head+tail, c)
				}
			}
		}
	}
	heads := map[string]bool{}
	for _, h := range exactHeads() {
		heads[h] = true
	}
	if accepted > 4*len(allWordStartPairs)+len(heads) {
		t.Errorf("mayStartPattern accepts %d two-byte heads", accepted)
	}
}

func FuzzFastPaths(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		f.Add(nearMiss(r))
	}
	f.Add(`{"a":"b\"c","d":"\u0041pi_key"}`)
	f.Fuzz(checkFastPaths)
}
