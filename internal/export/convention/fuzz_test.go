package convention

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
)

// FuzzConventionMemory exports a random memory.md as copilot's or
// cascade's and checks the result with exporttest.Checked; a file that
// cannot be read as a whole is an error, which must name the file. The
// seeds are the tests' files and YAML that is hostile in other ways.
func FuzzConventionMemory(f *testing.F) {
	for _, s := range []string{
		copilotFile, cascadeFile,
		"---\nentities:\n  - name: A\n    tags: [unclosed\n---\n", "---\nentities:\n  - name: Caf\xe9\n---\n",
		"---\nentities: [\n---\n", "# Notes\n\nJust text.\n", "---\nentities:\n  - name: From the home\n---\n",
		"---\nentities:\n  - name: \"\\ud800\\x00\"\n    type: 7\n    aliases: [1, null, {a: b}]\n    tags: !!binary aGVsbG8=\n---\n",
		"---\nsessions:\n  - date: 2026-11-03\n    cwd: " + strings.Repeat("/d", 300) + "\n    key_actions: [" + strings.Repeat("x,", 20) + "y]\n    files_touched: [" + strings.Repeat("f,", 60) + "g]\n---\n",
		"---\nentities:\n  - name: " + strings.Repeat("n", 200) + "\n    type: " + strings.Repeat("t", 80) + "\n    summary: " + strings.Repeat("s ", 1200) + "\n---\n",
		"---\nentities:\n  - &a {name: x, aliases: [*a]}\nsessions: *a\n---\n",
		"---\nentities:\n  - name: Dates\n    last_touched: 2026-02-30\n    valid_from: 0001-01-01T00:00:00+14:00\n    valid_to: 99999-01-01\n---\n",
		"---\r\nentities:\r\n  - name: CRLF\r\n---",
	} {
		f.Add(false, []byte(s))
		f.Add(true, []byte(s))
	}
	// Deep nesting and an alias bomb.
	f.Add(false, []byte("---\nentities: "+strings.Repeat("[", 100_000)+"\n---\n"))
	f.Add(true, []byte("---\nentities:\n"+strings.Repeat("  ", 1)+strings.Repeat("- ", 5000)+"x\n---\n"))
	bomb := "---\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 'b'; i <= 'j'; i++ {
		bomb += fmt.Sprintf("%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	f.Add(false, []byte(bomb+"entities: [{name: *j}]\n---\n"))
	// The manifest's bounds: more entities, sessions and aliases than it
	// may hold.
	var many strings.Builder
	many.WriteString("---\nentities:\n")
	for i := range 1005 {
		fmt.Fprintf(&many, "  - name: E%d\n    aliases: [%s]\n", i, strings.Repeat("a,", 20))
	}
	many.WriteString("sessions:\n")
	for i := range 505 {
		fmt.Fprintf(&many, "  - date: 2026-11-%02d\n    key_actions: [k%d]\n", i%28+1, i)
	}
	many.WriteString("---\n")
	f.Add(false, []byte(many.String()))

	f.Fuzz(func(t *testing.T, cascade bool, data []byte) {
		env := exporttest.Env(t, nil)
		x, dir := Copilot, ".copilot-bourdon"
		if cascade {
			x, dir = Cascade, ".cascade-bourdon"
		}
		exporttest.WriteFiles(t, env.Home, map[string][]byte{dir + "/memory.md": data})
		if _, err := exporttest.Checked(t, x, env, export.Options{}); err != nil && !strings.Contains(err.Error(), "memory.md") {
			t.Errorf("the error does not name the file: %v", err)
		}
	})
}

// TestNamedPipesAreNotWaitedOn makes memory.md a named pipe no one writes
// to: the export must not block on it.
func TestNamedPipesAreNotWaitedOn(t *testing.T) {
	for _, c := range []struct {
		x   Exporter
		dir string
	}{{Copilot, ".copilot-bourdon"}, {Cascade, ".cascade-bourdon"}} {
		t.Run(c.dir, func(t *testing.T) {
			env := exporttest.Env(t, nil)
			exporttest.FIFO(t, filepath.Join(env.Home, c.dir, "memory.md"))
			exporttest.Checked(t, c.x, env, export.Options{})
		})
	}
}
