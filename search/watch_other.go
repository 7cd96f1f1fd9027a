//go:build !linux

package search

import "errors"

// watcher does not run here: a Live index scans at every search.
type watcher struct{}

func newWatcher(string) (*watcher, error) { return nil, errors.ErrUnsupported }

func (*watcher) close() {}

func (*watcher) changes() (changed, ok bool) { return true, false }
