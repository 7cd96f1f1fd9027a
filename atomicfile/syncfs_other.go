//go:build !linux

package atomicfile

import "os"

// fsSyncer has no syncfs to call here: a batch's Sync fsyncs file by
// file.
type fsSyncer struct{}

func (fsSyncer) watch(*os.Root, string) error { return nil }

func (fsSyncer) sync() (bool, error) { return false, nil }

func (fsSyncer) close() {}
