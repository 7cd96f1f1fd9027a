package memsync

import (
	"strings"
)

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
