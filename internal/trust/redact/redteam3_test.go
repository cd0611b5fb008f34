package redact

// A third, independent red-team probe of the redaction battery.
//
// Written 2026-12-07, as an exam, blind: from the two earlier probes'
// samples (redteam_test.go, redteam2_test.go, to repeat none of their
// shapes or names) and from what leaks in practice into agent memory,
// before reading the matchers. Its classes are the ones the earlier
// probes leave out: config formats (INI, .properties, HCL, XML, systemd
// units, nginx and Apache, docker-compose, GitHub Actions, Helm, Ansible,
// .npmrc, .pypirc, .netrc, .pgpass, .git-credentials, kubeconfig), JDBC,
// SQLAlchemy and broker URLs, vendor token formats with their real
// prefixes, HTTP logs (headers of other schemes, cookies, query strings,
// form bodies), SQL of several engines, code of several languages
// (builders, constructors, defaults of environment reads), passwords in
// words in languages the second probe did not use, command-line flags,
// YAML block scalars, PEM keys in odd wrappings, and near misses of all
// of these.
//
// As in the earlier probes, every fake credential is built at run time
// from a fixed pseudo-random generator (rtGen) and string concatenation:
// no token literal is committed, and no real-looking secret appears here.
// The judging is the first probe's (judgeProbe).
//
// Blind figures, measured before any fix with both known lists empty:
// 79 of the 234 secret samples leaked (not flagged, or a secret part kept
// by Span) and 17 of the 111 benign samples were changed or flagged.
// The battery then learnt the classes that recur (see docs/security.md),
// and the probe gained, for each, secret samples of its other forms and
// near misses it must leave alone (237 secret and 158 benign samples
// now); what it still gets wrong is listed below with why, and the test
// fails on anything else. Three benign samples were relabelled after the
// exam as naming a credential in words, which the reference's keyword
// patterns see: "keystore", ".env" (process.env) and "X-Api-Key".

import (
	"strings"
	"testing"
)

// knownMisses3 are secret samples of this probe the battery lets through
// today, by name, with why (written from the matchers, after the exam).
var knownMisses3 = map[string]string{
	// A name and a value with no operator between them.
	"cli/openssl-passwd": "openssl passwd's plain argument: flagged by its keyword, the value kept",
	"redis/auth-command": "Redis's AUTH user password: a command word, not a name",
	"redis/acl-setuser":  "Redis ACL's >password rule: an operator of its own",
	// A password without any name next to it.
	"cli/wandb-login":            "wandb login and 40 hex digits: an unnamed argument that a git SHA shares the shape of",
	"recovery/github-codes":      "recovery codes (xxxxx-xxxxx in hex), one a line, no name next to each",
	"words/value-before-keyword": "use X as the password: a value before its name is read only before is the ... password",
	// Names the battery does not take as a secret's.
	"url/query-firebase-auth": "auth= is too generic a name to call its value a secret",
	"words/japanese-ango":     "暗号 is a cipher or a code as often as a password: not one of the words for it",
	// Shapes not learnt.
	"vendor/newrelic-license":      "a New Relic license key has a suffix (NRAL) and no prefix",
	"vendor/salesforce-session":    "a Salesforce session id starts with digits (00D...!); vendor prefixes start with a letter",
	"key/tor-onion-service":        "ED25519-V3: and base64, a Tor key file's prefix, not learnt",
	"ovpn/inline-key-and-tls-auth": "OpenVPN's static key block (BEGIN OpenVPN Static key V1) of hex lines names no private key; the PEM key above it is caught",
	"k8s/keystore-p12-data":        "a PKCS#12 keystore in base64 is binary once decoded; flagged by its keystore keyword, the value kept",
	"html/quot-entities":           "&quot; (a named entity) is not unescaped, and the blank inside the JSON splits the run",
}

// knownFalsePositives3 are benign samples of this probe the battery
// changes or flags today, by name, with why.
var knownFalsePositives3 = map[string]string{
	"id/sealed-cookie-ga":   "a Cookie header's value is taken whole (a session id is a credential); analytics cookies alone are not told apart",
	"id/stripe-publishable": "the reference's stripe_sk pattern ([sprk]k_(live|test)_) takes publishable keys too; it is the cross-implementation contract",
	"id/mapbox-public":      "the reference's jwt pattern (eyJ...) matches a Mapbox public token's body; the cross-implementation contract",
	"placeholder/changeme":  "changeme is taken as a (weak) password by design: TestSupersetCatches wants db.password=changeme redacted",
}

// rt3Bech32 is the bech32 data alphabet.
const rt3Bech32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

