package redact

import "strings"

// Passwords a command takes as a plain argument, where no option names
// them: htpasswd -b's last argument, rabbitmqctl add_user's second,
// sqlplus's user/password, mysqladmin's password NEW, and the password
// echoed into chpasswd, passwd --stdin or smbpasswd -s. Each rule knows
// its command's arguments; none guesses from a word's position alone.

// maxArgs bounds the arguments of one command that are read.
const maxArgs = 16

// commandWordAt matches, at s[i:] (a command's name at a word boundary,
// which the scan found by its prefix), the credential that command is
// given: a password as a positional argument (positionalAt), one echoed
// into it (echoedAt), or PowerShell's ConvertTo-SecureString's.
func commandWordAt(s string, i int) match {
	e := i
	for e < len(s) && (isASCIIWord(s[e]) || s[e] == '-') {
		e++
	}
	switch w := s[i:e]; {
	case strings.EqualFold(w, "convertto-securestring"):
		return secureStringAt(s, i)
	case w == "htpasswd":
		return htpasswdAt(s, e)
	case w == "rabbitmqctl":
		return rabbitmqctlAt(s, e)
	case w == "sqlplus":
		return sqlplusAt(s, e)
	case w == "chpasswd", w == "passwd", w == "smbpasswd":
		return echoedAt(s, i, w, e)
	}
	return noMatch
}

// argList holds the bounds of a command's arguments, maxArgs at most
// (by value, so that reading a command allocates nothing).
type argList struct {
	a [maxArgs][2]int
	n int
}

// list returns the arguments read.
func (a *argList) list() [][2]int { return a.a[:a.n] }

// add appends an argument's bounds, when there is room.
func (a *argList) add(b [2]int) {
	if a.n < maxArgs {
		a.a[a.n] = b
		a.n++
	}
}

// commandArgs returns the bounds of the arguments that follow a command's
// name ending at s[k], up to the end of the command (a line break or a
// command separator), maxArgs at most; quotes are taken off.
func commandArgs(s string, k int) (out argList) {
	for out.n < maxArgs {
		k = skipBlanks(s, k)
		if k >= len(s) || isOneOf(s[k], "\r\n&|;`)<>") {
			break
		}
		start, end, next := shellArg(s, k)
		out.add([2]int{start, end})
		k = next
	}
	return out
}

// shellArg reads the argument at s[k]: in ' or " quotes up to the
// closing one, bare up to a blank or what ends a command. It returns the
// argument's bounds without its quotes, and where reading goes on.
func shellArg(s string, k int) (start, end, next int) {
	if q := s[k]; q == '"' || q == '\'' {
		e := strings.IndexByte(s[k+1:min(len(s), k+1+maxValueLen)], q)
		if e < 0 {
			return k + 1, k + 1, len(s)
		}
		return k + 1, k + 1 + e, k + 2 + e
	}
	end = k
	for end < len(s) && end-k < maxValueLen && !isSpaceByte(s[end]) && !isOneOf(s[end], "&|;`)<>\"'") {
		end++
	}
	return k, end, end
}

// givenPassword reports whether v, a command's argument where a password
// goes, is one: 4 characters or more, not a placeholder nor a secret's
// name (htpasswd -b FILE USER password is the documentation's).
func givenPassword(v string) bool {
	return literal(v, 4) && !namesSecret(v) && !isPlaceholderWord(v) && v[0] != '-'
}

// htpasswdAt matches the password of htpasswd in batch mode (-b), whose
// name ends at s[k]: htpasswd -b[c...] FILE USER PASSWORD, or with -n
// (no file) USER PASSWORD. -C and -r take a number. The span is the
// password.
func htpasswdAt(s string, k int) match {
	all := commandArgs(s, k)
	args := all.list()
	batch, noFile := false, false
	var pos argList
	for n := 0; n < len(args); n++ {
		a := s[args[n][0]:args[n][1]]
		if len(a) > 1 && a[0] == '-' {
			batch = batch || strings.IndexByte(a, 'b') >= 0
			noFile = noFile || strings.IndexByte(a, 'n') >= 0
			if c := a[len(a)-1]; c == 'C' || c == 'r' {
				n++ // the cost or rounds
			}
			continue
		}
		pos.add(args[n])
	}
	want := 2
	if noFile {
		want = 1
	}
	if !batch || pos.n <= want {
		return noMatch
	}
	a := pos.a[want]
	if !givenPassword(s[a[0]:a[1]]) {
		return noMatch
	}
	return match{p: pCLICredential, at: k, start: a[0], end: a[1]}
}

// rabbitmqUserCommands are rabbitmqctl's commands that take a user name
// and its password.
var rabbitmqUserCommands = [...]string{"add_user", "change_password", "authenticate_user"}

// rabbitmqctlAt matches the password of rabbitmqctl add_user,
// change_password or authenticate_user, whose name ends at s[k]: the
// argument after the user's name (options, and the node after -n, aside).
// The span is the password.
func rabbitmqctlAt(s string, k int) match {
	all := commandArgs(s, k)
	args := all.list()
	var found argList
	for n := 0; n < len(args); n++ {
		a := s[args[n][0]:args[n][1]]
		if strings.HasPrefix(a, "-") {
			if a == "-n" || a == "--node" || a == "-t" || a == "--timeout" {
				n++
			}
			continue
		}
		found.add(args[n])
	}
	pos := found.list()
	for n := 0; n+2 < len(pos); n++ {
		cmd := s[pos[n][0]:pos[n][1]]
		for _, c := range rabbitmqUserCommands {
			if cmd != c {
				continue
			}
			a := pos[n+2]
			if !givenPassword(s[a[0]:a[1]]) {
				return noMatch
			}
			return match{p: pCLICredential, at: k, start: a[0], end: a[1]}
		}
	}
	return noMatch
}

