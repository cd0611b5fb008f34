package libgen

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"

	"github.com/getbourdon/bourdon-go/internal/yaml11"
)

// Cached returns a directory under the system temporary directory holding
// the library of spec, writing it on first use and reusing it afterwards,
// also across processes. The directory's name encodes the spec and a hash
// of the first manifest, so a change to the generator gets a new
// directory. A library is written elsewhere and renamed into place whole,
// so a directory with the final name is always complete. spec.Today must
// be set, or the cached dates would age.
func Cached(spec Spec) (string, error) {
	if spec.Today.IsZero() {
		return "", fmt.Errorf("libgen.Cached needs spec.Today")
	}
	first, err := yaml11.Encode(Manifest("agent-000", 0, spec, spec.Today))
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(first)
	name := fmt.Sprintf("bourdon-bench-%da-%de-%ds-%dw-%dn-seed%d-%s-%x",
		spec.Agents, spec.Entities, spec.Sessions, spec.Workstreams, spec.Notes, spec.Seed,
		spec.Today.Format("20060102"), sum[:4])
	dir := filepath.Join(os.TempDir(), name)
	if _, err := os.Stat(filepath.Join(dir, "agents")); err == nil {
		return dir, nil
	}
	tmp, err := os.MkdirTemp("", name+".tmp-")
	if err != nil {
		return "", err
	}
	if _, err := Write(tmp, spec); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process may have won the race; use its copy.
		os.RemoveAll(tmp)
		if _, serr := os.Stat(filepath.Join(dir, "agents")); serr != nil {
			return "", err
		}
	}
	return dir, nil
}
