package redact

import (
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/platform/swar"
)

// String literals of code. literalsAt reads the quoted strings of s (",
// ' or ` quotes, closed on the same line; a backslash escapes the next
// byte, and a backslash at a line's end continues the literal on the
// next, as YAML and C allow) and finds three shapes no other pattern
// sees:
//
//   - a chain of literals joined by +, ., ||, a comma or nothing but
//     blanks, whose joined text holds a credential that no literal of it
//     holds alone (joined_credential; the span is the chain);
//   - a literal that names a secret followed, after a comma, by a literal
//     value shaped like a secret, as a call's arguments: define('DB_PASSWORD', '...'),
//     setProperty("javax.net.ssl.keyStorePassword", "...") (the span is
//     the value);
//   - a literal after SQL's IDENTIFIED BY or the word PASSWORD: CREATE
//     USER app IDENTIFIED BY '...', ALTER ROLE app WITH PASSWORD '...'
//     (the span is the value);
//   - an HTTP client's basic-auth pair, two literals in parentheses
//     after auth= or auth: (requests, httpx) or after a call named
//     ...BasicAuth or ...DigestAuth (HTTPBasicAuth, aiohttp.BasicAuth,
//     Go's SetBasicAuth): auth=("admin", "...") (the span is the
//     second, the password).

// strLit is one string literal: s[open] is its opening quote, s[close]
// its closing one.
type strLit struct{ open, close int }

// text returns the literal's text, without its quotes and with its line
// continuations (a backslash, a line break and the blanks after it)
// taken out.
func (l strLit) text(s string) string {
	t := s[l.open+1 : l.close]
	if !strings.Contains(t, "\\\n") {
		return t
	}
	var b strings.Builder
	for {
		i := strings.Index(t, "\\\n")
		if i < 0 {
			b.WriteString(t)
			return b.String()
		}
		b.WriteString(t[:i])
		t = strings.TrimLeft(t[i+2:], " \t")
	}
}

// nextLiteral returns the first string literal that opens at or after i.
func nextLiteral(s string, i int) (strLit, bool) {
	for i < len(s) {
		k := indexOf3(s[i:], '"', '\'', '`')
		if k < 0 {
			break
		}
		open := i + k
		q := s[open]
		for j := open + 1; j < len(s) && j-open <= maxJoinedLen; j++ {
			switch c := s[j]; {
			case c == q:
				return strLit{open, j}, true
			case c == '\\' && j+1 < len(s):
				j++ // an escaped byte, or a line continued
			case c == '\n':
				j = len(s) // not closed on its line
			}
		}
		i = open + 1
	}
	return strLit{}, false
}

// indexOf3 returns the index of the first of the bytes a, b and c in s,
// or -1, reading eight bytes at a time while none of them is there.
func indexOf3(s string, a, b, c byte) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := swar.Word(s[i:])
		if swar.ZeroByte(w^(swar.EachByte*uint64(a)))|swar.ZeroByte(w^(swar.EachByte*uint64(b)))|swar.ZeroByte(w^(swar.EachByte*uint64(c))) != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if x := s[i]; x == a || x == b || x == c {
			return i
		}
	}
	return -1
}

// joiner reports whether gap, the text between two literals, joins them:
// blanks around +, ., ||, a comma, or nothing.
func joiner(gap string) bool {
	switch strings.TrimSpace(gap) {
	case "", "+", ".", "||", ",":
		return true
	}
	return false
}

