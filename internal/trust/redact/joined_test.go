package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestJoinedCredentials checks the joined_credential pattern: a token cut
// into string literals joined by +, or broken at a line's end, is cut out
// whole and flags a field; pieces that make no credential together, and
// text that merely has + signs or line breaks, are left alone.
func TestJoinedCredentials(t *testing.T) {
	ghp := "ghp_" + strings.Repeat("aB3xY9", 6)
	anthropic := "sk-ant-api03-" + strings.Repeat("Zx8_Qw-7", 12) + "AA"
	secrets := []struct{ name, text string }{
		{"two literals", `token := "` + ghp[:10] + `" + "` + ghp[10:] + `"`},
		{"three literals over lines", "const key = '" + anthropic[:13] + "' +\n  '" + anthropic[13:60] + "' +\n  '" + anthropic[60:] + "';"},
		{"backquotes", "k := `" + ghp[:20] + "` + `" + ghp[20:] + "`"},
		{"a token broken at a line's end", "PAT, split:\n" + ghp[:22] + "\n" + ghp[22:] + "\nend"},
		{"CRLF", "PAT:\r\n" + ghp[:25] + "\r\n" + ghp[25:]},
	}
	for _, c := range secrets {
		if !Flagged(c.text) {
			t.Errorf("%s: %q is not flagged", c.name, c.text)
		}
		got := Span(c.text)
		if !strings.Contains(got, Sentinel) || strings.Contains(got, ghp[len(ghp)-8:]) || strings.Contains(got, anthropic[30:40]) {
			t.Errorf("%s: Span(%q) = %q, want every piece cut out", c.name, c.text, got)
		}
		if again := Span(got); again != got {
			t.Errorf("%s: Span is not idempotent: %q, then %q", c.name, got, again)
		}
	}
	benign := []string{
		`msg := "hello, " + name + "!"`,
		`url := "https://api.example.com/" + "v1/" + "users"`,
		`s := "abcdefghij" + "klmnopqrst" + "uvwxyz0123"`,
		"x = a + b + c; y = \"a\" + 'b'",
		"--- a/main.go\n+++ b/main.go\n+func main() {}\n+\tfmt.Println(\"hi\")",
		"the value of\nghp_ is a GitHub prefix\nand nothing more",
		"internal/recall/deeper/testdata\nmemoryset/long_dev.txt holds the dialogues",
		"3f786850e387550fdab836ed7e6dc881\nde23001b3f786850e387550fdab836ed",
		// Large inputs made of the pieces looked at (each is read in
		// time linear in its size).
		strings.Repeat(`"ab" + `, 1<<14) + `"c"`,
		`"` + strings.Repeat("x", 1<<20) + `" + "y"`,
		strings.Repeat("abcdefghijkl\n", 1<<14),
	}
	for _, in := range benign {
		if got := Span(in); got != in {
			t.Errorf("Span(%q) = %q, want it unchanged", in, got)
		}
		if Flagged(in) {
			t.Errorf("%q is flagged", in)
		}
	}
	// A literal that is a token by itself is cut out by the pattern that
	// sees it, not with its neighbours.
	in := `t := "` + ghp + `" + "/suffix"`
	if got, want := Span(in), `t := "`+Sentinel+`" + "/suffix"`; got != want {
		t.Errorf("Span(%q) = %q, want %q", in, got, want)
	}
}

