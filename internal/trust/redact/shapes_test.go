package redact

import (
	"encoding/base64"
	"math/rand/v2"
	"strings"
	"testing"
)

// Tests of the second round of shapes: tokens known by their structure
// (Discord, Terraform Cloud, FCM, Azure AD client secrets), PuTTY private
// lines, .pgpass lines, Windows command lines, passwords in English words
// ("to", "for") and in other languages. The samples are written here,
// apart from the red-team probe's, and built at run time so that no
// token literal is committed.

// shapeGen draws characters for the samples.
type shapeGen struct{ r *rand.Rand }

func (g shapeGen) str(alpha string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alpha[g.r.IntN(len(alpha))]
	}
	return string(b)
}

const (
	shAlnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	shURL    = shAlnum + "-_"
	shB64    = shAlnum + "+/"
	shAzure  = shAlnum + "_~.-"
	shHex    = "0123456789abcdef"
	shPwTail = shAlnum + "!#%*"
)

// pw returns a password of n characters with upper case, lower case, a
// digit and a symbol.
func (g shapeGen) pw(n int) string {
	return g.str("ABCDEFGHJKLMNPQRSTUVWXYZ", 1) + g.str("abcdefghijkmnopqrstuvwxyz", 1) + g.str("23456789", 1) + "#" + g.str(shPwTail, n-4)
}

// mixed returns n characters of alpha with upper case, lower case and a
// digit among them.
func (g shapeGen) mixed(alpha string, n int) string {
	return "Q" + "q" + "7" + g.str(alpha, n-3)
}

// checkCaught: Secret replaces in whole, and Span replaces exactly each
// of secrets (in order) and nothing else.
func checkCaught(t *testing.T, in string, secrets ...string) {
	t.Helper()
	if got := Secret(in); got != Sentinel {
		t.Errorf("Secret(%q) = %q, want the sentinel", in, got)
	}
	want := in
	for _, sec := range secrets {
		if !strings.Contains(want, sec) {
			t.Fatalf("%q is not in %q", sec, in)
		}
		want = strings.Replace(want, sec, Sentinel, 1)
	}
	if got := Span(in); got != want {
		t.Errorf("Span(%q)\n = %q\nwant %q", in, got, want)
	}
}

// checkQuiet: Span leaves in as it is, and a field is flagged only when
// it names a credential with a keyword of the reference's (keyword).
func checkQuiet(t *testing.T, in string, keyword bool) {
	t.Helper()
	if got := Span(in); got != in {
		t.Errorf("Span(%q) = %q, want it unchanged", in, got)
	}
	if !keyword && Flagged(in) {
		t.Errorf("Flagged(%q) = true", in)
	}
	if found, _ := containsAny(in, allPatterns&^referenceMask); found {
		t.Errorf("a superset pattern fires on %q", in)
	}
}

