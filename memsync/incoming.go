package memsync

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/secrets"
	"github.com/memdir/memdir/untrusted"
)

// HeldFile is a file a sync brought from a remote and held back, never
// written into memory: it holds what looks like a credential. The record
// stays, and lint and doctor report it, until the remote's version is
// clean or the user resolves it (memdir resolve FILE --keep mine).
type HeldFile struct {
	File   string `json:"file"`
	Remote string `json:"remote"`
	Kind   string `json:"kind"`
	Line   int    `json:"line"`
	// OID is the blob of the remote's version, in Repo (memdir's own
	// repository for that remote).
	OID  string `json:"oid"`
	Repo string `json:"repo"`
	// KeepMine is set by Resolve: the next sync replaces the remote's
	// version with this machine's.
	KeepMine bool `json:"keep_mine,omitempty"`
}

// HeldFileName, in a memory directory's state, records the files held
// back from each remote.
const HeldFileName = memdir.StateDir + "/sync-held.json"

// HeldIncoming lists the files syncs held back in the memory directory
// dir, from every remote.
func HeldIncoming(dir string) []HeldFile {
	data, err := untrusted.ReadFile(filepath.Join(dir, filepath.FromSlash(HeldFileName)), dir, 1<<20)
	if err != nil {
		return nil
	}
	var held []HeldFile
	if json.Unmarshal(data, &held) != nil {
		return nil
	}
	return held
}

// saveHeld replaces the records of remote in dir's list with held.
func saveHeld(dir, remote string, held []HeldFile) error {
	all := slices.DeleteFunc(HeldIncoming(dir), func(h HeldFile) bool { return h.Remote == remote })
	all = append(all, held...)
	name := filepath.FromSlash(HeldFileName)
	if len(all) == 0 {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	data, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.MkdirAllInside(dir, memdir.StateDir, 0o755); err != nil {
		return err
	}
	return atomicfile.WriteInside(dir, name, append(data, '\n'), atomicfile.Options{Perm: 0o600})
}

// scanIncoming reports whether a file the sync is to write into memory
// holds what looks like a credential; it then records the file as held.
func (p *projectSync) scanIncoming(n string, data []byte) bool {
	found := secrets.Scan(string(data))
	if len(found) == 0 {
		return false
	}
	p.incoming = append(p.incoming, HeldFile{File: n, Remote: p.url, Kind: found[0].Kind, Line: found[0].Line, OID: blobID(data), Repo: p.repo})
	return true
}

// keepMine reports whether the user resolved a held file as theirs to
// overwrite: the remote's version, oid, still the one held.
func (p *projectSync) keepMine(n, oid string) bool {
	for _, h := range p.heldBefore {
		if h.File == n && h.KeepMine && h.Remote == p.url && oid != "" && oid == h.OID {
			return true
		}
	}
	return false
}

// Message is the one line that says a file was held back.
func (h HeldFile) Message() string {
	return fmt.Sprintf("%s from %s held back, not written into memory: it holds what looks like a %s (line %d); `memdir resolve %s --keep mine` replaces it there with yours", h.File, h.Remote, h.Kind, h.Line, h.File)
}
