//go:build linux

package memgit

import (
	"io/fs"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// fillStat copies what git compares in its stat check (ctime, device,
// inode, owner) so that git sees the entry as clean without re-reading
// the file.
func fillStat(e *index.Entry, fi fs.FileInfo) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		e.CreatedAt = time.Unix(st.Ctim.Unix())
		e.Dev = uint32(st.Dev)
		e.Inode = uint32(st.Ino)
		e.UID = st.Uid
		e.GID = st.Gid
	}
}
