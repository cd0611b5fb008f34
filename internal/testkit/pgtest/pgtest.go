// Package pgtest gives tests a real PostgreSQL server, never a mock.
//
// When BOURDON_TEST_POSTGRES is set (a postgres:// URL of a database the
// tests may fill and empty), every test gets a fresh schema-less database
// created on that server. Otherwise the package starts its own server once
// per test binary from Debian's postgresql package (the binaries under
// /usr/lib/postgresql/<major>/bin, or PG_BIN): initdb into a temporary
// directory, a free loopback port, the unix socket in the same directory,
// stopped by its PID when the binary ends (Main), or, should the binary
// die first (a panic, a kill), by the shell that started it, which holds
// one end of a pipe from the binary. As root, initdb and postgres refuse
// to run, so they run as the user "postgres" (runuser -u postgres).
//
// Without PostgreSQL a test is skipped with a message saying how to get
// one, except in CI (CI=true, or BOURDON_REQUIRE_POSTGRES=1 as .ci/run
// sets it), where it fails.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/testkit/tcpproxy"
)

// EnvURL names the variable holding an existing server's URL.
const EnvURL = "BOURDON_TEST_POSTGRES"

var (
	once     sync.Once
	server   *cluster
	startErr error
	dbSeq    atomic.Int64
)

// cluster is a server this package started.
type cluster struct {
	dir   string
	port  int
	cmd   *exec.Cmd
	alive io.WriteCloser // closing it stops the server
}

// URL returns the URL of a new, empty database for this test, dropped
// when the test ends. It skips the test (fails it in CI) when no
// PostgreSQL is available.
func URL(t testing.TB) string {
	t.Helper()
	base, err := baseURL()
	if err != nil {
		unavailable(t, err)
	}
	return newDatabase(t, base)
}

// unavailable skips t, or fails it in CI, for want of a PostgreSQL.
func unavailable(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") == "true" || os.Getenv("BOURDON_REQUIRE_POSTGRES") == "1" {
		t.Fatalf("PostgreSQL is required in CI: %v", err)
	}
	t.Skipf("no PostgreSQL for this test (%v); install Debian's postgresql package or set %s=postgres://...", err, EnvURL)
}

// newDatabase creates an empty database on the server at base, dropped
// when the test ends, and returns its URL.
func newDatabase(t testing.TB, base string) string {
	t.Helper()
	name := fmt.Sprintf("bourdon_test_%d_%d", os.Getpid(), dbSeq.Add(1))
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connecting to the test server: %v", err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("creating the test database: %v", err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), base)
		if err != nil {
			return
		}
		defer c.Close(context.Background())
		_, _ = c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// baseURL returns the URL of the server's maintenance database, starting
// the server on first use.
func baseURL() (string, error) {
	if u := os.Getenv(EnvURL); u != "" {
		return u, nil
	}
	once.Do(func() { server, startErr = start() })
	if startErr != nil {
		return "", startErr
	}
	return server.url(), nil
}

// url is the URL of the cluster's maintenance database.
func (c *cluster) url() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// binDir finds the server binaries: PG_BIN, else the newest major version
// under /usr/lib/postgresql.
func binDir() (string, error) {
	if d := os.Getenv("PG_BIN"); d != "" {
		return d, nil
	}
	majors, _ := filepath.Glob("/usr/lib/postgresql/*/bin/postgres")
	if len(majors) == 0 {
		return "", errors.New("no /usr/lib/postgresql/*/bin/postgres")
	}
	sort.Slice(majors, func(i, j int) bool { return major(majors[i]) > major(majors[j]) })
	return filepath.Dir(majors[0]), nil
}

func major(path string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(path))))
	return n
}

// asServerUser runs a server binary, as the user postgres when we are root.
func asServerUser(bin string, args ...string) *exec.Cmd {
	if os.Geteuid() == 0 {
		return exec.Command(runuser(), append([]string{"-u", "postgres", "--", bin}, args...)...)
	}
	return exec.Command(bin, args...)
}

