package commit

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
)

// dirStore is the directory backend of the store seam, the default: the
// library's files as the reference lays them out (agents/<id>.l5.yaml,
// history/<id>/versions and provenance.jsonl, staging/<caller>/<id>.l5.yaml,
// .bourdon/exports/<id>.json), every one reached through the Writer's tree
// and written atomically, under cross-process file locks (.locks/).
type dirStore struct{ w *Writer }

var _ store.Store = dirStore{}

func (d dirStore) ManifestPath(id string) string { return d.w.ManifestPath(id) }

// Agents lists agents/*.l5.yaml and history/*.
func (d dirStore) Agents(_ context.Context) ([]string, error) {
	var ids []string
	for _, sub := range []string{"agents", "history"} {
		entries, err := d.w.tree.ReadDir(filepath.Join(d.w.root, sub))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		for _, e := range entries {
			id, ok := e.Name(), e.IsDir() // history/<id>/
			if sub == "agents" {
				id, ok = strings.CutSuffix(e.Name(), ".l5.yaml")
			}
			if ok && l5.ValidAgentID(id) {
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

func (d dirStore) Manifest(_ context.Context, id string) ([]byte, error) {
	return d.w.tree.ReadRegular(d.w.ManifestPath(id), l5.MaxManifestBytes)
}

// Update takes agent id's file lock and removes the stale temporary files
// the agent owns before running fn.
func (d dirStore) Update(ctx context.Context, id string, fn func(store.Tx) error) error {
	unlock, err := d.w.tree.Lock(ctx, d.w.lockPath(id))
	if err != nil {
		return err
	}
	defer unlock()
	d.w.sweepAgent(id)
	return fn(dirTx{w: d.w, id: id})
}

func (d dirStore) VersionIDs(_ context.Context, id string) ([]string, error) {
	entries, err := d.w.tree.ReadDir(filepath.Join(d.w.historyDir(id), "versions"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	var ids []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".l5.yaml"); ok && !strings.HasPrefix(name, ".") {
			ids = append(ids, name)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

func (d dirStore) Version(_ context.Context, id, version string) ([]byte, error) {
	return d.w.tree.ReadRegular(d.w.versionPath(id, version), l5.MaxManifestBytes)
}

// Provenance reads history/<id>/provenance.jsonl, one record a line.
func (d dirStore) Provenance(_ context.Context, id string) ([][]byte, error) {
	f, err := d.w.tree.OpenRegular(filepath.Join(d.w.historyDir(id), "provenance.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		out = append(out, bytes.Clone(sc.Bytes()))
	}
	return out, sc.Err()
}

func (d dirStore) StagedPath(caller, id string) string { return d.w.stagedPath(caller, id) }

// UpdateStaged takes the staged file's own lock and removes its stale
// temporary files before running fn.
func (d dirStore) UpdateStaged(ctx context.Context, caller, id string, fn func(store.StagedTx) error) error {
	unlock, err := d.w.tree.Lock(ctx, d.w.stagedLockPath(caller, id))
	if err != nil {
		return err
	}
	defer unlock()
	path := d.w.stagedPath(caller, id)
	d.w.sweep(filepath.Dir(path), id+stagedSuffix+".")
	return fn(dirStagedTx{w: d.w, path: path})
}

func (d dirStore) ListStaged(_ context.Context) ([]store.StagedEntry, error) {
	w := d.w
	callers, err := w.tree.ReadDir(w.StagingDir())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []store.StagedEntry
	for _, c := range callers {
		if !c.IsDir() || strings.HasPrefix(c.Name(), ".") {
			continue
		}
		dir := filepath.Join(w.StagingDir(), c.Name())
		files, err := w.tree.ReadDir(dir)
		if err != nil {
			continue // pruned meanwhile
		}
		for _, f := range files {
			id, ok := strings.CutSuffix(f.Name(), stagedSuffix)
			if !ok || strings.HasPrefix(f.Name(), ".") || f.IsDir() {
				continue
			}
			e := store.StagedEntry{Caller: c.Name(), AgentID: id, Path: filepath.Join(dir, f.Name())}
			if info, err := f.Info(); err == nil {
				e.Time = info.ModTime()
			}
			out = append(out, e)
		}
	}
	return out, nil
}

func (d dirStore) Staged(_ context.Context, caller, id string) ([]byte, error) {
	return d.w.tree.ReadRegular(d.w.stagedPath(caller, id), l5.MaxManifestBytes)
}

// dirTx writes each step at once: the caller holds the agent's file lock.
type dirTx struct {
	w  *Writer
	id string
}

func (t dirTx) Manifest() ([]byte, error) {
	return t.w.tree.ReadRegular(t.w.ManifestPath(t.id), l5.MaxManifestBytes)
}

func (t dirTx) Archive(data []byte, digest string, now time.Time) (string, error) {
	dir := filepath.Join(t.w.historyDir(t.id), "versions")
	for at := now.UTC(); ; at = at.Add(time.Microsecond) {
		v := store.VersionID(at, digest)
		path := filepath.Join(dir, v+".l5.yaml")
		if _, err := t.w.tree.Stat(path); err == nil {
			continue
		}
		return v, t.w.tree.WriteAtomic(path, data, 0o644)
	}
}

func (t dirTx) Version(version string) ([]byte, error) {
	return t.w.tree.ReadRegular(t.w.versionPath(t.id, version), l5.MaxManifestBytes)
}

func (t dirTx) Restore(version string, data []byte) error {
	return t.w.tree.WriteAtomic(t.w.versionPath(t.id, version), data, 0o644)
}

func (t dirTx) Record(change []byte) error { return t.w.appendProvenance(t.id, change) }

func (t dirTx) Put(data []byte, _ string) error {
	return t.w.tree.WriteAtomic(t.w.ManifestPath(t.id), data, 0o644)
}

func (t dirTx) Owned() ([]byte, error) {
	return t.w.tree.ReadRegular(t.w.ownedPath(t.id), maxOwnedBytes)
}

func (t dirTx) PutOwned(data []byte) error {
	return t.w.tree.WriteAtomic(t.w.ownedPath(t.id), data, 0o644)
}

type dirStagedTx struct {
	w    *Writer
	path string
}

func (t dirStagedTx) Data() ([]byte, error) {
	return t.w.tree.ReadRegular(t.path, l5.MaxManifestBytes)
}

func (t dirStagedTx) Put(data []byte) error {
	err := t.w.tree.WriteAtomic(t.path, data, 0o644)
	if errors.Is(err, os.ErrNotExist) {
		// A promote or reject of another agent staged by the same caller
		// pruned the directory between WriteAtomic's mkdir and its create.
		err = t.w.tree.WriteAtomic(t.path, data, 0o644)
	}
	return err
}

// Remove deletes the staged file and its caller directory if that is
// left empty.
func (t dirStagedTx) Remove() error {
	if err := t.w.tree.Remove(t.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	dir := filepath.Dir(t.path)
	_ = t.w.tree.Remove(dir) // fails, as it should, unless the directory is empty
	return t.w.tree.SyncDir(filepath.Dir(dir))
}
