package memsync

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memdir"
)

// Keep is the side a resolution keeps.
type Keep string

// The sides a conflict resolves to.
const (
	// KeepMine keeps the topic as it is and drops the other version.
	KeepMine Keep = "mine"
	// KeepTheirs replaces the topic with the other version.
	KeepTheirs Keep = "theirs"
	// KeepBoth keeps the facts of both: the topic's lines, then the
	// other version's lines it lacks; its keys win where both have one.
	KeepBoth Keep = "both"
)

// ParseKeep reads a --keep value.
func ParseKeep(s string) (Keep, error) {
	switch k := Keep(s); k {
	case KeepMine, KeepTheirs, KeepBoth:
		return k, nil
	}
	return "", &ResolveError{Msg: fmt.Sprintf("--keep %q: give mine, theirs or both", s)}
}

// ResolveError is a resolution memdir refuses: the user's input (exit 2).
type ResolveError struct{ Msg string }

func (e *ResolveError) Error() string { return e.Msg }

// UserError marks the error as the user's input.
func (e *ResolveError) UserError() {}

// Resolution is what Resolve did.
type Resolution struct {
	Topic string `json:"topic"`
	Kept  Keep   `json:"kept"`
	// Removed are the conflict copies resolved.
	Removed []string `json:"removed"`
	// Rewrote is true when the topic's content changed.
	Rewrote bool `json:"rewrote"`
}

// Conflicts lists the conflict copies of a topic in dir.
func Conflicts(dir, topic string) []string {
	stem := strings.TrimSuffix(topic, ".md")
	matches, _ := filepath.Glob(filepath.Join(dir, globEscape(stem)+".conflict-*.md"))
	var out []string
	for _, m := range matches {
		if t, ok := memdir.ConflictCopy(filepath.Base(m)); ok && t == topic {
			out = append(out, filepath.Base(m))
		}
	}
	slices.Sort(out)
	return out
}

func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(s)
}

// Resolve settles the conflict a sync or the merge driver left for a
// topic (name is the topic's file or one conflict copy's): the topic gets
// the side keep names, through the store (a compare-and-swap against what
// was read, its index line in step, the change committed where memory is
// in git), and the conflict copies go. Once done, lint finds no conflict
// for the topic.
func Resolve(d *memdir.Dir, name string, keep Keep) (*Resolution, error) {
	topic, copies := name, []string(nil)
	if t, ok := memdir.ConflictCopy(name); ok {
		topic, copies = t, []string{name}
	} else {
		copies = Conflicts(d.Path, topic)
	}
	if len(copies) == 0 {
		for _, h := range HeldIncoming(d.Path) {
			if h.File == topic {
				return resolveHeld(d, h, keep)
			}
		}
		return nil, &ResolveError{Msg: fmt.Sprintf("%s has no conflict to resolve (no %s.conflict-*.md beside it)", topic, strings.TrimSuffix(topic, ".md"))}
	}
	if keep == KeepTheirs && len(copies) > 1 {
		return nil, &ResolveError{Msg: fmt.Sprintf("%s has %d conflict copies (%s): name the one to keep", topic, len(copies), strings.Join(copies, ", "))}
	}
	mine, err := atomicfile.ReadInside(d.Path, topic)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("resolve %s: %w", topic, err)
	}
	res := &Resolution{Topic: topic, Kept: keep, Removed: copies}
	next := mine
	for _, c := range copies {
		theirs, err := atomicfile.ReadInside(d.Path, c)
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", topic, err)
		}
		switch {
		case keep == KeepTheirs:
			next = theirs
		case keep == KeepBoth:
			next = unionTopic(next, theirs)
		}
	}
	if next != nil && string(next) != string(mine) {
		if _, err := d.Replace(topic, mine, next); err != nil {
			return nil, fmt.Errorf("resolve %s: %w", topic, err)
		}
		res.Rewrote = true
	}
	lk, err := d.Lock("resolve")
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	for _, c := range copies {
		if err := os.Remove(filepath.Join(d.Path, c)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("resolve %s: %w", topic, err)
		}
	}
	if err := atomicfile.SyncDir(d.Path); err != nil {
		return nil, err
	}
	return res, d.Changed(memdir.Change{Paths: copies, Message: fmt.Sprintf("resolve %s: keep %s", topic, keep)})
}

// unionTopic is a topic with the facts of both versions: mine's keys
// and lines, then the keys and lines of theirs that mine lacks
// (modified the later, created the earlier).
func unionTopic(mine, theirs []byte) []byte {
	if len(mine) == 0 {
		return theirs
	}
	mf, mb, okM := splitTopic(mine)
	tf, tb, okT := splitTopic(theirs)
	if !okM || !okT {
		return []byte(strings.Join(uniteInOrder(lines(string(mine)), lines(string(theirs))), ""))
	}
	mk, okM := fmKeys(mf)
	tk, okT := fmKeys(tf)
	fm := mf
	if okM && okT {
		fm = nil
		for _, k := range mk {
			v := k.text
			for _, o := range tk {
				if o.name == k.name && (k.name == "modified" || k.name == "created") {
					v, _, _ = mergeKey(k.name, "", k.text, o.text, false, true, true)
				}
			}
			fm = append(fm, v)
		}
		for _, o := range tk {
			if !slices.ContainsFunc(mk, func(k fmKey) bool { return k.name == o.name }) {
				fm = append(fm, o.text)
			}
		}
	}
	body := uniteInOrder(lines(mb), lines(tb))
	return []byte("---\n" + strings.Join(fm, "") + "---\n" + strings.Join(body, ""))
}

// resolveHeld settles a file a sync held back: mine marks it so that the
// next sync replaces the remote's version with this machine's; theirs
// and both take the remote's version into memory after all (the user
// judged the scanner wrong), through the store.
func resolveHeld(d *memdir.Dir, h HeldFile, keep Keep) (*Resolution, error) {
	res := &Resolution{Topic: h.File, Kept: keep}
	if keep != KeepMine {
		out, err := newGit(context.Background(), h.Repo).run(nil, "cat-file", "blob", h.OID)
		if err != nil {
			return nil, fmt.Errorf("resolve %s: the held version: %w", h.File, err)
		}
		mine, err := atomicfile.ReadInside(d.Path, h.File)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("resolve %s: %w", h.File, err)
		}
		next := out
		if keep == KeepBoth {
			next = unionTopic(mine, out)
		}
		if _, err := d.Replace(h.File, mine, next); err != nil {
			return nil, fmt.Errorf("resolve %s: %w", h.File, err)
		}
		res.Rewrote = true
	}
	lk, err := d.Lock("resolve")
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	// The list is read under the lock a sync writes it under, so that
	// what a sync held back meanwhile is kept.
	var same []HeldFile
	for _, o := range HeldIncoming(d.Path) {
		if o.File == h.File && o.Remote == h.Remote {
			if keep == KeepMine {
				o.KeepMine = true
				same = append(same, o)
			}
			continue
		}
		if o.Remote == h.Remote {
			same = append(same, o)
		}
	}
	return res, saveHeld(d.Path, h.Remote, same)
}

// Unresolved lists the held files no resolution is pending for: what lint
// and doctor report.
func Unresolved(dir string) []HeldFile {
	return slices.DeleteFunc(HeldIncoming(dir), func(h HeldFile) bool { return h.KeepMine })
}
