package redact

import "strings"

// Credentials on a command line: a long option that names a secret,
// curl's user option, the one-letter password options of the commands
// that have one, PowerShell's ConvertTo-SecureString.

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
	if i > 0 && !isSpaceByte(s[i-1]) && s[i-1] != '"' && s[i-1] != '\'' && s[i-1] != '`' {
		return mailchimpKeyAt(s, i) // not an option; maybe a key's -us suffix
	}
	if len(s) > i+1 && s[i+1] == 'S' || strings.HasPrefix(s[i:], "--password-stdin") {
		return stdinPasswordAt(s, i)
	}
	if len(s) > i+2 && isASCIILetter(s[i+1]) && s[i+1] != 'u' {
		if m := passOptionAt(s, i); m.p >= 0 || !shortOptionLetter(s[i+1]) {
			return m
		}
		return shortOptionAt(s, i)
	}
	j, userOption, storeValue := i, false, false
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
		storeValue = !isSecretFlag(s[name:k])
		if storeValue && !secretStoreValue(s, i, s[name:k]) || k >= len(s) || s[k] != ' ' && s[k] != '\t' && s[k] != '=' {
			return noMatch
		}
		j = k
	default:
		return noMatch
	}
	// The value: after '=' or blanks.
	if s[j] == '=' {
		j++
	} else {
		j = skipBlanks(s, j)
	}
	start, end := optionValue(s, j)
	v := s[start:end]
	minLen := 4
	if userOption {
		minLen = 1 // user:password, the password checked below
	}
	if !literal(v, minLen) || v[0] == '-' || isPlaceholderWord(v) {
		return noMatch // --password string: a help text's type
	}
	if storeValue && (strings.ContainsAny(v, " \t") || !secretShaped(v)) {
		return noMatch // gh issue create --body "the secret scanner ...": prose
	}
	if userOption {
		user, pass, ok := strings.Cut(v, ":")
		if !ok || user == "" || !literal(pass, 1) {
			return noMatch
		}
		start += len(user) + 1
	}
	return match{p: pCLICredential, at: i, start: start, end: end}
}

// optionValue returns where the value of a command-line option at s[j:]
// starts and ends: in quotes, up to the closing one; bare, up to a
// blank, a backtick or what ends a value.
func optionValue(s string, j int) (start, end int) {
	quote := byte(0)
	if j < len(s) && (s[j] == '"' || s[j] == '\'') {
		quote = s[j]
		j++
	}
	start = j
	for j < len(s) && j-start < maxValueLen {
		if quote != 0 && s[j] == quote || quote == 0 && (isSpaceByte(s[j]) || s[j] == '`' || endsValue(s[j], true)) {
			break
		}
		j++
	}
	return start, j
}

