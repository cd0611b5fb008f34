//go:build !linux

package library

func newWatcher(string) watcher { return pollWatcher{} }