func TestStructuredTokens(t *testing.T) {
	g := shapeGen{rand.New(rand.NewPCG(3, 14))}
	enc := base64.RawStdEncoding.EncodeToString
	// Discord bot tokens: the id (17 to 20 digits) in base64, a
	// timestamp, an HMAC.
	for _, id := range []string{"81234567890123456", "876543210987654321", "4123456789012345678", "10987654321098765432"} {
		tok := enc([]byte(id)) + "." + g.str(shURL, 6) + "." + g.str(shURL, 27+g.r.IntN(12))
		checkCaught(t, "bot.run(\""+tok+"\")", tok)
		checkCaught(t, "the bot token leaked: "+tok+", reset it", tok)
	}
	discord := enc([]byte("876543210987654321")) + "." + g.str(shURL, 6) + "." + g.str(shURL, 38)
	parts := strings.Split(discord, ".")
	d1, d2, d3 := parts[0], parts[1], parts[2]
	for _, in := range []string{
		"x" + discord,                 // glued to a word
		"Mx" + discord[2:],            // not the base64 of a digit
		d1[:22] + "." + d2 + "." + d3, // the id cut to 22 characters
		d1 + "." + d2[:5] + "." + d3,  // a timestamp of 5
		d1 + "." + d2 + "." + d3[:26], // an HMAC of 26
		"MTIz.abcdef.ghijkl", "NT 4.0 and OD.Tools.Zed", "ODBC.driver.Microsoft-SQL-Server-Native-Client",
	} {
		checkQuiet(t, in, false)
	}

	// Terraform Cloud / HCP Terraform tokens.
	for _, n := range []int{60, 67, 90} {
		tok := g.str(shAlnum, 14) + ".atlasv1." + g.str(shURL, n)
		checkCaught(t, "team token "+tok+" (owners)", tok)
		checkCaught(t, `{"credentials":{"app.terraform.io":{"t":"`+tok+`"}}}`, tok)
	}
	for _, in := range []string{
		g.str(shAlnum, 13) + ".atlasv1." + g.str(shURL, 67),
		g.str(shAlnum, 14) + ".atlasv1." + g.str(shURL, 59),
		"x-" + g.str(shAlnum, 14) + ".atlasv1." + g.str(shURL, 67),
		"the .atlasv1. part", "abc.atlasv1.def",
	} {
		checkQuiet(t, in, false)
	}

	// FCM legacy server keys.
	for _, n := range []int{100, 134, 140} {
		key := "AAAA" + g.str(shURL, 7) + ":APA91b" + g.str(shURL, n)
		checkCaught(t, `curl -H "Authorization: key=`+key+`" https://fcm.googleapis.com/fcm/send`, key)
		checkCaught(t, "server key "+key, key)
	}
	for _, in := range []string{
		"AAAA" + g.str(shURL, 7) + ":APA91b" + g.str(shURL, 99),
		"AAAA" + g.str(shURL, 6) + ":APA91b" + g.str(shURL, 134),
		"AAAB" + g.str(shURL, 7) + ":APA91b" + g.str(shURL, 134),
		"x" + "AAAA" + g.str(shURL, 7) + ":APA91b" + g.str(shURL, 134),
		"registration ids start with :APA91b", "AAAA:APA91b",
	} {
		checkQuiet(t, in, false)
	}

	// Azure AD client secrets, with no name next to them.
	for _, n := range []int{31, 34} {
		sec := g.str(shAzure, 3) + "8Q~" + g.mixed(shAzure, n)
		checkCaught(t, "| api-prod | "+sec+" | 2026-01-01 |", sec)
		checkCaught(t, "Value "+sec+" expires in 6 months.", sec)
		checkCaught(t, `{"secretText": "`+sec+`"}`, sec)
	}
	sec := "Ab1" + "3Q~" + g.mixed(shAzure, 34)
	checkCaught(t, "copy it now: "+sec+".", sec)
	for _, in := range []string{
		"Ab1" + "3Q~" + g.mixed(shAzure, 30),                                   // too short
		"Ab1" + "3Q~" + g.mixed(shAlnum, 35),                                   // too long
		"Ab1" + "3Q~" + strings.Repeat("abcdefgh", 4),                          // no upper case nor digit
		"AbcX" + "Q~" + g.mixed(shAzure, 34),                                   // no digit before Q~
		"zAb1" + "3Q~" + g.mixed(shAzure, 34),                                  // 4 characters before the digit
		"see eq. 3Q~ and Fig.~2", "~/.ssh/config", "Q~" + g.mixed(shAzure, 34), // LaTeX, a path
	} {
		checkQuiet(t, in, false)
	}
}

func TestPuTTYPrivateLines(t *testing.T) {
	g := shapeGen{rand.New(rand.NewPCG(5, 9))}
	pub := "AAAAC3NzaC1lZDI1NTE5AAAAI" + g.str(shB64, 39)
	priv := g.str(shB64, 48)
	ppk := "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ci@build\nPublic-Lines: 2\n" + pub + "\n" + g.str(shB64, 4) +
		"\nPrivate-Lines: 1\n" + priv + "\nPrivate-MAC: " + g.str(shHex, 64) + "\n"
	checkCaught(t, ppk, priv)
	// An RSA key: full lines of 64, a shorter last one.
	lines := []string{g.str(shB64, 64), g.str(shB64, 64), g.str(shB64, 64), g.str(shB64, 22) + "=="}
	rsa := "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nPrivate-Lines: 4\n" + strings.Join(lines, "\n") + "\nPrivate-MAC: " + g.str(shHex, 40)
	checkCaught(t, rsa, strings.Join(lines, "\n"))
	// Quoted by JSON or %q, and with the lines collapsed.
	quoted := `"Private-Lines: 1\n` + priv + `\nPrivate-MAC: ` + g.str(shHex, 64) + `"`
	checkCaught(t, quoted, priv)
	if !Flagged(strings.ReplaceAll(ppk, "\n", " ")) {
		t.Error("a PuTTY key on one line is not flagged")
	}
	for _, in := range []string{
		"Private-Lines: 1\nshort\n", "Private-Lines: 0\n" + priv, "Private-Lines: N\n" + priv,
		"private-lines: 1\n" + priv, "Private-Lines: 2\nThe private lines hold the key.",
		"Private-Lines:1" + priv, "Private-Lines: 1\n" + priv + "-more",
	} {
		checkQuiet(t, in, false)
	}
}

