package redact

import (
	"encoding/base64"
	"strings"
)

// Credentials in configuration written without an assignment: XML
// elements and attributes, directives, scheme-less DSNs, keys pasted
// whole (a PEM in base64, an AWS secret after its key id).

// xmlSecretAt matches, at s[i] == '>', an XML element whose name names a
// secret and whose text is the value (<password>...</password>, as
// Maven's settings.xml has it), or that is a private member of an
// RSAKeyValue (rsaKeyValueMember). The span is the text.
func xmlSecretAt(s string, i int) match {
	k := i
	for k > 0 && i-k < maxNameLen && (isNameByte(s[k-1]) || s[k-1] == ':') {
		k--
	}
	if k == i || k == 0 || s[k-1] != '<' {
		return noMatch
	}
	name, p := s[k:i], pConfigValue
	if nameKind(name) != pAssignment {
		if !rsaKeyValueMember(s, k, name) {
			return noMatch
		}
		p = pKeyMaterial // <RSAKeyValue>...<D>...</D>
	}
	start := i + 1
	end := strings.IndexByte(s[start:min(len(s), start+maxValueLen)], '<')
	if end <= 0 || !strings.HasPrefix(s[start+end:], "</"+name) {
		return noMatch
	}
	if !literal(strings.TrimSpace(s[start:start+end]), 4) {
		return noMatch
	}
	return match{p: p, at: i, start: start, end: start + end}
}

// directiveAt matches, at s[i:] (a word at a word boundary), a secret
// given as a directive and its value after blanks: redis.conf's
// requirepass and masterauth at the start of a line, netrc's password
// after a login on the same line, mysqladmin's password command
// (mysqladmin -u root -p password NEW) and nmcli's (nmcli dev wifi
// connect SSID password PSK). The span is the value.
func directiveAt(s string, i int) match {
	word := i
	for word < len(s) && (isASCIILetter(s[word]) || s[word] == '_') {
		word++
	}
	// The line so far, 256 bytes at most.
	before := s[max(0, i-256):i]
	before = before[strings.LastIndexByte(before, '\n')+1:]
	plain := false // a plain word may be the value
	switch w := s[i:word]; {
	case strings.EqualFold(w, "requirepass"), strings.EqualFold(w, "masterauth"):
		// At the start of a line; in a field, whose lines are joined,
		// anywhere, but then a word of prose is no value.
		plain = strings.TrimSpace(before) == ""
	case strings.EqualFold(w, "password"):
		plain = true
		command := (strings.Contains(before, "mysqladmin") || strings.Contains(before, "nmcli")) &&
			(commandOf(s, i) == "mysqladmin" || commandOf(s, i) == "nmcli")
		if !command && !netrcLogin(s, i, before) {
			return noMatch
		}
	case strings.EqualFold(w, "identified"):
		return unquotedIdentifiedBy(s, word, before)
	case isNamingDirective(w):
		return namedDirectiveAt(s, word, w, strings.TrimSpace(before) == "")
	default:
		return noMatch
	}
	start := skipBlanks(s, word)
	if start == word {
		return noMatch
	}
	j := start
	for j < len(s) && j-start < maxValueLen && !isSpaceByte(s[j]) && s[j] != '`' {
		j++ // (a backtick ends a command quoted in markdown)
	}
	if v := s[start:j]; !literal(v, 4) || !plain && onlyLetters(v) {
		return noMatch
	}
	return match{p: pConfigValue, at: i, start: start, end: j}
}

