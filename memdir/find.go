package memdir

import (
	"errors"
	"fmt"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"golang.org/x/text/unicode/norm"
)

// AmbiguousError reports a name that matches several topics.
type AmbiguousError struct {
	Name  string
	Files []string
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%q matches %d topics (%s): name the file instead", e.Name, len(e.Files), strings.Join(e.Files, ", "))
}

// Find resolves what a person typed (a file name, a topic name or a slug)
// to one topic file's base name.
func (d *Dir) Find(ref string) (string, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" || strings.ContainsAny(ref, "/\\\x00") || strings.Contains(ref, "..") {
		return "", &InputError{Msg: fmt.Sprintf("%q is not a topic: give its name or its file name, e.g. feedback_testing_policy.md", ref)}
	}
	ref = norm.NFC.String(ref)
	if strings.HasSuffix(ref, ".md") && IsTopicFile(ref) {
		_, err := atomicfile.StatInside(d.Path, ref)
		if err == nil {
			return ref, nil
		}
		if errors.Is(err, atomicfile.ErrOutside) {
			return "", err
		}
	}
	if !d.Exists() {
		return "", &InputError{Msg: fmt.Sprintf("no memory yet at %s: `memdir add` or `memdir init` creates it", d.Path), Err: ErrNotFound}
	}
	files, err := d.TopicFiles()
	if err != nil {
		return "", err
	}
	if f := strings.TrimSuffix(ref, ".md") + ".md"; contains(files, f) {
		return f, nil
	}
	slug := Slugify(ref)
	var hits []string
	for _, f := range files {
		if _, rest, ok := strings.Cut(f, "_"); ok && rest == slug+".md" {
			hits = append(hits, f)
		}
	}
	if len(hits) == 0 {
		hits = d.findByName(files, ref)
	}
	switch len(hits) {
	case 0:
		return "", &InputError{Msg: fmt.Sprintf("no topic named %q: `memdir list` shows the topics", ref), Err: ErrNotFound}
	case 1:
		return hits[0], nil
	}
	return "", &InputError{Msg: (&AmbiguousError{Name: ref, Files: hits}).Error()}
}

// findByName scans topic names, for a topic whose file name does not
// follow from its name (written by hand or renamed).
func (d *Dir) findByName(files []string, name string) []string {
	var hits []string
	for _, f := range files {
		if t, err := d.Read(f); err == nil && strings.EqualFold(t.Name, name) {
			hits = append(hits, f)
		}
	}
	return hits
}