func TestPgpassLines(t *testing.T) {
	g := shapeGen{rand.New(rand.NewPCG(8, 21))}
	p1, p2, p3, p4 := g.pw(16), g.pw(12), g.pw(20), g.pw(14)
	checkCaught(t, "localhost:5432:*:postgres:"+p1, p1)
	checkCaught(t, "# ~/.pgpass\n*:*:*:replicator:"+p2+"\n10.1.2.3:6432:billing:app@pgsrv:"+p3+"\n", p2, p3)
	checkCaught(t, "echo 'db.example.com:6432:app:app_user:"+p4+"' >> ~/.pgpass", p4)
	esc := `Ab3\:x` + g.pw(10)
	checkCaught(t, "pg.internal:5432:shop:shop_rw:"+esc, esc)
	checkCaught(t, "localhost:5432:dev:dev:postgres", "postgres")
	for _, in := range []string{
		"hostname:port:database:username:password",
		"localhost:5432:mydb:myuser:mypassword",
		"localhost:5432:db:user:<password>", "db:5432:app:app:${PGPASSWORD}", "localhost:5432:db:user:****",
		"12:30:45:678:ab12", "time 10:20:30:40:50",
		"fe80:1234:abcd:ef01:2a3b", "2001:db8:85a3:0:0:8a2e:370:7334", "mac 3c:22:fb:9a:10:4e",
		"web01:8080:INFO:main:started", "main.go:12:5: error: undefined: x", "x.go:12:5:6:done",
		"localhost:5432:db:user:" + g.pw(10) + ":extra", "see http://host:8080/a:b:c:d", "a:1:b:c:1234",
		"host:5432:db:user: spaced", "nested:5432:db:us er:" + g.pw(10),
	} {
		checkQuiet(t, in, strings.Contains(strings.ToLower(in), "password"))
	}
}

func TestWindowsCommandLines(t *testing.T) {
	g := shapeGen{rand.New(rand.NewPCG(13, 2))}
	p := func() string { return g.pw(12 + g.r.IntN(6)) }
	cases := []string{
		"net user backup_svc %s /add /y",
		"NET USER Administrator %s",
		`C:\> net user "Jane Doe" %s /add`,
		`net use Z: \\fs01\finance %s /user:ACME\jane /persistent:no`,
		`net use \\fs01\ipc$ /user:ACME\jane %s`,
		"cmdkey /generic:TERMSRV/host01 /user:jane /pass:%s",
		"tool.exe /user:admin /p:%s /log",
		`cmdkey /add:srv /user:bob /PASSWORD:"%s"`,
		"then I ran net user svc %s to reset it",
		"build.cmd && net user deploy %s",
	}
	for _, c := range cases {
		v := p()
		checkCaught(t, strings.Replace(c, "%s", v, 1), v)
	}
	for _, in := range []string{
		"net user jane *", "net user jane /delete", "net user jane", "net user NAME PASSWORD /add",
		"net user username password /add", "net user <name> <password> /add", "net user %USER% %PW% /add",
		"the net user command lists local accounts", `net use \\srv\share * /user:jane`,
		`net use Z: \\srv\share /persistent:yes`, "net use Z: /delete",
		"msbuild app.sln /p:Configuration=Release", "xcopy a b /p", "robocopy a b /mt:8", "cmdkey /pass",
		"cmdkey /pass:$PW", "mstsc /p:8080", "see https://x.io/p:abcdef12", "we need to network the new nodes",
		"in prose, net user alice Summer2024 is weak",
	} {
		checkQuiet(t, in, strings.Contains(strings.ToLower(in), "password"))
	}
}

func TestPasswordToAndFor(t *testing.T) {
	g := shapeGen{rand.New(rand.NewPCG(21, 34))}
	v1, v2, v3, v4 := g.pw(12), g.pw(10), g.pw(14), g.pw(9)
	checkCaught(t, "changed the admin password to "+v1+" yesterday", v1)
	checkCaught(t, "Reset Jenkins password to '"+v2+"' today.", v2)
	checkCaught(t, "the root password for build-01.acme.io: "+v3, v3)
	checkCaught(t, "Password for bob@ci: "+v4+" (temporary)", v4)
	checkCaught(t, "the passphrase for signing-key is correct7horse8battery", "correct7horse8battery")
	for _, in := range []string{
		"reset the password for the admin account",
		"changed the password to something stronger",
		"Save the password to 1Password.",
		"set the password to Summer2024",
		"encrypt the password to AES-256-GCM",
		"copy the password to ~/.pgpass",
		"send the password to https://vault.acme.io/x",
		"the password for example.com: see the vault",
		"sudo: password for alice: ",
		"Enter password for root: ********",
		"password for user: must be 8+ characters",
		"password for db: https://vault.acme.io/db",
		"password to $PGPASSWORD", "the password to 12345678",
	} {
		checkQuiet(t, in, true)
	}
}

