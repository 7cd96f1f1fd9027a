package memgit

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Packs are written with go-git's packfile encoder (delta search over a
// window of packWindow objects, git's default, reusing the deltas of the
// packs being rewritten) and indexed with its idxfile writer. What is
// done here is the crash-safe order git follows: the pack and its index
// are written under temporary names and synced, the index is renamed
// into place before the pack (go-git lists packs by their .pack files
// and fails on one without an index; git ignores either half alone), the
// directory is synced, and only then are the loose objects and packs
// the new pack holds deleted, packs before their indexes. A reader,
// memdir's own or git, finds every object at every moment: in the old
// place, the new one, or both.

// packWindow is how many neighbouring objects each object is compared
// with in the delta search (git's pack.window default).
const packWindow = 10

// packDir is where packs live.
func (r *Repo) packDir() string { return filepath.Join(r.objectsDir(), "pack") }

// packInfo is one pack of the object store.
type packInfo struct {
	name string // pack-<hash>, without extension
	size int64  // of the .pack file
	keep bool   // a .keep file protects it from being repacked
}

// packs lists the packs that have both a .pack and an .idx.
func (r *Repo) packs() ([]packInfo, error) {
	entries, err := os.ReadDir(r.packDir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, e := range entries {
		have[e.Name()] = true
	}
	var out []packInfo
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), ".pack")
		if !ok || !strings.HasPrefix(base, "pack-") || !have[base+".idx"] {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, err
		}
		out = append(out, packInfo{name: base, size: info.Size(), keep: have[base+".keep"]})
	}
	return out, nil
}

// packHashes lists the objects a pack holds, from its index.
func (r *Repo) packHashes(name string) ([]plumbing.Hash, error) {
	f, err := os.Open(filepath.Join(r.packDir(), name+".idx"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	idx := idxfile.NewMemoryIndex()
	if err := idxfile.NewDecoder(bufio.NewReader(f)).Decode(idx); err != nil {
		return nil, fmt.Errorf("%s.idx: %w", name, err)
	}
	iter, err := idx.Entries()
	if err != nil {
		return nil, err
	}
	defer iter.Close()
	var out []plumbing.Hash
	for {
		e, err := iter.Next()
		if err != nil {
			return out, nil // io.EOF
		}
		out = append(out, e.Hash)
	}
}

// packCounts sums the objects the packs hold, read from the fan-out
// tables of their indexes.
func (r *Repo) packCounts(packs []packInfo) (int, error) {
	n := 0
	for _, p := range packs {
		f, err := os.Open(filepath.Join(r.packDir(), p.name+".idx"))
		if err != nil {
			return 0, err
		}
		var head [8 + 256*4]byte
		_, err = io.ReadFull(f, head[:])
		f.Close()
		if err != nil {
			return 0, fmt.Errorf("%s.idx: %w", p.name, err)
		}
		fanout := head[:256*4] // version 1: the table comes first
		if string(head[:4]) == "\xfftOc" {
			fanout = head[8:]
		}
		n += int(binary.BigEndian.Uint32(fanout[255*4:]))
	}
	return n, nil
}

// looseHashes lists the loose objects.
func (r *Repo) looseHashes() ([]plumbing.Hash, error) {
	var out []plumbing.Hash
	for i := range 256 {
		dir := fmt.Sprintf("%02x", i)
		entries, err := os.ReadDir(filepath.Join(r.objectsDir(), dir))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if name := dir + e.Name(); len(name) == 40 && isHex(name) {
				out = append(out, plumbing.NewHash(name))
			}
		}
	}
	return out, nil
}

// objectsOnly hides go-git's DeltaObject from the encoder, so that it
// searches every object for a delta afresh instead of reusing the
// deltas packs hold.
type objectsOnly struct{ storer.EncodedObjectStorer }

// writePack packs the given objects into a new pack and its index, in
// place once it returns, and returns the pack's name. With reuse, the
// deltas the objects have in packs are kept, and only the others are
// searched; without, every object is.
func (r *Repo) writePack(hashes []plumbing.Hash, reuse bool) (string, error) {
	if err := os.MkdirAll(r.packDir(), 0o755); err != nil {
		return "", err
	}
	tmp, err := createTemp(r.packDir(), "pack")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	bw := bufio.NewWriterSize(tmp, 64<<10)
	var src storer.EncodedObjectStorer = r.st.Storage
	if !reuse {
		src = objectsOnly{r.st.Storage}
	}
	sum, err := packfile.NewEncoder(bw, src, false).Encode(hashes, packWindow)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if err != nil {
		return "", fmt.Errorf("write pack: %w", err)
	}
	hook("pack-written")
	idxTmp, err := r.writeIndex(tmp)
	if err != nil {
		return "", err
	}
	defer os.Remove(idxTmp)
	name := "pack-" + sum.String()
	for _, mv := range [][2]string{{idxTmp, name + ".idx"}, {tmp.Name(), name + ".pack"}} {
		_ = os.Chmod(mv[0], 0o444)
		if err := os.Rename(mv[0], filepath.Join(r.packDir(), mv[1])); err != nil {
			return "", fmt.Errorf("write pack: %w", err)
		}
	}
	if err := syncDir(r.packDir()); err != nil {
		return "", fmt.Errorf("write pack: %w", err)
	}
	r.st.Reindex()
	return name, nil
}

// writeIndex indexes a written pack (indexPack) into a synced
// temporary file, and returns its name.
func (r *Repo) writeIndex(pack *os.File) (string, error) {
	idx, err := indexPack(pack)
	if err != nil {
		return "", fmt.Errorf("index pack: %w", err)
	}
	f, err := createTemp(r.packDir(), "idx")
	if err != nil {
		return "", err
	}
	bw := bufio.NewWriter(f)
	_, err = idxfile.NewEncoder(bw).Encode(idx)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("index pack: %w", err)
	}
	return f.Name(), nil
}

// removeLoose deletes loose objects (now packed), and the fan-out
// directories they leave empty.
func (r *Repo) removeLoose(hashes []plumbing.Hash) {
	dirs := map[string]bool{}
	for _, h := range hashes {
		hex := h.String()
		if os.Remove(filepath.Join(r.objectsDir(), hex[:2], hex[2:])) == nil {
			dirs[hex[:2]] = true
		}
	}
	for d := range dirs {
		_ = os.Remove(filepath.Join(r.objectsDir(), d)) // fails unless empty
	}
}

// removePack deletes a pack the new one holds: the .pack first, so that
// no reader lists a pack without its index.
func (r *Repo) removePack(name string) {
	for _, ext := range []string{".pack", ".rev", ".bitmap", ".idx"} {
		_ = os.Remove(filepath.Join(r.packDir(), name+ext))
	}
}

// syncDir makes a directory's entries (renames into it) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
