package importer

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/dream"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/reldate"
	"github.com/memdir/memdir/secrets"
	"github.com/memdir/memdir/untrusted"
)

// Options say how to write.
type Options struct {
	// DryRun works out the report and writes nothing. A memory that add
	// would merge into a similar topic (not one of its own name) is
	// reported as created then.
	DryRun bool
	// Now is the import's time: the day relative dates resolve against
	// when a memory has no date of its own.
	Now time.Time
	// Progress, when set, hears after each memory how many of them the
	// import has written (or skipped) so far (a terminal's progress line).
	Progress func(done, total int)
}

// Item is one memory in the report.
type Item struct {
	Source string `json:"source"`
	File   string `json:"file,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Report says what an import did: created, merged into an existing topic,
// or skipped (and why).
type Report struct {
	Kind    Kind   `json:"kind"`
	Source  string `json:"source"`
	DryRun  bool   `json:"dry_run"`
	Created []Item `json:"created"`
	Merged  []Item `json:"merged"`
	Skipped []Item `json:"skipped"`
	// IndexLines are lines of a Claude MEMORY.md that are not entries
	// (notes written straight into the index), added to memdir's.
	IndexLines int `json:"index_lines,omitempty"`
}

// Changed reports whether the import wrote (or would write) anything.
func (r Report) Changed() bool { return len(r.Created)+len(r.Merged) > 0 || r.IndexLines > 0 }

// Summary says what happened in a few words.
func (r Report) Summary() string {
	s := fmt.Sprintf("%d created, %d merged, %d skipped", len(r.Created), len(r.Merged), len(r.Skipped))
	if r.IndexLines > 0 {
		s += fmt.Sprintf(", %d index lines", r.IndexLines)
	}
	return s
}

// Import writes mems into d and reports what it did; skips are what the
// reader already passed over.
func Import(d *memdir.Dir, kind Kind, source string, mems []Memory, skips []Skip, o Options) (Report, error) {
	r := Report{Kind: kind, Source: source, DryRun: o.DryRun, Created: []Item{}, Merged: []Item{}, Skipped: []Item{}}
	for _, s := range skips {
		r.Skipped = append(r.Skipped, Item{Source: s.Source, Reason: s.Reason})
	}
	if !o.DryRun {
		if _, err := d.Init(); err != nil {
			return r, err
		}
	}
	var copied []string
	for i, m := range mems {
		file, err := importOne(d, m, o, &r)
		if err != nil {
			return r, err
		}
		if file != "" {
			copied = append(copied, file)
		}
		if o.Progress != nil {
			o.Progress(i+1, len(mems))
		}
	}
	if len(copied) > 0 && !o.DryRun {
		if _, err := d.ReconcileWith(memdir.ReconcileRequest{Files: copied, What: "import"}); err != nil {
			return r, err
		}
	}
	return r, nil
}

// importOne writes one memory into d and records it in r; it returns
// the file it copied byte for byte (for the store to reconcile), if any.
func importOne(d *memdir.Dir, m Memory, o Options, r *Report) (copied string, err error) {
	if m.File == index.IndexName {
		n, err := AddIndexLines(d, strings.Split(m.Text, "\n"), o.DryRun)
		r.IndexLines += n
		return "", err
	}
	file, ok, err := copyTopic(d, m, o.DryRun)
	switch {
	case err != nil:
		return "", err
	case ok:
		r.Created = append(r.Created, Item{Source: m.Source, File: file})
		return file, nil
	case file != "":
		r.Skipped = append(r.Skipped, Item{Source: m.Source, File: file, Reason: "already in memory, byte for byte"})
		return "", nil
	}
	return "", add(d, m, o, r)
}

// copyTopic copies a Claude topic file byte for byte when memdir has no
// file of its name and the file is one memdir reads as it is. It returns
// the file's name and true when it copied (or would), the name and false
// when the same bytes are already there, and "" when the memory must go
// through add instead.
func copyTopic(d *memdir.Dir, m Memory, dry bool) (string, bool, error) {
	if m.Raw == nil || !memdir.IsTopicFile(m.File) || secrets.Scan(string(m.Raw)) != nil ||
		memdir.StripPrivate(string(m.Raw)) != string(m.Raw) {
		return "", false, nil
	}
	t, err := memdir.ParseTopic(m.File, m.Raw)
	if err != nil {
		return "", false, nil
	}
	// memdir's topic of the same type and name, under its own file name:
	// merged by add.
	if own := memdir.FileName(t.Type, t.Name); own != m.File {
		if _, err := os.Lstat(filepath.Join(d.Path, own)); err == nil {
			return "", false, nil
		}
	}
	cur, err := untrusted.ReadFile(filepath.Join(d.Path, m.File), d.Path, untrusted.MaxMemory)
	switch {
	case err == nil && bytes.Equal(cur, m.Raw):
		return m.File, false, nil
	case err == nil, !errors.Is(err, fs.ErrNotExist):
		return "", false, nil // memdir's own topic: merged by add
	case dry:
		return m.File, true, nil
	}
	lk, err := d.Lock("import " + m.File)
	if err != nil {
		return "", false, err
	}
	defer lk.Release()
	if _, err := os.Lstat(filepath.Join(d.Path, m.File)); err == nil {
		return "", false, nil // written meanwhile: merge instead
	}
	if err := atomicfile.WriteFile(filepath.Join(d.Path, m.File), m.Raw, 0o600); err != nil {
		return "", false, fmt.Errorf("import %s: %w", m.File, err)
	}
	return m.File, true, nil
}

// add records m as `memdir add` would.
func add(d *memdir.Dir, m Memory, o Options, r *Report) error {
	date := m.Date
	if date.IsZero() {
		date = o.Now
	}
	text, _ := reldate.Rewrite(m.Text, date)
	typ := m.Type
	if !typ.Valid() {
		typ = dream.Classify(m.Name, text)
	}
	req := memdir.AddRequest{Type: typ, Name: m.Name, Text: text, Description: m.Description, Tags: m.Tags}
	if err := req.Validate(); err != nil {
		if memdir.IsInput(err) {
			r.Skipped = append(r.Skipped, Item{Source: m.Source, Reason: err.Error()})
			return nil
		}
		return err
	}
	if o.DryRun {
		file := memdir.FileName(typ, req.Name)
		if _, err := os.Stat(filepath.Join(d.Path, file)); err == nil {
			r.Merged = append(r.Merged, Item{Source: m.Source, File: file})
		} else {
			r.Created = append(r.Created, Item{Source: m.Source, File: file})
		}
		return nil
	}
	res, err := d.Add(req)
	if err != nil {
		if memdir.IsInput(err) {
			r.Skipped = append(r.Skipped, Item{Source: m.Source, Reason: err.Error()})
			return nil
		}
		return err
	}
	it := Item{Source: m.Source, File: res.File}
	switch res.Action {
	case memdir.Created, memdir.Logged:
		r.Created = append(r.Created, it)
	case memdir.Updated:
		r.Merged = append(r.Merged, it)
	default:
		it.Reason = "already in memory"
		r.Skipped = append(r.Skipped, it)
	}
	return nil
}

// AddIndexLines appends to d's MEMORY.md the lines of a source index
// that are notes rather than entries (Claude loads them as they are) and
// that d's index does not hold yet. It returns how many it added (or
// would). A line that looks like a credential is left out.
func AddIndexLines(d *memdir.Dir, lines []string, dry bool) (int, error) {
	if len(lines) == 0 {
		return 0, nil
	}
	do := func(cur []byte) ([]string, []byte) {
		have := map[string]bool{}
		for _, l := range index.Parse(cur).Lines {
			have[strings.TrimSpace(l.Raw)] = true
		}
		var add []string
		for _, l := range lines {
			if t := strings.TrimSpace(l); !have[t] && secrets.Scan(l) == nil {
				have[t] = true
				add = append(add, l)
			}
		}
		out := bytes.TrimRight(cur, "\n")
		if len(out) > 0 {
			out = append(out, '\n')
		}
		if len(add) > 0 {
			out = append(out, []byte(strings.Join(add, "\n")+"\n")...)
		}
		return add, out
	}
	if dry {
		cur, _ := d.IndexBytes()
		add, _ := do(cur)
		return len(add), nil
	}
	lk, err := d.Lock("import " + index.IndexName)
	if err != nil {
		return 0, err
	}
	defer lk.Release()
	cur, err := untrusted.ReadFile(filepath.Join(d.Path, index.IndexName), d.Path, untrusted.MaxMemory)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, err
	}
	add, out := do(cur)
	if len(add) == 0 {
		return 0, nil
	}
	return len(add), atomicfile.WriteFile(filepath.Join(d.Path, index.IndexName), out, 0o600)
}
