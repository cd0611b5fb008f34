package library

// watcher tells the library what may have changed in the agents directory
// since it last asked. A false positive costs one rescan (a stat per file);
// a false negative would serve stale data, so implementations err on the
// side of reporting a change.
type watcher interface {
	// changed reports whether to rescan, and which files to read again
	// even if their size and times look unchanged (a rewrite within one
	// tick of the file-system clock keeps them). all means every file.
	changed() (rescan bool, touched map[string]bool, all bool)
	close() error
}

// pollWatcher is used where no change notification is available: every
// query rescans the directory and trusts file stamps.
type pollWatcher struct{}

func (pollWatcher) changed() (bool, map[string]bool, bool) { return true, nil, false }
func (pollWatcher) close() error                           { return nil }
