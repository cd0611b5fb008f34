package redact

// An independent red-team probe of the redaction battery.
//
// The samples below were written as an exam, from docs/security.md
// ("Redaction", its Limits paragraph) and docs/compatibility.md ("The
// battery") only, before reading the matchers: text an attacker (or a
// careless agent) would plant in a memory row, a note, a session's key
// actions, a summary, a command line, a config snippet or a chat line.
//
// Every fake credential is built at run time from a fixed pseudo-random
// generator and string concatenation, so no token literal is committed.
//
// For each secret sample, Flagged must be true (a field holding it is
// replaced whole) and Span must no longer contain any of its secret parts
// (prose keeps the text but not the credential). For each benign sample,
// Span must give the text back unchanged, and Flagged must be false unless
// the sample names a credential in words (a reference keyword such as
// "password", "token", "api_key", "secret", "bearer").
//
// Samples that fail today are listed, with the reason, in knownMisses and
// knownFalsePositives. The test logs them and fails when a sample outside
// those lists fails, or when a listed sample starts passing (so the lists
// stay honest: remove the entry when the battery learns the shape).

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

// knownMisses are secret samples the battery lets through today (not
// flagged as a field, or a secret part kept by Span), by name, with why
// they leak. The reasons were written after the exam, from the matchers.
var knownMisses = map[string]string{
	// AI vendors.
	"chat/mistral-bare": "an opaque 32-character key with no prefix and no name next to it (documented limit)",
	"json/together-key": `a bare "key" is not a secret name, and 64 hex digits have no prefix`,
}

// knownFalsePositives are benign samples the battery changes (Span) or
// flags (Flagged, without a keyword) today, by name, with why.
var knownFalsePositives = map[string]string{
	"base64/mime-attachment": "the 76-character lines of a base64 mail attachment look like PEM body lines",
}

// rtSecret is a text holding a credential; parts are the substrings that
// must not survive Span (the credential, or each piece of a split one).
type rtSecret struct {
	name  string
	text  string
	parts []string
}

// rtBenign is a text holding no credential. keyword says it names one in
// words (so a field may still be flagged by the reference's keyword
// patterns); Span must leave it alone either way.
type rtBenign struct {
	name    string
	text    string
	keyword bool
}

// Alphabets of the fake tokens.
const (
	rtUpper   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	rtLower   = "abcdefghijklmnopqrstuvwxyz"
	rtDigits  = "0123456789"
	rtAlnum   = rtUpper + rtLower + rtDigits
	rtLowNum  = rtLower + rtDigits
	rtUpNum   = rtUpper + rtDigits
	rtHex     = "0123456789abcdef"
	rtB64     = rtAlnum + "+/"
	rtURLSafe = rtAlnum + "-_"
	rtB32     = rtUpper + "234567"
	rtPw      = rtAlnum + "!#$*"
)

// rtGen is a small deterministic generator (xorshift64) of fake tokens.
type rtGen struct{ s uint64 }

func (g *rtGen) next() uint64 {
	g.s ^= g.s << 13
	g.s ^= g.s >> 7
	g.s ^= g.s << 17
	return g.s
}

// str returns n characters of alpha.
func (g *rtGen) str(alpha string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alpha[g.next()%uint64(len(alpha))]
	}
	return string(b)
}

// pw returns a password of n characters: letters, digits and a few
// symbols, with at least one upper case letter, one lower case letter and
// one digit (as a password policy would ask).
func (g *rtGen) pw(n int) string {
	return g.str(rtUpper, 1) + g.str(rtLower, 1) + g.str(rtDigits, 1) + g.str(rtPw, n-3)
}

// urlPw is pw without symbols, for places where a symbol would need
// escaping (URLs, XML).
func (g *rtGen) urlPw(n int) string {
	return g.str(rtUpper, 1) + g.str(rtLower, 1) + g.str(rtDigits, 1) + g.str(rtAlnum, n-3)
}

// card returns a Luhn-valid card number of n digits starting with prefix.
func (g *rtGen) card(prefix string, n int) string {
	body := prefix + g.str(rtDigits, n-1-len(prefix))
	return body + string(rune('0'+luhnCheck(body)))
}

// luhnCheck is the check digit that makes payload+digit Luhn-valid.
func luhnCheck(payload string) int {
	sum := 0
	for i := 0; i < len(payload); i++ {
		d := int(payload[len(payload)-1-i] - '0')
		if i%2 == 0 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return (10 - sum%10) % 10
}

// groups spaces s into groups of the given sizes, joined by sep.
func groups(s, sep string, sizes ...int) string {
	var out []string
	for _, n := range sizes {
		out = append(out, s[:n])
		s = s[n:]
	}
	return strings.Join(out, sep)
}

// pemLines returns n lines of width base64 characters starting with lead,
// and a shorter last line.
func (g *rtGen) pemLines(lead string, n, width int) []string {
	lines := make([]string, n)
	lines[0] = lead + g.str(rtB64, width-len(lead))
	for i := 1; i < n-1; i++ {
		lines[i] = g.str(rtB64, width)
	}
	lines[n-1] = g.str(rtB64, width/2) + "=="
	return lines
}

// jwt returns a JWT with a real header and payload and a fake signature.
func (g *rtGen) jwt(payload string) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + enc([]byte(payload)) + "." + g.str(rtURLSafe, 43)
}

