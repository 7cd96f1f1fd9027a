package search

import (
	"os"
	"sync"

	"github.com/memdir/memdir/atomicfile"
)

// stampFile returns a regular file's size, modification time, change
// time and inode (the last two where the system gives them); ok is false
// when it is gone or is not a regular file (a symlink is never followed).
// An atomic save (a new inode) or a copy that keeps the modification time
// (a new change time) is a change even at the same size and mtime.
// root nil stats nothing.
func stampFile(root *atomicfile.Root, name string) (size, mtime, ctime int64, ino uint64, ok bool) {
	if root == nil {
		return 0, 0, 0, 0, false
	}
	return root.Stamp(name)
}

// dirMtime is a directory's modification time, 0 when it is not one.
func dirMtime(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil || !fi.IsDir() {
		return 0
	}
	return fi.ModTime().UnixNano()
}

// parallel runs fn(0) ... fn(workers-1) side by side and waits for them.
func parallel(workers int, fn func(w int)) {
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { fn(w) })
	}
	wg.Wait()
}

// openRoot opens the memory directory for the stats and reads of one
// scan; nil when it cannot be opened (then every file reads as gone).
func openRoot(dir string) *atomicfile.Root {
	r, err := atomicfile.OpenRoot(dir)
	if err != nil {
		return nil
	}
	return r
}

func closeRoot(r *atomicfile.Root) {
	if r != nil {
		r.Close()
	}
}