// literalsAt finds the first of literalsAt's shapes (see above) at or
// after from.
func literalsAt(s string, from int) match {
	prev, ok := nextLiteral(s, from)
	if !ok {
		return noMatch
	}
	chain := []strLit{prev}
	for {
		if m := sqlPasswordAt(s, prev); m.p >= 0 {
			return m
		}
		if m := namedLiteralAt(s, prev); m.p >= 0 {
			return m
		}
		cur, ok := nextLiteral(s, prev.close+1)
		gap := ""
		if ok {
			gap = s[prev.close+1 : cur.open]
		}
		if ok && joiner(gap) && len(chain) < maxJoinedPieces {
			if m := namedArgumentAt(s, prev, cur, gap); m.p >= 0 {
				return m
			}
			if m := basicAuthPairAt(s, prev, cur, gap); m.p >= 0 {
				return m
			}
			if m := connectPairAt(s, prev, cur, gap); m.p >= 0 {
				return m
			}
			chain = append(chain, cur)
		} else {
			if m := joinedChain(s, chain); m.p >= 0 {
				return m
			}
			if !ok {
				return noMatch
			}
			chain = append(chain[:0], cur)
		}
		prev = cur
	}
}

// joinedChain matches a chain of two literals or more (or one continued
// over lines) whose joined text holds a credential that none of them
// holds as written.
func joinedChain(s string, chain []strLit) match {
	if len(chain) < 2 && !strings.Contains(s[chain[0].open:chain[0].close], "\\\n") {
		return noMatch
	}
	var joined strings.Builder
	for _, l := range chain {
		if spansIn(s[l.open+1:l.close], false) != nil {
			return noMatch
		}
		joined.WriteString(l.text(s))
	}
	if spansOf(joined.String()) == nil {
		return noMatch
	}
	return match{p: pJoined, at: chain[0].open, start: chain[0].open, end: chain[len(chain)-1].close + 1}
}

// namedArgumentAt matches a literal naming a secret followed, after a
// comma, by a literal value that is shaped like a secret (secretShaped),
// both in ' or " quotes (a markdown list of `code` words is no call):
// the value's span.
func namedArgumentAt(s string, name, value strLit, gap string) match {
	if strings.TrimSpace(gap) != "," || s[name.open] == '`' || s[value.open] == '`' ||
		nameKind(s[name.open+1:name.close]) != pAssignment || !secretShaped(s[value.open+1:value.close]) {
		return noMatch
	}
	return match{p: pAssignment, at: name.open, start: value.open + 1, end: value.close}
}

// sqlPasswordAt matches a literal in ' quotes, without blanks, after
// SQL's IDENTIFIED BY (or IDENTIFIED WITH a plugin BY, as MySQL and
// ClickHouse write it), the word PASSWORD or MySQL's PASSWORD( function
// (any case): the value's span.
func sqlPasswordAt(s string, l strLit) match {
	head := strings.TrimRight(s[max(0, l.open-64):l.open], " \t\n")
	head = strings.TrimRight(strings.TrimSuffix(head, "("), " \t")
	if hasSuffixFold(head, " by") {
		head = pluginDropped(head)
	}
	for _, w := range [...]string{"identified by", "password"} {
		if !hasSuffixFold(head, w) {
			continue
		}
		if k := len(head) - len(w); k > 0 && isNameByte(head[k-1]) {
			continue // a longer word: mypassword 'x'
		}
		if v := s[l.open+1 : l.close]; s[l.open] == '\'' && !strings.ContainsAny(v, " \t") && plausibleValue(v, pAssignment, '=', true, false) {
			return match{p: pAssignment, at: l.open, start: l.open + 1, end: l.close}
		}
	}
	return noMatch
}

// pluginDropped returns head, which ends with " by", without the
// authentication plugin of an IDENTIFIED WITH plugin BY clause
// (mysql_native_password, caching_sha2_password, plaintext_password,
// sha256_password): "... identified by" then.
func pluginDropped(head string) string {
	rest := strings.TrimRight(head[:len(head)-len(" by")], " \t")
	k := len(rest)
	for k > 0 && isNameByte(rest[k-1]) {
		k--
	}
	with := strings.TrimRight(rest[:k], " \t")
	if k == len(rest) || !hasSuffixFold(with, "identified with") {
		return head
	}
	return with[:len(with)-len(" with")] + " by"
}

