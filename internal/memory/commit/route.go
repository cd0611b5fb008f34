package commit

import "context"

// Outcome is what Submit did with a contribution: exactly one of
// Committed and Staged is set.
type Outcome struct {
	// Committed is the result of a write to the live manifest.
	Committed *Result
	// Staged is the result of a write put aside for an operator.
	Staged *StageResult
}

// Submit writes one contribution where the caller's access decision sends
// it: to staging when staged is set (trust.Decision.Staged: a quarantined
// caller writing its own namespace), staged under req.Provenance.Caller,
// else to the live manifest. The errors are Stage's and Commit's.
func (w *Writer) Submit(ctx context.Context, req Request, staged bool) (Outcome, error) {
	if staged {
		res, err := w.Stage(ctx, req.Provenance.Caller, req)
		if err != nil {
			return Outcome{}, err
		}
		return Outcome{Staged: &res}, nil
	}
	res, err := w.Commit(ctx, req)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Committed: &res}, nil
}

// The bounds of one listing of an agent's versions for a remote caller.
const (
	// DefaultListedVersions is the number of versions listed when the
	// caller names none.
	DefaultListedVersions = 20
	// MaxListedVersions is the most versions one listing holds.
	MaxListedVersions = 500
)

// ListedVersions is Versions for a remote caller: limit is clamped to
// 1..MaxListedVersions, so a listing is never unbounded.
func (w *Writer) ListedVersions(id string, limit int) ([]Version, error) {
	return w.Versions(id, min(max(limit, 1), MaxListedVersions))
}
