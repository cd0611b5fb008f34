package redact

import (
	"encoding/base64"
	"regexp"
	"strings"
)

// The superset: credential shapes the reference's battery does not catch,
// added after its 26 patterns (docs/compatibility.md lists them). They are
// plain Go matchers rather than regular expressions: most look backwards
// (the name before an '=') or check what they found (a Basic header's
// value must decode to user:password), which RE2 cannot say. Each
// reports the span to redact: the credential itself, not the words around
// it, which is what Span replaces; Secret only asks whether there is one.
//
// The matchers are here and, by theme, in vendor.go (prefixed tokens),
// cloud.go (tokens known by their structure), cli.go (command lines,
// Windows's too), web.go (headers, webhooks, bot tokens), config.go
// (configuration without an assignment, key and password files),
// words.go (passwords in words, in English and other languages) and
// card.go.
//
// They are written to stay quiet on documentation: on the docs corpora in
// testdata and the demo corpus and library, none of them fires (see
// TestSupersetIsQuietOnTheCorpora).

// Pattern indexes of the superset, after the reference's.
const (
	pURLPassword = numReference + iota
	pBearerValue
	pBasicValue
	pBdnToken
	pAWSSecret
	pAssignment
	pAzureKey
	pAzureSig
	pPEMBody
	pVendorToken
	pSpokenAssignment
	pCLICredential
	pPaymentCard
	pAuthHeader
	pWebhookURL
	pTelegramToken
	pBase64PEM
	pDSNPassword
	pConfigValue
	pCookie
	pDiscordToken
	pTerraformToken
	pFCMServerKey
	pAzureClientSecret
	pPuTTYKey
	pPgpass
	pWindowsCredential
	pLocalPassword
	pSeedPhrase
	pKeyMaterial
	pEncoded
	pJoined
	numPatterns
)

// supersetPattern documents one pattern of the superset.
type supersetPattern struct {
	name            string
	caseInsensitive bool
	// shape says what the pattern catches, and what it redacts.
	shape string
}

