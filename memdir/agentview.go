package memdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/frontmatter"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/untrusted"
)

// AgentIndex returns MEMORY.md as an agent may see it: lines that point
// at private topics are left out, even when a person wrote them there by
// hand. Only the entries that can still fall inside the load caps are
// checked, and only their frontmatter is read, a few files at a time, so
// the cost stays that of reading about 200 file headers however large the
// index grows.
func (d *Dir) AgentIndex(caps index.Caps) ([]byte, error) {
	data, _, err := d.AgentIndexParsed(caps)
	return data, err
}

// AgentIndexParsed is AgentIndex with the text it returns parsed (nil
// when there is none), for a caller that goes on to load it
// (index.LoadIndex): the index is then parsed once, not twice.
func (d *Dir) AgentIndexParsed(caps index.Caps) ([]byte, *index.Index, error) {
	// A read: no stamp, whose SHA-256 of the whole index only a write
	// checks against.
	data, err := atomicfile.ReadInside(d.Path, IndexFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("read %s: %w", IndexFile, err)
	}
	if len(data) == 0 {
		return data, nil, nil
	}
	ix := index.Parse(data)
	if caps.Lines <= 0 {
		caps = index.DefaultCaps
	}
	// Every entry line that can be loaded, plus one more for each private
	// one dropped before it, is checked; gather a generous first batch.
	var files []string
	for _, l := range ix.Lines {
		if l.Entry != nil {
			files = append(files, l.Entry.File)
			if len(files) == caps.Lines*2 {
				break
			}
		}
	}
	private := d.privateAmong(files)
	if len(private) == 0 {
		return data, ix, nil
	}
	var out bytes.Buffer
	for _, l := range ix.Lines {
		if l.Entry != nil && private[l.Entry.File] {
			continue
		}
		out.WriteString(l.Raw)
		out.WriteByte('\n')
	}
	return out.Bytes(), index.Parse(out.Bytes()), nil
}

// privateAmong reads the frontmatter of files in parallel and returns the
// private ones.
func (d *Dir) privateAmong(files []string) map[string]bool {
	const workers = 4
	// One directory for every file: opening it per file doubled the opens.
	heads, err := untrusted.OpenHeads(d.Path)
	if err != nil {
		return nil
	}
	defer heads.Close()
	found := make([]bool, len(files))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			buf := make([]byte, 4096)
			for i := w; i < len(files); i += workers {
				found[i] = d.isPrivate(heads, files[i], buf)
			}
		}(w)
	}
	wg.Wait()
	var private map[string]bool
	for i, p := range found {
		if p {
			if private == nil {
				private = map[string]bool{}
			}
			private[files[i]] = true
		}
	}
	return private
}

// isPrivate reads the start of a topic file (inside the memory directory,
// never through a link out) into buf and reports whether its frontmatter
// says private: true. A file that cannot be read is not private: the index
// line stays, and lint reports it as dangling. Only a frontmatter longer
// than buf costs a second, whole read; a "private:" line past buf counts.
func (d *Dir) isPrivate(heads *untrusted.Heads, file string, buf []byte) bool {
	if strings.ContainsAny(file, `/\`) {
		return false
	}
	n, _ := heads.ReadHead(file, buf) // n is 0 when it cannot be opened
	head := buf[:n]
	if n == len(buf) && frontmatter.HasOpening(head) {
		// The file goes on past buf: when its frontmatter does too, a
		// "private:" line may lie beyond what was read.
		if _, _, err := frontmatter.Split(head); errors.Is(err, frontmatter.ErrUnclosed) {
			if whole, rerr := atomicfile.ReadInside(d.Path, file); rerr == nil {
				head = whole
			}
		}
	}
	if !bytes.Contains(head, []byte("private")) || !frontmatter.HasOpening(head) {
		return false
	}
	return SaysPrivate(head)
}

// SaysPrivate reports whether a topic file's frontmatter says private:
// true, failing closed: in a frontmatter block whose closing line is
// missing, every line after the opening one counts, so a lost "---" never
// puts a private topic into an agent's context or a default search.
func SaysPrivate(data []byte) bool {
	yml, _, err := frontmatter.Split(data)
	if errors.Is(err, frontmatter.ErrUnclosed) {
		yml, _ = frontmatter.AfterOpening(data)
	} else if err != nil {
		return false
	}
	for _, line := range strings.Split(string(yml), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimRight(line, " \t\r"), "private:"); ok {
			v, _, _ = strings.Cut(v, "#")
			switch strings.ToLower(strings.Trim(strings.TrimSpace(v), `"'`)) {
			case "true", "yes", "on":
				return true
			}
			return false
		}
	}
	return false
}