// setterNames are what a call that hands a client its secret is named,
// after an optional set or with (case and '_' aside): password("..."),
// setPassword("..."), withApiKey("..."), .token("...").
var setterNames = [...]string{"password", "passwd", "passphrase", "secret", "token", "apikey", "apitoken", "accesstoken", "authtoken", "clientsecret", "secretkey", "secretaccesskey", "privatekey"}

// namedLiteralAt matches a literal that a secret's name gives its value
// without an operator: the one argument of a call named after the
// secret (builder.password("..."), config.setPassword("..."),
// withApiKey("...")), a C macro's body (#define API_KEY "..."), and the
// default a secret's read from the environment falls back on
// (process.env.API_TOKEN || "...", ?? "...", os.environ.get("X") or
// "...", cmp.Or(os.Getenv("DB_PASSWORD"), "...")). The literal is one
// word shaped like a secret (secretShaped): the value's span.
func namedLiteralAt(s string, l strLit) match {
	v := s[l.open+1 : l.close]
	if s[l.open] == '`' || strings.ContainsAny(v, " \t\n") || !secretShaped(v) {
		return noMatch
	}
	head := strings.TrimRight(s[max(0, l.open-128):l.open], " \t\n")
	ok := false
	switch {
	case strings.HasSuffix(head, "("):
		k := skipBlanks(s, l.close+1)
		ok = k < len(s) && s[k] == ')' && isSetterName(lastName(head[:len(head)-1]))
	case strings.HasSuffix(head, "||"), strings.HasSuffix(head, "??"), hasSuffixFold(head, " or"):
		expr := strings.TrimRight(strings.TrimRight(head, "|?rRoO"), " \t")
		ok = nameKind(lastName(strings.TrimRight(expr, "\"')]"))) == pAssignment
	case strings.HasSuffix(head, "),"):
		expr := strings.TrimRight(head[:len(head)-2], "\"'")
		ok = containsFold(expr, "env") && nameKind(lastName(expr)) == pAssignment
	default:
		name := lastName(head)
		ok = name != "" && strings.HasSuffix(strings.TrimRight(head[:len(head)-len(name)], " \t"), "#define") && nameKind(name) == pAssignment
	}
	if !ok {
		return noMatch
	}
	return match{p: pAssignment, at: l.open, start: l.open + 1, end: l.close}
}

// lastName returns the name (ASCII letters, digits and '_') that ends s.
func lastName(s string) string {
	k := len(s)
	for k > 0 && isASCIIWord(s[k-1]) {
		k--
	}
	return s[k:]
}

// isSetterName reports whether name, without an optional set or with in
// front and '_' inside, is one of setterNames (any case).
func isSetterName(name string) bool {
	n := strings.ReplaceAll(name, "_", "")
	for _, verb := range [...]string{"set", "with"} {
		if len(n) > len(verb) && hasPrefixFold(n, verb) {
			n = n[len(verb):]
			break
		}
	}
	for _, w := range setterNames {
		if strings.EqualFold(n, w) {
			return true
		}
	}
	return false
}

// basicAuthPairAt matches a pair of literals, user and password, given
// to an HTTP client as its basic-auth credentials: in parentheses, the
// pair alone in them, after auth= or auth: (a Python tuple, as requests
// and httpx take it) or after a call whose name ends with BasicAuth or
// DigestAuth (HTTPBasicAuth('u', 'p'), aiohttp.BasicAuth('u', 'p'),
// req.SetBasicAuth("u", "p")). The password must be a literal value
// (plausibleValue: not a placeholder nor a name standing for one): the
// password's span.
func basicAuthPairAt(s string, user, pw strLit, gap string) match {
	if !argumentPair(s, user, pw, gap) {
		return noMatch
	}
	k := skipBlanks(s, pw.close+1)
	k += len(charArray(s[k:])) // Java's "...".toCharArray()
	if k >= len(s) || s[k] != ')' {
		return noMatch
	}
	head := strings.TrimRight(s[max(0, user.open-64):user.open], " \t")
	if !strings.HasSuffix(head, "(") || !basicAuthCall(strings.TrimRight(head[:len(head)-1], " \t")) {
		return noMatch
	}
	return literalPassword(s, user, pw)
}

