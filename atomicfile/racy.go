package atomicfile

import "time"

// Racy reports whether a file stamp taken at `at` (wall clock; all times
// in nanoseconds) may hide a later change: the file changed so shortly
// before that a second change could keep the same size and times, as
// git's index treats a racily clean entry. Whole-second stamps (FAT,
// HFS+, some network file systems) get two seconds; nanosecond ones a
// generous margin over the kernel's coarse clock tick. Every stamp cache
// (the search index, the sync's stat cache) asks here.
func Racy(mtime, ctime, at int64) bool {
	window := int64(100 * time.Millisecond)
	if mtime%int64(time.Second) == 0 {
		window = int64(2 * time.Second)
	}
	return max(mtime, ctime) >= at-window
}