func TestPasswordsInOtherLanguages(t *testing.T) {
	g := shapeGen{rand.New(rand.NewPCG(34, 55))}
	for _, c := range []string{
		"Das WLAN-Passwort ist %s",
		"Kennwort: '%s'",
		"DB_PASSWORT=%s",
		"mysql_kennwort: %s",
		"Le mot de passe est %s.",
		"mot de passe : « %s »",
		"La contraseña es %s",
		"CONTRASEÑA: %s",
		"contrasena=%s",
		"A senha é %s",
		"senha=%s",
		"Het wachtwoord is %s",
		"WACHTWOORD: %s",
		"Hasło to %s",
		"haslo: %s",
		"Lösenordet är %s",
		"lösenord: %s",
		"Wi-Fi şifresi %s",
		"ŞİFRE: %s",
		"Пароль — %s",
		"пароль: %s",
		"数据库密码是%s，请妥善保管",
		"密碼：%s",
		"管理者のパスワードは「%s」です",
		"パスワード：%s",
		"관리자 비밀번호는 %s입니다",
		"비밀번호: %s",
		"ο κωδικός πρόσβασης είναι %s",
		"Κωδικός: %s",
		"كلمة المرور هي %s",
		"كلمة السر: %s",
		"सर्वर पासवर्ड है %s",
		"पासवर्ड: %s",
		"mật khẩu là %s",
		"Mật khẩu: %s",
	} {
		v := g.pw(10 + g.r.IntN(6))
		checkCaught(t, strings.Replace(c, "%s", v, 1), v)
	}
	for _, in := range []string{
		"Passwort vergessen?", "Das Passwort ist falsch", "Passwortmanager: KeePassXC", "Passwort: Bitte",
		"Le mot de passe est incorrect", "la contraseña es obligatoria", "A senha e o usuário",
		"resenha=Ab12cd34ef", "Het wachtwoord is verlopen", "Hasło to podstawa", "lösenordet är för kort",
		"şifre sıfırlama", "Пароль неверный", "密码错误", "パスワードを忘れた", "비밀번호를 잊으셨나요?",
		"Das Passwort ist 12345678", "parolası değiştirildi",
		"ο κωδικός είναι λάθος", "كلمة المرور خاطئة", "पासवर्ड गलत है", "mật khẩu sai rồi",
	} {
		checkQuiet(t, in, false)
	}
}

// TestWordsBetweenNameAndValue: a few words may stand between a secret's
// name and the "is", ':' or copula that gives its value, in English when
// the first of them joins them (for, of, we, ...) and in the other
// languages; the value must then look like a secret. The name of
// something else (password policy, token budget) and values of prose
// are left alone.
func TestWordsBetweenNameAndValue(t *testing.T) {
	g := shapeGen{rand.New(rand.NewPCG(89, 144))}
	for _, c := range []string{
		"the password for the staging db is %s",
		"the root password for db-prod.internal is %s, rotate it",
		"The password we use for the demo is '%s'.",
		"the api key for the billing service is %s",
		"the secret of the webhook in staging is %s",
		"the password for the staging db: %s",
		"Password for the new jenkins agent: %s (temporary)",
		"Das Kennwort für den Router lautet %s, bitte nicht weitergeben.",
		"Le mot de passe du wifi est « %s ».",
		"la contraseña del servidor de pruebas es %s",
		"пароль от почты: %s",
		"mật khẩu wifi là %s",
		"hasło do serwera to %s",
		"het wachtwoord van de NAS is %s",
		"A senha do banco é %s",
	} {
		v := g.pw(10 + g.r.IntN(6))
		checkCaught(t, strings.Replace(c, "%s", v, 1), v)
	}
	checkCaught(t, "the password for the staging db is hunter2!", "hunter2!")
	for _, in := range []string{
		"the password policy is strict",
		"password is required",
		"my password manager is 1Password8",
		"the password hash algorithm is argon2id",
		"the token budget for gpt-4o is 128000tok",
		"The password for the admin account is in the vault.",
		"the password for the db is stored in Vault under secret2",
		"the password reset link for jane is https://acme.io/r/abc123",
		"the token for page 2 is in the response",
		"the password. Our release is v2.3.1-beta",
		"password for the new hires: see the onboarding doc",
		"Das Passwort für den Router ist falsch",
		"Le mot de passe du compte est expiré depuis 2024",
		"la contraseña del servidor es obligatoria",
		"пароль от почты: забыл",
		"mật khẩu wifi là gì?",
		"hasło do serwera to podstawa bezpieczeństwa",
		"Passwort für Windows 11 ist Pflicht",
	} {
		checkQuiet(t, in, true)
	}
}

