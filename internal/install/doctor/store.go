package doctor

import (
	"context"
	"fmt"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
)

// checkStore checks a PostgreSQL store instead of a library directory:
// the database answers, its schema is this build's (no migration pending,
// none newer), and what it offers for vectors. It returns the store,
// opened, when its manifests can be checked, else nil.
func checkStore(ctx context.Context, r *Report, o Options) *postgres.Store {
	where := o.where()
	if err := postgres.CheckURL(o.Store); err != nil {
		r.add(Check{Check: "store", Status: Fail, Message: "--store: " + err.Error(), Fix: "pass a postgres:// URL, such as postgres://user@host/db"})
		return nil
	}
	h, err := postgres.Inspect(ctx, o.Store)
	if err != nil {
		r.add(Check{Check: "store", Status: Fail, Message: oneLine(err.Error()),
			Fix: "check that PostgreSQL runs and is reachable from here, and the URL's host, port, user and password (PGPASSWORD or ~/.pgpass)"})
		return nil
	}
	r.add(Check{Check: "store", Status: OK, Message: fmt.Sprintf("%s answers (PostgreSQL %s)", where, h.Server)})
	switch {
	case h.Schema > h.Known:
		r.add(Check{Check: "schema", Status: Fail, Message: fmt.Sprintf("schema version %d, newer than this bourdon knows (%d): a newer bourdon migrated it", h.Schema, h.Known),
			Fix: "upgrade bourdon"})
	case len(h.Pending) > 0:
		r.add(Check{Check: "schema", Status: Fail, Message: fmt.Sprintf("schema version %d, this bourdon needs %d: %d migration(s) pending (%s)", h.Schema, h.Known, len(h.Pending), strings.Join(h.Pending, ", ")),
			Fix: "bourdon store migrate --store " + where})
	default:
		r.add(Check{Check: "schema", Status: OK, Message: fmt.Sprintf("schema version %d, this bourdon's; no migration pending", h.Schema)})
	}
	r.add(Check{Check: "vectors", Status: OK, Message: h.Vectors.String()})
	if h.Schema != h.Known {
		return nil
	}
	pg, err := postgres.Open(ctx, o.Store)
	if err != nil {
		r.add(Check{Check: "store", Status: Fail, Message: oneLine(err.Error()), Fix: "run bourdon doctor again; if it persists, check the database's log"})
		return nil
	}
	return pg
}

// oneLine puts a message of pgx's, which lists every address it tried on
// a line of its own, on one line, as a doctor's check is.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// storeManifests checks the manifests of the store pg as checkLibrary
// checks a directory's (a store has no links to refuse).
func storeManifests(r *Report, o Options, pg *postgres.Store) map[string]*library.Agent {
	lb, err := library.OpenStore(o.Library, pg, 0, nil)
	if err != nil {
		r.add(Check{Check: "library", Status: Fail, Message: "cannot list the manifests: " + oneLine(err.Error()), Fix: "run bourdon doctor again; if it persists, check the database's log"})
		return map[string]*library.Agent{}
	}
	defer lb.Close()
	return checkManifests(r, o, lb, o.where()+" holds %d manifest(s)", func(string) bool { return false })
}
