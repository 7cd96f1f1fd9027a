package embed

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"path/filepath"
	"slices"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/search"
	"github.com/memdir/memdir/untrusted"
)

// The vectors file, derived data under the memory directory's state
// directory (git-ignored with the rest of .memdir/).
const (
	StateDir  = memdir.StateDir + "/embed"
	storeFile = "vectors"
	magic     = "MDEMBED2" // each entry with its file's stamp
	magicV1   = "MDEMBED1" // without stamps: read, each file read once again
	// maxStore bounds the file read: 10,000 topics of 1,024 dimensions
	// take 41 MB.
	maxStore = 256 << 20
)

// hashLen is the bytes of a text's SHA-256 kept to tell it changed.
const hashLen = 16

type textHash [hashLen]byte

func hashOf(text string) textHash {
	sum := sha256.Sum256([]byte(text))
	var h textHash
	copy(h[:], sum[:])
	return h
}

// entry is one topic's vector, the hash of the text it was made of and
// the stamp of the file that text was read from (zero: unknown).
type entry struct {
	hash  textHash
	stamp search.Stamp
	vec   []float32
}

// store is every topic's vector for one model and server.
type store struct {
	key     string // model and URL: another key starts the store anew
	dims    int
	entries map[string]entry // by topic file
}

// load reads the store of dir; a missing, damaged or foreign file gives
// an empty store for key.
func load(dir, key string) *store {
	s := &store{key: key, entries: map[string]entry{}}
	data, err := untrusted.ReadFile(filepath.Join(dir, filepath.FromSlash(StateDir), storeFile), dir, maxStore)
	if err != nil {
		return s
	}
	if got, err := decodeStore(data); err == nil && got.key == key {
		return got
	}
	return s
}

// decodeStore reads a vectors file. MDEMBED2 lists every entry (path,
// text hash, stamp), then every vector, unit length, one after another;
// MDEMBED1 gave each entry its vector, not yet unit length, and no stamp.
func decodeStore(data []byte) (*store, error) {
	bad := errors.New("bad vectors file")
	if len(data) < len(magic)+4 {
		return nil, bad
	}
	stamped := string(data[:len(magic)]) == magic
	if !stamped && string(data[:len(magicV1)]) != magicV1 {
		return nil, bad
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli()) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, bad
	}
	d := &reader{b: body[len(magic):]}
	s := &store{key: d.str(), dims: int(d.uvarint()), entries: map[string]entry{}}
	n := d.uvarint()
	// n is bounded by the smallest an entry can be (a one-byte path
	// length, its hash, its stamp, its vector), so that what is allocated
	// for it stays within a small multiple of the file's size.
	per := 1 + hashLen + 4*s.dims
	if stamped {
		per += 32
	}
	if d.bad || s.dims < 1 || s.dims > maxDims || n > uint64(len(d.b))/uint64(per) {
		return nil, bad
	}
	paths := make([]string, n)
	entries := make([]entry, n)
	vecs := make([]float32, int(n)*s.dims) // n*4*dims is at most the file's size
	for i := range entries {
		paths[i] = d.str()
		copy(entries[i].hash[:], d.take(hashLen))
		entries[i].vec = vecs[i*s.dims : (i+1)*s.dims : (i+1)*s.dims]
		if !stamped {
			floats(entries[i].vec, d.take(4*s.dims))
			normalize(entries[i].vec)
			continue
		}
		entries[i].stamp = search.Stamp{Size: int64(d.uint64()), Mtime: int64(d.uint64()), Ctime: int64(d.uint64()), Ino: d.uint64()}
	}
	if stamped {
		floats(vecs, d.take(4*len(vecs)))
	}
	if d.bad || len(d.b) != 0 {
		return nil, bad
	}
	for i, p := range paths {
		s.entries[p] = entries[i]
	}
	return s, nil
}

// floats decodes little-endian float32s from raw into v; raw nil (a
// short file, which the reader marks bad) decodes nothing.
func floats(v []float32, raw []byte) {
	if len(raw) != 4*len(v) {
		return
	}
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
}

func (s *store) encode() []byte {
	b := []byte(magic)
	b = appendStr(b, s.key)
	b = binary.AppendUvarint(b, uint64(s.dims))
	b = binary.AppendUvarint(b, uint64(len(s.entries)))
	paths := make([]string, 0, len(s.entries))
	for path := range s.entries {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		e := s.entries[path]
		b = appendStr(b, path)
		b = append(b, e.hash[:]...)
		for _, v := range []uint64{uint64(e.stamp.Size), uint64(e.stamp.Mtime), uint64(e.stamp.Ctime), e.stamp.Ino} {
			b = binary.LittleEndian.AppendUint64(b, v)
		}
	}
	b = slices.Grow(b, 4*s.dims*len(paths)+4)
	for _, path := range paths {
		for _, f := range s.entries[path].vec {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
}

// save writes the store atomically.
func (s *store) save(dir string) error {
	if err := atomicfile.MkdirAllInside(dir, StateDir, 0o755); err != nil {
		return err
	}
	return atomicfile.WriteInside(dir, StateDir+"/"+storeFile, s.encode(), atomicfile.Options{Perm: 0o644})
}

// castagnoli is the CRC-32C table, made on first use (no package
// initialisation: every memdir command links this package).
func castagnoli() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// reader reads the primitives of the store; bad is set on any shortfall.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) take(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.bad = true
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) uint64() uint64 {
	b := r.take(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

func (r *reader) str() string { return string(r.take(int(r.uvarint()))) }