var superset = [numPatterns - numReference]supersetPattern{
	pURLPassword - numReference: {"url_password", false,
		"scheme://user:password@ (any scheme; the slashes may be JSON Pointer escapes, ~1~1): the password"},
	pBearerValue - numReference: {"bearer_value", true,
		"Bearer <token>, the token at least 16 token68 characters with a digit or both cases: the token"},
	pBasicValue - numReference: {"basic_value", true,
		"Basic <base64> whose value decodes to printable user:password: the value"},
	pBdnToken - numReference: {"bdn_token", false,
		"this server's member tokens, bdn_ and 48 lowercase hex digits: the token"},
	pAWSSecret - numReference: {"aws_secret_key", true,
		"40 base64 characters after aws_secret_access_key, aws_secret or secret_access_key (and '=', ':' or a space): the key"},
	pAssignment - numReference: {"secret_assignment", true,
		"NAME=value or NAME: value where NAME ends with password, passwd, passphrase, secret, token, apikey, requirepass, masterauth, secret_key_base, key-data or key_data, or is pw or pass or ends with _pw or _pass (or -, .), or is PAT or ends with _PAT (upper case), or ends with key after secret, private, api, signing, encryption, master, auth, app or function (also as two words: private key:), or is a connection string's ;PWD, a query string's or form's pwd= (after ? or &), an ODBC section's PWD after its UID (not a path), or MongoDB's pwd: \"...\" (DB_PASSWORD=, PGPASSWORD=, \"client_secret\": \"...\", X-API-Key:, APP_KEY=, access_key=, door_passcode=), the operator also a Makefile's ?=, the name also bold in markdown (**Password:** ...), the value also a YAML block scalar's first line (password: |, token: >-) or a shell expansion's default (${DB_PASSWORD:-...}); not code (request.form[\"...\"], process.env.DB_PASSWORD), a YAML tag (!vault, !Ref), a bind parameter (@password, :name, psql's :'name'), a value sops encrypted (ENC[...]), the name of a Kubernetes Secret (existingSecret, imagePullSecret) or a field of a colon-separated name (arn:...:secret:prod/db); also NAME: TYPE = value (a typed declaration), a secret-named string literal and a literal value shaped like a secret as a call's arguments (define('DB_PASSWORD', '...')), and a literal without blanks after SQL's IDENTIFIED BY (or IDENTIFIED WITH a plugin BY), PASSWORD or PASSWORD(, the password of an HTTP client's basic-auth pair of literals (auth=(\"admin\", \"...\"), HTTPBasicAuth('u', '...'), aiohttp.BasicAuth, SetBasicAuth, new NetworkCredential, new PasswordAuthentication(\"u\", \"...\".toCharArray())) or of a connect call's second and third literals (DriverManager.getConnection(url, \"u\", \"...\"), new PDO, mysqli_connect, DBI->connect), and a literal shaped like a secret given by a secret's name without an operator: the one argument of a call named after it (setPassword(\"...\"), .password(\"...\"), withApiKey), a C macro's body (#define API_KEY \"...\") and the default of a secret's read from the environment (process.env.API_TOKEN || \"...\", ?? \"...\", os.environ.get(\"X\") or \"...\", cmp.Or(os.Getenv(\"X\"), \"...\")); the name and value may be in escaped quotes, JSON inside a JSON string ({\\\"api_key\\\":\\\"...\\\"}): the value"},
	pAzureKey - numReference: {"azure_key", true,
		"AccountKey=, SharedAccessKey= and SharedAccessSignature= of Azure connection strings, and code= in the query of a URL on an Azure Functions host (*.azurewebsites.net), a function key: the value"},
	pAzureSig - numReference: {"azure_sas_sig", false,
		"sig= of an Azure SAS query string (after ?, & or a space, 16 characters or more): the value"},
	pPEMBody - numReference: {"pem_body", false,
		"a PEM body line without its BEGIN line: a run of 64 to 76 base64 characters with upper case, lower case and a digit (a hex digest has no upper case), between whitespace, quotes or escaped newlines, or at the end of a path (not the tail of a long base64 run after a blank, a quote, '=' or ':'), that is not an SSH public key's nor inside a block whose BEGIN line names no private key (a certificate, a public key): the lines, the shorter last one and an END line"},
	pSpokenAssignment - numReference: {"spoken_assignment", true,
		"NAME is value, where NAME names a secret as secret_assignment's names do (password, passphrase, secret, token, pw, api key, secret key, ...; two words are read as one), and the value is quoted, or is 8 characters or more with a letter and a digit (the api key is 8f14e45f..., my passphrase is 'blue horse battery'); and password (passwd, passphrase) to a value that looks like a secret (8 characters or more, a letter and a digit or symbol, not words decorated with digits: not 1Password, Summer2024), or for a host: and a value of 8 characters or more with a digit or symbol (root password for db-prod: ...); pwd or pw, one blank and a value that looks like a secret or is quoted (user ops, pwd ...); with up to 5 words between the name and is when the first of them joins them (for, of, on, to, at, from, in, I, we, you, they, that, which, used, set: the password for the staging db is ...; not the password policy is ...), or between password for and ':' or is, the value quoted, or 8 characters or more with a letter and a digit and not a URL or a path; a value said before its name, VALUE is the (my, our, your) and at most three words, the last naming a secret and ending the clause (Xk9#... is the new admin password, 'a-b' is your passphrase; not Summer2024 is the password pattern), the value quoted or looking like a secret with a digit; a note's arrow, NAME -> value (a blank on either side; API token -> ..., not token->len), the value as with words between; and a user and password given together after creds, credentials, login or logon and ':', '=', is or are (creds are admin / ..., credentials: admin/..., login: ops:...), the password after '/' or ':', quoted, or looking like a secret with a digit: the value"},
	pCLICredential - numReference: {"cli_credential", false,
		"a command-line option that names a secret, with its value (--password Sup3r, --token=abc123, --api-key, --client-secret, an option ending with one of them: --db-password, --ftp-password; not --no-password, --show-token, ...; 4 characters or more), or curl's user option with a password (-u admin:pw, --user admin:pw), after a blank or a quote; --value and --body on a line that names a secret or a SecureString before them (gh secret set NAME --body ..., aws ssm put-parameter --type SecureString --value ...), the value one word shaped like a secret; a command's one-letter password option (sshpass -p, mysql -pX, redis-cli -a, ldapsearch -w, sqlcmd -P, psexec -p, openssl enc -k, zip -P, 7z -pX, ssh-keygen -N, az -p, ipmitool -P, mosquitto_pub -P, smbclient -U user%pw; the command read from its line, a YAML key or an exec form's [\"CMD\", ...] aside); OpenSSL's -passin, -passout and -pass with pass:X (not env:, file:, fd:, stdin) and keytool's -storepass, -keypass and their src and dest forms; a password as a command's plain argument: htpasswd -b FILE USER PW (-nb USER PW), rabbitmqctl add_user, change_password or authenticate_user USER PW, sqlplus user/PW[@db], mysqladmin password PW, nmcli ... password PW, and a password echoed into chpasswd (echo 'user:PW' | chpasswd), passwd --stdin, smbpasswd -s, sudo -S or a --password-stdin (echo PW | docker login --password-stdin); not a placeholder ($TOKEN, <token>, TOKEN) nor a secret's name: the value, or the password"},
	pPaymentCard - numReference: {"payment_card", false,
		"a payment card number: 13 to 19 digits, whole or in groups of four (Amex 4-6-5) separated by one space or '-', with an issuer's first digits (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay) and a valid Luhn check digit, at word boundaries: the number"},
	pAuthHeader - numReference: {"authorization_value", true,
		"Authorization: <scheme> <credential> or authorization=..., any scheme (token, SSWS, Bot, Digest, ...), the credential 16 token68 characters or more with a digit or both cases: the credential"},
	pWebhookURL - numReference: {"webhook_url", false,
		"an incoming-webhook URL whose path is its secret (hooks.slack.com/services/, discord.com/api/webhooks/, *.webhook.office.com/webhookb2/, outlook.office.com/webhook/, hooks.zapier.com/hooks/catch/): the path after the prefix"},
	pTelegramToken - numReference: {"telegram_bot_token", false,
		"a Telegram bot token, 8 to 10 digits, ':' and 30 to 40 base64url characters, at word boundaries: the token"},
	pBase64PEM - numReference: {"base64_private_key", false,
		"a PEM private key encoded in base64 on one line (LS0tLS1CRUdJTi..., as kubeconfig's client-key-data holds it), whose decoded header names a private key: the whole run"},
	pDSNPassword - numReference: {"dsn_password", false,
		"the password of a database DSN without a scheme, user:password@tcp(host:port)/db (and tcp6, unix), as Go's MySQL driver takes it, and the user/password@ of an Oracle JDBC URL (jdbc:oracle:thin:scott/...@db): the password"},
	pConfigValue - numReference: {"config_value", true,
		"a secret in a configuration file written without '=' or ':' after its name: an XML element named as secret_assignment's names are (<password>...</password>), an XML key=\"NAME\" value=\"...\" pair (.NET's appSettings), a Terraform variable \"NAME\" { default = ... } block, a value entry after a name or key entry that names a secret (a Kubernetes env entry, an ECS task's, an AWS parameter's), redis.conf's requirepass and masterauth, netrc's password after a login (on its line or the line above), the unquoted password of SQL's IDENTIFIED BY on a CREATE, ALTER or GRANT line naming a USER, ROLE or LOGIN (CREATE USER scott IDENTIFIED BY ...; not VALUES, EXTERNALLY, :bind), a naming directive's value, a blank between name and value (Apache's SetEnv NAME VALUE and RequestHeader set NAME VALUE, nginx's proxy_set_header NAME VALUE;, a Dockerfile's ENV NAME VALUE; NAME named as secret_assignment's are, the value a literal at a line's start and shaped like a secret elsewhere), a cell of a markdown table under a header that names a secret (| user | password |) or next to a cell of its row that names one (| API_SECRET | ... |; 6 characters or more without blanks, a letter and a digit, not a placeholder, a secret's name, a URL or a path): the value"},
	pCookie - numReference: {"cookie_value", true,
		"a Cookie or Set-Cookie header: ':' then name=value and the rest of the line (a session id is a credential): the header's value"},
	pDiscordToken - numReference: {"discord_bot_token", false,
		"a Discord bot token: the bot's id in base64 (23 to 28 characters, starting M, N or O and then D, T, j or z, as the base64 of a decimal id does), '.', 6 characters, '.', and 27 or more base64url characters, at word boundaries: the token"},
	pTerraformToken - numReference: {"terraform_cloud_token", false,
		"a Terraform Cloud / HCP Terraform API token: 14 letters and digits, .atlasv1. and 60 or more base64url characters, at word boundaries: the token"},
	pFCMServerKey - numReference: {"fcm_server_key", false,
		"a Firebase Cloud Messaging legacy server key: AAAA and 7 base64url characters, :APA91b and 100 or more base64url characters, at word boundaries: the key"},
	pAzureClientSecret - numReference: {"azure_client_secret", false,
		"an Azure AD (Entra ID) client secret: 3 characters, a digit, Q~ and 31 to 34 characters of [A-Za-z0-9_~.-] with upper case, lower case and a digit, at boundaries, with or without a name next to it: the secret"},
	pPuTTYKey - numReference: {"putty_private_key", false,
		"the private part of a PuTTY key file (.ppk): the lines of base64 after Private-Lines: N (N lines of 64 characters at most, 16 characters or more in all): the lines"},
	pPgpass - numReference: {"pgpass_password", false,
		"a .pgpass line, hostname:port:database:username:password, exactly five fields (each of the first four may be *, the port is digits or *, the host a name or an address), on its own or between blanks or quotes: the password"},
	pWindowsCredential - numReference: {"windows_cli_credential", true,
		"a password on a Windows command line: net user NAME PASSWORD (/add), net use [X:] \\\\server\\share PASSWORD, and the options /pass:X, /password:X and /p:X (cmdkey, winrs); not * (which asks for it), a placeholder, or /p:Name=Value (MSBuild's property): the password"},
	pLocalPassword - numReference: {"localized_password", true,
		"a password given after the word for it in another language (German Passwort, Kennwort; French mot de passe; Spanish contraseña, clave; Portuguese senha, palavra-passe; Italian password, parola d'ordine; Dutch wachtwoord; Polish hasło; Czech and Slovak heslo; Swedish lösenord; Danish and Norwegian adgangskode, passord; Finnish salasana; Romanian parola; Hungarian jelszó; Turkish şifre, parola; Indonesian and Malay kata sandi, kata laluan; Russian пароль; Chinese 密码, 密碼; Japanese パスワード; Korean 비밀번호; Greek κωδικός; Arabic كلمة المرور; Hindi पासवर्ड; Vietnamese mật khẩu; Thai รหัสผ่าน; Hebrew סיסמה; Persian رمز عبور; Japanese also パスコード, 暗証番号): after ':' or '=' (or their full-width forms) as secret_assignment takes a value, after the language's word for is (ist, lautet, est, es, é, è, is, to, je, er, on, este, adalah, är, это, 是, は, 는, ...) as spoken_assignment does; in a language that writes words apart, with up to 5 words between the name and the operator or the word for is (Kennwort für den Router lautet ..., пароль от почты: ...; in Italian the first of them one of its prepositions, del, della, per, ...) when the value is quoted, or 8 characters or more with a letter and a digit and not a URL or a path: the value"},
	pVendorToken - numReference: {"vendor_token", false,
		"a token of a service that marks its tokens with a prefix of its own (vendor.go: PyPI, SendGrid, DigitalOcean, Shopify, Twilio, Mailgun, Databricks, age, Grafana, GitLab's other tokens, Vault, Doppler, Linear, Notion, Figma, Atlassian, Postman, Docker Hub, Supabase, Sentry, Groq, xAI, Cloudflare's Origin CA keys, Airtable, Dynatrace, Braintree, Plaid, HubSpot, Render, Resend, Pinecone, LangSmith, Voyage AI, Cerebras, Fireworks AI, 1Password service accounts, CircleCI, Buildkite, Sourcegraph, Adafruit IO, ReadMe, Prefect, Duffel, EasyPost, Flutterwave, Typeform, AWS Bedrock API keys, Backblaze B2, X's app-only bearer, BIP-32 xprv / tprv, Nostr nsec, ...), with the vendor's body length and alphabet, at word boundaries, and Mailchimp's API keys, known by their suffix (32 lower-case hex digits, -us and one or two digits): the token"},
	pSeedPhrase - numReference: {"seed_phrase", true,
		"a wallet's mnemonic seed phrase (BIP-0039): 12 or more words in a row of its English list of 2,048 (any case), 10 of them different at least, separated only by blanks, line breaks, commas, hyphens, double quotes or list numbers (1. or 1)): the words"},
	pKeyMaterial - numReference: {"key_material", false,
		"a private key in a shape of its own (keys.go): the private members of a JSON Web Key (d, p, q, dp, dq, qi, k of an object with a kty member) and of an XML RSAKeyValue (D, P, Q, DP, DQ, InverseQ); a Bitcoin private key in Wallet Import Format (base58, 51 characters starting 5H, 5J, 5K or 9, or 52 starting K, L or c) whose double-SHA-256 checksum holds; a 64-byte ed25519 keypair (Solana's), in base58, in base64, in hexadecimal or as an array of 64 numbers from 0 to 255 (in brackets or braces), whose second half is the public key of its first; a WIF-shaped run, or a 64-byte keypair in base58 or as an array, that does not check out only where the text before it, on its line or the one above, names a key (key, secret, private, priv, wallet, wif, solana, bitcoin, btc, seed) and nothing public (public, pubkey, signature, address, hash, txid): the value, the run or the array"},
	pJoined - numReference: {"joined_credential", false,
		"a credential written in pieces that none of the pieces holds alone: string literals joined in code by +, ., ||, a comma or nothing but blanks (\"sk-ant-api03-\" + \"...\", PHP's ., SQL's ||, an array joined, C's and Python's adjacent literals, the shell's \"a\"'b'; over line breaks too; up to 16 literals), a literal continued over lines by a backslash, a token broken at a line's end (the run of token characters that ends a line and the one that starts the next, 4 characters each at least, 20 together; not a hex digest beside a run that is not hexadecimal), or a token spelt out, one and the same separator (a blank, '-' or '.') between every two of its characters, 16 characters or more (g h p _ 1 a 2 b ...): the pieces"},
	pEncoded - numReference: {"encoded_credential", false,
		"a credential encoded: a run of 16 base64 characters or more (standard or URL-safe alphabet, padded or not) that decodes to printable ASCII text, or to such text in UTF-16LE, which holds a credential this battery cuts out of prose, or is a user:password pair (a name with a letter, ':' and 6 characters or more without blanks, as a Docker config's auth holds); such a run that starts with a well-known token's prefix (ghp_, github_pat_, sk-, sk_live_, AKIA, xox, glpat-, ...) in ROT13, or ends with one reversed, and undone holds a credential; 32 hexadecimal digits or more that stand for such text; a run of non-blank text with escapes (%5F, \\u005F, \\x5F, &#95;, &#x5F;) whose unescaped text holds one that the text as written does not: the run"},
}

