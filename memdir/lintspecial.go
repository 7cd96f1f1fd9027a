package memdir

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/internal/lazyre"
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

// conflictCopy names the file a sync keeps the other machine's version of
// a topic in when both sides changed it: <stem>.conflict-<7 hex>.md.
var conflictCopy = lazyre.New(`^(.+)\.conflict-[0-9a-f]{7}\.md$`)

// ConflictCopy reports whether name (a base name) is a conflict copy: the
// other side's version of a topic that a sync or git pull could not
// merge, kept beside it as <stem>.conflict-<7 hex>.md. topic is the
// topic's file name. A copy is read and searched like a topic, but is
// never given an index line: lint lists it until a person merges it.
func ConflictCopy(name string) (topic string, ok bool) {
	m := conflictCopy().FindStringSubmatch(name)
	if m == nil {
		return "", false
	}
	return m[1] + ".md", true
}

// ConflictCopies reports the topics a sync could not merge: each copy
// stays, and is listed, until a person merges it into its topic and
// removes it. The orphan findings Lint makes for these files are dropped.
func (d *Dir) ConflictCopies(findings []Finding) []Finding {
	ents, _ := os.ReadDir(d.Path)
	copies := map[string]string{}
	for _, e := range ents {
		if topic, ok := ConflictCopy(e.Name()); ok && e.Type().IsRegular() {
			copies[e.Name()] = topic
		}
	}
	var out []Finding
	for _, f := range findings {
		if _, ok := copies[f.File]; !ok || f.Kind != index.KindOrphan {
			out = append(out, f)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(copies)) {
		out = append(out, Finding{Kind: "conflict", Level: LevelError, File: name,
			Msg: "the other side's version of " + copies[name] + ", which git pull or a sync could not merge (both changed one fact): run `memdir resolve " + name + " --keep mine|theirs|both`"})
	}
	return out
}
