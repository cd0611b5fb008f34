package redact

// A second, independent red-team probe of the redaction battery.
//
// Written 2026-12-07, as an exam, by a hand that had not read the matchers:
// the samples come from docs/security.md ("Redaction", its Limits
// paragraph) and docs/compatibility.md ("The battery") only, and from what
// an attacker or a careless agent would plant in agent memory or chat
// notes: shell history, .env files, docker-compose, Kubernetes manifests,
// CI YAML, Terraform, JSON and TOML configs, source code in several
// languages, SQL, log lines, stack traces, URLs, chat messages, markdown
// tables and code fences; passwords in words in English and other
// languages; connection strings of several databases and brokers; encoded,
// split and disguised tokens; private keys in several formats; and near
// misses. None of the first probe's samples (redteam_test.go) is repeated.
//
// As in the first probe, every fake credential is built at run time from a
// fixed pseudo-random generator (rtGen) and string concatenation: no token
// literal is committed, and no real-looking secret appears in this source.
//
// The judging is the first probe's: secretProblems (Flagged must be true
// and no secret part may survive Span) and benignProblems (Span must give
// the text back unchanged, and Flagged must be false unless the sample
// names a credential in words). knownMisses2 and knownFalsePositives2
// started empty: measured blind, 62 of the 157 secret samples leaked and 7
// of the 81 benign ones were changed or flagged. The battery then learnt
// the shapes that generalise (see docs/security.md); what it still gets
// wrong is listed below with why, and the test fails on anything else.

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
)

// knownMisses2 are secret samples of this probe the battery lets through
// today, by name, with why (written from the matchers, after the exam).
var knownMisses2 = map[string]string{
	// A secret's name and value apart, or a name this battery does not read.
	"hcl/tfstate-random-password": `the value's key is "result"; "random_password" is the resource's type, two keys away`,
	"chat/pass-label-unquoted":    "PASS: unquoted is read as a label (PASS: 12 tests), as documented",
	"chat/token-in-two-messages":  "the two halves are in two chat lines with text between them",
	"encoded/gzip-base64":         "base64 of gzip: compressed data is not decompressed",
}

// knownFalsePositives2 are benign samples of this probe the battery
// changes or flags today, by name, with why.
var knownFalsePositives2 = map[string]string{
	"placeholder/aws-docs-example": "AWS's documented example key id matches the reference's aws_access_key pattern, kept byte for byte",
}

// Alphabets the first probe has no constant for.
const (
	rt2Base58  = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	rt2B32Low  = "abcdefghijklmnopqrstuvwxyz234567"
	rt2Crock   = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	rt2NixB32  = "0123456789abcdfghijklmnpqrsvwxyz"
	rt2NonZero = "123456789"
)

// rt2SeedWords are words of the BIP-0039 English list (not the twelve the
// first probe strings together).
var rt2SeedWords = strings.Fields(`account accuse achieve acid acoustic acquire
across act action actor actress actual adapt add addict address adjust admit
adult advance advice aerobic affair afford afraid again age agent agree ahead
aim air airport aisle alarm album alcohol alert alien all alley allow almost
alone alpha already also alter always amateur amazing among amount amused
analyst anchor ancient anger angle angry animal ankle announce annual another
answer antenna antique anxiety any apart apology appear apple approve april
arch arctic area arena argue arm armed armor army around arrange arrest arrive
arrow art artefact artist artwork ask aspect assault asset assist assume
asthma athlete atom attack attend attitude attract auction audit august aunt
author auto autumn average avocado avoid awake aware away awesome awful
awkward axis`)

// rt2Seed returns n different words of rt2SeedWords, in a random order.
func rt2Seed(g *rtGen, n int) []string {
	used := map[string]bool{}
	var out []string
	for len(out) < n {
		w := rt2SeedWords[g.next()%uint64(len(rt2SeedWords))]
		if !used[w] {
			used[w] = true
			out = append(out, w)
		}
	}
	return out
}

func rt2Hex(s string) string { return hex.EncodeToString([]byte(s)) }

func rt2Reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// rt2Interleave puts sep between every two characters of s.
func rt2Interleave(s, sep string) string { return strings.Join(strings.Split(s, ""), sep) }

func rt2Rot13(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return string(b)
}

// rt2Gzip64 is base64 of s compressed with gzip (a fixed header: no time).
func rt2Gzip64(s string) string {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write([]byte(s))
	w.Close()
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// rt2UTF16B64 is base64 of s in UTF-16LE, as PowerShell's -EncodedCommand
// takes it.
func rt2UTF16B64(s string) string {
	u := utf16.Encode([]rune(s))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		binary.LittleEndian.PutUint16(b[2*i:], c)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// rt2Tags spells s in Unicode tag characters (U+E0000 + ASCII), which
// show nothing.
func rt2Tags(s string) string {
	var b strings.Builder
	for _, c := range s {
		b.WriteRune(0xE0000 + c)
	}
	return b.String()
}

// rt2MathBold spells the ASCII letters and digits of s in mathematical
// bold (U+1D400...).
func rt2MathBold(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case c >= 'A' && c <= 'Z':
			c = 0x1D400 + c - 'A'
		case c >= 'a' && c <= 'z':
			c = 0x1D41A + c - 'a'
		case c >= '0' && c <= '9':
			c = 0x1D7CE + c - '0'
		}
		b.WriteRune(c)
	}
	return b.String()
}

