package mcphttp

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// CertFiles serves a TLS certificate and key from files and follows them
// when they change (a renewal by certbot or an ACME client), with no
// restart: a handshake looks at the files' size and modification time, at
// most once every CertCheckInterval, and loads the pair again when either
// changed. A pair that does not load (a renewal half-written) is logged
// and the previous certificate kept; the load is tried again at the next
// check.
type CertFiles struct {
	certFile, keyFile string
	now               func() time.Time

	mu      sync.Mutex
	cert    *tls.Certificate
	stamp   [2]fileStamp
	checked time.Time
}

// CertCheckInterval is how often a handshake may look at the files.
const CertCheckInterval = 10 * time.Second

// fileStamp is what tells a changed file.
type fileStamp struct {
	size int64
	mod  time.Time
}

// LoadCertFiles loads the pair, which must be valid at start-up.
func LoadCertFiles(certFile, keyFile string) (*CertFiles, error) {
	c := &CertFiles{certFile: certFile, keyFile: keyFile, now: time.Now}
	stamp, err := c.stamps()
	if err != nil {
		return nil, fmt.Errorf("--tls-cert/--tls-key: %w", err)
	}
	if err := c.load(stamp); err != nil {
		return nil, err
	}
	c.checked = c.now()
	return c, nil
}

// TLSConfig returns a server configuration serving the pair; reloads and
// their problems are logged to log.
func (c *CertFiles) TLSConfig(log *slog.Logger) *tls.Config {
	return &tls.Config{
		GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return c.current(log), nil },
		MinVersion:     tls.VersionTLS12,
	}
}

// current returns the certificate, loaded again first when the files
// changed.
func (c *CertFiles) current(log *slog.Logger) *tls.Certificate {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now := c.now(); now.Sub(c.checked) >= CertCheckInterval {
		c.checked = now
		stamp, err := c.stamps()
		if err != nil {
			log.Warn("TLS certificate files cannot be read; serving the loaded certificate", "err", err)
		} else if stamp != c.stamp {
			if err := c.load(stamp); err != nil {
				log.Warn("the changed TLS certificate does not load; serving the previous one", "err", err)
			} else {
				log.Info("TLS certificate reloaded", "cert", c.certFile)
			}
		}
	}
	return c.cert
}

func (c *CertFiles) stamps() ([2]fileStamp, error) {
	var out [2]fileStamp
	for i, name := range []string{c.certFile, c.keyFile} {
		fi, err := os.Stat(name)
		if err != nil {
			return out, err
		}
		out[i] = fileStamp{fi.Size(), fi.ModTime()}
	}
	return out, nil
}

// load reads the pair; the stamp is kept only when it loads, so that a
// failed load is tried again while the files stay as they are.
func (c *CertFiles) load(stamp [2]fileStamp) error {
	cert, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		return fmt.Errorf("--tls-cert/--tls-key: %w", err)
	}
	c.cert, c.stamp = &cert, stamp
	return nil
}
