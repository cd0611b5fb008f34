package authserver

import (
	"context"
	"fmt"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
)

// CopyState copies the state src to dst byte for byte (bourdon store
// copy, with the registry its tokens act for). A src that does not parse
// is refused, and so is a dst that holds anything (a client, a grant, a
// pending request) or does not parse, unless replace is set. A missing
// src copies nothing (copied is false).
func CopyState(ctx context.Context, src, dst *Store, replace bool) (copied bool, err error) {
	copied, err = store.CopyDocument(ctx, src.docs, src.name, dst.docs, dst.name, maxStateBytes, func(data, current []byte) error {
		if _, err := parseState(data); err != nil {
			return src.unreadable(err)
		}
		if current == nil || replace {
			return nil
		}
		old, err := parseState(current)
		switch {
		case err != nil:
			return fmt.Errorf("OAuth state %s is unreadable (%v); it is not replaced unless asked to", dst.where, err)
		case len(old.Clients)+len(old.Pending)+len(old.Codes)+len(old.Families)+len(old.Access) > 0:
			return fmt.Errorf("OAuth state %s already holds %d client(s) and %d grant(s); it is not replaced unless asked to", dst.where, len(old.Clients), len(old.Families))
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("copying the OAuth state: %w", err)
	}
	return copied, nil
}