// unquotedIdentifiedBy matches the unquoted password of SQL's
// IDENTIFIED BY (Oracle's CREATE USER scott IDENTIFIED BY tiger), after
// the word IDENTIFIED that ends at s[word], on a line (before is the
// line so far) that starts with CREATE, ALTER or GRANT and names a
// USER, ROLE or LOGIN: the value up to a blank or ';', a literal (not
// VALUES, EXTERNALLY, a bind parameter, a secret's name). A quoted
// password is literals.go's. The span is the value.
func unquotedIdentifiedBy(s string, word int, before string) match {
	stmt := strings.TrimSpace(before)
	if !hasPrefixFold(stmt, "create") && !hasPrefixFold(stmt, "alter") && !hasPrefixFold(stmt, "grant") ||
		!containsFold(stmt, "user") && !containsFold(stmt, "role") && !containsFold(stmt, "login") {
		return noMatch
	}
	k := skipBlanks(s, word)
	if k == word || !hasPrefixFold(s[k:], "by") || k+2 >= len(s) || !isSpaceByte(s[k+2]) {
		return noMatch
	}
	start := skipBlanks(s, k+2)
	end := start
	for end < len(s) && end-start < maxValueLen && !isSpaceByte(s[end]) && s[end] != ';' && s[end] != '\'' && s[end] != '"' {
		end++
	}
	if end == start || s[start] == '\'' || s[start] == '"' {
		return noMatch
	}
	if v := s[start:end]; !plausibleValue(v, pAssignment, '=', false, false) || namesSecret(v) {
		return noMatch
	}
	return match{p: pConfigValue, at: word, start: start, end: end}
}

// isNamingDirective reports whether w is a configuration directive
// that sets a variable or a header by its name and value, a blank
// between them: Apache's SetEnv and RequestHeader (set, append, add),
// nginx's proxy_set_header, a Dockerfile's ENV NAME VALUE (in upper
// case).
func isNamingDirective(w string) bool {
	return w == "ENV" || w == "proxy_set_header" || strings.EqualFold(w, "setenv") || strings.EqualFold(w, "requestheader")
}

// namedDirectiveAt matches the value of the naming directive w that ends
// at s[word]: its name must name a secret as secret_assignment's names
// do (SetEnv DB_PASS ..., proxy_set_header X-Api-Key ...;), and its
// value, quoted or up to a blank or ';', must be a literal (not
// $host, nor a placeholder); away from a line's start (in a field, or
// in prose) it must look like a secret. The span is the value.
func namedDirectiveAt(s string, word int, w string, lineStart bool) match {
	k := skipBlanks(s, word)
	if k == word {
		return noMatch
	}
	if strings.EqualFold(w, "requestheader") {
		action := k
		for k < len(s) && isASCIILetter(s[k]) {
			k++
		}
		if a := s[action:k]; !strings.EqualFold(a, "set") && !strings.EqualFold(a, "append") && !strings.EqualFold(a, "add") {
			return noMatch
		}
		k = skipBlanks(s, k)
	}
	name := k
	for k < len(s) && k-name < maxNameLen && isNameByte(s[k]) {
		k++
	}
	if nameKind(s[name:k]) != pAssignment {
		return noMatch
	}
	start := skipBlanks(s, k)
	if start == k || start >= len(s) {
		return noMatch
	}
	end, quoted := start, false
	if q := s[start]; q == '"' || q == '\'' {
		start, quoted = start+1, true
		end = strings.IndexByte(s[start:min(len(s), start+maxValueLen)], q)
		if end < 0 {
			return noMatch
		}
		end += start
	} else {
		for end < len(s) && end-start < maxValueLen && !isSpaceByte(s[end]) && s[end] != ';' {
			end++
		}
	}
	v := s[start:end]
	if !plausibleValue(v, pAssignment, '=', quoted, false) || !lineStart && !secretShaped(v) {
		return noMatch
	}
	return match{p: pConfigValue, at: word, start: start, end: end}
}

// netrcLogin reports whether the password directive at s[i], whose line
// so far is before, follows a netrc login: on its line, or, when it
// starts its line, on the line above (a netrc entry one token a line:
// machine HOST, login USER, password PW).
func netrcLogin(s string, i int, before string) bool {
	if strings.HasPrefix(before, "login ") || strings.Contains(before, " login ") || strings.Contains(before, "\tlogin ") {
		return true
	}
	if strings.TrimSpace(before) != "" || i-len(before) < 1 {
		return false
	}
	above := s[max(0, i-len(before)-256) : i-len(before)-1]
	above = strings.TrimSpace(above[strings.LastIndexByte(above, '\n')+1:])
	return strings.HasPrefix(above, "login ") || strings.HasPrefix(above, "login\t")
}

