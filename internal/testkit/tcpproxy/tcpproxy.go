// Package tcpproxy is a loopback TCP proxy for tests that need a network
// partition between a client and a server: Blackhole makes the server's
// host stop answering without closing anything (new connections are
// accepted and then hear nothing; open ones forward nothing, either
// way), which a server that is stopped or restarted never does (its port
// refuses, its connections are reset).
package tcpproxy

import (
	"net"
	"sync"
	"testing"
)

// Proxy forwards connections on a loopback port to a target address.
type Proxy struct {
	ln     net.Listener
	target string

	mu      sync.Mutex
	gen     int           // the partition a connection was accepted in; Heal starts a new one
	dark    bool          // partitioned
	healed  chan struct{} // closed by Heal
	conns   map[*link]bool
	stopped bool
}

// link is one proxied connection: the client's end and, once forwarded,
// the server's.
type link struct {
	client, server net.Conn
	gen            int
}

// New starts a proxy to target (host:port) on a free loopback port,
// stopped when the test ends.
func New(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{ln: ln, target: target, healed: make(chan struct{}), conns: map[*link]bool{}}
	go p.accept()
	t.Cleanup(p.Close)
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Blackhole partitions the network: from now on no byte crosses the
// proxy in either direction, and connections accepted meanwhile are
// held open, silent. Nothing is closed.
func (p *Proxy) Blackhole() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.dark {
		p.dark, p.healed = true, make(chan struct{})
	}
}

// Heal ends the partition as one that lasted longer than the server's
// patience: the server's ends of the connections open during the
// partition are closed (the server gave up on them), their clients' ends
// stay open and hear nothing ever again (the server's goodbye never
// reached them), and new connections are forwarded again.
func (p *Proxy) Heal() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.dark {
		return
	}
	for l := range p.conns {
		if l.gen == p.gen && l.server != nil {
			l.server.Close()
		}
	}
	p.gen++
	p.dark = false
	close(p.healed)
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.stopped {
			p.mu.Unlock()
			c.Close()
			return
		}
		l := &link{client: c, gen: p.gen}
		p.conns[l] = true
		dark := p.dark
		p.mu.Unlock()
		if !dark {
			go p.forward(l)
		}
	}
}

// forward connects l to the target and copies both ways.
func (p *Proxy) forward(l *link) {
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		l.client.Close()
		return
	}
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		s.Close()
		return
	}
	l.server = s
	p.mu.Unlock()
	go p.copy(l, s, l.client)
	go p.copy(l, l.client, s)
}

// copy forwards src to dst one read at a time, holding what it read while
// the network is partitioned; a connection of an earlier partition
// forwards nothing ever again. When either end closes, so does the other
// (unless the network is partitioned, or the link is such a leftover,
// whose client must hear nothing).
func (p *Proxy) copy(l *link, dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !p.pass(l) {
			return
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				err = werr
			}
		}
		if err != nil {
			p.drop(l)
			return
		}
	}
}

// drop closes both ends of a link that ended, unless it is left over from
// a partition.
func (p *Proxy) drop(l *link) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if l.gen != p.gen || p.dark || p.conns == nil {
		return
	}
	delete(p.conns, l)
	l.client.Close()
	l.server.Close()
}

// pass waits while the network is partitioned and says whether l may
// still forward.
func (p *Proxy) pass(l *link) bool {
	for {
		p.mu.Lock()
		dark, healed, gen, stopped := p.dark, p.healed, p.gen, p.stopped
		p.mu.Unlock()
		switch {
		case stopped || l.gen != gen:
			return false
		case !dark:
			return true
		}
		<-healed
	}
}

// Close closes the listener and every connection (New arranges it for the
// test's end; a test closes it sooner so that its clients' ends see the
// connections close, and stop waiting for answers, before its own
// cleanups run).
func (p *Proxy) Close() {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return
	}
	p.stopped = true
	if p.dark {
		close(p.healed)
		p.dark = false
	}
	conns := p.conns
	p.conns = nil
	p.mu.Unlock()
	p.ln.Close()
	for l := range conns {
		l.client.Close()
		if l.server != nil {
			l.server.Close()
		}
	}
}
