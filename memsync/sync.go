package memsync

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
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
	// Identity, when set, is the identity the directory syncs under, and
	// nothing is recorded in the directory: team memory lives inside the
	// project (moving with it), and its acceptance names this identity.
	Identity string
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
	// Progress, when set, hears how far the sync has come, in steps: a
	// file merged (every file of either side), a file written into the
	// commit pushed, a file written into memory. The total grows as each
	// project's merge is decided; a round that starts again (the remote
	// moved meanwhile) counts again from 0.
	Progress func(done, total int)
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
	// again is set when a file changed while the round wrote it.
	again bool
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
	res, err := runSync(ctx, &syncer{o: o, url: url, state: filepath.Join(o.Home, Folder), personal: true})
	if err != nil {
		if ctx.Err() == nil {
			now := time.Now
			if o.Now != nil {
				now = o.Now
			}
			recordFailure(o.Home, now(), err)
		}
		return nil, err
	}
	if err := markSync(o.Home, time.Now()); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	if err := clearFailure(o.Home); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	return res, nil
}

// SyncTeam pulls, merges and pushes the team memory directories in
// o.Projects, and nothing else, through url: a team remote the user
// accepted (memdir remote team accept). The remote has the layout of a
// sync remote, one folder per project identity, so one team remote can
// carry several projects. Its state (repository, lock, stat caches) is
// kept apart from the personal sync's, under TeamState, so the two
// never share a merge base.
func SyncTeam(ctx context.Context, o Options, url string) (*Result, error) {
	if err := CheckRemote(url); err != nil {
		return nil, err
	}
	res, err := runSync(ctx, &syncer{o: o, url: url, state: TeamState(o.Home, url)})
	if err != nil {
		return nil, err
	}
	if err := touch(teamStamp(o.Home, url), time.Now()); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	return res, nil
}

// TeamState is the directory under the home that holds the state of
// the syncs through one team remote.
func TeamState(home, url string) string {
	sum := sha256.Sum256([]byte(url))
	return filepath.Join(home, Folder, "team", hex.EncodeToString(sum[:8]))
}

// runSync is one sync under the state directory's lock: rounds until one
// pushes or finds nothing to do, then the refit of what it wrote.
func runSync(ctx context.Context, s *syncer) (*Result, error) {
	if s.o.LockTimeout <= 0 {
		s.o.LockTimeout = memdir.DefaultLockTimeout
	}
	repo := filepath.Join(s.state, repoName)
	if err := os.MkdirAll(repo, 0o700); err != nil {
		return nil, fmt.Errorf("sync: %w", err)
	}
	lk, err := memdir.AcquireLock(ctx, s.state, s.o.LockTimeout, "sync")
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	s.g = newGit(ctx, repo)
	if err := s.init(); err != nil {
		return nil, err
	}
	defer os.RemoveAll(s.merger.tmp)
	var res *Result
	for try := 1; ; try++ {
		res, err = s.round()
		// A round that found files changed under its writes merges them
		// again at once: what it read stays their base meanwhile.
		again := err == nil && res.again
		if !again && !retryable(err) || try == attempts {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	s.refit(res)
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
	o   Options
	url string
	// state holds the repository, the lock, the stat caches and the
	// merge directory: <home>/sync, or TeamState for a team remote.
	state string
	// personal syncs every memory directory under the home beside
	// o.Projects; a team sync syncs o.Projects alone.
	personal bool
	g        *git
	merger   *merger
	progress *counter // this round's
}

// counter counts a round's steps for Options.Progress; a nil counter, or
// one without a func, counts nothing.
type counter struct {
	fn          func(done, total int)
	done, total int
}

// add adds n steps to the total.
func (c *counter) add(n int) {
	if c != nil && c.fn != nil && n > 0 {
		c.total += n
		c.fn(c.done, c.total)
	}
}

// step counts one more step done.
func (c *counter) step() {
	if c != nil && c.fn != nil {
		c.done++
		c.fn(c.done, c.total)
	}
}

// init creates memdir's repository when it is missing.
func (s *syncer) init() error {
	// Under the sync lock, a git lock in memdir's own repository is a
	// killed sync's: every git run on it runs under this lock and dies
	// with its sync (Pdeathsig). A ref a killed update-ref left locked
	// would stop every later sync, and a config.lock a killed git init
	// left would stop the git init that completes the repository, so
	// they go first.
	s.removeStaleLocks()
	// A sync killed inside git init leaves a repository without some of
	// these: git init again completes it (it keeps what is there).
	for _, f := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(s.g.repo, f)); err != nil {
			if _, err := s.g.run(nil, "init", "-q", "--bare", "--initial-branch=main"); err != nil {
				return err
			}
			break
		}
	}
	// Under the sync lock, a merge directory left behind is a killed
	// sync's too.
	stale, _ := filepath.Glob(filepath.Join(s.state, ".merge-*"))
	for _, d := range stale {
		_ = os.RemoveAll(d)
	}
	tmp, err := os.MkdirTemp(s.state, ".merge-")
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	s.merger = &merger{g: s.g, tmp: tmp}
	return nil
}

