package trust

import (
	"context"
	"fmt"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
)

// CopyRegistry copies the registry src to dst byte for byte (bourdon
// store copy: from a file into a database and back) and returns how many
// members it holds. A src that does not parse is refused, and so is a
// dst that has members or does not parse, unless replace is set. A
// missing src copies nothing (copied is false).
func CopyRegistry(ctx context.Context, src, dst *Registry, replace bool) (members int, copied bool, err error) {
	copied, err = store.CopyDocument(ctx, src.docs, src.name, dst.docs, dst.name, maxRegistryBytes, func(data, current []byte) error {
		doc, err := parseRegistry(data)
		if err != nil {
			return src.unreadable(err)
		}
		members = len(doc.rows)
		if current == nil || replace {
			return nil
		}
		old, err := parseRegistry(current)
		switch {
		case err != nil:
			return regErr(ErrUnreadable, "federation registry %s: %v; it is not replaced unless asked to", dst.where, err)
		case len(old.rows) > 0:
			return regErr(ErrAlreadyRegistered, "federation registry %s already has %d member(s); it is not replaced unless asked to", dst.where, len(old.rows))
		}
		return nil
	})
	if err != nil {
		return 0, false, fmt.Errorf("copying the registry: %w", err)
	}
	return members, copied, nil
}
