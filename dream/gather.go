package dream

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/distilled"
	"github.com/memdir/memdir/memdir"
)

// Entry is a log entry waiting to be distilled. ID names it uniquely:
// log file, content hash and occurrence of that hash in the file.
type Entry = distilled.Pending

// snapshot is what a dream starts from, read under the sidecar lock.
// People and agents edit memory without that lock, so each file it may
// replace is stamped as read: a write refuses a file that changed since.
type snapshot struct {
	topics   []*memdir.Topic
	raw      map[string][]byte           // topic file -> bytes as read
	stamps   map[string]atomicfile.Stamp // topic, index and overflow files as read
	broken   []string                    // topic files that do not parse: left alone
	conflict []string                    // sync conflict copies: never topics
	index    []byte
	overflow map[string][]byte // overflow index file -> bytes
	entries  []Entry           // not yet distilled
	state    *distilled.Marks
	count    int64 // the log count (dailylog.Appended) before the logs were read
	seen     int64 // the count the last dream saw (seenPath)
	seenOK   bool
	problems []string
}

// gather reads the topics, the index, the logs and the state.
func gather(d *memdir.Dir) (*snapshot, error) {
	s := &snapshot{raw: map[string][]byte{}, stamps: map[string]atomicfile.Stamp{}, overflow: map[string][]byte{}}
	files, err := d.TopicFiles()
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if _, ok := memdir.ConflictCopy(f); ok {
			// A sync's conflict copy is the other side of an unmerged
			// topic, for a person to merge: never a topic the dream
			// merges into or indexes.
			s.conflict = append(s.conflict, f)
			continue
		}
		data, err := s.read(d.Path, f)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since it was listed
		}
		if err != nil {
			return nil, err
		}
		t, err := memdir.ParseTopic(f, data)
		if err != nil {
			s.broken = append(s.broken, f)
			s.problems = append(s.problems, err.Error()+" (left alone)")
			continue
		}
		s.raw[f] = data
		s.topics = append(s.topics, t)
	}
	if s.index, err = s.read(d.Path, memdir.IndexFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := s.readOverflow(d.Path); err != nil {
		return nil, err
	}
	if s.state, err = distilled.Load(d.Path); err != nil {
		return nil, err
	}
	// The count before the logs: an entry appended meanwhile is counted
	// as waiting after this dream, whether or not it read it.
	if s.count, _, err = dailylog.Appended(d.Path); err != nil {
		return nil, err
	}
	s.seen, s.seenOK = readSeen(d.Path)
	all, problems, err := dailylog.Read(d.Path, "", "")
	if err != nil {
		return nil, err
	}
	for _, p := range problems {
		if p.Message != "stray text kept as an untyped entry" {
			s.problems = append(s.problems, p.String())
		}
	}
	s.entries = s.state.Pending(all)
	return s, nil
}

// read reads the file rel of the memory directory and stamps it. A
// missing file reads as empty, stamped as absent, and the error wraps
// fs.ErrNotExist.
func (s *snapshot) read(dir, rel string) ([]byte, error) {
	data, st, err := atomicfile.ReadStamped(dir, rel)
	s.stamps[rel] = st
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	return data, nil
}

func (s *snapshot) readOverflow(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("read %s: %w", dir, err)
	}
	for _, e := range ents {
		if _, ok := isOverflow(e.Name()); !ok {
			continue
		}
		data, err := s.read(dir, e.Name())
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		s.overflow[e.Name()] = data
	}
	return nil
}

// fingerprint sums what the distiller saw of the topics and the index, to
// notice a change made while an external distiller ran without the lock.
func (s *snapshot) fingerprint() string {
	h := sha256.New()
	names := make([]string, 0, len(s.raw))
	for f := range s.raw {
		names = append(names, f)
	}
	names = append(names, s.broken...)
	sort.Strings(names)
	for _, f := range names {
		h.Write([]byte(f))
		h.Write([]byte{0})
		h.Write(s.raw[f])
		h.Write([]byte{0})
	}
	h.Write(s.index)
	return hex.EncodeToString(h.Sum(nil))
}
