package doctor

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

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