// removeStaleLocks removes the *.lock files git leaves in memdir's own
// repository when it is killed: in refs/, and beside HEAD, config,
// packed-refs, index and shallow.
func (s *syncer) removeStaleLocks() {
	for _, f := range []string{"HEAD", "config", "packed-refs", "index", "shallow", "FETCH_HEAD", "ORIG_HEAD"} {
		_ = os.Remove(filepath.Join(s.g.repo, f+".lock"))
	}
	_ = filepath.WalkDir(filepath.Join(s.g.repo, "refs"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(path, ".lock") {
			_ = os.Remove(path)
		}
		return nil
	})
}

// round is one fetch, merge and push. It asks the remote for its main
// first (git ls-remote): when that is the commit every project's stat
// cache was left at and no file moved since, there is nothing to do, and
// the round ends there.
func (s *syncer) round() (*Result, error) {
	s.progress = &counter{fn: s.o.Progress}
	// The remote answers while the directories are stamped.
	var there string
	asked := make(chan error, 1)
	go func() {
		var err error
		there, err = s.lsRemote()
		asked <- err
	}()
	folders := map[string]string{} // folder -> the memory dir synced into it
	var views []*view
	var lookErr error
	for _, p := range s.projects() {
		v, err := s.look(p, folders)
		if err != nil {
			lookErr = err
			break
		}
		views = append(views, v)
	}
	if err := errors.Join(<-asked, lookErr); err != nil {
		return nil, err
	}
	res := &Result{Remote: s.url, Commit: there}
	idle := s.sameRemote()
	for _, v := range views {
		idle = idle && v.idle(there)
	}
	if idle {
		for _, v := range views {
			if pr := v.idleResult(); pr != nil {
				res.Projects = append(res.Projects, *pr)
			}
		}
		return res, nil
	}
	base, remote, err := s.pull(there)
	if err != nil {
		return nil, err
	}
	if !s.sameRemote() {
		base = "" // main belongs to another remote: merge from nothing, lose nothing
	}
	tr := &trees{g: s.g, base: base, remote: remote}
	cat := s.g.catFile()
	defer cat.close()
	push := map[string][]byte{}
	var plans []*projectSync
	for _, v := range views {
		pr, ps, err := s.project(v, tr, cat, push)
		if err != nil {
			return nil, err
		}
		if ps != nil {
			plans = append(plans, ps)
		}
		if pr != nil {
			res.Projects = append(res.Projects, *pr)
		}
	}
	return s.commitRound(res, plans, push, base, remote)
}

