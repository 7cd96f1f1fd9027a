//go:build unix

package search

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps a whole file read-only, its pages read in at once
// (MAP_POPULATE where the system has it). ok is false for an empty file
// or when the file cannot be mapped; the caller then reads it.
func mapFile(p string) ([]byte, bool) {
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 || fi.Size() != int64(int(fi.Size())) {
		return nil, false
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(fi.Size()), unix.PROT_READ, unix.MAP_SHARED|mapPopulate)
	if err != nil {
		return nil, false
	}
	return data, true
}
