package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// auditPath is the audit log the server would write (trust.AuditPath).
func auditPath(o Options) string { return trust.AuditPath(o.getenv, o.Env.Home) }

// checkAudit checks that the server can append to the audit log, without
// appending anything: an existing log is opened for appending and closed
// again; for a missing one, the nearest existing directory must let the
// server create it.
func checkAudit(r *Report, o Options) {
	path := auditPath(o)
	c := Check{Check: "audit", File: path}
	fi, err := os.Stat(path)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		c.Status, c.Message = Fail, path+" is not a regular file"
		c.Fix = "move it away, or point " + trust.AuditEnv + " at a file"
	case err == nil:
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			c.Status, c.Message = Fail, "the audit log cannot be appended to: "+err.Error()
			c.Fix = "chmod u+w " + path + ", or point " + trust.AuditEnv + " elsewhere"
			break
		}
		f.Close()
		c.Status, c.Message = OK, path+" is writable"
	case errors.Is(err, fs.ErrNotExist):
		dir := filepath.Dir(path)
		for {
			if _, err := os.Stat(dir); err == nil || filepath.Dir(dir) == dir {
				break
			}
			dir = filepath.Dir(dir)
		}
		if err := dirWritable(dir); err != nil {
			c.Status, c.Message = Fail, "the audit log does not exist and cannot be created: "+dir+" is not writable ("+err.Error()+")"
			c.Fix = "make " + dir + " writable, or point " + trust.AuditEnv + " elsewhere"
			break
		}
		c.Status, c.Message = OK, path+" does not exist yet; the server creates it at the first federation call"
	default:
		c.Status, c.Message = Fail, err.Error()
		c.Fix = "make " + filepath.Dir(path) + " readable"
	}
	r.add(c)
}

// checkStoreAudit checks a store's audit log (the table every replica
// records into) without recording anything: that the role may insert,
// and that this month's partition exists.
func checkStoreAudit(ctx context.Context, r *Report, pg *postgres.Store) {
	c := Check{Check: "audit"}
	h, err := pg.AuditLog().Health(ctx, time.Now())
	switch {
	case err != nil:
		c.Status, c.Message = Fail, oneLine(err.Error())
		c.Fix = "run bourdon doctor again; if it persists, check the database's log"
	case !h.Insertable:
		c.Status, c.Message = Fail, "this role may not insert into bourdon_audit: the server could not record its decisions"
		c.Fix = "GRANT SELECT, INSERT ON bourdon_audit TO the replicas' role, and USAGE ON bourdon_audit_seq (docs/deploy.md, The audit log)"
	case !h.MonthExists:
		c.Status, c.Message = Warn, fmt.Sprintf("bourdon_audit has no partition %s for this month: entries land in the DEFAULT partition", h.Month)
		c.Fix = "bourdon store migrate --store URL (as the tables' owner), which makes this month's and next month's"
	default:
		c.Status, c.Message = OK, fmt.Sprintf("decisions are recorded in bourdon_audit (this month's partition %s exists)", h.Month)
	}
	r.add(c)
}