// match is a match of the battery: the pattern, the position the scanner
// found it at, and the span to redact.
type match struct {
	p, at, start, end int
}

// noMatch is returned by a matcher that finds nothing.
var noMatch = match{p: -1}

// assignmentMask has the patterns a ':' or '=' triggers.
const assignmentMask = 1<<pAssignment | 1<<pAzureKey | 1<<pAzureSig

// isNameByte reports whether c may be part of a variable or key name.
func isNameByte(c byte) bool {
	return isASCIIWord(c) || c == '.' || c == '-'
}

// nameStart returns where the name that ends at s[end] starts: the name
// bytes before end, at most maxNameLen of them (end itself when there is
// none).
func nameStart(s string, end int) int {
	k := end
	for k > 0 && end-k < maxNameLen && isNameByte(s[k-1]) {
		k--
	}
	return k
}

// Bounds of an assignment: the name looked back for, and the value looked
// forward for (a value with no end in sight is taken as that long, so a
// long run of text costs each '=' at most this much).
const (
	maxNameLen  = 64
	maxValueLen = 512
)

// assignmentAt matches an assignment whose operator is s[i] (':' or '='):
// a name before it (optionally quoted, a few spaces away) that calls the
// value a secret, and a value after it that is not a placeholder.
func assignmentAt(s string, i int) match {
	op := s[i]
	j := i + 1
	if op == ':' {
		if strings.HasPrefix(s[j:], ":") || strings.HasPrefix(s[j:], "//") {
			return noMatch // "::" and a URL's scheme
		}
		if strings.HasPrefix(s[j:], "=") {
			j++ // :=
		}
	} else {
		if strings.HasPrefix(s[j:], "=") || strings.HasPrefix(s[j:], "~") {
			return noMatch // == and =~
		}
		if strings.HasPrefix(s[j:], ">") {
			j++ // =>
		}
	}
	// The name.
	k := i
	if op == '=' && k > 0 && s[k-1] == '?' {
		k-- // a Makefile's ?=
	}
	for k > 0 && i-k < 4 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	k -= emphasisBefore(s, k) // **Password**: ...
	if k > 0 && (s[k-1] == '"' || s[k-1] == '\'') {
		k--
		if k > 0 && s[k-1] == '\\' {
			k-- // an escaped quote: JSON inside a JSON string, {\"api_key\":\"...\"}
		}
	}
	nameEnd := k
	k = nameStart(s, nameEnd)
	if k > 0 && isNameByte(s[k-1]) {
		return noMatch // longer than a name
	}
	if op == ':' && k > 0 && s[k-1] == ':' {
		return noMatch // a field of a colon-separated name: arn:aws:...:secret:prod/db
	}
	if psqlVariable(s, i) {
		return noMatch // PASSWORD :'app_password'
	}
	expansion := k >= 2 && s[k-2:k] == "${" // ${DB_PASSWORD:-default}
	if expansion {
		if op != ':' || j >= len(s) || s[j] != '-' && s[j] != '=' {
			return noMatch
		}
		j++
	}
	p := nameKind(s[k:nameEnd])
	if p < 0 && k > 1 && s[k-1] == ' ' && isKeyWord(s[k:nameEnd]) && twoWordName(s, k, nameEnd) {
		p = pAssignment // private key: ...
	}
	if p < 0 && strings.EqualFold(s[k:nameEnd], "pwd") && pwdNamesPassword(s, k, op, j) {
		p = pAssignment // a connection string's PWD, a form's pwd= (not the shell's PWD=/home/me)
	}
	if p < 0 && op == '=' && strings.EqualFold(s[k:nameEnd], "value") && attributeNamesSecret(s, k) {
		p = pConfigValue // <add key="DbPassword" value="...">
	}
	if p < 0 && op == '=' {
		p = typedName(s, k) // const DB_PASSWORD: &str = ..., val apiKey: String = ...
	}
	if p < 0 && strings.EqualFold(s[k:nameEnd], "value") && pairNamesSecret(s, k) {
		p = pConfigValue // - name: DB_PASSWORD / value: ...; {"name": "...", "value": "..."}
	}
	if p < 0 && op == '=' && s[k:nameEnd] == "default" && variableNamesSecret(s, k) {
		p = pConfigValue // variable "db_password" { default = "..." }
	}
	if p < 0 && op == '=' && strings.EqualFold(s[k:nameEnd], "code") && k > 0 && (s[k-1] == '?' || s[k-1] == '&') && onAzureFunctionsHost(s, k-1) {
		p = pAzureKey // https://app.azurewebsites.net/api/Fn?code=...: a function key
	}
	if p < 0 && op == ':' && jwkMember(s, k, nameEnd) {
		p = pKeyMaterial // {"kty":"EC", ..., "d":"..."}
	}
	if p < 0 {
		return noMatch
	}
	if p == pAzureSig && (op != '=' || k > 0 && s[k-1] != '?' && s[k-1] != '&' && !isSpaceByte(s[k-1])) {
		return noMatch
	}
	// The value.
	spaced := s[i-1] == ' ' || s[i-1] == '\t' // i > 0: a name was found
	if n := emphasisBefore(s, k); n > 0 && strings.HasPrefix(s[j:], s[k-n:k]) {
		j += n // **Password:** ...
	}
	for j < len(s) && j-i < 8 && (s[j] == ' ' || s[j] == '\t') {
		j, spaced = j+1, true
	}
	if op == ':' {
		j = blockScalarValue(s, k, j) // password: |, then the value on the next line
	}
	start, end, quoted := j, j, false
	if j < len(s) && (s[j] == '"' || s[j] == '\'') {
		start, quoted = j+1, true
		window := s[start:min(len(s), start+maxValueLen)]
		end = strings.IndexByte(window, s[j])
		if end < 0 {
			end = len(window)
		}
		end += start
	} else if strings.HasPrefix(s[j:], `\"`) {
		// An escaped quote: the value of JSON inside a JSON string, up
		// to the next escaped quote.
		start, quoted = j+2, true
		window := s[start:min(len(s), start+maxValueLen)]
		end = strings.Index(window, `\"`)
		if end < 0 {
			end = len(window)
		}
		end += start
	} else {
		keepAmp := p == pAzureKey && hasSuffixFold(s[k:nameEnd], "signature")
		for end < len(s) && end-start < maxValueLen && !endsValue(s[end], keepAmp) {
			end++
		}
	}
	if !quoted {
		// Sentence punctuation, or the colon after a quoted name.
		for end > start && (s[end-1] == '.' || s[end-1] == ':') {
			end--
		}
	}
	if !plausibleValue(s[start:end], p, op, quoted, spaced) || p == pKeyMaterial && !(quoted && jwkValue(s[start:end])) {
		return noMatch
	}
	if op == ':' && !quoted && strings.EqualFold(s[k:nameEnd], "pass") {
		return noMatch // "PASS: 12 tests": a label, not a setting
	}
	return match{p: p, at: i, start: start, end: end}
}

