package atomicfile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/memdir/memdir/proc"
)

// TempPID returns the PID a temp file's name records, or 0 for a name
// that records none (a temp of an older memdir, or not a temp).
func TempPID(name string) int {
	rest, ok := strings.CutPrefix(name, TempPrefix)
	if !ok {
		return 0
	}
	i := strings.LastIndexByte(rest, '-')
	if i < 0 {
		return 0
	}
	j := strings.LastIndexByte(rest[:i], '-')
	if j < 0 {
		return 0
	}
	pid, err := strconv.Atoi(rest[j+1 : i])
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// CleanTemps removes the temp files a killed writer left in the
// directories subs of dir (relative, "." for dir itself): those whose
// writer is provably gone (its PID, recorded in the name, is not running)
// and those older than minAge, whatever their writer. A temp of a live
// writer younger than minAge stays. It returns the removed paths,
// relative to dir and slash-separated. Directories that cannot be read
// are skipped; nothing outside dir is touched.
func CleanTemps(dir string, subs []string, minAge time.Duration, now time.Time) []string {
	root, err := openRoot(dir)
	if err != nil {
		return nil
	}
	defer root.Close()
	var removed []string
	for _, sub := range subs {
		d, err := root.Open(sub)
		if err != nil {
			continue
		}
		ents, _ := d.ReadDir(-1)
		d.Close()
		for _, e := range ents {
			if !strings.HasPrefix(e.Name(), TempPrefix) || !e.Type().IsRegular() {
				continue
			}
			fi, err := e.Info()
			if err != nil {
				continue
			}
			pid := TempPID(e.Name())
			dead := pid > 0 && pid != os.Getpid() && !proc.Alive(pid)
			if !dead && now.Sub(fi.ModTime()) < minAge {
				continue
			}
			rel := filepath.Join(sub, e.Name())
			if root.Remove(rel) == nil {
				removed = append(removed, filepath.ToSlash(rel))
			}
		}
	}
	return removed
}
