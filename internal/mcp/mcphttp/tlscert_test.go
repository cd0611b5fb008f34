package mcphttp

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"log/slog"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// writePair writes a self-signed certificate with serial and its key, and
// gives both files the modification time mod.
func writePair(t *testing.T, certFile, keyFile string, serial int64, mod time.Time) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "reload"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	for file, block := range map[string]*pem.Block{certFile: {Type: "CERTIFICATE", Bytes: der}, keyFile: {Type: "EC PRIVATE KEY", Bytes: keyDER}} {
		if err := os.WriteFile(file, pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(file, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
}

func TestTheCertificateIsReloadedWhenItsFilesChange(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	start := time.Unix(1_800_000_000, 0)
	writePair(t, certFile, keyFile, 1, start)
	c, err := LoadCertFiles(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	clock := start
	c.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	advance := func() { mu.Lock(); clock = clock.Add(CertCheckInterval); mu.Unlock() }

	// A real TLS listener with the configuration serve uses.
	ln, err := tls.Listen("tcp", "127.0.0.1:0", c.TLSConfig(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _ = conn.(*tls.Conn).Handshake(); conn.Close() }()
		}
	}()
	served := func() int64 {
		t.Helper()
		conn, err := tls.Dial("tcp", ln.Addr().String(), &tls.Config{InsecureSkipVerify: true})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		return conn.ConnectionState().PeerCertificates[0].SerialNumber.Int64()
	}
	if got := served(); got != 1 {
		t.Fatalf("serial %d at start", got)
	}
	// A renewal: served from the first handshake after the check interval.
	writePair(t, certFile, keyFile, 2, start.Add(time.Minute))
	if got := served(); got != 1 {
		t.Errorf("serial %d before the check interval, want the cached 1", got)
	}
	advance()
	if got := served(); got != 2 {
		t.Errorf("serial %d after the renewal, want 2", got)
	}
	// A half-written renewal (a key that does not match) keeps the
	// previous certificate; a complete one is then picked up.
	writePair(t, certFile, filepath.Join(dir, "other-key.pem"), 3, start.Add(2*time.Minute))
	advance()
	if got := served(); got != 2 {
		t.Errorf("serial %d after a broken renewal, want 2", got)
	}
	writePair(t, certFile, keyFile, 4, start.Add(3*time.Minute))
	advance()
	if got := served(); got != 4 {
		t.Errorf("serial %d after the fixed renewal, want 4", got)
	}
	// Files gone: the loaded certificate is still served.
	os.Remove(certFile)
	advance()
	if got := served(); got != 4 {
		t.Errorf("serial %d with the files gone, want 4", got)
	}
}

func TestLoadCertFilesRefusesABadPair(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadCertFiles(filepath.Join(dir, "none.pem"), filepath.Join(dir, "none.key")); err == nil {
		t.Error("missing files loaded")
	}
}
