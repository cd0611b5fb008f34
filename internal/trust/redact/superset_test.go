package redact

import (
	"encoding/base64"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/demo"
)

// S is the sentinel, short.
const S = Sentinel

// Credentials are built from pieces so that no token literal is committed.
var (
	awsKey   = "wJalrXUtnFEMI/K7MDENG" + "/bPxRfiCYEXAMPLEKEY"
	bdnTok   = "bdn_" + strings.Repeat("0123456789abcdef", 3)
	basicVal = base64.StdEncoding.EncodeToString([]byte("deploy:s3cr3t-pw"))
	azureKey = strings.Repeat("Q2hhbmdlTWVQbGVhc2U0", 4) + "Zm9vYmFy=="
	pemLine  = "MIIEowIBAAKCAQEA7bq" + strings.Repeat("Xy9Zk3", 4) + "abcdefghijklmnopqrstu"
	// A private key and a certificate, each a PEM block in base64 on one
	// line (longer than an assignment's value is read).
	b64Key  = base64.StdEncoding.EncodeToString([]byte("-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat(pemLine+"\n", 12) + "-----END RSA PRIVATE KEY-----\n"))
	b64Cert = base64.StdEncoding.EncodeToString([]byte("-----BEGIN CERTIFICATE-----\n" + strings.Repeat(pemLine+"\n", 12) + "-----END CERTIFICATE-----\n"))
)

// TestSupersetCatches: each credential shape of the superset is caught by
// Secret (the whole value) and by Span (the credential only). Each of these
// left the server before the superset.
func TestSupersetCatches(t *testing.T) {
	if len(pemLine) != 64 {
		t.Fatalf("pemLine has %d characters", len(pemLine))
	}
	tests := []struct{ in, span string }{
		// A password in a URL, any scheme.
		{"db at postgres://app:" + "s3cr3t@db.internal:5432/app today", "db at postgres://app:" + S + "@db.internal:5432/app today"},
		{"mongodb+srv://u:" + "p%40ss@cluster0.example.net/db", "mongodb+srv://u:" + S + "@cluster0.example.net/db"},
		{"redis://:" + "hunter2@cache:6379", "redis://:" + S + "@cache:6379"},
		{"https://bob:" + "tr0ub4dor@git.example.com/x.git", "https://bob:" + S + "@git.example.com/x.git"},
		// Opaque Bearer and Basic values.
		{"Authorization: Bearer " + "abcDEF1234567890xyz", "Authorization: Bearer " + S},
		{"curl -H 'Authorization: bearer " + "9f8e7d6c5b4a39281706abcdef' x", "curl -H 'Authorization: bearer " + S + "' x"},
		{"Authorization: Basic " + basicVal, "Authorization: Basic " + S},
		// This server's member tokens.
		{"token " + bdnTok + " issued", "token " + S + " issued"},
		// AWS secret access keys next to their name.
		{"aws configure set aws_secret_access_key " + awsKey, "aws configure set aws_secret_access_key " + S},
		{`"SecretAccessKey": "` + awsKey + `"`, `"SecretAccessKey": "` + S + `"`},
		{"AWS_SECRET=" + awsKey, "AWS_SECRET=" + S},
		// Assignments to secret-named variables and keys.
		{"DB_PASSWORD=" + "hunter2 ./run", "DB_PASSWORD=" + S + " ./run"},
		{"PGPASSWORD=" + "s3cret psql -h db", "PGPASSWORD=" + S + " psql -h db"},
		{`{"client_secret": "` + `abcd1234"}`, `{"client_secret": "` + S + `"}`},
		{"GITHUB_TOKEN: " + "abc123def", "GITHUB_TOKEN: " + S},
		{"X-API-Key: " + "0123456789abcdef", "X-API-Key: " + S},
		{"export SLACK_SIGNING_SECRET='" + "e1f2a3b4c5'", "export SLACK_SIGNING_SECRET='" + S + "'"},
		{"password: " + "hunter2hunter2", "password: " + S},
		{"db.password=" + "changeme", "db.password=" + S},
		{"DB_PW=" + "hunter22x ./run", "DB_PW=" + S + " ./run"},
		{"my pw: " + "Tr0ub4dor3 for now", "my pw: " + S + " for now"},
		{"GPG_PASSPHRASE='" + "blue horse battery'", "GPG_PASSPHRASE='" + S + "'"},
		// A two-word name before the operator, read as one.
		{"deployer private key: 0x" + "4c0883a69102937d6231471b5dbb6204fe512961708279f0", "deployer private key: " + S},
		{"Secret key = " + "wJalrXUtnFEMI/K7MDENG", "Secret key = " + S},
		// Said in words.
		{"the api key is " + "8f14e45fceea167a5a36dedd4bea2543, rotate it", "the api key is " + S + ", rotate it"},
		{"My passphrase is '" + "blue horse battery' for now", "My passphrase is '" + S + "' for now"},
		{"the staging DB password is " + "Winter2026!.", "the staging DB password is " + S + "."},
		{"access token is " + "xyz98765abc", "access token is " + S},
		{"--db-password=" + "Xy12", "--db-password=" + S},
		{"authToken := \"" + "v4lue\"", "authToken := \"" + S + "\""},
		{"https://api.example.com/v1?token=" + "abc123&page=2", "https://api.example.com/v1?token=" + S + "&page=2"},
		// Azure connection strings and SAS signatures.
		{"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + azureKey + ";EndpointSuffix=core.windows.net",
			"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + S + ";EndpointSuffix=core.windows.net"},
		{"Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=" + "abcDEF123456+/=",
			"Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=" + S},
		{"BlobEndpoint=https://a.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&sig=" + "Zm9vYmFyYmF6cXV4MTIz%3D",
			"BlobEndpoint=https://a.blob.core.windows.net/;SharedAccessSignature=" + S},
		{"https://a.blob.core.windows.net/c/b?sv=2022-11-02&ss=b&sig=" + "Zm9vYmFyYmF6cXV4MTIzNDU2%2BYQ%3D&se=1",
			"https://a.blob.core.windows.net/c/b?sv=2022-11-02&ss=b&sig=" + S + "&se=1"},
		// PEM bodies without their BEGIN line: the full lines, the last one
		// and the END line.
		{"key:\n" + pemLine + "\n" + pemLine + "\nAbCd12==\n-----END RSA PRIVATE KEY-----\nthen prose", "key:\n" + S + "\nthen prose"},
		{"pasted " + pemLine + " by mistake", "pasted " + S + " by mistake"},
		// Quoted by %q or JSON, the lines are joined by escaped newlines.
		{`unknown uid "` + pemLine + `\n` + pemLine + `\nQk3=". Closest: x`, `unknown uid "` + S + `". Closest: x`},
		// At the end of a URI's path.
		{"agent-library://entities/" + pemLine + "\n" + pemLine, "agent-library://entities/" + S},
		// A schema error names a field by a JSON Pointer.
		{"- /postgres:~1~1app:" + "pw4Leak@db~1app: not a field", "- /postgres:~1~1app:" + S + "@db~1app: not a field"},
		{"- /DB_PASSWORD=" + "Qx8Leak: not a field", "- /DB_PASSWORD=" + S + ": not a field"},
		// On a command line.
		{"curl -u admin:" + "Passw0rd123 https://api.example.com", "curl -u admin:" + S + " https://api.example.com"},
		{"curl --user deploy:" + "s3cr3t-pw -X POST", "curl --user deploy:" + S + " -X POST"},
		{"run --password " + "Sup3rS3cret --verbose", "run --password " + S + " --verbose"},
		{"gh auth --api-key '" + "k3y-v4lue'", "gh auth --api-key '" + S + "'"},
		{"gpg --passphrase \"" + "blue horse battery\" -d x", "gpg --passphrase \"" + S + "\" -d x"},
		{"`login --token=" + "abc123def`", "`login --token=" + S + "`"},
		{"sshpass -p " + "Sup3rS3cret ssh deploy@host", "sshpass -p " + S + " ssh deploy@host"},
		{"sudo mysql -u root -p" + "Sup3rS3cret shop", "sudo mysql -u root -p" + S + " shop"},
		{"ldapsearch -x -D cn=admin -w " + "Sup3rS3cret -b dc=x", "ldapsearch -x -D cn=admin -w " + S + " -b dc=x"},
		{"echo x | docker login -u bot -p " + "Sup3rS3cret ghcr.io", "echo x | docker login -u bot -p " + S + " ghcr.io"},
		{`$pw = ConvertTo-SecureString "` + `Sup3rS3cret" -AsPlainText -Force`, `$pw = ConvertTo-SecureString "` + S + `" -AsPlainText -Force`},
		// Configuration files without '=' or ':'.
		{"<server><password>" + "Sup3rS3cret</password></server>", "<server><password>" + S + "</password></server>"},
		{`<add key="PaymentApiSecret" value="` + `Sup3rS3cret"/>`, `<add key="PaymentApiSecret" value="` + S + `"/>`},
		{"bind 0.0.0.0\nrequirepass " + "Sup3rS3cret\n", "bind 0.0.0.0\nrequirepass " + S + "\n"},
		{"variable \"db_password\" {\n  type    = string\n  default = \"" + "Sup3rS3cret\"\n}", "variable \"db_password\" {\n  type    = string\n  default = \"" + S + "\"\n}"},
		{`variable "api_token" { default = "` + `abc123def456" }`, `variable "api_token" { default = "` + S + `" }`},
		{"machine api.example.com login bot password " + "Sup3rS3cret", "machine api.example.com login bot password " + S},
		// Cookie headers.
		{"Cookie: theme=dark; sessionid=" + "0123456789abcdef", "Cookie: " + S},
		// Payment card numbers (Luhn-valid, an issuer's prefix).
		{"card 4111 1111 " + "1111 1111 exp 12/27", "card " + S + " exp 12/27"},
		{"amex 3782-822463-" + "10005 ok", "amex " + S + " ok"},
		{"paid with 55555555" + "55554444.", "paid with " + S + "."},
		// An AWS key id with its secret pasted after it: both go.
		{"AKIA" + "IOSFODNN7EXAMPLE," + awsKey + " end", S + " end"},
		// Authorization headers of any scheme, webhook URLs, bot tokens.
		{"Authorization: token " + "ghx0123456789abcdefXYZ now", "Authorization: token " + S + " now"},
		{`{"Authorization": "SSWS ` + "00aBcDeFgHiJkLmNoPqRsTuVwXyZ012345" + `"}`, `{"Authorization": "SSWS ` + S + `"}`},
		{"post to https://hooks.slack.com/services/" + "T0ABCDEFG/B0ABCDEFG/aBcDeFgHiJkLmNoPqRsTuVwX ok", "post to https://hooks.slack.com/services/" + S + " ok"},
		{"https://discord.com/api/webhooks/" + "123456789012345678/aBcDeFgHiJkLmNoPqRsTuVwXyZ-0123456789", "https://discord.com/api/webhooks/" + S},
		{"https://acme.webhook.office.com/webhookb2/" + "0a1b2c3d-e4f5@0a1b2c3d/IncomingWebhook/0a1b2c3d/0a1b2c3d", "https://acme.webhook.office.com/webhookb2/" + S},
		{"bot " + "123456789:AAH" + "dqTcvCH1vGWJxfSeofSAs0K5PALDsaw done", "bot " + S + " done"},
		// A private key in base64 on one line, whole.
		{"client-key-data " + b64Key, "client-key-data " + S},
		// A DSN's password without a scheme; a connection string's PWD.
		{`dsn := "app:` + "pa55w0rd@tcp(db:3306)/shop" + `"`, `dsn := "app:` + S + `@tcp(db:3306)/shop"`},
		{"Driver={ODBC};Server=db;UID=app;PWD=" + "s3cretPw;", "Driver={ODBC};Server=db;UID=app;PWD=" + S + ";"},
		// A whole PEM block with its BEGIN line goes as one.
		{"-----BEGIN " + "OPENSSH PRIVATE KEY-----\n" + pemLine + "\nAAAA1+\n-----END OPENSSH PRIVATE KEY-----\nok", S + "\nok"},
	}
	for _, tc := range tests {
		if got := Secret(tc.in); got != S {
			t.Errorf("Secret(%q) = %q, want the sentinel", tc.in, got)
		}
		if !ContainsSecret(tc.in) {
			t.Errorf("ContainsSecret(%q) = false", tc.in)
		}
		if got := Span(tc.in); got != tc.span {
			t.Errorf("Span(%q)\n = %q\nwant %q", tc.in, got, tc.span)
		}
		if got := Span(Span(tc.in)); got != tc.span {
			t.Errorf("Span is not idempotent on %q: %q", tc.in, got)
		}
	}
}

// TestSupersetLeavesAlone: near misses of the superset stay as they are,
// whatever the kind of surface.
func TestSupersetLeavesAlone(t *testing.T) {
	for _, in := range []string{
		"variable \"region\" {\n  default = \"eu-west-1\"\n}",
		"variable \"db_password\" {\n  sensitive = true\n}\nvariable \"region\" {\n  default = \"eu-west-1\"\n}",
		"myvariable \"db_password\" { default = \"Sup3rS3cret\" }",
		"default = \"Sup3rS3cret\"",
		"https://example.com:8080/path",
		"ssh://git@github.com:22/org/repo",
		"https://host:8080/users/@me",
		"postgres://user@host/db",
		"postgres://user:<pw>@host",
		"postgres://user:${PGPW}@host",
		"cog-secrets://vault/path",
		"Authorization: Bearer <token>",
		"Authorization: Bearer $TOKEN",
		"uses Bearer authentication",
		"Bearer YOUR_ACCESS_TOKEN_HERE",
		"Basic familiarity with Go",
		"Basic authenticationscheme",
		"bdn_" + strings.Repeat("a", 47),
		"the aws_secret_access_key is read from the environment",
		"tokenBudget: 2000",
		"max_tokens=100",
		"MASSAR_AGENT_TOKEN=<device-secret>",
		"MASSAR_AGENT_TOKEN=dev massar-agent &",
		"secret_name: db-creds",
		"secrets: inherit",
		"primary_key: id",
		"Token: each request carries one",
		"if token == expected {",
		"const token = await getToken()",
		"TOKEN=$(cat /run/token)",
		"GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
		"token: null",
		"sig=short&x=1",
		"2026-06-29T12:00:00+00:00",
		"contentHash " + strings.Repeat("0123456789abcdef", 4),
		strings.Repeat("0123456789ABCDEF", 4),
		"the monkey: loud",
		"public key: ssh-ed25519", "the API key: see the docs", "primary key: id",
		"snpw: value1234", "PWD=/home/me", "mpw: words",
		"the token is valid for 10 minutes", "the secret is stored in the vault", "the key is 12345678ab",
		"the api key is 'required'", "this token is short", "the token is everywhere today", "Isotopes is 12345678ab", "the secretary is 12345678ab",
		"see https://example.com/a?b=c now",
		"curl -u admin https://x", "curl -u $USER:$PASS https://x", "curl -u me: x",
		"--token <token>", "--token $TOKEN", "--token YOUR_TOKEN",
		"--passes 1234", "--token-file /run/secrets/t", "a well-known -u flag", "git log --author=someone",
		"4111 1111 1111 1112", "order 1234567890123456", "timestamp 1733561234567", "v4111111111111111",
		"4111111111111111x", "ISBN 978-3-16-148410-0", "4111-1111 1111-1111",
	} {
		if got := Secret(in); got != in {
			t.Errorf("Secret(%q) = %q, want it unchanged", in, got)
		}
		if got := Span(in); got != in {
			t.Errorf("Span(%q) = %q, want it unchanged", in, got)
		}
	}
}

// TestProseLeavesNearMissesOfKeywords: near misses of the command-line
// and AWS pair shapes that hold one of the reference's keywords or an
// AWS key id: a field goes whole (as in the reference), prose keeps
// everything that is not a credential.
func TestProseLeavesNearMissesOfKeywords(t *testing.T) {
	for in, want := range map[string]string{
		"mysql --password":    "mysql --password",
		"--password PASSWORD": "--password PASSWORD",
		"--password -x":       "--password -x",
		"AKIA" + "IOSFODNN7EXAMPLE is the example id": S + " is the example id",
		"AKIA" + "IOSFODNN7EXAMPLE, " + awsKey + "x":  S + ", " + awsKey + "x",
	} {
		if got := Span(in); got != want {
			t.Errorf("Span(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestProseKeepsKeywordMentions is the over-matching rule: the reference's
// keyword-shaped patterns make a field a credential as a whole, but in
// prose only a value is a credential.
func TestProseKeepsKeywordMentions(t *testing.T) {
	for _, in := range []string{
		"Never print /etc/passwd in a log.\n\nThe rest of the page is about logging.",
		"../../etc/passwd",
		"Pass the api_key parameter from your .env file.",
		"Rotate the service_role key and the stripe secret quarterly.",
		"the keystore password lives in the vault",
		"uses a bearer token to authenticate",
		"-----BEGIN PUBLIC KEY-----",
		"password = cfg.Password",
	} {
		if got := Span(in); got != in {
			t.Errorf("Span(%q) = %q, want it unchanged", in, got)
		}
	}
	// As a field, the same text is a credential (the reference's contract).
	if got := Secret("../../etc/passwd"); got != S {
		t.Errorf("Secret(passwd path) = %q", got)
	}
	// The value-shaped patterns of the reference are caught in prose, and
	// only their match is replaced.
	gh := "ghp_" + strings.Repeat("a", 36)
	if got := Span("deploy with " + gh + ", then wait."); got != "deploy with "+S+", then wait." {
		t.Errorf("Span(token) = %q", got)
	}
	if got := Span("two: " + gh + " and sk_live_" + "abcdefgh12."); got != "two: "+S+" and "+S+"." {
		t.Errorf("Span(two tokens) = %q", got)
	}
}

// TestURI: percent-encoding does not hide a credential from URI.
func TestURI(t *testing.T) {
	enc := "agent-library://entities/Authorization%3A%20Bearer%20" + "abcDEF1234567890xyz"
	if got := URI(enc); got != "agent-library://entities/Authorization: Bearer "+S {
		t.Errorf("URI(%q) = %q", enc, got)
	}
	for _, plain := range []string{"agent-library://entities/Payments%20API", "100% done", "cogitave://doc/demo.docs.x"} {
		if got := URI(plain); got != plain {
			t.Errorf("URI(%q) = %q, want it unchanged", plain, got)
		}
	}
}

// TestBlank: Blank keeps offsets and blanks exactly what Span replaces.
func TestBlank(t *testing.T) {
	in := "use DB_PASSWORD=" + "hunter2x now, not /etc/passwd"
	if got := Blank(in); got != "use DB_PASSWORD=         now, not /etc/passwd" {
		t.Errorf("Blank(%q) = %q", in, got)
	}
	if plain := "nothing here"; Blank(plain) != plain {
		t.Error("Blank changed plain text")
	}
}

// TestKinds: Kind.Apply is Secret for fields and Span for prose.
func TestKinds(t *testing.T) {
	in := "see /etc/passwd and DB_PASSWORD=" + "hunter2"
	if Field.Apply(in) != S || Prose.Apply(in) != "see /etc/passwd and DB_PASSWORD="+S {
		t.Errorf("Field %q, Prose %q", Field.Apply(in), Prose.Apply(in))
	}
	if !Flagged(in) || Flagged("plain words") {
		t.Error("Flagged")
	}
}

// TestSupersetIsQuietOnTheCorpora measures the superset's false positives
// on the documentation corpora and the demo library: no file of them
// holds a credential, and none may be changed by Span or flagged by a
// superset pattern.
func TestSupersetIsQuietOnTheCorpora(t *testing.T) {
	lib := t.TempDir()
	if err := demo.Write(lib, time.Date(2026, 6, 29, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	docs := t.TempDir()
	if err := demo.WriteDocs(docs); err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, root := range []string{"../../../testdata/learn", "../../../testdata/learn-overlay", docs, lib} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			text := string(data)
			if got := Span(text); got != text {
				t.Errorf("%s: Span changed it:\n%s", path, firstDiff(text, got))
			}
			for n, line := range strings.Split(text, "\n") {
				if found, _ := containsAny(collapseSpace(line), allPatterns&^referenceMask); found {
					t.Errorf("%s:%d: a superset pattern fires: %q", path, n+1, line)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 300 {
		t.Errorf("only %d files read", files)
	}
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-60)
	return "… " + a[lo:min(len(a), i+60)] + " …\nbecame\n… " + b[lo:min(len(b), i+60)] + " …"
}

func FuzzSpan(f *testing.F) {
	for _, s := range []string{
		"DB_PASSWORD=hunter2", "postgres://u:p@h", "Bearer abcDEF1234567890xyz", "token: ab12",
		"-----BEGIN RSA PRIVATE KEY-----\n" + pemLine + "\n-----END RSA PRIVATE KEY-----",
		pemLine + " " + pemLine, "a=b=c:d", "sig=" + strings.Repeat("A", 20), "x" + bdnTok,
		"curl -u a:b1234 x", "--token='abc123' --password=", "4111 1111 1111 1111", "3782-822463-10005",
		"AKIA" + "IOSFODNN7EXAMPLE, " + awsKey, "Authorization: token abcdef0123456789XYZ",
		"https://hooks.slack.com/services/T0/B0/abcdefgh", "123456789:AAH" + strings.Repeat("x", 32), b64Key[:80],
		`"app:pw@tcp(db)/x"`, "a;PWD=secret;", "sshpass -p abcd1234 ssh x", "mysql -pabc123", `ConvertTo-SecureString "p4ss"`,
		"<password>abc123</password>", `<add key="ApiSecret" value="x1y2z3"/>`, "requirepass abc123", "login a password b1c2d3",
		"Cookie: sid=0123456789",
		"MTA" + strings.Repeat("x", 21) + ".abcdef." + strings.Repeat("Y", 27), strings.Repeat("k", 14) + ".atlasv1." + strings.Repeat("z1", 30), "AAAA" + "abcdefg:APA91b" + strings.Repeat("Q9", 50), "ab1" + "8Q~" + strings.Repeat("aB3", 11),
		"Private-Lines: 1\n" + pemLine[:44] + "\nPrivate-MAC: ab", "db:5432:app:app:" + "Xy12zz!q",
		"net user bob " + "Xy12zz!q /add", `net use \\s\share ` + "Xy12zz!q", "cmdkey /pass:" + "Xy12zz",
		"password to " + "Xy1#zz9!q", "password for db: " + "Xy1#zz9!q", "Passwort ist " + "Xy12zz99", "パスワードは " + "Xy12zz99 です",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Span(in)
		if utf8.ValidString(in) && !utf8.ValidString(out) {
			t.Fatalf("Span(%q) = %q: invalid UTF-8", in, out)
		}
		if out != in && !strings.Contains(out, Sentinel) {
			t.Fatalf("Span(%q) = %q changed text without redacting", in, out)
		}
		if spansOf(in) == nil && out != in {
			t.Fatalf("Span(%q) changed a string without spans", in)
		}
		// What Span keeps is in the input, in order.
		rest := in
		for _, part := range strings.Split(out, Sentinel) {
			k := strings.Index(rest, part)
			if k < 0 {
				t.Fatalf("Span(%q) = %q: %q is not from the input", in, out, part)
			}
			rest = rest[k+len(part):]
		}
	})
}

// TestInvisibleCharactersHideNothingOnFields: a credential with a
// character that shows nothing inside it (as someone dodging a filter, or
// a copy from a rich-text editor, would leave it) is still caught on
// fields, where the whole value goes; text with such characters and no
// credential is left as it is.
func TestInvisibleCharactersHideNothingOnFields(t *testing.T) {
	token := "ghp_" + strings.Repeat("aBcDeFgHiJ", 3) + "012345"
	for _, inv := range []string{"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"} {
		for _, in := range []string{
			token[:2] + inv + token[2:],
			"token " + token[:10] + inv + token[10:] + " pasted",
			"pass" + inv + "word is hunter2",
		} {
			if got := Secret(in); got != Sentinel {
				t.Errorf("Secret(%q) = %q", in, got)
			}
			if got := Text(in, 200); got != Sentinel {
				t.Errorf("Text(%q) = %q", in, got)
			}
			doc := []byte(`{"summary":` + strconv.Quote(in) + `}`)
			if got := string(JSON(doc)); strings.Contains(got, token[12:]) || !strings.Contains(got, Sentinel) {
				t.Errorf("JSON(%s) = %s", doc, got)
			}
		}
	}
	// Full-width letters and digits read as the ASCII ones (a field that
	// says password in them is flagged as one that says it in ASCII).
	for _, in := range []string{"ＡＫＩＡＩＯＳＦＯＤＮＮ７ＥＸＡＭＰＬＥ", "ｐａｓｓｗｏｒｄ－less login", "key: ｇｈｐ＿" + strings.Repeat("ａＢｃＤｅＦｇＨｉＪ", 3) + "０１２３４５"} {
		if got := Secret(in); got != Sentinel {
			t.Errorf("Secret(%q) = %q", in, got)
		}
	}
	for _, in := range []string{"family: 👨\u200d👩\u200d👧", "soft\u00adware", "\ufeffa file that starts with a BOM", "zero\u200bwidth",
		"（注）全角の文字：ＡＢＣ１２３"} {
		if got := Secret(in); got != in {
			t.Errorf("Secret(%q) = %q, want it unchanged", in, got)
		}
	}
}

// TestMaskedCredentialsInProse: prose is looked at as a reader sees it
// too, so a credential broken by a character that shows nothing, spelled
// in full-width letters or with a look-alike letter of another script is
// cut out whole, the characters around it kept; text with such
// characters and no credential is left as it is, and Blank keeps every
// offset.
func TestMaskedCredentialsInProse(t *testing.T) {
	token := "ghp_" + strings.Repeat("aBcDeFgHiJ", 3) + "012345"
	for _, c := range []struct{ name, masked string }{
		{"zero-width space", token[:12] + "\u200b" + token[12:]},
		{"soft hyphen", token[:20] + "\u00ad" + token[20:]},
		{"word joiner", token[:4] + "\u2060" + token[4:]},
		{"full-width", "ｇｈｐ＿" + strings.Repeat("ａＢｃＤｅＦｇＨｉＪ", 3) + "０１２３４５"},
		{"Cyrillic er", "gh\u0440" + token[3:]},
		{"Greek omicron in a key", "AKIAI\u039fSFODNN7EXAMPLE"},
	} {
		in := "use " + c.masked + " for CI"
		want := "use " + Sentinel + " for CI"
		if got := Span(in); got != want {
			t.Errorf("%s: Span(%q) = %q, want %q", c.name, in, got, want)
		}
		if got := Blank(in); len(got) != len(in) || strings.Contains(got, c.masked[len(c.masked)-6:]) {
			t.Errorf("%s: Blank(%q) = %q", c.name, in, got)
		}
	}
	for _, in := range []string{
		"family: 👨\u200d👩\u200d👧", "soft\u00adware", "zero\u200bwidth",
		"Сafe au lait (a Cyrillic С)", "версия API 2 готова", "Код ABC123 готов, пароль не нужен",
		"Ωmega and αβγ in a formula: x = ρ·v",
	} {
		if got := Span(in); got != in {
			t.Errorf("Span(%q) = %q, want it unchanged", in, got)
		}
		if got := Secret(in); got != in && got != Sentinel {
			t.Errorf("Secret(%q) = %q", in, got)
		}
	}
	if got := Secret("Код ABC123 готов"); got != "Код ABC123 готов" {
		t.Errorf("Secret of Russian prose with an ASCII word = %q", got)
	}
}

// TestCredentialPairs: a user and password given together after a word
// that names credentials (creds, credentials, login) lose the password;
// prose with a slash after those words, and values that are words, stay.
func TestCredentialPairs(t *testing.T) {
	pw := "Xk9#pLm2QwErT7"
	for _, text := range []string{
		"creds are admin / " + pw + " for the staging console",
		"credentials: admin/" + pw,
		"Credentials = ops:" + pw,
		"login is admin / " + pw,
		"the creds for grafana are admin / " + pw + ".",
		"Login: root / '" + pw + "'",
		"logon: svc-backup@corp.local / " + pw,
		"cred: deploy:" + pw,
	} {
		if !Flagged(text) {
			t.Errorf("%q is not flagged", text)
		}
		if got, want := Span(text), strings.Replace(text, pw, Sentinel, 1); got != want {
			t.Errorf("Span(%q) = %q, want %q", text, got, want)
		}
	}
	for _, text := range []string{
		"credentials are stored in Vault / rotated weekly",
		"login is required / optional",
		"credentials: admin/admin",
		"login: user / <password>",
		"creds are admin / ${ADMIN_PASSWORD}",
		"the credentials page is /settings/keys2",
		"login: https://acme.io/login2",
		"login is at 10:30 / 11:45",
		"credentials: admin/Summer2024",
		"credential stuffing on /login: 4000 attempts / hour",
		"logins are admin/ops/dev (see docs/v2)",
		"crediting account / 12345678",
	} {
		if got := Span(text); got != text {
			t.Errorf("Span(%q) = %q, want it unchanged", text, got)
		}
	}
}

// TestAzureFunctionKeys: a function key given as code= on an Azure
// Functions host, or in an x-functions-key header, is cut out; code= on
// other hosts (an OAuth authorization code's callback) and placeholders
// stay.
func TestAzureFunctionKeys(t *testing.T) {
	key := "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7bC9dE1fG3hI5jK7lM9n=="
	for _, text := range []string{
		"https://acme-jobs.azurewebsites.net/api/ProcessOrder?code=" + key,
		`curl "https://acme-jobs.azurewebsites.net/api/Fn?name=x&code=` + key + `" -d @order.json`,
		"POST https://fn-prod.AzureWebsites.net:443/api/hook?Code=" + key + "&clientId=default",
		"acme-jobs.azurewebsites.net/api/ProcessOrder?code=" + key,
		"x-functions-key: " + key,
		`headers = {"x-functions-key": "` + key + `"}`,
		"FUNCTION_KEY=" + key,
	} {
		if !Flagged(text) {
			t.Errorf("%q is not flagged", text)
		}
		if got, want := Span(text), strings.Replace(text, key, Sentinel, 1); got != want {
			t.Errorf("Span(%q) = %q, want %q", text, got, want)
		}
	}
	for _, text := range []string{
		"https://acme.io/oauth/callback?code=" + key[:40],
		"https://acme.azurewebsites.net.evil.io/api/x?code=" + key[:40],
		"https://acme.azurewebsites.net/api/x?code=<your-function-key>",
		"https://acme.azurewebsites.net/api/x?code=${FUNCTION_KEY}",
		"https://acme.azurewebsites.net/api/x?zipcode=" + key[:40],
		"Function key: F5",
		"function_key = lambda x: x",
	} {
		if got := Span(text); got != text {
			t.Errorf("Span(%q) = %q, want it unchanged", text, got)
		}
	}
}
