//go:build linux

package atomicfile

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// fsSyncer holds one open directory on each filesystem a batch writes
// to, for syncfs(2).
type fsSyncer struct {
	devs map[uint64]*os.File
}

// watch opens the directory rel inside root and keeps it when it is on a
// filesystem no kept directory is on.
func (s *fsSyncer) watch(root *os.Root, rel string) error {
	d, err := root.Open(rel)
	if err != nil {
		return err
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(d.Fd()), &st); err != nil {
		d.Close()
		return fmt.Errorf("stat %s: %w", rel, err)
	}
	if _, ok := s.devs[st.Dev]; ok {
		d.Close()
		return nil
	}
	if s.devs == nil {
		s.devs = map[uint64]*os.File{}
	}
	s.devs[st.Dev] = d
	return nil
}

// sync runs syncfs on every filesystem kept. It reports false, and no
// error, where the kernel has no syncfs: the caller fsyncs file by file.
func (s *fsSyncer) sync() (bool, error) {
	for _, d := range s.devs {
		if err := unix.Syncfs(int(d.Fd())); err != nil {
			if errors.Is(err, unix.ENOSYS) {
				return false, nil
			}
			return false, fmt.Errorf("syncfs %s: %w", d.Name(), err)
		}
	}
	return true, nil
}

func (s *fsSyncer) close() {
	for _, d := range s.devs {
		d.Close()
	}
	s.devs = nil
}
