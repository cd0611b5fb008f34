package redact

import "strings"

// Tokens known by their structure rather than by a prefix of their own:
// a Discord bot token, a Terraform Cloud token, a Firebase Cloud
// Messaging server key, an Azure AD client secret. Each is found where
// its structure is most distinctive, so that the scan reaches it cheaply:
// a Discord token at its first two letters (exact heads, as the vendor
// tokens'), a Terraform token at its ".atlasv1.", an FCM key at its
// ":APA91b", an Azure secret at its "Q~".

// discordHeads are the first two characters of a Discord bot token: the
// token starts with the bot's id, a decimal number, in base64, and the
// base64 of an ASCII digit ('0' to '9', 0x30 to 0x39) is M, N or O
// followed by D, T, j or z.
var discordHeads = func() (heads []string) {
	for _, a := range "MNO" {
		for _, b := range "DTjz" {
			heads = append(heads, string(a)+string(b))
		}
	}
	return heads
}()

// isDiscordHead reports whether t starts with one of discordHeads.
func isDiscordHead(t string) bool {
	return len(t) >= 2 && (t[0] == 'M' || t[0] == 'N' || t[0] == 'O') &&
		(t[1] == 'D' || t[1] == 'T' || t[1] == 'j' || t[1] == 'z')
}

// discordTokenAt matches a Discord bot token at s[i:], a word boundary
// where isDiscordHead holds: the id in base64 (23 to 28 characters, a
// 17 to 20 digit id), '.', a timestamp (6 base64url characters), '.',
// and an HMAC (27 characters or more); the span is the token.
func discordTokenAt(s string, i int) match {
	j := i
	for j < len(s) && j-i <= 28 && alnum[s[j]] {
		j++
	}
	if n := j - i; n < 23 || n > 28 || j >= len(s) || s[j] != '.' {
		return noMatch
	}
	k := j + 1
	for k < len(s) && k-j <= 7 && b64url[s[k]] {
		k++
	}
	if k-j-1 != 6 || k >= len(s) || s[k] != '.' {
		return noMatch
	}
	e := k + 1
	for e < len(s) && e-k <= maxVendorBody && b64url[s[e]] {
		e++
	}
	if n := e - k - 1; n < 27 || n > maxVendorBody || e < len(s) && isASCIIWord(s[e]) {
		return noMatch
	}
	return match{p: pDiscordToken, at: i, start: i, end: e}
}

// terraformMarker is what a Terraform Cloud (HCP Terraform) API token
// holds between its id and its secret.
const terraformMarker = ".atlasv1."

// terraformTokenAt matches, at s[i] == '.' starting terraformMarker, a
// Terraform Cloud token: 14 letters and digits before it, at a word
// boundary, and 60 base64url characters or more after it. The span is
// the token.
func terraformTokenAt(s string, i int) match {
	start := i - 14
	if start < 0 {
		return noMatch
	}
	for k := start; k < i; k++ {
		if !alnum[s[k]] {
			return noMatch
		}
	}
	if start > 0 && (isASCIIWord(s[start-1]) || s[start-1] == '.' || s[start-1] == '-') {
		return noMatch
	}
	e, ok := tokenBody(s, i+len(terraformMarker), b64url, 60)
	if !ok {
		return noMatch
	}
	return match{p: pTerraformToken, at: i, start: start, end: e}
}

// fcmMarker is what a Firebase Cloud Messaging legacy server key holds
// after its 11-character id.
const fcmMarker = ":APA91b"

// fcmServerKeyAt matches, at s[i] == ':' starting fcmMarker, an FCM
// legacy server key: AAAA and 7 base64url characters before it, at a
// word boundary, and 100 base64url characters or more after it (134 as
// issued). The span is the key.
func fcmServerKeyAt(s string, i int) match {
	start := i - 11
	if start < 0 || !strings.HasPrefix(s[start:], "AAAA") {
		return noMatch
	}
	for k := start + 4; k < i; k++ {
		if !b64url[s[k]] {
			return noMatch
		}
	}
	if start > 0 && (b64url[s[start-1]] || s[start-1] >= 0x80) {
		return noMatch
	}
	e, ok := tokenBody(s, i+len(fcmMarker), b64url, 100)
	if !ok {
		return noMatch
	}
	return match{p: pFCMServerKey, at: i, start: start, end: e}
}

// azureSecretByte[c] says whether c may be part of an Azure AD client
// secret: letters, digits, '_', '~', '.' and '-'.
var azureSecretByte = byteSet(digits + lowers + uppers + "_~.-")

// azureClientSecretAt matches, at s[i] == '~' after 'Q', an Azure AD
// client secret: three characters, a digit and "Q~" (the 4th to 6th
// characters of the secret), then 31 to 34 characters, the whole
// between boundaries (no secret character on either side), the part
// after "Q~" with upper case, lower case and a digit. The span is the
// secret.
func azureClientSecretAt(s string, i int) match {
	start := i - 5
	if start < 0 || s[i-1] != 'Q' || !isDigit(s[i-2]) {
		return noMatch
	}
	for k := start; k < i-2; k++ {
		if !azureSecretByte[s[k]] {
			return noMatch
		}
	}
	if start > 0 && (azureSecretByte[s[start-1]] || s[start-1] >= 0x80) {
		return noMatch
	}
	j := i + 1
	e := j
	for e < len(s) && e-j <= 36 && azureSecretByte[s[e]] {
		e++
	}
	for e-j > 34 && s[e-1] == '.' {
		e-- // the end of a sentence
	}
	if n := e - j; n < 31 || n > 34 || e < len(s) && s[e] >= 0x80 {
		return noMatch
	}
	upper, lower, digit := false, false, false
	for k := j; k < e; k++ {
		c := s[k]
		upper = upper || c >= 'A' && c <= 'Z'
		lower = lower || c >= 'a' && c <= 'z'
		digit = digit || isDigit(c)
	}
	if !upper || !lower || !digit {
		return noMatch
	}
	return match{p: pAzureClientSecret, at: i, start: start, end: e}
}
