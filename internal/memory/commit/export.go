package commit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// An export writes what an exporter read from an agent's native store
// (internal/export) into that agent's manifest, through the same steps as
// a commit: the agent's cross-process lock, the manifest read again under
// it, no_op when nothing changes, the replaced state archived, a
// provenance record (op "export") and an atomic write.
//
// Unlike a commit, an export knows which rows are its own. An exporter
// owns the rows it produced in its previous export of that agent, by the
// keys the commit path merges on (entities and workstreams by their
// trimmed, lower-cased name; sessions by date and cwd; notes by date and
// text). On export:
//
//   - the rows under a key the exporter produces now are replaced by the
//     exporter's rows under that key, as many as it wrote: its rows are
//     never folded into each other (two threads of one day in one
//     directory are two sessions, as the reference's export writes them);
//   - a row whose key it produced last time but not now is removed;
//   - every other row (committed over MCP, promoted from staging, written
//     by hand) is kept as it is, after the exporter's rows.
//
// Sessions are then ordered newest first, as every commit leaves them.
// The manifest's header (spec_version, the agent block, capabilities,
// visibility_policy and any other key that is not a list of rows) is the
// exporter's; last_updated is the time of the write.
//
// A commit over MCP of a row whose key an exporter owns merges into that
// row as usual, and the next export replaces the row with the exporter's
// version again (the native store is the source of that row); a row the
// exporter stops producing goes, whoever touched it last. A caller who
// wants a row to survive gives it a key of its own.
//
// The owned keys are kept in <library>/.bourdon/exports/<agent>.json,
// written atomically under the agent's lock, never in the manifest, which
// stays a plain L5 file. A missing or unreadable record owns nothing: the
// first export over a library the Python exporters wrote replaces the
// rows it produces and keeps the others.

// ExportRequest is one exporter's output for one agent.
type ExportRequest struct {
	AgentID string
	// Document is the exporter's manifest (export.Output.Manifest): its
	// header and its rows. last_updated is ignored.
	Document *yaml11.Map
	// Provenance is who writes; the zero value is ExporterProvenance.
	Provenance Provenance
	// DryRun computes the result without taking the lock or writing
	// anything.
	DryRun bool
}

// ExporterProvenance is who an export writes as: caller
// "exporter:<agent_id>", tier operator (an exporter is the operator's own
// program, reading the operator's own stores).
func ExporterProvenance(id string) Provenance {
	return Provenance{Caller: "exporter:" + id, CallerTier: "operator"}
}

// ExportResult summarises an export.
type ExportResult struct {
	AgentID string `json:"agent_id"`
	Path    string `json:"path"`
	// Entities and Sessions count the exporter's rows. The added,
	// updated and removed counters count keys: rows that share one (two
	// sessions of a day in one directory) count once.
	Entities        int `json:"entities"`
	Sessions        int `json:"sessions"`
	EntitiesAdded   int `json:"entities_added"`
	EntitiesUpdated int `json:"entities_updated"`
	EntitiesRemoved int `json:"entities_removed"`
	SessionsAdded   int `json:"sessions_added"`
	SessionsUpdated int `json:"sessions_updated"`
	SessionsRemoved int `json:"sessions_removed"`
	// TotalEntities and TotalSessions count the rows of the resulting
	// manifest, the exporter's and everybody else's.
	TotalEntities int    `json:"total_entities"`
	TotalSessions int    `json:"total_sessions"`
	LastUpdated   string `json:"last_updated"`
	// NoOp is set when the resulting manifest equals the stored one:
	// nothing was written, no version archived, no provenance recorded.
	NoOp   bool   `json:"no_op"`
	Digest string `json:"digest"`
	// Changes lists the keys added, updated and removed, by kind, as
	// provenance records them.
	Changes map[string][]string `json:"changes,omitempty"`
}

// ExportsDir is where exports keep their bookkeeping: the rows each
// exporter owns (<agent>.json) and the runner's incremental caches.
func (w *Writer) ExportsDir() string { return filepath.Join(w.root, ".bourdon", "exports") }

func (w *Writer) ownedPath(id string) string { return filepath.Join(w.ExportsDir(), id+".json") }

// CachePath is where the export runner keeps agent id's incremental cache.
func (w *Writer) CachePath(id string) string { return filepath.Join(w.ExportsDir(), id+".cache.json") }