// psqlVariable reports whether the ':' at s[i] opens a psql variable
// quoted as a literal (:'name', :"name"): a blank before it, a quote
// right after it.
func psqlVariable(s string, i int) bool {
	return s[i] == ':' && i > 0 && s[i-1] == ' ' && i+1 < len(s) && (s[i+1] == '\'' || s[i+1] == '"')
}

// emphasisBefore returns the length of the markdown emphasis (**, __,
// * or _) that ends at s[k], before a bold or italic name: 0 when there
// is none.
func emphasisBefore(s string, k int) int {
	switch {
	case k >= 2 && (s[k-2:k] == "**" || s[k-2:k] == "__"):
		return 2
	case k >= 1 && s[k-1] == '*':
		return 1
	}
	return 0
}

// pwdNamesPassword reports whether pwd, the name that starts at s[k]
// before the operator whose value starts at s[j], is a password's and
// not the shell's working directory (PWD=/home/me): a connection
// string's ;PWD=, a query string's or a form body's pwd= (after ? or
// &), an ODBC section's PWD = after its UID (odbc.ini), or a quoted
// value after pwd: (MongoDB's createUser); not a path.
func pwdNamesPassword(s string, k int, op byte, j int) bool {
	switch {
	case k > 0 && isOneOf(s[k-1], ";?&"):
		return true
	case k > 0 && isSpaceByte(s[k-1]) && containsFold(s[max(0, k-256):k], "uid"):
		// An ODBC section (odbc.ini: UID = etl, PWD = ...), not a path.
		v := skipBlanks(s, j)
		return v < len(s) && s[v] != '/' && s[v] != '~' && s[v] != '$'
	}
	if j = skipBlanks(s, j); op == ':' && j < len(s) && (s[j] == '"' || s[j] == '\'') {
		return j+1 < len(s) && s[j+1] != '/' && s[j+1] != '~'
	}
	return false
}

// blockScalarValue returns where the value of a YAML key whose value
// would start at s[j] starts: at the first line of a block scalar when
// s[j:] is one's indicator (|, >, |-, >+, |2, ...) ending its line, and
// that line is indented deeper than the key's, which starts at s[k];
// j itself otherwise.
func blockScalarValue(s string, k, j int) int {
	if j >= len(s) || s[j] != '|' && s[j] != '>' {
		return j
	}
	e := j + 1
	for e < len(s) && e-j < 4 && (s[e] == '-' || s[e] == '+' || isDigit(s[e])) {
		e++
	}
	indicated := e
	e = skipBlanks(s, e)
	if e > indicated && e < len(s) && s[e] != '\n' && s[e] != '\r' && s[e] != '#' {
		return e // the block's line joined to the key's (white space collapsed)
	}
	if e < len(s) && s[e] == '\r' {
		e++
	}
	if e >= len(s) || s[e] != '\n' {
		return j
	}
	line := strings.LastIndexByte(s[:k], '\n') + 1
	keyIndent := k - line
	for line < k && (s[line] == ' ' || s[line] == '-') {
		line++ // a list item's dash indents its key too
	}
	keyIndent = max(keyIndent, line-strings.LastIndexByte(s[:k], '\n')-1)
	v := skipBlanks(s, e+1)
	if v-(e+1) <= keyIndent || v >= len(s) || s[v] == '\n' {
		return j
	}
	return v
}

// onAzureFunctionsHost reports whether the URL whose query's '?' or '&'
// is s[q] is on an Azure Functions (App Service) host, *.azurewebsites.net,
// where a code= parameter is the function's key: the URL is read back to
// the blank, quote or bracket before it.
func onAzureFunctionsHost(s string, q int) bool {
	b := q
	for b > 0 && q-b < 2048 && !endsValue(s[b-1], true) {
		b--
	}
	u := s[b:q]
	if n := strings.Index(u, "://"); n >= 0 {
		u = u[n+3:]
	}
	if n := strings.IndexAny(u, "/?#"); n >= 0 {
		u = u[:n]
	}
	if n := strings.LastIndexByte(u, ':'); n >= 0 {
		u = u[:n] // a port
	}
	if n := strings.LastIndexByte(u, '@'); n >= 0 {
		u = u[n+1:]
	}
	return hasSuffixFold(u, ".azurewebsites.net")
}

// attributeNamesSecret reports whether the XML tag holding the attribute
// that starts at k has a key="NAME" or name="NAME" attribute before it
// whose NAME names a secret.
func attributeNamesSecret(s string, k int) bool {
	tag := strings.LastIndexByte(s[max(0, k-256):k], '<')
	if tag < 0 {
		return false
	}
	attrs := s[max(0, k-256)+tag : k]
	for _, a := range [...]string{`key="`, `name="`, `key='`, `name='`} {
		if n := strings.Index(attrs, a); n >= 0 {
			v := attrs[n+len(a):]
			if e := strings.IndexByte(v, a[len(a)-1]); e > 0 && nameKind(v[:e]) == pAssignment {
				return true
			}
		}
	}
	return false
}

// typedName returns pAssignment when the word that ends before k is the
// type of a declaration whose name names a secret (NAME: TYPE = in Rust,
// TypeScript, Kotlin, Swift, Python), -1 otherwise.
func typedName(s string, k int) int {
	t := k
	for t > 0 && k-t < 40 && (isNameByte(s[t-1]) || isOneOf(s[t-1], "&<>[]'*. ")) {
		t--
	}
	if t == 0 || s[t-1] != ':' || t > 1 && s[t-2] == ':' {
		return -1
	}
	e := t - 1
	for e > 0 && s[e-1] == ' ' {
		e--
	}
	b := nameStart(s, e)
	if b == e || nameKind(s[b:e]) != pAssignment {
		return -1
	}
	return pAssignment
}

