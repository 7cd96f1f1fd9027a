package memgit

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/memdir/memdir/atomicfile"
)

// diskFiles lists the memory files on disk with their blobs, relative
// to the memory directory, taking a file's hash from the index when its
// stat data proves it unchanged (see statcache.go) and hashing it
// otherwise. Untracked files (in neither tracked nor the index) that the
// ignore rules exclude are left out, as git leaves them out; so are
// private state and nested repositories. A file outside a sparse
// checkout, not on disk, counts as it is in the index.
func (r *Repo) diskFiles(tracked map[string]blob) (map[string]blob, error) {
	w, err := r.scanDisk(tracked)
	if err != nil {
		return nil, err
	}
	return w.out, nil
}

// scanDisk is diskFiles, with what it looked at.
func (r *Repo) scanDisk(tracked map[string]blob) (*diskWalk, error) {
	w := &diskWalk{r: r, tracked: tracked, cache: r.readStatCache(), ignore: r.ignoreRules()}
	err := w.dir(r.memDir, "")
	if err == nil {
		err = w.statFiles()
	}
	for _, d := range w.dirs {
		d.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", r.memDir, err)
	}
	w.out = make(map[string]blob, len(w.files)+len(w.cache.entries)/8)
	for _, f := range w.files {
		if f.blob.mode != 0 {
			w.out[f.rel] = f.blob
		}
	}
	for _, e := range w.cache.entries {
		if rel, ok := r.memPath(e.name); ok && e.skipWorktree && !Private(rel) && w.out[rel].mode == 0 {
			if _, err := os.Lstat(filepath.Join(r.top, filepath.FromSlash(e.name))); errors.Is(err, fs.ErrNotExist) {
				w.out[rel] = blob{hash: e.hash, mode: e.mode}
			}
		}
	}
	return w, nil
}

// diskWalk is one scan of the memory directory: a walk of its
// directories that lists the files to look at, then their lstat and, if
// the index cannot vouch for them, their hashes.
type diskWalk struct {
	r       *Repo
	tracked map[string]blob
	cache   statCache
	ignore  *ignoreRules
	dirs    []*os.File // the directories read, open until their files are looked at
	files   []diskFile
	out     map[string]blob
}

// diskFile is one file of the scan.
type diskFile struct {
	dir       *os.File // the directory it is in, open by its full path
	name, rel string
	entry     *cachedEntry // the file's index entry, or nil
	blob      blob         // mode 0: gone, or neither a file nor a symlink
	hashed    bool         // read and hashed: the index did not vouch for it
}

// abs is the file's full path, joined only for the few files that are
// hashed or fail: a status at 10,000 topics lstats every file, and the
// allocation per file showed in its profile.
func (f *diskFile) abs() string { return filepath.Join(f.dir.Name(), f.name) }

// dir scans the directory abs, rel ("" or ending in "/") below the
// memory directory. Its .gitignore is read on the way in, so the one
// walk both finds the ignore files and applies them.
func (w *diskWalk) dir(abs, rel string) error {
	f, err := os.Open(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // not made yet, or gone since its parent was read
	}
	if err != nil {
		return err
	}
	w.dirs = append(w.dirs, f)
	entries, err := f.ReadDir(-1)
	if err != nil {
		return err
	}
	w.ignore.read(abs, w.r.repoDomain(rel))
	w.files = slices.Grow(w.files, len(entries))
	for _, d := range entries {
		name := rel + d.Name()
		if d.IsDir() {
			if err := w.subdir(filepath.Join(abs, d.Name()), name); err != nil {
				return err
			}
			continue
		}
		w.file(f, d.Name(), name)
	}
	return nil
}

// subdir scans a directory unless it is the git dir, memdir's state, a
// repository of its own or ignored.
func (w *diskWalk) subdir(abs, rel string) error {
	if rel == ".git" || strings.HasPrefix(rel, ".memdir/") || w.ignore.match(w.r.repoPath(rel), true) {
		return nil
	}
	if _, err := os.Lstat(filepath.Join(abs, ".git")); err == nil {
		return nil
	}
	return w.dir(abs, rel+"/")
}

// file lists one file (or symlink) in dir for the scan unless it is
// untracked and ignored.
func (w *diskWalk) file(dir *os.File, name, rel string) {
	p := w.r.repoPath(rel)
	e, inIndex := w.cache.find(p)
	if _, ok := w.tracked[rel]; !ok && !inIndex && (Private(rel) || w.ignore.match(p, false)) {
		return
	}
	w.files = append(w.files, diskFile{dir: dir, name: name, rel: rel, entry: e})
}

// statWorkers is how many files are looked at in parallel at most, and
// perWorker the fewest files worth a worker: git's preload-index splits
// the lstat calls of a big index across threads the same way.
const statWorkers, perWorker = 8, 500

// statFiles looks at every listed file, in parallel for many files.
func (w *diskWalk) statFiles() error {
	n := min(runtime.GOMAXPROCS(0), statWorkers, 1+len(w.files)/perWorker)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := k; i < len(w.files) && errs[k] == nil; i += n {
				errs[k] = w.look(&w.files[i])
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// look finds a file's blob: from the index when its stat data vouches
// for it, else by hashing it.
func (w *diskWalk) look(f *diskFile) error {
	fi, err := atomicfile.LstatAt(f.dir, f.name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // gone since the directory was read
	}
	if err != nil {
		return err
	}
	b, ok := w.cache.lookup(f.entry, fi)
	if !ok {
		if b, err = hashFile(f.abs(), fi); err != nil {
			return err
		}
		f.hashed = true
	}
	f.blob = b
	return nil
}

// repoDomain is the repository path of a memory directory (rel "" or
// ending in "/") as gitignore's domain.
func (r *Repo) repoDomain(rel string) []string {
	p := strings.TrimSuffix(r.prefix+"/"+rel, "/")
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// ignoreRules are git's ignore rules for memory paths: info/exclude,
// the .gitignore files from the top of the work tree down to the memory
// directory, and those inside it, added as the scan reaches them.
type ignoreRules struct {
	ps []gitignore.Pattern
	m  gitignore.Matcher
}

func (r *Repo) ignoreRules() *ignoreRules {
	ig := &ignoreRules{ps: readPatternFile(filepath.Join(r.common, "info", "exclude"), nil)}
	if r.prefix != "" {
		parts := strings.Split(r.prefix, "/")
		for i := range parts {
			domain := parts[:i]
			ig.ps = append(ig.ps, readPatternFile(filepath.Join(r.top, filepath.Join(domain...), IgnoreFile), domain)...)
		}
	}
	ig.m = gitignore.NewMatcher(ig.ps)
	return ig
}

// read adds the patterns of dir's .gitignore, whose repository path is
// domain. Deeper files come later and so take precedence, as in git.
func (ig *ignoreRules) read(dir string, domain []string) {
	if ps := readPatternFile(filepath.Join(dir, IgnoreFile), domain); len(ps) > 0 {
		ig.ps = append(ig.ps, ps...)
		ig.m = gitignore.NewMatcher(ig.ps)
	}
}

// match reports whether a repository path is ignored.
func (ig *ignoreRules) match(p string, dir bool) bool {
	return ig.m.Match(strings.Split(p, "/"), dir)
}

// readPatternFile reads one ignore file's patterns; a missing file has none.
func readPatternFile(name string, domain []string) []gitignore.Pattern {
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "#") && strings.TrimSpace(line) != "" {
			ps = append(ps, gitignore.ParsePattern(line, domain))
		}
	}
	return ps
}
