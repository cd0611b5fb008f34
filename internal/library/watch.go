package library

// watcher tells the library whether the agents directory may have changed
// since it last asked. A false positive costs one rescan (a stat per
// file); a false negative would serve stale data, so implementations err on
// the side of true.
type watcher interface {
	changed() bool
	close() error
}

// pollWatcher is used where no change notification is available: every
// query rescans the directory.
type pollWatcher struct{}

func (pollWatcher) changed() bool { return true }
func (pollWatcher) close() error  { return nil }
