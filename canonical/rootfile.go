package canonical

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/untrusted"
)

// RootFile is where, inside a memory directory, the project root that owns
// it is recorded. Two roots can share a slug; the record keeps their
// memories apart.
const RootFile = ".memdir/root"

// RootMismatchError reports a memory directory that belongs to another
// project root.
type RootMismatchError struct {
	Dir      string // the memory directory
	Recorded string // the root recorded in Dir
	Root     string // the root that tried to use Dir
}

// UserError marks the mismatch as something the user resolves (exit 2).
func (e *RootMismatchError) UserError() {}

// Error says both roots and how to resolve the clash.
func (e *RootMismatchError) Error() string {
	return fmt.Sprintf("memory dir %s belongs to project %s, not %s: "+
		"pass --dir or set `dir` for one of them, or delete %s if the project moved",
		e.Dir, e.Recorded, e.Root, filepath.Join(e.Dir, filepath.FromSlash(RootFile)))
}

// CheckRoot returns nil when dir records no root or records root, and a
// *RootMismatchError when it records another.
func CheckRoot(dir, root string) error {
	recorded, err := readRoot(dir)
	if err != nil {
		return err
	}
	if recorded == "" || recorded == root {
		return nil
	}
	return &RootMismatchError{Dir: dir, Recorded: recorded, Root: root}
}

// ClaimRoot checks dir like CheckRoot and, when no root is recorded yet,
// records root, creating dir/.memdir as needed. Callers that may race with
// another process should hold the memory dir's lock.
func ClaimRoot(dir, root string) error {
	recorded, err := readRoot(dir)
	if err != nil {
		return err
	}
	if recorded == root {
		return nil
	}
	if recorded != "" {
		return &RootMismatchError{Dir: dir, Recorded: recorded, Root: root}
	}
	name := filepath.Join(dir, filepath.FromSlash(RootFile))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("claim memory dir %s: %w", dir, err)
	}
	if err := atomicfile.WriteFile(name, []byte(root+"\n"), 0o644); err != nil {
		return fmt.Errorf("claim memory dir %s: %w", dir, err)
	}
	return nil
}

// RecordedRoot returns the project root recorded in the memory directory
// dir, or "" when it records none.
func RecordedRoot(dir string) (string, error) { return readRoot(dir) }

// readRoot returns the recorded root, or "" when there is none.
func readRoot(dir string) (string, error) {
	data, err := untrusted.ReadFile(filepath.Join(dir, filepath.FromSlash(RootFile)), "", untrusted.MaxGit)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read project root of memory dir %s: %w", dir, err)
	}
	return strings.TrimRight(string(data), "\r\n"), nil
}