// redTeam3Secrets are the secret-bearing samples of the third probe.
func redTeam3Secrets() []rtSecret {
	g := &rtGen{s: 0x8EBC6AF09C88C6E3}
	var out []rtSecret
	add := func(name, text string, parts ...string) {
		out = append(out, rtSecret{name, text, parts})
	}

	// --- Config formats -------------------------------------------------
	odbc := g.pw(16)
	add("ini/odbc-ini-dsn",
		"[warehouse]\nDriver = /usr/lib/libmsodbcsql-18.so\nServer = dw.internal\nUID = etl\nPWD = "+odbc+"\n", odbc)
	hib := g.pw(16)
	add("properties/hibernate-connection",
		"hibernate.connection.url=jdbc:postgresql://db/app\nhibernate.connection.username=app\nhibernate.connection.password="+hib+"\n", hib)
	ks := g.pw(14)
	add("properties/kafka-ssl-keystore",
		"security.protocol=SSL\nssl.keystore.location=/etc/kafka/client.jks\nssl.keystore.password="+ks+"\nssl.key.password="+ks+"\n", ks)
	mailPw := g.pw(14)
	add("properties/colon-separator", "mail.smtp.host : smtp.acme.io\nmail.smtp.password : "+mailPw+"\n", mailPw)
	ddAPI, ddApp := g.str(rtHex, 32), g.str(rtHex, 40)
	add("hcl/provider-datadog-keys",
		"provider \"datadog\" {\n  api_key = \""+ddAPI+"\"\n  app_key = \""+ddApp+"\"\n  api_url = \"https://api.datadoghq.eu/\"\n}", ddAPI, ddApp)
	pgConn := g.urlPw(16)
	add("hcl/backend-pg-conn-str",
		"terraform {\n  backend \"pg\" {\n    conn_str = \"postgres://tf:"+pgConn+"@state.internal/terraform_backend?sslmode=require\"\n  }\n}", pgConn)
	tomcat := g.urlPw(14)
	add("xml/tomcat-users-attribute",
		"<tomcat-users>\n  <user username=\"admin\" password=\""+tomcat+"\" roles=\"manager-gui,admin-gui\"/>\n</tomcat-users>", tomcat)
	bean := g.urlPw(14)
	add("xml/spring-bean-property",
		"<bean id=\"dataSource\" class=\"com.zaxxer.hikari.HikariDataSource\">\n  <property name=\"username\" value=\"app\"/>\n  <property name=\"password\" value=\""+bean+"\"/>\n</bean>", bean)
	nuget := g.urlPw(16)
	add("xml/nuget-cleartext-password",
		"<packageSourceCredentials>\n  <acme>\n    <add key=\"Username\" value=\"ci\" />\n    <add key=\"ClearTextPassword\" value=\""+nuget+"\" />\n  </acme>\n</packageSourceCredentials>", nuget)
	webcfg := g.urlPw(16)
	add("xml/web-config-connection-string",
		`<connectionStrings><add name="Shop" connectionString="Data Source=db;Initial Catalog=shop;User Id=shop;Password=`+webcfg+`;" providerName="System.Data.SqlClient" /></connectionStrings>`, webcfg)
	xmlTok := g.str(rtAlnum, 40)
	add("xml/element-api-token", "<config>\n  <endpoint>https://api.acme.io</endpoint>\n  <apiToken>"+xmlTok+"</apiToken>\n</config>", xmlTok)
	sdPw := g.pw(16)
	add("systemd/environment-quoted",
		"[Service]\nUser=app\nEnvironment=\"DB_PASSWORD="+sdPw+"\"\nExecStart=/usr/local/bin/app serve\n", sdPw)
	sdTok := g.str(rtAlnum, 40)
	add("systemd/environment-multiple",
		"[Service]\nEnvironment=\"PORT=8080\" \"API_TOKEN="+sdTok+"\" \"LOG_LEVEL=info\"\n", sdTok)
	ngBasic := rtB64Of("svc:" + g.pw(16))
	add("nginx/proxy-set-header-basic",
		"location /api/ {\n    proxy_pass http://backend;\n    proxy_set_header Authorization \"Basic "+ngBasic+"\";\n}", ngBasic)
	ngKey := g.str(rtAlnum, 40)
	add("nginx/proxy-set-header-api-key", "    proxy_set_header X-Api-Key "+ngKey+";\n    proxy_set_header Host $host;", ngKey)
	apPw := g.pw(16)
	add("apache/setenv", "<VirtualHost *:80>\n  SetEnv DB_PASS "+apPw+"\n  DocumentRoot /var/www/html\n</VirtualHost>", apPw)
	apBearer := g.str(rtURLSafe, 48)
	add("apache/requestheader-bearer", `RequestHeader set Authorization "Bearer `+apBearer+`"`, apBearer)
	coArgs := g.str(rtURLSafe, 40)
	add("compose/command-api-key-flag",
		"services:\n  exporter:\n    image: acme/exporter:1.2\n    command: [\"--listen\", \":9100\", \"--api-key\", \""+coArgs+"\"]\n", coArgs)
	coBuild := g.pw(16)
	add("compose/build-args",
		"services:\n  api:\n    build:\n      context: .\n      args:\n        - DB_PASSWORD="+coBuild+"\n", coBuild)
	ghaPw := g.pw(16)
	add("gha/docker-login-with",
		"      - uses: docker/login-action@v3\n        with:\n          registry: registry.acme.io\n          username: ci\n          password: "+ghaPw+"\n", ghaPw)
	ghaRun := g.str(rtAlnum, 40)
	add("gha/run-curl-inline",
		"      - name: notify\n        run: curl -fsS -X POST -H \"X-Auth-Token: "+ghaRun+"\" https://deploy.acme.io/hooks/release\n", ghaRun)
	helmSet := g.pw(16)
	add("helm/set-flag",
		"helm upgrade --install db bitnami/postgresql --set auth.username=app --set auth.password="+helmSet+" -n data", helmSet)
	s3Secret := g.str(rtB64, 40)
	add("helm/values-s3-secret-key",
		"backup:\n  s3:\n    endpoint: https://s3.eu-west-1.amazonaws.com\n    accessKey: backup-bot\n    secretKey: "+s3Secret+"\n", s3Secret)
	ansBecome := g.pw(16)
	add("ansible/group-vars-become",
		"# group_vars/prod.yml\nansible_user: deploy\nansible_become_password: "+ansBecome+"\nmysql_root_password: "+ansBecome+"\n", ansBecome)
	ansExtra := g.pw(14)
	add("ansible/extra-vars", `ansible-playbook site.yml -i prod --extra-vars "db_user=app db_pass=`+ansExtra+`"`, ansExtra)
	npmPw := rtB64Of(g.pw(16))
	add("npmrc/underscore-password",
		"registry=https://npm.acme.io/\n//npm.acme.io/:username=ci\n//npm.acme.io/:_password="+npmPw+"\n//npm.acme.io/:email=ci@acme.io\n", npmPw)
	pypiPw := g.pw(16)
	add("pypirc/plain-password",
		"[distutils]\nindex-servers = acme\n\n[acme]\nrepository = https://pypi.acme.io/\nusername = ci\npassword = "+pypiPw+"\n", pypiPw)
	netrcPw := g.pw(16)
	add("netrc/multiline-entry", "machine registry.acme.io\n    login ci\n    password "+netrcPw+"\n\nmachine ftp.acme.io\n    login anonymous\n", netrcPw)
	pgpassW := g.pw(16)
	add("pgpass/wildcards", "# ~/.pgpass\n*:*:*:replicator:"+pgpassW+"\n", pgpassW)
	gitCred := g.str(rtHex, 40)
	add("git-credentials/hex-token", "https://ci-bot:"+gitCred+"@git.acme.io\nhttps://ci-bot:"+gitCred+"@gitea.acme.io\n", gitCred)
	oidcSecret := g.str(rtURLSafe, 32)
	oidcRefresh := g.str(rtURLSafe, 64)
	add("kubeconfig/oidc-auth-provider",
		"users:\n- name: jane\n  user:\n    auth-provider:\n      name: oidc\n      config:\n        client-id: kubernetes\n        client-secret: "+oidcSecret+
			"\n        idp-issuer-url: https://sso.acme.io\n        refresh-token: "+oidcRefresh+"\n", oidcSecret, oidcRefresh)
	kubeBasic := g.pw(16)
	add("kubeconfig/basic-auth-user", "users:\n- name: legacy-admin\n  user:\n    username: admin\n    password: "+kubeBasic+"\n", kubeBasic)
	tomlTok := g.str(rtAlnum, 40)
	add("toml/section-auth-token", "[sentry]\ndsn_host = \"sentry.acme.io\"\nauth_token = \""+tomlTok+"\"\n", tomlTok)
	tomlInline := g.pw(16)
	add("toml/inline-table", "db = { host = \"db\", user = \"app\", password = \""+tomlInline+"\" }\n", tomlInline)

	// --- Connection URLs ------------------------------------------------
	jdbcMs := g.pw(16)
	add("jdbc/sqlserver-semicolon-props",
		"jdbc:sqlserver://db.internal:1433;databaseName=shop;user=sa;password="+jdbcMs+";encrypt=true", jdbcMs)
	jdbcOra := g.urlPw(14)
	add("jdbc/oracle-thin-user-slash", "url: jdbc:oracle:thin:scott/"+jdbcOra+"@db.internal:1521/ORCLPDB1", jdbcOra)
	saOra := g.urlPw(14)
	add("sqlalchemy/oracle-cx", `engine = create_engine("oracle+cx_oracle://scott:`+saOra+`@db:1521/?service_name=XEPDB1")`, saOra)
	sentinel := g.urlPw(18)
	add("url/redis-sentinel-multi-host", "REDIS_URL=redis-sentinel://:"+sentinel+"@s1:26379,s2:26379,s3:26379/mymaster/0", sentinel)
	amqpEnc := g.urlPw(10) + "%40" + g.urlPw(6)
	add("url/amqp-percent-encoded-password", "broker_url = 'amqp://worker:"+amqpEnc+"@mq.internal:5672//'", amqpEnc)
	mqtt := g.urlPw(16)
	add("url/mqtt-device", "device 42 connects to mqtts://device42:"+mqtt+"@broker.acme.io:8883", mqtt)
	mongoMulti := g.urlPw(16)
	add("url/mongodb-replica-set",
		"mongodb://admin:"+mongoMulti+"@m1.internal:27017,m2.internal:27017,m3.internal:27017/?replicaSet=rs0&authSource=admin", mongoMulti)
	smb := g.urlPw(14)
	add("url/smb-domain-user", `mounted smb://ACME;svc_backup:`+smb+`@fs01.acme.local/backups`, smb)
	elastic := g.urlPw(20)
	add("url/elasticsearch-basic", `es = Elasticsearch("https://elastic:`+elastic+`@es.acme.io:9200", verify_certs=True)`, elastic)
	proxy := g.urlPw(14)
	add("url/https-proxy-env", "export HTTPS_PROXY=http://jdoe:"+proxy+"@proxy.corp.acme.io:3128", proxy)
	cloudinary := g.str(rtURLSafe, 27)
	add("url/cloudinary", "CLOUDINARY_URL=cloudinary://"+g.str(rtDigits, 15)+":"+cloudinary+"@acme", cloudinary)
	sftp := g.urlPw(14)
	add("url/sftp-in-prose", "the nightly export goes to sftp://exports:"+sftp+"@files.partner.com:22/inbox", sftp)

	// --- Vendor tokens --------------------------------------------------
	xoxp := "xoxp-" + g.str(rtDigits, 12) + "-" + g.str(rtDigits, 12) + "-" + g.str(rtDigits, 13) + "-" + g.str(rtHex, 32)
	add("vendor/slack-user-token", "my user token for the export script: "+xoxp, xoxp)
	ghr := "ghr_" + g.str(rtAlnum, 76)
	add("vendor/github-refresh-token", "the app's refresh token "+ghr+" expires in 6 months", ghr)
	ghu := "ghu_" + g.str(rtAlnum, 36)
	add("vendor/github-user-to-server", "GitHub App user token: "+ghu, ghu)
	gldt := "gldt-" + g.str(rtURLSafe, 20)
	add("vendor/gitlab-deploy-token", "deploy token for the registry pull: "+gldt, gldt)
	glptt := "glptt-" + g.str(rtHex, 40)
	add("vendor/gitlab-pipeline-trigger", "curl -X POST -F token="+glptt+" -F ref=main https://gitlab.acme.io/api/v4/projects/42/trigger/pipeline", glptt)
	atbb := "ATBB" + g.str(rtAlnum, 32)
	add("vendor/bitbucket-app-password", "bitbucket app password "+atbb+" (repo:write)", atbb)
	nugetKey := "oy2" + g.str(rtLowNum, 43)
	add("vendor/nuget-api-key", "dotnet nuget push bin/Acme.1.2.0.nupkg --api-key "+nugetKey+" --source nuget.org", nugetKey)
	mapbox := "sk.eyJ1IjoiYWNtZSIsImEiOiJ" + g.str(rtURLSafe, 22) + "In0." + g.str(rtURLSafe, 22)
	add("vendor/mapbox-secret", "mapbox uploads need the secret scope one: "+mapbox, mapbox)
	airtable := "pat" + g.str(rtAlnum, 14) + "." + g.str(rtHex, 64)
	add("vendor/airtable-pat", "airtable sync token "+airtable, airtable)
	contentful := "CFPAT-" + g.str(rtURLSafe, 43)
	add("vendor/contentful-cma", "contentful management token: "+contentful, contentful)
	dynatrace := "dt0c01." + g.str(rtUpNum, 24) + "." + g.str(rtUpNum, 64)
	add("vendor/dynatrace", "Api-Token for the tenant: "+dynatrace, dynatrace)
	glc := "glc_" + g.str(rtB64, 80) + "=="
	add("vendor/grafana-cloud", "grafana cloud access policy token "+glc, glc)
	nral := g.str(rtHex, 36) + "NRAL"
	add("vendor/newrelic-license", "newrelic.yml license key is "+nral, nral)
	nrii := "NRII-" + g.str(rtURLSafe, 32)
	add("vendor/newrelic-insert", "events go in with "+nrii, nrii)
	oaAdmin := "sk-admin-" + g.str(rtURLSafe, 74) + "T3Blbk" + "FJ" + g.str(rtURLSafe, 74)
	add("vendor/openai-admin", "the usage dashboard script uses the org admin key "+oaAdmin, oaAdmin)
	shpca := "shpca_" + g.str(rtHex, 32)
	add("vendor/shopify-custom-app", "custom app token "+shpca, shpca)
	sqEAAA := "EAAA" + g.str(rtURLSafe, 60)
	add("vendor/square-access-token", "square prod access token: "+sqEAAA, sqEAAA)
	braintree := "access_token$production$" + g.str(rtLowNum, 16) + "$" + g.str(rtHex, 32)
	add("vendor/braintree-access-token", "braintree gateway configured with "+braintree, braintree)
	plaid := "access-production-" + rtUUID(g)
	add("vendor/plaid-access", "plaid item access token stored: "+plaid, plaid)
	notionOld := "secret_" + g.str(rtAlnum, 43)
	add("vendor/notion-legacy-secret", "old notion integration "+notionOld, notionOld)
	netlify := "nfp_" + g.str(rtAlnum, 36)
	add("vendor/netlify", "netlify deploy --auth "+netlify+" --prod", netlify)
	render := "rnd_" + g.str(rtAlnum, 32)
	add("vendor/render", "render api: "+render, render)
	sbSecret := "sb_secret_" + g.str(rtURLSafe, 31)
	add("vendor/supabase-secret-key", "supabase server key "+sbSecret, sbSecret)
	resend := "re_" + g.str(rtAlnum, 8) + "_" + g.str(rtAlnum, 24)
	add("vendor/resend", "emails go through resend with "+resend, resend)
	tskey := "tskey-auth-" + g.str(rtAlnum, 17) + "-" + g.str(rtAlnum, 33)
	add("vendor/tailscale-auth-key", "tailscale up --authkey="+tskey+" --hostname=ci-runner", tskey)
	pinecone := "pcsk_" + g.str(rtAlnum, 5) + "_" + g.str(rtAlnum, 60)
	add("vendor/pinecone", "pinecone index for RAG: "+pinecone, pinecone)
	langsmith := "lsv2_pt_" + g.str(rtHex, 32) + "_" + g.str(rtHex, 10)
	add("vendor/langsmith", "tracing to langsmith with "+langsmith, langsmith)
	voyage := "pa-" + g.str(rtURLSafe, 43)
	add("vendor/voyage", "embeddings via voyage, key "+voyage, voyage)
	cerebras := "csk-" + g.str(rtLowNum, 48)
	add("vendor/cerebras", "cerebras inference key "+cerebras, cerebras)
	fireworks := "fw_" + g.str(rtAlnum, 24)
	add("vendor/fireworks", "fireworks.ai key is "+fireworks, fireworks)
	ops := "ops_eyJ" + g.str(rtURLSafe, 300)
	add("vendor/1password-service-account", "OP_SERVICE_ACCOUNT_TOKEN for CI: "+ops, ops)
	ccipat := "CCIPAT_" + g.str(rtAlnum, 22) + "_" + g.str(rtHex, 40)
	add("vendor/circleci-personal", "circleci api token "+ccipat, ccipat)
	bkua := "bkua_" + g.str(rtHex, 40)
	add("vendor/buildkite", "buildkite agent api: "+bkua, bkua)
	sgp := "sgp_" + g.str(rtHex, 16) + "_" + g.str(rtHex, 40)
	add("vendor/sourcegraph", "src login with "+sgp, sgp)
	hubspot := "pat-na1-" + rtUUID(g)
	add("vendor/hubspot-private-app", "hubspot private app token "+hubspot, hubspot)
	aio := "aio_" + g.str(rtAlnum, 28)
	add("vendor/adafruit-io", "adafruit io key "+aio, aio)
	rdme := "rdme_" + g.str(rtHex, 70)
	add("vendor/readme", "readme.com api key "+rdme, rdme)
	pnu := "pnu_" + g.str(rtAlnum, 36)
	add("vendor/prefect", "prefect cloud login -k "+pnu, pnu)
	duffel := "duffel_live_" + g.str(rtURLSafe, 43)
	add("vendor/duffel", "flight search uses "+duffel, duffel)
	ezak := "EZAK" + g.str(rtAlnum, 54)
	add("vendor/easypost", "easypost production key "+ezak, ezak)
	flw := "FLWSECK-" + g.str(rtHex, 32) + "-X"
	add("vendor/flutterwave", "flutterwave secret "+flw, flw)
	tfp := "tfp_" + g.str(rtAlnum, 44) + "_" + g.str(rtAlnum, 14)
	add("vendor/typeform", "typeform responses export: "+tfp, tfp)
	twBearer := "AAAAAAAAAAAAAAAAAAAAA" + g.str(rtAlnum, 30) + "%3D" + g.str(rtAlnum, 50)
	add("vendor/twitter-app-bearer", "x api v2 search works with app bearer "+twBearer, twBearer)
	absk := "ABSK" + g.str(rtB64, 128)
	add("vendor/aws-bedrock-api-key", "bedrock api key for the demo: "+absk, absk)
	b2 := "K005" + g.str(rtB64, 27)
	add("vendor/backblaze-b2", "b2 authorize-account 005"+g.str(rtHex, 22)+" "+b2, b2)
	scwSecret := rtUUID(g)
	add("vendor/scaleway", "SCW_ACCESS_KEY=SCW"+g.str(rtUpNum, 17)+"\nSCW_SECRET_KEY="+scwSecret, scwSecret)
	sfSession := "00D" + g.str(rtAlnum, 12) + "!" + g.str(rtURLSafe+".", 96)
	add("vendor/salesforce-session", "sf session id "+sfSession+" (sandbox)", sfSession)
	apim := g.str(rtHex, 32)
	add("header/azure-apim-subscription", "Ocp-Apim-Subscription-Key: "+apim, apim)
	hetzner := g.str(rtAlnum, 64)
	add("env/hcloud-token", "HCLOUD_TOKEN="+hetzner, hetzner)
	wandb := g.str(rtHex, 40)
	add("cli/wandb-login", "wandb login "+wandb, wandb)
	nsec := "nsec1" + g.str(rt3Bech32, 58)
	add("key/nostr-nsec", "my nostr key (keep safe): "+nsec, nsec)
	xprv := "xprv9s21ZrQH143K" + g.str(rt2Base58, 95)
	add("key/bip32-xprv", "hd wallet root "+xprv, xprv)
	codes := make([]string, 8)
	for i := range codes {
		codes[i] = g.str(rtHex, 5) + "-" + g.str(rtHex, 5)
	}
	add("recovery/github-codes", "github-recovery-codes.txt:\n"+strings.Join(codes, "\n")+"\n", codes[0], codes[4], codes[7])

	// --- HTTP: headers, cookies, query strings, forms -------------------
	esKey := rtB64Of(g.str(rtAlnum, 20) + ":" + g.str(rtURLSafe, 22))
	add("header/elastic-apikey-scheme", "Authorization: ApiKey "+esKey, esKey)
	railsTok := g.str(rtHex, 32)
	add("header/token-token-equals", `Authorization: Token token="`+railsTok+`"`, railsTok)
	deepl := rtUUID(g) + ":fx"
	add("header/deepl-auth-key", "Authorization: DeepL-Auth-Key "+deepl, deepl)
	zoho := "1000." + g.str(rtHex, 32) + "." + g.str(rtHex, 32)
	add("header/zoho-oauthtoken", "Authorization: Zoho-oauthtoken "+zoho, zoho)
	curlV := g.str(rtURLSafe, 48)
	add("log/curl-verbose-request",
		"> GET /v1/me HTTP/2\n> Host: api.acme.io\n> user-agent: curl/8.5.0\n> authorization: Bearer "+curlV+"\n> accept: */*\n>\n< HTTP/2 200", curlV)
	harTok := g.str(rtURLSafe, 48)
	add("log/har-header-name-value",
		`"headers": [{"name": "Accept", "value": "application/json"}, {"name": "Authorization", "value": "Bearer `+harTok+`"}]`, harTok)
	xauth := g.str(rtAlnum, 40)
	add("header/x-auth-token-log", "2024-06-01 12:00:00 DEBUG request headers: {'User-Agent': 'python-requests/2.32', 'X-Auth-Token': '"+xauth+"'}", xauth)
	xshop := "shpat_" + g.str(rtHex, 32)
	add("header/x-shopify-access-token", "X-Shopify-Access-Token: "+xshop, xshop)
	apikeyHdr := g.jwt(`{"iss":"supabase","role":"service_role"}`)
	add("header/apikey-lowercase", "curl https://x.supabase.co/rest/v1/orders -H \"apikey: "+apikeyHdr+"\"", apikeyHdr)
	phpsess := g.str(rtLowNum, 26)
	add("cookie/phpsessid", "Cookie: PHPSESSID="+phpsess+"; lang=en", phpsess)
	jsess := strings.ToUpper(g.str(rtHex, 32))
	add("cookie/jsessionid-set-cookie", "Set-Cookie: JSESSIONID="+jsess+"; Path=/app; Secure; HttpOnly", jsess)
	nextAuth := g.str(rtURLSafe, 120)
	add("cookie/next-auth-session", "cookie: __Secure-next-auth.session-token="+nextAuth+"; __Host-next-auth.csrf-token="+g.str(rtHex, 64), nextAuth)
	laravel := g.str(rtB64, 200)
	add("cookie/laravel-session", "Cookie: XSRF-TOKEN=abc; laravel_session="+laravel, laravel)
	aspnet := "CfDJ8" + g.str(rtURLSafe, 300)
	add("cookie/aspnetcore-identity", "Cookie: .AspNetCore.Identity.Application="+aspnet, aspnet)
	qAccess := g.str(rtURLSafe, 40)
	add("url/query-apikey-camel", "GET https://api.weather.io/v3/forecast?lat=48.8&lon=2.3&apiKey="+qAccess+"&units=m", qAccess)
	qPriv := "glpat-" + g.str(rtURLSafe, 20)
	add("url/query-private-token", "https://gitlab.acme.io/api/v4/projects?private_token="+qPriv, qPriv)
	qAuth := g.str(rtAlnum, 40)
	add("url/query-firebase-auth", "https://acme-default-rtdb.firebaseio.com/users.json?auth="+qAuth, qAuth)
	qHapi := rtUUID(g)
	add("url/query-hapikey", "https://api.hubapi.com/contacts/v1/lists/all/contacts/all?hapikey="+qHapi+"&count=100", qHapi)
	qAccessKey := g.str(rtHex, 32)
	add("url/query-access-key", "http://api.exchangerate.host/live?access_key="+qAccessKey+"&source=EUR", qAccessKey)
	wpPw := g.urlPw(14)
	add("form/wordpress-login", "POST /wp-login.php HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\n\nlog=admin&pwd="+wpPw+"&wp-submit=Log+In&testcookie=1", wpPw)
	jPw := g.urlPw(14)
	add("form/j-security-check", "POST /app/j_security_check j_username=admin&j_password="+jPw, jPw)
	logQ := g.urlPw(14)
	add("log/access-log-percent-encoded-query",
		`10.1.2.3 - - [01/Jun/2024:12:00:00 +0000] "GET /login?next=%2Fadmin%3Fuser%3Dops%26password%3D`+logQ+` HTTP/1.1" 302 0`, logQ)

	// --- Stack traces and dumps -----------------------------------------
	javaTS := g.pw(16)
	add("trace/java-tostring-properties",
		"Caused by: java.lang.IllegalStateException: bad config DataSourceProperties{url=jdbc:postgresql://db/app, username=app, password="+javaTS+", driver=org.postgresql.Driver}\n\tat com.acme.Boot.main(Boot.java:17)", javaTS)
	axios := g.pw(16)
	add("trace/node-axios-error",
		"AxiosError: Request failed with status code 401\n    at settle (node_modules/axios/lib/core/settle.js:19:12) {\n  config: {\n    auth: { username: 'svc', password: '"+axios+"' },\n    url: 'https://api.acme.io/v1/sync'\n  }\n}", axios)
	rustDbg := g.pw(16)
	add("trace/rust-debug-struct",
		`thread 'main' panicked at src/main.rs:12:5: connect failed: Config { host: "db", user: "app", password: "`+rustDbg+`", port: 5432 }`, rustDbg)
	djangoPw := g.pw(16)
	add("trace/django-settings-dict",
		"DATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql', 'NAME': 'app', 'USER': 'app', 'PASSWORD': '"+djangoPw+"', 'HOST': 'db'}}", djangoPw)
	exPw := g.pw(16)
	add("trace/elixir-map", `** (DBConnection.ConnectionError) connection not available: %{hostname: "db", username: "app", password: "`+exPw+`"}`, exPw)

	// --- SQL ------------------------------------------------------------
	alterRole := g.pw(16)
	add("sql/alter-role-password", "ALTER ROLE app WITH LOGIN PASSWORD '"+alterRole+"';", alterRole)
	mysqlNative := g.pw(16)
	add("sql/mysql-identified-with-by",
		"ALTER USER 'root'@'localhost' IDENTIFIED WITH mysql_native_password BY '"+mysqlNative+"';", mysqlNative)
	mssqlLogin := g.pw(16)
	add("sql/mssql-create-login", "CREATE LOGIN app_reader WITH PASSWORD = '"+mssqlLogin+"', CHECK_POLICY = OFF;", mssqlLogin)
	oraUnquoted := g.urlPw(14)
	add("sql/oracle-identified-by-unquoted", "CREATE USER scott IDENTIFIED BY "+oraUnquoted+" DEFAULT TABLESPACE users;", oraUnquoted)
	setPw := g.pw(16)
	add("sql/set-password-for", "SET PASSWORD FOR 'app'@'%' = PASSWORD('"+setPw+"');", setPw)
	snow := g.pw(16)
	add("sql/snowflake-create-user", "create user loader password = '"+snow+"' default_role = loader must_change_password = false;", snow)
	updPw := g.pw(16)
	add("sql/update-set-password", "UPDATE admin_users SET password = '"+updPw+"' WHERE email = 'ops@acme.io';", updPw)
	fdw := g.pw(16)
	add("sql/postgres-user-mapping",
		"CREATE USER MAPPING FOR app SERVER legacy OPTIONS (user 'legacy_ro', password '"+fdw+"');", fdw)
	chPw := g.pw(16)
	add("sql/clickhouse-plaintext", "CREATE USER grafana IDENTIFIED WITH plaintext_password BY '"+chPw+"';", chPw)
	cass := g.pw(16)
	add("sql/cassandra-create-role", "CREATE ROLE app WITH PASSWORD = '"+cass+"' AND LOGIN = true;", cass)
	aclPw := g.urlPw(16)
	add("redis/acl-setuser", "ACL SETUSER app on >"+aclPw+" ~cache:* +@read +@write", aclPw)
	authPw := g.urlPw(20)
	add("redis/auth-command", "127.0.0.1:6379> AUTH default "+authPw+"\nOK", authPw)
	cfgSet := g.urlPw(20)
	add("redis/config-set-requirepass", "redis-cli CONFIG SET requirepass "+cfgSet, cfgSet)
	mongoUser := g.pw(16)
	add("mongo/create-user", `db.createUser({user: "app", pwd: "`+mongoUser+`", roles: [{role: "readWrite", db: "shop"}]})`, mongoUser)

	// --- Code -----------------------------------------------------------
	javaBuilder := g.pw(16)
	add("java/builder-password",
		"DataSource ds = DataSourceBuilder.create()\n    .url(\"jdbc:postgresql://db/app\")\n    .username(\"app\")\n    .password(\""+javaBuilder+"\")\n    .build();", javaBuilder)
	javaSetter := g.pw(16)
	add("java/set-password-call", `config.setUsername("app");`+"\n"+`config.setPassword("`+javaSetter+`");`, javaSetter)
	javaPA := g.pw(16)
	add("java/password-authentication", `return new PasswordAuthentication("smtp-user", "`+javaPA+`".toCharArray());`, javaPA)
	jdbcPos := g.pw(16)
	add("java/drivermanager-positional", `Connection c = DriverManager.getConnection("jdbc:mysql://db/shop", "root", "`+jdbcPos+`");`, jdbcPos)
	csCred := g.pw(16)
	add("csharp/network-credential", `client.Credentials = new NetworkCredential("svc_mail", "`+csCred+`");`, csCred)
	kotlinKey := g.str(rtAlnum, 40)
	add("kotlin/val-api-key", `private val apiKey = "`+kotlinKey+`"`, kotlinKey)
	swiftSecret := g.str(rtURLSafe, 40)
	add("swift/let-client-secret", `let clientSecret = "`+swiftSecret+`"`, swiftSecret)
	jsDefault := g.str(rtAlnum, 40)
	add("js/env-or-default", `const token = process.env.API_TOKEN || "`+jsDefault+`";`, jsDefault)
	jsNullish := g.pw(16)
	add("ts/env-nullish-default", `const dbPassword = process.env.DB_PASSWORD ?? '`+jsNullish+`';`, jsNullish)
	pyGetenv := g.pw(16)
	add("python/getenv-default", `DB_PASSWORD = os.getenv("DB_PASSWORD", "`+pyGetenv+`")`, pyGetenv)
	goCmp := g.pw(16)
	add("go/cmp-or-getenv", `pw := cmp.Or(os.Getenv("DB_PASSWORD"), "`+goCmp+`")`, goCmp)
	shDefault := g.pw(16)
	add("shell/parameter-default", `psql "host=db user=app password=${DB_PASSWORD:-`+shDefault+`}"`, shDefault)
	dockerEnv := g.str(rtAlnum, 40)
	add("dockerfile/env-token", "FROM node:22-alpine\nENV API_TOKEN="+dockerEnv+"\nRUN npm ci", dockerEnv)
	dockerLegacy := g.str(rtAlnum, 40)
	add("dockerfile/env-legacy-blank", "FROM python:3.12-slim\nENV SENTRY_AUTH_TOKEN "+dockerLegacy+"\nRUN pip install -r requirements.txt", dockerLegacy)
	dockerArg := g.pw(16)
	add("dockerfile/arg-default", "ARG DB_PASSWORD="+dockerArg+"\nRUN ./migrate.sh", dockerArg)
	makePw := g.pw(16)
	add("makefile/conditional-assign", "DB_USER ?= app\nDB_PASS ?= "+makePw+"\nmigrate:\n\tmigrate -database postgres://$(DB_USER):$(DB_PASS)@db/app up", makePw)
	phpVar := g.pw(16)
	add("php/variable-assign", "<?php\n$db_host = 'localhost';\n$db_password = '"+phpVar+"';\n", phpVar)
	phpPDO := g.pw(16)
	add("php/pdo-positional", `$pdo = new PDO('mysql:host=db;dbname=shop', 'root', '`+phpPDO+`');`, phpPDO)
	rubyCfg := g.str(rtAlnum, 40)
	add("ruby/config-api-key", "Acme.configure do |config|\n  config.api_key = '"+rubyCfg+"'\nend", rubyCfg)
	rubySym := g.pw(16)
	add("ruby/symbol-hash", `ActiveRecord::Base.establish_connection(adapter: "postgresql", username: "app", password: "`+rubySym+`")`, rubySym)
	exCfg := g.pw(16)
	add("elixir/config-repo", "config :shop, Shop.Repo,\n  username: \"app\",\n  password: \""+exCfg+"\",\n  hostname: \"db\"", exCfg)
	perl := g.pw(16)
	add("perl/my-pass", "my $dbh = DBI->connect($dsn, 'app', '"+perl+"') or die;", perl)
	luaTok := g.str(rtAlnum, 40)
	add("lua/local-token", `local token = "`+luaTok+`"`, luaTok)
	rSet := "sk-proj-" + g.str(rtURLSafe, 74) + "T3Blbk" + "FJ" + g.str(rtURLSafe, 74)
	add("r/sys-setenv", `Sys.setenv(OPENAI_API_KEY = "`+rSet+`")`, rSet)
	psHdr := g.str(rtAlnum, 40)
	add("powershell/headers-hashtable", `Invoke-RestMethod -Uri $u -Headers @{ Authorization = "Bearer `+psHdr+`" }`, psHdr)
	propsPut := g.pw(16)
	add("java/props-setproperty", `props.setProperty("sasl.password", "`+propsPut+`");`, propsPut)
	cDefine := g.str(rtAlnum, 40)
	add("c/define-api-key", `#define API_KEY "`+cDefine+`"`, cDefine)
	goStructTag := g.str(rtAlnum, 40)
	add("go/map-literal-secret", `cfg := map[string]string{"region": "eu", "secret": "`+goStructTag+`"}`, goStructTag)

	// --- Command lines --------------------------------------------------
	curlUser := g.pw(14)
	add("cli/curl-user-long", "curl --user deploy:"+curlUser+" -X POST https://ci.acme.io/job/release/build", curlUser)
	curlData := g.urlPw(14)
	add("cli/curl-data-password", "curl -X POST https://acme.io/login -d 'username=ops&password="+curlData+"'", curlData)
	curlOauth := g.str(rtURLSafe, 48)
	add("cli/curl-oauth2-bearer", "curl --oauth2-bearer "+curlOauth+" https://api.acme.io/v1/me", curlOauth)
	wget := g.pw(14)
	add("cli/wget-http-password", "wget --http-user=ci --http-password="+wget+" https://artifacts.acme.io/build.zip", wget)
	smbclient := g.urlPw(14)
	add("cli/smbclient-percent", "smbclient //fs01/share -U 'ACME\\svc%"+smbclient+"' -c 'ls'", smbclient)
	cifs := g.urlPw(14)
	add("cli/mount-cifs-options", "mount -t cifs //fs01/backup /mnt/backup -o username=svc,password="+cifs+",vers=3.0", cifs)
	rdp := g.pw(14)
	add("cli/xfreerdp-slash-p", "xfreerdp /v:10.0.0.20 /u:Administrator /p:"+rdp+" /size:1920x1080", rdp)
	psexec := g.pw(14)
	add("cli/psexec-p", `psexec \\app01 -u ACME\admin -p `+psexec+` cmd.exe`, psexec)
	zip := g.urlPw(14)
	add("cli/zip-P", "zip -r -P "+zip+" backup.zip ./exports", zip)
	sevenZ := g.urlPw(14)
	add("cli/7z-p-glued", "7z a -p"+sevenZ+" -mhe=on secrets.7z ./keys", sevenZ)
	gpgPass := g.pw(14)
	add("cli/gpg-passphrase", "gpg --batch --yes --passphrase '"+gpgPass+"' -d backup.tar.gpg | tar x", gpgPass)
	keytool := g.urlPw(14)
	add("cli/keytool-storepass", "keytool -importkeystore -srckeystore a.p12 -destkeystore b.jks -storepass "+keytool+" -keypass "+keytool, keytool)
	vaultPut := g.pw(16)
	add("cli/vault-kv-put", "vault kv put secret/prod/db username=app password="+vaultPut, vaultPut)
	ssmPut := g.pw(16)
	add("cli/aws-ssm-securestring", "aws ssm put-parameter --name /prod/db/password --type SecureString --value '"+ssmPut+"'", ssmPut)
	flyPw := g.pw(16)
	add("cli/fly-secrets-set", "fly secrets set DB_PASSWORD="+flyPw+" -a shop-api", flyPw)
	ghBody := g.str(rtAlnum, 40)
	add("cli/gh-secret-set-body", "gh secret set DEPLOY_TOKEN --body "+ghBody+" --repo acme/api", ghBody)
	chpw := g.pw(14)
	add("cli/chpasswd", "echo 'root:"+chpw+"' | chpasswd", chpw)
	opensslPasswd := g.pw(14)
	add("cli/openssl-passwd", "useradd -m -p \"$(openssl passwd -6 '"+opensslPasswd+"')\" deploy", opensslPasswd)
	redisA := g.urlPw(20)
	add("cli/redis-cli-a", "redis-cli -h cache.internal -a "+redisA+" --no-auth-warning info", redisA)
	mosq := g.urlPw(14)
	add("cli/mosquitto-pub-P", "mosquitto_pub -h broker -u sensor -P "+mosq+" -t home/temp -m 21.5", mosq)
	sshN := g.pw(14)
	add("cli/ssh-keygen-N", "ssh-keygen -t ed25519 -f ~/.ssh/deploy -N '"+sshN+"' -C deploy", sshN)
	mysqladmin := g.pw(14)
	add("cli/mysqladmin-password", "mysqladmin -u root password '"+mysqladmin+"'", mysqladmin)
	cliSecret := g.str(rtURLSafe, 40)
	add("cli/client-secret-flag", "az ad sp create-for-rbac ... && az login --service-principal -u "+rtUUID(g)+" --password "+cliSecret+" --tenant acme.onmicrosoft.com", cliSecret)
	apiKeyFlag := g.str(rtAlnum, 40)
	add("cli/api-key-equals", "./bin/ingest --source s3://acme-logs --api-key="+apiKeyFlag+" --dry-run", apiKeyFlag)
	splitPw := g.pw(14)
	add("cli/line-continuation-password", "mysql \\\n  --host=db.internal \\\n  --user=root \\\n  --password="+splitPw+" \\\n  shop", splitPw)

	// --- Passwords in words ---------------------------------------------
	nl := g.pw(14)
	add("words/dutch", "het wachtwoord van de NAS is "+nl, nl)
	sv := g.pw(14)
	add("words/swedish", "lösenordet till routern är "+sv, sv)
	no := g.pw(14)
	add("words/norwegian", "passordet til wifi er "+no, no)
	da := g.pw(14)
	add("words/danish", "adgangskoden er "+da, da)
	fi := g.pw(14)
	add("words/finnish", "palvelimen salasana on "+fi, fi)
	cs := g.pw(14)
	add("words/czech", "heslo k serveru je "+cs, cs)
	hu := g.pw(14)
	add("words/hungarian", "a jelszó: "+hu, hu)
	ro := g.pw(14)
	add("words/romanian", "parola pentru contul de admin este "+ro, ro)
	id := g.pw(14)
	add("words/indonesian", "kata sandi server adalah "+id, id)
	th := g.pw(14)
	add("words/thai", "รหัสผ่าน wifi คือ "+th, th)
	he := g.pw(14)
	add("words/hebrew", "הסיסמה לשרת היא "+he, he)
	fa := g.pw(14)
	add("words/persian", "رمز عبور سرور: "+fa, fa)
	uk := g.pw(14)
	add("words/ukrainian", "пароль до сервера — "+uk, uk)
	zhTW := g.pw(14)
	add("words/chinese-traditional", "資料庫密碼是 "+zhTW, zhTW)
	jaPin := g.pw(12)
	add("words/japanese-ango", "暗号: "+jaPin, jaPin)
	reversed := g.pw(14)
	add("words/value-before-keyword", "use "+reversed+" as the password for the staging box", reversed)
	isThe := g.pw(14)
	add("words/value-is-the-password", isThe+" is the new admin password, don't lose it", isThe)
	quotedBefore := g.str(rtLower, 5) + "-" + g.str(rtUpNum, 4) + "-" + g.str(rtLower, 5)
	add("words/quoted-is-your-passphrase", "'"+quotedBefore+"' is your passphrase. Keep it offline.", quotedBefore)
	arrow := g.str(rtAlnum, 32)
	add("words/api-token-arrow", "API token -> "+arrow, arrow)
	arrowPw := g.pw(14)
	add("words/password-arrow-chat", "guest wifi password -> "+arrowPw+" (changes monthly)", arrowPw)
	passcode := g.pw(12)
	add("words/passcode", "the door passcode is "+passcode, passcode)
	secretIs := g.str(rtURLSafe, 32)
	add("words/the-secret-is", "the webhook secret is "+secretIs+" (HMAC-SHA256)", secretIs)
	loginSlash := g.pw(12)
	add("words/login-slash-pair", "login: admin / "+loginSlash, loginSlash)

	// --- Markdown, YAML scalars, escapes --------------------------------
	mdBold := g.pw(14)
	add("markdown/bold-label", "**Password:** "+mdBold+"\n**User:** admin", mdBold)
	mdCode := g.pw(14)
	add("markdown/inline-code-assignment", "set `DB_PASSWORD="+mdCode+"` in the shell before running the migration", mdCode)
	mdKV := g.str(rtAlnum, 40)
	add("markdown/key-value-table", "| Variable | Value |\n|---|---|\n| `API_HOST` | api.acme.io |\n| `API_SECRET` | `"+mdKV+"` |", mdKV)
	yamlFolded := g.str(rtURLSafe, 48)
	add("yaml/folded-block-token", "auth:\n  token: >-\n    "+yamlFolded+"\n  ttl: 3600\n", yamlFolded)
	yamlLiteral := g.pw(16)
	add("yaml/literal-block-password", "db:\n  password: |\n    "+yamlLiteral+"\n", yamlLiteral)
	yamlFlow := g.pw(16)
	add("yaml/flow-mapping", "db: {host: db.internal, user: app, password: "+yamlFlow+"}\n", yamlFlow)
	yamlAnchor := g.pw(16)
	add("yaml/anchor-password", "defaults: &defaults\n  password: &pw "+yamlAnchor+"\nprod:\n  <<: *defaults\n", yamlAnchor)
	escQuote := g.urlPw(8) + `\"` + g.urlPw(8)
	add("json/escaped-quote-in-password", `{"user":"app","password":"`+escQuote+`"}`, escQuote)
	htmlQuot := g.pw(14)
	add("html/quot-entities", `<pre>{&quot;password&quot;: &quot;`+htmlQuot+`&quot;}</pre>`, htmlQuot)
	jsonURL := g.str(rtAlnum, 40)
	add("url/encoded-json-api-key", "https://acme.io/cb?state=%7B%22api_key%22%3A%22"+jsonURL+"%22%7D", jsonURL)

	// --- Keys in odd wrappings ------------------------------------------
	oneLine := g.pemLines("MIIEowIBAAKCAQEA", 6, 64)
	add("pem/one-line-spaces",
		"PRIVATE_KEY=\"-----BEGIN RSA PRIVATE KEY----- "+strings.Join(oneLine, " ")+" -----END RSA PRIVATE KEY-----\"", oneLine[1], oneLine[4])
	pyTriple := g.pemLines("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 5, 64)
	add("pem/python-triple-quoted",
		"KEY = \"\"\"-----BEGIN PRIVATE KEY-----\n"+strings.Join(pyTriple, "\n")+"\n-----END PRIVATE KEY-----\"\"\"", pyTriple[1], pyTriple[3])
	heredoc := g.pemLines("MHcCAQEEI", 3, 64)
	add("pem/terraform-heredoc",
		"private_key = <<EOT\n-----BEGIN EC PRIVATE KEY-----\n"+strings.Join(heredoc, "\n")+"\n-----END EC PRIVATE KEY-----\nEOT", heredoc[0], heredoc[1])
	cLines := g.pemLines("MIIEpAIBAAKCAQEA", 5, 64)
	add("pem/c-string-lines",
		"static const char *key =\n    \"-----BEGIN RSA PRIVATE KEY-----\\n\"\n    \""+strings.Join(cLines, "\\n\"\n    \"")+"\\n\"\n    \"-----END RSA PRIVATE KEY-----\\n\";", cLines[1], cLines[3])
	dbl := g.pemLines("MIIEvgIBADANBgkqhkiG9w0BAQEFAASC", 4, 64)
	add("pem/double-escaped-in-log",
		`{"msg":"loaded config","raw":"{\"private_key\":\"-----BEGIN PRIVATE KEY-----\\n`+strings.Join(dbl, `\\n`)+`\\n-----END PRIVATE KEY-----\\n\"}"}`, dbl[1], dbl[2])
	dsa := g.pemLines("MIIBuwIBAAKBgQ", 5, 64)
	add("pem/dsa", "-----BEGIN DSA PRIVATE KEY-----\n"+strings.Join(dsa, "\n")+"\n-----END DSA PRIVATE KEY-----", dsa[1], dsa[3])
	ssh2 := g.pemLines("P2/56wAAA", 5, 70)
	add("pem/ssh2-encrypted",
		"---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: \"rsa-key-20240601\"\n"+strings.Join(ssh2, "\n")+"\n---- END SSH2 ENCRYPTED PRIVATE KEY ----", ssh2[1], ssh2[3])
	ovpnKey := g.pemLines("MIIEvAIBADANBgkqhkiG9w0BAQEFAASC", 5, 64)
	ovpnTA := make([]string, 16)
	for i := range ovpnTA {
		ovpnTA[i] = g.str(rtHex, 32)
	}
	add("ovpn/inline-key-and-tls-auth",
		"client\nremote vpn.acme.io 1194\n<key>\n-----BEGIN PRIVATE KEY-----\n"+strings.Join(ovpnKey, "\n")+"\n-----END PRIVATE KEY-----\n</key>\n<tls-auth>\n-----BEGIN OpenVPN Static key V1-----\n"+
			strings.Join(ovpnTA, "\n")+"\n-----END OpenVPN Static key V1-----\n</tls-auth>", ovpnKey[2], ovpnTA[3])
	xmlPem := g.pemLines("MIIEowIBAAKCAQEA", 5, 64)
	add("pem/xml-element",
		"<signing>\n  <privateKey>-----BEGIN RSA PRIVATE KEY-----\n"+strings.Join(xmlPem, "\n")+"\n-----END RSA PRIVATE KEY-----</privateKey>\n</signing>", xmlPem[1], xmlPem[3])
	p12 := "MIIKcQIBAzCCCjcGCSqGSIb3DQEHAaCCCigEggokMIIKIDCCBNcGCSqGSIb3DQEHBqCCBMgw" + g.str(rtB64, 400)
	add("k8s/keystore-p12-data", "kind: Secret\ntype: Opaque\ndata:\n  keystore.p12: "+p12+"\n", p12)
	torKey := "ED25519-V3:" + g.str(rtB64, 86) + "=="
	add("key/tor-onion-service", "HiddenServiceDir key file: "+torKey, torKey)

	return out
}

// redTeam3Benign are near misses of the third probe.
func redTeam3Benign() []rtBenign {
	g := &rtGen{s: 0xC2B2AE3D27D4EB4F}
	var out []rtBenign
	add := func(name string, keyword bool, text string) {
		out = append(out, rtBenign{name, text, keyword})
	}

	// Hashes and ids in other places.
	add("hash/git-show-header", false, "commit "+g.str(rtHex, 40)+"\nAuthor: Jane Doe <jane@acme.io>\nDate:   Sat Jun 1 12:00:00 2024 +0200\n\n    Retry on 502")
	add("hash/gerrit-change-id", false, "Reviewed-on: https://review.acme.io/c/api/+/4821\nChange-Id: I"+g.str(rtHex, 40))
	add("hash/elf-build-id", false, "/usr/bin/app: ELF 64-bit LSB pie executable, x86-64, BuildID[sha1]="+g.str(rtHex, 40)+", stripped")
	add("hash/go-buildid", false, "$ go tool buildid ./app\n"+g.str(rtURLSafe, 20)+"/"+g.str(rtURLSafe, 20)+"/"+g.str(rtURLSafe, 20)+"/"+g.str(rtURLSafe, 20))
	add("hash/sha1sum-multiple", false, g.str(rtHex, 40)+"  a.tar.gz\n"+g.str(rtHex, 40)+"  b.tar.gz\n"+g.str(rtHex, 40)+"  c.tar.gz")
	add("hash/b3sum", false, "b3sum: "+g.str(rtHex, 64)+"  model.safetensors")
	add("hash/yarn-lock-integrity", false, "lodash@^4.17.21:\n  version \"4.17.21\"\n  resolved \"https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#"+g.str(rtHex, 40)+"\"\n  integrity sha512-"+g.str(rtB64, 86)+"==")
	add("hash/docker-pull-digest", false, "Digest: sha256:"+g.str(rtHex, 64)+"\nStatus: Downloaded newer image for postgres:16")
	add("hash/webpack-chunks", false, "main."+g.str(rtHex, 8)+".js  212 KiB\nvendors."+g.str(rtHex, 20)+".chunk.js  1.1 MiB")
	add("id/x-request-id", false, "X-Request-Id: "+rtUUID(g)+"\nX-Amzn-Trace-Id: Root=1-"+g.str(rtHex, 8)+"-"+g.str(rtHex, 24))
	add("id/idempotency-key", true, "Idempotency-Key: "+rtUUID(g))
	add("id/azure-ids-env", false, "AZURE_TENANT_ID="+rtUUID(g)+"\nAZURE_SUBSCRIPTION_ID="+rtUUID(g)+"\nAZURE_CLIENT_ID="+rtUUID(g))
	add("id/google-client-id", false, "GOOGLE_CLIENT_ID="+g.str(rtDigits, 12)+"-"+g.str(rtLowNum, 32)+".apps.googleusercontent.com")
	add("id/twilio-account-sid", false, "TWILIO_ACCOUNT_SID=AC"+g.str(rtHex, 32))
	add("id/windows-sid", false, "S-1-5-21-"+g.str(rtDigits, 10)+"-"+g.str(rtDigits, 10)+"-"+g.str(rtDigits, 10)+"-1104")
	add("id/ipfs-cidv0", false, "ipfs cat Qm"+g.str(rt2Base58, 44))
	add("id/eth-address", false, "send to 0x"+g.str(rtHex, 40)+" on mainnet")
	add("id/btc-bech32-address", false, "donations: bc1q"+g.str(rt3Bech32, 38))
	add("id/analytics", false, "gtag('config', 'G-"+g.str(rtUpNum, 10)+"'); // GTM-"+g.str(rtUpNum, 7))
	add("id/sealed-cookie-ga", false, "Cookie: _ga=GA1.2."+g.str(rtDigits, 10)+"."+g.str(rtDigits, 10)+"; theme=dark")
	add("id/stripe-publishable", false, "Stripe.js init: pk_live_51"+g.str(rtAlnum, 97))
	add("id/mapbox-public", false, "mapboxgl.accessToken = 'pk.eyJ1IjoiYWNtZSIsImEiOiJ"+g.str(rtURLSafe, 22)+"In0."+g.str(rtURLSafe, 22)+"';")
	add("id/resource-version", false, "metadata:\n  resourceVersion: \"48213377\"\n  generation: 7\n  uid: "+rtUUID(g))

	// Public keys and signatures.
	pub := g.pemLines("MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", 6, 64)
	add("pubkey/pem-public-key", false, "-----BEGIN PUBLIC KEY-----\n"+strings.Join(pub, "\n")+"\n-----END PUBLIC KEY-----")
	add("pubkey/age-recipient", false, "age -r age1"+g.str(rt3Bech32, 58)+" -o secrets.age secrets.txt")
	add("pubkey/nostr-npub", false, "follow me: npub1"+g.str(rt3Bech32, 58))
	add("pubkey/wireguard-peer", false, "[Peer]\nPublicKey = "+g.str(rtB64, 43)+"=\nAllowedIPs = 10.0.0.0/24\nEndpoint = vpn.acme.io:51820")
	add("pubkey/ecdsa-authorized-key", false, "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB"+g.str(rtB64, 87)+"= ops@bastion")
	add("pubkey/jwks-rsa", false, `{"keys":[{"kty":"RSA","kid":"2024-06","use":"sig","alg":"RS256","n":"`+g.str(rtURLSafe, 342)+`","e":"AQAB"}]}`)
	sig := g.pemLines("iQIzBAABCAAdFiEE", 6, 64)
	add("pubkey/pgp-signature", false, "-----BEGIN PGP SIGNATURE-----\n\n"+strings.Join(sig, "\n")+"\n="+g.str(rtB64, 4)+"\n-----END PGP SIGNATURE-----")
	add("pubkey/xpub", false, "watch-only wallet xpub661MyMwAqRbc"+g.str(rt2Base58, 95))
	add("pubkey/kube-ca-data", false, "clusters:\n- cluster:\n    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t"+g.str(rtB64, 300)+"\n    server: https://10.0.0.1:6443")
	add("mail/dkim-signature", false, "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=acme.io; s=sel1;\n\th=from:to:subject:date; bh="+g.str(rtB64, 43)+"=;\n\tb="+g.str(rtB64, 76)+"\n\t "+g.str(rtB64, 76)+"==")
	add("http/csp-nonce", false, "Content-Security-Policy: default-src 'self'; script-src 'nonce-"+g.str(rtB64, 22)+"=='")

	// Encrypted at rest (meant to be committed).
	vault := make([]string, 6)
	for i := range vault {
		vault[i] = g.str(rtHex, 80)
	}
	add("encrypted/ansible-vault-inline", true, "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  "+strings.Join(vault, "\n  ")+"\n")
	add("encrypted/sops-value", true, "password: ENC[AES256_GCM,data:"+g.str(rtB64, 24)+"==,iv:"+g.str(rtB64, 43)+"=,tag:"+g.str(rtB64, 22)+"==,type:str]")

	// Base64 media.
	add("base64/jpeg-data-uri", false, `<img src="data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/`+g.str(rtB64, 240)+`">`)
	add("base64/gif-data-uri", false, `background-image: url(data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7);`)
	add("base64/woff2-font", false, `@font-face { src: url(data:font/woff2;base64,d09GMgABAAAAA`+g.str(rtB64, 300)+`) format("woff2"); }`)

	// Placeholders and references.
	add("placeholder/windows-percent", true, `sqlcmd -S db -U sa -P %SA_PASSWORD% -Q "SELECT 1"`)
	add("placeholder/azure-pipelines-macro", true, "- script: docker login -u $(REGISTRY_USER) -p $(REGISTRY_PASSWORD) acme.azurecr.io")
	add("placeholder/postman-braces", true, `{"username": "{{username}}", "password": "{{password}}"}`)
	add("placeholder/python-format", true, `dsn = "postgresql://{user}:{password}@{host}/{db}".format(**cfg)`)
	add("placeholder/sql-bind-params", true, "UPDATE users SET password_hash = $1, updated_at = now() WHERE id = $2")
	add("placeholder/tsql-parameter", true, "CREATE LOGIN @login WITH PASSWORD = @password;")
	add("placeholder/psql-variable", true, "CREATE ROLE app LOGIN PASSWORD :'app_password';")
	add("placeholder/changeme", true, "DB_PASSWORD=changeme  # replace before deploying")
	add("placeholder/x-run", true, "api_key: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")
	add("placeholder/replace-me", true, "client_secret = \"REPLACE_ME\"")
	add("placeholder/npmrc-env", true, "//registry.npmjs.org/:_authToken=${NPM_TOKEN}")
	add("placeholder/ansible-jinja", true, "mysql_root_password: \"{{ vault_mysql_root_password }}\"")
	add("placeholder/gha-github-token", true, "      - uses: actions/checkout@v4\n        with:\n          token: ${{ github.token }}")
	add("placeholder/pgpass-format-doc", true, "Each line of ~/.pgpass is hostname:port:database:username:password")
	add("placeholder/shell-default-var", true, `PGPASSWORD="${PGPASSWORD:-$(cat /run/secrets/pg)}" psql -h db`)
	add("placeholder/url-env-password", true, "DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app")
	add("placeholder/helm-existing-secret", true, "helm install db bitnami/postgresql --set auth.existingSecret=db-creds --set image.tag=16.3.0")
	add("placeholder/redis-auth-doc", true, "Clients must send AUTH <password> before any other command.")

	// Code that reads a secret from somewhere, holds none.
	add("code/getpass", true, `password = getpass.getpass("Password: ")`)
	add("code/request-form", true, `password = request.form["password"]`)
	add("code/environ-index", true, `conn = psycopg2.connect(password=os.environ["DB_PASSWORD"])`)
	add("code/js-process-env", true, "const cfg = { user: 'app', password: process.env.DB_PASSWORD, host: 'db' };")
	add("code/go-field-copy", true, "opts.Password = cfg.Password\nopts.Token = strings.TrimSpace(tok)")
	add("code/java-char-array", true, `char[] password = console.readPassword("Keystore password: ");`)
	add("code/html-password-input", true, `<input type="password" name="password" autocomplete="current-password" required>`)
	add("code/grant-type-password", true, "grant_type=password&scope=openid")
	add("code/token-type-bearer", true, `{"token_type":"bearer","expires_in":3600,"scope":"read"}`)
	add("code/json-schema-password", true, `{"password":{"type":"string","minLength":12,"format":"password"}}`)
	add("code/openapi-bearer", true, "securitySchemes:\n  bearerAuth:\n    type: http\n    scheme: bearer\n    bearerFormat: JWT")
	add("code/long-java-identifiers", false, "at org.springframework.aop.framework.AbstractSingletonProxyFactoryBean.afterPropertiesSet(AbstractSingletonProxyFactoryBean.java:201)")
	add("code/password-encoder-frame", true, "\tat com.acme.auth.BCryptPasswordEncoder.matches(BCryptPasswordEncoder.java:42)")
	add("code/keyerror-env", true, "KeyError: 'DB_PASSWORD'")

	// Keyword names with non-secret values.
	add("env/keyword-names-plain-values", true, "PASSWORD_MIN_LENGTH=12\nTOKEN_TTL=3600\nAUTH_ENABLED=true\nSESSION_COOKIE_SECURE=1")
	add("env/api-key-header-name", true, "API_KEY_HEADER=X-Api-Key")
	add("env/secret-manager-path", true, "DB_SECRET_ARN=arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db")
	add("yaml/token-description-block", true, "token:\n  description: |\n    The token is refreshed every hour by the sidecar.\n  required: true")

	// Command lines near the flag rules.
	add("cli/redis-cli-port", false, "redis-cli -h cache.internal -p 6379 ping")
	add("cli/zip-exclude", false, "zip -r out.zip ./dist -x '*.map'")
	add("cli/7z-compression", false, "7z a -mx9 -mmt4 archive.7z ./dist")
	add("cli/mount-credentials-file", true, "mount -t cifs //fs01/backup /mnt/backup -o credentials=/root/.smbcred,vers=3.0")
	add("cli/xfreerdp-no-password", false, "xfreerdp /v:10.0.0.20 /u:Administrator /size:1920x1080 /cert:ignore")
	add("cli/keytool-list", true, "keytool -list -v -keystore truststore.jks")
	add("cli/ssh-keygen-empty-N", false, "ssh-keygen -t ed25519 -f ~/.ssh/ci -N '' -C ci")
	add("cli/curl-data-json", false, `curl -X POST https://api.acme.io/v1/jobs -d '{"name":"nightly","cron":"0 3 * * *"}'`)
	add("cli/gpg-list-keys", false, "gpg --list-secret-keys --keyid-format=long")
	add("cli/password-stdin", true, "cat ~/ghcr.txt | docker login ghcr.io -u acme --password-stdin")
	add("cli/gh-secret-list", true, "gh secret list --repo acme/api")

	// SQL near misses.
	add("sql/identified-externally", false, "CREATE USER ops_sso IDENTIFIED EXTERNALLY;")
	add("sql/auth-socket", false, "ALTER USER 'root'@'localhost' IDENTIFIED WITH auth_socket;")
	add("sql/select-password-column", true, "SELECT email, password_changed_at FROM users WHERE password_changed_at < now() - interval '90 days';")

	// URLs without a password.
	add("url/user-no-password", false, "psql postgres://app@db.internal:5432/app")
	add("url/redis-host-port", false, "REDIS_URL=redis://cache.internal:6379/0")
	add("url/jdbc-no-password", false, "jdbc:postgresql://db:5432/app?sslmode=require&user=app&ApplicationName=etl")
	add("url/ipv6-port", false, "curl http://[::1]:8080/healthz")

	// Prose: docs and UIs in the new languages.
	add("prose/dutch-forgot", true, "Wachtwoord vergeten? Vraag een nieuwe link aan.")
	add("prose/swedish-forgot", true, "Glömt lösenordet? Klicka på länken i e-postmeddelandet.")
	add("prose/finnish-forgot", true, "Unohditko salasanasi? Vaihda se asetuksista.")
	add("prose/hebrew-forgot", true, "שכחת את הסיסמה? לחץ כאן לאיפוס.")
	add("prose/indonesian-forgot", true, "Lupa kata sandi? Hubungi administrator Anda.")
	add("prose/thai-policy", true, "รหัสผ่านต้องมีอย่างน้อย 12 ตัวอักษร")
	add("words/password-is-on-sticker", true, "the wifi password is on the sticker under the router")
	add("words/password-see-1password", true, "password: see 1Password item 'prod db'")
	add("words/token-expired", true, "2024-06-01T12:00:00Z WARN token expired at 2024-06-01T11:59:59Z, refreshing")
	add("words/login-failed", true, "login failed for user admin: invalid password (attempt 3 of 5)")
	add("markdown/env-doc-table", true, "| Variable | Description |\n|---|---|\n| `DB_PASSWORD` | Password of the database user |\n| `API_TOKEN` | Token for the upstream API |")
	add("test/go-fail-output", true, "--- FAIL: TestLogin/wrong_password (0.00s)\n    login_test.go:42: got status 200, want 401")
	add("test/assert-redacted", true, `assert.Equal(t, "[REDACTED]", got.Password)`)
	add("systemd/environment-plain", false, "[Service]\nEnvironment=\"GOMAXPROCS=4\" \"TZ=UTC\"\nExecStart=/usr/local/bin/app")
	add("nginx/proxy-pass-headers", true, "proxy_set_header X-Real-IP $remote_addr;\nproxy_set_header Authorization $http_authorization;")
	add("properties/no-secret", false, "server.port=8080\nspring.jpa.hibernate.ddl-auto=validate\nlogging.level.root=INFO")
	add("xml/pom-dependency", false, "<dependency>\n  <groupId>org.postgresql</groupId>\n  <artifactId>postgresql</artifactId>\n  <version>42.7.3</version>\n</dependency>")

	// Near misses of the classes the battery learnt from this probe.
	add("near/vendor-prefix-words", false, "run patchelf on the path, then fw_update_interval_secs=30, rnd_seed=42, aio_read() and re_compile_patterns; the pa-system and K001 units")
	add("near/vendor-prefixes-named", false, "Render keys start with rnd_, Pinecone's with pcsk_, LangSmith's with lsv2_pt_ and Buildkite's with bkua_.")
	add("id/airtable-object-ids", false, "base app"+g.str(rtAlnum, 14)+", table tbl"+g.str(rtAlnum, 14)+", record rec"+g.str(rtAlnum, 14))
	add("id/plaid-item-id", false, `{"item_id":"`+g.str(rtAlnum, 37)+`","institution_id":"ins_109508"}`)
	add("docs/xprv-vs-xpub", false, "Never paste an xprv anywhere; an xpub only lets a wallet watch addresses.")
	add("sql/identified-with-plugin-only", false, "ALTER USER 'app'@'%' IDENTIFIED WITH caching_sha2_password;")
	add("sql/password-function-bind", true, "SELECT user FROM mysql.user WHERE authentication_string = PASSWORD(@candidate);")
	add("code/get-password-two-args", true, `pw, err := keyring.Get("bourdon", "default") // the password, from the OS keyring`)
	add("code/setter-from-env", true, `config.setPassword(System.getenv("DB_PASSWORD"));`)
	add("code/with-token-placeholder", true, `client := api.New().WithToken("<token>")`)
	add("code/setter-not-a-secret", false, `field.setPasswordVisible(true); field.setHint("at least 12 characters");`)
	add("code/env-default-host", true, `const host = process.env.DB_HOST || "db.internal.acme.io";`)
	add("code/env-default-empty", true, `const token = process.env.API_TOKEN || "";`)
	add("code/define-non-secret", false, "#define API_VERSION \"v2.1.0\"\n#define TOKEN_TTL \"3600s\"")
	add("code/network-credential-variables", true, "client.Credentials = new NetworkCredential(user, password);")
	add("yaml/cloudformation-ref", true, "MasterUsername: admin\nMasterUserPassword: !Ref DBPassword")
	add("yaml/block-scalar-placeholder", true, "password: >-\n  ${DB_PASSWORD}\n")
	add("shell/expansion-error-message", true, `curl -H "Authorization: Bearer ${API_TOKEN:?API_TOKEN must be set}" https://api.acme.io`)
	add("markdown/bold-label-prose", true, "**Password:** see the team vault\n**Token**: rotated monthly")
	add("env/pwd-is-a-directory", false, "PWD=/home/ops/src\nOLDPWD=/home/ops\n{\"pwd\": \"/var/lib/app\"}")
	add("yaml/image-pull-secret", false, "imagePullSecret: regcred\nexistingSecret: grafana-admin")
	add("id/urn-secret-field", false, "resource urn:acme:secret:db-primary is managed by terraform")
	add("hash/sha1-then-header", false, "sha1: "+g.str(rtHex, 40)+"\nSize: 12345 bytes")
	add("base64/long-blob-json", false, `{"thumbnail":"`+g.str(rtB64, 400)+`"}`)
	add("prose/persian-forgot", true, "رمز عبور خود را فراموش کرده اید؟ با پشتیبانی تماس بگیرید.")
	add("words/passcode-required", true, "the passcode is required to unlock the app")
	add("env/access-key-placeholder", false, "access_key: ${S3_ACCESS_KEY}\nsecret_key: ${S3_SECRET_KEY}")
	add("apache/setenv-plain", false, "<VirtualHost *:443>\n  SetEnv APP_ENV production\n  SetEnv TOKEN_TTL 3600\n</VirtualHost>")
	add("dockerfile/env-legacy-plain", false, "ENV NODE_ENV production\nENV PATH /usr/local/bin:$PATH")
	add("prose/setenv-named-no-value", false, "use SetEnv DB_PASS from the vault include, not inline")
	add("nginx/proxy-set-header-variable-key", true, "proxy_set_header X-Api-Key $api_key_from_map;")
	add("words/value-is-the-token-endpoint", false, "https://sso.acme.io/oauth2/v1 is the token endpoint we call, and v2beta1 is the secret store API")
	add("words/decorated-is-the-password", true, "Summer2024 is the password pattern they banned, and Welcome1 is the password everyone tries.")
	add("code/connect-with-variables", true, "conn = DriverManager.getConnection(url, user, password);")
	add("code/connect-other-client", false, `ws.connect("wss://stream.acme.io", "orders", "snapshot")`)
	add("markdown/variables-defaults-table", true, "| Name | Default |\n|---|---|\n| `DB_PASSWORD_FILE` | `/run/secrets/db` |\n| `TOKEN_TTL` | `3600` |\n| `API_KEY` | `required` |")
	add("markdown/variables-example-table", false, "| Variable | Example |\n|---|---|\n| `SESSION_SECRET` | `openssl rand -hex 32` |\n| `SIGNING_SECRET` | see the vault |")
	add("code/arrow-member-access", false, "if (token->len > 0 && secret->data != NULL) return session_token -> next;")
	add("words/arrow-prose", true, "password -> see the vault entry prod/db; api key -> rotate monthly")
	add("cli/ssm-string-parameter", false, "aws ssm put-parameter --name /app/log-level --type String --value debug")
	add("cli/gh-secret-set-from-env", false, `gh secret set DEPLOY_TOKEN --body "$DEPLOY_TOKEN" --repo acme/api`)
	add("cli/gh-issue-body-prose", false, `gh issue create --title "Rotate secrets" --body "the secret scanner found 2 leaks in ci.yml"`)
	add("sql/identified-by-values-hash", false, "ALTER USER scott IDENTIFIED BY VALUES 'S:"+strings.ToUpper(g.str(rtHex, 60))+"';")
	add("sql/identified-by-bind", false, "CREATE USER app IDENTIFIED BY :app_pw DEFAULT TABLESPACE users;")
	add("prose/identified-by-researchers", false, "The flaw was identified by security researchers at Acme and fixed in 2.3.1.")
	add("jdbc/oracle-thin-no-credentials", false, "spring.datasource.url=jdbc:oracle:thin:@//db.internal:1521/ORCLPDB1")
	add("env/set-output-uid-pwd", false, "BASH=/bin/bash\nUID=1000\nEUID=1000\nPWD=/home/ops/src\nSHLVL=1")
	add("toml/cargo-manifest", false, "[package]\nname = \"acme-cli\"\nversion = \"0.4.2\"\nedition = \"2021\"\n\n[dependencies]\nserde = { version = \"1\", features = [\"derive\"] }")
	return out
}

func TestRedTeamProbe3(t *testing.T) {
	secrets, benign := redTeam3Secrets(), redTeam3Benign()
	if len(secrets) < 150 || len(benign) < 80 {
		t.Fatalf("%d secret and %d benign samples, want at least 150 and 80", len(secrets), len(benign))
	}
	// No name of the earlier probes is reused.
	taken := map[string]bool{}
	for _, s := range append(redTeamSecrets(), redTeam2Secrets()...) {
		taken[s.name] = true
	}
	for _, b := range append(redTeamBenign(), redTeam2Benign()...) {
		taken[b.name] = true
	}
	judgeProbe(t, "probe 3", secrets, benign, knownMisses3, knownFalsePositives3, taken)
}
