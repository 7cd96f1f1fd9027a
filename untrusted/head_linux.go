//go:build linux

package untrusted

import (
	"os"

	"golang.org/x/sys/unix"
)

// rawDir is the directory open for openat, opened through the root so
// that both are the same directory whatever its path points at later; fd
// is -1 when it could not be opened (ReadHead then goes through os.Root).
type rawDir struct {
	f  *os.File
	fd int
}

func openRawDir(root *os.Root) rawDir {
	f, err := root.Open(".")
	if err != nil {
		return rawDir{fd: -1}
	}
	return rawDir{f: f, fd: int(f.Fd())}
}

func (d rawDir) close() {
	if d.f != nil {
		d.f.Close()
	}
}

// readHead reads one component's start with raw calls. ok is false when
// the caller must take os.Root's way: a path of several components, a
// symbolic link (O_NOFOLLOW refuses it; os.Root follows one that stays
// inside and refuses the rest), or anything but a regular file (refused
// there with the error that names it).
func (d rawDir) readHead(rel string, buf []byte) (n int, ok bool, err error) {
	if d.fd < 0 || !single(rel) {
		return 0, false, nil
	}
	fd, err := unix.Openat(d.fd, rel, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	for err == unix.EINTR {
		fd, err = unix.Openat(d.fd, rel, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	}
	if err == unix.ELOOP {
		return 0, false, nil
	}
	if err != nil {
		return 0, true, &os.PathError{Op: "openat", Path: rel, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return 0, true, &os.PathError{Op: "fstat", Path: rel, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0, false, nil // os.Root's way names what it is
	}
	// Read to the size the stat gave (or buf's end), never once more to
	// see the end: that read was a fifth of the calls.
	for n < len(buf) && (int64(n) < st.Size || st.Size == 0) {
		m, err := unix.Read(fd, buf[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return n, true, &os.PathError{Op: "read", Path: rel, Err: err}
		}
		if m == 0 {
			break
		}
		n += m
	}
	return n, true, nil
}