// sqlplusAt matches the password of Oracle's sqlplus, whose name ends at
// s[k]: its first argument that is not an option, user/password, with
// @ and a connect identifier or not (sqlplus system/pw@//db:1521/XE). "/"
// alone (operating system authentication) and @script are no password.
// The span is the password.
func sqlplusAt(s string, k int) match {
	all := commandArgs(s, k)
	for _, a := range all.list() {
		v := s[a[0]:a[1]]
		if strings.HasPrefix(v, "-") {
			continue
		}
		slash := strings.IndexByte(v, '/')
		if slash <= 0 || !isOracleName(v[:slash]) {
			return noMatch
		}
		pw := v[slash+1:]
		if at := strings.IndexByte(pw, '@'); at >= 0 {
			pw = pw[:at]
		}
		if !givenPassword(pw) {
			return noMatch
		}
		start := a[0] + slash + 1
		return match{p: pCLICredential, at: k, start: start, end: start + len(pw)}
	}
	return noMatch
}

// isOracleName reports whether v may be an Oracle user's name: letters,
// digits, _, $ and #, starting with a letter (c##admin).
func isOracleName(v string) bool {
	if v == "" || !isASCIILetter(v[0]) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isASCIIWord(v[i]) && v[i] != '$' && v[i] != '#' {
			return false
		}
	}
	return true
}

// echoedAt matches a password echoed into a command that reads it from
// its input, whose name w is s[i:e]: echo 'user:password' | chpasswd,
// echo password | passwd --stdin user, echo -e "pw\npw" | smbpasswd -s.
// The echo stands before the '|' in front of the command (sudo aside);
// the span is the password.
func echoedAt(s string, i int, w string, e int) match {
	// The pipe before the command.
	k := i
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	if k >= 5 && s[k-4:k] == "sudo" && (s[k-5] == ' ' || s[k-5] == '\t' || s[k-5] == '|') {
		for k -= 4; k > 0 && (s[k-1] == ' ' || s[k-1] == '\t'); k-- {
		}
	}
	if k == 0 || s[k-1] != '|' || k >= 2 && s[k-2] == '|' {
		return noMatch
	}
	if w == "passwd" || w == "smbpasswd" {
		flag := "--stdin"
		if w == "smbpasswd" {
			flag = "-s"
		}
		found := false
		all := commandArgs(s, e)
		for _, a := range all.list() {
			found = found || s[a[0]:a[1]] == flag
		}
		if !found {
			return noMatch
		}
	}
	return echoBefore(s, k-1, w == "chpasswd", i)
}

// stdinPasswordAt matches, at s[i] == '-', an option that makes a
// command read its password from its input (sudo -S, --password-stdin
// of docker, podman, helm and the registry tools), and the password
// echoed into it before a '|' on the same line (echo pw | sudo -S ...,
// echo pw | docker login -u bot --password-stdin). The span is the
// password.
func stdinPasswordAt(s string, i int) match {
	switch {
	case strings.HasPrefix(s[i:], "--password-stdin"):
	case strings.HasPrefix(s[i:], "-S") && (i+2 == len(s) || isSpaceByte(s[i+2])) && i >= 5 && s[i-5:i] == "sudo ":
	default:
		return noMatch
	}
	line := s[max(0, i-maxValueLen):i]
	line = line[strings.LastIndexByte(line, '\n')+1:]
	pipe := strings.LastIndexByte(line, '|')
	if pipe <= 0 || line[pipe-1] == '|' {
		return noMatch
	}
	return echoBefore(s, i-len(line)+pipe, false, i)
}

// echoBefore matches the password echo or printf writes before the '|'
// at s[pipe], on its line: its first argument, or the part after ':' of
// a user:password pair (pair), or the first line of a password echoed
// twice (echo -e "pw\npw"). The match is found at at.
func echoBefore(s string, pipe int, pair bool, at int) match {
	k := pipe + 1
	// The echo: the last echo or printf of the line before the pipe.
	line := s[max(0, k-1-maxValueLen) : k-1]
	line = line[strings.LastIndexByte(line, '\n')+1:]
	base := k - 1 - len(line)
	echo := max(lastWord(line, "echo"), lastWord(line, "printf"))
	if echo < 0 {
		return noMatch
	}
	all := commandArgs(line, echo+strings.IndexByte(line[echo:], ' '))
	for _, a := range all.list() {
		v := line[a[0]:a[1]]
		if strings.HasPrefix(v, "-") {
			continue // echo -e, -n
		}
		start, end := a[0], a[1]
		if pair {
			user, _, ok := strings.Cut(v, ":")
			if !ok || user == "" {
				return noMatch
			}
			start += len(user) + 1
		} else if nl := strings.Index(line[start:end], `\n`); nl >= 0 {
			end = start + nl // the password, then again to confirm it
		}
		if !givenPassword(line[start:end]) {
			return noMatch
		}
		return match{p: pCLICredential, at: at, start: base + start, end: base + end}
	}
	return noMatch
}

// lastWord returns the index of the last occurrence of word in line that
// stands as a word of its own followed by a blank, or -1.
func lastWord(line, word string) int {
	for end := len(line); ; {
		n := strings.LastIndex(line[:end], word)
		if n < 0 {
			return -1
		}
		after := n + len(word)
		if (n == 0 || !isNameByte(line[n-1])) && after < len(line) && (line[after] == ' ' || line[after] == '\t') {
			return n
		}
		end = n
	}
}