// TestPasswordsInMoreLanguages: Italian (whose word is the English one,
// with its own copula and prepositions), Indonesian and Malay, European
// Portuguese, Spanish clave, Czech and Slovak, Danish and Norwegian,
// Finnish, Romanian and Hungarian.
func TestPasswordsInMoreLanguages(t *testing.T) {
	g := shapeGen{rand.New(rand.NewPCG(233, 377))}
	for _, c := range []string{
		"la password del database è %s",
		"La password è %s",
		"la parola d'ordine è %s",
		"password dell'utente admin: %s",
		"kata sandi wifi adalah %s",
		"Kata sandinya adalah %s",
		"kata laluan: %s",
		"a palavra-passe é %s",
		"la clave del wifi es %s",
		"heslo k serveru je %s",
		"Heslo: %s",
		"adgangskoden er %s",
		"passordet til ruteren er %s",
		"salasana on %s",
		"parola este %s",
		"a jelszó: %s",
	} {
		v := g.pw(10 + g.r.IntN(6))
		checkCaught(t, strings.Replace(c, "%s", v, 1), v)
	}
	for _, in := range []string{
		"la password è obbligatoria", "password dimenticata?", "la password del database è scaduta",
		"password manager: 1Password8",
		"kata sandi salah", "kata sandi adalah rahasia", "a palavra-passe é inválida", "la clave es la constancia",
		"heslo je příliš krátké", "passordet er feil", "salasana on väärä", "parola este greșită",
		"helsinki on 2024 listalla", "the header is x1y2z3w4v5 long",
	} {
		checkQuiet(t, in, strings.Contains(strings.ToLower(in), "password"))
	}
}

// TestEscapedJSONAssignments: a secret-named member of JSON written
// inside a JSON string (an event's body, a logged payload), its quotes
// escaped, is an assignment too; placeholders and cursors stay.
func TestEscapedJSONAssignments(t *testing.T) {
	g := shapeGen{rand.New(rand.NewPCG(610, 987))}
	k, p := g.str(shAlnum, 40), g.pw(14)
	checkCaught(t, `{"event":"saved","body":"{\"url\":\"https://hooks.acme.io\",\"api_key\":\"`+k+`\"}"}`, k)
	checkCaught(t, `msg="{\"user\": \"app\", \"password\": \"`+p+`\"}"`, p)
	for _, in := range []string{
		`{"body":"{\"page_token\":\"` + k + `\",\"limit\":50}"}`,
		`{"body":"{\"password\":\"\"}"}`,
		`{"body":"{\"token\":\"${TOKEN}\"}"}`,
		`{"body":"{\"api_key\":\"required\"}"}`,
		`{"body":"{\"name\":\"api_key\"}"}`,
	} {
		checkQuiet(t, in, true)
	}
}

// TestAbbreviationsAndPATs: pwd or pw and a value after a blank, and a
// personal access token named PAT in upper case, are secrets; the
// shell's pwd, and pat for a pattern, are not.
func TestAbbreviationsAndPATs(t *testing.T) {
	g := shapeGen{rand.New(rand.NewPCG(10946, 17711))}
	p1, p2, tok := g.pw(12), g.pw(10), g.str(shAlnum, 52)
	checkCaught(t, "jumpbox is up (user ops, pwd "+p1+"), please don't share", p1)
	checkCaught(t, "login admin pw '"+p2+"'", p2)
	checkCaught(t, "AZURE_DEVOPS_EXT_PAT="+tok, tok)
	checkCaught(t, "GH_PAT: "+tok, tok)
	for _, in := range []string{
		"pwd", "$ pwd\n/home/ops", "pwd /home/ops/x1", "run pwd && ls", "pwd Summer2024", "pw reset", "pwned by x1y2",
		`url_pat = re.compile("^x1[a-z]+$")`, `pat = "` + tok + `"`, "PATH=/usr/bin:/bin", "SPAT=" + tok,
	} {
		checkQuiet(t, in, false)
	}
}
