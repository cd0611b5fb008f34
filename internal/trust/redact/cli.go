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
	if !literal(v, minLen) || v[0] == '-' {
		return noMatch
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

func isSecretFlag(name string) bool {
	for _, f := range cliSecretFlags {
		if strings.EqualFold(name, f) {
			return true
		}
	}
	return false
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
	if o.glued != (j < len(s) && !isSpaceByte(s[j])) {
		return noMatch
	}
	start, end := optionValue(s, skipBlanks(s, j))
	if v := s[start:end]; !literal(v, 4) || v[0] == '-' {
		return noMatch
	}
	return match{p: pCLICredential, at: i, start: start, end: end}
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
