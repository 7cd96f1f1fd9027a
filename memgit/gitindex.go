package memgit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// readIndex reads this work tree's index, noting where the entries of
// the repository paths in want are; a missing index is empty. An index
// memgit cannot write back faithfully (a split or sparse index, an
// unknown required extension) is refused rather than rewritten.
func (r *Repo) readIndex(want map[string]bool) (*gitIndex, error) {
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	sort.Strings(names)
	data, stamp, err := readIndexFile(filepath.Join(r.gitDir, "index"))
	if errors.Is(err, fs.ErrNotExist) {
		return emptyIndex(names), nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the git index: %w", err)
	}
	ix, err := parseIndex(data, names, stamp)
	if errors.Is(err, errIndexV4) {
		return decodeIndex(data, stamp, want)
	}
	return ix, err
}

// readIndexFile reads the index and its mtime.
func readIndexFile(name string) ([]byte, indexStamp, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, indexStamp{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, indexStamp{}, err
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, indexStamp{}, err
	}
	return data, stampOf(fi), nil
}

// decodeIndex reads a version 4 index through go-git's codec, smudging
// racy entries as parseIndex does. (go-git's encoder drops the
// assume-unchanged bit of the entries it writes back: git then looks at
// those files again. A version 4 index is rare enough to take that.)
func decodeIndex(data []byte, stamp indexStamp, want map[string]bool) (*gitIndex, error) {
	idx := &index.Index{}
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(idx); err != nil {
		return nil, fmt.Errorf("read the git index: %w", err)
	}
	idx.Cache = nil // stale once entries change; git rebuilds it
	ix := &gitIndex{version: 4, v4: idx}
	for _, e := range idx.Entries {
		// go-git's encoder sorts entries by name alone, with an unstable
		// sort, so the stages of a conflicted path could come out of order.
		if e.Stage != 0 && !want[e.Name] {
			return nil, &RefusedError{Reason: fmt.Sprintf("%s has conflicts: resolve them with git first (git commit would refuse too)", e.Name)}
		}
		st := fileStat{mtime: uint32(e.ModifiedAt.Unix()), mtimeNs: uint32(e.ModifiedAt.Nanosecond())}
		if stamp.racy(st) {
			e.Size = 0
		}
		if e.SkipWorktree && want[e.Name] && !slices.Contains(ix.skipped, e.Name) {
			ix.skipped = append(ix.skipped, e.Name)
		}
	}
	return ix, nil
}

// staged is a file as recorded: its blob, mode and what lstat said.
type staged struct {
	hash plumbing.Hash
	mode filemode.FileMode
	info fs.FileInfo // nil for a removed path
}

// updateIndex sets the entries of the given repository paths to what was
// committed (removing those of removed paths) and leaves every other
// entry as it was.
func updateIndex(idx *index.Index, files map[string]staged) {
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		if _, ok := files[e.Name]; !ok {
			kept = append(kept, e)
		}
	}
	idx.Entries = kept
	for name, f := range files {
		if f.info == nil {
			continue
		}
		st := statOf(f.info)
		idx.Entries = append(idx.Entries, &index.Entry{
			Name: name, Hash: f.hash, Mode: f.mode, Size: st.size,
			CreatedAt:  time.Unix(int64(st.ctime), int64(st.ctimeNs)),
			ModifiedAt: time.Unix(int64(st.mtime), int64(st.mtimeNs)),
			Dev:        st.dev, Inode: st.ino, UID: st.uid, GID: st.gid,
		})
	}
}