// argumentPair reports whether user and pw are two arguments in a row,
// apart by a comma alone, and neither a template literal (which
// interpolates).
func argumentPair(s string, user, pw strLit, gap string) bool {
	return strings.TrimSpace(gap) == "," && s[user.open] != '`' && s[pw.open] != '`'
}

// literalPassword matches pw, given with user, as a password: a literal
// value without blanks that plausibleValue takes (not a placeholder nor a
// name standing for one). The span is the password.
func literalPassword(s string, user, pw strLit) match {
	v := s[pw.open+1 : pw.close]
	if strings.ContainsAny(v, " \t\n") || !plausibleValue(v, pAssignment, '=', true, false) {
		return noMatch
	}
	return match{p: pAssignment, at: user.open, start: pw.open + 1, end: pw.close}
}

// connectCalls are the calls that take a database's address, then a
// user and a password, as their first three arguments (case aside):
// JDBC's DriverManager.getConnection, PHP's new PDO and mysqli_connect,
// Perl's DBI->connect.
var connectCalls = [...]string{"getConnection", "PDO", "mysqli_connect", "mysqli", "connect"}

// connectPairAt matches a user and a password given to a connect call
// as its second and third arguments, two literals after the address
// (a literal or a variable): DriverManager.getConnection(url, "sa",
// "..."), new PDO($dsn, 'root', '...'), DBI->connect($dsn, 'app',
// '...'). The password must be a literal value without blanks
// (plausibleValue), shaped like a secret after a bare connect (which
// other clients have too), and be followed by ')' or ',': the
// password's span.
func connectPairAt(s string, user, pw strLit, gap string) match {
	if !argumentPair(s, user, pw, gap) {
		return noMatch
	}
	if k := skipBlanks(s, pw.close+1); k >= len(s) || s[k] != ')' && s[k] != ',' {
		return noMatch
	}
	head := strings.TrimRight(s[max(0, user.open-256):user.open], " \t")
	if !strings.HasSuffix(head, ",") {
		return noMatch
	}
	open := strings.LastIndexByte(head, '(')
	if open < 0 || strings.Count(head[open:], ",") != 1 || strings.IndexByte(head[open:], ')') >= 0 {
		return noMatch // the address must be the first argument, alone before the user
	}
	name := lastName(strings.TrimRight(head[:open], " \t"))
	if !slices.ContainsFunc(connectCalls[:], func(c string) bool { return strings.EqualFold(name, c) }) {
		return noMatch
	}
	m := literalPassword(s, user, pw)
	if m.p >= 0 && strings.EqualFold(name, "connect") && !secretShaped(s[m.start:m.end]) {
		return noMatch // a connect of another client: its arguments may be anything
	}
	return m
}

// charArray returns ".toCharArray()" when s starts with it (a Java
// password handed over as a char[]), or "".
func charArray(s string) string {
	const call = ".toCharArray()"
	if strings.HasPrefix(s, call) {
		return call
	}
	return ""
}

// basicAuthCall reports whether head, the text before a '(', ends with
// what hands an HTTP client a basic-auth pair: auth= or auth: (the
// keyword argument or key named auth, any case, as a word, quoted or not) or a name
// ending with BasicAuth or DigestAuth.
func basicAuthCall(head string) bool {
	if n := len(head); n > 0 && (head[n-1] == '=' || head[n-1] == ':') {
		name := strings.TrimRight(head[:n-1], " \t\"'")
		return hasSuffixFold(name, "auth") && (len(name) == 4 || !isASCIIWord(name[len(name)-5]))
	}
	for _, w := range [...]string{"basicauth", "digestauth", "networkcredential", "passwordauthentication"} {
		if hasSuffixFold(head, w) {
			return true
		}
	}
	return false
}
