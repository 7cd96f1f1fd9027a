//go:build !linux

package search

import "errors"

// watcher does not run here: a Live index scans at every search.
type watcher struct{}

func newWatcher(string) (*watcher, error) { return nil, errors.ErrUnsupported }

func (*watcher) close() {}

func (*watcher) changes() (paths []string, all, ok bool) { return nil, true, false }
