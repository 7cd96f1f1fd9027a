package memdir

import (
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/memdir/memdir/atomicfile"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/secrets"
)

// Finding is one problem lint or an index check found.
type Finding struct {
	Kind  string `json:"kind"`  // e.g. "dangling", "orphan", "frontmatter", "secret"
	Level string `json:"level"` // "error", "warning" or "note"; only errors fail a check
	File  string `json:"file"`
	Line  int    `json:"line,omitempty"`
	Msg   string `json:"message"`
}

// The levels of a Finding.
const (
	LevelError   = index.LevelError
	LevelWarning = index.LevelWarning
	LevelNote    = index.LevelNote
)

func (f Finding) String() string {
	if f.Line > 0 {
		return fmt.Sprintf("%s:%d: %s: %s: %s", f.File, f.Line, f.Level, f.Kind, f.Msg)
	}
	return fmt.Sprintf("%s: %s: %s: %s", f.File, f.Level, f.Kind, f.Msg)
}

// levelOf decides how serious an index problem is for memdir: a topic
// no agent can find is an error; an index over its caps is a warning,
// since `memdir index --fit` repairs it without losing anything.
func levelOf(p index.Problem) string {
	switch p.Kind {
	case index.KindOrphan, index.KindDangling, index.KindDuplicate:
		return LevelError
	case index.KindOverCap:
		return LevelWarning
	}
	return p.Level
}

// CheckIndex checks MEMORY.md against the topic files on disk: dangling
// links, topics missing from the index, duplicate lines, long lines,
// content that is not an entry and an index over its caps.
func (d *Dir) CheckIndex() ([]Finding, error) {
	snap, err := d.snapshot(false)
	if err != nil {
		return nil, err
	}
	_, data, err := d.readIndex()
	if err != nil {
		return nil, err
	}
	return d.checkIndex(snap, data)
}

func (d *Dir) checkIndex(snap *snapshot, data []byte) ([]Finding, error) {
	private := map[string]bool{}
	for _, t := range snap.topics {
		if t.Private {
			private[t.File] = true
		}
	}
	overflow, err := d.readOverflow()
	if err != nil {
		return nil, err
	}
	// A topic that does not parse is one a rebuild leaves out: its fix is
	// its frontmatter, not `index --rebuild`.
	unparsed := map[string]bool{}
	for _, p := range snap.problems {
		unparsed[p.File] = true
	}
	var out []Finding
	for _, p := range index.Check(data, index.Disk{Topics: snap.files, Overflow: overflow}, index.DefaultCaps) {
		if p.Kind == index.KindOrphan && private[p.File] {
			continue // private topics stay out of the index on purpose
		}
		file := p.Source
		if file == "" {
			file = p.File
		}
		msg := p.Message
		if p.Kind == index.KindOrphan && unparsed[p.File] {
			msg = fmt.Sprintf("%s has no line in the index, and `memdir index --rebuild` leaves it out until its frontmatter parses: fix what lint says of it, then rebuild", p.File)
		}
		out = append(out, Finding{Kind: p.Kind, Level: levelOf(p), File: file, Line: p.Line, Msg: msg})
	}
	return out, nil
}

// readOverflow reads the overflow index files present on disk, by name.
func (d *Dir) readOverflow() (map[string][]byte, error) {
	ents, err := os.ReadDir(d.Path)
	if err != nil {
		return nil, err
	}
	overflow := map[string][]byte{}
	for _, e := range ents {
		if _, ok := index.IsOverflowFile(e.Name()); !ok {
			continue
		}
		data, err := atomicfile.ReadInside(d.Path, e.Name())
		if errors.Is(err, atomicfile.ErrOutside) {
			continue // lint reports the link
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", e.Name(), err)
		}
		overflow[e.Name()] = data
	}
	return overflow, nil
}

// Lint checks everything: the index, every topic file's frontmatter
// (duplicate keys, a type the file name contradicts, a name with
// invisible characters), text that is not UTF-8, secrets already on disk
// and symlinks that lead out of the directory. It reads every file once.
func (d *Dir) Lint() ([]Finding, error) {
	snap, err := d.snapshot(true)
	if err != nil {
		return nil, err
	}
	ix, data, err := d.readIndex()
	if errors.Is(err, atomicfile.ErrOutside) {
		ix, data, err = index.Parse(nil), nil, nil // lintLinks reports it
	}
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, p := range snap.problems {
		out = append(out, Finding{Kind: "frontmatter", Level: LevelError, File: p.File, Line: p.Line, Msg: p.Msg})
	}
	ixFindings, err := d.checkIndex(snap, data)
	if err != nil {
		return nil, err
	}
	out = append(out, ixFindings...)
	snap.raw[IndexFile] = data
	for _, f := range append(snap.files, IndexFile) {
		for _, s := range secrets.Scan(string(snap.raw[f])) {
			out = append(out, Finding{Kind: "secret", Level: LevelError, File: f, Line: s.Line, Msg: fmt.Sprintf("looks like a %s (%s): remove it from memory", s.Kind, s.Redacted)})
		}
	}
	links, err := d.lintLinks()
	if err != nil {
		return nil, err
	}
	out = append(out, links...)
	topics := snap.topics
	for _, t := range topics {
		out = append(out, lintTopic(t, snap.raw[t.File])...)
		if _, listed := ix.Lookup(t.File); listed && t.Private {
			out = append(out, Finding{Kind: "private", Level: LevelError, File: IndexFile, Msg: fmt.Sprintf("lists the private topic %s, which agents must not see: remove the line", t.File)})
		}
		if len(t.Body) > MaxBodyBytes {
			out = append(out, Finding{Kind: "too-long", Level: LevelError, File: t.File, Msg: fmt.Sprintf("body is %d bytes, over %d: split it into topics", len(t.Body), MaxBodyBytes)})
		}
		if t.Expired(d.now()) {
			out = append(out, Finding{Kind: "expired", Level: LevelWarning, File: t.File, Msg: fmt.Sprintf("expired on %s: update it, or let `memdir dream` archive it", t.Expires)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out, nil
}
