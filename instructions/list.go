package instructions

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// WriteList writes the `memdir instructions list` explanation of r: every
// file in order with its scope, kind, status, size and reason, then the
// skills and notes. Paths under base are shown relative to it.
func WriteList(w io.Writer, r Result, base string) error {
	rel := relTo(base)
	var b strings.Builder
	fmt.Fprintf(&b, "profile %s: %d files considered, %d loaded, %d bytes\n", r.Profile, len(r.Files), countLoaded(r.Files), r.Bytes)
	for i, f := range r.Files {
		size := ""
		if f.Size > 0 || f.Loaded() {
			size = fmt.Sprintf(" (%d bytes)", f.Size)
		}
		fmt.Fprintf(&b, "%3d  %-8s %-12s %-16s %s%s\n", i+1, f.Scope, f.Kind, f.Status, rel(f.Path), size)
		if f.Kind == KindImport {
			fmt.Fprintf(&b, "       @%s from %s, depth %d\n", f.Import, rel(f.ImportedFrom), f.Depth)
		}
		if f.Reason != "" {
			fmt.Fprintf(&b, "       %s\n", relText(f.Reason, base))
		}
	}
	if len(r.Skills) > 0 {
		b.WriteString("skills:\n")
	}
	for _, s := range r.Skills {
		fmt.Fprintf(&b, "  %s (%s) %s: %s\n", s.Name, s.Scope, rel(s.Path), s.Description)
		if s.Overrides != "" {
			fmt.Fprintf(&b, "       overrides %s\n", rel(s.Overrides))
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", relText(n, base))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func countLoaded(files []File) int {
	n := 0
	for _, f := range files {
		if f.Loaded() {
			n++
		}
	}
	return n
}

func relTo(base string) func(string) string {
	return func(p string) string {
		if base == "" || !within(base, p) {
			return p
		}
		r, err := filepath.Rel(base, p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
}

// relText shortens the absolute paths under base inside a message.
func relText(s, base string) string {
	if base == "" {
		return s
	}
	return strings.ReplaceAll(s, base+string(filepath.Separator), "")
}

// Text returns the loaded files' contents in order, each under a line naming
// the file and its scope, ready to go into an agent's context.
func (r Result) Text() string {
	var b strings.Builder
	for _, f := range r.Files {
		if !f.Loaded() {
			continue
		}
		fmt.Fprintf(&b, "Contents of %s (%s %s):\n\n%s", f.Path, f.Scope, f.Kind, f.Content)
		if !strings.HasSuffix(f.Content, "\n") {
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	return b.String()
}