// rt2Wrap cuts s into lines of n characters.
func rt2Wrap(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

// rt2ByteArray is a JSON array of n random bytes (a Solana keypair file).
func rt2ByteArray(g *rtGen, n int) string {
	nums := make([]string, n)
	for i := range nums {
		nums[i] = fmt.Sprint(g.next() % 256)
	}
	return "[" + strings.Join(nums, ",") + "]"
}

// redTeam2Secrets are the secret-bearing samples of the second probe.
func redTeam2Secrets() []rtSecret {
	g := &rtGen{s: 0xA0761D6478BD642F}
	var out []rtSecret
	add := func(name, text string, parts ...string) {
		out = append(out, rtSecret{name, text, parts})
	}
	ghpOf := func() string { return "ghp_" + g.str(rtAlnum, 36) }
	projOf := func() string {
		return "sk-proj-" + g.str(rtURLSafe, 74) + "T3Blbk" + "FJ" + g.str(rtURLSafe, 74)
	}
	liveOf := func() string { return "sk_live_" + "51" + g.str(rtAlnum, 97) }

	// --- Shell history --------------------------------------------------
	ant := "sk-ant-" + "api03-" + g.str(rtURLSafe, 93) + "AA"
	add("history/zsh-extended-anthropic",
		": 1717245296:0;export ANTHROPIC_API_KEY="+ant+"\n: 1717245301:0;python eval.py --model claude", ant)
	ghp := ghpOf()
	add("history/bash-numbered-auth-token",
		"  511  cd ~/src/api\n  512  curl -sH \"Authorization: token "+ghp+"\" https://api.github.com/user/repos | jq length", ghp)
	pgPw := g.pw(16)
	add("history/pgpassword-prefix", "PGPASSWORD='"+pgPw+"' psql -h db.internal -U app -c 'select 1'", pgPw)
	htPw := g.pw(14)
	add("history/htpasswd-batch", "htpasswd -b -c /etc/nginx/.htpasswd admin "+htPw, htPw)
	ossl := g.urlPw(14)
	add("history/openssl-passout",
		"openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:"+ossl, ossl)
	sqlcmd := g.pw(14)
	add("history/sqlcmd-P", "sqlcmd -S tcp:db,1433 -U sa -P '"+sqlcmd+"' -Q 'SELECT @@VERSION'", sqlcmd)
	mongo := g.urlPw(14)
	add("history/mongosh-p", `mongosh "mongodb://db:27017/admin" -u root -p `+mongo+` --eval 'db.stats()'`, mongo)
	rabbit := g.urlPw(14)
	add("history/rabbitmqctl-add-user",
		"sudo rabbitmqctl add_user billing "+rabbit+" && sudo rabbitmqctl set_user_tags billing administrator", rabbit)

	// --- .env files -----------------------------------------------------
	ghp2 := ghpOf()
	add("env/gh-token-quoted", "# .env.local (do not commit)\nGH_TOKEN=\""+ghp2+"\"\nGH_REPO=acme/api\n", ghp2)
	slackSig := g.str(rtHex, 32)
	add("env/slack-signing-secret", "SLACK_SIGNING_SECRET="+slackSig+"\nSLACK_APP_ID=A0"+g.str(rtUpNum, 9), slackSig)
	jwtSecret := g.str(rtURLSafe, 48)
	add("env/export-jwt-secret", "export JWT_SECRET='"+jwtSecret+"'", jwtSecret)
	smtpPass := g.pw(16)
	add("env/smtp-pass-inline-comment",
		"SMTP_HOST=smtp.mailgun.org\nSMTP_USER=postmaster@mg.acme.io\nSMTP_PASS="+smtpPass+" # rotated 2024-06\n", smtpPass)
	adoPat := g.str(rt2B32Low, 52)
	add("env/azure-devops-pat",
		"AZURE_DEVOPS_EXT_PAT="+adoPat+"\naz devops project list --org https://dev.azure.com/acme", adoPat)

	// --- docker-compose -------------------------------------------------
	redisPw := g.urlPw(20)
	add("compose/redis-requirepass-command",
		"services:\n  cache:\n    image: redis:7\n    command: redis-server --appendonly yes --requirepass "+redisPw+"\n", redisPw)
	rabbitPass := g.pw(16)
	add("compose/env-list-form",
		"    environment:\n      - RABBITMQ_DEFAULT_USER=app\n      - RABBITMQ_DEFAULT_PASS="+rabbitPass+"\n", rabbitPass)
	hc := g.urlPw(14)
	add("compose/healthcheck-mysqladmin",
		"    healthcheck:\n      test: [\"CMD\", \"mysqladmin\", \"ping\", \"-h\", \"localhost\", \"-uroot\", \"-p"+hc+"\"]", hc)

	// --- Kubernetes -----------------------------------------------------
	cfgPw := g.pw(16)
	add("k8s/stringdata-embedded-config",
		"kind: Secret\nstringData:\n  config.yaml: |\n    db:\n      user: app\n      password: "+cfgPw+"\n", cfgPw)
	envPw := g.pw(16)
	add("k8s/env-name-value-pair",
		"        env:\n        - name: DB_PASSWORD\n          value: \""+envPw+"\"\n        - name: DB_HOST\n          value: db\n", envPw)
	amqpPw := g.urlPw(16)
	add("k8s/configmap-amqp-url",
		"kind: ConfigMap\ndata:\n  BROKER_URL: amqp://worker:"+amqpPw+"@rabbitmq.prod.svc:5672/jobs\n", amqpPw)
	regPw := g.pw(16)
	add("k8s/docker-registry-cli",
		"kubectl create secret docker-registry regcred --docker-server=ghcr.io --docker-username=bot --docker-password="+regPw+" -n ci", regPw)
	sshKey := rtB64Of("-----BEGIN OPENSSH PRIVATE KEY-----\n" +
		strings.Join(g.pemLines("b3BlbnNzaC1rZXktdjEAAAAA", 5, 70), "\n") + "\n-----END OPENSSH PRIVATE KEY-----\n")
	add("k8s/ssh-privatekey-base64",
		"apiVersion: v1\nkind: Secret\ntype: kubernetes.io/ssh-auth\ndata:\n  ssh-privatekey: "+sshKey+"\n", sshKey)

	// --- CI -------------------------------------------------------------
	npm := "npm_" + g.str(rtAlnum, 36)
	add("ci/gha-env-npm-token",
		"jobs:\n  publish:\n    runs-on: ubuntu-latest\n    env:\n      NODE_AUTH_TOKEN: "+npm+"\n    steps:\n      - run: npm publish\n", npm)
	sonar := "squ_" + g.str(rtHex, 40)
	add("ci/gitlab-variables-sonar",
		"variables:\n  SONAR_HOST_URL: https://sonar.acme.io\n  SONAR_TOKEN: \""+sonar+"\"\n", sonar)
	glpat := "glpat-" + g.str(rtURLSafe, 20)
	add("ci/jenkinsfile-groovy",
		"pipeline {\n  environment {\n    GL = '"+glpat+"'\n  }\n  stages { stage('tag') { steps { sh 'git push --tags' } } }\n}", glpat)
	dckr := "dckr_pat_" + g.str(rtURLSafe, 27)
	add("ci/circleci-docker-auth",
		"    docker:\n      - image: acme/build:2024.06\n        auth:\n          username: acmebot\n          password: "+dckr+"\n", dckr)

	// --- Terraform / HCL ------------------------------------------------
	akia := "AKIA" + g.str(rtB32, 16)
	tfSecret := g.str(rtB64, 40)
	add("hcl/provider-aws-static",
		"provider \"aws\" {\n  region     = \"eu-west-1\"\n  access_key = \""+akia+"\"\n  secret_key = \""+tfSecret+"\"\n}", akia, tfSecret)
	tfvars := g.pw(18)
	add("hcl/tfvars", "# terraform.tfvars\nenvironment         = \"prod\"\nrds_master_password = \""+tfvars+"\"\n", tfvars)
	ghp3 := ghpOf()
	add("hcl/provider-github-token", "provider \"github\" {\n  owner = \"acme\"\n  token = \""+ghp3+"\"\n}", ghp3)
	tfstate := g.pw(24)
	add("hcl/tfstate-random-password",
		`{"mode":"managed","type":"random_password","name":"db","instances":[{"attributes":{"length":24,"special":true,"result":"`+tfstate+`"}}]}`, tfstate)

	// --- JSON configs ---------------------------------------------------
	ghp4 := ghpOf()
	add("json/mcp-server-env",
		`{"mcpServers":{"github":{"command":"docker","args":["run","-i","--rm","ghcr.io/github/github-mcp-server"],"env":{"GITHUB_PERSONAL_ACCESS_TOKEN":"`+ghp4+`"}}}}`, ghp4)
	cs := g.str(rtURLSafe, 34)
	add("json/camel-client-secret", `{"auth":{"clientId":"`+rtUUID(g)+`","clientSecret":"`+cs+`","tenant":"acme"}}`, cs)
	passwd := g.pw(16)
	add("json/passwd-field", `[{"host":"10.0.4.12","login":"root","passwd":"`+passwd+`"}]`, passwd)
	escKey := g.str(rtAlnum, 40)
	add("json/escaped-nested-json",
		`{"event":"webhook.saved","body":"{\"url\":\"https://hooks.acme.io\",\"api_key\":\"`+escKey+`\"}"}`, escKey)
	adcSecret := g.str(rtURLSafe, 24)
	refresh := "1//0" + g.str(rtURLSafe, 99)
	add("json/gcloud-adc",
		`{"client_id":"`+g.str(rtDigits, 12)+"-"+g.str(rtLowNum, 32)+`.apps.googleusercontent.com","client_secret":"`+adcSecret+
			`","refresh_token":"`+refresh+`","type":"authorized_user"}`, adcSecret, refresh)
	stsSecret := g.str(rtB64, 40)
	stsToken := "FwoGZXIvYXdzE" + g.str(rtB64, 300)
	add("json/sts-assume-role",
		"{\n    \"Credentials\": {\n        \"AccessKeyId\": \"ASIA"+g.str(rtB32, 16)+"\",\n        \"SecretAccessKey\": \""+stsSecret+
			"\",\n        \"SessionToken\": \""+stsToken+"\",\n        \"Expiration\": \"2024-06-01T13:00:00Z\"\n    }\n}", stsSecret, stsToken)
	ecsSecret := g.str(rtB64, 40)
	add("json/ecs-name-value",
		`"environment": [{"name": "AWS_REGION", "value": "eu-west-1"}, {"name": "AWS_SECRET_ACCESS_KEY", "value": "`+ecsSecret+`"}]`, ecsSecret)

	// --- TOML -----------------------------------------------------------
	cio := "cio" + g.str(rtAlnum, 32)
	add("toml/cargo-credentials", "# ~/.cargo/credentials.toml\n[registry]\ntoken = \""+cio+"\"\n", cio)
	poetryPw := g.urlPw(16)
	add("toml/poetry-source-url",
		"[[tool.poetry.source]]\nname = \"private\"\nurl = \"https://deploy:"+poetryPw+"@pypi.acme.io/simple/\"\npriority = \"supplemental\"\n", poetryPw)

	// --- Source code ----------------------------------------------------
	skLive := liveOf()
	add("python/environ-default", `key = os.environ.get("STRIPE_KEY", "`+skLive+`")`, skLive)
	reqPw := g.pw(16)
	add("python/requests-auth-tuple",
		`r = requests.get("https://jenkins.acme.io/api/json", auth=("admin", "`+reqPw+`"), timeout=10)`, reqPw)
	proj := projOf()
	add("js/openai-constructor", "const openai = new OpenAI({\n  apiKey: \""+proj+"\",\n  organization: \"org-acme\",\n});", proj)
	goPw := g.pw(16)
	add("go/struct-literal",
		`db, err := store.Open(store.Config{Host: "db", User: "app", Password: "`+goPw+`", SSL: true})`, goPw)
	rustPw := g.pw(16)
	add("rust/const-typed", `const DB_PASSWORD: &str = "`+rustPw+`";`, rustPw)
	jksPw := g.pw(14)
	add("java/set-property", `System.setProperty("javax.net.ssl.keyStorePassword", "`+jksPw+`");`, jksPw)
	wpPw := g.pw(16)
	add("php/wp-config-define",
		"define( 'DB_NAME', 'wordpress' );\ndefine( 'DB_USER', 'wp' );\ndefine( 'DB_PASSWORD', '"+wpPw+"' );", wpPw)
	rbLive := liveOf()
	add("ruby/stripe-initializer",
		"# config/initializers/stripe.rb\nStripe.api_key = ENV.fetch('STRIPE_SECRET_KEY') { '"+rbLive+"' }", rbLive)

	// --- SQL ------------------------------------------------------------
	sqlPw := g.pw(16)
	add("sql/create-user-with-password",
		"CREATE USER reporting WITH LOGIN PASSWORD '"+sqlPw+"' VALID UNTIL '2025-01-01';", sqlPw)
	myPw := g.pw(16)
	add("sql/mysql-identified-by",
		"CREATE USER 'app'@'%' IDENTIFIED BY '"+myPw+"';\nGRANT ALL ON shop.* TO 'app'@'%';", myPw)
	shpss := "shpss_" + g.str(rtHex, 32)
	add("sql/insert-integration-row",
		"INSERT INTO integrations (shop, kind, credential) VALUES ('acme', 'shopify', '"+shpss+"');", shpss)

	// --- Log lines ------------------------------------------------------
	logJWT := g.jwt(`{"sub":"svc-billing","scope":"admin","exp":1717248896}`)
	add("log/json-outgoing-headers",
		`{"level":"debug","ts":"2024-06-01T12:00:00Z","msg":"outgoing request","url":"https://api.acme.io/v1/charges","headers":{"Authorization":["Bearer `+
			logJWT+`"],"Accept":["application/json"]}}`, logJWT)
	qKey := g.str(rtAlnum, 32)
	add("log/nginx-query-api-key",
		`10.0.3.7 - - [01/Jun/2024:12:00:00 +0000] "GET /v2/export.csv?from=2024-05-01&api_key=`+qKey+` HTTP/1.1" 200 18234 "-" "curl/8.5.0"`, qKey)
	reprPw := g.pw(16)
	add("log/python-dict-repr",
		"DEBUG:app.db:connect kwargs={'host': 'db', 'port': 5432, 'user': 'app', 'password': '"+reprPw+"'}", reprPw)
	dumpSecret := g.str(rtB64, 40)
	add("log/env-dump",
		"2024-06-01T12:00:01Z worker[42]: env=[PATH=/usr/bin HOME=/root AWS_SECRET_ACCESS_KEY="+dumpSecret+" LANG=C.UTF-8]", dumpSecret)

	// --- Stack traces ---------------------------------------------------
	tbPw := g.urlPw(16)
	add("trace/python-traceback",
		"Traceback (most recent call last):\n  File \"/app/jobs/sync.py\", line 41, in main\n    engine = create_engine(\"postgresql+psycopg2://etl:"+
			tbPw+"@warehouse:5432/dw\")\nsqlalchemy.exc.OperationalError: could not connect to server", tbPw)
	springPw := g.urlPw(16)
	add("trace/spring-bean-creation",
		"org.springframework.beans.factory.BeanCreationException: Error creating bean 'dataSource': Failed to connect to jdbc:mysql://root:"+
			springPw+"@db:3306/shop?useSSL=false\n\tat org.springframework.beans.factory.support.AbstractAutowireCapableBeanFactory.doCreateBean(AbstractAutowireCapableBeanFactory.java:628)", springPw)
	goDump := g.urlPw(16)
	add("trace/go-struct-dump",
		"panic: connect: dial tcp 10.0.0.9:5432: i/o timeout (cfg=&{Host:db Port:5432 User:app Password:"+goDump+
			" SSLMode:require})\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/main.go:42 +0x1d", goDump)

	// --- URLs -----------------------------------------------------------
	oc := g.str(rtURLSafe, 40)
	add("url/oauth-client-secret-query",
		"POST https://login.acme.io/oauth2/token?grant_type=client_credentials&client_id=reporting&client_secret="+oc+"&scope=read", oc)
	frag := g.str(rtURLSafe, 43)
	add("url/fragment-access-token",
		"redirected to https://app.acme.io/callback#access_token="+frag+"&token_type=Bearer&expires_in=3600", frag)
	ftpPw := g.urlPw(14)
	add("url/ftp-credentials", "lftp -e 'mirror -R dist/ /www' ftp://webmaster:"+ftpPw+"@ftp.acme-hosting.com", ftpPw)
	funcCode := g.str(rtURLSafe, 54) + "=="
	add("url/azure-function-code", "https://acme-jobs.azurewebsites.net/api/ProcessOrder?code="+funcCode, funcCode)
	redirPw := g.urlPw(14)
	add("url/percent-encoded-redirect-creds",
		"https://sso.acme.io/login?next=https%3A%2F%2Fadmin%3A"+redirPw+"%40grafana.internal%2Fd%2Fops", redirPw)

	// --- Chat messages --------------------------------------------------
	xapp := "xapp-1-A" + g.str(rtUpNum, 10) + "-" + g.str(rtDigits, 13) + "-" + g.str(rtHex, 64)
	add("chat/slack-app-token", "socket mode needs the app-level one, here: "+xapp, xapp)
	passLabel := g.urlPw(12)
	add("chat/pass-label-unquoted", "grafana prod -> user: admin / PASS: "+passLabel, passLabel)
	pwd := g.urlPw(12)
	add("chat/pwd-in-parens", "jumpbox is up (user ops, pwd "+pwd+"), please don't share", pwd)
	ya29 := "ya29." + g.str(rtURLSafe, 150)
	add("chat/google-oauth-access", "gcloud auth print-access-token gave "+ya29+", valid for an hour", ya29)
	mc := g.str(rtHex, 32) + "-us" + g.str(rt2NonZero, 1) + g.str(rtDigits, 1)
	add("chat/mailchimp-key", "newsletter sync uses "+mc+" (audience 'customers')", mc)
	halfA, halfB := g.str(rtAlnum, 18), g.str(rtAlnum, 18)
	add("chat/token-in-two-messages",
		"[10:02] dev: first half ghp_"+halfA+"\n[10:02] dev: second half "+halfB+" - paste them together", halfA, halfB)

	// --- Markdown tables and code fences -------------------------------
	tblPw1, tblPw2 := g.pw(14), g.pw(14)
	add("table/password-column",
		"| service | user | password |\n|---------|------|----------|\n| grafana | admin | "+tblPw1+" |\n| minio | root | "+tblPw2+" |", tblPw1, tblPw2)
	dapi := "dapi" + g.str(rtHex, 32)
	add("table/backticked-vendor", "| workspace | token |\n|---|---|\n| prod | `"+dapi+"` |", dapi)
	npmAuth := rtB64Of("ci-bot:" + g.urlPw(16))
	add("fence/npmrc-auth-base64",
		"```ini\n; .npmrc\nregistry=https://npm.acme.io/\n//npm.acme.io/:_auth="+npmAuth+"\nalways-auth=true\n```", npmAuth)
	proj2 := projOf()
	add("fence/python-module-assign", "```python\nimport openai\nopenai.api_key = \""+proj2+"\"\n```", proj2)

	// --- Passwords in words ---------------------------------------------
	credsPw := g.pw(14)
	add("words/creds-are-slash", "creds are admin / "+credsPw+" for the staging console", credsPw)
	clientSec := g.str(rtAlnum, 20)
	add("words/client-secret-is-quoted", `the client secret is "`+clientSec+`", the id is reporting-app`, clientSec)
	weak := "hunter" + g.str(rtDigits, 2)
	add("words/password-is-word-digits", "fyi the router password is "+weak, weak)
	de := g.pw(14)
	add("words/german-lautet", "Das Kennwort für den Router lautet "+de+", bitte nicht weitergeben.", de)
	fr := g.pw(14)
	add("words/french-guillemets", "Le mot de passe du wifi est « "+fr+" ».", fr)
	es := g.pw(14)
	add("words/spanish-words-between", "la contraseña del servidor de pruebas es "+es, es)
	pt := g.pw(14)
	add("words/portuguese-senha-colon", "acesso ao painel: usuário admin, senha: "+pt, pt)
	it := g.pw(14)
	add("words/italian", "la password del database è "+it, it)
	ru := g.pw(14)
	add("words/russian-from-mail", "пароль от почты: "+ru, ru)
	zh := g.pw(14)
	add("words/chinese-fullwidth-colon", "测试环境数据库密码："+zh, zh)
	ko := g.pw(14)
	add("words/korean", "관리자 비밀번호는 "+ko+" 입니다", ko)
	ar := g.pw(14)
	add("words/arabic", "كلمة المرور هي "+ar, ar)
	hi := g.pw(14)
	add("words/hindi", "सर्वर का पासवर्ड है "+hi, hi)
	tr := g.pw(14)
	add("words/turkish", "sunucu şifresi: "+tr, tr)
	vi := g.pw(14)
	add("words/vietnamese", "mật khẩu wifi là "+vi, vi)
	el := g.pw(14)
	add("words/greek", "ο κωδικός πρόσβασης είναι "+el, el)
	pl := g.pw(14)
	add("words/polish-haslo-do-to", "hasło do serwera to "+pl, pl)

	// --- Connection strings ---------------------------------------------
	mssql := g.urlPw(16)
	add("conn/sqlserver-url", "sqlserver://sa:"+mssql+"@db.internal:1433?database=shop&encrypt=true", mssql)
	ora := g.urlPw(14)
	add("conn/oracle-sqlplus", "sqlplus system/"+ora+"@//db.internal:1521/XEPDB1 @migrate.sql", ora)
	jaas := g.pw(16)
	add("conn/kafka-jaas",
		"sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"svc-orders\" password=\""+jaas+"\";", jaas)
	nats := g.urlPw(16)
	add("conn/nats-url", "nats sub -s nats://orders:"+nats+"@nats.prod:4222 'orders.>'", nats)
	ch := g.urlPw(16)
	add("conn/clickhouse-query-password", "curl 'http://clickhouse:8123/?user=default&password="+ch+"&query=SELECT%201'", ch)
	libpq := g.pw(16)
	add("conn/libpq-keywords", `conninfo := "host=db port=5432 user=app password=`+libpq+` dbname=app sslmode=require"`, libpq)
	rediss := g.urlPw(24)
	add("conn/rediss-default-user", "rediss://default:"+rediss+"@redis-12345.c1.eu-west-1-2.ec2.cloud.redislabs.com:12345", rediss)
	amqps := g.urlPw(16)
	add("conn/amqps-vhost", "CELERY_BROKER_URL=amqps://celery:"+amqps+"@b-1234.mq.eu-west-1.amazonaws.com:5671/%2Fprod", amqps)

	// --- Vendors the first probe left out ------------------------------
	fly := "fo1_" + g.str(rtURLSafe, 43)
	add("vendor/fly-io", "deploying from the laptop with "+fly, fly)
	pscale := "pscale_tkn_" + g.str(rtURLSafe, 43)
	add("vendor/planetscale", "pscale service creds "+pscale+" (branch main)", pscale)
	sq := "sq0csp-" + g.str(rtURLSafe, 43)
	add("vendor/square-oauth", "square app oauth -> "+sq, sq)
	jfrog := "AKCp" + g.str(rtAlnum, 69)
	add("vendor/jfrog", "artifactory creds for the mirror: "+jfrog, jfrog)
	figma := "figd_" + g.str(rtURLSafe, 40)
	add("vendor/figma", "figma export script uses "+figma, figma)
	sbp := "sbp_" + g.str(rtHex, 40)
	add("vendor/supabase-management", "supabase mgmt api via "+sbp, sbp)
	heroku := "HRKU-AA" + g.str(rtURLSafe, 58)
	add("vendor/heroku", "heroku api: "+heroku, heroku)
	shippo := "shippo_live_" + g.str(rtHex, 40)
	add("vendor/shippo", "labels are bought with "+shippo, shippo)
	gems := "rubygems_" + g.str(rtHex, 48)
	add("vendor/rubygems", "gem push pkg/acme-1.2.0.gem worked with "+gems, gems)
	glrt := "glrt-" + g.str(rtURLSafe, 20)
	add("vendor/gitlab-runner", "gitlab-runner register --non-interactive --url https://gitlab.acme.io --registration "+glrt, glrt)
	hvb := "hvb." + "AAAAAQ" + g.str(rtURLSafe, 132)
	add("vendor/vault-batch", "batch creds for the CI role: "+hvb, hvb)
	dppt := "dp.pt." + g.str(rtAlnum, 43)
	add("vendor/doppler-personal", "doppler setup worked with "+dppt, dppt)
	cfCA := "v1.0-" + g.str(rtHex, 24) + "-" + g.str(rtHex, 146)
	add("vendor/cloudflare-origin-ca", "origin CA key "+cfCA, cfCA)
	glsa := "glsa_" + g.str(rtAlnum, 32) + "_" + g.str(rtHex, 8)
	add("vendor/grafana-service-account", "grafana sa for the dashboards sync: "+glsa, glsa)

	// --- Encoded and obfuscated -----------------------------------------
	hexTok := rt2Hex(ghpOf())
	add("encoded/hex-ghp", "GH PAT hex-encoded so the scanner won't see it: "+hexTok, hexTok)
	uBody := g.str(rtAlnum, 36)
	add("encoded/json-unicode-escape", `{"note":"ci","t":"\u0067hp_`+uBody+`"}`, uBody)
	hBody := g.str(rtAlnum, 36)
	add("encoded/html-entities", "<code>&#x67;&#x68;&#x70;&#x5f;"+hBody+"</code>", hBody)
	rev := rt2Reverse(liveOf())
	add("encoded/reversed", "reversed so it's safe: "+rev, rev)
	spaced := rt2Interleave("xoxb-"+g.str(rtDigits, 12)+"-"+g.str(rtDigits, 13)+"-"+g.str(rtAlnum, 24), " ")
	add("encoded/spaced-out", "slack bot (spaced out): "+spaced, spaced)
	envFile := rtB64Of("DB_PASSWORD=" + g.pw(16) + "\nSTRIPE_SECRET_KEY=" + liveOf() + "\n")
	add("encoded/base64-env-file", "ENV_B64="+envFile, envFile)
	b64json := base64.RawURLEncoding.EncodeToString([]byte(`{"client_id":"reporting","client_secret":"` + g.str(rtAlnum, 32) + `"}`))
	add("encoded/base64url-json", "state param: "+b64json, b64json)
	dbl := rtB64Of(rtB64Of(ghpOf()))
	add("encoded/base64-in-base64", "double-encoded: "+dbl, dbl)
	wrapped := rt2Wrap(rtB64Of("GITHUB_TOKEN="+ghpOf()+"\nDATABASE_URL=postgres://app:"+g.urlPw(16)+
		"@db:5432/app\nLOG_LEVEL=info\nFEATURE_FLAGS=beta,search\n"), 76)
	add("encoded/base64-wrapped-76", "$ base64 .env\n"+strings.Join(wrapped, "\n")+"\n", wrapped[0], wrapped[1])
	gz := rt2Gzip64("GITHUB_TOKEN=" + ghpOf() + "\n")
	add("encoded/gzip-base64", "echo "+gz+" | base64 -d | gunzip", gz)
	ps := rt2UTF16B64("$env:GH_TOKEN='" + ghpOf() + "'; gh repo list acme")
	add("encoded/powershell-utf16", "powershell.exe -NoProfile -EncodedCommand "+ps, ps)
	dpBody := g.str(rtAlnum, 36)
	add("encoded/double-percent", "/oauth/cb?state=ghp%255F"+dpBody, dpBody)
	formPw := g.urlPw(10) + "%21" + g.urlPw(6)
	add("encoded/form-body-password",
		"POST /oauth/token\nContent-Type: application/x-www-form-urlencoded\n\ngrant_type=password&username=ops%40acme.io&password="+formPw+"&client_id=cli", formPw)
	rot := rt2Rot13(ghpOf())
	add("encoded/rot13", "rot13'd: "+rot, rot)

	// --- Split across literals and lines --------------------------------
	pa, pb := g.str(rtURLSafe, 46), g.str(rtURLSafe, 47)
	add("split/python-implicit-concat", "k = (\"sk-ant-api03-\"\n     \""+pa+"\"\n     \""+pb+"AA\")", pa, pb)
	cBody := g.str(rtAlnum, 97)
	add("split/c-adjacent-literals", `#define K "sk_live_" "51`+cBody+`"`, cBody)
	phpA := g.str(rtAlnum, 24)
	add("split/php-dot-concat",
		"$k = 'xoxb-' . '"+g.str(rtDigits, 12)+"-' . '"+g.str(rtDigits, 13)+"-' . '"+phpA+"';", phpA)
	sqA, sqB := g.str(rtAlnum, 18), g.str(rtAlnum, 18)
	add("split/sql-pipe-concat", "UPDATE settings SET v = 'ghp_' || '"+sqA+"' || '"+sqB+"' WHERE k = 'gh';", sqA, sqB)
	shBody := g.str(rtURLSafe, 20)
	add("split/shell-adjacent-quotes",
		`T="glpat-"'`+shBody+`'; curl -H "PRIVATE-TOKEN: $T" https://gitlab.acme.io/api/v4/user`, shBody)
	jsA, jsB := g.str(rtUpper+rtLower, 17), g.str(rtUpper+rtLower, 17)
	add("split/js-array-join", `const k = ["hf_", "`+jsA+`", "`+jsB+`"].join("");`, jsA, jsB)
	jA, jB := g.str(rtURLSafe, 74)+"T3Blbk", "FJ"+g.str(rtURLSafe, 74)
	add("split/java-plus-newline", "String k = \"sk-proj-\" +\n        \""+jA+"\" +\n        \""+jB+"\";", jA, jB)
	yA, yB := g.str(rtAlnum, 18), g.str(rtAlnum, 18)
	add("split/yaml-escaped-newline", "note: \"ghp_"+yA+"\\\n  "+yB+"\"\n", yA, yB)
	rA, rB := g.str(rtHex, 32), g.str(rtHex, 32)
	add("split/rust-concat-macro", `const K: &str = concat!("dop_v1_", "`+rA+`", "`+rB+`");`, rA, rB)

	// --- Homoglyphs and invisible characters ----------------------------
	wj := g.str(rtAlnum, 24)
	add("unicode/word-joiner-xoxb",
		"slack: xoxb-"+g.str(rtDigits, 12)+"-"+g.str(rtDigits, 13)+"-"+wj[:12]+"\u2060"+wj[12:], wj[:12], wj[12:])
	cyBody := g.str(rtDigits, 12) + "-" + g.str(rtDigits, 13) + "-" + g.str(rtAlnum, 24)
	add("unicode/cyrillic-o-xoxb", "x\u043exb-"+cyBody, cyBody) // Cyrillic o
	grK := "\u0391KIA" + g.str(rtB32, 16)                       // Greek capital alpha
	grSecret := g.str(rtB64, 40)
	add("unicode/greek-alpha-akia", "keys: "+grK+" "+grSecret, grK, grSecret)
	fwPw := g.pw(14)
	add("unicode/fullwidth-assignment", fullWidth("DB_PASSWORD="+fwPw), fullWidth(fwPw))
	mb := rt2MathBold(ghpOf())
	add("unicode/math-bold", "see "+mb, mb)
	cgA, cgB := g.str(rtAlnum, 18), g.str(rtAlnum, 18)
	add("unicode/combining-grapheme-joiner", "ghp_"+cgA+"\u034f"+cgB, cgA, cgB)
	rlA, rlB := g.str(rtAlnum, 18), g.str(rtAlnum, 18)
	add("unicode/bidi-override", "ghp_"+rlA+"\u202e"+rlB+"\u202c", rlA, rlB)
	tag := rt2Tags(ghpOf())
	add("unicode/tag-characters", "nothing to see here"+tag+".", tag)
	nbsp := g.pw(14)
	add("unicode/nbsp-password-is", "the\u00a0password\u00a0is\u00a0"+nbsp, nbsp)
	zw := rt2Interleave(ghpOf(), "\u200b")
	add("unicode/zwsp-every-char", "pat "+zw, zw)

	// --- Private keys ---------------------------------------------------
	enc := g.pemLines("MIIFHzBJBgkqhkiG9w0BBQ0wPDAbBgkqhkiG9w0BBQwwDgQI", 8, 64)
	add("pem/encrypted-pkcs8",
		"the key is encrypted, passphrase in 1Password:\n-----BEGIN ENCRYPTED PRIVATE KEY-----\n"+strings.Join(enc, "\n")+
			"\n-----END ENCRYPTED PRIVATE KEY-----", enc[1], enc[5])
	yk := g.pemLines("b3BlbnNzaC1rZXktdjEAAAAA", 6, 70)
	add("pem/yaml-block-indented",
		"deploy:\n  ssh_key: |\n    -----BEGIN OPENSSH PRIVATE KEY-----\n    "+strings.Join(yk, "\n    ")+
			"\n    -----END OPENSSH PRIVATE KEY-----\n", yk[1], yk[4])
	bq := g.pemLines("MIIEvgIBADANBgkqhkiG9w0BAQEFAASC", 6, 64)
	add("pem/markdown-blockquote",
		"> -----BEGIN PRIVATE KEY-----\n> "+strings.Join(bq, "\n> ")+"\n> -----END PRIVATE KEY-----", bq[1], bq[4])
	crlf := g.pemLines("MHcCAQEEI", 3, 64)
	add("pem/crlf-ec",
		"-----BEGIN EC PRIVATE KEY-----\r\n"+strings.Join(crlf, "\r\n")+"\r\n-----END EC PRIVATE KEY-----\r\n", crlf[0], crlf[1])
	xmlD := g.str(rtB64, 342) + "=="
	add("pem/xml-rsakeyvalue",
		"<RSAKeyValue><Modulus>"+g.str(rtB64, 342)+"==</Modulus><Exponent>AQAB</Exponent><P>"+g.str(rtB64, 171)+
			"=</P><D>"+xmlD+"</D></RSAKeyValue>", xmlD)
	jwkD := g.str(rtURLSafe, 43)
	add("key/jwk-private",
		`{"kty":"EC","crv":"P-256","kid":"sig-2024","x":"`+g.str(rtURLSafe, 43)+`","y":"`+g.str(rtURLSafe, 43)+`","d":"`+jwkD+`"}`, jwkD)
	wif := "5K" + g.str(rt2Base58, 49)
	add("key/bitcoin-wif", "cold wallet sweep: "+wif, wif)
	solana := rt2ByteArray(g, 64)
	add("key/solana-keypair", "~/.config/solana/id.json: "+solana, solana)
	logLines := g.pemLines("MIIEpAIBAAKCAQEA", 4, 64)
	var logged []string
	for _, l := range logLines {
		logged = append(logged, "2024-06-01T12:00:00Z app[web.1]: "+l)
	}
	add("pem/log-prefixed-lines", strings.Join(logged, "\n"), logLines[1], logLines[2])

	// --- Payment cards and seed phrases ---------------------------------
	disc := groups(g.card("6011", 16), "-", 4, 4, 4, 4)
	add("card/discover-dashes-sql", "INSERT INTO payments (pan) VALUES ('"+disc+"');", disc)
	diners := g.card("36", 14)
	add("card/diners-log", "2024-06-01 12:00:00 WARN charge declined card="+diners+" reason=insufficient_funds", diners)
	seed24 := rt2Seed(g, 24)
	numbered := make([]string, len(seed24))
	for i, w := range seed24 {
		numbered[i] = fmt.Sprintf("%d. %s", i+1, w)
	}
	add("seed/numbered-24", "Recovery phrase (write it down!):\n"+strings.Join(numbered, "\n"),
		numbered[3], numbered[10], numbered[20])
	seedJ := rt2Seed(g, 12)
	add("seed/json-array-quoted", `{"mnemonic":["`+strings.Join(seedJ, `","`)+`"]}`,
		`"`+seedJ[1]+`"`, `"`+seedJ[6]+`"`, `"`+seedJ[11]+`"`)
	seedL := rt2Seed(g, 12)
	add("seed/one-per-line-indented", "backup words:\n    "+strings.Join(seedL, "\n    "),
		strings.Join(seedL[:6], "\n    "), strings.Join(seedL[6:], "\n    "))
	return out
}

// redTeam2Benign are near misses of the second probe: technical text
// without a credential.
func redTeam2Benign() []rtBenign {
	g := &rtGen{s: 0xE7037ED1A0B428DB}
	var out []rtBenign
	add := func(name string, keyword bool, text string) {
		out = append(out, rtBenign{name, text, keyword})
	}

	// Hashes, digests, fingerprints.
	add("hash/md5sum-line", false, g.str(rtHex, 32)+"  dist/acme-cli_2.3.1_darwin_arm64.zip")
	add("hash/sha512-checksums", false, "SHA512 (acme-2.3.1.tar.gz) = "+g.str(rtHex, 128))
	add("hash/git-log-oneline", false,
		g.str(rtHex, 7)+" (HEAD -> main, origin/main) Merge pull request #912 from acme/fix-retry\n"+
			g.str(rtHex, 7)+" Retry on 502 from the upstream\n"+g.str(rtHex, 7)+" Bump golang.org/x/net to 0.31.0")
	add("hash/cargo-lock-checksum", false,
		"[[package]]\nname = \"serde\"\nversion = \"1.0.203\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \""+g.str(rtHex, 64)+"\"")
	add("hash/pip-require-hashes", false,
		"requests==2.32.3 \\\n    --hash=sha256:"+g.str(rtHex, 64)+" \\\n    --hash=sha256:"+g.str(rtHex, 64))
	add("hash/nix-store-path", false, "/nix/store/"+g.str(rt2NixB32, 32)+"-go-1.22.4/bin/go")
	add("hash/ssh-fingerprint", false,
		"ED25519 key fingerprint is SHA256:"+g.str(rtB64, 43)+".\nAre you sure you want to continue connecting (yes/no/[fingerprint])?")
	fp := strings.ToUpper(g.str(rtHex, 40))
	add("hash/pgp-fingerprint", false,
		"pub   ed25519 2024-06-01 [SC]\n      "+groups(fp, " ", 4, 4, 4, 4, 4, 4, 4, 4, 4, 4)+"\nuid   Jane Doe <jane@acme.io>")
	add("hash/etag", false, "HTTP/1.1 304 Not Modified\nETag: W/\""+g.str(rtHex, 32)+"\"\nCache-Control: max-age=60")
	add("hash/hex-over-lines", false, "digest:\n"+g.str(rtHex, 40)+"\n"+g.str(rtHex, 24)+"\n")

	// Identifiers.
	add("id/mongodb-objectid", false, `db.orders.find({_id: ObjectId("`+g.str(rtHex, 24)+`")})`)
	add("id/ulid", false, "event 01"+g.str(rt2Crock, 24)+" processed in 12ms")
	add("id/stripe-object-ids", false,
		"refund re_"+g.str(rtAlnum, 24)+" for charge ch_"+g.str(rtAlnum, 24)+" (customer cus_"+g.str(rtAlnum, 14)+")")
	add("id/aws-resource-ids", false,
		"terminated i-0"+g.str(rtHex, 16)+" in subnet-0"+g.str(rtHex, 16)+", sg-0"+g.str(rtHex, 16)+", ami-0"+g.str(rtHex, 16))
	add("id/github-node-id", false, `{"node_id":"`+rtB64Of("010:Repository"+g.str(rtDigits, 9))+`","full_name":"acme/api"}`)
	add("id/k8s-uid", false, "metadata:\n  name: api-7d9f8b6c5d\n  uid: "+rtUUID(g)+"\n  resourceVersion: \"48213377\"")

	// Base64 that is no credential.
	add("base64/png-data-uri", false, `<img alt="logo" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAA`+g.str(rtB64, 180)+`=">`)
	add("base64/svg-data-uri", false, `background: url("data:image/svg+xml;base64,`+
		rtB64Of(`<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="7" fill="#0a7"/></svg>`)+`");`)
	add("base64/pagination-cursor", false,
		"GET /v1/orders?limit=50&cursor="+base64.RawURLEncoding.EncodeToString([]byte(`{"created_at":"2024-06-01T12:00:00Z","id":918273}`)))
	add("base64/sourcemap", false, "//# sourceMappingURL=data:application/json;base64,"+
		rtB64Of(`{"version":3,"file":"app.js","sources":["app.ts"],"names":[],"mappings":"AAAA,SAAS,GAAG,CAAC"}`))
	cert := g.pemLines("MIIDdzCCAl+gAwIBAgIU", 8, 64)
	add("pem/public-certificate", false, "-----BEGIN CERTIFICATE-----\n"+strings.Join(cert, "\n")+"\n-----END CERTIFICATE-----")
	pub := g.pemLines("mDMEZ", 5, 64)
	add("pem/pgp-public-key-block", false,
		"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n"+strings.Join(pub, "\n")+"\n="+g.str(rtB64, 4)+"\n-----END PGP PUBLIC KEY BLOCK-----")
	add("ssh/known-hosts-hashed", false,
		"|1|"+g.str(rtB64, 27)+"=|"+g.str(rtB64, 27)+"= ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB"+g.str(rtB64, 87)+"=")

	// Placeholders: a credential is named, none is given.
	add("placeholder/cli-angle-token", true, "gh auth login --hostname github.acme.io --token <token>")
	add("placeholder/dollar-brace-env", true, "DB_PASSWORD=${DB_PASSWORD}\nREDIS_URL=redis://:${REDIS_PASSWORD}@cache:6379/0")
	add("placeholder/your-key-here", true, "OPENAI_API_KEY=YOUR_KEY_HERE")
	add("placeholder/stars-in-url", true, "connected to postgres://app:****@db.internal:5432/app (password masked)")
	add("placeholder/aws-docs-example", true, "aws_access_key_id = AKIA"+"IOSFODNN7"+"EXAMPLE  # the example from the AWS docs")
	add("placeholder/password-file-env", true, "POSTGRES_PASSWORD_FILE: /run/secrets/postgres_password")
	add("placeholder/vault-reference", true, "password: vault:secret/data/prod/db#password")
	add("placeholder/redacted-markers", true, "api_key=[REDACTED] token=<redacted> password=(hidden)")

	// Variable names without a value.
	add("varname/python-def-password", true,
		"def check_password(password: str, hashed: bytes) -> bool:\n    return bcrypt.checkpw(password.encode(), hashed)")
	add("varname/go-struct-token", true, "type Session struct {\n\tToken     string\n\tExpiresAt time.Time\n}")
	add("varname/go-validate-apikey", true, "if err := validateAPIKey(apiKey); err != nil {\n\treturn fmt.Errorf(\"api key: %w\", err)\n}")
	add("varname/sql-columns", true, "SELECT id, email, password_hash, api_token_expires_at FROM users WHERE id = $1")
	add("varname/js-destructure", true, "const { password, confirmPassword, ...profile } = form.values;")

	// Docs about auth.
	add("docs/oauth-code-exchange", true,
		"The client exchanges the authorization code for an access token at /oauth/token and sends it in the Authorization header as a Bearer token.")
	add("docs/htpasswd-howto", true, "Run htpasswd -c /etc/nginx/.htpasswd admin, then type the new password twice when asked.")
	add("docs/ssh-keygen", true,
		"ssh-keygen -t ed25519 -C you@example.com writes the private key to ~/.ssh/id_ed25519 and the public key to ~/.ssh/id_ed25519.pub.")

	// Prose, in English and other languages.
	add("prose/long-words", false,
		"Pneumonoultramicroscopicsilicovolcanoconiosis and antidisestablishmentarianism are long; Rindfleischetikettierungsueberwachungsaufgabenuebertragungsgesetz is longer.")
	add("prose/german-compound", false,
		"Die Donaudampfschifffahrtsgesellschaft hat den Fahrplan geändert: Abfahrt um 14:30 Uhr, Ankunft 18:05.")
	add("prose/german-passwort-vergessen", false, "Passwort vergessen? Klicken Sie auf „Zurücksetzen“ und folgen Sie dem Link in der E-Mail.")
	add("prose/french-policy", false, "Le mot de passe doit contenir au moins douze caractères, dont un chiffre.")
	add("prose/japanese-forgot", false, "パスワードを忘れた場合は、管理者に連絡してください。")
	add("prose/chinese-do-not-share", false, "请不要在聊天中分享您的密码，也不要写在便签上。")
	add("prose/russian-rotate", false, "Меняйте пароль каждые 90 дней и не используйте его повторно.")
	add("prose/arabic", false, "يرجى تغيير كلمة المرور بانتظام وعدم مشاركتها مع أي شخص.")

	// Math and code with + and quotes.
	add("math/latex", false, `$$\int_0^\infty e^{-x^2}\,dx = \frac{\sqrt{\pi}}{2}, \quad \sum_{k=1}^{n} k = \frac{n(n+1)}{2}$$`)
	add("math/arith-hex", false, "0x7fffffff + 1 overflows int32; a+b=c; x^2+y^2=r^2; 0xDEADBEEF ^ 0xCAFEBABE")
	add("code/js-url-concat", false, `const url = "https://api.acme.io/" + "v1/" + "users/" + userId + "?expand=" + "orders";`)
	add("code/python-message-concat", false,
		`msg = "Deployment finished for environment " + "production-eu-west-1-blue" + " at " + ts.isoformat()`)
	add("code/go-golden-base64", false, `const golden = "`+rtB64Of("The quick brown fox jumps over the lazy dog.")+`"`)
	add("code/go-test-table", false, "{\"a+b\", \"1+2\", 3},\n{\"concat\", `\"x\" + \"y\"`, \"xy\"},")

	// Diffs.
	add("diff/timeout", false,
		"diff --git a/config.yaml b/config.yaml\nindex "+g.str(rtHex, 7)+".."+g.str(rtHex, 7)+
			" 100644\n--- a/config.yaml\n+++ b/config.yaml\n@@ -3,3 +3,3 @@\n server:\n-  timeout: 30s\n+  timeout: 60s\n")
	add("diff/password-min-length", true, "-    password_min_length = 8\n+    password_min_length = 12\n     password_require_digit = true")

	// URLs with harmless query strings.
	add("url/utm", false, "https://acme.io/pricing?utm_source=newsletter&utm_medium=email&utm_campaign=2024-06-summer&ref=hn")
	add("url/page-token", true, "GET https://www.googleapis.com/drive/v3/files?pageSize=100&pageToken="+g.str(rtURLSafe, 120))
	add("url/youtube", false, "https://www.youtube.com/watch?v="+g.str(rtURLSafe, 11)+"&t=42s")
	add("url/github-blob-sha", false, "https://github.com/acme/api/blob/"+g.str(rtHex, 40)+"/internal/server/server.go#L120-L134")

	// Numbers that are no card, personal data the docs let pass.
	add("pii/iban", false, "Please transfer to IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX.")
	add("number/imei", false, "IMEI "+g.card("35", 15)+", firmware 4.2.1")

	// Words about passwords, no password.
	add("words/moved-to-bitwarden", true, "We moved the password to Bitwarden last week.")
	add("words/reset-for-account", true, "I reset the password for the shared analytics account yesterday.")
	add("words/password-is-in-vault", true, "The password is in the team vault under 'prod-db'.")
	add("words/api-key-is-required", true, "The api key is required for every request except /health.")

	// Logs and command lines near the command-line rules.
	add("log/go-test-pass-label", false, "=== RUN   TestCheckout\n--- PASS: TestCheckout (0.02s)\nPASS\nok  \tgithub.com/acme/billing\t0.031s")
	add("log/mysql-access-denied", true, "ERROR 1045 (28000): Access denied for user 'root'@'10.0.0.5' (using password: YES)")
	add("cli/help-password-string", true,
		"Flags:\n      --password string   password for the registry (env REGISTRY_PASSWORD)\n  -u, --username string   user name")
	add("cli/mysql-p-prompt", false, "mysql -u root -p shop < dump.sql")
	add("cli/net-use-persistent", false, `net use Z: \\fs01\share /persistent:yes`)

	// Unicode that hides nothing.
	add("unicode/russian-token-word", false, "Токен доступа хранится в Vault, см. раздел 4.2 руководства.")
	add("unicode/fullwidth-japanese", false, "ＡＰＩの使い方：ｄｏｃｓ／ｑｕｉｃｋｓｔａｒｔを参照してください")
	add("unicode/zwj-emoji", false, "team 👨\u200d👩\u200d👧 offsite on Friday 🎉")

	// Keywords in other senses, prefixes named in prose.
	add("keyword/max-tokens", true, "the prompt used 12,345 tokens; max_tokens = 4096, temperature = 0.2")
	add("keyword/secret-santa", true, "Secret Santa: names drawn on Friday, budget 20 EUR.")
	add("near/scikit-prefix", false, "pip install scikit-learn scikit-image  # a.k.a. sk-learn, sk-image")
	add("near/github-prefix-docs", false, "Classic PATs start with ghp_ and fine-grained ones with github_pat_; both are 40+ characters.")
	add("near/akia-asia-prose", true, "Long-term access keys start with AKIA, temporary ones with ASIA.")

	// Configs without secrets.
	add("json/feature-flags", false,
		`{"flags":{"new_checkout":true,"search_v2":false},"rollout":{"percent":25,"seed":"`+g.str(rtHex, 16)+`"}}`)
	add("yaml/compose-no-secrets", false,
		"services:\n  web:\n    image: nginx:1.27\n    ports: [\"8080:80\"]\n    healthcheck:\n      test: [\"CMD\", \"curl\", \"-f\", \"http://localhost\"]\n")
	add("k8s/probe-and-resources", false,
		"livenessProbe:\n  httpGet: {path: /healthz, port: 8080}\nresources:\n  limits: {cpu: 500m, memory: 256Mi}")
	return out
}

func TestRedTeamProbe2(t *testing.T) {
	secrets, benign := redTeam2Secrets(), redTeam2Benign()
	if len(secrets) < 80 || len(benign) < 40 {
		t.Fatalf("%d secret and %d benign samples, want at least 80 and 40", len(secrets), len(benign))
	}
	// No name of the first probe is reused.
	first := map[string]bool{}
	for _, s := range redTeamSecrets() {
		first[s.name] = true
	}
	for _, b := range redTeamBenign() {
		first[b.name] = true
	}
	judgeProbe(t, "probe 2", secrets, benign, knownMisses2, knownFalsePositives2, first)
}
