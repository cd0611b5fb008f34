//go:build unix

package trust

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// revokeHelperEnv makes the test binary, run again, revoke a member as
// another process (bourdon registry revoke) would.
const revokeHelperEnv = "TRUST_TEST_HELPER_REVOKE"

func TestHelperProcessRevokes(t *testing.T) {
	path := os.Getenv(revokeHelperEnv)
	if path == "" {
		t.Skip("helper process only")
	}
	if err := OpenRegistry(path).Revoke(os.Getenv(revokeHelperEnv + "_ID")); err != nil {
		t.Fatal(err)
	}
}

// TestRevocationIsRefusedOnTheNextCall: a server's registry, asked on
// every request, refuses a revoked token on the very next call however
// the revocation reached the file: written by this process, by another
// process, renamed over the file by hand, or in a directory that was
// removed, renamed away or re-pointed and made again (the registry keeps
// its directory open between calls; an answer from the old one would let
// the token in).
func TestRevocationIsRefusedOnTheNextCall(t *testing.T) {
	base := t.TempDir()
	// The registry's directory is reached through a symbolic link, so
	// that re-pointing it can be tested too.
	link := filepath.Join(base, "home")
	path := filepath.Join(link, "federation.yaml")
	// prepare makes the directory the link points to (a fresh one, the
	// link re-pointed, when target differs from the last) hold a registry
	// with one active member, and returns its token.
	prepare := func(target string) string {
		t.Helper()
		if err := os.MkdirAll(target, 0o700); err != nil {
			t.Fatal(err)
		}
		if cur, _ := os.Readlink(link); cur != target {
			os.Remove(link)
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
		}
		os.Remove(path)
		tok, err := OpenRegistry(path).Add("member-a", TierTrusted, nil)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	server := OpenRegistry(path)
	mustAccept := func(step, tok string) {
		t.Helper()
		if _, ok, err := server.Identify(tok); !ok || err != nil {
			t.Fatalf("%s: the active token is refused (%v)", step, err)
		}
	}
	mustRefuse := func(step, tok string) {
		t.Helper()
		if c, ok, _ := server.Identify(tok); ok {
			t.Fatalf("%s: the revoked token still authenticates as %s", step, c.ID)
		}
	}
	// revokedCopy returns the registry's bytes with member-a revoked,
	// written by a registry on a scratch copy.
	revokedCopy := func() []byte {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		scratch := filepath.Join(t.TempDir(), "federation.yaml")
		writeFile(t, scratch, string(data))
		if err := OpenRegistry(scratch).Revoke("member-a"); err != nil {
			t.Fatal(err)
		}
		out, err := os.ReadFile(scratch)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}

	dirA := filepath.Join(base, "a")
	tok := prepare(dirA)
	mustAccept("start", tok)
	if err := OpenRegistry(path).Revoke("member-a"); err != nil {
		t.Fatal(err)
	}
	mustRefuse("revoked by another registry of this process", tok)

	tok = prepare(dirA)
	mustAccept("re-added", tok)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcessRevokes$", "-test.count=1")
	cmd.Env = append(os.Environ(), revokeHelperEnv+"="+path, revokeHelperEnv+"_ID=member-a")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("helper process: %v\n%s", err, out)
	}
	mustRefuse("revoked by another process", tok)

	tok = prepare(dirA)
	mustAccept("re-added", tok)
	tmp := filepath.Join(dirA, "federation.yaml.new")
	writeFile(t, tmp, string(revokedCopy()))
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	mustRefuse("a revoked copy renamed over the file", tok)

	tok = prepare(dirA)
	mustAccept("re-added", tok)
	revoked := revokedCopy()
	if err := os.RemoveAll(dirA); err != nil {
		t.Fatal(err)
	}
	mustRefuse("the directory removed", tok)
	if err := os.MkdirAll(dirA, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(revoked))
	mustRefuse("the directory made again with the member revoked", tok)

	// The old directory still exists, with the member active in it.
	tok = prepare(dirA)
	mustAccept("re-added", tok)
	revoked = revokedCopy()
	if err := os.Rename(dirA, filepath.Join(base, "a.old")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dirA, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(revoked))
	mustRefuse("the directory renamed away and made again with the member revoked", tok)

	tok = prepare(dirA)
	mustAccept("re-added", tok)
	dirB := filepath.Join(base, "b")
	if err := os.MkdirAll(dirB, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dirB, "federation.yaml"), string(revokedCopy()))
	os.Remove(link)
	if err := os.Symlink(dirB, link); err != nil {
		t.Fatal(err)
	}
	mustRefuse("the directory's link re-pointed to one with the member revoked", tok)
}
