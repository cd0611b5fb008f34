package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPositionalPasswords: the passwords commands take as plain
// arguments, or after single-dash options, or echoed into them, are cut
// out; the same commands without one, and look-alikes, are left alone.
func TestPositionalPasswords(t *testing.T) {
	g := shapeGen{rand.New(rand.NewPCG(55, 89))}
	cases := []string{
		// htpasswd in batch mode.
		"htpasswd -b -c /etc/nginx/.htpasswd admin %s",
		"sudo htpasswd -cbB .htpasswd deploy %s",
		"htpasswd -bB -C 12 /etc/apache2/.htpasswd alice '%s'",
		"htpasswd -nb admin %s > auth",
		"$ htpasswd -nbB ci \"%s\"",
		// rabbitmqctl.
		"rabbitmqctl add_user billing %s",
		"sudo rabbitmqctl -n rabbit@mq1 change_password guest '%s' && echo ok",
		"rabbitmqctl authenticate_user app %s",
		// sqlplus.
		"sqlplus system/%s@//db.internal:1521/XEPDB1 @migrate.sql",
		"sqlplus -s scott/%s",
		"sqlplus 'app/%s@prod' as sysdba",
		// mysqladmin's password command, an exec form's -p.
		"mysqladmin -u root -p password %s",
		`      test: ["CMD", "mysqladmin", "ping", "-h", "localhost", "-uroot", "-p%s"]`,
		`command: ["mysql", "-uroot", "-p%s", "-e", "select 1"]`,
		// OpenSSL's pass:, keytool's -storepass, openssl enc -k.
		"openssl pkcs12 -export -in c.pem -inkey k.pem -out b.p12 -passout pass:%s",
		"openssl rsa -in enc.key -passin 'pass:%s' -out plain.key",
		"keytool -importkeystore -srckeystore a.p12 -destkeystore b.jks -deststorepass %s",
		"keytool -genkeypair -alias app -keystore app.jks -storepass %s -keypass x",
		"openssl enc -aes-256-cbc -in f -out f.enc -k %s",
		// Long options named by their ending.
		"wget --ftp-password %s ftp://files.acme.io/x",
		"wp core install --admin-password %s --url=x",
		// Samba's -U user%%password, PsExec's -p.
		`smbclient //fs01/share -U 'ACME\jane%%%s'`,
		`PsExec.exe \\host01 -u ACME\admin -p %s cmd`,
		// Echoed into the command.
		"echo 'root:%s' | chpasswd",
		`echo "deploy:%s" | sudo chpasswd`,
		"echo %s | passwd --stdin deploy",
		`echo -e "%s\n%s" | smbpasswd -a -s jane`,
	}
	for _, c := range cases {
		v := g.pw(12 + g.r.IntN(5))
		if strings.Count(c, "%s") == 2 {
			in := strings.Replace(c, "%s", v, 1)
			in = strings.Replace(in, "%s", "", 1)
			c = in[:strings.Index(in, `\n`)+2] + v + in[strings.Index(in, `\n`)+2:]
			if got := Span(c); strings.Contains(got, v[:len(v)-1]+`\n`) || !Flagged(c) {
				t.Errorf("Span(%q) = %q", c, got)
			}
			continue
		}
		in := strings.Replace(strings.Replace(c, "%s", v, 1), "%%", "%", -1)
		checkCaught(t, in, v)
	}
	for _, in := range []string{
		"Run htpasswd -c /etc/nginx/.htpasswd admin, then type the new password twice.",
		"htpasswd -b .htpasswd user password",
		"htpasswd -nb user pass",
		"htpasswd -B -C 10 .htpasswd admin",
		"htpasswd -D .htpasswd olduser",
		"rabbitmqctl list_users",
		"rabbitmqctl add_user billing",
		"rabbitmqctl add_vhost billing-prod",
		"rabbitmqctl delete_user guest now-please",
		"sqlplus / as sysdba",
		"sqlplus @script.sql",
		"sqlplus -v",
		"use a client/server model",
		"mysqladmin -u root -p status",
		"mysqladmin -u root -p password",
		"the mysqladmin password command changes it",
		"docs: `mysqladmin password NEW`, then restart",
		"openssl rsa -in k.pem -passin env:KEY_PASS -out p.pem",
		"openssl pkcs12 -in b.p12 -passin file:/run/secrets/p12 -nodes",
		"openssl req -passout stdin -new",
		"openssl pkcs12 -export -passout fd:3",
		"keytool -list -keystore app.jks -storepass $STOREPASS",
		"keytool -list -storepass:env STOREPASS",
		"curl -k https://localhost:8443/health",
		"openssl s_client -connect host:443",
		"psql --no-password -h db app",
		"gh auth login --with-token < token.txt",
		"tool --show-token status",
		"smbclient -L fs01 -U jane",
		"smbclient //fs01/share -N",
		"psexec \\\\host01 -s cmd",
		"echo 'hello world' | chpasswd",
		"cat users.txt | chpasswd",
		"echo $PW | passwd --stdin deploy",
		"echo 'a:b' | passwd deploy",
		"chpasswd < users.txt",
		"passwd alice",
		"echo ok | smbpasswd -a jane",
		"docker run -d -p 8080:80 nginx",
		"tar -czf out.tgz -C dir .",
	} {
		checkQuiet(t, in, strings.Contains(strings.ToLower(in), "password") || strings.Contains(in, "passwd") || strings.Contains(in, "keystore"))
	}
}

// TestSecretFlagsByTheirEnding: a long option whose name ends with a
// secret's name takes a secret; one that asks for none does not.
func TestSecretFlagsByTheirEnding(t *testing.T) {
	for name, want := range map[string]bool{
		"password": true, "db-password": true, "proxy-password": true, "registry-token": true,
		"client-secret": true, "vault-passphrase": true, "no-password": false, "show-token": false,
		"with-token": false, "password-file": false, "token-ttl": false, "passwordless": false,
		"skip-password": false, "prompt-password": false,
	} {
		if got := isSecretFlag(name); got != want {
			t.Errorf("isSecretFlag(%q) = %v", name, got)
		}
	}
}
