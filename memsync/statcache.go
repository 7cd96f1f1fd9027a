package memsync

import (
	"bytes"
	"crypto/rand"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/untrusted"
)

// cacheDir holds, in a sync's state directory, one stat cache per
// remote folder.
const cacheDir = "cache"

// statCache is what the last sync of one memory directory saw: the stat
// and blob id of each synced file, and the commit of main it left. A
// file whose size, modification time, change time and inode are as
// recorded is not read or hashed again (git's index makes the same bet),
// and a directory where every file is as recorded, synced at the commit
// both sides still hold, is not merged at all. It is derived data: a
// missing or damaged cache costs one full read.
type statCache struct {
	URL, Dir string
	// Token is the token the directory held (TokenFile) when the cache
	// was written: a directory without it (made again, a new clone at the
	// same path) is not the one the cache describes.
	Token string
	// Commit is main after the sync that wrote the cache. The files that
	// sync wrote are not in Files: the next sync reads them again, and
	// caches them then.
	Commit  string
	Files   map[string]fileStat
	Skipped []Skipped
	// Held maps each file held back here (a credential, say) to the
	// version it was held from: the base of its merge once it is let go.
	Held map[string]string
}

// fileStat identifies a file's content without reading it.
type fileStat struct {
	Size, Mtime, Ctime int64
	Ino                uint64
	OID                string // "" when not known
}

// sameStat reports whether two stats are of one content; a racy stat
// (Mtime -1) is never.
func (s fileStat) sameStat(o fileStat) bool {
	return s.Mtime >= 0 && s.Size == o.Size && s.Mtime == o.Mtime && s.Ctime == o.Ctime && s.Ino == o.Ino
}

// racy reports whether the stat was taken too soon after a change to be
// trusted (atomicfile.Racy, the rule every stamp cache shares).
func (s fileStat) racy(now time.Time) bool {
	return atomicfile.Racy(s.Mtime, s.Ctime, now.UnixNano())
}

func cachePath(state, folder string) string {
	return filepath.Join(state, cacheDir, folder)
}

// loadCache returns the cache of folder when it was written for url and
// dir, else an empty one.
func loadCache(state, folder, url, dir string) *statCache {
	return readCache(state, folder).validFor(url, dir)
}

// readCache is the cache of folder as stored, nil when there is none or
// it does not decode.
func readCache(state, folder string) *statCache {
	data, err := os.ReadFile(cachePath(state, folder))
	if err != nil {
		return nil
	}
	var c statCache
	if gob.NewDecoder(bytes.NewReader(data)).Decode(&c) != nil || c.Files == nil {
		return nil
	}
	return &c
}

// dir is the directory the cache was written for, "" for no cache.
func (c *statCache) dir() string {
	if c == nil {
		return ""
	}
	return c.Dir
}

// validFor is the cache when it was written for url and dir, else an
// empty one.
func (c *statCache) validFor(url, dir string) *statCache {
	if c == nil || c.URL != url || c.Dir != dir {
		return &statCache{URL: url, Dir: dir, Files: map[string]fileStat{}}
	}
	return c
}

func (c *statCache) save(state, folder string) error {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(c); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(state, cacheDir), 0o700); err != nil {
		return err
	}
	return atomicfile.WriteFile(cachePath(state, folder), b.Bytes(), 0o600)
}

// unchanged reports whether the directory, as scanned, is what the cache
// recorded at commit.
func (c *statCache) unchanged(scan map[string]fileStat, commit string) bool {
	if c.Commit == "" || c.Commit != commit || len(scan) != len(c.Files) {
		return false
	}
	for n, s := range scan {
		if old, ok := c.Files[n]; !ok || old.OID == "" || !old.sameStat(s) {
			return false
		}
	}
	return true
}

// had reports whether the directory held the file when the cache was
// written, so that its absence now is a removal made here.
func (c *statCache) had(n string) bool {
	_, ok := c.Files[n]
	return ok
}

// known returns the blob id the cache holds for a file as scanned, ""
// when the file moved or the entry is not to be trusted.
func (c *statCache) known(n string, s fileStat) string {
	if old, ok := c.Files[n]; ok && old.sameStat(s) {
		return old.OID
	}
	return ""
}

// scanDir stamps every synced regular file of dir. A missing dir has
// none.
func scanDir(dir string, now time.Time) (map[string]fileStat, error) {
	out := map[string]fileStat{}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	root, err := atomicfile.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	defer root.Close()
	for _, e := range ents {
		if !e.Type().IsRegular() || !Synced(e.Name()) {
			continue
		}
		size, mtime, ctime, ino, ok := root.Stamp(e.Name())
		if !ok {
			continue
		}
		s := fileStat{Size: size, Mtime: mtime, Ctime: ctime, Ino: ino}
		if s.racy(now) {
			s.Mtime = -1 // never matches: read every time until it settles
		}
		out[e.Name()] = s
	}
	return out, nil
}

// TokenFile, in a memory directory's state, holds a random token that
// ties the directory to its stat cache: only files the cache saw in this
// very directory count as removed here when they are gone.
const TokenFile = memdir.StateDir + "/sync-token"

// readToken returns the directory's sync token, "" when it has none:
// only a regular file (never a link) holding 32 hex digits is one.
func readToken(dir string) string {
	name := filepath.Join(dir, filepath.FromSlash(TokenFile))
	if fi, err := os.Lstat(name); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	data, err := untrusted.ReadFile(name, dir, 64)
	if err != nil {
		return ""
	}
	tok := strings.TrimSpace(string(data))
	if b, err := hex.DecodeString(tok); err != nil || len(b) != 16 {
		return ""
	}
	return tok
}

func dirExists(dir string) bool {
	fi, err := os.Stat(dir)
	return err == nil && fi.IsDir()
}

// ensureToken returns the directory's token, writing a new one when it
// has none (called under the directory's lock).
func ensureToken(dir, token string) (string, error) {
	if token != "" {
		return token, nil
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("sync token: %w", err)
	}
	token = hex.EncodeToString(b[:])
	if err := atomicfile.MkdirAllInside(dir, memdir.StateDir, 0o755); err != nil {
		return "", fmt.Errorf("sync token: %w", err)
	}
	// Whatever else sits at the token's place (a directory, a link a
	// clone committed) goes: the state is memdir's.
	name := filepath.Join(dir, filepath.FromSlash(TokenFile))
	if fi, err := os.Lstat(name); err == nil && !fi.Mode().IsRegular() {
		if err := os.RemoveAll(name); err != nil {
			return "", fmt.Errorf("sync token: %w", err)
		}
	}
	if err := atomicfile.WriteInside(dir, filepath.FromSlash(TokenFile), []byte(token+"\n"), atomicfile.Options{Perm: 0o600}); err != nil {
		return "", fmt.Errorf("sync token: %w", err)
	}
	return token, nil
}