func rtB64Of(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// fullWidth spells the ASCII letters and digits of s in full-width forms.
func fullWidth(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r > ' ' && r < 0x7f {
			r += 0xFF01 - '!'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// redTeamSecrets are the secret-bearing samples, named category/what.
func redTeamSecrets() []rtSecret {
	g := &rtGen{s: 0x9E3779B97F4A7C15}
	var out []rtSecret
	add := func(name, text string, parts ...string) {
		out = append(out, rtSecret{name, text, parts})
	}

	// --- AI vendors ---------------------------------------------------
	openaiLegacy := "sk-" + g.str(rtAlnum, 20) + "T3Blbk" + "FJ" + g.str(rtAlnum, 20)
	add("chat/openai-legacy",
		"hey, use my key "+openaiLegacy+" for the eval run, it has $50 credit left", openaiLegacy)
	openaiProj := "sk-proj-" + g.str(rtURLSafe, 74) + "T3Blbk" + "FJ" + g.str(rtURLSafe, 74)
	add("note/openai-project",
		"Memory: the eval harness calls gpt-4o with "+openaiProj+" (rotate after the demo)", openaiProj)
	openaiSvc := "sk-svcacct-" + g.str(rtURLSafe, 74) + "T3Blbk" + "FJ" + g.str(rtURLSafe, 74)
	add("json/openai-service-account",
		`{"provider":"openai","credential":"`+openaiSvc+`","org":"org-acme"}`, openaiSvc)
	anthropic := "sk-ant-" + "api03-" + g.str(rtURLSafe, 93) + "AA"
	add("summary/anthropic",
		"Session summary: configured the claude client with "+anthropic+" and retried 3 times on 529.", anthropic)
	anthropicAdmin := "sk-ant-" + "admin01-" + g.str(rtURLSafe, 93) + "AA"
	add("action/anthropic-admin",
		"key action: created workspace 'evals' through the admin API using "+anthropicAdmin, anthropicAdmin)
	hf := "hf_" + g.str(rtUpper+rtLower, 34)
	add("chat/huggingface", "model pull needs "+hf+" (read scope), gated repo", hf)
	replicate := "r8_" + g.str(rtAlnum, 37)
	add("chat/replicate", "replicate run worked with "+replicate+", 4 predictions queued", replicate)
	groq := "gsk_" + g.str(rtAlnum, 52)
	add("chat/groq", "switched the fallback to groq: "+groq, groq)
	pplx := "pplx-" + g.str(rtAlnum, 48)
	add("chat/perplexity", "perplexity search client -> "+pplx, pplx)
	xai := "xai-" + g.str(rtAlnum, 80)
	add("chat/xai", "grok eval uses "+xai+" now", xai)
	openrouter := "sk-or-" + "v1-" + g.str(rtHex, 64)
	add("chat/openrouter", "OpenRouter fallback configured ("+openrouter+")", openrouter)
	deepseek := "sk-" + g.str(rtHex, 32)
	add("chat/deepseek", "deepseek-chat works with "+deepseek+" at 1/10 the price", deepseek)
	mistral := g.str(rtAlnum, 32)
	add("env/mistral", "MISTRAL_API_KEY="+mistral, mistral)
	mistralBare := g.str(rtAlnum, 32)
	add("chat/mistral-bare", "la plateforme -> mistral-large with "+mistralBare+", 1M tokens free", mistralBare)
	eleven := "sk_" + g.str(rtHex, 48)
	add("header/elevenlabs", "curl -H 'xi-api-key: "+eleven+"' https://api.elevenlabs.io/v1/voices", eleven)
	together := g.str(rtHex, 64)
	add("json/together-key", `{"provider":"together","key":"`+together+`"}`, together)

	// --- Source forges and CI -----------------------------------------
	ghp := "ghp_" + g.str(rtAlnum, 36)
	add("chat/github-classic", "pushed with "+ghp+" since SSH was blocked on the VPN", ghp)
	ghFine := "github_pat_" + g.str(rtAlnum, 22) + "_" + g.str(rtAlnum, 59)
	add("note/github-fine-grained", "fine-grained PAT for the release bot: "+ghFine, ghFine)
	gho := "gho_" + g.str(rtAlnum, 36)
	add("yaml/gh-hosts",
		"github.com:\n    user: octocat\n    oauth_token: "+gho+"\n    git_protocol: https\n", gho)
	ghs := "ghs_" + g.str(rtAlnum, 36)
	add("cli/git-remote-token",
		"git remote set-url origin https://x-access-token:"+ghs+"@github.com/acme/api.git", ghs)
	ghp2 := "ghp_" + g.str(rtAlnum, 36)
	add("cli/gh-with-token", "echo "+ghp2+" | gh auth login --with-token", ghp2)
	glpat := "glpat-" + g.str(rtURLSafe, 20)
	add("cli/gitlab-private-token",
		`curl --header "PRIVATE-TOKEN: `+glpat+`" https://gitlab.example.com/api/v4/projects`, glpat)
	ghOld := g.str(rtHex, 40)
	add("header/github-token-scheme",
		"Authorization: token "+ghOld, ghOld)
	gitPw := g.urlPw(14)
	add("git/credentials-store", "https://octocat:"+gitPw+"@github.com\n", gitPw)
	helperPw := g.pw(16)
	add("git/credential-helper",
		`git config credential.helper '!f() { echo "username=bot"; echo "password=`+helperPw+`"; }; f'`, helperPw)

	// --- Chat and webhooks --------------------------------------------
	xoxb := "xoxb-" + g.str(rtDigits, 12) + "-" + g.str(rtDigits, 13) + "-" + g.str(rtAlnum, 24)
	add("chat/slack-bot", "the bot token is "+xoxb, xoxb)
	slackHook := g.str(rtAlnum, 24)
	add("webhook/slack",
		"alerts go to https://hooks.slack.com/services/T"+g.str(rtUpNum, 8)+"/B"+g.str(rtUpNum, 10)+"/"+slackHook, slackHook)
	discordHook := g.str(rtURLSafe, 68)
	add("webhook/discord",
		"post build status to https://discord.com/api/webhooks/"+g.str(rtDigits, 19)+"/"+discordHook, discordHook)
	teamsHook := g.str(rtHex, 32)
	add("webhook/teams",
		"Teams connector: https://acme.webhook.office.com/webhookb2/"+rtUUID(g)+"@"+rtUUID(g)+"/IncomingWebhook/"+teamsHook+"/"+rtUUID(g), teamsHook)
	telegram := g.str(rtDigits, 10) + ":AA" + g.str(rtURLSafe, 33)
	add("chat/telegram-bot", "Telegram bot for on-call: "+telegram, telegram)
	discordBot := "MT" + g.str(rtAlnum, 22) + "." + g.str(rtURLSafe, 6) + "." + g.str(rtURLSafe, 38)
	add("chat/discord-bot", "discord.py client.run('"+discordBot+"')", discordBot)
	twitch := "oauth:" + g.str(rtLowNum, 30)
	add("ini/twitch-irc", "[irc]\nnick = acmebot\npass = "+twitch+"\n", twitch)

	// --- Cloud providers ----------------------------------------------
	akia := "AKIA" + g.str(rtB32, 16)
	awsSecret := g.str(rtB64, 40)
	add("ini/aws-credentials",
		"[default]\naws_access_key_id = "+akia+"\naws_secret_access_key = "+awsSecret+"\nregion = us-east-1\n",
		akia, awsSecret)
	akia2 := "AKIA" + g.str(rtB32, 16)
	awsSecret2 := g.str(rtB64, 40)
	add("note/aws-pair-prose", "creds for staging: "+akia2+", "+awsSecret2, akia2, awsSecret2)
	awsSecret3 := g.str(rtB64, 40)
	add("json/aws-camel",
		`{"accessKeyId":"AKIA`+g.str(rtB32, 16)+`","secretAccessKey":"`+awsSecret3+`"}`, awsSecret3)
	awsSecret4 := g.str(rtB64, 40)
	add("cli/aws-configure",
		"aws configure set aws_secret_access_key "+awsSecret4+" --profile prod", awsSecret4)
	awsSession := "IQoJb3JpZ2luX2Vj" + g.str(rtAlnum, 300)
	add("env/aws-session-token", "AWS_SESSION_TOKEN="+awsSession, awsSession)
	amzToken := "IQoJb3JpZ2luX2Vj" + g.str(rtAlnum, 200)
	add("url/s3-presigned",
		"https://acme.s3.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIA"+
			g.str(rtB32, 16)+"%2F20240601%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Security-Token="+amzToken+
			"&X-Amz-Signature="+g.str(rtHex, 64), amzToken)
	akia3 := "AKIA" + g.str(rtB32, 16)
	awsSecret5 := g.str(rtB64, 40)
	add("action/aws-pair-slash",
		"key action: wrote ~/.aws/credentials ("+akia3+" / "+awsSecret5+") for the backup job", akia3, awsSecret5)
	akia4 := "AKIA" + g.str(rtB32, 16)
	awsSecret6 := g.str(rtB64, 40)
	add("python/boto3",
		"s3 = boto3.client('s3', aws_access_key_id='"+akia4+"', aws_secret_access_key='"+awsSecret6+"')", akia4, awsSecret6)
	gcpLines := g.pemLines("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 5, 64)
	add("json/gcp-service-account",
		`{"type":"service_account","project_id":"acme-prod","private_key_id":"`+g.str(rtHex, 40)+
			`","private_key":"-----BEGIN PRIVATE KEY-----\n`+strings.Join(gcpLines, `\n`)+
			`\n-----END PRIVATE KEY-----\n","client_email":"ci@acme-prod.iam.gserviceaccount.com"}`,
		gcpLines[1], gcpLines[3])
	aiza := "AIza" + g.str(rtURLSafe, 35)
	add("url/google-api-key",
		"https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key="+aiza, aiza)
	gocspx := "GOCSPX-" + g.str(rtURLSafe, 28)
	add("env/google-oauth-client",
		"GOOGLE_CLIENT_ID=1234567890-"+g.str(rtLowNum, 32)+".apps.googleusercontent.com\nGOOGLE_CLIENT_SECRET="+gocspx, gocspx)
	azKey := g.str(rtB64, 86) + "=="
	add("conn/azure-storage",
		"DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey="+azKey+";EndpointSuffix=core.windows.net", azKey)
	azSig := g.str(rtAlnum, 43) + "%3D"
	add("url/azure-sas",
		"https://acme.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2025-01-01T00:00:00Z&spr=https&sig="+azSig, azSig)
	azSb := g.str(rtB64, 43) + "="
	add("conn/azure-servicebus",
		"Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey="+azSb, azSb)
	azClient := g.str(rtAlnum, 3) + "8Q~" + g.str(rtAlnum+"_.~-", 34)
	add("table/azure-client-secret",
		"| app | tenant | value |\n|---|---|---|\n| prod-api | "+rtUUID(g)+" | "+azClient+" |", azClient)
	alibaba := "LTAI" + g.str(rtAlnum, 20)
	add("chat/alibaba", "oss upload via "+alibaba+" (cn-hangzhou)", alibaba)
	tencent := "AKID" + g.str(rtAlnum, 32)
	add("chat/tencent", "tencent cos SecretId "+tencent, tencent)
	doToken := "dop_v1_" + g.str(rtHex, 64)
	add("cli/digitalocean", "doctl auth init -t "+doToken, doToken)
	cfToken := g.str(rtURLSafe, 40)
	add("env/cloudflare-token", "CLOUDFLARE_API_TOKEN="+cfToken, cfToken)
	cfGlobal := g.str(rtHex, 37)
	add("header/cloudflare-global",
		`curl -H "X-Auth-Key: `+cfGlobal+`" -H "X-Auth-Email: ops@acme.io" https://api.cloudflare.com/client/v4/zones`, cfGlobal)
	ddAPI := g.str(rtHex, 32)
	add("yaml/datadog-api", "datadog:\n  site: datadoghq.eu\n  apiKey: "+ddAPI+"\n", ddAPI)
	ddApp := g.str(rtHex, 40)
	add("yaml/datadog-app", "datadog:\n  appKey: "+ddApp+"\n", ddApp)
	tfc := g.str(rtAlnum, 14) + ".atlasv1." + g.str(rtAlnum, 67)
	add("chat/terraform-cloud", "tfc team creds "+tfc, tfc)
	fcm := "AAAA" + g.str(rtURLSafe, 7) + ":APA91b" + g.str(rtURLSafe, 134)
	add("chat/firebase-fcm", "legacy FCM server key "+fcm, fcm)

	// --- SaaS vendors -------------------------------------------------
	stripeLive := "sk_live_" + "51" + g.str(rtAlnum, 97)
	add("chat/stripe-live", "refunded the order via script with "+stripeLive, stripeLive)
	whsec := "whsec_" + g.str(rtAlnum, 32)
	add("env/stripe-webhook", "STRIPE_WEBHOOK_SECRET="+whsec, whsec)
	rkLive := "rk_live_" + "51" + g.str(rtAlnum, 97)
	add("chat/stripe-restricted", "restricted key "+rkLive+" only has charges:read", rkLive)
	twilioAuth := g.str(rtHex, 32)
	add("env/twilio",
		"TWILIO_ACCOUNT_SID=AC"+g.str(rtHex, 32)+"\nTWILIO_AUTH_TOKEN="+twilioAuth, twilioAuth)
	twilioSK := "SK" + g.str(rtHex, 32)
	add("note/twilio-api-key", "twilio API key sid "+twilioSK+" created for the SMS worker", twilioSK)
	sendgrid := "SG." + g.str(rtURLSafe, 22) + "." + g.str(rtURLSafe, 43)
	add("url/smtp-sendgrid", "smtp://apikey:"+sendgrid+"@smtp.sendgrid.net:587", sendgrid)
	mailgun := "key-" + g.str(rtHex, 32)
	add("cli/mailgun", "curl -s --user 'api:"+mailgun+"' https://api.mailgun.net/v3/mg.acme.io/messages", mailgun)
	npm := "npm_" + g.str(rtAlnum, 36)
	add("npmrc", "//registry.npmjs.org/:_authToken="+npm+"\nalways-auth=true\n", npm)
	pypi := "pypi-AgEIcHlwaS5vcmc" + g.str(rtURLSafe, 150)
	add("ini/pypirc", "[pypi]\n  username = __token__\n  password = "+pypi+"\n", pypi)
	shopify := "shpat_" + g.str(rtHex, 32)
	add("chat/shopify", "admin API access for the store: "+shopify, shopify)
	atlassian := "ATATT3xFfGF0" + g.str(rtURLSafe, 170) + "=" + g.str(rtUpNum, 8)
	add("chat/atlassian", "jira automation uses "+atlassian, atlassian)
	linear := "lin_api_" + g.str(rtAlnum, 40)
	add("chat/linear", "linear sync: "+linear, linear)
	notion := "ntn_" + g.str(rtAlnum, 46)
	add("chat/notion", "notion integration "+notion+" shared with the wiki page", notion)
	vault := "hvs." + "CAESI" + g.str(rtURLSafe, 86)
	add("cli/vault-login", "vault login "+vault, vault)
	doppler := "dp.st.prd." + g.str(rtAlnum, 40)
	add("chat/doppler", "doppler service token for prod config: "+doppler, doppler)
	pulumi := "pul-" + g.str(rtHex, 40)
	add("chat/pulumi", "pulumi login with "+pulumi+" (org acme)", pulumi)
	postman := "PMAK-" + g.str(rtHex, 24) + "-" + g.str(rtHex, 34)
	add("chat/postman", "postman collection runner: "+postman, postman)
	sentry := "sntryu_" + g.str(rtHex, 64)
	add("chat/sentry", "sentry-cli releases new 1.4.0 --auth "+sentry, sentry)
	newrelic := "NRAK-" + g.str(rtUpNum, 27)
	add("chat/newrelic", "NerdGraph query works with "+newrelic, newrelic)
	dockerPat := "dckr_pat_" + g.str(rtURLSafe, 27)
	add("cli/docker-login-pat", "echo "+dockerPat+" | docker login -u acme --password-stdin", dockerPat)
	facebook := "EAAB" + g.str(rtAlnum, 180)
	add("url/facebook-access-token", "https://graph.facebook.com/v19.0/me?access_token="+facebook, facebook)
	dropbox := "sl." + g.str(rtURLSafe, 138)
	add("chat/dropbox", "dropbox short-lived token "+dropbox, dropbox)
	age := "AGE-SECRET-KEY-1" + g.str("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)
	add("age/identity", "# created: 2024-06-01T10:00:00Z\n# public key: age1"+g.str("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)+"\n"+age+"\n", age)
	okta := "00" + g.str(rtURLSafe, 40)
	add("header/okta-ssws", "Authorization: SSWS "+okta, okta)

	// --- Private keys and signed tokens -------------------------------
	rsa := g.pemLines("MIIEowIBAAKCAQEA", 8, 64)
	add("pem/rsa-in-fence",
		"Here is the deploy key:\n```\n-----BEGIN RSA PRIVATE KEY-----\n"+strings.Join(rsa, "\n")+
			"\n-----END RSA PRIVATE KEY-----\n```\n", rsa[1], rsa[6])
	ossh := g.pemLines("b3BlbnNzaC1rZXktdjEAAAAA", 7, 70)
	add("pem/openssh",
		"-----BEGIN OPENSSH PRIVATE KEY-----\n"+strings.Join(ossh, "\n")+"\n-----END OPENSSH PRIVATE KEY-----", ossh[2])
	pgp := g.pemLines("lQOYBGZ", 6, 64)
	add("pem/pgp-private",
		"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"+strings.Join(pgp, "\n")+"\n="+g.str(rtB64, 4)+
			"\n-----END PGP PRIVATE KEY BLOCK-----\n", pgp[1], pgp[4])
	ecBody := g.pemLines("MHcCAQEEI", 3, 64)
	add("pem/body-without-begin",
		"pasted the middle of the key by mistake:\n"+strings.Join(ecBody, "\n")+"\n", ecBody[0], ecBody[1])
	ppk := g.str(rtB64, 44)
	add("ppk/putty-private-lines",
		"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\n"+
			"AAAAC3NzaC1lZDI1NTE5AAAAI"+g.str(rtB64, 43)+"\nPrivate-Lines: 1\n"+ppk+"\nPrivate-MAC: "+g.str(rtHex, 64)+"\n", ppk)
	wg := g.str(rtB64, 43) + "="
	add("ini/wireguard", "[Interface]\nPrivateKey = "+wg+"\nAddress = 10.0.0.2/32\n", wg)
	ethKey := "0x" + g.str(rtHex, 64)
	add("note/eth-private-key", "deployer private key: "+ethKey+" (sepolia only)", ethKey)
	jwtSess := g.jwt(`{"sub":"42","name":"admin","iat":1717245296}`)
	add("cookie/jwt", "Cookie: theme=dark; session="+jwtSess+"; lang=en", jwtSess)
	sbJWT := g.jwt(`{"iss":"supabase","ref":"abcdefghijklmnop","role":"service_role","iat":1717245296}`)
	add("chat/supabase-service-role", "use the service role one: "+sbJWT, sbJWT)
	saJWT := g.jwt(`{"iss":"kubernetes/serviceaccount","sub":"system:serviceaccount:ci:deployer"}`)
	add("yaml/kubeconfig-token",
		"users:\n- name: ci\n  user:\n    token: "+saJWT+"\n", saJWT)
	pemForKube := "-----BEGIN EC PRIVATE KEY-----\n" + strings.Join(g.pemLines("MHcCAQEEI", 3, 64), "\n") + "\n-----END EC PRIVATE KEY-----\n"
	kubeKey := rtB64Of(pemForKube)
	add("yaml/kubeconfig-client-key-data",
		"users:\n- name: admin\n  user:\n    client-certificate-data: LS0tLS1CRUdJTi"+g.str(rtB64, 60)+"\n    client-key-data: "+kubeKey+"\n", kubeKey)

	// --- Kubernetes, Docker, containers -------------------------------
	k8sPw := rtB64Of(g.pw(18))
	add("yaml/k8s-secret-data",
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  username: YWRtaW4=\n  password: "+k8sPw+"\n", k8sPw)
	dockerAuth := rtB64Of("acme:" + g.pw(16))
	add("json/docker-config-auth",
		`{"auths":{"registry.acme.io":{"auth":"`+dockerAuth+`"}}}`, dockerAuth)
	dcj := rtB64Of(`{"auths":{"ghcr.io":{"username":"acme","password":"` + g.pw(16) + `","auth":"` + rtB64Of("acme:"+g.pw(12)) + `"}}}`)
	add("yaml/k8s-dockerconfigjson",
		"type: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: "+dcj+"\n", dcj)
	dockerP := g.pw(14)
	add("cli/docker-login-p", "docker login -u acme -p "+dockerP+" registry.acme.io", dockerP)
	dockerEnv := g.pw(16)
	add("cli/docker-run-env", "docker run -d -e POSTGRES_PASSWORD="+dockerEnv+" postgres:16", dockerEnv)
	composePw := g.pw(16)
	add("yaml/compose-env", "services:\n  db:\n    image: mysql:8\n    environment:\n      MYSQL_ROOT_PASSWORD: "+composePw+"\n", composePw)
	kubectlPw := g.pw(16)
	add("cli/kubectl-from-literal",
		"kubectl create secret generic db --from-literal=username=app --from-literal=password="+kubectlPw, kubectlPw)
	helmPw := g.pw(16)
	add("yaml/helm-values", "postgresql:\n  auth:\n    postgresPassword: "+helmPw+"\n", helmPw)

	// --- Databases and connection strings -----------------------------
	pgPw := g.urlPw(16)
	add("env/postgres-url", "DATABASE_URL=postgres://app:"+pgPw+"@db.internal:5432/app?sslmode=require", pgPw)
	mongoPw := g.urlPw(16)
	add("url/mongodb-srv", "mongodb+srv://admin:"+mongoPw+"@cluster0.ab1cd.mongodb.net/?retryWrites=true&w=majority", mongoPw)
	redisPw := g.urlPw(20)
	add("url/redis-empty-user", "REDIS_URL=redis://:"+redisPw+"@cache.internal:6379/0", redisPw)
	mysqlPw := g.urlPw(16)
	add("go/mysql-dsn", `dsn := "app:`+mysqlPw+`@tcp(db:3306)/shop?parseTime=true"`, mysqlPw)
	jdbcPw := g.urlPw(16)
	add("url/jdbc", "jdbc:postgresql://db:5432/app?user=app&password="+jdbcPw+"&ssl=true", jdbcPw)
	adoPw := g.pw(16)
	add("conn/ado-net",
		"Server=tcp:acme.database.windows.net,1433;Database=app;User ID=sa;Password="+adoPw+";Encrypt=True;", adoPw)
	odbcPw := g.pw(16)
	add("conn/odbc-pwd", "Driver={ODBC Driver 18 for SQL Server};Server=db;UID=sa;PWD="+odbcPw+";", odbcPw)
	pgpass := g.pw(16)
	add("pgpass", "db.internal:5432:app:app:"+pgpass, pgpass)
	tomlPw := g.pw(16)
	add("toml/database", "[database]\nhost = \"db\"\nuser = \"app\"\npassword = \""+tomlPw+"\"\n", tomlPw)
	mycnf := g.pw(16)
	add("ini/my-cnf", "[client]\nuser=root\npassword="+mycnf+"\n", mycnf)
	springPw := g.pw(16)
	add("properties/spring", "spring.datasource.url=jdbc:mysql://db/shop\nspring.datasource.password="+springPw, springPw)
	pyPw := g.pw(16)
	add("python/kwarg", `conn = psycopg2.connect(host="db", user="app", password="`+pyPw+`")`, pyPw)
	redisReq := g.pw(20)
	add("conf/redis-requirepass", "bind 0.0.0.0\nrequirepass "+redisReq+"\n", redisReq)
	xmlPw := g.urlPw(16)
	add("xml/maven-server",
		"<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>"+xmlPw+"</password>\n</server>", xmlPw)
	appSetting := g.str(rtAlnum, 32)
	add("xml/appsettings",
		`<appSettings><add key="PaymentApiSecret" value="`+appSetting+`"/></appSettings>`, appSetting)

	// --- Command lines ------------------------------------------------
	curlPw := g.pw(14)
	add("cli/curl-u", "curl -u admin:"+curlPw+" https://jenkins.acme.io/api/json", curlPw)
	mysqlP := g.pw(14)
	add("cli/mysql-p", "mysql -h db -u root -p"+mysqlP+" shop", mysqlP)
	sshpass := g.pw(14)
	add("cli/sshpass", "sshpass -p '"+sshpass+"' ssh root@10.0.0.5", sshpass)
	ldapPw := g.pw(14)
	add("cli/ldapsearch-w", "ldapsearch -x -D 'cn=admin,dc=acme,dc=io' -w "+ldapPw+" -b dc=acme,dc=io", ldapPw)
	netUser := g.pw(14)
	add("cli/net-user", "net user svc_backup "+netUser+" /add", netUser)
	cmdkey := g.pw(14)
	add("cli/cmdkey", `cmdkey /add:fileserver /user:ACME\svc /pass:`+cmdkey, cmdkey)
	psPw := g.pw(14)
	add("ps/securestring", `$pw = ConvertTo-SecureString "`+psPw+`" -AsPlainText -Force`, psPw)
	deployPw := g.pw(14)
	add("cli/password-option", "./deploy.sh --password "+deployPw+" --env prod", deployPw)
	ansible := g.pw(14)
	add("ini/ansible-inventory", "web1 ansible_host=10.0.0.5 ansible_user=root ansible_ssh_pass="+ansible, ansible)
	netrc := g.pw(16)
	add("netrc", "machine api.acme.io login deploy password "+netrc+"\n", netrc)
	jupyter := g.str(rtHex, 48)
	add("url/jupyter-token", "http://127.0.0.1:8888/lab?token="+jupyter, jupyter)
	rclone := g.str(rtURLSafe, 40)
	add("ini/rclone-pass", "[nas]\ntype = sftp\nhost = nas.lan\nuser = me\npass = "+rclone+"\n", rclone)

	// --- App configs and .env -----------------------------------------
	skb := g.str(rtHex, 128)
	add("env/rails-secret-key-base", "SECRET_KEY_BASE="+skb, skb)
	appKey := g.str(rtB64, 43) + "="
	add("env/laravel-app-key", "APP_KEY=base64:"+appKey, appKey)
	django := "django-insecure-" + g.str(rtLowNum+"!@#$%^&*(-_=+)", 50)
	add("env/django-secret-key", "DJANGO_SECRET_KEY='"+django+"'", django)
	nextauth := g.str(rtB64, 43) + "="
	add("env/nextauth", "NEXTAUTH_URL=https://acme.io\nNEXTAUTH_SECRET="+nextauth, nextauth)
	tfPw := g.pw(16)
	add("hcl/terraform-default",
		"variable \"db_password\" {\n  type    = string\n  default = \""+tfPw+"\"\n}", tfPw)
	jsonPass := g.pw(16)
	add("json/smtp-pass", `{"smtp":{"host":"mail.acme.io","user":"noreply","pass":"`+jsonPass+`"}}`, jsonPass)
	goKey := g.str(rtAlnum, 32)
	add("go/const-apikey", `const apiKey = "`+goKey+`"`, goKey)
	otp := g.str(rtB32, 32)
	add("url/otpauth", "otpauth://totp/GitHub:octocat?secret="+otp+"&issuer=GitHub", otp)
	stripeTest := "sk_test_" + "51" + g.str(rtAlnum, 97)
	sgFence := "SG." + g.str(rtURLSafe, 22) + "." + g.str(rtURLSafe, 43)
	add("markdown/env-fence",
		"Copy this into `.env`:\n\n```env\nSTRIPE_SECRET_KEY="+stripeTest+"\nSENDGRID_API_KEY="+sgFence+"\n```\n", stripeTest, sgFence)
	gradle := g.pw(16)
	add("properties/android-signing", "storeFile=release.jks\nstorePassword="+gradle+"\nkeyAlias=release\n", gradle)

	// --- HTTP headers, cookies, URLs ----------------------------------
	bearer := g.str(rtAlnum, 40)
	add("header/bearer", "Authorization: Bearer "+bearer, bearer)
	basic := rtB64Of("admin:" + g.pw(14))
	add("header/proxy-basic", "Proxy-Authorization: Basic "+basic, basic)
	xapi := g.str(rtAlnum, 40)
	add("header/x-api-key", `fetch(url, {headers: {"x-api-key": "`+xapi+`"}})`, xapi)
	sessionid := g.str(rtLowNum, 32)
	add("cookie/django-sessionid",
		"Cookie: csrftoken="+g.str(rtAlnum, 64)+"; sessionid="+sessionid, sessionid)
	connectSid := "s%3A" + g.str(rtURLSafe, 32) + "." + g.str(rtB64, 43)
	add("cookie/express-connect-sid", "Set-Cookie: connect.sid="+connectSid+"; Path=/; HttpOnly", connectSid)

	// --- Secrets in words ---------------------------------------------
	wifi := g.pw(12)
	add("words/password-is", "the wifi password is "+wifi, wifi)
	add("words/passphrase-quoted", "my gpg passphrase is 'correct horse battery staple'", "correct horse battery staple")
	rotated := g.pw(14)
	add("words/rotated-to", "Rotated the prod DB password to "+rotated+"; vault updated.", rotated)
	colonFor := g.pw(14)
	add("words/password-for-host", "root password for db-prod: "+colonFor, colonFor)
	ja := g.pw(14)
	add("words/japanese", "本番DBのパスワードは "+ja+" です", ja)
	pwColon := g.pw(12)
	add("words/pw-abbrev", "ssh'd into the box (pw: "+pwColon+")", pwColon)
	add("words/bip39-seed",
		"wallet seed: abandon ability able about above absent absorb abstract absurd abuse access accident",
		"abandon ability able about above absent absorb abstract absurd abuse access accident")

	// --- Payment cards ------------------------------------------------
	visa := g.card("4", 16)
	add("card/visa-spaced", "card "+groups(visa, " ", 4, 4, 4, 4)+" exp 12/29 cvv 123", groups(visa, " ", 4, 4, 4, 4))
	mc := g.card("55", 16)
	add("card/mastercard-json", `{"pan":"`+mc+`","exp":"0928"}`, mc)
	amex := g.card("37", 15)
	add("card/amex-grouped", "Amex "+groups(amex, " ", 4, 6, 5), groups(amex, " ", 4, 6, 5))
	visa2 := g.card("4", 16)
	add("card/visa-dots", "paid with "+groups(visa2, ".", 4, 4, 4, 4), groups(visa2, ".", 4, 4, 4, 4))

	// --- Split, encoded and disguised ---------------------------------
	splitA, splitB := g.str(rtURLSafe, 80), g.str(rtURLSafe, 80)
	add("split/env-line-continuation",
		"export OPENAI_API_KEY=\"sk-proj-"+splitA+"\\\n"+splitB+"\"", splitA, splitB)
	ghA, ghB := g.str(rtAlnum, 18), g.str(rtAlnum, 18)
	add("split/ghp-over-lines",
		"GitHub PAT (split so the scanner misses it):\nghp_"+ghA+"\n"+ghB, ghA, ghB)
	antBody := g.str(rtURLSafe, 93)
	add("split/concatenated-in-code", `key := "sk-ant-api03-" + "`+antBody+`" + "AA"`, antBody)
	zwA, zwB := g.str(rtAlnum, 18), g.str(rtAlnum, 18)
	add("unicode/zero-width-space-ghp", "token ghp_"+zwA+"\u200b"+zwB+" for CI", zwA, zwB)
	shA, shB := g.str(rtURLSafe, 46), g.str(rtURLSafe, 47)
	add("unicode/soft-hyphen-anthropic", "sk-ant-api03-"+shA+"\u00ad"+shB+"AA", shA, shB)
	fwAkia := fullWidth("AKIA" + g.str(rtB32, 16))
	add("unicode/fullwidth-akia", "access key "+fwAkia, fwAkia)
	cyr := g.str(rtAlnum, 36)
	add("unicode/cyrillic-prefix", "gh\u0440_"+cyr, cyr) // Cyrillic er for the p
	pctBody := g.str(rtAlnum, 36)
	add("encoded/percent-in-prose", "redirect was /cb?next=%2Fsettings&k=ghp%5F"+pctBody, pctBody)
	b64Pair := rtB64Of("AKIA" + g.str(rtB32, 16) + ":" + g.str(rtB64, 40))
	add("encoded/base64-aws-pair", "echo "+b64Pair+" | base64 -d > ~/.aws/pair", b64Pair)
	b64Ghp := rtB64Of("ghp_" + g.str(rtAlnum, 36))
	add("encoded/base64-ghp", "CI_TOKEN_B64 in the runner is "+b64Ghp, b64Ghp)
	return out
}

// rtUUID returns a random version-4-shaped UUID.
func rtUUID(g *rtGen) string {
	return g.str(rtHex, 8) + "-" + g.str(rtHex, 4) + "-4" + g.str(rtHex, 3) + "-a" + g.str(rtHex, 3) + "-" + g.str(rtHex, 12)
}

// redTeamBenign are near misses: technical text without a credential.
func redTeamBenign() []rtBenign {
	g := &rtGen{s: 0xD1B54A32D192ED03}
	var out []rtBenign
	add := func(name string, keyword bool, text string) {
		out = append(out, rtBenign{name, text, keyword})
	}

	add("hash/sha256sum", false, g.str(rtHex, 64)+"  bourdon-go_1.4.0_linux_amd64.tar.gz")
	add("hash/git-sha", false, "fixed in commit "+g.str(rtHex, 40)+" (see PR #4821)")
	add("hash/short-sha", false, "bump to "+g.str(rtHex, 7)+", rebased on main")
	add("hash/docker-digest", false, "image ghcr.io/acme/api@sha256:"+g.str(rtHex, 64))
	add("hash/go-sum", false, "golang.org/x/net v0.31.0 h1:"+g.str(rtB64, 43)+"=")
	add("hash/npm-integrity", false, `"integrity": "sha512-`+g.str(rtB64, 86)+`=="`)
	add("hash/sri-sha384", false,
		`<script src="https://cdn.acme.io/app.js" integrity="sha384-`+g.str(rtB64, 64)+`" crossorigin="anonymous"></script>`)
	add("hash/git-lfs-pointer", false,
		"version https://git-lfs.github.com/spec/v1\noid sha256:"+g.str(rtHex, 64)+"\nsize 1048576\n")
	add("hash/container-id", false, "docker logs "+g.str(rtHex, 64))
	add("id/uuid", false, "request id "+rtUUID(g)+" failed with 503")
	add("id/trace", false, "traceparent: 00-"+g.str(rtHex, 32)+"-"+g.str(rtHex, 16)+"-01")
	add("id/order", false, "Order ORD-2024-000184467 shipped on 2024-06-01T12:34:56Z")
	add("id/epoch-ms", false, "last seen 1717245296123 (epoch ms), next run at 1717248896")
	add("id/k8s-pod", false, "restarted pod api-7d9f8b6c5d-x2k9p in namespace prod")
	add("id/aws-arn", false, "assumed arn:aws:iam::123456789012:role/deploy in eu-west-1")
	add("id/slack-ids", false, "posted in C0123ABCD by U024BE7LH at 1717245296.000200")
	add("id/ipfs-cid", false, "pinned bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi")
	add("id/isbn", false, "ISBN 978-0-306-40615-7, 2nd edition")
	add("net/ip-mac", false, "gateway 192.168.1.254, mac 3c:22:fb:9a:10:4e, port 8443")
	add("version/semver", false, "upgraded go from 1.25.4 to 1.26.0; node v22.11.0; postgres 16.3")
	add("version/build-meta", false, "bourdon-go v0.14.2-rc.1+build.20240601."+g.str(rtHex, 7))
	add("version/pseudo", false, "github.com/acme/lib v0.0.0-20240601123456-"+g.str(rtHex, 12))
	add("url/ssh-user-only", false, "git clone ssh://git@github.com/acme/api.git && cd api")
	add("url/localhost", false, "open http://localhost:8080/debug/pprof/?seconds=30")
	add("number/not-luhn", false, "invoice "+notLuhn(g, "4", 16)+" is due on 2024-07-01")
	add("number/tracking", false, "FedEx tracking 7712 3456 7890 1234, ETA 3 days")
	add("number/dates", false, "sprint 2024-06-01..2024-06-14, build 20240601.3, 12/29 planned")
	add("pubkey/ssh-ed25519", false, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"+g.str(rtB64, 43)+" me@laptop")
	add("pubkey/ssh-rsa", false, "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ"+g.str(rtB64, 520)+" ci@build")
	add("base64/plain-text", false, "payload: "+rtB64Of("Hello, World! This is a test of the event bus."))
	add("base64/mime-attachment", false,
		"Content-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo"+g.str(rtB64, 65)+"\n"+
			g.str(rtB64, 76)+"\n"+g.str(rtB64, 76)+"\n"+g.str(rtB64, 30)+"==\n")
	add("css/colors", false, "color: #1a2b3c; background: #FAFBFC; font-family: 'Inter'")
	add("code/commit-subject", true, "Fix SecretStore NPE when TokenCache is empty")

	// Names a credential in words or with a placeholder: Span must keep it.
	add("placeholder/bearer-env", true, `curl -H "Authorization: Bearer $TOKEN" https://api.acme.io/v1/me`)
	add("placeholder/gha-secret", true, "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}")
	add("placeholder/angle", true, "export OPENAI_API_KEY=<your-api-key>")
	add("placeholder/your-api-key", true, "api_key: YOUR_API_KEY")
	add("placeholder/stars", true, "password: ********")
	add("placeholder/null", true, `{"api_key": null, "token": ""}`)
	add("placeholder/helm-template", true, "password: {{ .Values.db.password }}")
	add("placeholder/terraform-var", true, "password = var.db_password")
	add("code/get-token", true, "token = getToken()")
	add("docs/password-policy", true, "Passwords must be at least 12 characters and are hashed with argon2id.")
	add("docs/etc-passwd", true, "cat /etc/passwd | cut -d: -f1")
	add("docs/token-valid", true, "the token is valid for 3600 seconds")
	add("docs/password-file", true, "postgres --password-file /run/secrets/db_password")
	add("docs/passwordless", true, "passwordless login via WebAuthn is on for staff")
	add("docs/key-prefixes", true, "publishable keys start with pk_live_ and secret keys with sk_live_")
	add("docs/rotate", true, "Rotate the AWS secret access key every 90 days.")
	add("k8s/secret-key-ref", true, "valueFrom:\n  secretKeyRef:\n    name: db\n    key: password")
	return out
}

// notLuhn returns a number of n digits starting with prefix whose check
// digit is wrong.
func notLuhn(g *rtGen, prefix string, n int) string {
	c := g.card(prefix, n)
	last := (int(c[n-1]-'0') + 1) % 10
	return c[:n-1] + string(rune('0'+last))
}

// secretProblems says what is wrong with how s is redacted, if anything.
func secretProblems(s rtSecret) []string {
	var p []string
	if !Flagged(s.text) {
		p = append(p, "not flagged as a field")
	}
	span := Span(s.text)
	for i, part := range s.parts {
		if strings.Contains(span, part) {
			p = append(p, fmt.Sprintf("secret part %d survives Span", i))
		}
	}
	return p
}

// benignProblems says what is wrong with how b is redacted, if anything.
func benignProblems(b rtBenign) []string {
	var p []string
	if got := Span(b.text); got != b.text {
		p = append(p, fmt.Sprintf("Span changed it to %q", got))
	}
	if !b.keyword && Flagged(b.text) {
		p = append(p, "flagged as a field")
	}
	return p
}

func TestRedTeamProbe(t *testing.T) {
	secrets, benign := redTeamSecrets(), redTeamBenign()
	if len(secrets) < 80 || len(benign) < 30 {
		t.Fatalf("%d secret and %d benign samples, want at least 80 and 30", len(secrets), len(benign))
	}
	judgeProbe(t, "probe 1", secrets, benign, knownMisses, knownFalsePositives, nil)
}

// judgeProbe judges a red-team probe's samples (secretProblems,
// benignProblems): it fails on a sample that leaks or is changed and is
// not in known (misses) or knownFP, on a listed sample that passes now,
// on a listed name that names no sample, on a secret part missing from
// its text and on a name used twice or found in taken (another probe's).
// It logs the counts.
func judgeProbe(t *testing.T, label string, secrets []rtSecret, benign []rtBenign, known, knownFP map[string]string, taken map[string]bool) {
	t.Helper()
	seen := map[string]bool{}
	name := func(n string) {
		if seen[n] {
			t.Errorf("duplicate sample name %q", n)
		}
		if taken[n] {
			t.Errorf("sample name %q is another probe's", n)
		}
		seen[n] = true
	}
	leaks, falsePositives := 0, 0
	for _, s := range secrets {
		name(s.name)
		if len(s.parts) == 0 {
			t.Errorf("%s: no secret part", s.name)
		}
		for i, part := range s.parts {
			if part == "" || !strings.Contains(s.text, part) {
				t.Errorf("%s: secret part %d is not in its text", s.name, i)
			}
		}
		problems := secretProblems(s)
		why, listed := known[s.name]
		switch {
		case len(problems) > 0 && !listed:
			leaks++
			t.Errorf("LEAK %s: %s\n  text: %q\n  span: %q", s.name, strings.Join(problems, "; "), s.text, Span(s.text))
		case len(problems) == 0 && listed:
			t.Errorf("%s is caught now: remove it from the known misses (%s)", s.name, why)
		case listed:
			t.Logf("known miss %s: %s (%s)", s.name, strings.Join(problems, "; "), why)
		}
	}
	for _, b := range benign {
		name(b.name)
		problems := benignProblems(b)
		why, listed := knownFP[b.name]
		switch {
		case len(problems) > 0 && !listed:
			falsePositives++
			t.Errorf("FALSE POSITIVE %s: %s\n  text: %q", b.name, strings.Join(problems, "; "), b.text)
		case len(problems) == 0 && listed:
			t.Errorf("%s is left alone now: remove it from the known false positives (%s)", b.name, why)
		case listed:
			t.Logf("known false positive %s: %s (%s)", b.name, strings.Join(problems, "; "), why)
		}
	}
	for _, list := range []map[string]string{known, knownFP} {
		for n := range list {
			if !seen[n] {
				t.Errorf("a known list names no sample: %q", n)
			}
		}
	}
	t.Logf("%s: %d secret samples (%d leak, %d known misses), %d benign samples (%d changed or flagged, %d known false positives)",
		label, len(secrets), leaks, len(known), len(benign), falsePositives, len(knownFP))
}
