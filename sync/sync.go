package memsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
)

// syncedRemoteFile records, in the repository, the remote its main branch
// was last synced with: main is the base of the next merge only for that
// remote.
const syncedRemoteFile = "memdir-remote"

// attempts is how many times a sync fetches again when another machine
// pushed between its fetch and its push.
const attempts = 4

// Project is a memory directory to sync.
type Project struct {
	// Dir is the memory directory; it need not exist yet.
	Dir string
	// Root is the project's live root when the sync runs inside it, ""
	// for a directory found under the home (its recorded root is used).
	Root string
}

// Options say what to sync.
type Options struct {
	// Home is memdir's home: the remote, the repository and every
	// <home>/projects/*/memory directory.
	Home string
	// Projects are synced beside those under Home: the project a sync
	// runs in, whose memory may not exist yet on a new machine.
	Projects []Project
	// LockTimeout bounds the wait for each lock.
	LockTimeout time.Duration
	// Now stamps commits; time.Now when nil.
	Now func() time.Time
}

// Result is what a sync did.
type Result struct {
	Remote   string          `json:"remote"`
	Commit   string          `json:"commit,omitempty"`
	Pushed   bool            `json:"pushed"`
	Projects []ProjectResult `json:"projects"`
	// Warnings are what went wrong after the push: an index the sync
	// could not fit under its caps.
	Warnings []string `json:"warnings,omitempty"`
}

