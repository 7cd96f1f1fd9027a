package memdir

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/untrusted"
)

// SpecialFiles reports the entries of the memory directory (and of its
// daily logs) that memdir will not read: a FIFO, device or socket where a
// topic, an index or a log belongs. They are skipped everywhere else, so
// lint is where a person learns of them.
func (d *Dir) SpecialFiles() []Finding {
	var out []Finding
	check := func(rel string, mode os.FileMode) {
		if mode.IsRegular() || mode.IsDir() || mode&os.ModeSymlink != 0 || !strings.HasSuffix(rel, ".md") {
			return
		}
		e := &untrusted.Error{Path: filepath.ToSlash(rel), Err: untrusted.ErrNotRegular, Mode: mode}
		out = append(out, Finding{Kind: "special", Level: LevelError, File: filepath.ToSlash(rel),
			Msg: e.Reason() + ": memdir never reads it; remove it (rm " + filepath.ToSlash(rel) + ") or put a regular file there"})
	}
	ents, _ := os.ReadDir(d.Path)
	for _, e := range ents {
		check(e.Name(), e.Type())
	}
	_ = filepath.WalkDir(filepath.Join(d.Path, "logs"), func(p string, de os.DirEntry, err error) error {
		if err == nil {
			rel, _ := filepath.Rel(d.Path, p)
			check(rel, de.Type())
		}
		return nil
	})
	return out
}
