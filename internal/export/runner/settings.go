package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// SettingsFile is the library's export settings, relative to the library:
//
//	skip: [cursor, codex]   # agents never exported into this library
const SettingsFile = ".bourdon/export.yaml"

// maxSettingsBytes bounds the settings file.
const maxSettingsBytes = 64 << 10

// Settings are a library's export settings.
type Settings struct {
	// Skip are the agent ids never exported into the library.
	Skip []string
}

// SettingsPath is where the library keeps its export settings.
func SettingsPath(library string) string {
	return filepath.Join(library, filepath.FromSlash(SettingsFile))
}

// LoadSettings reads the library's export settings. A missing file is no
// settings. The file is strict: a key other than skip, a skip that is not
// a list of agent ids, or an id that is not in known is an error that
// names it; the file is read inside the library only.
func LoadSettings(library string, known []string) (Settings, error) {
	path := SettingsPath(library)
	data, err := fsutil.NewTree(library).ReadRegular(path, maxSettingsBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return Settings{}, nil
	}
	if err != nil {
		return Settings{}, fmt.Errorf("export settings: %w", err)
	}
	s, err := parseSettings(data, known)
	if err != nil {
		return Settings{}, fmt.Errorf("export settings %s: %w", path, err)
	}
	return s, nil
}

func parseSettings(data []byte, known []string) (Settings, error) {
	var s Settings
	doc, err := yaml11.Decode(data)
	if err != nil {
		return s, err
	}
	if doc == nil {
		return s, nil
	}
	m, ok := doc.(*yaml11.Map)
	if !ok {
		return s, errors.New("want a mapping with a skip list, such as skip: [cursor]")
	}
	for _, e := range m.Entries() {
		if e.Key != "skip" {
			return s, fmt.Errorf("unknown key %q (known: skip)", e.Key)
		}
		if e.Value == nil {
			continue
		}
		list, ok := e.Value.([]any)
		if !ok {
			return s, fmt.Errorf("skip must be a list of agent ids, not %s", yaml11.Str(e.Value))
		}
		for i, v := range list {
			id, ok := v.(string)
			if !ok {
				return s, fmt.Errorf("skip[%d] must be an agent id, not %s", i, yaml11.Str(v))
			}
			if err := knownAgent(id, known); err != nil {
				return s, fmt.Errorf("skip[%d]: %w", i, err)
			}
			if !slices.Contains(s.Skip, id) {
				s.Skip = append(s.Skip, id)
			}
		}
	}
	return s, nil
}

// knownAgent says, for an id not in known, that it is unknown and what
// the known ids are.
func knownAgent(id string, known []string) error {
	if slices.Contains(known, id) {
		return nil
	}
	return fmt.Errorf("no exporter for agent %q (known: %s)", id, strings.Join(known, ", "))
}