// pairNamesSecret reports whether the value key that starts at k has,
// before it in the same object or list item and within 256 bytes, a name
// or key entry whose value names a secret: a Kubernetes env entry
// (name: DB_PASSWORD, then value:), an ECS task's {"name": ...,
// "value": ...}, an AWS parameter's {"Name": ..., "Value": ...}.
func pairNamesSecret(s string, k int) bool {
	w := s[max(0, k-256):k]
	for end := len(w); end > 0; {
		i := max(lastIndexFold(w[:end], "name"), lastIndexFold(w[:end], "key"))
		if i < 0 {
			return false
		}
		end = i
		if i > 0 && isNameByte(w[i-1]) {
			continue // a longer word: username, apikey
		}
		j := i + 3
		if hasPrefixFold(w[i:], "name") {
			j = i + 4
		}
		if j < len(w) && (w[j] == '"' || w[j] == '\'') {
			j++
		}
		j = skipBlanks(w, j)
		if j >= len(w) || w[j] != ':' && w[j] != '=' {
			continue
		}
		j = skipBlanks(w, j+1)
		if j < len(w) && (w[j] == '"' || w[j] == '\'') {
			j++
		}
		e := j
		for e < len(w) && (isNameByte(w[e]) || w[e] == '.' || w[e] == '/') {
			e++
		}
		between := w[e:]
		return e > j && nameKind(w[j:e]) == pAssignment &&
			!strings.ContainsAny(between, "{}") && !strings.Contains(between, "\n-") && !strings.Contains(between, "\n -") &&
			!containsFold(between, "value")
	}
	return false
}

// lastIndexFold is strings.LastIndex of an ASCII word, in any case.
func lastIndexFold(s, word string) int {
	for i := len(s) - len(word); i >= 0; i-- {
		if hasPrefixFold(s[i:], word) {
			return i
		}
	}
	return -1
}

// variableNamesSecret reports whether the default that starts at k is
// inside a Terraform (HCL) block variable "NAME" { ... } whose NAME names
// a secret, within 512 bytes of it.
func variableNamesSecret(s string, k int) bool {
	before := s[max(0, k-512):k]
	open := strings.LastIndexByte(before, '{')
	if open < 0 || strings.IndexByte(before[open:], '}') >= 0 {
		return false
	}
	head := strings.TrimRight(before[:open], " \t")
	if !strings.HasSuffix(head, `"`) {
		return false
	}
	head = head[:len(head)-1]
	q := strings.LastIndexByte(head, '"')
	if q < 0 || nameKind(head[q+1:]) != pAssignment {
		return false
	}
	label := strings.TrimRight(head[:q], " \t")
	return strings.HasSuffix(label, "variable") && (len(label) == len("variable") || !isNameByte(label[len(label)-len("variable")-1]))
}

// nameKind says which pattern a name before an operator belongs to, or -1.
func nameKind(name string) int {
	if name == "" {
		return -1
	}
	// By the last letter, so that a name is compared with the few
	// suffixes it may have.
	switch lowerASCII(name[len(name)-1]) {
	case 'g':
		if strings.EqualFold(name, "sig") {
			return pAzureSig
		}
	case 'e':
		if hasSuffixFold(name, "sharedaccesssignature") {
			return pAzureKey
		}
		if hasSuffixFold(name, "passphrase") || hasSuffixFold(name, "passcode") || hasSuffixFold(name, "secret_key_base") {
			return pAssignment
		}
	case 'd':
		if hasSuffixFold(name, "password") || hasSuffixFold(name, "passwd") {
			return pAssignment
		}
	case 't':
		if hasSuffixFold(name, "secret") && !namesSecretObject(name) || isPATName(name) {
			return pAssignment
		}
	case 'n':
		if hasSuffixFold(name, "token") && !isCursorName(name) {
			return pAssignment
		}
	case 'h':
		if hasSuffixFold(name, "masterauth") {
			return pAssignment
		}
	case 'a':
		if hasSuffixFold(name, "key-data") || hasSuffixFold(name, "key_data") {
			return pAssignment
		}
	case 'w':
		if shortSecretName(name, "pw") {
			return pAssignment
		}
	case 's':
		if hasSuffixFold(name, "requirepass") || shortSecretName(name, "pass") {
			return pAssignment
		}
		if hasSuffixFold(name, "keys") {
			return keyName(name[:len(name)-4])
		}
	case 'y':
		if hasSuffixFold(name, "accountkey") || hasSuffixFold(name, "sharedaccesskey") {
			return pAzureKey
		}
		if hasSuffixFold(name, "apikey") {
			return pAssignment
		}
		if hasSuffixFold(name, "key") {
			return keyName(name[:len(name)-3])
		}
	}
	if len(localizedByLast[lowerASCII(name[len(name)-1])]) > 0 && localizedSecretName(name) {
		return pAssignment // DB_PASSWORT, senha (words.go)
	}
	return -1
}

// namesSecretObject reports whether name, ending with secret, names the
// Kubernetes Secret a chart or manifest reads a credential from
// (existingSecret, auth.existing_secret, imagePullSecret): its value is
// the object's name, not the credential.
func namesSecretObject(name string) bool {
	head := strings.TrimRight(name[:len(name)-len("secret")], "_-.")
	return hasSuffixFold(head, "existing") || hasSuffixFold(head, "pull")
}

// isPATName reports whether name, in upper case, names a personal
// access token: PAT, or ending with _PAT, -PAT or .PAT
// (AZURE_DEVOPS_EXT_PAT, GH_PAT). In lower case pat is as often a
// pattern (url_pat = re.compile(...)).
func isPATName(name string) bool {
	return name == "PAT" || len(name) > 4 && strings.HasSuffix(name, "PAT") && isOneOf(name[len(name)-4], "_-.")
}

// isCursorName reports whether a name ending with token names a page
// cursor (pageToken, next_page_token, continuationToken, syncToken): a
// place in a listing, not a credential.
func isCursorName(name string) bool {
	head := strings.TrimRight(name[:len(name)-len("token")], "_-.")
	for _, w := range [...]string{"page", "continuation", "sync", "cursor"} {
		if hasSuffixFold(head, w) {
			return true
		}
	}
	return false
}

// namesSecret reports whether v is itself a secret's name (password,
// mypassword, secret, passwd): a documented command's placeholder, not
// a value.
func namesSecret(v string) bool {
	return nameKind(v) == pAssignment
}

// keyName says whether a name ending with key (or keys), of which head
// is the rest, names a secret: a key after secret, private, api,
// signing, encryption, master, auth, app, function or access (an API's
// access_key=, as a query string gives it).
func keyName(head string) int {
	for _, w := range [...]string{"secret", "private", "api", "signing", "encryption", "master", "auth", "app", "function", "access"} {
		if containsFold(head, w) {
			return pAssignment
		}
	}
	return -1
}

// shortSecretName reports whether name is short, a short word for a
// password (pw, pass), or ends with it after '_', '-' or '.' (DB_PW,
// ansible_ssh_pass, smtp.pass).
func shortSecretName(name, short string) bool {
	return strings.EqualFold(name, short) ||
		len(name) > len(short) && hasSuffixFold(name, short) && isOneOf(name[len(name)-len(short)-1], "_-.")
}

// isKeyWord reports whether name is key or keys (any case), the one word
// whose name of a secret takes the word before it ("private key").
func isKeyWord(name string) bool {
	return strings.EqualFold(name, "key") || strings.EqualFold(name, "keys")
}

// twoWordName reports whether the name s[k:end] and the word just before
// it (one or two spaces between) name a secret when read as one: "api
// key", "private key", "secret key".
func twoWordName(s string, k, end int) bool {
	m := k
	for m > 0 && k-m < 2 && s[m-1] == ' ' {
		m--
	}
	first := m
	for first > 0 && m-first < maxNameLen && isASCIILetter(s[first-1]) {
		first--
	}
	if first == m || first > 0 && isNameByte(s[first-1]) || m-first+end-k > maxNameLen {
		return false
	}
	var joined [maxNameLen]byte // on the stack: the spoken form tries every "is" of prose
	n := copy(joined[:], s[first:m])
	n += copy(joined[n:], s[k:end])
	return nameKind(string(joined[:n])) == pAssignment
}