// Sync pulls, merges and pushes the user's memory of every project
// through the sync remote. It holds <home>/sync's lock throughout and
// each memory directory's lock while it merges into it.
func Sync(ctx context.Context, o Options) (*Result, error) {
	url, err := Remote(o.Home)
	if err != nil {
		return nil, err
	}
	if url == "" {
		return nil, ErrNoRemote
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = memdir.DefaultLockTimeout
	}
	if err := os.MkdirAll(filepath.Join(o.Home, RepoDir), 0o700); err != nil {
		return nil, fmt.Errorf("sync: %w", err)
	}
	lk, err := memdir.AcquireLock(ctx, filepath.Join(o.Home, Folder), o.LockTimeout, "sync")
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	s := &syncer{o: o, url: url, g: newGit(ctx, filepath.Join(o.Home, RepoDir))}
	if err := s.init(); err != nil {
		return nil, err
	}
	defer os.RemoveAll(s.merger.tmp)
	var res *Result
	for try := 1; ; try++ {
		res, err = s.round()
		if !retryable(err) || try == attempts {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	s.refit(res)
	if err := markSync(o.Home, time.Now()); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	return res, nil
}

var errRaced = errors.New("the remote changed during the sync")

// retryable reports whether a round failed on a race another round can
// win: a push refused because the remote moved, or a ref of memdir's
// repository locked by a git still finishing for a sync killed just
// before (where git cannot be made to die with its parent).
func retryable(err error) bool {
	var ge *GitError
	return errors.Is(err, errRaced) || errors.As(err, &ge) && strings.Contains(ge.Msg, "cannot lock ref")
}

type syncer struct {
	o      Options
	url    string
	g      *git
	merger *merger
}

// init creates memdir's repository when it is missing.
func (s *syncer) init() error {
	repo := filepath.Join(s.o.Home, RepoDir)
	if _, err := os.Stat(filepath.Join(repo, "HEAD")); err != nil {
		if _, err := s.g.run(nil, "init", "-q", "--bare", "--initial-branch=main"); err != nil {
			return err
		}
	}
	// Under the sync lock, a merge directory left behind is a killed
	// sync's.
	stale, _ := filepath.Glob(filepath.Join(s.o.Home, Folder, ".merge-*"))
	for _, d := range stale {
		_ = os.RemoveAll(d)
	}
	tmp, err := os.MkdirTemp(filepath.Join(s.o.Home, Folder), ".merge-")
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	s.merger = &merger{g: s.g, tmp: tmp}
	return nil
}

// round is one fetch, merge and push.
func (s *syncer) round() (*Result, error) {
	base, remote, err := s.pull()
	if err != nil {
		return nil, err
	}
	if !s.sameRemote() {
		base = "" // main belongs to another remote: merge from nothing, lose nothing
	}
	baseTree, err := s.g.tree(base)
	if err != nil {
		return nil, err
	}
	remoteTree := baseTree
	if remote != base {
		if remoteTree, err = s.g.tree(remote); err != nil {
			return nil, err
		}
	}
	cat := s.g.catFile()
	defer cat.close()
	res := &Result{Remote: s.url}
	push := map[string][]byte{}
	folders := map[string]string{} // folder -> the memory dir synced into it
	for _, p := range s.projects() {
		pr, err := s.project(p, baseTree, remoteTree, cat, push, folders)
		if err != nil {
			return nil, err
		}
		if pr != nil {
			res.Projects = append(res.Projects, *pr)
		}
	}
	commit := remote
	if len(push) > 0 {
		if commit, err = s.commit(remote, push); err != nil {
			return nil, err
		}
		if _, err := s.g.run(nil, "push", "-q", "--", s.url, commit+":refs/heads/main"); err != nil {
			if strings.Contains(err.Error(), "rejected") || strings.Contains(err.Error(), "fetch first") {
				return nil, fmt.Errorf("%w: %v", errRaced, err)
			}
			return nil, err
		}
		res.Pushed = true
	}
	if commit != "" && commit != base {
		if _, err := s.g.run(nil, "update-ref", "refs/heads/main", commit); err != nil {
			return nil, err
		}
	}
	if commit != "" && commit != remote {
		if _, err := s.g.run(nil, "update-ref", "refs/remotes/origin/main", commit); err != nil {
			return nil, err
		}
	}
	res.Commit = commit
	return res, s.recordRemote()
}

// pull brings the remote's main into refs/remotes/origin/main and
// returns the local and remote commits. It asks the remote for its main
// first (git ls-remote) and fetches only when that moved: a sync with
// nothing to do spends one round trip, not a fetch's negotiation.
func (s *syncer) pull() (base, remote string, err error) {
	base, remote, err = s.g.refs()
	if err != nil {
		return "", "", err
	}
	out, err := s.g.run(nil, "ls-remote", "--", s.url, "refs/heads/main")
	if err != nil {
		return "", "", err
	}
	there, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\t")
	switch {
	case there == remote:
		return base, remote, nil
	case there == "":
		// The remote lost its main: merge from nothing, lose nothing.
		_, err := s.g.run(nil, "update-ref", "-d", "refs/remotes/origin/main")
		return base, "", err
	}
	if _, err := s.g.run(nil, "fetch", "-q", "--no-tags", "--no-write-fetch-head", "--", s.url, "+refs/heads/main:refs/remotes/origin/main"); err != nil {
		return "", "", err
	}
	return s.g.refs()
}

func (s *syncer) sameRemote() bool {
	data, err := os.ReadFile(filepath.Join(s.o.Home, RepoDir, syncedRemoteFile))
	return err == nil && strings.TrimSpace(string(data)) == s.url
}

func (s *syncer) recordRemote() error {
	if s.sameRemote() {
		return nil
	}
	return atomicfile.WriteFile(filepath.Join(s.o.Home, RepoDir, syncedRemoteFile), []byte(s.url+"\n"), 0o600)
}

// projects lists the memory directories under the home and the extra
// ones, each once.
func (s *syncer) projects() []Project {
	dirs, _ := filepath.Glob(filepath.Join(s.o.Home, "projects", "*", "memory"))
	sort.Strings(dirs)
	seen := map[string]int{}
	var out []Project
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			seen[filepath.Clean(d)] = len(out)
			out = append(out, Project{Dir: filepath.Clean(d)})
		}
	}
	for _, p := range s.o.Projects {
		d := filepath.Clean(p.Dir)
		if i, ok := seen[d]; ok {
			out[i].Root = p.Root
			continue
		}
		seen[d] = len(out)
		out = append(out, Project{Dir: d, Root: p.Root})
	}
	return out
}

// identity is the project's identity: recorded at its first sync, else
// from its root. ok is false for a directory that records no root.
func identity(p Project) (id string, record bool, err error) {
	if id, err := canonical.RecordedIdentity(p.Dir); err != nil || id != "" {
		return id, false, err
	}
	root := p.Root
	if root == "" {
		if root, err = canonical.RecordedRoot(p.Dir); err != nil || root == "" {
			return "", false, err
		}
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return canonical.PathIdentityPrefix + root, true, nil
	}
	id, err = canonical.Identity(root)
	return id, true, err
}

