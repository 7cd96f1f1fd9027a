package memsync

import (
	"strings"

	"github.com/memdir/memdir/index"
)

// mergeIndex merges three versions of MEMORY.md (or an overflow index)
// as a union of entries keyed by file: an entry added on either side is
// kept, one removed on one side and untouched on the other is removed,
// one changed on one side only takes the change, and one changed on both
// keeps the local line. Lines that are not entries are the local file's.
func mergeIndex(base, local, remote []byte) []byte {
	b, l, r := byFile(base), byFile(local), byFile(remote)
	out := index.Parse(local)
	for _, e := range index.Parse(remote).Entries() {
		lv, inL := l[e.File]
		bv, inB := b[e.File]
		switch {
		case !inL && inB && bv == e:
			// removed here, untouched there: stays removed
		case !inL, inB && lv == bv && lv != e:
			out.Upsert(e)
		}
	}
	for file, e := range l {
		if _, inR := r[file]; !inR {
			if bv, inB := b[file]; inB && bv == e {
				out.Remove(file)
			}
		}
	}
	return out.Bytes()
}

// byFile maps an index's entries by file; the first line for a file wins.
func byFile(data []byte) map[string]index.Entry {
	m := map[string]index.Entry{}
	for _, e := range index.Parse(data).Entries() {
		if _, ok := m[e.File]; !ok {
			m[e.File] = e
		}
	}
	return m
}

// merger runs three-way text merges of topic files with `git merge-file`
// on copies in a temp directory memdir owns.
type merger struct {
	g   *git
	tmp string
}

// conflictName is the file that keeps the remote's version of a topic
// both sides changed: <stem>.conflict-<7 hex of its blob>.md. It is a
// topic file memdir reads (and lint lists as not in the index) until a
// person merges it by hand and removes it.
func conflictName(name, remoteOID string) string {
	return strings.TrimSuffix(name, ".md") + ".conflict-" + remoteOID[:7] + ".md"
}

// ConflictName is the conflict copy of the topic name that keeps data.
func ConflictName(name string, data []byte) string {
	return conflictName(name, blobID(data))
}