// spokenAssignmentAt matches "NAME is value" at s[i:], which starts with
// the word "is" (any case) at a word boundary: a secret's name just
// before it (one word, or two read as one: "api key"), and a value after
// it that is quoted, or long and mixed enough not to be a word of prose
// ("the token is valid", "the password is required"). A few words may
// stand between the name and "is" when the first of them joins them
// ("the password for the staging db is ...", namedBefore) and the value
// is one (windowValue). The span is the value.
func spokenAssignmentAt(s string, i int) match {
	j := i + len("is")
	if j >= len(s) || s[j] != ' ' && s[j] != '\t' {
		return noMatch
	}
	// The name: the word before, or the two words before it joined.
	k := i
	for k > 0 && i-k < 4 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	if k == i {
		return noMatch
	}
	end := k
	k = nameStart(s, end)
	if nameKind(s[k:end]) != pAssignment && !twoWordName(s, k, end) {
		// Words between the name and "is": the value first, which
		// prose almost never gives.
		if start, stop, ok := windowValue(s, skipBlanks(s, j), false); ok && k < end && namedBefore(s, k, end) {
			return match{p: pSpokenAssignment, at: i, start: start, end: stop}
		}
		return valueNamedAfter(s, i, j)
	}
	start, stop, ok := spokenValue(s, skipBlanks(s, j), false)
	if !ok {
		return noMatch
	}
	return match{p: pSpokenAssignment, at: i, start: start, end: stop}
}

// valueNamedAfter matches "VALUE is the password" at s[i:], the word
// "is" (s[j] is the blank after it): the value before it, and after it
// the, my, our or your and at most three words, the last of which names
// a secret and ends the clause (punctuation, the text's end, or a
// joining word: "Xk9#... is the new admin password, don't lose it").
// The value must look like a secret (8 characters or more, a letter and
// a digit, not words decorated with digits) or be quoted. The span is
// the value.
func valueNamedAfter(s string, i, j int) match {
	w := skipBlanks(s, j)
	det := w
	for w < len(s) && isASCIILetter(s[w]) {
		w++
	}
	switch strings.ToLower(s[det:w]) {
	case "the", "my", "our", "your":
	default:
		return noMatch
	}
	named := false
	for n := 0; n < 3 && !named; n++ {
		if w >= len(s) || s[w] != ' ' {
			return noMatch
		}
		start := w + 1
		for w = start; w < len(s) && isASCIILetter(s[w]); w++ {
		}
		if w == start {
			return noMatch
		}
		named = nameKind(s[start:w]) == pAssignment
	}
	if !named || !endsClause(s, w) {
		return noMatch
	}
	end := i
	for end > 0 && (s[end-1] == ' ' || s[end-1] == '\t') {
		end--
	}
	start := end
	for start > 0 && !isSpaceByte(s[start-1]) && end-start < maxValueLen {
		start--
	}
	if start == end {
		return noMatch
	}
	if q := s[start]; end-start > 2 && (q == '"' || q == '\'' || q == '`') && s[end-1] == q {
		if v := s[start+1 : end-1]; plausibleValue(v, pAssignment, ':', true, true) {
			return match{p: pSpokenAssignment, at: i, start: start + 1, end: end - 1}
		}
		return noMatch
	}
	if v := s[start:end]; !hasLetterAndDigit(v) || !looksLikeSecret(v) {
		return noMatch
	}
	return match{p: pSpokenAssignment, at: i, start: start, end: end}
}

// endsClause reports whether the word that ends at s[w] ends a clause:
// the text ends, punctuation follows, or a joining word (for, of, to,
// ...) does.
func endsClause(s string, w int) bool {
	if w >= len(s) || isOneOf(s[w], ".,;:!?)\n\r") {
		return true
	}
	if s[w] != ' ' {
		return false
	}
	k := w + 1
	for k < len(s) && isASCIILetter(s[k]) {
		k++
	}
	return isConnector(s[w+1 : k])
}

// endsValue reports whether c ends an unquoted value.
func endsValue(c byte, keepAmp bool) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f', '"', '\'', ',', ';', ')', ']', '}', '<', '>':
		return true
	case '&':
		return !keepAmp
	}
	return false
}

// placeholderWords are values that stand for a secret without being one
// (a help text's type among them: --password string).
var placeholderWords = [...]string{"null", "none", "nil", "true", "false", "undefined", "string", "required", "optional", "empty", "unset", "redacted", "int", "duration", "value", "file", "path"}

// isPlaceholderWord reports whether v is one of placeholderWords, in any
// case.
func isPlaceholderWord(v string) bool {
	for _, w := range placeholderWords {
		if strings.EqualFold(v, w) {
			return true
		}
	}
	return false
}

// plausibleValue reports whether v, found after an operator, may be a
// secret rather than a placeholder, a reference to one, prose or code.
// spaced says that blanks stand around the operator, as in code
// (token = getToken()), which a shell or .env assignment never has.
func plausibleValue(v string, p int, op byte, quoted, spaced bool) bool {
	minLen := 4
	switch p {
	case pAzureKey:
		minLen = 8
	case pAzureSig:
		minLen = 16
	}
	if !literal(v, minLen) {
		return false
	}
	if isPlaceholderWord(v) {
		return false
	}
	if p == pAssignment && !quoted {
		if op == ':' && len(v) < 8 && onlyLetters(v) {
			return false // "Token: each request..." is prose
		}
		if op == '=' && spaced && (isExpression(v) || isCmdletName(v)) {
			return false // token = await, password = cfg.Password, $pw = ConvertTo-SecureString: code
		}
		if isOpenedExpression(v) || isMemberOfLowerRoot(v) {
			return false // password=os.environ["X"], password: process.env.DB_PASSWORD: code
		}
	}
	return true
}

// isOpenedExpression reports whether v is an expression cut where an
// index or a call opens (request.form[, os.environ[, getpass(): the
// quote of its argument ended the value), without a digit.
func isOpenedExpression(v string) bool {
	n := len(v)
	return n > 1 && (v[n-1] == '[' || v[n-1] == '(') && isExpression(v[:n-1])
}

// isMemberOfLowerRoot reports whether v is a member expression whose
// root is a lower-case word (process.env.DB_PASSWORD, settings.SECRET,
// cfg.auth.token), without a digit: code, as a secret is seldom two
// words joined by a dot with no digit.
func isMemberOfLowerRoot(v string) bool {
	root, rest, ok := strings.Cut(v, ".")
	if !ok || root == "" || rest == "" || !isExpression(v) || strings.IndexByte(v, '(') >= 0 {
		return false
	}
	for i := 0; i < len(root); i++ {
		if root[i] < 'a' || root[i] > 'z' {
			return false
		}
	}
	return true
}

// isExpression reports whether v reads as an identifier or a member or
// call expression without a digit in it (cfg.password, getToken(),
// await): code, not a literal.
func isExpression(v string) bool {
	if !isASCIILetter(v[0]) && v[0] != '_' {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !isASCIILetter(c) && c != '_' && c != '.' && c != '(' {
			return false
		}
	}
	return true
}

// isCmdletName reports whether v is a PowerShell cmdlet's Verb-Noun name
// (Get-Content, ConvertTo-SecureString): letters only, one '-', each
// side starting upper case.
func isCmdletName(v string) bool {
	verb, noun, ok := strings.Cut(v, "-")
	return ok && verb != "" && noun != "" && verb[0] >= 'A' && verb[0] <= 'Z' && noun[0] >= 'A' && noun[0] <= 'Z' &&
		onlyLetters(verb) && onlyLetters(noun)
}

// literal reports whether v, found where a secret is given, may be one:
// minLen bytes or more, and neither a placeholder nor a name standing for
// the value.
func literal(v string, minLen int) bool {
	return len(v) >= minLen && !isPlaceholder(v) && !isPlaceholderName(v)
}

