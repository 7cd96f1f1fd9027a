package instructions

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/memdir/memdir/untrusted"
)

// read reads an instruction file, rule, skill or import through the
// untrusted-file owner: a file inside the project (the worktree holding
// cwd, or the canonical root) must stay inside it, so a committed symbolic
// link to ~/.ssh/id_rsa is never followed; a file the user placed
// elsewhere (home, managed, a directory above the project) is opened as
// it is. Either way it must be a regular file of at most
// untrusted.MaxInstruction bytes.
func (l *loader) read(p string) ([]byte, error) {
	return untrusted.ReadFile(p, l.home(p), untrusted.MaxInstruction)
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
