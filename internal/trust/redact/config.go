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
	if !literal(strings.TrimSpace(s[start:start+end]), 4) {
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
	for j < len(s) && j-start < maxValueLen && !isSpaceByte(s[j]) {
		j++
	}
	if v := s[start:j]; !literal(v, 4) || !plain && onlyLetters(v) {
		return noMatch
	}
	return match{p: pConfigValue, at: i, start: start, end: j}
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
