package memdir

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/index"
)

// AgentIndex returns MEMORY.md as an agent may see it: lines that point
// at private topics are left out, even when a person wrote them there by
// hand. Only the entries that can still fall inside the load caps are
// checked, so the cost stays that of reading about 200 file headers
// however large the index grows.
func (d *Dir) AgentIndex(caps index.Caps) ([]byte, error) {
	ix, data, err := d.readIndex()
	if err != nil || len(data) == 0 {
		return data, err
	}
	if caps.Lines <= 0 {
		caps = index.DefaultCaps
	}
	kept, checked, dropped := 0, 0, false
	var out bytes.Buffer
	for _, l := range ix.Lines {
		if l.Entry != nil && checked < caps.Lines && d.isPrivate(l.Entry.File) {
			dropped = true
			continue
		}
		if l.Entry != nil {
			checked++
		}
		kept++
		out.WriteString(l.Raw)
		out.WriteByte('\n')
	}
	if !dropped {
		return data, nil
	}
	return out.Bytes(), nil
}

// isPrivate reads just the frontmatter of a topic file and reports whether
// it says private: true. A file that cannot be read is not private: the
// index line stays, and lint reports it as dangling.
func (d *Dir) isPrivate(file string) bool {
	if strings.ContainsAny(file, `/\`) {
		return false
	}
	f, err := os.Open(filepath.Join(d.Path, file))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 16<<10))
	for n := 0; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), " \t\r")
		if n == 0 {
			if strings.TrimPrefix(line, "\ufeff") != "---" {
				return false
			}
			continue
		}
		if line == "---" || line == "..." {
			return false
		}
		if v, ok := strings.CutPrefix(line, "private:"); ok {
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
