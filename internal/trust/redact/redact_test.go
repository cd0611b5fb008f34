package redact

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

const (
	batteryPath = "../../../testdata/conformance/redaction_battery.json"
	leakPath    = "../../../testdata/conformance/leak_cases.json"
	// defaultLimit is the reference's redact_text default.
	defaultLimit = 180
)

// probe is one fixture value. Secrets are stored as fragments so no token
// literal is committed; they are joined at load time.
type probe struct {
	Fragments            []string `json:"fragments"`
	Text                 *string  `json:"text"`
	ExpectRedacted       string   `json:"expect_redacted"`
	ExpectContainsSecret bool     `json:"expect_contains_secret"`
}

func (p probe) value(t *testing.T) string {
	t.Helper()
	switch {
	case p.Text != nil && p.Fragments == nil:
		return *p.Text
	case p.Text == nil && p.Fragments != nil:
		return strings.Join(p.Fragments, "")
	}
	t.Fatalf("probe needs exactly one of text/fragments: %+v", p)
	return ""
}

type battery struct {
	RedactedSentinel string  `json:"redacted_sentinel"`
	BenignLimit      int     `json:"benign_limit"`
	Secrets          []probe `json:"secrets"`
	Benign           []probe `json:"benign"`
	CaseVariants     []struct {
		Pattern       string `json:"pattern"`
		CaseSensitive bool   `json:"case_sensitive"`
		Correct       probe  `json:"correct"`
		Wrong         probe  `json:"wrong"`
	} `json:"case_variants"`
}

func loadBattery(t testing.TB) battery {
	t.Helper()
	raw, err := os.ReadFile(batteryPath)
	if err != nil {
		t.Fatal(err)
	}
	var b battery
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatal(err)
	}
	return b
}

func checkProbe(t *testing.T, p probe, limit int) {
	t.Helper()
	v := p.value(t)
	if got := Text(v, limit); got != p.ExpectRedacted {
		t.Errorf("Text(%q, %d) = %q, want %q", v, limit, got, p.ExpectRedacted)
	}
	if got := ContainsSecret(v); got != p.ExpectContainsSecret {
		t.Errorf("ContainsSecret(%q) = %v, want %v", v, got, p.ExpectContainsSecret)
	}
}

func TestBattery(t *testing.T) {
	b := loadBattery(t)
	if b.RedactedSentinel != Sentinel {
		t.Fatalf("fixture sentinel %q != Sentinel %q", b.RedactedSentinel, Sentinel)
	}
	if len(b.Secrets) == 0 || len(b.Benign) == 0 || len(b.CaseVariants) == 0 {
		t.Fatal("fixture has an empty section")
	}
	t.Run("secrets", func(t *testing.T) {
		for i, p := range b.Secrets {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				checkProbe(t, p, defaultLimit)
				checkProbe(t, p, b.BenignLimit)
			})
		}
	})
	t.Run("benign", func(t *testing.T) {
		for i, p := range b.Benign {
			t.Run(fmt.Sprint(i), func(t *testing.T) { checkProbe(t, p, b.BenignLimit) })
		}
	})
	t.Run("case_variants", func(t *testing.T) {
		for _, cv := range b.CaseVariants {
			t.Run(cv.Pattern, func(t *testing.T) {
				checkProbe(t, cv.Correct, defaultLimit)
				checkProbe(t, cv.Wrong, defaultLimit)
				// The named pattern must exist with the pinned case flag,
				// and on its own must decide both probes.
				idx := slices.IndexFunc(patterns[:], func(p pattern) bool { return p.name == cv.Pattern })
				if idx < 0 {
					t.Fatalf("no pattern named %q", cv.Pattern)
				}
				if patterns[idx].caseInsensitive == cv.CaseSensitive {
					t.Errorf("pattern %q caseInsensitive=%v, fixture case_sensitive=%v",
						cv.Pattern, patterns[idx].caseInsensitive, cv.CaseSensitive)
				}
				re := refRegexps[idx]
				if !re.MatchString(cv.Correct.value(t)) {
					t.Errorf("pattern %q misses its correct probe", cv.Pattern)
				}
				if re.MatchString(cv.Wrong.value(t)) == cv.CaseSensitive {
					t.Errorf("pattern %q on case-flipped probe: match=%v, case_sensitive=%v",
						cv.Pattern, !cv.CaseSensitive, cv.CaseSensitive)
				}
			})
		}
	})
}