// ReadCache reads agent id's export cache (at most limit bytes) through
// the library's tree, as every file of the exports folder is read.
func (w *Writer) ReadCache(id string, limit int64) ([]byte, error) {
	if w.root == "" {
		return nil, fmt.Errorf("export caches: %w", store.ErrUnsupported)
	}
	return w.tree.ReadRegular(w.CachePath(id), limit)
}

// WriteCache replaces agent id's export cache, atomically, readable by
// its owner only, through the library's tree.
func (w *Writer) WriteCache(id string, data []byte) error {
	if w.root == "" {
		return fmt.Errorf("export caches: %w", store.ErrUnsupported)
	}
	return w.tree.WriteAtomic(w.CachePath(id), data, 0o600)
}

// Export writes an exporter's document into the agent's manifest. See the
// comment at the top of this file for which rows it replaces, removes and
// keeps. A stored manifest that cannot be parsed is a *CorruptError and
// nothing is written; a document without a valid agent block or with rows
// the commit path refuses is a *ValidationError.
func (w *Writer) Export(ctx context.Context, req ExportRequest) (ExportResult, error) {
	header, rows, err := validateExport(&req)
	if err != nil {
		return ExportResult{}, err
	}
	id := req.AgentID
	if req.Provenance.Caller == "" {
		req.Provenance = ExporterProvenance(id)
	}
	if req.DryRun && w.root == "" {
		return w.dryRunInStore(ctx, req, header, rows)
	}
	if req.DryRun {
		// Reads without the lock: a dry run writes nothing, not even a lock.
		if err := ctx.Err(); err != nil {
			return ExportResult{}, err
		}
		return w.exportIn(exportReads{
			manifest: func() ([]byte, error) { return w.st.Manifest(ctx, id) },
			owned:    func() ([]byte, error) { return w.readOwnedUnlocked(id) },
		}, nil, req, header, rows)
	}
	var res ExportResult
	err = w.st.Update(ctx, id, func(tx store.Tx) error {
		var err error
		res, err = w.exportIn(exportReads{manifest: tx.Manifest, owned: tx.Owned}, tx, req, header, rows)
		return err
	})
	return res, err
}

// errDryRun ends the transaction of a dry run on a store.
var errDryRun = errors.New("a dry run writes nothing")

// dryRunInStore is a dry-run Export on a store, which has no reads
// outside a transaction: it reads in one (holding the agent's lock, as a
// write would) and rolls it back, so that nothing is written.
func (w *Writer) dryRunInStore(ctx context.Context, req ExportRequest, header *yaml11.Map, rows perKind[[]*yaml11.Map]) (ExportResult, error) {
	var res ExportResult
	err := w.st.Update(ctx, req.AgentID, func(tx store.Tx) error {
		var err error
		if res, err = w.exportIn(exportReads{manifest: tx.Manifest, owned: tx.Owned}, nil, req, header, rows); err != nil {
			return err
		}
		return errDryRun
	})
	if errors.Is(err, errDryRun) {
		err = nil
	}
	return res, err
}

// readOwnedUnlocked reads the record of what agent id's exporter owns
// outside the agent's lock, as only a directory can (a dry run on a store
// reads in a transaction, see dryRunInStore).
func (w *Writer) readOwnedUnlocked(id string) ([]byte, error) {
	return w.tree.ReadRegular(w.ownedPath(id), maxOwnedBytes)
}

// exportReads is where an export reads the manifest and the record of
// what its exporter owns.
type exportReads struct{ manifest, owned func() ([]byte, error) }

