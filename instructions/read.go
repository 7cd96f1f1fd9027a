package instructions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/memdir/memdir/untrusted"
)

// read reads an instruction file, rule, skill or import through the
// untrusted-file owner: a file inside the project (the worktree holding
// cwd, or the canonical root) must stay inside it, so a committed symbolic
// link to ~/.ssh/id_rsa is never followed; a file the user placed
// elsewhere (home, managed, a directory above the project) is opened as
// it is. Either way it must be a regular file of at most
// untrusted.MaxInstruction bytes. Each project directory is opened as an
// os.Root once for the whole run, not once a file.
func (l *loader) read(p string) ([]byte, error) {
	base := l.home(p)
	root := l.rootOf(base)
	rel, err := filepath.Rel(base, p)
	if root == nil || err != nil || !filepath.IsLocal(rel) {
		return untrusted.ReadFile(p, base, untrusted.MaxInstruction)
	}
	f, err := untrusted.OpenIn(root, rel, p, base)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return untrusted.Read(f, p, untrusted.MaxInstruction)
}

// rootOf is the os.Root of the project directory base, opened on first use;
// nil for "" or one that cannot be opened (read then takes
// untrusted.ReadFile's way, which reports why).
func (l *loader) rootOf(base string) *os.Root {
	if base == "" {
		return nil
	}
	if r, ok := l.roots[base]; ok {
		return r
	}
	r, err := os.OpenRoot(base)
	if err != nil {
		r = nil
	}
	if l.roots == nil {
		l.roots = map[string]*os.Root{}
	}
	l.roots[base] = r
	return r
}

// close closes the roots read opened.
func (l *loader) close() {
	for _, r := range l.roots {
		if r != nil {
			r.Close()
		}
	}
	l.roots = nil
}

// home is the project directory that p lies in, "" for none.
func (l *loader) home(p string) string {
	for _, base := range []string{l.top, l.root} {
		if within(base, p) {
			return base
		}
	}
	return ""
}

// refusal gives the status and reason for a file read refused: a link out
// of the project, a special file, one over the cap. ok is false for other
// errors.
func refusal(err error) (Status, string, bool) {
	var ue *untrusted.Error
	if !errors.As(err, &ue) {
		return "", "", false
	}
	switch ue.Err {
	case untrusted.ErrOutside:
		return StatusOutsideRoot, "a symbolic link leading out of the project: memdir never follows one (a cloned repository could point it at a private file)", true
	case untrusted.ErrNotRegular:
		if ue.Mode.IsDir() {
			return StatusUnreadable, "is a directory, not a file", true
		}
		return StatusUnreadable, ue.Reason() + ": not read", true
	case untrusted.ErrTooLarge:
		return StatusUnreadable, fmt.Sprintf("larger than %d MiB: not read", ue.Limit>>20), true
	}
	return "", "", false
}

// failRead records a file that could not be read.
func (l *loader) failRead(f File, err error) Status {
	if st, why, ok := refusal(err); ok {
		return l.fail(f, st, why)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return l.fail(f, StatusUnreadable, "cannot read: "+fs.ErrNotExist.Error())
	}
	return l.fail(f, StatusUnreadable, readReason(err))
}
