package watch

import (
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
)

// Ignored reports whether a path inside the memory directory (relative,
// slash-separated) is none of the watcher's business: memdir's own state
// (.memdir/), .git, dream's lock, editor swap, backup and lock files, and
// atomicfile's temp files, anywhere in the path.
func Ignored(rel string) bool {
	for part := range strings.SplitSeq(rel, "/") {
		if ignoredName(part) {
			return true
		}
	}
	return false
}

// ignoredName reports whether one name in a path is ignored. Every
// dotfile is: that covers .memdir, .git, .consolidate-lock, vim's
// .name.swp, emacs's .#name lock links and atomicfile's temp files.
func ignoredName(name string) bool {
	switch {
	case name == "":
		return false
	case strings.HasPrefix(name, "."), strings.HasPrefix(name, atomicfile.TempPrefix):
		return true
	case name == "4913": // vim probes whether it may create files
		return true
	case strings.HasSuffix(name, "~"): // vim, emacs and nano backups
		return true
	case len(name) > 1 && strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"): // emacs autosave
		return true
	}
	for _, suffix := range []string{".swp", ".swx", ".swo", "___jb_tmp___", "___jb_old___"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// ownFile reports whether a top-level name is an index the store or the
// watcher writes (MEMORY.md and the overflow indexes): events for them are
// the watcher's own writes, or a person editing the index, and never
// cause a reconciliation, so the watcher cannot loop.
func ownFile(name string) bool {
	if name == memdir.IndexFile {
		return true
	}
	_, ok := index.IsOverflowFile(name)
	return ok
}