// exportIn is Export under the agent's lock, in tx (nil for a dry run,
// which writes nothing).
func (w *Writer) exportIn(r exportReads, tx store.Tx, req ExportRequest, header *yaml11.Map, rows perKind[[]*yaml11.Map]) (ExportResult, error) {
	id := req.AgentID
	before, beforeBytes, currentDigest, err := w.readCurrent(r.manifest, id)
	if err != nil {
		return ExportResult{}, err
	}
	owned, ownedBytes, err := readOwned(id, r.owned)
	if err != nil {
		return ExportResult{}, err
	}
	now := w.Now().UTC()
	m, c, produced := exportManifest(header, rows, before, owned, isoNow(now))
	res := ExportResult{AgentID: id, Path: w.ManifestPath(id), Digest: Digest(m), Changes: c.describe()}
	res.Entities, res.Sessions = len(rows[entityRows]), len(rows[sessionRows])
	ce, cs := c[entityRows], c[sessionRows]
	res.EntitiesAdded, res.EntitiesUpdated, res.EntitiesRemoved = len(ce.added), len(ce.updated), len(ce.removed)
	res.SessionsAdded, res.SessionsUpdated, res.SessionsRemoved = len(cs.added), len(cs.updated), len(cs.removed)
	res.TotalEntities, res.TotalSessions = len(listOf(m, l5.KeyEntities)), len(listOf(m, l5.KeySessions))
	res.LastUpdated = textOf(m.Value(l5.KeyLastUpdated))
	newOwned := encodeOwned(id, produced)
	if before != nil && res.Digest == currentDigest {
		res.NoOp, res.LastUpdated = true, textOf(before.Value(l5.KeyLastUpdated))
		if tx != nil && !bytes.Equal(newOwned, ownedBytes) {
			// The manifest already holds these rows (the Python exporters
			// wrote it, or the record was lost): only the record of what
			// this exporter owns is written.
			if err := tx.PutOwned(newOwned); err != nil {
				return ExportResult{}, err
			}
		}
		return res, nil
	}
	if tx == nil {
		return res, nil
	}
	// The record first grows to cover the rows of both exports, so that a
	// crash before the manifest is written leaves the next export owning
	// every row this one would have replaced; it shrinks to this export's
	// rows once the manifest is in place.
	widened := encodeOwned(id, widen(owned, produced))
	if !bytes.Equal(widened, ownedBytes) {
		if err := tx.PutOwned(widened); err != nil {
			return ExportResult{}, err
		}
	}
	ch := Change{Op: OpExport, Changes: res.Changes}
	if err := w.writeManifest(tx, id, m, res.Digest, beforeBytes, currentDigest, now, ch, req.Provenance); err != nil {
		return ExportResult{}, err
	}
	if !bytes.Equal(newOwned, widened) {
		if err := tx.PutOwned(newOwned); err != nil {
			return res, err
		}
	}
	return res, nil
}

// validateExport checks an export's document and splits it into its
// header (every key but the row lists and last_updated, copied) and its
// rows, validated and converted as a commit's are.
func validateExport(req *ExportRequest) (*yaml11.Map, perKind[[]*yaml11.Map], error) {
	var rows perKind[[]*yaml11.Map]
	id := req.AgentID
	if err := checkID(id); err != nil {
		return nil, rows, err
	}
	if req.Document == nil {
		return nil, rows, invalid("an export of %s has no document", pyfmt.Quote(id))
	}
	header := yaml11.NewMap(req.Document.Len())
	rowsReq := Request{AgentID: id}
	lists := rowsReq.rowLists()
	for _, e := range req.Document.Entries() {
		if k, isRows := kindOf(e.Key); isRows {
			list, ok := e.Value.([]any)
			if !ok && e.Value != nil {
				return nil, rows, invalid("the export's %s is not a list: %s", e.Key, pyfmt.Repr(e.Value))
			}
			*lists[k] = list
			continue
		}
		if e.Key != l5.KeyLastUpdated {
			header.Set(e.Key, toValue(e.Value))
		}
	}
	agent, ok := header.Value(l5.KeyAgent).(*yaml11.Map)
	if !ok {
		return nil, rows, invalid("the export of %s has no agent block", pyfmt.Quote(id))
	}
	if got, _ := agent.Value("id").(string); got != id {
		return nil, rows, invalid("the export's agent.id %s is not %s", pyfmt.Repr(agent.Value("id")), pyfmt.Quote(id))
	}
	agentType, _ := agent.Value("type").(string)
	if err := checkAgentType(agentType); err != nil {
		return nil, rows, err
	}
	rows, err := validate(&rowsReq)
	return header, rows, err
}

// topLevelOrder is the order of a manifest's keys: the reference's
// exporters' order, then the two kinds of rows only commits write. Other
// keys of the exporter's header follow, in its order.
var topLevelOrder = []string{
	l5.KeySpecVersion, l5.KeyAgent, l5.KeyLastUpdated, l5.KeyCapabilities,
	l5.KeySessions, l5.KeyEntities, l5.KeyVisibilityPolicy, l5.KeyWorkstreams, l5.KeyNotes,
}