// TestLeakCases runs the credential half of the leak-audit fixture: every
// string of a manifest (except the top-level visibility_policy, which names
// tags such as "password") goes through ContainsSecret, and the flagged
// locations must be exactly the expected credential findings.
func TestLeakCases(t *testing.T) {
	raw, err := os.ReadFile(leakPath)
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Cases []struct {
			Name     string `json:"name"`
			Manifest any    `json:"manifest"`
			Expected []struct {
				Kind     string `json:"kind"`
				Location string `json:"location"`
			} `json:"expected_findings"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	for _, c := range fx.Cases {
		t.Run(c.Name, func(t *testing.T) {
			var want, got []string
			for _, f := range c.Expected {
				if f.Kind == "credential" {
					want = append(want, f.Location)
				}
			}
			if m, ok := c.Manifest.(map[string]any); ok {
				delete(m, "visibility_policy")
				walkStrings(m, "", func(loc, s string) {
					if ContainsSecret(s) {
						got = append(got, loc)
					}
				})
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("credential locations = %q, want %q", got, want)
			}
		})
	}
}

func walkStrings(v any, path string, fn func(loc, s string)) {
	switch v := v.(type) {
	case string:
		fn(path, v)
	case map[string]any:
		for k, x := range v {
			child := k
			if path != "" {
				child = path + "." + k
			}
			walkStrings(x, child, fn)
		}
	case []any:
		for i, x := range v {
			walkStrings(x, fmt.Sprintf("%s[%d]", path, i), fn)
		}
	}
}

func TestWhitespace(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"   ", ""},
		{"\t\n\r\v\f", ""},
		{"already normal", "already normal"},
		{"  lead and trail  ", "lead and trail"},
		{"a  b", "a b"},
		{"a\t\n b", "a b"},
		{"a\r\nb", "a b"},
		{"a\u00a0b\u3000c\u2028d\u2029e\u202fg\u205fh\u1680i\u0085j", "a b c d e g h i j"},
		{"a\u2000\u200ab", "a b"},
		// Python's \s includes the ASCII information separators.
		{"a\x1cb\x1dc\x1ed\x1ff", "a b c d f"},
		// Not whitespace for Python: zero-width space, BOM, U+180E.
		{"a\u200bb\ufeffc\u180ed", "a\u200bb\ufeffc\u180ed"},
		{"\u3000全角\u3000スペース\u3000", "全角 スペース"},
		// Invalid UTF-8 is passed through byte for byte.
		{"a \xff  b", "a \xff b"},
	}
	for _, tc := range tests {
		if got := Text(tc.in, 0); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLinks(t *testing.T) {
	tests := []struct{ in, want string }{
		{"see https://example.com/a?b=c now", "see [link] now"},
		{"http://x.y", "[link]"},
		{"two http://a\thttps://b links", "two [link] [link] links"},
		{"glued:https://example.com,next word", "glued:[link] word"},
		{"httphttps://x", "http[link]"},
		{"xhttp://x", "x[link]"},
		{"https://", "https://"},
		{"http:// spaced", "http:// spaced"},
		{"https:/single", "https:/single"},
		{"httpx://a", "httpx://a"},
		{"ftp://host/file", "ftp://host/file"},
		// The scheme match is case-sensitive.
		{"HTTPS://EXAMPLE.COM", "HTTPS://EXAMPLE.COM"},
		{"Https://example.com", "Https://example.com"},
		{"https://ex\u00a0ample", "[link] ample"},
		{"https://例え.jp/パス end", "[link] end"},
	}
	for _, tc := range tests {
		if got := Text(tc.in, 0); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  string
	}{
		{"abcdefghij", 10, "abcdefghij"},
		{"abcdefghijk", 10, "abcdefg..."},
		{"abcdef ghijkl", 10, "abcdef..."},
		{"abcde   fghijkl", 10, "abcde f..."}, // collapsed first
		{"abcdefghijk", 0, "abcdefghijk"},
		{"abcdefghijk", -5, "abcdefghijk"},
		{"abcd", 3, "..."},
		{"abcd", 2, ".."},
		{"abcd", 1, "."},
		{"abc", 3, "abc"},
		// Limits count runes, not bytes.
		{"éééé", 4, "éééé"},
		{"ééééé", 4, "é..."},
		{"日本語のテキストです", 10, "日本語のテキストです"},
		{"日本語のテキストですね", 10, "日本語のテキス..."},
		{"🙂🙂🙂🙂🙂🙂", 5, "🙂🙂..."},
		{"e\u0301e\u0301e\u0301", 5, "e\u0301..."},
		// Links are replaced before truncation.
		{"https://example.com/very/long/path/that/goes/on", 6, "[link]"},
		{"go https://example.com/x today", 12, "go [link]..."},
	}
	for _, tc := range tests {
		got := Text(tc.in, tc.limit)
		if got != tc.want {
			t.Errorf("Text(%q, %d) = %q, want %q", tc.in, tc.limit, got, tc.want)
		}
	}
	// The sentinel is never truncated (reference behaviour).
	if got := Text("my password", 5); got != Sentinel {
		t.Errorf("short-limit secret: got %q", got)
	}
}

func TestSecrets(t *testing.T) {
	tests := []struct {
		in     string
		secret bool
	}{
		{"The API is fast", false},
		{"api key", false}, // a space is not an allowed separator
		{"apikey", true},
		{"API-KEYS rotated", true},
		{"my_api_key", false}, // '_' is a word character: no boundary
		{"see access_token", true},
		{"access control", false},
		{"refresh-tokens", true},
		{"Bearer\u3000Token", true},
		{"bearer\x1ctoken", true},
		{"bearer tokens", false},
		{"Service-Role", true},
		{"client secret", false},
		{"clientsecret", true},
		{"passwd", true},
		{"passwords", false},
		{"Stripe Key", true},
		{"stripe keys", false},
		{"ssh-key", true},
		{"private key", false},
		{"keystore", true},
		{"config/.env", true},
		{"process.env.HOME", true},
		{".environment", false},
		{"env file", false},
		{"sk_live_", false},
		{"pk_test_abcdefgh", true},
		{"rk_live_abcdefg", false}, // 7 chars, needs 8
		{"xsk_live_abcdefgh", false},
		{"AKIA123456789012345", false}, // 15 chars
		{"ASIA" + "ABCDEFGHIJKLMNOP", true},
		{"gho_" + strings.Repeat("a", 36), true},
		{"ghp_" + strings.Repeat("a", 35), false},
		{"slack xoxp-1234567890", true},
		{"sk-" + strings.Repeat("-", 20), false}, // no word char before the end
		{"sk-" + strings.Repeat("-", 20) + "a", true},
		{"AIza" + strings.Repeat("b", 35) + "c", false}, // exactly 35
		{"npm_" + strings.Repeat("n", 37), false},       // exactly 36
		{"-----BEGIN PRIVATE KEY-----", true},
		{"-----BEGIN ENCRYPTED PRIVATE KEY-----", true},
		{"-----BEGIN PUBLIC KEY-----", false},
		{"task-management and disk-usage", false},
		{"risk-assessment", false},

		// Python's \b is Unicode-aware: letters on either side block it.
		{"éapi_key", false},
		{"api_keyé", false},
		{"日本api_key", false},
		{"→api_key←", true},
		{"«password»", true},
		{"passwordٓ", true},  // U+0653 is a combining mark (Mn): not a word character
		{"password١", false}, // Arabic-Indic digit is \w
		// A trailing \b after '-' needs a following word character; a
		// non-ASCII letter counts.
		{"glpat-" + strings.Repeat("c", 19) + "-é", true},
		{"glpat-" + strings.Repeat("c", 19) + "-!", false},
		{"ya29." + strings.Repeat("g", 19) + "-日", true},
		// IGNORECASE equivalences Python applies beyond ASCII.
		{"apı_key", true},
		{"APİ_KEY", true},
		{"ſtripe secret", true},
		{"\u212aeystore", true},
		{"hf_" + strings.Repeat("ı", 10), true},
		{"appl_" + strings.Repeat("\u212a", 10), true},
		{"sk_live_" + strings.Repeat("ı", 8), false}, // case-sensitive class
		// Invalid UTF-8 neighbours behave like non-word characters.
		{"\xffpassword\xfe", true},
	}
	for _, tc := range tests {
		if got := ContainsSecret(tc.in); got != tc.secret {
			t.Errorf("ContainsSecret(%q) = %v, want %v", tc.in, got, tc.secret)
		}
		if got := slowContainsSecret(tc.in); got != tc.secret || anyFound(tc.in, referenceMask) != tc.secret {
			t.Errorf("slowContainsSecret(%q) = %v, want %v", tc.in, got, tc.secret)
		}
		want := tc.in
		if tc.secret {
			want = Sentinel
		}
		if got := Text(tc.in, 0); got != want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, want)
		}
	}
}

// TestCollapseBeforeMatch: Text matches on the collapsed value, while
// ContainsSecret (like the reference's contains_secret) sees the raw one.
func TestCollapseBeforeMatch(t *testing.T) {
	in := "-----BEGIN RSA\nPRIVATE   KEY-----"
	if ContainsSecret(in) {
		t.Errorf("ContainsSecret(%q) = true, want false", in)
	}
	if got := Text(in, 0); got != Sentinel {
		t.Errorf("Text(%q) = %q, want sentinel", in, got)
	}
}

func TestPatternTable(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range patterns {
		if p.name == "" || seen[p.name] {
			t.Errorf("empty or duplicate pattern name %q", p.name)
		}
		seen[p.name] = true
		if p.leadBoundary != strings.HasPrefix(p.python, `\b`) {
			t.Errorf("%s: leadBoundary=%v but python=%q", p.name, p.leadBoundary, p.python)
		}
	}
	if len(patterns) != 26 {
		t.Errorf("battery has %d patterns, reference has 26", len(patterns))
	}
	for _, p := range superset {
		if p.name == "" || seen[p.name] || p.shape == "" {
			t.Errorf("empty or duplicate superset pattern name %q, or no shape", p.name)
		}
		seen[p.name] = true
	}
}

// refRegexps are the unanchored, self-contained per-pattern expressions:
// the straightforward (slow) implementation the scanner must agree with.
var refRegexps = func() (res [numReference]*regexp.Regexp) {
	for i, p := range patterns {
		res[i] = regexp.MustCompile(selfContained(p))
	}
	return res
}()

// selfContained returns an RE2 expression equivalent to p.python for the
// question "is there a match anywhere": the body, after a start or a
// non-word character where the reference has a leading \b.
func selfContained(p pattern) string {
	if p.leadBoundary {
		return `(?:^|` + nonWordClass + `)(?:` + p.body + `)`
	}
	return p.body
}

// slowContainsSecret runs every pattern of the reference's battery
// without the scanner.
func slowContainsSecret(s string) bool {
	for _, re := range refRegexps {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

func FuzzText(f *testing.F) {
	b := loadBattery(f)
	for _, p := range append(slices.Clone(b.Secrets), b.Benign...) {
		v := strings.Join(p.Fragments, "")
		if p.Text != nil {
			v = *p.Text
		}
		f.Add(v, 180)
		f.Add("x "+v+" y", 12)
	}
	for _, s := range []string{
		"", " ", "see https://example.com now", ".env[x]", "config.envhttps://x",
		"日本語 テキスト\u3000です", "a\x1cb", "\xff\xfe", "apı_key", "glpat-" + strings.Repeat("-", 25) + "é",
	} {
		f.Add(s, 7)
		f.Add(s, 0)
		f.Add(s, 2)
	}
	f.Fuzz(func(t *testing.T, in string, limit int) {
		out := Text(in, limit)
		if utf8.ValidString(in) && !utf8.ValidString(out) {
			t.Fatalf("Text(%q, %d) = %q: invalid UTF-8", in, limit, out)
		}
		if limit > 0 && out != Sentinel && utf8.RuneCountInString(out) > limit {
			t.Fatalf("Text(%q, %d) = %q: longer than limit", in, limit, out)
		}
		if out != collapseSpace(out) {
			t.Fatalf("Text(%q, %d) = %q: whitespace not collapsed", in, limit, out)
		}
		// The scanner must agree with the plain regexps (which are slow, so
		// only on short inputs, to keep the fuzzer's minimisation quick).
		if len(in) <= 256 && anyFound(in, referenceMask) != slowContainsSecret(in) {
			t.Fatalf("the reference's battery on %q = %v disagrees with the plain regexps", in, !slowContainsSecret(in))
		}
		c := collapseSpace(in)
		if (out == Sentinel) != ContainsSecret(c) && c != Sentinel {
			t.Fatalf("Text(%q) = %q but ContainsSecret(collapsed) = %v", in, out, ContainsSecret(c))
		}
		truncated := limit > 0 && utf8.RuneCountInString(replaceLinks(c)) > limit
		if out != Sentinel && !truncated {
			// Idempotent, except that a "[link]" next to a keyword can
			// complete a pattern (".envhttps://x" -> ".env[link]"), which the
			// reference redacts on a second pass too.
			again := Text(out, limit)
			if again != out && !(again == Sentinel && strings.Contains(out, linkText)) {
				t.Fatalf("Text(Text(%q)) = %q, want %q", in, again, out)
			}
		}
	})
}

func BenchmarkText(b *testing.B) {
	// 80 characters, no secret, no link: the common case.
	const s = "Refactored the L6 store so federation reads stay fast under heavy agent traffic."
	if len(s) != 80 {
		b.Fatalf("benchmark sentence has %d chars", len(s))
	}
	b.ReportAllocs()
	for b.Loop() {
		if Text(s, defaultLimit) != s {
			b.Fatal("benign sentence changed")
		}
	}
}

func BenchmarkTextSecret(b *testing.B) {
	const s = "Rotated the stripe secret and moved the keystore password into the vault today."
	b.ReportAllocs()
	for b.Loop() {
		if Text(s, defaultLimit) != Sentinel {
			b.Fatal("secret not redacted")
		}
	}
}

// anyFound is containsAny's first answer: whether a pattern of enabled
// matches s.
func anyFound(s string, enabled uint64) bool {
	found, _ := containsAny(s, enabled)
	return found
}