// runuser finds util-linux's runuser, which lives in sbin: a CI PATH often
// holds only the bin directories.
func runuser() string {
	if p, err := exec.LookPath("runuser"); err == nil {
		return p
	}
	for _, p := range []string{"/usr/sbin/runuser", "/sbin/runuser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return "runuser"
}

func start() (*cluster, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "bourdon-pgtest-")
	if err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		if err := exec.Command("chown", "postgres:", dir).Run(); err != nil {
			return nil, fmt.Errorf("giving %s to the user postgres: %w", dir, err)
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := asServerUser(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	// The server runs under a shell that holds our end of a pipe: when the
	// test binary ends, however it ends (a panic, a kill), the pipe closes,
	// and the shell stops the server and removes its directory. A line
	// "stop" on the pipe stops the server (a fast shutdown, which cuts
	// every client off) and "start" starts it again on the same data.
	cmd := asServerUser("sh", "-c", `dir=$1; shift; "$@" & pid=$!
		while read -r line; do
			case $line in
			stop) kill -INT "$pid"; wait "$pid"; pid= ;;
			start) "$@" & pid=$! ;;
			esac
		done
		if [ -n "$pid" ]; then kill -INT "$pid"; wait "$pid"; fi
		rm -rf "$dir"`, "sh", dir,
		filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="+dir,
		"-c", "max_connections=200")
	logf, _ := os.Create(filepath.Join(dir, "server.log"))
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	alive, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting postgres: %w", err)
	}
	c := &cluster{dir: dir, port: port, cmd: cmd, alive: alive}
	if err := c.ready(); err != nil {
		c.stop()
		return nil, err
	}
	return c, nil
}

// ready waits (30 s at most) until the server accepts connections.
func (c *cluster) ready() error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := pgx.Connect(context.Background(), c.url())
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(c.dir, "server.log"))
			return fmt.Errorf("postgres did not accept connections: %v: %s", err, strings.TrimSpace(string(log)))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Server is a PostgreSQL server of one test's own, started from the
// local binaries (never BOURDON_TEST_POSTGRES's server), which the test
// may stop and start again on the same data: for tests of a database
// restarted under load.
type Server struct{ c *cluster }

// NewServer starts a server for t, stopped when t ends. Like URL it
// skips t (fails it in CI) when PostgreSQL is not installed.
func NewServer(t testing.TB) *Server {
	t.Helper()
	c, err := start()
	if err != nil {
		unavailable(t, err)
	}
	t.Cleanup(c.stop)
	return &Server{c: c}
}

// Migrated returns the URL of a new database on s, migrated to this
// build's schema.
func (s *Server) Migrated(t testing.TB) string {
	t.Helper()
	url := newDatabase(t, s.c.url())
	if _, err := postgres.Migrate(context.Background(), url); err != nil {
		t.Fatal(err)
	}
	return url
}

// Stop stops the server with a fast shutdown (every connection is cut,
// open transactions roll back) and returns once it has exited.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	if _, err := io.WriteString(s.c.alive, "stop\n"); err != nil {
		t.Fatalf("stopping postgres: %v", err)
	}
	pid := filepath.Join(s.c.dir, "data", "postmaster.pid")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(pid); errors.Is(err, os.ErrNotExist) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("postgres did not stop within 30 s")
		}
	}
}

// Start starts the stopped server again, on the same data and port, and
// returns once it accepts connections.
func (s *Server) Start(t testing.TB) {
	t.Helper()
	if _, err := io.WriteString(s.c.alive, "start\n"); err != nil {
		t.Fatalf("starting postgres: %v", err)
	}
	if err := s.c.ready(); err != nil {
		t.Fatal(err)
	}
}

// stop ends the server (SIGINT to its PID, a fast shutdown, from the
// shell that started it; SIGKILL to its process group if that takes more
// than 20 s) and removes its directory.
func (c *cluster) stop() {
	if c.cmd.Process != nil {
		_ = c.alive.Close()
		done := make(chan struct{})
		go func() { _ = c.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}
	os.RemoveAll(c.dir)
}

// Main runs a package's tests and stops the server this package started,
// if any. Call it from TestMain: os.Exit(pgtest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	if server != nil {
		server.stop()
	}
	return code
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Migrated returns the URL of a new database (see URL) migrated to this
// build's schema.
func Migrated(t testing.TB) string {
	t.Helper()
	url := URL(t)
	if _, err := postgres.Migrate(context.Background(), url); err != nil {
		t.Fatal(err)
	}
	return url
}

// Open opens the store at url, closed when the test ends.
func Open(t testing.TB, url string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// Partitioned returns a new migrated database (see Migrated) and the URL
// of the same database through a proxy (internal/testkit/tcpproxy) that
// the test can blackhole: a network partition between the store's
// clients and the server. The proxied URL bounds a connect to 1 s and
// every store operation to timeout (postgres's bourdon_timeout), so that
// a test of a partition waits seconds, not the defaults' tens.
func Partitioned(t testing.TB, timeout time.Duration) (direct, proxied string, p *tcpproxy.Proxy) {
	t.Helper()
	direct = Migrated(t)
	u, err := url.Parse(direct)
	if err != nil {
		t.Fatal(err)
	}
	p = tcpproxy.New(t, u.Host)
	u.Host = p.Addr()
	q := u.Query()
	q.Set("connect_timeout", "1")
	q.Set("bourdon_timeout", timeout.String())
	u.RawQuery = q.Encode()
	return direct, u.String(), p
}

// Tool returns the path of one of the local installation's client
// programs (pg_dump, pg_restore, psql), from the directory of the server
// binaries (see the package comment). Like URL it skips t (fails it in
// CI) when there is none.
func Tool(t testing.TB, name string) string {
	t.Helper()
	bin, err := binDir()
	if err == nil {
		path := filepath.Join(bin, name)
		if _, err = os.Stat(path); err == nil {
			return path
		}
	}
	unavailable(t, err)
	return ""
}
