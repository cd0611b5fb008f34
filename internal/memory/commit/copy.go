package commit

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
)

// CopyStats counts what Copy copied.
type CopyStats struct {
	Agents, Versions, Records, Staged int
}

// Copy copies a library from src to dst as it is, byte for byte: every
// agent's manifest, archived versions (under their ids), provenance
// records and exporter record, then every staged write. Each agent is
// copied under its lock in both stores, so a writer of src cannot slip a
// change in half-way. dst must hold nothing of an agent src has (copying
// over existing history would mix two histories): such an agent is an
// error, and nothing of it is written. Digests are equal on both sides
// since the bytes are.
func Copy(ctx context.Context, src, dst store.Store) (CopyStats, error) {
	var st CopyStats
	ids, err := src.Agents(ctx)
	if err != nil {
		return st, err
	}
	for _, id := range ids {
		if err := copyAgent(ctx, src, dst, id, &st); err != nil {
			return st, fmt.Errorf("copying agent %s: %w", id, err)
		}
	}
	staged, err := src.ListStaged(ctx)
	if err != nil {
		return st, err
	}
	for _, e := range staged {
		data, err := src.Staged(ctx, e.Caller, e.AgentID)
		if errors.Is(err, os.ErrNotExist) {
			continue // promoted or rejected meanwhile
		}
		if err != nil {
			return st, err
		}
		err = dst.UpdateStaged(ctx, e.Caller, e.AgentID, func(tx store.StagedTx) error {
			if _, err := tx.Data(); !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("the destination already has a staged write of %s by %s", e.AgentID, e.Caller)
			}
			return tx.Put(data)
		})
		if err != nil {
			return st, err
		}
		st.Staged++
	}
	return st, nil
}

func copyAgent(ctx context.Context, src, dst store.Store, id string, st *CopyStats) error {
	return src.Update(ctx, id, func(stx store.Tx) error {
		manifest, err := optional(stx.Manifest())
		if err != nil {
			return err
		}
		owned, err := optional(stx.Owned())
		if err != nil {
			return err
		}
		versions, err := src.VersionIDs(ctx, id)
		if err != nil {
			return err
		}
		records, err := src.Provenance(ctx, id)
		if err != nil {
			return err
		}
		return dst.Update(ctx, id, func(dtx store.Tx) error {
			if existing, err := optional(dtx.Manifest()); err != nil || existing != nil {
				return errors.Join(err, errors.New("the destination already has this agent"))
			}
			if have, err := dst.VersionIDs(ctx, id); err != nil || len(have) > 0 {
				return errors.Join(err, errors.New("the destination already has history of this agent"))
			}
			for _, v := range versions {
				data, err := stx.Version(v)
				if err != nil {
					return err
				}
				if err := dtx.Restore(v, data); err != nil {
					return err
				}
			}
			for _, r := range records {
				if err := dtx.Record(r); err != nil {
					return err
				}
			}
			if owned != nil {
				if err := dtx.PutOwned(owned); err != nil {
					return err
				}
			}
			if manifest != nil {
				if err := dtx.Put(manifest, storedDigest(id, manifest)); err != nil {
					return err
				}
			}
			st.Agents++
			st.Versions += len(versions)
			st.Records += len(records)
			return nil
		})
	})
}

// optional turns a missing thing into nil.
func optional(data []byte, err error) ([]byte, error) {
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// storedDigest is the digest a store keeps with a manifest: Digest of its
// content, or the raw digest of bytes that cannot be parsed (as a replace
// over a corrupt manifest records it).
func storedDigest(id string, data []byte) string {
	m, err := decodeManifest(id, data)
	if err != nil {
		return rawDigest(data)
	}
	return Digest(m)
}
