package memsync

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/memdir"
)

// commitRound makes the round's merge one transaction: the commit is
// pushed before anything is written into a memory directory, and a
// refused push writes nothing. Once the remote holds the commit, each
// directory's stat cache records, for every file the sync is about to
// write, the version it read as that file's base; only then does main
// move and are the files written, each a compare-and-swap against what
// the merge read. A file changed meanwhile (an unlocked writer, a kill
// before its write) keeps what it read as its base, so the next round
// merges it again and loses neither side. The pending cache names no
// commit, so a sync killed before the final one is never taken for a
// sync with nothing to do: the next one merges and moves main.
func (s *syncer) commitRound(res *Result, plans []*projectSync, push map[string][]byte, base, remote string) (*Result, error) {
	blobs := map[string][]byte{}
	for _, ps := range plans {
		ps.baseBlobs(blobs)
	}
	commit := remote
	var err error
	if len(push) > 0 {
		if commit, err = s.commit(remote, push, blobs); err != nil {
			return nil, err
		}
		if _, err := s.g.run(nil, "push", "-q", "--", s.url, commit+":refs/heads/main"); err != nil {
			if strings.Contains(err.Error(), "rejected") || strings.Contains(err.Error(), "fetch first") {
				return nil, fmt.Errorf("%w: %v", errRaced, err)
			}
			return nil, err
		}
		res.Pushed = true
	} else if err := s.storeBlobs(blobs); err != nil {
		return nil, err
	}
	res.Commit = commit
	for _, ps := range plans {
		if err := ps.newCache(s.url, "", true).save(s.state, ps.folder); err != nil {
			return nil, fmt.Errorf("save the sync's stat cache: %w", err)
		}
	}
	if err := s.updateRefs(commit, base, remote); err != nil {
		return nil, err
	}
	if err := s.recordRemote(); err != nil {
		return nil, err
	}
	for _, ps := range plans {
		held, err := s.apply(ps)
		if err != nil {
			return nil, err
		}
		if len(ps.changed) > 0 {
			res.again = true
		}
		if !ps.empty {
			ps.res.Held = ps.incoming
			if held != nil {
				res.Warnings = append(res.Warnings, fmt.Sprintf("record the files held back: %v", held))
			}
		}
		if err := ps.newCache(s.url, commit, false).save(s.state, ps.folder); err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("save the sync's stat cache: %v", err))
		}
		for j := range res.Projects {
			if res.Projects[j].Dir == ps.dir {
				res.Projects[j] = ps.res
			}
		}
	}
	return res, nil
}

// apply writes one project's merge into its memory directory, and the
// list of the files it held back, under the directory's lock: resolving a
// held file rewrites that list under the same lock. held is the error of
// recording the list, which fails no sync.
func (s *syncer) apply(ps *projectSync) (held, err error) {
	if len(ps.writes) == 0 && ps.empty {
		return nil, nil
	}
	lk, err := memdir.AcquireLock(s.g.ctx, ps.dir, s.o.LockTimeout, "sync")
	if err != nil && len(ps.writes) == 0 {
		return err, nil // only the list waited: the next sync records it
	}
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	if len(ps.writes) > 0 {
		if err := ps.write(); err != nil {
			return nil, err
		}
	}
	if !ps.empty {
		held = saveHeld(ps.dir, s.url, ps.incoming)
	}
	return held, nil
}

// commit makes, with one git fast-import, a commit on parent (the
// remote's main, or none) that applies the changes, and stores blobs
// beside it (the bases a pending stat cache names).
func (s *syncer) commit(parent string, changes, blobs map[string][]byte) (string, error) {
	now := time.Now
	if s.o.Now != nil {
		now = s.o.Now
	}
	const ref = "refs/memdir/pending"
	var b bytes.Buffer
	writeBlobs(&b, blobs)
	msg := fmt.Sprintf("memdir sync: %d files", len(changes))
	fmt.Fprintf(&b, "reset %s\ncommit %s\nmark :1\ncommitter memdir <memdir@localhost> %d +0000\ndata %d\n%s\n", ref, ref, now().Unix(), len(msg), msg)
	if parent != "" {
		fmt.Fprintf(&b, "from %s\n", parent)
	}
	paths := make([]string, 0, len(changes))
	for p := range changes {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	fed := &stepReader{r: &b, step: s.progress.step, ends: make([]int, 0, len(paths))}
	for _, p := range paths {
		if data := changes[p]; data == nil {
			fmt.Fprintf(&b, "D %s\n", p)
		} else {
			fmt.Fprintf(&b, "M 100644 inline %s\ndata %d\n", p, len(data))
			b.Write(data)
			b.WriteByte('\n')
		}
		fed.ends = append(fed.ends, b.Len())
	}
	// The commit's id comes back through the marks file: no rev-parse.
	marks := filepath.Join(s.merger.tmp, "marks")
	if _, err := s.g.run(fed, "fast-import", "--quiet", "--force", "--date-format=raw", "--export-marks="+marks); err != nil {
		return "", err
	}
	data, err := os.ReadFile(marks)
	if err != nil {
		return "", fmt.Errorf("git fast-import: %w", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if mark, oid, _ := strings.Cut(line, " "); mark == ":1" && len(oid) >= 40 {
			return oid, nil
		}
	}
	return "", fmt.Errorf("git fast-import: marks %q", data)
}

// stepReader reads r and counts a step each time what git has read of
// it passes the end of a file's change (ends, the offsets where each
// ends): git fast-import writes each file as it reads it, so the steps
// follow its work within a pipe's buffer.
type stepReader struct {
	r    io.Reader
	step func()
	ends []int
	read int
}

func (f *stepReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	f.read += n
	for len(f.ends) > 0 && f.ends[0] <= f.read {
		f.ends = f.ends[1:]
		f.step()
	}
	return n, err
}

// storeBlobs stores blobs in memdir's repository, with no commit.
func (s *syncer) storeBlobs(blobs map[string][]byte) error {
	if len(blobs) == 0 {
		return nil
	}
	var b bytes.Buffer
	writeBlobs(&b, blobs)
	_, err := s.g.run(&b, "fast-import", "--quiet", "--force")
	return err
}

func writeBlobs(b *bytes.Buffer, blobs map[string][]byte) {
	oids := slices.Sorted(maps.Keys(blobs))
	for _, oid := range oids {
		fmt.Fprintf(b, "blob\ndata %d\n", len(blobs[oid]))
		b.Write(blobs[oid])
		b.WriteByte('\n')
	}
}