// dsnPasswordAt matches the password of a Go database DSN without a
// scheme at s[i] == ':' (user:password@tcp(host:port)/db, as MySQL's
// driver takes it): a user name before it, at the start of a value, and
// '@' then a protocol and '(' after the password; and, after
// jdbc:oracle:thin, Oracle's user/password@ (oracleThinAt). The span is
// the password.
func dsnPasswordAt(s string, i int) match {
	if hasSuffixFold(s[:i], "jdbc:oracle:thin") {
		return oracleThinAt(s, i)
	}
	k := nameStart(s, i)
	if k == i || k > 0 && !isSpaceByte(s[k-1]) && !isOneOf(s[k-1], "\"'`=") {
		return noMatch
	}
	start := i + 1
	j := start
	for j < len(s) && j-start < maxValueLen && s[j] != '@' && !isSpaceByte(s[j]) && s[j] != '"' && s[j] != '\'' && s[j] != '`' {
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

// oracleThinAt matches the password of an Oracle JDBC URL that carries
// its credentials, jdbc:oracle:thin:user/password@host..., at s[i], the
// ':' after thin: an Oracle user's name, '/', the password and '@', as
// sqlplus takes them (sqlplusAt). The span is the password.
func oracleThinAt(s string, i int) match {
	at := strings.IndexByte(s[i+1:min(len(s), i+1+maxValueLen)], '@')
	if at < 0 {
		return noMatch
	}
	creds := s[i+1 : i+1+at]
	user, pw, ok := strings.Cut(creds, "/")
	if !ok || !isOracleName(user) || strings.ContainsAny(pw, " \t\n\"'") || !givenPassword(pw) {
		return noMatch
	}
	start := i + 1 + len(user) + 1
	return match{p: pDSNPassword, at: i, start: start, end: start + len(pw)}
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
	for k < len(s) && k-j <= 40 && (isASCIILetter(s[k]) || isDigit(s[k]) || s[k] == '/' || s[k] == '+') {
		k++
	}
	if k-j != 40 || k < len(s) && (isASCIIWord(s[k]) || s[k] == '=') || !mixedKey(s[j:k]) {
		return end
	}
	return k
}

// puttyPrivateHeader starts the private part of a PuTTY key file (.ppk,
// after PuTTY-User-Key-File-N:, Encryption:, Comment:, Public-Lines: and
// the public lines): the number of base64 lines that follow.
const puttyPrivateHeader = "Private-Lines:"

// puttyPrivateAt matches, at s[i:] (puttyPrivateHeader at a word
// boundary), the private lines of a PuTTY key: up to N lines of base64
// (64 characters at most, the last one shorter or not), each between
// whitespace or escaped newlines, 16 characters or more in all. The span
// is the lines (Private-MAC, which follows them, is a digest).
func puttyPrivateAt(s string, i int) match {
	j := skipBlanks(s, i+len(puttyPrivateHeader))
	n := 0
	d := j
	for d < len(s) && d-j < 3 && isDigit(s[d]) {
		n = 10*n + int(s[d]-'0')
		d++
	}
	if d == j || n == 0 || d < len(s) && !isSpaceByte(s[d]) && s[d] != '\\' {
		return noMatch
	}
	start, end, total := -1, -1, 0
	for k := d; n > 0; n-- {
		k2 := skipSeparators(s, k)
		if k2 == k {
			break
		}
		e := k2
		for e < len(s) && e-k2 <= 64 && (base64Byte[s[e]] || s[e] == '=') {
			e++
		}
		if e == k2 || e-k2 > 64 || e < len(s) && !pemBoundary(s[e]) && s[e] != '\\' {
			break
		}
		if start < 0 {
			start = k2
		}
		end, total, k = e, total+e-k2, e
		if e-k2 < 64 {
			break // the last line
		}
	}
	if start < 0 || total < 16 {
		return noMatch
	}
	return match{p: pPuTTYKey, at: i, start: start, end: end}
}

// pgpassAt matches, at s[i] == ':' before a digit or '*', a line of a
// PostgreSQL password file (.pgpass): hostname:port:database:username:
// password, exactly five fields (a ':' or '\' inside a field is escaped
// by a '\'), the record on its own or between blanks or quotes. The host
// is '*', a name or an IPv4 address (not a number: 09:30); the port
// digits or '*'; the database and user '*' or a name; the password a
// value, not a placeholder or a secret's name (mypassword), not digits
// only (ratios, times), not a short word. Five hexadecimal groups are an IPv6 address's. The span is the
// password.
func pgpassAt(s string, i int) match {
	// The host, back to the start of the record.
	k := i
	for k > 0 && i-k <= 255 && isHostByte(s[k-1]) {
		k--
	}
	var quote byte
	if k > 0 {
		switch c := s[k-1]; {
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case !isSpaceByte(c):
			return noMatch
		}
	}
	host := s[k:i]
	if host != "*" && !validPgHost(host) {
		return noMatch
	}
	// The port, database and user.
	var fields [4]string
	fields[0] = host
	j := i + 1
	for f := 1; f < 4; f++ {
		e := j
		for e < len(s) && e-j <= 255 && s[e] != ':' && !isSpaceByte(s[e]) && s[e] != quote {
			if s[e] == '\\' {
				e++
			}
			e++
		}
		if e >= len(s) || s[e] != ':' || e == j {
			return noMatch
		}
		fields[f] = s[j:e]
		j = e + 1
	}
	if !isPgPort(fields[1]) || !isPgName(fields[2]) || !isPgName(fields[3]) {
		return noMatch
	}
	// The password: to the closing quote, else to a blank; no ':' left.
	start, end := j, j
	for end < len(s) && end-start < maxValueLen && !isSpaceByte(s[end]) && s[end] != quote {
		if s[end] == ':' {
			return noMatch // a sixth field
		}
		if s[end] == '\\' && end+1 < len(s) {
			end++
		}
		end++
	}
	v := s[start:end]
	if !literal(v, 4) || onlyDigits(v) || onlyLetters(v) && len(v) < 8 || namesSecret(v) {
		return noMatch
	}
	if isHexGroup(host) && isHexGroup(fields[1]) && isHexGroup(fields[2]) && isHexGroup(fields[3]) && isHexGroup(v) {
		return noMatch
	}
	return match{p: pPgpass, at: i, start: start, end: end}
}

// isHostByte reports whether c may be part of a host name or an IPv4
// address.
func isHostByte(c byte) bool {
	return isASCIIWord(c) || c == '.' || c == '-' || c == '*'
}

// validPgHost reports whether h is a host name (a letter in it) or an
// IPv4 address, not a bare number.
func validPgHost(h string) bool {
	if h == "" || strings.IndexByte(h, '*') >= 0 || h[0] == '.' || h[0] == '-' {
		return false
	}
	for i := 0; i < len(h); i++ {
		if isASCIILetter(h[i]) {
			return true
		}
	}
	return strings.Count(h, ".") == 3
}

// isPgPort reports whether p is '*' or a port number.
func isPgPort(p string) bool {
	return p == "*" || len(p) <= 5 && onlyDigits(p)
}

// isPgName reports whether n is '*' or a database or user name: word
// bytes, '.', '-', '$' and '@' (Azure's user@server).
func isPgName(n string) bool {
	if n == "*" {
		return true
	}
	for i := 0; i < len(n); i++ {
		if c := n[i]; !isASCIIWord(c) && c != '.' && c != '-' && c != '$' && c != '@' {
			return false
		}
	}
	return n != ""
}

// isHexGroup reports whether g is one to four hexadecimal digits.
func isHexGroup(g string) bool {
	return g != "" && len(g) <= 4 && isHexRun(g)
}

func onlyDigits(v string) bool {
	for i := 0; i < len(v); i++ {
		if !isDigit(v[i]) {
			return false
		}
	}
	return v != ""
}
