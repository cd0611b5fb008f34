package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
	"github.com/getbourdon/bourdon-go/internal/trust"
	"github.com/getbourdon/bourdon-go/internal/trust/oauth/authserver"
)

// TestStoreCopyCarriesTheRegistry: store copy takes the registry file and
// oauth.json into the database and back byte for byte, its members then
// managed with registry --store; it refuses to replace a destination
// registry that has members unless told to.
func TestStoreCopyCarriesTheRegistry(t *testing.T) {
	url := pgtest.Migrated(t)
	dir := t.TempDir()
	regFile := filepath.Join(dir, "federation.yaml")
	tok, err := trust.OpenRegistry(regFile).Add("codex", trust.TierQuarantined, []string{"claude-code"})
	if err != nil {
		t.Fatal(err)
	}
	state := []byte(`{"version": 1, "clients": {}, "pending": {}, "codes": {}, "families": {}, "access_tokens": {}}`)
	if err := os.WriteFile(filepath.Join(dir, authserver.StateFile), state, 0o600); err != nil {
		t.Fatal(err)
	}
	lib := t.TempDir()
	store := func(args ...string) (string, string, int) { return runWriteCLI(t, newStoreCommand(), args...) }

	out, errOut, code := store("copy", lib, url, "--registry", regFile)
	if code != 0 || !strings.HasPrefix(out, "copied the registry (1 members) from "+regFile+" to postgres://") || !strings.Contains(out, "copied the OAuth state from ") {
		t.Fatalf("copy in: %d %q %q", code, out, errOut)
	}
	if out, _, code := runRegistry(t, "list", "--store", url); code != 0 || !strings.Contains(out, "codex") {
		t.Errorf("registry list --store: %d %q", code, out)
	}
	if c, ok := trust.NewRegistry(pgtest.Open(t, url).Documents(), trust.RegistryDocument).Authenticate(tok); !ok || c.ID != "codex" {
		t.Error("the copied member does not authenticate from the database")
	}
	// Again: the same bytes are there, so nothing is copied or refused.
	if out, errOut, code = store("copy", lib, url, "--registry", regFile); code != 0 || strings.Contains(out, "registry") {
		t.Errorf("copy again: %d %q %q", code, out, errOut)
	}

	backFile := filepath.Join(t.TempDir(), "sub", "federation.yaml")
	if out, errOut, code = store("copy", url, t.TempDir(), "--registry", backFile); code != 0 {
		t.Fatalf("copy back: %d %q %q", code, out, errOut)
	}
	for _, name := range []string{"federation.yaml", authserver.StateFile} {
		want, _ := os.ReadFile(filepath.Join(dir, name))
		got, err := os.ReadFile(filepath.Join(filepath.Dir(backFile), name))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s changed on the round trip: %v\n%s\nwant\n%s", name, err, got, want)
		}
		if fi, err := os.Stat(filepath.Join(filepath.Dir(backFile), name)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v %v", name, fi.Mode(), err)
		}
	}

	// A destination with other members is not replaced unless asked.
	other := filepath.Join(t.TempDir(), "federation.yaml")
	if _, err := trust.OpenRegistry(other).Add("clyde", trust.TierTrusted, nil); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(other)
	if _, errOut, code = store("copy", url, t.TempDir(), "--registry", other); code != 1 || !strings.Contains(errOut, "already has 1 member(s)") || !strings.Contains(errOut, "--replace-registry") {
		t.Errorf("copy over members: %d %q", code, errOut)
	}
	if after, _ := os.ReadFile(other); string(after) != string(before) {
		t.Error("a refused copy changed the destination registry")
	}
	if _, errOut, code = store("copy", url, t.TempDir(), "--registry", other, "--replace-registry"); code != 0 {
		t.Errorf("copy --replace-registry: %d %q", code, errOut)
	}
	if got, _ := os.ReadFile(other); string(got) != string(mustRead(t, regFile)) {
		t.Error("--replace-registry did not replace")
	}
	// --no-registry leaves it alone.
	if out, errOut, code = store("copy", url, t.TempDir(), "--no-registry", "--registry", filepath.Join(t.TempDir(), "none.yaml")); code != 0 || strings.Contains(out, "registry") {
		t.Errorf("--no-registry: %d %q %q", code, out, errOut)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestDoctorChecksTheStoresRegistry: doctor --store reports the members of
// the database's registry, not the file's.
func TestDoctorChecksTheStoresRegistry(t *testing.T) {
	url := pgtest.Migrated(t)
	addMember(t, url, "codex")
	out, _ := exec.Command(binary, "doctor", "--json", "--store", url, "--library", t.TempDir()).Output()
	var rep struct {
		Checks []struct{ Check, Subject, Status, Message, File string }
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, c := range rep.Checks {
		if c.Check == "registry" && c.Subject == "" {
			if c.Status != "ok" || !strings.Contains(c.Message, "1 member(s) registered: 1 active") || !strings.HasSuffix(c.File, "/documents/federation.yaml") {
				t.Errorf("registry check %+v", c)
			}
			return
		}
	}
	t.Errorf("no registry check in %s", out)
}