// TestCodeLiterals: chains joined by other operators, a literal continued
// over lines, a secret-named argument, SQL's passwords, name/value
// entries and typed declarations; and their near misses.
func TestCodeLiterals(t *testing.T) {
	ghp := "ghp_" + strings.Repeat("aB3xY9", 6)
	pw := "Xy7-kkQ2-pLm9!"
	for name, text := range map[string]string{
		"PHP .":           `$k = '` + ghp[:10] + `' . '` + ghp[10:] + `';`,
		"SQL ||":          `SET v = '` + ghp[:12] + `' || '` + ghp[12:] + `'`,
		"array join":      `[` + `"` + ghp[:8] + `", "` + ghp[8:20] + `", "` + ghp[20:] + `"].join("")`,
		"adjacent":        `K = ("` + ghp[:15] + `"` + "\n    " + `"` + ghp[15:] + `")`,
		"shell quotes":    `T="` + ghp[:9] + `"'` + ghp[9:] + `'`,
		"continued":       "note: \"" + ghp[:20] + "\\\n  " + ghp[20:] + "\"",
		"define":          `define( 'DB_PASSWORD', '` + pw + `' );`,
		"setProperty":     `System.setProperty("javax.net.ssl.keyStorePassword", "` + pw + `");`,
		"IDENTIFIED BY":   `CREATE USER 'app'@'%' IDENTIFIED BY '` + pw + `';`,
		"WITH PASSWORD":   `ALTER ROLE reporting WITH LOGIN PASSWORD '` + pw + `';`,
		"k8s env":         "env:\n  - name: DB_HOST\n    value: db\n  - name: DB_PASSWORD\n    value: \"" + pw + "\"\n",
		"ECS":             `[{"name": "AWS_SECRET_ACCESS_KEY", "value": "` + pw + `"}]`,
		"Rust typed":      `const DB_PASSWORD: &str = "` + pw + `";`,
		"Kotlin typed":    `val apiToken: String = "` + pw + `"`,
		"TypeScript type": `const clientSecret: string = "` + pw + `";`,
	} {
		if !Flagged(text) {
			t.Errorf("%s: %q is not flagged", name, text)
		}
		if got := Span(text); strings.Contains(got, pw) || strings.Contains(got, ghp[len(ghp)-8:]) || !strings.Contains(got, Sentinel) {
			t.Errorf("%s: Span(%q) = %q", name, text, got)
		}
	}
	for _, text := range []string{
		`define( 'DB_NAME', 'wordpress' );`,
		"Each item is `pass`, `fail`, `n/a`, or `waived`.",
		`setProperty("password.policy", "strict")`,
		"a user identified by 'John Smith' in the log",
		"env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef: {name: db, key: password}\n  - name: DB_HOST\n    value: db.internal\n",
		`{"name": "token_count", "value": "12345678"}`,
		`let passwordLength: Int = 12`,
		`$greeting = 'Hello, ' . $name . '!';`,
		`SELECT first || ' ' || last FROM people`,
	} {
		if got := Span(text); got != text {
			t.Errorf("Span(%q) = %q, want it unchanged", text, got)
		}
	}
}

