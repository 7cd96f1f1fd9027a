package memgit

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/adler32"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
)

// Objects of bigObject bytes or more (a 10,000-entry tree, an index file
// far over its caps) are written as zlib streams of stored deflate
// blocks framed here rather than by compress/flate, whose writer
// allocates about a megabyte of tables even at NoCompression; a file that
// big is streamed from disk through a small buffer rather than read
// whole. In a process that lives for milliseconds, every megabyte
// allocated is a megabyte of fresh pages the kernel must fault in.

// storedBlock is the most a stored deflate block holds.
const storedBlock = 1<<16 - 1

// storedWriter writes a zlib stream of stored (uncompressed) deflate
// blocks, the format zlib's level 0 writes and git reads.
type storedWriter struct {
	w     io.Writer
	block []byte // a 5-byte block header, then up to storedBlock bytes
	sum   hash.Hash32
	err   error
}

func newStoredWriter(w io.Writer) *storedWriter {
	sw := &storedWriter{w: w, block: make([]byte, 5, 5+storedBlock), sum: adler32.New()}
	// CMF 0x78 (deflate, 32 KB window), FLG 0x01 (level 0, check bits).
	_, sw.err = w.Write([]byte{0x78, 0x01})
	return sw
}

func (sw *storedWriter) Write(p []byte) (int, error) {
	sw.sum.Write(p)
	n := len(p)
	for len(p) > 0 && sw.err == nil {
		k := copy(sw.block[len(sw.block):cap(sw.block)], p)
		sw.block = sw.block[:len(sw.block)+k]
		p = p[k:]
		if len(sw.block) == cap(sw.block) {
			sw.flush(false)
		}
	}
	if sw.err != nil {
		return 0, sw.err
	}
	return n, nil
}

// flush writes the pending block.
func (sw *storedWriter) flush(final bool) {
	if sw.err != nil {
		return
	}
	n := uint16(len(sw.block) - 5)
	sw.block[0] = 0 // BTYPE 00: stored
	if final {
		sw.block[0] = 1 // BFINAL
	}
	binary.LittleEndian.PutUint16(sw.block[1:], n)
	binary.LittleEndian.PutUint16(sw.block[3:], ^n)
	_, sw.err = sw.w.Write(sw.block)
	sw.block = sw.block[:5]
}

// Close writes the final block and the Adler-32 checksum.
func (sw *storedWriter) Close() error {
	sw.flush(true)
	if sw.err == nil {
		_, sw.err = sw.w.Write(binary.BigEndian.AppendUint32(nil, sw.sum.Sum32()))
	}
	return sw.err
}

// errChanged is returned when a file's size changed while it was being
// stored.
var errChanged = errors.New("changed while being stored")

// storeFileBlob stores a regular file of size bytes as a blob, streaming
// it from disk into the object through a small buffer while hashing it.
func (r *Repo) storeFileBlob(abs string, size int64) (plumbing.Hash, error) {
	src, err := os.Open(abs)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("read %s: %w", abs, err)
	}
	defer src.Close()
	tmp, err := createTemp(r.objectsDir(), "obj")
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("store blob: %w", err)
	}
	defer os.Remove(tmp.Name())
	header := "blob " + strconv.FormatInt(size, 10) + "\x00"
	sum := sha1.New()
	io.WriteString(sum, header)
	zw := newStoredWriter(tmp)
	io.WriteString(zw, header)
	n, err := io.CopyBuffer(io.MultiWriter(sum, zw), io.LimitReader(src, size+1), make([]byte, 64<<10))
	if err == nil && n != size {
		err = fmt.Errorf("%s: %w", abs, errChanged)
	}
	if err == nil {
		err = zw.Close()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	var h plumbing.Hash
	copy(h[:], sum.Sum(nil))
	if err != nil {
		return h, fmt.Errorf("store blob %s: %w", h, err)
	}
	hex := h.String()
	if _, err := os.Lstat(filepath.Join(r.objectsDir(), hex[:2], hex[2:])); err == nil {
		return h, nil
	}
	return h, r.placeObject(tmp.Name(), h)
}

// placeObject renames a written temporary object file into place.
func (r *Repo) placeObject(tmp string, h plumbing.Hash) error {
	hex := h.String()
	dir := filepath.Join(r.objectsDir(), hex[:2])
	final := filepath.Join(dir, hex[2:])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("store %s: %w", hex, err)
	}
	_ = os.Chmod(tmp, 0o444)
	fi, err := os.Lstat(tmp)
	if err == nil {
		err = os.Rename(tmp, final)
	}
	if err != nil {
		return fmt.Errorf("store %s: %w", hex, err)
	}
	r.written += fi.Size()
	return nil
}

// maxObject bounds the size a loose object's header may claim, so that a
// corrupt header cannot ask for an absurd allocation.
const maxObject = 1 << 31

// readLoose reads an inflated loose object from rd: its
// "<type> <size>\x00" header, then exactly size bytes of content, into a
// buffer of that size, and on to the end of the stream so that zlib
// checks its checksum.
func readLoose(rd io.Reader, t plumbing.ObjectType) ([]byte, error) {
	var head [64]byte
	n, nul := 0, -1
	for nul < 0 {
		if n == len(head) {
			return nil, fmt.Errorf("not a %s object", t)
		}
		m, err := rd.Read(head[n:])
		n += m
		nul = bytes.IndexByte(head[:n], 0)
		if nul < 0 && err != nil {
			return nil, fmt.Errorf("not a %s object: %w", t, err)
		}
	}
	typ, sz, _ := bytes.Cut(head[:nul], []byte{' '})
	size, err := strconv.Atoi(string(sz))
	if string(typ) != t.String() || err != nil || size < 0 || size > maxObject {
		return nil, fmt.Errorf("not a %s object", t)
	}
	body := make([]byte, size)
	k := copy(body, head[nul+1:n])
	if k < n-nul-1 {
		return nil, fmt.Errorf("%s object longer than its header says", t)
	}
	if _, err := io.ReadFull(rd, body[k:]); err != nil {
		return nil, fmt.Errorf("%s object shorter than its header says: %w", t, err)
	}
	var one [1]byte
	if m, err := io.ReadFull(rd, one[:]); m != 0 || !errors.Is(err, io.EOF) {
		if m != 0 {
			err = fmt.Errorf("%s object longer than its header says", t)
		}
		return nil, err
	}
	return body, nil
}
