package memgit

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// The parse-everything-and-serialize-again paths that the splices
// replaced, kept as the reference the fuzz tests hold the splices to.

type refEntry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
}

func refParseTree(data []byte) ([]refEntry, error) {
	var entries []refEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || nul+1+20 > len(data) {
			return nil, errBadTree
		}
		mode, err := strconv.ParseUint(string(data[:sp]), 8, 32)
		if err != nil {
			return nil, errBadTree
		}
		e := refEntry{name: string(data[sp+1 : nul]), mode: filemode.FileMode(mode)}
		copy(e.hash[:], data[nul+1:nul+21])
		entries = append(entries, e)
		data = data[nul+21:]
	}
	return entries, nil
}

// refKey is an entry's sort key in git's tree order.
func refKey(e refEntry) string {
	if e.mode == filemode.Dir {
		return e.name + "/"
	}
	return e.name
}

func refTreeBytes(entries []refEntry) []byte {
	entries = slices.Clone(entries)
	sort.SliceStable(entries, func(i, j int) bool { return refKey(entries[i]) < refKey(entries[j]) })
	var buf []byte
	for _, e := range entries {
		buf = append(buf, strconv.FormatUint(uint64(e.mode), 8)+" "+e.name+"\x00"...)
		buf = append(buf, e.hash[:]...)
	}
	return buf
}

// refApply replaces or removes entries by name, as the old treeEdit did.
func refApply(entries []refEntry, changes []treeChange) []refEntry {
	out := slices.Clone(entries)
	for _, c := range changes {
		out = slices.DeleteFunc(out, func(e refEntry) bool { return e.name == string(c.name) })
		if c.mode != 0 {
			out = append(out, refEntry{name: string(c.name), mode: c.mode, hash: c.hash})
		}
	}
	return out
}

type refIndexEntry struct {
	name  string
	stage int
	data  []byte
}

func refParseIndex(data []byte) (uint32, []refIndexEntry, error) {
	if len(data) < 12+sha1.Size || string(data[:4]) != "DIRC" {
		return 0, nil, errors.New("not an index file")
	}
	body := data[:len(data)-sha1.Size]
	if sum := sha1.Sum(body); !bytes.Equal(sum[:], data[len(body):]) {
		return 0, nil, errors.New("bad checksum")
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version != 2 && version != 3 {
		return 0, nil, errors.New("version")
	}
	var entries []refIndexEntry
	off := 12
	for range int(binary.BigEndian.Uint32(data[8:12])) {
		name, stage, n, err := nextIndexEntry(body[off:])
		if err != nil {
			return 0, nil, err
		}
		entries = append(entries, refIndexEntry{name: string(name), stage: stage, data: body[off : off+n]})
		off += n
	}
	return version, entries, nil
}

func refIndexBytes(version uint32, entries []refIndexEntry, files map[string]staged) []byte {
	var kept []refIndexEntry
	for _, e := range entries {
		if _, ok := files[e.name]; !ok {
			kept = append(kept, e)
		}
	}
	for name, f := range files {
		if f.info != nil {
			kept = append(kept, refIndexEntry{name: name, data: appendEntry(nil, name, f)})
		}
	}
	sort.SliceStable(kept, func(i, j int) bool {
		if kept[i].name != kept[j].name {
			return kept[i].name < kept[j].name
		}
		return kept[i].stage < kept[j].stage
	})
	out := []byte("DIRC")
	out = binary.BigEndian.AppendUint32(out, version)
	out = binary.BigEndian.AppendUint32(out, uint32(len(kept)))
	for _, e := range kept {
		out = append(out, e.data...)
	}
	sum := sha1.Sum(out)
	return append(out, sum[:]...)
}

// fakeInfo is a file's lstat result with no system data.
type fakeInfo struct {
	name string
	size int64
}

func (fi fakeInfo) Name() string       { return fi.name }
func (fi fakeInfo) Size() int64        { return fi.size }
func (fi fakeInfo) Mode() fs.FileMode  { return 0o644 }
func (fi fakeInfo) ModTime() time.Time { return time.Unix(1700000000+fi.size, 0) }
func (fi fakeInfo) IsDir() bool        { return false }
func (fi fakeInfo) Sys() any           { return nil }

// specEntries reads a fuzz spec: comma-separated names, a trailing "/"
// marking a directory.
func specEntries(spec string) []refEntry {
	var out []refEntry
	seen := map[string]bool{}
	for i, f := range strings.Split(spec, ",") {
		name, dir := strings.CutSuffix(f, "/")
		if name == "" || strings.ContainsAny(name, "\x00/") || seen[name] {
			continue
		}
		seen[name] = true
		e := refEntry{name: name, mode: filemode.Regular, hash: plumbing.ComputeHash(plumbing.BlobObject, []byte(f+strconv.Itoa(i)))}
		if dir {
			e.mode = filemode.Dir
		}
		out = append(out, e)
	}
	return out
}