// exportManifest builds the manifest an export produces from the
// exporter's header and rows, the stored manifest (nil when there is
// none) and the keys the exporter owned, and returns it with what changed
// and the keys the exporter produced, by kind.
func exportManifest(header *yaml11.Map, rows perKind[[]*yaml11.Map], before *yaml11.Map, owned perKind[map[string]bool], now string) (*yaml11.Map, batch, perKind[[]string]) {
	var c batch
	var produced perKind[[]string]
	var lists perKind[[]any]
	for i, kind := range rowKinds {
		// The exporter's rows are written as it listed them, each in
		// the form a commit gives a new row: rows that share a key (two
		// threads of one day in one directory) stay apart, as the
		// reference's export writes them.
		byKey := map[string][]any{}
		list := make([]any, 0, len(rows[i]))
		for _, r := range rows[i] {
			row := kind.newRow(r)
			k := kind.dedupe(row)
			if byKey[k] == nil {
				produced[i] = append(produced[i], k)
			}
			byKey[k] = append(byKey[k], row)
			list = append(list, row)
		}
		stored := map[string][]any{} // the stored rows the exporter's replace, by key
		for _, r := range listOf(before, kind.key) {
			row, isRow := r.(*yaml11.Map)
			k := ""
			if isRow {
				k = kind.dedupe(row)
			}
			switch {
			case !isRow || (k == "" && kind.key != l5.KeySessions):
				list = append(list, r) // a row without a key is nobody's
			case byKey[k] != nil:
				stored[k] = append(stored[k], row)
			case owned[i][k]:
				if stored[k] == nil {
					c[i].removed = append(c[i].removed, k)
				}
				stored[k] = append(stored[k], row)
			default:
				list = append(list, r)
			}
		}
		for _, k := range produced[i] {
			switch {
			case stored[k] == nil:
				c[i].added = append(c[i].added, k)
			case !sameRows(kind.key, stored[k], byKey[k]):
				c[i].updated = append(c[i].updated, k)
			}
		}
		lists[i] = list
	}
	m := yaml11.NewMap(len(topLevelOrder))
	for _, key := range topLevelOrder {
		if k, isRows := kindOf(key); isRows {
			if len(lists[k]) > 0 {
				m.Set(key, lists[k])
			}
			continue
		}
		if key == l5.KeyLastUpdated {
			m.Set(key, now)
		} else if v, ok := header.Get(key); ok {
			m.Set(key, v)
		}
	}
	for _, e := range header.Entries() {
		if !slices.Contains(topLevelOrder, e.Key) {
			m.Set(e.Key, e.Value)
		}
	}
	sortSessions(m)
	return m, c, produced
}

// sameRows reports whether two lists of rows of the list key have the
// same canonical form (l5.Canonical: the form digests compare), so that a
// stored "tags: []" equals an exporter's row without tags.
func sameRows(key string, a, b []any) bool {
	canon := func(rows []any) any {
		doc := yaml11.NewMap(1)
		doc.Set(key, rows)
		return l5.Canonical(doc).Value(key)
	}
	return equal(canon(a), canon(b))
}

// ownedFile is the record of the rows an exporter owns.
type ownedFile struct {
	AgentID string `json:"agent_id"`
	// Owned holds the dedupe keys, sorted, by manifest list.
	Owned map[string][]string `json:"owned"`
}

// maxOwnedBytes bounds an ownership record.
const maxOwnedBytes = 64 << 20

// readOwned returns the keys agent id's exporter owns, read with read, by kind, and the
// bytes of the record. A missing or unreadable record owns nothing.
func readOwned(id string, read func() ([]byte, error)) (perKind[map[string]bool], []byte, error) {
	var out perKind[map[string]bool]
	data, err := read()
	if errors.Is(err, os.ErrNotExist) {
		return out, nil, nil
	}
	if err != nil {
		return out, nil, err
	}
	var f ownedFile
	if json.Unmarshal(data, &f) != nil || f.AgentID != id {
		return out, data, nil
	}
	for i, kind := range rowKinds {
		for _, k := range f.Owned[kind.key] {
			if out[i] == nil {
				out[i] = map[string]bool{}
			}
			out[i][k] = true
		}
	}
	return out, data, nil
}

// encodeOwned renders the record of the keys an exporter owns.
func encodeOwned(id string, keys perKind[[]string]) []byte {
	f := ownedFile{AgentID: id, Owned: map[string][]string{}}
	for i, kind := range rowKinds {
		if len(keys[i]) > 0 {
			f.Owned[kind.key] = slices.Compact(slices.Sorted(slices.Values(keys[i])))
		}
	}
	data, _ := json.Marshal(f)
	return append(data, '\n')
}

// widen returns the keys of both owned and produced.
func widen(owned perKind[map[string]bool], produced perKind[[]string]) perKind[[]string] {
	var out perKind[[]string]
	for i := range out {
		out[i] = slices.Clone(produced[i])
		for k := range owned[i] {
			out[i] = append(out[i], k)
		}
	}
	return out
}
