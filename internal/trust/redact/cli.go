package redact

import (
	"encoding/base64"
	"strings"
)

// Credentials on a command line, and payment card numbers: shapes that
// start at a '-' or a digit, where none of the reference's patterns
// starts.

// cliSecretFlags are the long options whose value is a secret
// (--password=..., --token ...), lower case.
var cliSecretFlags = [...]string{
	"password", "passwd", "pass", "passphrase", "token", "secret", "api-key", "apikey",
	"access-token", "auth-token", "client-secret", "secret-key", "private-key-password",
}

// cliCredentialAt matches, at s[i] == '-' after a blank or at the start
// of s, a command-line credential: a long option naming a secret with
// its value (--password Sup3r, --token=abc123), or curl's user option
// with user:password (-u admin:pw, --user admin:pw). The span is the
// value, or the password after the user.
func cliCredentialAt(s string, i int) match {
	if i > 0 && !isBlank(s[i-1]) && s[i-1] != '"' && s[i-1] != '\'' && s[i-1] != '`' {
		return noMatch
	}
	if len(s) > i+2 && isASCIILetter(s[i+1]) && s[i+1] != 'u' {
		return shortOptionAt(s, i)
	}
	j, userOption := i, false
	switch {
	case strings.HasPrefix(s[i:], "-u") && len(s) > i+2 && (s[i+2] == ' ' || s[i+2] == '\t'):
		j, userOption = i+2, true
	case strings.HasPrefix(s[i:], "--user") && len(s) > i+6 && (s[i+6] == ' ' || s[i+6] == '\t' || s[i+6] == '='):
		j, userOption = i+6, true
	case strings.HasPrefix(s[i:], "--"):
		name := i + 2
		k := name
		for k < len(s) && (isASCIILetter(s[k]) || s[k] == '-') {
			k++
		}
		if !isSecretFlag(s[name:k]) || k >= len(s) || s[k] != ' ' && s[k] != '\t' && s[k] != '=' {
			return noMatch
		}
		j = k
	default:
		return noMatch
	}
	// The value: after '=' or blanks, optionally quoted.
	if s[j] == '=' {
		j++
	} else {
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
	}
	quote := byte(0)
	if j < len(s) && (s[j] == '"' || s[j] == '\'') {
		quote = s[j]
		j++
	}
	start := j
	for j < len(s) && j-start < maxValueLen {
		if quote != 0 && s[j] == quote || quote == 0 && (isBlank(s[j]) || s[j] == '`' || endsValue(s[j], true)) {
			break
		}
		j++
	}
	v := s[start:j]
	if v == "" || v[0] == '-' || isPlaceholder(v) || isPlaceholderName(v) {
		return noMatch
	}
	if userOption {
		user, pass, ok := strings.Cut(v, ":")
		if !ok || user == "" || pass == "" || isPlaceholder(pass) || isPlaceholderName(pass) {
			return noMatch
		}
		start += len(user) + 1
	} else if len(v) < 4 {
		return noMatch
	}
	return match{p: pCLICredential, at: i, start: start, end: j}
}

