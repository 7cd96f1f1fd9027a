package memgit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// updateRef moves a branch from old (zero: unborn) to new the way git
// does: under refs/heads/NAME.lock, taken with O_EXCL, checked, written,
// synced and renamed over the ref. A branch that moved meanwhile is
// refused. The reflogs of the branch and of HEAD get their line while the
// lock is held, as git writes them.
func (r *Repo) updateRef(branch plumbing.ReferenceName, old, new plumbing.Hash, log reflogEntry) error {
	l := newLock(r.common, branch.String()+".lock")
	if err := l.lock(); err != nil {
		return err
	}
	defer l.release()
	hook("ref-locked")
	cur := plumbing.ZeroHash
	if ref, err := r.st.Reference(branch); err == nil {
		cur = ref.Hash()
	} else if !errors.Is(err, plumbing.ErrReferenceNotFound) {
		return fmt.Errorf("read %s: %w", branch, err)
	}
	if cur != old {
		return &RefusedError{Reason: fmt.Sprintf("%s moved while memdir was committing; try again", branch.Short())}
	}
	if err := r.writeReflogs(branch, old, new, log); err != nil {
		return fmt.Errorf("update %s: %w", branch.Short(), err)
	}
	_, err := l.f.WriteString(new.String() + "\n")
	if err == nil {
		err = l.f.Sync()
	}
	if err == nil {
		err = l.commit()
	}
	if err != nil {
		return fmt.Errorf("update %s: %w", branch.Short(), err)
	}
	return nil
}

// reflogEntry is who moved a ref, when, and why.
type reflogEntry struct {
	who object.Signature
	msg string
}

// reflogMessage is what git commit logs: "commit: <subject>", or
// "commit (initial): <subject>" for a first commit.
func reflogMessage(c *object.Commit) reflogEntry {
	subject, _, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
	what := "commit"
	if len(c.ParentHashes) == 0 {
		what = "commit (initial)"
	}
	return reflogEntry{who: c.Committer, msg: what + ": " + subject}
}

// writeReflogs appends a line to the branch's reflog and to HEAD's when
// git would: core.logAllRefUpdates is true (the default outside a bare
// repository) or "always", or the log already exists.
func (r *Repo) writeReflogs(branch plumbing.ReferenceName, old, new plumbing.Hash, e reflogEntry) error {
	cfg := r.config()
	auto := cfg.Bool("core", "logallrefupdates", !cfg.Bool("core", "bare", false))
	if strings.EqualFold(cfg.Value("core", "logallrefupdates"), "always") {
		auto = true
	}
	line := fmt.Sprintf("%s %s %s <%s> %d %s\t%s\n", old, new, e.who.Name, e.who.Email,
		e.who.When.Unix(), e.who.When.Format("-0700"), strings.ReplaceAll(e.msg, "\n", " "))
	for _, name := range []string{
		filepath.Join(r.common, "logs", filepath.FromSlash(branch.String())),
		filepath.Join(r.gitDir, "logs", "HEAD"),
	} {
		if err := appendReflog(name, line, auto); err != nil {
			return err
		}
	}
	return nil
}

// appendReflog appends line to a reflog, creating it only when create.
func appendReflog(name, line string, create bool) error {
	flags := os.O_WRONLY | os.O_APPEND
	if create {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return fmt.Errorf("write reflog: %w", err)
		}
		flags |= os.O_CREATE
	}
	f, err := os.OpenFile(name, flags, 0o644)
	if errors.Is(err, fs.ErrNotExist) && !create {
		return nil
	}
	if err != nil {
		return fmt.Errorf("write reflog: %w", err)
	}
	_, err = f.WriteString(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write reflog %s: %w", name, err)
	}
	return nil
}
