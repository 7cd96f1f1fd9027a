package memsync

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
)

// maxFolder is the longest folder name ProjectFolder makes; longer
// encodings keep their start and end in a hash.
const maxFolder = 200

// ProjectFolder is the remote folder of a project identity: one path
// segment that every file system accepts and that two identities never
// share. Lowercase letters, digits, '-' and '.' stay (a leading '.'
// does not, so no folder is hidden), '/' becomes '+', and any other byte,
// upper-case letters included (case-insensitive file systems would fold
// them), becomes '_' and two hex digits.
func ProjectFolder(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '.' && i > 0:
			b.WriteByte(c)
		case c == '/':
			b.WriteByte('+')
		default:
			fmt.Fprintf(&b, "_%02x", c)
		}
	}
	s := b.String()
	if len(s) > maxFolder {
		sum := sha256.Sum256([]byte(id))
		s = s[:maxFolder-17] + "~" + hex.EncodeToString(sum[:8])
	}
	return s
}

// Synced reports whether a file of a memory directory, by base name, is
// one sync carries: a topic file, MEMORY.md or an overflow index. Names
// git's fast-import would need to quote, and hidden files, are not.
func Synced(name string) bool {
	if name == "" || strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '"' || r == '\\' || r == '/' }) {
		return false
	}
	if name == memdir.IndexFile {
		return true
	}
	if _, ok := index.IsOverflowFile(name); ok {
		return true
	}
	return memdir.IsTopicFile(name)
}

// TeamSynced reports whether a file is one a team sync carries: what
// Synced carries, but of topics only those named as memdir names them
// (<type>_<slug>.md, or a conflict copy of one). A teammate's push is
// not reviewed as a commit is, so it must not plant other markdown (a
// CLAUDE.md, AGENTS.md, README.md) in the project.
func TeamSynced(name string) bool {
	if !Synced(name) {
		return false
	}
	if isIndex(name) {
		return true
	}
	if topic, ok := memdir.ConflictCopy(name); ok {
		name = topic
	}
	t := index.Entry{File: name}.Type()
	return t != "" && len(name) > len(t)+len("_.md")
}

// carries reports whether this sync carries a file of a memory
// directory: Synced for the user's own remote, TeamSynced for a team's.
func (s *syncer) carries(name string) bool {
	if s.personal {
		return Synced(name)
	}
	return TeamSynced(name)
}

// isConflictCopy reports whether a file is a kept conflict version,
// which the index does not list (lint reports it until a person merges
// it).
func isConflictCopy(name string) bool {
	_, ok := memdir.ConflictCopy(name)
	return ok
}

// isIndex reports whether a synced file is an index, merged by entry.
func isIndex(name string) bool {
	_, ok := index.IsOverflowFile(name)
	return ok || name == memdir.IndexFile
}

// blobID is git's object id of a blob holding data (SHA-1, the format
// of the repository memdir creates), so a local file is compared with
// the remote's without running git.
func blobID(data []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}
