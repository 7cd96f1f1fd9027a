//go:build linux

package search

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// statDir stamps files relative to one open directory. fstatat on the
// directory's descriptor costs about 2 µs a file here against 5 µs for
// os.Lstat of the whole path (measured over 10,000 topic files), and a
// search stats every file.
type statDir struct {
	fd   int
	path string
}

func openStatDir(dir string) *statDir {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &statDir{fd: -1, path: dir}
	}
	return &statDir{fd: fd, path: dir}
}

func (s *statDir) close() {
	if s.fd >= 0 {
		unix.Close(s.fd)
	}
}

// stamp returns a regular file's size, modification time, change time
// and inode; ok is false when it is gone or not a regular file. An atomic
// save (a new inode) or a copy that keeps the modification time (a new
// change time) is a change even at the same size and mtime.
func (s *statDir) stamp(name string) (size, mtime, ctime int64, ino uint64, ok bool) {
	var st unix.Stat_t
	var err error
	if s.fd >= 0 {
		err = unix.Fstatat(s.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	} else {
		err = unix.Lstat(filepath.Join(s.path, name), &st)
	}
	return regular(&st, err)
}

func regular(st *unix.Stat_t, err error) (size, mtime, ctime int64, ino uint64, ok bool) {
	if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0, 0, 0, 0, false
	}
	return st.Size, st.Mtim.Nano(), st.Ctim.Nano(), st.Ino, true
}

// read returns a file's content, expecting about size bytes: openat on
// the directory, reads, close (os.ReadFile adds an fstat and two fcntl
// calls, a third of the cost of reading 10,000 small files). nil when
// the file cannot be read.
func (s *statDir) read(name string, size int64) []byte {
	if s.fd < 0 {
		data, _ := os.ReadFile(filepath.Join(s.path, name))
		return data
	}
	fd, err := unix.Openat(s.fd, name, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(fd)
	buf := make([]byte, 0, max(size, 0)+512)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil
		}
		if n == 0 {
			return buf
		}
		buf = buf[:len(buf)+n]
	}
}