// updateRefs moves main, and the remote's main, to commit where they are
// not there yet, in one git.
func (s *syncer) updateRefs(commit, base, remote string) error {
	var b strings.Builder
	if commit != "" && commit != base {
		fmt.Fprintf(&b, "update refs/heads/main %s\n", commit)
	}
	if commit != "" && commit != remote {
		fmt.Fprintf(&b, "update refs/remotes/origin/main %s\n", commit)
	}
	if b.Len() == 0 {
		return nil
	}
	_, err := s.g.run(strings.NewReader(b.String()), "update-ref", "--stdin")
	return err
}

// trees lists the base's and the remote's files on first use: a sync
// whose every project is unchanged on both sides lists neither.
type trees struct {
	g              *git
	base, remote   string
	baseT, remoteT map[string]string
	done           bool
}

func (t *trees) get() (base, remote map[string]string, err error) {
	if t.done {
		return t.baseT, t.remoteT, nil
	}
	listed := make(chan error, 1)
	go func() {
		var err error
		if t.remote != t.base {
			t.remoteT, err = t.g.tree(t.remote)
		}
		listed <- err
	}()
	t.baseT, err = t.g.tree(t.base)
	if err = errors.Join(err, <-listed); err != nil {
		return nil, nil, err
	}
	if t.remote == t.base {
		t.remoteT = t.baseT
	}
	t.done = true
	return t.baseT, t.remoteT, nil
}

// lsRemote asks the remote for its main: "" when it has none.
func (s *syncer) lsRemote() (string, error) {
	out, err := s.g.run(nil, "ls-remote", "--", s.url, "refs/heads/main")
	if err != nil {
		return "", err
	}
	there, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\t")
	return there, nil
}

// pull brings the remote's main, there, into refs/remotes/origin/main
// and returns the local and remote commits. It fetches only when the
// remote moved: no fetch negotiation when it did not.
func (s *syncer) pull(there string) (base, remote string, err error) {
	base, remote, err = s.g.refs()
	if err != nil {
		return "", "", err
	}
	switch {
	case there == remote:
		return base, remote, nil
	case there == "":
		// The remote lost its main: merge from nothing, lose nothing.
		_, err := s.g.run(nil, "update-ref", "-d", "refs/remotes/origin/main")
		return base, "", err
	}
	if _, err := s.g.run(nil, "fetch", "-q", "--no-tags", "--no-write-fetch-head", "--no-auto-maintenance", "--", s.url, "+refs/heads/main:refs/remotes/origin/main"); err != nil {
		return "", "", err
	}
	// The fetch brought there or, if another machine pushed since the
	// ls-remote, a commit on top of it: merging against there then
	// makes a push the remote refuses, and the round starts again.
	return base, there, nil
}

func (s *syncer) sameRemote() bool {
	data, err := os.ReadFile(filepath.Join(s.g.repo, syncedRemoteFile))
	return err == nil && strings.TrimSpace(string(data)) == s.url
}

func (s *syncer) recordRemote() error {
	if s.sameRemote() {
		return nil
	}
	return atomicfile.WriteFile(filepath.Join(s.g.repo, syncedRemoteFile), []byte(s.url+"\n"), 0o600)
}

// projects lists the memory directories under the home (for a personal
// sync) and the extra ones, each once.
func (s *syncer) projects() []Project {
	var dirs []string
	if s.personal {
		dirs, _ = filepath.Glob(filepath.Join(s.o.Home, "projects", "*", "memory"))
		sort.Strings(dirs)
	}
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
			out[i].Root, out[i].Identity = p.Root, p.Identity
			continue
		}
		seen[d] = len(out)
		out = append(out, Project{Dir: d, Root: p.Root, Identity: p.Identity})
	}
	return out
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
		d := memdir.Open(p.Dir, "", memdir.WithLockTimeout(s.o.LockTimeout))
		if _, err := d.Fit(); err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: fit MEMORY.md under its caps: %v (run `memdir index --fit`)", p.Identity, err))
		}
	}
}