// isSecretFlag reports whether name, a long option's, names a secret:
// one of cliSecretFlags, or ends with one after a '-' (--db-password,
// --proxy-password, --registry-token), unless it asks for no value of
// its own (--no-password, --show-token, --with-token).
func isSecretFlag(name string) bool {
	for _, f := range cliSecretFlags {
		if strings.EqualFold(name, f) {
			return true
		}
	}
	for _, f := range cliSecretFlags {
		if len(name) > len(f)+1 && name[len(name)-len(f)-1] == '-' && hasSuffixFold(name, f) {
			for _, w := range [...]string{"no-", "show-", "print-", "with-", "use-", "skip-", "ask-", "prompt-", "generate-", "reset-", "require-", "allow-"} {
				if hasPrefixFold(name, w) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// secretStoreValue reports whether the long option name, at s[i], gives
// the value a command stores as a secret: --value or --body on a line
// that names a secret or a SecureString before it (gh secret set NAME
// --body ..., az keyvault secret set --value ..., aws ssm put-parameter
// --type SecureString --value ...); the value must then be one word
// shaped like a secret.
func secretStoreValue(s string, i int, name string) bool {
	if !strings.EqualFold(name, "value") && !strings.EqualFold(name, "body") {
		return false
	}
	line := s[max(0, i-256):i]
	line = line[strings.LastIndexByte(line, '\n')+1:]
	return containsFold(line, "secret") || containsFold(line, "securestring")
}

// passOptions are the single-dash options, OpenSSL's and keytool's,
// whose value is a password; OpenSSL writes it pass:PASSWORD, or names
// where to read it (env:VAR, file:PATH, fd:N, stdin), which is none.
var passOptions = [...]string{"passin", "passout", "pass", "password", "storepass", "keypass", "srcstorepass", "deststorepass", "srckeypass", "destkeypass"}

// passOptionAt matches, at s[i] == '-' (after a blank or a quote), one
// of passOptions and its value after a blank: -passout pass:X,
// -storepass X. The span is the password.
func passOptionAt(s string, i int) match {
	k := i + 1
	for k < len(s) && isASCIILetter(s[k]) {
		k++
	}
	if k >= len(s) || s[k] != ' ' && s[k] != '\t' {
		return noMatch
	}
	found := false
	for _, o := range passOptions {
		found = found || s[i+1:k] == o
	}
	if !found {
		return noMatch
	}
	start, end := optionValue(s, skipBlanks(s, k))
	v := s[start:end]
	if hasPrefixFold(v, "pass:") {
		start += len("pass:")
		v = v[len("pass:"):]
	} else if v == "stdin" || strings.IndexByte(v, ':') > 0 && onlyLetters(v[:strings.IndexByte(v, ':')]) {
		return noMatch // env:VAR, file:PATH, fd:N
	}
	if !givenPassword(v) {
		return noMatch
	}
	return match{p: pCLICredential, at: i, start: start, end: end}
}

// shortOptions are the commands whose one-letter option takes a
// password: the option, and whether the value is glued to it (mysql's
// -pSECRET; with a space, mysql reads a database name and asks for the
// password). Samba's tools take -U user%password.
var shortOptions = map[string]struct {
	option byte
	glued  bool
}{
	"openssl": {'k', false}, "psexec": {'p', false}, "psexec64": {'p', false}, "rdesktop": {'p', false},
	"smbclient": {'U', false}, "rpcclient": {'U', false}, "smbcacls": {'U', false}, "smbmap": {'p', false},
	"zip": {'P', false}, "unzip": {'P', false}, "7z": {'p', true}, "7za": {'p', true}, "rar": {'p', true}, "unrar": {'p', true},
	"ssh-keygen": {'N', false}, "az": {'p', false}, "certutil": {'p', false}, "ipmitool": {'P', false},
	"evil-winrm": {'p', false}, "crackmapexec": {'p', false}, "nxc": {'p', false},
	"sshpass": {'p', false}, "redis-cli": {'a', false}, "mosquitto_pub": {'P', false}, "mosquitto_sub": {'P', false},
	"mysql": {'p', true}, "mysqldump": {'p', true}, "mysqladmin": {'p', true}, "mariadb": {'p', true}, "mariadb-dump": {'p', true},
	"ldapsearch": {'w', false}, "ldapadd": {'w', false}, "ldapmodify": {'w', false}, "ldapdelete": {'w', false},
	"ldapwhoami": {'w', false}, "ldappasswd": {'w', false}, "ldapcompare": {'w', false}, "ldapmodrdn": {'w', false},
	"docker login": {'p', false}, "podman login": {'p', false}, "helm registry login": {'p', false},
	"sqlcmd": {'P', false}, "bcp": {'P', false}, "mongosh": {'p', false}, "mongo": {'p', false},
	"mongodump": {'p', false}, "mongorestore": {'p', false}, "mongoexport": {'p', false}, "mongoimport": {'p', false},
}

// shortOptionAt matches, at s[i] == '-' before a letter, a command's
// one-letter password option with its value (sshpass -p X, mysql -pX,
// ldapsearch -w X, redis-cli -a X, docker login -p X): the command is
// the first words of the command line s[i] is on. The span is the value.
func shortOptionAt(s string, i int) match {
	cmd := commandOf(s, i)
	if n := len(cmd); n > 4 && hasSuffixFold(cmd, ".exe") {
		cmd = strings.ToLower(cmd[:n-4]) // PsExec.exe
	}
	o, ok := shortOptions[cmd]
	if !ok {
		first, _, _ := strings.Cut(cmd, " ")
		o, ok = shortOptions[first]
	}
	if !ok || s[i+1] != o.option {
		return noMatch
	}
	j := i + 2
	if o.glued != (j < len(s) && !isSpaceByte(s[j])) {
		return noMatch
	}
	start, end := optionValue(s, skipBlanks(s, j))
	if o.option == 'U' {
		pct := strings.IndexByte(s[start:end], '%')
		if pct < 0 {
			return noMatch // -U user: it asks for the password
		}
		start += pct + 1
	}
	if v := s[start:end]; !literal(v, 4) || v[0] == '-' {
		return noMatch
	}
	return match{p: pCLICredential, at: i, start: start, end: end}
}

// shortOptionLetter reports whether c is the letter of a password option
// of shortOptions: the test before commandOf reads the command line.
func shortOptionLetter(c byte) bool {
	return isOneOf(c, "pPawUkN")
}

// commandOf returns the command of the command line s[i] is on: its
// program's base name, and for docker, podman and helm the words that
// name their login, after any sudo and VAR=value assignments, a YAML
// key or a Dockerfile's instruction; the words of an exec form
// (["CMD", "mysqladmin", ...]) are read without their quotes.
func commandOf(s string, i int) string {
	start := i
	for start > 0 && i-start < 512 && !isOneOf(s[start-1], "\n;|&`($") {
		start--
	}
	var words []string
	for _, w := range strings.Fields(s[start:i]) {
		w = strings.Trim(w, `[]"',`) // an exec form: ["CMD", "mysqladmin", "-p..."]
		switch {
		case len(words) == 0 && (w == "sudo" || strings.Contains(w, "=") || w == "exec"):
			continue
		case len(words) == 0 && (strings.HasSuffix(w, ":") || w == "CMD" || w == "CMD-SHELL" || w == "RUN"):
			continue // a YAML key (test:, command:), a Dockerfile's instruction or an exec form's marker
		case w == "" || strings.HasPrefix(w, "-"):
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

// Windows command lines: net user and net use take a password as a bare
// argument, and cmdkey, winrs and their like as an option, /pass:X.

// netCommandAt matches, at s[i:] ("net" at a word boundary, any case),
// a password given to net user or net use: net user NAME PASSWORD
// (/add, any option before or after), net use [X:] \\server\share
// PASSWORD. A '*' asks for the password and is none. The command must
// start its line (after a prompt or a command separator), or the
// password look like one: 8 characters or more, a letter and a digit or
// symbol, not a word with a number. The span is the password.
func netCommandAt(s string, i int) match {
	j := i + len("net")
	k := skipBlanks(s, j)
	if k == j {
		return noMatch
	}
	use := false
	switch {
	case hasPrefixFold(s[k:], "user") && k+4 < len(s) && (s[k+4] == ' ' || s[k+4] == '\t'):
		k += 4
	case hasPrefixFold(s[k:], "use") && k+3 < len(s) && (s[k+3] == ' ' || s[k+3] == '\t'):
		k, use = k+3, true
	default:
		return noMatch
	}
	// The positional arguments (not /options), up to the end of the
	// command.
	var args [4][2]int
	n := 0
	for k < len(s) && n < len(args) {
		k = skipBlanks(s, k)
		if k >= len(s) || isOneOf(s[k], "\r\n&|<>;`)") {
			break
		}
		start, end := cmdArg(s, k)
		if s[k] != '/' {
			args[n] = [2]int{start, end}
			n++
		}
		k = max(end, k+1)
		if k < len(s) && s[k] == '"' {
			k++
		}
	}
	pw := -1
	if !use {
		if n >= 2 {
			pw = 1 // NAME PASSWORD
		}
	} else {
		a := 0
		if a < n && isDevice(s[args[a][0]:args[a][1]]) {
			a++
		}
		if a+1 < n && strings.HasPrefix(s[args[a][0]:args[a][1]], `\\`) {
			pw = a + 1 // \\server\share PASSWORD
		}
	}
	if pw < 0 {
		return noMatch
	}
	start, end := args[pw][0], args[pw][1]
	v := s[start:end]
	if v == "*" || !literal(v, 4) || namesSecret(v) {
		return noMatch
	}
	if !atCommandStart(s, i) && !looksLikeSecret(v) {
		return noMatch
	}
	return match{p: pWindowsCredential, at: i, start: start, end: end}
}

// cmdArg returns where the argument at s[k:] starts and ends: in double
// quotes, up to the closing one; bare, up to a blank or a command
// separator.
func cmdArg(s string, k int) (start, end int) {
	if s[k] == '"' {
		e := strings.IndexByte(s[k+1:min(len(s), k+1+maxValueLen)], '"')
		if e < 0 {
			return k + 1, k + 1
		}
		return k + 1, k + 1 + e
	}
	end = k
	for end < len(s) && end-k < maxValueLen && !isSpaceByte(s[end]) && !isOneOf(s[end], "&|<>;`") {
		end++
	}
	return k, end
}

// isDevice reports whether a is a device net use connects: a drive
// letter (Z:), a printer port (LPT1:) or '*' (the next free letter).
func isDevice(a string) bool {
	return a == "*" || len(a) >= 2 && len(a) <= 5 && a[len(a)-1] == ':' && onlyLetters(a[:1])
}

// atCommandStart reports whether the word at s[i] begins a command: only
// blanks before it on its line, or a prompt (C:\>, $, #) or a command
// separator (&, |, ;, a quote or a parenthesis opening a command).
func atCommandStart(s string, i int) bool {
	k := i
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	return k == 0 || isOneOf(s[k-1], "\n\r>$#&|;(`\"'")
}

// looksLikeSecret reports whether v, found where prose may stand, reads
// as a secret rather than a word: secretShaped, and not words decorated
// with digits or symbols (1Password, Windows11!, AES-256-GCM).
func looksLikeSecret(v string) bool {
	return secretShaped(v) && !decoratedWords(v)
}

// secretShaped reports whether v may be a secret: 8 characters or more,
// a letter and a digit or symbol, and not a placeholder, a URL or a path.
func secretShaped(v string) bool {
	if len(v) < 8 || isPlaceholder(v) || strings.Contains(v, "://") || v[0] == '/' || v[0] == '~' || v[0] == '.' {
		return false
	}
	letter, other := false, false
	for i := 0; i < len(v); i++ {
		letter = letter || isASCIILetter(v[i])
		other = other || !isASCIILetter(v[i])
	}
	return letter && other
}

// decoratedWords reports whether each run of letters in v reads as a
// word: three letters or more, all lower case after an optional capital,
// or all upper case (1Password, Summer2024, AES-256-GCM). A random
// string has shorter runs, or mixes cases.
func decoratedWords(v string) bool {
	for i := 0; i < len(v); {
		if !isASCIILetter(v[i]) {
			i++
			continue
		}
		j := i
		upper := 0
		for j < len(v) && isASCIILetter(v[j]) {
			if v[j] <= 'Z' {
				upper++
			}
			j++
		}
		n := j - i
		if n < 3 || !(upper == 0 || upper == n || upper == 1 && v[i] <= 'Z') {
			return false
		}
		i = j
	}
	return true
}

// slashOptions are the Windows-style options whose value is a password,
// lower case.
var slashOptions = [...]string{"pass", "password", "p"}

// slashOptionAt matches, at s[i] == '/' after a blank, a quote or the
// start of s, a Windows-style option naming a password with its value
// (/pass:X, /password:X, /p:X, any case): not a placeholder, not
// /p:Name=Value (MSBuild's properties) nor a number. The span is the
// value.
func slashOptionAt(s string, i int) match {
	if i > 0 && !isSpaceByte(s[i-1]) && s[i-1] != '"' && s[i-1] != '\'' {
		return noMatch
	}
	k := i + 1
	for k < len(s) && k-i <= 9 && isASCIILetter(s[k]) {
		k++
	}
	if k >= len(s) || s[k] != ':' {
		return noMatch
	}
	name := s[i+1 : k]
	found := false
	for _, o := range slashOptions {
		found = found || strings.EqualFold(name, o)
	}
	if !found {
		return noMatch
	}
	start, end := optionValue(s, k+1)
	v := s[start:end]
	if !literal(v, 4) || namesSecret(v) {
		return noMatch
	}
	if len(name) == 1 && (strings.IndexByte(v, '=') >= 0 || onlyDigits(v)) {
		return noMatch
	}
	return match{p: pWindowsCredential, at: i, start: start, end: end}
}
