package doctor

import (
	"fmt"
	"strings"
	"time"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memsync"
)

// syncChecks are the checks of what syncs leave in personal memory: no
// conflict copy waits, and no incoming file is held back.
func syncChecks(o Options) []Check {
	out := []Check{conflicts(memdir.Open(o.MemoryDir, memdir.Live)), heldIncoming(o.MemoryDir)}
	if o.MemdirHome != "" {
		out = append(out, syncRemote(o.MemdirHome))
	}
	return out
}

// syncRemote: the last sync with the user's sync remote did not fail. A
// session start syncs in the background, where nobody reads its errors,
// so a remote that fails every time is found here.
func syncRemote(home string) Check {
	c := Check{Name: "sync-remote", Status: OK, Detail: "the last sync did not fail"}
	url, err := memsync.Remote(home)
	switch {
	case err != nil:
		c.Status, c.Detail = Fail, err.Error()
		c.Fix = "memdir remote set URL (a git remote you own), or memdir remote unset"
		return c
	case url == "":
		c.Detail = "no sync remote set"
		return c
	}
	if f, failed := memsync.LastFailure(home); failed {
		c.Status = Fail
		c.Detail = fmt.Sprintf("the last sync with %s failed (%s): %s", url, f.At.Format(time.RFC3339), f.Reason)
		c.Fix = "memdir sync (to see it fail); then mend the remote, memdir remote set URL, or memdir remote unset"
	}
	return c
}

// conflicts: no conflict copy (<topic>.conflict-<hash>.md, which a sync
// keeps when two machines changed the same fact of a topic) waits.
func conflicts(d *memdir.Dir) Check {
	c := Check{Name: "conflicts", Status: OK, Detail: "no conflict copies"}
	var copies, topics []string
	for _, f := range d.ConflictCopies(nil) {
		copies = append(copies, f.File)
		if t, ok := memdir.ConflictCopy(f.File); ok {
			topics = append(topics, t)
		}
	}
	if len(copies) > 0 {
		c.Status = Fail
		c.Detail = "another machine's version of a topic both changed, kept by a sync, waits to be merged: " + strings.Join(copies, ", ")
		c.Fix = "memdir resolve " + topics[0] + " --keep mine|theirs|both"
	}
	return c
}

// heldIncoming: no file a sync brought is held back for what looks like
// a credential.
func heldIncoming(dir string) Check {
	c := Check{Name: "sync-incoming", Status: OK, Detail: "nothing a sync brought is held back"}
	held := memsync.Unresolved(dir)
	if len(held) == 0 {
		return c
	}
	var names []string
	for _, h := range held {
		names = append(names, h.File+" from "+h.Remote+" ("+h.Kind+")")
	}
	c.Status = Fail
	c.Detail = "a sync held back what looks like a credential, never written into memory: " + strings.Join(names, "; ")
	c.Fix = "memdir resolve " + held[0].File + " --keep mine (replace the remote's version with yours at the next sync), or ask whoever pushed it to remove it"
	return c
}
