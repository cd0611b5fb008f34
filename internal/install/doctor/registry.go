package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// registryPath is the federation registry the server would read
// (trust.RegistryPath).
func registryPath(o Options) string { return trust.RegistryPath(o.getenv, o.Env.Home) }

// checkRegistry reports the reference's federation checks (auth, tier,
// revoked-token-present) and the registry file's permissions and grants.
// served are the agents the library serves.
func checkRegistry(r *Report, o Options, served map[string]*library.Agent) {
	reg := o.Registry
	if reg == nil {
		reg = trust.OpenRegistry(registryPath(o))
	}
	path := reg.Path()
	if err := reg.Err(); err != nil {
		r.add(Check{Check: "registry", Status: Fail, File: path,
			Message: err.Error() + "; until it is fixed nobody can authenticate over HTTP",
			Fix:     "correct or move " + path + " (bourdon registry list shows what it holds once it reads)"})
		return
	}
	members, _ := reg.List()
	legacy := o.Env.Var(trust.LegacyTokenEnv) != ""
	c := Check{Check: "registry", File: path}
	switch {
	case len(members) == 0 && !legacy:
		c.Status = OK
		c.Message = "no federation members registered and no legacy token set: the HTTP transport refuses callers and non-loopback binds (stdio clients are not affected)"
	case len(members) == 0:
		c.Status = Warn
		c.Message = "running on the legacy shared token only (" + trust.LegacyTokenEnv + ")"
		c.Fix = "give each caller its own token with bourdon registry add <id>, for tiers and revocation"
	default:
		active, revoked := 0, 0
		for _, m := range members {
			if m.Revoked {
				revoked++
			} else {
				active++
			}
		}
		c.Status = OK
		c.Message = fmt.Sprintf("%d member(s) registered: %d active, %d revoked", len(members), active, revoked)
	}
	r.add(c)

	if fi, err := os.Stat(path); o.Registry == nil && err == nil && o.Env.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		r.add(Check{Check: "registry", Subject: "permissions", Status: Warn, File: path,
			Message: fmt.Sprintf("%s can be read by other users (mode %04o)", path, fi.Mode().Perm()),
			Fix:     "chmod 600 " + path})
	}

	for _, m := range members {
		if m.Problem != "" {
			r.add(Check{Check: "member", Subject: m.ID, Status: Warn, File: path,
				Message: m.Problem,
				Fix:     "bourdon registry set-tier " + m.ID + " quarantined"})
		}
		if m.Revoked && m.HasToken {
			r.add(Check{Check: "member", Subject: m.ID, Status: Warn, File: path,
				Message: "revoked, but its token hash is still on file (it cannot authenticate)",
				Fix:     "delete the row from " + path + " once you no longer need its history"})
		}
		if m.Revoked || m.Tier != trust.TierQuarantined {
			continue
		}
		for _, g := range m.Grants {
			switch {
			case !l5.ValidAgentID(g):
				r.add(Check{Check: "member", Subject: m.ID, Status: Warn, File: path,
					Message: fmt.Sprintf("grant %q is not an agent id, so it grants nothing", g),
					Fix:     fmt.Sprintf("bourdon registry ungrant %s %q", m.ID, g)})
			case len(served) > 0 && served[g] == nil:
				r.add(Check{Check: "member", Subject: m.ID, Status: Warn, File: path,
					Message: fmt.Sprintf("grant %q names an agent with no manifest in %s", g, o.Library),
					Fix:     fmt.Sprintf("check the spelling; bourdon registry ungrant %s %s removes it", m.ID, g)})
			}
		}
	}
}

// staleStaged is how old a staged write may get before doctor warns.
const staleStagedDays = 7

// checkStaging reports staged writes of quarantined callers awaiting
// review in the chosen library (the reference looks only at the default
// one).
func checkStaging(r *Report, o Options, w *commit.Writer) {
	w.Now = o.Env.Time
	staged, err := w.ListStaged()
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			fix := "make " + w.StagingDir() + " readable"
			if o.Store != "" {
				fix = "see the store's checks"
			}
			r.add(Check{Check: "staging", Status: Warn, Message: "cannot list staged writes: " + err.Error(), Fix: fix})
		}
		return
	}
	fresh := 0
	for _, s := range staged {
		switch {
		case s.Problem != "":
			r.add(Check{Check: "staging", Subject: s.AgentID, Status: Warn, File: s.Path,
				Message: "staged write from " + s.Caller + " cannot be read: " + s.Problem,
				Fix:     "bourdon staging reject " + s.AgentID})
		case s.AgeDays > staleStagedDays:
			r.add(Check{Check: "staging", Subject: s.AgentID, Status: Warn, File: s.Path,
				Message: fmt.Sprintf("staged write from %s is %.0f days old", s.Caller, s.AgeDays),
				Fix:     "bourdon staging promote " + s.AgentID + " (or bourdon staging reject " + s.AgentID + ")"})
		default:
			fresh++
		}
	}
	if fresh > 0 {
		r.add(Check{Check: "staging", Status: OK, Message: fmt.Sprintf("%d staged write(s) awaiting review (bourdon staging list)", fresh)})
	}
}
