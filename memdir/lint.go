package memdir

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/secrets"
)

// Finding is one problem lint or an index check found.
type Finding struct {
	Kind string `json:"kind"` // e.g. "dangling", "orphan", "frontmatter", "secret"
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	Msg  string `json:"message"`
}

func (f Finding) String() string {
	if f.Line > 0 {
		return fmt.Sprintf("%s:%d: %s: %s", f.File, f.Line, f.Kind, f.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", f.File, f.Kind, f.Msg)
}

// CheckIndex checks MEMORY.md against the topic files on disk: dangling
// links, topics missing from the index, duplicate lines, long lines,
// content that is not an entry and an index over its caps.
func (d *Dir) CheckIndex() ([]Finding, error) {
	topics, _, err := d.List()
	if err != nil {
		return nil, err
	}
	return d.checkIndex(topics)
}

func (d *Dir) checkIndex(topics []*Topic) ([]Finding, error) {
	ix, data, err := d.readIndex()
	if err != nil {
		return nil, err
	}
	files, err := d.TopicFiles()
	if err != nil {
		return nil, err
	}
	private := map[string]bool{}
	for _, t := range topics {
		if t.Private {
			private[t.File] = true
		}
	}
	var indexable []string
	for _, f := range files {
		if !private[f] {
			indexable = append(indexable, f)
		}
	}
	overflow, err := d.readOverflow()
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, p := range index.Check(ix, data, indexable, overflow, index.DefaultCaps) {
		file := p.File
		if file == "" {
			file = IndexFile
		}
		if p.Line > 0 {
			file = IndexFile
		}
		out = append(out, Finding{Kind: p.Kind, File: file, Line: p.Line, Msg: p.Message})
	}
	return out, nil
}

// readOverflow parses the overflow index files present on disk.
func (d *Dir) readOverflow() (index.Overflow, error) {
	ents, err := os.ReadDir(d.Path)
	if err != nil {
		return nil, err
	}
	overflow := index.Overflow{}
	for _, e := range ents {
		t, ok := index.IsOverflowFile(e.Name())
		if !ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(d.Path, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", e.Name(), err)
		}
		overflow[t] = index.Parse(data).Entries()
	}
	return overflow, nil
}

// Lint checks everything: the index, every topic file's frontmatter, and
// secrets already on disk. It reads every file once.
func (d *Dir) Lint() ([]Finding, error) {
	topics, problems, err := d.List()
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, p := range problems {
		out = append(out, Finding{Kind: "frontmatter", File: p.File, Line: p.Line, Msg: p.Msg})
	}
	ixFindings, err := d.checkIndex(topics)
	if err != nil {
		return nil, err
	}
	out = append(out, ixFindings...)
	files, err := d.TopicFiles()
	if err != nil {
		return nil, err
	}
	for _, f := range append(files, IndexFile) {
		data, err := os.ReadFile(filepath.Join(d.Path, f))
		if err != nil {
			continue // missing index; unreadable topics were reported above
		}
		for _, s := range secrets.Scan(string(data)) {
			out = append(out, Finding{Kind: "secret", File: f, Line: s.Line, Msg: fmt.Sprintf("looks like a %s (%s): remove it from memory", s.Kind, s.Redacted)})
		}
	}
	for _, t := range topics {
		if len(t.Body) > MaxBodyBytes {
			out = append(out, Finding{Kind: "too-long", File: t.File, Msg: fmt.Sprintf("body is %d bytes, over %d: split it into topics", len(t.Body), MaxBodyBytes)})
		}
		if t.Expired(d.now()) {
			out = append(out, Finding{Kind: "expired", File: t.File, Msg: fmt.Sprintf("expired on %s: update it, or let `memdir dream` archive it", t.Expires)})
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