// isPlaceholderName reports whether v is written as a name for a value
// (TOKEN, API_KEY, YOUR-PASSWORD): upper case letters, '_' and '-' only.
func isPlaceholderName(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'A' && c <= 'Z' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// isPlaceholder reports whether v stands for a value instead of being one:
// a variable ($X, ${X}, %s), a template (<x>, {{x}}, [x], (x)), a
// comment, one character repeated (****, xxxx), or a reference to where a
// secret store keeps it (secretRefs: vault:secret/db#password,
// op://vault/item/field, arn:aws:secretsmanager:...).
func isPlaceholder(v string) bool {
	if v == "" {
		return true
	}
	switch v[0] {
	case '$', '<', '{', '[', '%', '(', '#', '*':
		return true
	case '!', '@', ':':
		if len(v) > 1 && (onlyLetters(strings.Trim(v[1:], "!_")) || isExpression(v[1:])) {
			return true // a YAML tag (!vault, !Ref), a bind parameter (@password, :name)
		}
	}
	if strings.HasPrefix(v, "ENC[") {
		return true // a value sops encrypted
	}
	for _, ref := range secretRefs {
		if hasPrefixFold(v, ref) {
			return true
		}
	}
	return strings.Count(v, v[:1]) == len(v)
}

// secretRefs are how the references to a secret store's entries start
// (HashiCorp Vault and the tools that resolve its references, 1Password,
// vals, AWS Secrets Manager and Parameter Store, Google Secret Manager,
// Azure Key Vault).
var secretRefs = [...]string{"vault:", "op://", "ref+", "arn:aws:secretsmanager:", "arn:aws:ssm:", "sm://", "gcpsm://", "projects/", "akv:", "keyvault:"}

func onlyLetters(v string) bool {
	for i := 0; i < len(v); i++ {
		if !isASCIILetter(v[i]) {
			return false
		}
	}
	return true
}

// urlPasswordAt matches scheme://user:password@ at s[i:], which starts with
// "://" after a scheme character; the span is the password. The slashes
// may also be written as a JSON Pointer escapes them (":~1~1"), which is how
// schema errors name a field.
func urlPasswordAt(s string, i int) match {
	if i == 0 || !isSchemeByte(s[i-1]) {
		return noMatch
	}
	j := i + 3
	if strings.HasPrefix(s[i:], ":~1~1") {
		j = i + 5
	}
	for j < len(s) && isUserinfoByte(s[j]) && s[j] != ':' {
		j++
	}
	if j >= len(s) || s[j] != ':' {
		return noMatch
	}
	start := j + 1
	for j = start; j < len(s) && isUserinfoByte(s[j]); j++ {
	}
	if j == start || j >= len(s) || s[j] != '@' || isPlaceholder(s[start:j]) {
		return noMatch
	}
	return match{p: pURLPassword, at: i, start: start, end: j}
}

func isSchemeByte(c byte) bool {
	return isASCIILetter(c) || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'
}

// isUserinfoByte reports whether c may be part of a URL's user or
// password as people write them: anything but space, a quote and the
// delimiters that end the authority.
func isUserinfoByte(c byte) bool {
	switch c {
	case '/', '?', '#', '@', '"', '\'', '<', '>':
		return false
	}
	return c > ' ' && c != 0x7f
}

// bearerValueAt matches "Bearer <token>" at s[i:] (which starts with
// "bearer" in any case at a word boundary); the span is the token.
func bearerValueAt(s string, i int) match {
	m := token68After(s, i+len("bearer"))
	if m.p < 0 {
		return noMatch
	}
	return match{p: pBearerValue, at: i, start: m.start, end: m.end}
}

// token68After matches, after an authorization scheme ending at j,
// blanks and a credential: 16 token68 characters or more (and its '='
// padding) with a digit or both cases. Its p is 0 when it matches.
func token68After(s string, j int) match {
	start := skipBlanks(s, j)
	if start == j {
		return noMatch
	}
	j = start
	digit, upper, lower := false, false, false
	for ; j < len(s) && isToken68(s[j]); j++ {
		c := s[j]
		digit = digit || c >= '0' && c <= '9'
		upper = upper || c >= 'A' && c <= 'Z'
		lower = lower || c >= 'a' && c <= 'z'
	}
	if j-start < 16 || !digit && !(upper && lower) {
		return noMatch
	}
	for j < len(s) && s[j] == '=' {
		j++
	}
	return match{at: start, start: start, end: j}
}

// isToken68 reports whether c belongs to RFC 9110's token68 (without the
// trailing '=').
func isToken68(c byte) bool {
	return isASCIIWord(c) || c == '-' || c == '.' || c == '~' || c == '+' || c == '/'
}

// basicValueAt matches "Basic <base64>" at s[i:] (which starts with
// "basic" in any case at a word boundary) when the value decodes to
// printable user:password; the span is the value.
func basicValueAt(s string, i int) match {
	j := skipBlanks(s, i+len("basic"))
	if j == i+len("basic") {
		return noMatch
	}
	start := j
	for j < len(s) && isBase64Byte(s[j]) {
		j++
	}
	body := j
	for j < len(s) && j-body < 2 && s[j] == '=' {
		j++
	}
	if body-start < 8 || j < len(s) && (isToken68(s[j]) || s[j] == '=') {
		return noMatch
	}
	enc := base64.RawStdEncoding
	if j > body {
		enc = base64.StdEncoding
	}
	raw, err := enc.DecodeString(s[start:j])
	if err != nil || !strings.Contains(string(raw), ":") {
		return noMatch
	}
	for _, c := range raw {
		if c < ' ' || c > '~' {
			return noMatch
		}
	}
	return match{p: pBasicValue, at: i, start: start, end: j}
}

func isBase64Byte(c byte) bool {
	return isASCIILetter(c) || c >= '0' && c <= '9' || c == '+' || c == '/'
}

// skipBlanks returns the index of the first byte at or after j that is
// not a space or a tab.
func skipBlanks(s string, j int) int {
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	return j
}

// bdnTokenAt matches this server's member token at s[i:] (which starts
// with "bdn_" at a word boundary): bdn_ and 48 or more lowercase hex
// digits (trust.TokenPrefix, trust's newToken).
func bdnTokenAt(s string, i int) match {
	j := i + len("bdn_")
	for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] >= 'a' && s[j] <= 'f') {
		j++
	}
	if j-i-len("bdn_") < 48 {
		return noMatch
	}
	return match{p: pBdnToken, at: i, start: i, end: j}
}

// awsSecret is an AWS secret access key next to the name that says so.
var awsSecret = regexp.MustCompile(`^(?i:aws[_\-]?secret(?:[_\-]?access)?(?:[_\-]?key)?|secret[_\-]?access[_\-]?key)["']?(?:[ \t]*(?:=>|:=|[:=])[ \t]*|[ \t]+)["']?([A-Za-z0-9/+]{40})(?:$|[^A-Za-z0-9/+=])`)

// awsSecretAt matches an AWS secret access key after its name at s[i:],
// a word boundary; the span is the key, which must mix upper case, lower
// case and a digit or symbol.
func awsSecretAt(s string, i int) match {
	m := awsSecret.FindStringSubmatchIndex(s[i:])
	if m == nil {
		return noMatch
	}
	if !mixedKey(s[i+m[2] : i+m[3]]) {
		return noMatch
	}
	return match{p: pAWSSecret, at: i, start: i + m[2], end: i + m[3]}
}

// mixedKey reports whether key mixes upper case, lower case and a digit
// or symbol, as a random key does and a word or a hex digest does not.
func mixedKey(key string) bool {
	upper, lower, other := false, false, false
	for j := 0; j < len(key); j++ {
		c := key[j]
		upper = upper || c >= 'A' && c <= 'Z'
		lower = lower || c >= 'a' && c <= 'z'
		other = other || !isASCIILetter(c)
	}
	return upper && lower && other
}

// PEM body lines.
const (
	pemMinLine = 64 // PEM (RFC 7468) lines are 64 characters
	pemMaxLine = 76 // OpenSSH writes 70, MIME 76
)

