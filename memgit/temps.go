package memgit

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Temporary files memgit writes into the object store (a loose object
// before it is renamed into place, a pack before it is) carry the
// writer's PID and start time in their names, after git's own prefix
// (tmp_obj_, tmp_pack_), so that the leftovers of a memdir that was
// killed are provably memdir's and its own: the next commit removes
// them. git's own temporary files, and a live process's, are never
// touched; a memdir leftover whose writer cannot be known (off Linux)
// goes once it is a day old.

// tempMaxAge is how old a memdir temporary file must be before it is
// removed without proof that its writer is gone.
const tempMaxAge = 24 * time.Hour

// tempTag is this process's part of a temporary file's name, worked out
// on first use (reading /proc at start-up would cost every command).
var tempTag = sync.OnceValue(func() string {
	p := self()
	start := p.start
	if start == "" {
		start = "0"
	}
	return "memdir_" + strconv.Itoa(p.pid) + "_" + start + "_"
})

// createTemp creates a temporary file in dir named prefix, this
// process's tag and a random part.
func createTemp(dir, prefix string) (*os.File, error) {
	return os.CreateTemp(dir, prefix+tempTag())
}

// cleanTemps removes the temporary files memdir processes that are gone
// left in dir, and returns how many it removed.
func cleanTemps(dir string, now time.Time) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		proc, ok := tempWriter(e.Name())
		if !ok || e.IsDir() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if proc.gone() || now.Sub(info.ModTime()) > tempMaxAge {
			if os.Remove(filepath.Join(dir, e.Name())) == nil {
				n++
			}
		}
	}
	return n
}

// tempWriter reads the process out of a memdir temporary file's name.
func tempWriter(name string) (process, bool) {
	_, rest, ok := strings.Cut(name, "_memdir_")
	if !ok || !strings.HasPrefix(name, "tmp_") {
		return process{}, false
	}
	f := strings.SplitN(rest, "_", 3)
	if len(f) < 3 {
		return process{}, false
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil || pid <= 0 {
		return process{}, false
	}
	p := process{pid: pid, start: f[1]}
	if p.start == "0" {
		p.start = ""
	}
	return p, true
}