func isSecretFlag(name string) bool {
	for _, f := range cliSecretFlags {
		if strings.EqualFold(name, f) {
			return true
		}
	}
	return false
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

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// Payment cards: 13 to 19 digits, written whole or in groups of four
// (Amex: 4-6-5) with one space or '-' between them, whose first digits
// are an issuer's (Visa, Mastercard, Amex, Discover, JCB, Diners,
// UnionPay) and whose last digit is the Luhn check digit.
const (
	minCardDigits = 13
	maxCardDigits = 19
)

// paymentCardAt matches a payment card number starting at s[i], a digit
// at a word boundary; the span is the number.
func paymentCardAt(s string, i int) match {
	if s[i] < '2' || s[i] > '6' {
		return noMatch // no issuer's number starts so
	}
	var digits [maxCardDigits]byte
	var groups [6]int
	n, g, j := 0, 0, i
	sep := byte(0)
	for ; j < len(s); j++ {
		c := s[j]
		if c >= '0' && c <= '9' {
			if n == maxCardDigits {
				return noMatch
			}
			digits[n] = c - '0'
			n++
			groups[g]++
			continue
		}
		if c != ' ' && c != '-' && c != '.' || j+1 >= len(s) || s[j+1] < '0' || s[j+1] > '9' || sep != 0 && sep != c {
			break
		}
		// A group ends: cards are grouped by four, or 4-6-5.
		if groups[g] != 4 && !(g == 1 && groups[g] == 6 && groups[0] == 4) || g == len(groups)-1 {
			return noMatch
		}
		sep = c
		g++
	}
	if j < len(s) && isASCIIWord(s[j]) || n < minCardDigits || !cardGrouping(groups[:g+1], n) ||
		!cardIssuer(digits[:n]) || !luhn(digits[:n]) {
		return noMatch
	}
	return match{p: pPaymentCard, at: i, start: i, end: j}
}

// cardGrouping reports whether the groups of digits are written as
// cards are: one run, groups of four (the last may be shorter), or
// Amex's 4-6-5.
func cardGrouping(groups []int, n int) bool {
	if len(groups) == 1 {
		return true
	}
	if len(groups) == 3 && groups[0] == 4 && groups[1] == 6 && groups[2] == 5 {
		return true
	}
	for k, l := range groups {
		if l != 4 && (k < len(groups)-1 || l == 0 || l > 4) {
			return false
		}
	}
	return n >= 15
}

// cardIssuer reports whether the first digits are an issuer's, for the
// number's length.
func cardIssuer(d []byte) bool {
	prefix := func(k int) int {
		v := 0
		for _, x := range d[:k] {
			v = v*10 + int(x)
		}
		return v
	}
	n := len(d)
	switch p2, p4 := prefix(2), prefix(4); {
	case d[0] == 4:
		return n == 13 || n == 16 || n == 19 // Visa
	case p2 >= 51 && p2 <= 55, p4 >= 2221 && p4 <= 2720:
		return n == 16 // Mastercard
	case p2 == 34 || p2 == 37:
		return n == 15 // Amex
	case p4 == 6011, p2 == 65, prefix(3) >= 644 && prefix(3) <= 649:
		return n >= 16 // Discover
	case p4 >= 3528 && p4 <= 3589:
		return n >= 16 // JCB
	case p2 == 36 || p2 == 38 || prefix(3) >= 300 && prefix(3) <= 305:
		return n == 14 || n == 16 // Diners
	case p2 == 62:
		return n >= 16 // UnionPay
	}
	return false
}

// luhn reports whether the number's check digit is right.
func luhn(d []byte) bool {
	sum := 0
	for k := range d {
		x := int(d[len(d)-1-k])
		if k%2 == 1 {
			if x *= 2; x > 9 {
				x -= 9
			}
		}
		sum += x
	}
	return sum%10 == 0
}

// awsSecretAfterID returns the end of an AWS secret access key that
// follows an access key id ending at end, after a separator of one to
// three blanks, commas, colons, semicolons, pipes or slashes (an id and its
// secret pasted together, as the console's CSV has them), or end when
// none does. The key is 40 base64 characters mixing upper case, lower
// case and a digit or symbol.
func awsSecretAfterID(s string, end int) int {
	j := end
	for j < len(s) && j-end < 3 && isOneOf(s[j], " \t,:;|/") {
		j++
	}
	if j == end {
		return end
	}
	k := j
	for k < len(s) && k-j <= 40 && (isASCIILetter(s[k]) || s[k] >= '0' && s[k] <= '9' || s[k] == '/' || s[k] == '+') {
		k++
	}
	if k-j != 40 || k < len(s) && (isASCIIWord(s[k]) || s[k] == '=') || !mixedKey(s[j:k]) {
		return end
	}
	return k
}

// authHeaderAt matches an Authorization header's credential at s[i:],
// which starts with "authorization" (any case) at a word boundary:
// ':' or '=' (the name possibly quoted), a scheme word of any name
// (Bearer, Basic, token, SSWS, Bot, ...), and a value of 16 token68
// characters or more with a digit or both cases. The span is the value.
func authHeaderAt(s string, i int) match {
	j := i + len("authorization")
	if j < len(s) && (s[j] == '"' || s[j] == '\'') {
		j++
	}
	j = skipBlanks(s, j)
	if j >= len(s) || s[j] != ':' && s[j] != '=' {
		return noMatch
	}
	j = skipBlanks(s, j+1)
	if j < len(s) && (s[j] == '"' || s[j] == '\'') {
		j++
	}
	scheme := j
	for j < len(s) && j-scheme <= 20 && (isASCIILetter(s[j]) || s[j] == '-') {
		j++
	}
	if j == scheme || j-scheme > 20 {
		return noMatch
	}
	if m := token68After(s, j); m.end > m.start {
		return match{p: pAuthHeader, at: i, start: m.start, end: m.end}
	}
	return noMatch
}

// webhookHosts are the services whose incoming-webhook URLs carry their
// secret in the path: a host (or its suffix, from a '.') and the path
// prefix after which the rest of the URL is the secret.
var webhookHosts = [...]struct{ host, path string }{
	{"hooks.slack.com", "/services/"},
	{"hooks.slack.com", "/workflows/"},
	{"discord.com", "/api/webhooks/"},
	{"discordapp.com", "/api/webhooks/"},
	{".webhook.office.com", "/webhookb2/"},
	{"outlook.office.com", "/webhook/"},
	{"hooks.zapier.com", "/hooks/catch/"},
}

// webhookAt matches an incoming-webhook URL at s[i:], which starts with
// the "://" after its scheme; the span is the path after the service's
// prefix (the ids and the secret).
func webhookAt(s string, i int) match {
	j := i + len("://")
	host := j
	for j < len(s) && (isASCIIWord(s[j]) || s[j] == '.' || s[j] == '-') {
		j++
	}
	h := s[host:j]
	for _, w := range webhookHosts {
		if !(strings.EqualFold(h, w.host) || w.host[0] == '.' && hasSuffixFold(h, w.host)) || !strings.HasPrefix(s[j:], w.path) {
			continue
		}
		start := j + len(w.path)
		end := start
		for end < len(s) && end-start < maxValueLen && isURLPathByte(s[end]) {
			end++
		}
		if end-start < 8 {
			return noMatch
		}
		return match{p: pWebhookURL, at: i, start: start, end: end}
	}
	return noMatch
}

func isURLPathByte(c byte) bool {
	return isASCIIWord(c) || strings.IndexByte("-._~/%@+=:!$&*,;", c) >= 0
}

// telegramBotTokenAt matches a Telegram bot token at s[i], a digit at a
// word boundary: the bot's id (8 to 10 digits), ':' and its secret, 30
// to 40 base64url characters (35 as issued today).
func telegramBotTokenAt(s string, i int) match {
	j := i
	for j < len(s) && j-i <= 10 && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j-i < 8 || j-i > 10 || j >= len(s) || s[j] != ':' {
		return noMatch
	}
	k := j + 1
	for k < len(s) && k-j <= 41 && b64url[s[k]] {
		k++
	}
	if n := k - j - 1; n < 30 || n > 40 || k < len(s) && isASCIIWord(s[k]) {
		return noMatch
	}
	return match{p: pTelegramToken, at: i, start: i, end: k}
}

// base64PEMPrefix is "-----BEGIN" in base64: a PEM block encoded whole
// on one line, as kubeconfig's client-key-data and Kubernetes secrets
// hold them.
const base64PEMPrefix = "LS0tLS1CRUdJTi"

// base64PEMAt matches, at s[i:] (base64PEMPrefix at a word boundary), a
// base64-encoded PEM block whose header names a private key; the span
// is the whole run (a certificate's is left alone).
func base64PEMAt(s string, i int) match {
	j := i
	for j < len(s) && j-i < 1<<16 && base64Byte[s[j]] {
		j++
	}
	if j-i < 64 {
		return noMatch
	}
	head, err := base64.StdEncoding.DecodeString(s[i : i+64])
	if err != nil || !strings.Contains(string(head), "PRIVATE KEY") {
		return noMatch
	}
	for k := 0; k < 2 && j < len(s) && s[j] == '='; k++ {
		j++ // padding
	}
	return match{p: pBase64PEM, at: i, start: i, end: j}
}

// dsnPasswordAt matches the password of a Go database DSN without a
// scheme at s[i] == ':' (user:password@tcp(host:port)/db, as MySQL's
// driver takes it): a user name before it, at the start of a value, and
// '@' then a protocol and '(' after the password. The span is the
// password.
func dsnPasswordAt(s string, i int) match {
	k := i
	for k > 0 && i-k < maxNameLen && isNameByte(s[k-1]) {
		k--
	}
	if k == i || k > 0 && !isBlank(s[k-1]) && !isOneOf(s[k-1], "\"'`=") {
		return noMatch
	}
	start := i + 1
	j := start
	for j < len(s) && j-start < maxValueLen && s[j] != '@' && !isBlank(s[j]) && s[j] != '"' && s[j] != '\'' && s[j] != '`' {
		j++
	}
	if j == start || j >= len(s) || s[j] != '@' {
		return noMatch
	}
	rest := s[j+1:]
	for _, proto := range [...]string{"tcp(", "tcp6(", "unix("} {
		if strings.HasPrefix(rest, proto) {
			return match{p: pDSNPassword, at: i, start: start, end: j}
		}
	}
	return noMatch
}

// shortOptions are the commands whose one-letter option takes a
// password: the option, and whether the value is glued to it (mysql's
// -pSECRET; with a space, mysql reads a database name and asks for the
// password).
var shortOptions = map[string]struct {
	option byte
	glued  bool
}{
	"sshpass": {'p', false}, "redis-cli": {'a', false},
	"mysql": {'p', true}, "mysqldump": {'p', true}, "mysqladmin": {'p', true}, "mariadb": {'p', true}, "mariadb-dump": {'p', true},
	"ldapsearch": {'w', false}, "ldapadd": {'w', false}, "ldapmodify": {'w', false}, "ldapdelete": {'w', false},
	"ldapwhoami": {'w', false}, "ldappasswd": {'w', false}, "ldapcompare": {'w', false}, "ldapmodrdn": {'w', false},
	"docker login": {'p', false}, "podman login": {'p', false}, "helm registry login": {'p', false},
}

// shortOptionAt matches, at s[i] == '-' before a letter, a command's
// one-letter password option with its value (sshpass -p X, mysql -pX,
// ldapsearch -w X, redis-cli -a X, docker login -p X): the command is
// the first words of the command line s[i] is on. The span is the value.
func shortOptionAt(s string, i int) match {
	cmd := commandOf(s, i)
	o, ok := shortOptions[cmd]
	if !ok {
		first, _, _ := strings.Cut(cmd, " ")
		o, ok = shortOptions[first]
	}
	if !ok || s[i+1] != o.option {
		return noMatch
	}
	j := i + 2
	if o.glued != (j < len(s) && !isBlank(s[j])) {
		return noMatch
	}
	j = skipBlanks(s, j)
	quote := byte(0)
	if j < len(s) && (s[j] == '"' || s[j] == '\'') {
		quote = s[j]
		j++
	}
	start := j
	for j < len(s) && j-start < maxValueLen && (quote != 0 && s[j] != quote || quote == 0 && !isBlank(s[j]) && s[j] != '`' && !endsValue(s[j], true)) {
		j++
	}
	v := s[start:j]
	if len(v) < 4 || v[0] == '-' || isPlaceholder(v) || isPlaceholderName(v) {
		return noMatch
	}
	return match{p: pCLICredential, at: i, start: start, end: j}
}

// commandOf returns the command of the command line s[i] is on: its
// program's base name, and for docker, podman and helm the words that
// name their login, after any sudo and VAR=value assignments.
func commandOf(s string, i int) string {
	start := i
	for start > 0 && i-start < 512 && !isOneOf(s[start-1], "\n;|&`($") {
		start--
	}
	var words []string
	for _, w := range strings.Fields(s[start:i]) {
		switch {
		case len(words) == 0 && (w == "sudo" || strings.Contains(w, "=") || w == "exec"):
			continue
		case strings.HasPrefix(w, "-"):
			continue
		}
		if len(words) == 0 {
			w = w[strings.LastIndexByte(w, '/')+1:]
		}
		words = append(words, w)
		if len(words) == 3 {
			break
		}
	}
	switch {
	case len(words) >= 2 && (words[0] == "docker" || words[0] == "podman") && words[1] == "login":
		return words[0] + " login"
	case len(words) >= 3 && words[0] == "helm" && words[1] == "registry" && words[2] == "login":
		return "helm registry login"
	case len(words) > 0:
		return words[0]
	}
	return ""
}

// secureStringAt matches PowerShell's ConvertTo-SecureString with a
// quoted password at s[i:] (which starts with the cmdlet's name, any
// case, at a word boundary), with or without -String; the span is the
// password.
func secureStringAt(s string, i int) match {
	j := skipBlanks(s, i+len("convertto-securestring"))
	if j == i+len("convertto-securestring") {
		return noMatch
	}
	if hasPrefixFold(s[j:], "-string") {
		j = skipBlanks(s, j+len("-string"))
	}
	if j >= len(s) || s[j] != '"' && s[j] != '\'' {
		return noMatch
	}
	end := strings.IndexByte(s[j+1:min(len(s), j+1+maxValueLen)], s[j])
	if end <= 0 {
		return noMatch
	}
	return match{p: pCLICredential, at: i, start: j + 1, end: j + 1 + end}
}

// Credentials in configuration files written without '=' or ':'.

// xmlSecretAt matches, at s[i] == '>', an XML element whose name names a
// secret and whose text is the value (<password>...</password>, as
// Maven's settings.xml has it). The span is the text.
func xmlSecretAt(s string, i int) match {
	k := i
	for k > 0 && i-k < maxNameLen && (isNameByte(s[k-1]) || s[k-1] == ':') {
		k--
	}
	if k == i || k == 0 || s[k-1] != '<' || nameKind(s[k:i]) != pAssignment {
		return noMatch
	}
	name := s[k:i]
	start := i + 1
	end := strings.IndexByte(s[start:min(len(s), start+maxValueLen)], '<')
	if end <= 0 || !strings.HasPrefix(s[start+end:], "</"+name) {
		return noMatch
	}
	v := strings.TrimSpace(s[start : start+end])
	if len(v) < 4 || isPlaceholder(v) || isPlaceholderName(v) {
		return noMatch
	}
	return match{p: pConfigValue, at: i, start: start, end: start + end}
}

// directiveAt matches, at s[i:] (a word at a word boundary), a secret
// given as a directive and its value after blanks: redis.conf's
// requirepass and masterauth at the start of a line, and netrc's
// password after a login on the same line. The span is the value.
func directiveAt(s string, i int) match {
	word := i
	for word < len(s) && isASCIILetter(s[word]) {
		word++
	}
	line := strings.LastIndexByte(s[:i], '\n') + 1
	plain := false // a plain word may be the value
	switch w := strings.ToLower(s[i:word]); w {
	case "requirepass", "masterauth":
		// At the start of a line; in a field, whose lines are joined,
		// anywhere, but then a word of prose is no value.
		plain = strings.TrimSpace(s[line:i]) == ""
	case "password":
		plain = true
		before := s[max(line, i-256):i]
		if !strings.HasPrefix(before, "login ") && !strings.Contains(before, " login ") && !strings.Contains(before, "\tlogin ") {
			return noMatch
		}
	default:
		return noMatch
	}
	start := skipBlanks(s, word)
	if start == word {
		return noMatch
	}
	j := start
	for j < len(s) && j-start < maxValueLen && !isBlank(s[j]) {
		j++
	}
	v := s[start:j]
	if len(v) < 4 || isPlaceholder(v) || isPlaceholderName(v) || !plain && onlyLetters(v) {
		return noMatch
	}
	return match{p: pConfigValue, at: i, start: start, end: j}
}

// cookieAt matches a Cookie or Set-Cookie header's value at s[i:] (which
// starts with "cookie", any case, at a word boundary): ':' and a
// name=value pair, and everything after it on the line, the session
// it holds being a credential. The span is the value.
func cookieAt(s string, i int) match {
	j := skipBlanks(s, i+len("cookie"))
	if j >= len(s) || s[j] != ':' {
		return noMatch
	}
	start := skipBlanks(s, j+1)
	k := start
	for k < len(s) && (isASCIIWord(s[k]) || s[k] == '.' || s[k] == '-') {
		k++
	}
	if k == start || k >= len(s) || s[k] != '=' {
		return noMatch
	}
	end := k
	for end < len(s) && end-start < 4*maxValueLen && s[end] != '\n' && s[end] != '\r' && s[end] != '"' && s[end] != '\'' && s[end] != '`' {
		end++
	}
	if end-k < 8 {
		return noMatch
	}
	return match{p: pCookie, at: i, start: start, end: end}
}
