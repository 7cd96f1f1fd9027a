package memgit

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/memdir/memdir/canonical"
)

// Tracked reports whether the file at path (absolute, symlinks resolved)
// is in the git index of the working tree that holds it: committed, or
// staged to be. A path outside any working tree is not tracked. An index
// memgit cannot read is an error, so that a caller deciding what to trust
// can fail closed.
func Tracked(path string) (bool, error) {
	dirs, found, err := canonical.FindGitDirs(filepath.Dir(path))
	if err != nil || !found {
		return false, err
	}
	rel, err := filepath.Rel(dirs.Top, path)
	if err != nil {
		return false, err
	}
	data, err := os.ReadFile(filepath.Join(dirs.GitDir, "index"))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read git index: %w", err)
	}
	idx := &index.Index{}
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(idx); err != nil {
		return false, fmt.Errorf("read git index: %w", err)
	}
	_, err = idx.Entry(filepath.ToSlash(rel))
	return err == nil, nil
}
