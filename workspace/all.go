package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/settings"
)

// MemoryDirs lists the memory directories under a memdir home
// (<home>/projects/<slug>/memory), sorted: every project's personal
// memory, as `daemon --all` dreams them and the viewer switches between
// them.
func MemoryDirs(home string) ([]string, error) {
	if home == "" {
		return nil, fmt.Errorf("the memdir home is unknown: set MEMDIR_HOME")
	}
	dirs, err := filepath.Glob(filepath.Join(home, "projects", "*", "memory"))
	if err != nil {
		return nil, fmt.Errorf("list memory directories: %w", err)
	}
	sort.Strings(dirs)
	out := dirs[:0]
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			out = append(out, d)
		}
	}
	return out, nil
}

// OpenRecorded opens a memory directory found under the home, as its own
// project's commands would: with the settings of the root it records.
func (o *Options) OpenRecorded(dir string) (*Workspace, error) {
	root, err := canonical.RecordedRoot(dir)
	if err != nil {
		return nil, err
	}
	s, err := settings.Load(settings.Options{Root: root, Getenv: o.getenv, Committed: committed})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	ws, err := o.Open(&Project{Repo: canonical.Repo{Root: root}, Settings: s}, canonical.Location{Dir: dir, Root: root})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return ws, nil
}