// pemBodyAt finds the first PEM body line at or after from: a maximal run
// of 64 to 76 base64 characters between whitespace (or quotes, or the ends
// of s) that has upper case, lower case and a digit. The span goes on over
// the body lines that follow, the last (shorter) one and an END line.
func pemBodyAt(s string, from int) match {
	for i := from; ; {
		start, j := runAt(s, i, pemMinLine, &base64Byte)
		if start < 0 {
			break
		}
		i = start
		if isSSHPublicKeyBlob(s[i:j]) {
			i = j // a public key: nothing to hide
			continue
		}
		if end := publicBlockEnd(s, i); end >= 0 {
			i = end // a certificate, a public key: nothing to hide
			continue
		}
		// i starts a run (or is from); in quoted text ("%q", JSON) a line
		// follows an escaped newline, whose letter the run took.
		if isPEMLine(s, i, j) {
			return match{p: pPEMBody, at: i, start: i, end: pemTail(s, j)}
		}
		if afterEscape(s, i+1) && isPEMLine(s, i+1, j) {
			return match{p: pPEMBody, at: i + 1, start: i + 1, end: pemTail(s, j)}
		}
		// A line at the end of a path (a URI names a resource by it);
		// not the tail of one long run of base64 after a blank, a quote,
		// '=' or ':' (kubeconfig's certificate-authority-data), whose
		// '/' are base64 digits.
		for k := j - pemMinLine; inPath(s, i) && k >= max(i+1, j-pemMaxLine); k-- {
			if s[k-1] == '/' && isPEMLine(s, k, j) {
				return match{p: pPEMBody, at: k, start: k, end: pemTail(s, j)}
			}
		}
		i = j
	}
	return noMatch
}

// inPath reports whether the base64 run that starts at s[i] may be a
// path: it starts with '/', or goes on from text that is no blank, quote,
// '=' or ':' (a host name's last label).
func inPath(s string, i int) bool {
	return s[i] == '/' || i > 0 && !isSpaceByte(s[i-1]) && !isOneOf(s[i-1], "\"'=:")
}

// runAt returns the first run of n bytes or more of class at or after i,
// from start up to end; start is -1 when there is none. It looks at the
// far end of each window of n bytes first, so that text of shorter words
// is passed over a word at a time. The run may start at i inside a longer
// one.
func runAt(s string, i, n int, class *[256]bool) (start, end int) {
	for i+n <= len(s) {
		k := i + n - 1
		for k >= i && class[s[k]] {
			k--
		}
		if k >= i {
			i = k + 1
			continue
		}
		j := i + n
		for j < len(s) && class[s[j]] {
			j++
		}
		return i, j
	}
	return -1, -1
}

// pemLookBack bounds how far before a body line its BEGIN line is looked
// for.
const pemLookBack = 32 << 10

// publicBlockEnd returns, when s[i] is inside a PEM block whose label
// names no private key (a certificate, a public key, a PGP public key
// block, a signature), the end of that block: after its END line, or the
// end of s. It returns -1 otherwise.
func publicBlockEnd(s string, i int) int {
	lo := max(0, i-pemLookBack)
	b := strings.LastIndex(s[lo:i], "-----BEGIN ")
	if b < 0 {
		return -1
	}
	b += lo + len("-----BEGIN ")
	n := strings.Index(s[b:min(len(s), b+64)], "-----")
	if n < 0 || strings.Contains(s[b:b+n], "PRIVATE") || strings.Contains(s[b:i], "-----END ") {
		return -1
	}
	e := strings.Index(s[i:], "-----END ")
	if e < 0 {
		return len(s)
	}
	e += i + len("-----END ")
	if k := strings.Index(s[e:min(len(s), e+64)], "-----"); k >= 0 {
		return e + k + len("-----")
	}
	return e
}

// sshPublicKeyBlobs are how the base64 of an SSH public key starts: the
// length and name of its key type (ssh-ed25519, ssh-rsa, ssh-dss,
// ecdsa-sha2-..., sk-ssh-ed25519@openssh.com, sk-ecdsa-sha2-...). An
// ed25519 key's is 68 characters, the length of a PEM body line.
var sshPublicKeyBlobs = [...]string{"AAAAC3NzaC1lZDI1NTE5", "AAAAB3NzaC1yc2E", "AAAAB3NzaC1kc3M", "AAAAE2VjZHNhLXNoYTIt", "AAAAGnNrLXNzaC1lZDI1NTE5", "AAAAInNrLWVjZHNhLXNoYTIt"}

func isSSHPublicKeyBlob(run string) bool {
	for _, p := range sshPublicKeyBlobs {
		if strings.HasPrefix(run, p) {
			return true
		}
	}
	return false
}

// afterEscape reports whether s[i-2:i] is an escaped newline, carriage
// return or tab, as Go's %q and JSON write them.
func afterEscape(s string, i int) bool {
	return i >= 2 && s[i-2] == '\\' && (s[i-1] == 'n' || s[i-1] == 'r' || s[i-1] == 't')
}

// skipSeparators returns the index of the first byte at or after k that
// is neither whitespace nor an escaped newline, carriage return or tab.
func skipSeparators(s string, k int) int {
	for k < len(s) {
		switch {
		case isSpaceByte(s[k]):
			k++
		case k+2 <= len(s) && afterEscape(s, k+2):
			k += 2
		default:
			return k
		}
	}
	return k
}

// base64Byte[c] reports whether c is in the standard base64 alphabet
// (without '=').
var base64Byte = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = isBase64Byte(byte(c))
	}
	return t
}()

// isPEMLine reports whether s[i:j], a maximal run of base64 characters,
// is a full PEM body line.
func isPEMLine(s string, i, j int) bool {
	if n := j - i; n < pemMinLine || n > pemMaxLine {
		return false
	}
	if i > 0 && !pemBoundary(s[i-1]) && !afterEscape(s, i) && s[i-1] != '/' || j < len(s) && !pemBoundary(s[j]) && s[j] != '\\' {
		return false
	}
	upper, lower, digit := false, false, false
	for k := i; k < j; k++ {
		c := s[k]
		upper = upper || c >= 'A' && c <= 'Z'
		lower = lower || c >= 'a' && c <= 'z'
		digit = digit || c >= '0' && c <= '9'
	}
	return upper && lower && digit
}

// pemBoundary reports whether c may stand next to a PEM body line.
func pemBoundary(c byte) bool {
	return isSpaceByte(c) || c == '"' || c == '\''
}

func isSpaceByte(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

// pemTail returns the end of a PEM body whose last full line ends at j:
// after the full lines that follow, the final shorter line (which has a
// digit, a '+', a '/' or padding), and an END line.
func pemTail(s string, j int) int {
	for {
		k := skipSeparators(s, j)
		if strings.HasPrefix(s[k:], "-----END ") {
			if e := strings.Index(s[k+9:], "-----"); e >= 0 {
				return k + 9 + e + 5
			}
			return j
		}
		e := k
		for e < len(s) && isBase64Byte(s[e]) {
			e++
		}
		if e == k {
			return j
		}
		if isPEMLine(s, k, e) {
			j = e
			continue
		}
		last := false
		for p := k; p < e; p++ {
			c := s[p]
			last = last || c >= '0' && c <= '9' || c == '+' || c == '/'
		}
		for e < len(s) && e-k <= pemMaxLine && s[e] == '=' {
			last = true
			e++
		}
		if !last || e-k > pemMaxLine || e < len(s) && !pemBoundary(s[e]) && s[e] != '\\' {
			return j
		}
		j = e
		// After the last line only an END line may follow.
		k = skipSeparators(s, j)
		if strings.HasPrefix(s[k:], "-----END ") {
			if e := strings.Index(s[k+9:], "-----"); e >= 0 {
				return k + 9 + e + 5
			}
		}
		return j
	}
}

// maxPEMBlock bounds how far a PEM header looks for its END line (a
// 4096-bit RSA key is about 3,300 characters).
const maxPEMBlock = 16 << 10

// pemHeaderEnd returns where the span of a PEM header that ends at j
// stops: the END line when there is one, else the body lines that follow.
func pemHeaderEnd(s string, j int) int {
	window := s[j:min(len(s), j+maxPEMBlock)]
	if e := strings.Index(window, "-----END "); e >= 0 {
		if f := strings.Index(window[e+9:], "-----"); f >= 0 {
			return j + e + 9 + f + 5
		}
	}
	k := skipSeparators(s, j)
	e := k
	for e < len(s) && isBase64Byte(s[e]) {
		e++
	}
	if isPEMLine(s, k, e) {
		return pemTail(s, e)
	}
	return j
}

// hasSuffixFold reports whether s ends with suffix under ASCII case
// folding; suffix must be lower case.
func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && hasPrefixFold(s[len(s)-len(suffix):], suffix)
}

// containsFold reports whether s contains sub under ASCII case folding;
// sub must be lower case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if hasPrefixFold(s[i:], sub) {
			return true
		}
	}
	return false
}