// TestIndexOf3 checks the eight-byte scan against strings.IndexAny.
func TestIndexOf3(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	alphabet := "ab\"'`%&\\ \x80\xff"
	for range 5000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
			if r.IntN(3) > 0 {
				b[i] = 'a' + byte(r.IntN(26))
			}
		}
		s := string(b)
		if got, want := indexOf3(s, '"', '\'', '`'), strings.IndexAny(s, "\"'`"); got != want {
			t.Fatalf("indexOf3(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestBasicAuthPairs: a user and password pair of literals handed to an
// HTTP client as its basic-auth credentials loses its password; pairs
// that are no such credentials, and passwords that are no literal value,
// are left alone.
func TestBasicAuthPairs(t *testing.T) {
	pw := "Xy7-kkQ2-pLm9!"
	for name, text := range map[string]string{
		"requests tuple":    `r = requests.get(url, auth=("admin", "` + pw + `"), timeout=10)`,
		"httpx, no blanks":  `httpx.get(url, auth=('admin','` + pw + `'))`,
		"spaced =":          `session.auth = ("ci", "` + pw + `")`,
		"dict key auth":     `kwargs = {"auth": ("ci", "` + pw + `")}`,
		"HTTPBasicAuth":     `auth = HTTPBasicAuth('user', '` + pw + `')`,
		"HTTPDigestAuth":    `auth = HTTPDigestAuth("user", "` + pw + `")`,
		"aiohttp.BasicAuth": `auth = aiohttp.BasicAuth('user', '` + pw + `')`,
		"Go SetBasicAuth":   `req.SetBasicAuth("svc", "` + pw + `")`,
		"short password":    `requests.get(u, auth=("admin", "hunter2"))`,
	} {
		if !Flagged(text) {
			t.Errorf("%s: %q is not flagged", name, text)
		}
		want := strings.Replace(text, pw, Sentinel, 1)
		if name == "short password" {
			want = strings.Replace(text, "hunter2", Sentinel, 1)
		}
		if got := Span(text); got != want {
			t.Errorf("%s: Span(%q) = %q, want %q", name, text, got, want)
		}
	}
	for _, text := range []string{
		`requests.get(url, auth=(user, password))`,
		`requests.get(url, auth=("admin", os.environ["PW"]))`,
		`requests.get(url, auth=("admin", "<password>"))`,
		`requests.get(url, auth=("admin", "PASSWORD"))`,
		`requests.get(url, auth=("admin", "${PW}"))`,
		`requests.get(url, auth=("admin", ""))`,
		`requests.get(url, auth=("admin", "****"))`,
		`oauth=("client", "Xy7kkQ2pLm9")`,
		`headers=("Accept", "application/json")`,
		`print("user", "Xy7kkQ2pLm9")`,
		`auth=("a", "b", "c")`,
		`HTTPBasicAuth("user", "two words here")`,
	} {
		if got := Span(text); got != text {
			t.Errorf("Span(%q) = %q, want it unchanged", text, got)
		}
	}
}

// spell writes t with sep between every two of its characters.
func spell(t, sep string) string { return strings.Join(strings.Split(t, ""), sep) }

// TestSpacedTokens: a token spelt out, one separator between every two
// of its characters, is cut out whole; runs of single characters that
// join to no credential, and short ones, are left alone.
func TestSpacedTokens(t *testing.T) {
	ghp := "ghp_" + strings.Repeat("aB3xY9", 6)
	xoxb := "xoxb-123456789012-1234567890123-" + strings.Repeat("aBcD", 6)
	for name, text := range map[string]string{
		"blanks":             "slack bot (spaced out): " + spell(xoxb, " "),
		"dashes":             "token: " + spell(ghp, "-") + " end",
		"dots":               spell(ghp, "."),
		"in parentheses":     "(" + spell(ghp, " ") + ")",
		"after a word":       "pat " + spell(ghp, " ") + ".",
		"in a longer string": "first line\nthe PAT, spelt out so no scanner sees it: " + spell(ghp, " ") + "\nthanks",
	} {
		if !Flagged(text) {
			t.Errorf("%s: %q is not flagged", name, text)
		}
		got := Span(text)
		if !strings.Contains(got, Sentinel) || strings.Contains(got, spell(ghp[len(ghp)-6:], " ")) ||
			strings.Contains(got, spell(ghp[len(ghp)-6:], "-")) || strings.Contains(got, spell(ghp[len(ghp)-6:], ".")) ||
			strings.Contains(got, spell(xoxb[len(xoxb)-6:], " ")) {
			t.Errorf("%s: Span(%q) = %q, want the run cut out", name, text, got)
		}
		if strings.Contains(text, "spelt out so") && !strings.HasPrefix(got, "first line\nthe PAT, spelt out so no scanner sees it: ") {
			t.Errorf("%s: Span(%q) = %q, want the words before the run kept", name, text, got)
		}
	}
	for _, text := range []string{
		"hello w o r l d a b c d e f g h i j k l m n o p",
		strings.Repeat("- ", 40),
		strings.Repeat(". ", 40),
		"1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0",
		"a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z",
		"U.S.A. and the E.U. and the U.K. and the U.N. and N.A.T.O.",
		spell("ghp_"+strings.Repeat("aB3", 3), " "), // too short to be a token
		spell("the quick brown fox jumps over", " "),
		strings.Repeat("x y ", 1<<14),
	} {
		if got := Span(text); got != text {
			t.Errorf("Span(%q) = %q, want it unchanged", text, got)
		}
		if Flagged(text) {
			t.Errorf("%q is flagged", text)
		}
	}
}
