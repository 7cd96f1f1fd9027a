package memdir

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/reldate"
)

// maxAttempts is how often a read-modify-write starts again from a fresh
// read when a file it was about to replace changed under it (people and
// agents edit memory without memdir's lock).
const maxAttempts = 12

// maxBackoff caps the wait between two attempts.
const maxBackoff = 128 * time.Millisecond

// retry runs op, under the lock, until it completes without meeting a
// file changed since op read it, waiting a little longer before each new
// attempt (1, 2, 4 ... 128 ms, then 128 ms: about 0.6 s in all) so that a
// burst of edits by another writer can pass. After maxAttempts it gives
// up with an error wrapping ErrConflict: nothing anyone else wrote was
// overwritten.
func retry(op func() error) error {
	var err error
	for i := range maxAttempts {
		if i > 0 {
			time.Sleep(min(time.Millisecond<<(i-1), maxBackoff))
		}
		if err = op(); !errors.Is(err, atomicfile.ErrChanged) {
			return err
		}
	}
	return fmt.Errorf("%w: %v %d times while memdir updated it; nothing of it was overwritten: try again", ErrConflict, err, maxAttempts)
}

// addLive records a memory in its topic file and the index, under the
// lock. A topic or index changed by someone else between memdir's read
// and its write is read again and the memory merged into the new content.
func (d *Dir) addLive(req AddRequest) (AddResult, error) {
	// A topic is read long after it was written: "next Thursday" becomes
	// the date it meant today, as the dream does for logged entries.
	req.Text, _ = reldate.Rewrite(req.Text, d.now())
	req.Why, _ = reldate.Rewrite(req.Why, d.now())
	req.How, _ = reldate.Rewrite(req.How, d.now())
	lk, err := d.lock("add")
	if err != nil {
		return AddResult{}, err
	}
	defer lk.Release()
	var res AddResult
	var wrote addWrites
	err = retry(func() error {
		r, w, err := d.addOnce(req)
		if r.Action == "" {
			return err
		}
		// A topic written by an earlier attempt reads as unchanged now:
		// the add still created or updated it.
		if res.Action == Created || res.Action == Updated {
			r.Action, r.MatchedBy = res.Action, res.MatchedBy
		}
		res = r
		wrote.index = wrote.index || w.index
		if w.overflow != "" {
			wrote.overflow = w.overflow
		}
		return err
	})
	if err != nil {
		return AddResult{}, err
	}
	res.IndexUpdated = wrote.index || wrote.overflow != ""
	if res.Action == Unchanged && !res.IndexUpdated {
		return res, nil
	}
	verb := map[Action]string{Created: "add", Updated: "update", Unchanged: "reindex"}[res.Action]
	paths := []string{res.File, IndexFile}
	if wrote.overflow != "" {
		paths = append(paths, wrote.overflow)
	}
	return res, d.Changed(Change{Paths: paths, Message: verb + " " + res.File})
}

// addWrites says which index files an attempt of an add rewrote.
type addWrites struct {
	index    bool   // MEMORY.md
	overflow string // the overflow index, if any
}

// addOnce is one attempt of addLive. It returns the action it took as
// soon as the topic was written, even when a later write meets a change.
func (d *Dir) addOnce(req AddRequest) (AddResult, addWrites, error) {
	var w addWrites
	ix, old, err := d.loadIndex()
	if err != nil {
		return AddResult{}, w, err
	}
	over, err := d.readOverflowOf(req.Type)
	if err != nil {
		return AddResult{}, w, err
	}
	t, st, matched, err := d.findExisting(ix, over, req)
	if err != nil {
		return AddResult{}, w, err
	}
	res := AddResult{Action: Created, MatchedBy: matched}
	if t == nil {
		t = d.newTopic(req)
		t.File = d.freeName(req.Type, req.Name)
		st = atomicfile.Stamp{}
	} else if !mergeInto(t, req, d.now(), d.supersede) {
		res.Action = Unchanged
	} else {
		res.Action = Updated
	}
	if len(t.Body) > MaxBodyBytes {
		return AddResult{}, w, &InputError{Msg: fmt.Sprintf("%s would grow to %d bytes, over the %d-byte limit for one topic: pass --new for a separate topic, or trim it with `memdir edit`", t.File, len(t.Body), MaxBodyBytes)}
	}
	res.File, res.Type, res.Name = t.File, t.Type, t.Name
	if res.Action != Unchanged {
		if err := d.writeTopic(t, st); err != nil {
			return AddResult{}, w, err
		}
	}
	if w.overflow, err = d.placeEntryIn(ix, t, over); err != nil {
		return res, w, err
	}
	if _, inMain := ix.Lookup(t.File); !inMain && !t.Private {
		res.ListedIn = index.OverflowFile(t.Type)
	}
	data, err := d.writeIndex(ix, old)
	if err != nil {
		return res, w, err
	}
	w.index = string(data) != string(old.data)
	res.Pressure = index.MeasureIndex(ix, data, index.DefaultCaps)
	res.Warning = res.Pressure.Message()
	return res, w, nil
}

// findExisting returns the topic an add should update, stamped as read:
// the file with the same type and name, else (unless req.New) the most
// similar topic of the same type in the index. It reads only the index
// and at most one topic file, so an add costs the same with ten topics or
// ten thousand.
func (d *Dir) findExisting(ix *index.Index, over *overflowIndex, req AddRequest) (*Topic, atomicfile.Stamp, string, error) {
	if req.New {
		return nil, atomicfile.Stamp{}, "", nil
	}
	file := FileName(req.Type, req.Name)
	t, st, err := d.readTopic(file)
	switch {
	case err == nil && strings.EqualFold(t.Name, req.Name):
		return t, st, "name", nil
	case err == nil && SameSubject(t.Name, req.Name):
		return t, st, "spelling", nil
	case err == nil:
		// Same slug, different name ("C++ tips" vs "C tips"): not the same.
	case errors.Is(err, ErrNotFound):
	default:
		return nil, st, "", &InputError{Msg: fmt.Sprintf("cannot update %v; fix the file or pass --new", err), Err: err}
	}
	desc := req.Description
	if desc == "" {
		desc = Describe(req.Text)
	}
	m := newMatcher(req.Name + " " + desc)
	m.cache = d.cache
	best, how, score := bestMatch(m, ix.Lines, req, file)
	if how != "name" {
		// Topics that `index --fit` moved to the type's overflow index
		// are memories too.
		if f, h, sc := bestMatch(m, over.ix.Lines, req, file); h == "name" || sc > score {
			best, how = f, h
		}
	}
	if best == "" {
		return nil, st, "", nil
	}
	t, st, err = d.readTopic(best)
	if err != nil {
		return nil, st, "", nil // a dangling or broken entry is lint's business
	}
	return t, st, how, nil
}
