package redact

import "strings"

// Credentials of the web: Authorization and Cookie headers, incoming
// webhook URLs, chat bot tokens.

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
	for j < len(s) && j-i <= 10 && isDigit(s[j]) {
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