// project syncs one memory directory under its lock, adding what the
// remote must get to push.
func (s *syncer) project(p Project, baseTree, remoteTree map[string]string, cat *catFile, push map[string][]byte, folders map[string]string) (*ProjectResult, error) {
	id, record, err := identity(p)
	if err != nil {
		return nil, err
	}
	if id == "" {
		return &ProjectResult{Dir: p.Dir, Skipped: []Skipped{{File: canonical.RootFile, Reason: "records no project root: run any memdir command in the project, then sync"}}}, nil
	}
	folder := ProjectFolder(id)
	if other, ok := folders[folder]; ok {
		// Two clones on one machine: the first found is synced; the other
		// would race it for the same files.
		return &ProjectResult{Identity: id, Dir: p.Dir, Skipped: []Skipped{{File: p.Dir, Reason: "has the identity of " + other + ", which this sync carried; merge the two by hand (or remove one) to sync both"}}}, nil
	}
	folders[folder] = p.Dir
	if _, err := os.Stat(p.Dir); err != nil && !hasFolder(remoteTree, folder) {
		return nil, nil // nothing here, nothing there
	}
	if err := os.MkdirAll(p.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("sync: %w", err)
	}
	lk, err := memdir.AcquireLock(s.g.ctx, p.Dir, s.o.LockTimeout, "sync")
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	if p.Root != "" {
		if err := canonical.ClaimRoot(p.Dir, p.Root); err != nil {
			return nil, err
		}
	}
	if record {
		if err := canonical.RecordIdentity(p.Dir, id); err != nil {
			return nil, err
		}
	}
	ps := &projectSync{dir: p.Dir, folder: folder, base: baseTree, remote: remoteTree, cat: cat, merger: s.merger}
	ps.res = ProjectResult{Identity: id, Dir: p.Dir}
	if err := ps.readLocal(); err != nil {
		return nil, err
	}
	if err := ps.mergeAll(); err != nil {
		return nil, err
	}
	if err := ps.write(); err != nil {
		return nil, err
	}
	for k, v := range ps.push {
		push[k] = v
	}
	return &ps.res, nil
}

func hasFolder(tree map[string]string, folder string) bool {
	for p := range tree {
		if strings.HasPrefix(p, folder+"/") {
			return true
		}
	}
	return false
}

// commit makes, with one git fast-import, a commit on parent (the
// remote's main, or none) that applies the changes.
func (s *syncer) commit(parent string, changes map[string][]byte) (string, error) {
	now := time.Now
	if s.o.Now != nil {
		now = s.o.Now
	}
	const ref = "refs/memdir/pending"
	var b bytes.Buffer
	msg := fmt.Sprintf("memdir sync: %d files", len(changes))
	fmt.Fprintf(&b, "reset %s\ncommit %s\ncommitter memdir <memdir@localhost> %d +0000\ndata %d\n%s\n", ref, ref, now().Unix(), len(msg), msg)
	if parent != "" {
		fmt.Fprintf(&b, "from %s\n", parent)
	}
	paths := make([]string, 0, len(changes))
	for p := range changes {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		data := changes[p]
		if data == nil {
			fmt.Fprintf(&b, "D %s\n", p)
			continue
		}
		fmt.Fprintf(&b, "M 100644 inline %s\ndata %d\n", p, len(data))
		b.Write(data)
		b.WriteByte('\n')
	}
	if _, err := s.g.run(&b, "fast-import", "--quiet", "--force", "--date-format=raw"); err != nil {
		return "", err
	}
	out, err := s.g.run(nil, "rev-parse", "--verify", ref)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// refit fits the index of each project the sync wrote, when the merge
// left it over a load cap.
func (s *syncer) refit(res *Result) {
	for _, p := range res.Projects {
		if len(p.Pulled) == 0 {
			continue
		}
		data, err := os.ReadFile(filepath.Join(p.Dir, memdir.IndexFile))
		if err != nil || !index.Measure(data, index.DefaultCaps).OverCap {
			continue
		}
		d := memdir.Open(p.Dir, "")
		d.LockTimeout = s.o.LockTimeout
		if _, err := d.Fit(); err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: fit MEMORY.md under its caps: %v (run `memdir index --fit`)", p.Identity, err))
		}
	}
}
