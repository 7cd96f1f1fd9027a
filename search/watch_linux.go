package search

import (
	"encoding/binary"
	"errors"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
)

// watcher is the inotify instance of a Live index, read without blocking
// at each search. fsnotify (the watch package's library) hands events
// over from a goroutine of its own, so a search could not know it had
// every event queued before it without writing a file of its own and
// waiting for that file's event; the descriptor itself can be asked.
type watcher struct {
	fd  int
	dir string           // the memory directory
	wds map[int32]string // watch -> its directory, relative, slash-separated
	buf []byte
}

// watchMask is what changes memory: files created, written, touched,
// moved or removed, and the watched directory itself going away.
const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_ATTRIB |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF |
	unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW

// errUnwatched is a change the watches no longer cover.
var errUnwatched = errors.New("search: the watches no longer cover the memory directory")

// newWatcher watches the memory directory and every directory of its
// daily logs.
func newWatcher(dir string) (*watcher, error) {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, err
	}
	w := &watcher{fd: fd, dir: dir, wds: map[int32]string{}, buf: make([]byte, 64<<10)}
	if err := w.add("."); err != nil {
		w.close()
		return nil, err
	}
	if err := w.addTree(memdir.LogsDir); err != nil {
		w.close()
		return nil, err
	}
	return w, nil
}

func (w *watcher) close() { unix.Close(w.fd) }

// add watches one directory, relative to the memory directory.
func (w *watcher) add(rel string) error {
	wd, err := unix.InotifyAddWatch(w.fd, filepath.Join(w.dir, filepath.FromSlash(rel)), watchMask)
	if err != nil {
		return err
	}
	w.wds[int32(wd)] = rel
	return nil
}

// addTree watches rel and every directory below it; a tree that does not
// exist (yet) is no error: its creation is an event.
func (w *watcher) addTree(rel string) error {
	err := w.add(rel)
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return nil
	}
	if err != nil {
		return err
	}
	ents, _ := os.ReadDir(filepath.Join(w.dir, filepath.FromSlash(rel)))
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			if err := w.addTree(path.Join(rel, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// changes reads every event queued so far and returns what they touched:
// the source files (topic files and daily logs, relative to the memory
// directory, slash-separated, sorted, each once) written, created, moved
// or removed, or all when a change touched more than files a search can
// stat one by one (a log directory created, moved or removed). ok is
// false when the watches no longer cover memory (a queue overflow, the
// memory directory moved or removed, a new log directory that could not
// be watched): the watcher must be made again.
func (w *watcher) changes() (paths []string, all, ok bool) {
	seen := map[string]bool{}
	for {
		n, err := unix.Read(w.fd, w.buf)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			for p := range seen {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			return paths, all, true
		case err != nil || n <= 0:
			return nil, true, false
		}
		a, err := w.events(w.buf[:n], seen)
		if err != nil {
			return nil, true, false
		}
		all = all || a
	}
}

// events reads a buffer of inotify events, adding the source files they
// touched to seen; all when one touched more.
func (w *watcher) events(b []byte, seen map[string]bool) (all bool, err error) {
	for len(b) >= unix.SizeofInotifyEvent {
		wd := int32(binary.NativeEndian.Uint32(b[0:]))
		mask := binary.NativeEndian.Uint32(b[4:])
		n := int(binary.NativeEndian.Uint32(b[12:]))
		if len(b) < unix.SizeofInotifyEvent+n {
			return true, errUnwatched
		}
		name := strings.TrimRight(string(b[unix.SizeofInotifyEvent:unix.SizeofInotifyEvent+n]), "\x00")
		b = b[unix.SizeofInotifyEvent+n:]
		p, a, err := w.event(wd, mask, name)
		if err != nil {
			return true, err
		}
		if p != "" {
			seen[p] = true
		}
		all = all || a
	}
	return all, nil
}

// event takes one event: the source file it touched, or all when it
// touched more (or errUnwatched).
func (w *watcher) event(wd int32, mask uint32, name string) (file string, all bool, err error) {
	if mask&unix.IN_Q_OVERFLOW != 0 {
		return "", true, errUnwatched
	}
	rel, known := w.wds[wd]
	switch {
	case !known:
		return "", false, nil // a watch removed earlier
	case mask&unix.IN_IGNORED != 0:
		delete(w.wds, wd)
		if rel == "." {
			return "", true, errUnwatched
		}
		return "", true, nil
	case mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0:
		if rel == "." {
			return "", true, errUnwatched
		}
		return "", true, nil // a log directory: its files are gone from it
	case rel == ".":
		switch {
		case name == memdir.LogsDir && mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0:
			return "", true, w.addTree(memdir.LogsDir)
		case name == memdir.LogsDir:
			return "", true, nil
		case isTopicSource(name):
			return name, false, nil
		}
		return "", false, nil
	}
	if mask&unix.IN_ISDIR != 0 {
		if mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0 && !strings.HasPrefix(name, ".") {
			return "", true, w.addTree(path.Join(rel, name))
		}
		return "", true, nil
	}
	if p := path.Join(rel, name); dailylog.IsLogFile(p) {
		return p, false, nil
	}
	return "", false, nil
}
