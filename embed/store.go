package embed

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"path/filepath"

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
	if s.dims > maxDims || n > uint64(len(data)) {
		return nil, bad
	}
	for range n {
		path := d.str()
		var e entry
		copy(e.hash[:], d.take(hashLen))
		if stamped {
			e.stamp = search.Stamp{Size: int64(d.uint64()), Mtime: int64(d.uint64()), Ctime: int64(d.uint64()), Ino: d.uint64()}
		}
		raw := d.take(4 * s.dims)
		if d.bad {
			return nil, bad
		}
		e.vec = make([]float32, s.dims)
		for i := range e.vec {
			e.vec[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		s.entries[path] = e
	}
	if d.bad || len(d.b) != 0 {
		return nil, bad
	}
	return s, nil
}

func (s *store) encode() []byte {
	b := []byte(magic)
	b = appendStr(b, s.key)
	b = binary.AppendUvarint(b, uint64(s.dims))
	b = binary.AppendUvarint(b, uint64(len(s.entries)))
	for path, e := range s.entries {
		b = appendStr(b, path)
		b = append(b, e.hash[:]...)
		for _, v := range []uint64{uint64(e.stamp.Size), uint64(e.stamp.Mtime), uint64(e.stamp.Ctime), e.stamp.Ino} {
			b = binary.LittleEndian.AppendUint64(b, v)
		}
		for _, f := range e.vec {
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
