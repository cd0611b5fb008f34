package doctor

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/getbourdon/bourdon-go/internal/install/setup"
)

// checkClients reports the MCP entries and hooks setup wires, as
// setup.Inspect sees them (one place decides what "wired" means).
func checkClients(r *Report, o Options) {
	cfg := setup.Config{Env: o.Env, Binary: o.Binary, Library: o.Library}
	for _, st := range setup.Inspect(cfg) {
		t := st.Target
		kind := "client"
		if t.Item != "MCP server" {
			kind = "hook"
		}
		c := Check{Check: kind, Subject: t.ID, File: t.Path}
		switch st.State {
		case setup.Absent:
			if t.Optional {
				continue
			}
			c.Status, c.File = Skip, ""
			c.Message = fmt.Sprintf("%s is not installed (no %s)", t.Client, t.Presence)
		case setup.NotSelected:
			continue // an opt-in hook not wired
		case setup.Missing:
			c.Status = Warn
			c.Message = fmt.Sprintf("%s not wired in %s", t.Label(), t.Path)
			c.Fix = "bourdon setup --library " + o.Library
		case setup.Refused:
			c.Status = Fail
			c.Message = fmt.Sprintf("%s %s, so %s cannot be checked (nor %s read it)", t.Path, st.Detail, t.Label(), t.Client)
			c.Fix = "correct " + t.Path + " by hand; setup never rewrites a file it cannot parse"
		case setup.Wired:
			c.Status = OK
			c.Message = t.Label() + " wired in " + t.Path
			if st.Command != "" && filepath.IsAbs(st.Command) {
				if _, err := os.Stat(st.Command); err != nil {
					c.Status = Fail
					c.Message = fmt.Sprintf("%s in %s runs %s, which does not exist", t.Label(), t.Path, st.Command)
					c.Fix = "remove bourdon's entry from " + t.Path + " and run bourdon setup again"
				}
			}
		}
		r.add(c)
	}
}
