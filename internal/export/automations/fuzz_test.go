package automations

import (
	"maps"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
)

// The files FuzzAutomationsFile puts its bytes in, by kind, relative to
// the automations directory.
var automationFiles = []string{"fuzzed/automation.toml", "fuzzed/memory.md"}

// FuzzAutomationsFile puts random bytes in an automation.toml or a
// memory.md of one of the four agents' automations directories, beside a
// good automation (and the other file of the fuzzed one), and exports it
// through exporttest.Checked. The seeds are the tests' fixture files.
func FuzzAutomationsFile(f *testing.F) {
	for i, c := range cases() {
		real := exporttest.Env(f, nil)
		dir := c.dir(real.Home)
		c.write(f, dir)
		files := exporttest.ReadFiles(f, dir)
		for _, rel := range slices.Sorted(maps.Keys(files)) {
			switch path.Base(rel) {
			case "automation.toml":
				f.Add(uint8(i), uint8(0), files[rel])
			case "memory.md":
				f.Add(uint8(i), uint8(1), files[rel])
			}
		}
	}
	f.Add(uint8(0), uint8(0), []byte("id = \"\\ud800\"\nname = \"caf\\u00e9 \\u0000\"\nstatus = \""+strings.Repeat("S", 300)+"\"\nrrule = 7\ncwds = [1, \"\", \""+
		strings.Repeat("/d", 400)+"\"]\n"))
	f.Add(uint8(2), uint8(0), []byte("id = \"x\"\nrepos = \""+strings.Repeat("r", 300)+"\"\ntrigger = [\"a\"]\nkind = {a = 1}\n"))
	f.Add(uint8(1), uint8(1), []byte("2026-11-20 "+strings.Repeat("action ", 100)+"\n- caf\xe9\n2026-02-30\n- x\n9999-12-31\n- far\n0000-01-01\n- zero\n"))
	f.Add(uint8(3), uint8(1), []byte(strings.Repeat("2026-11-20\n- run\n", 2000)))

	f.Fuzz(func(t *testing.T, flavor, kind uint8, data []byte) {
		c := cases()[int(flavor)%len(cases())]
		env := exporttest.Env(t, nil)
		dir := c.dir(env.Home)
		exporttest.WriteFiles(t, dir, automationsBase)
		exporttest.WriteFiles(t, dir, map[string][]byte{automationFiles[int(kind)%len(automationFiles)]: data})
		exporttest.Checked(t, c.x, env, export.Options{})
	})
}

// automationsBase is every FuzzAutomationsFile input's automations
// directory: a good automation, and the fuzzed one's two files.
var automationsBase = map[string][]byte{
	"good/automation.toml":   []byte("id = \"good\"\nname = \"Nightly triage\"\nstatus = \"ACTIVE\"\nrrule = \"FREQ=DAILY\"\ntrigger = \"schedule\"\n"),
	"good/memory.md":         []byte("2026-11-20\n- Triaged 4 issues for ShipStable\n"),
	"fuzzed/automation.toml": []byte("id = \"fuzzed\"\nname = \"Fuzzed\"\nstatus = \"PAUSED\"\n"),
	"fuzzed/memory.md":       []byte("2026-11-21 run: checked billing drift\n- release gate green\n"),
}

// TestNamedPipesAreNotWaitedOn makes each file FuzzAutomationsFile
// fuzzes a named pipe no one writes to, for each agent: the export must
// not block on it.
func TestNamedPipesAreNotWaitedOn(t *testing.T) {
	for _, c := range cases() {
		for _, rel := range automationFiles {
			t.Run(c.x.Info().ID+"/"+rel, func(t *testing.T) {
				env := exporttest.Env(t, nil)
				dir := c.dir(env.Home)
				exporttest.WriteFiles(t, dir, automationsBase)
				exporttest.FIFO(t, path.Join(dir, rel))
				exporttest.Checked(t, c.x, env, export.Options{})
			})
		}
	}
}
