package memsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/secrets"
)

// DriverName is the merge driver's name in .gitattributes and in git's
// config (merge.memdir.driver).
const DriverName = "memdir"

// DriverCommand is the command git runs for the driver: the hidden
// `memdir sync merge-driver` with git's base, ours, theirs and path.
// memdir registers exactly this and nothing else; memdir is found on
// PATH, so the driver follows an upgrade.
const DriverCommand = "memdir sync merge-driver %O %A %B %P"

// DriverLabel is the merge driver's description (merge.memdir.name); git
// shows it, the driver does not need it.
const DriverLabel = "memdir: indexes by entry, topics as text, conflicts kept as copies"

// AttributesFile is the attributes file memdir writes into a memory
// directory that lives in a git work tree.
const AttributesFile = ".gitattributes"

// attributes are its lines: the indexes and the topics memdir names
// (<type>_<slug>.md, and their conflict copies; a leading '/' keeps
// logs/ and archive/ out) merge with the driver, never any other
// markdown of the directory, and the append-only daily logs with git's
// built-in union merge, which keeps the lines of both sides.
var attributes = []string{
	"/MEMORY.md merge=" + DriverName,
	"/MEMORY-*.md merge=" + DriverName,
	"/user_*.md merge=" + DriverName,
	"/feedback_*.md merge=" + DriverName,
	"/project_*.md merge=" + DriverName,
	"/reference_*.md merge=" + DriverName,
	"/logs/** merge=union",
}

// oldAttributes are lines earlier memdir releases wrote, which named
// every markdown file of the directory: writeAttributes takes them out.
var oldAttributes = []string{"/*.md merge=" + DriverName}

// FileMerge is the outcome of merging one memory file.
type FileMerge struct {
	// Merged is the file's new content.
	Merged []byte
	// Clean is false when the file is not one memdir owns and its text
	// merge left conflict markers in Merged, as git's own merge would.
	Clean bool
	// Conflict names the copy that keeps the other side's version of a
	// topic both sides changed on the same lines (beside the file, as
	// sync writes it), and ConflictData is its content; "" when none.
	Conflict     string
	ConflictData []byte
	// Restore names another memory that git's rename detection paired
	// with this file (one side removed a topic and added an unrelated one
	// that looks alike): it is not merged into this file but written back
	// under its own name, and RestoreData is its content; "" when none.
	Restore     string
	RestoreData []byte
	// Held says why theirs was held back (what looks like a credential):
	// Merged is ours, nothing else is written, and the merge is not Clean.
	Held string
}

// MergeFile merges three versions of the memory file name exactly as a
// sync does: an index (MEMORY.md, MEMORY-<type>.md) by entry, a topic as
// a list of facts, a topic both sides changed in one fact keeps ours and
// puts theirs in a conflict copy. A file that is not one of memdir's
// (TeamSynced) is handed back to git: merged as text with git's conflict
// markers, and never Clean, so the driver exits non-zero and git
// reports the conflict. What theirs brings (the merge, the conflict
// copy, a paired memory) goes through the secrets scanner: when it holds
// what looks like a credential that ours does not, the merge keeps ours,
// is not Clean and Held says why.
func MergeFile(ctx context.Context, name string, base, ours, theirs []byte) (*FileMerge, error) {
	if !TeamSynced(name) {
		tmp, err := os.MkdirTemp("", "memdir-merge-")
		if err != nil {
			return nil, fmt.Errorf("merge %s: %w", name, err)
		}
		defer os.RemoveAll(tmp)
		m := &merger{g: newGit(ctx, ""), tmp: tmp}
		res, err := m.mergeMarked(base, ours, theirs)
		if res != nil {
			res.Clean = false
		}
		return res, err
	}
	return scanMerge(ours, mergeMemory(name, base, ours, theirs)), nil
}

// mergeMemory merges one of memdir's own files.
func mergeMemory(name string, base, ours, theirs []byte) *FileMerge {
	if isIndex(name) {
		return &FileMerge{Merged: mergeIndex(base, ours, theirs), Clean: true}
	}
	if r := unpaired(name, base, ours, theirs); r != nil {
		return r
	}
	if merged, clean := mergeTopic(base, ours, theirs); clean {
		return &FileMerge{Merged: merged, Clean: true}
	}
	return &FileMerge{Merged: ours, Clean: true, Conflict: conflictName(name, blobID(theirs)), ConflictData: theirs}
}

// scanMerge holds back what a merge would write from theirs when it
// looks like a credential ours does not hold: a finding counts as ours
// when ours has one of its kind on a line reading the same.
func scanMerge(ours []byte, r *FileMerge) *FileMerge {
	known := map[string]bool{}
	for _, f := range secrets.Scan(string(ours)) {
		known[findingKey(ours, f)] = true
	}
	for _, data := range [][]byte{r.Merged, r.ConflictData, r.RestoreData} {
		for _, f := range secrets.Scan(string(data)) {
			if !known[findingKey(data, f)] {
				return &FileMerge{Merged: ours, Held: fmt.Sprintf("theirs holds what looks like a %s (line %d): ours is kept and the merge is left to you", f.Kind, f.Line)}
			}
		}
	}
	return r
}

// findingKey is a finding's kind and the text of its line in data.
func findingKey(data []byte, f secrets.Finding) string {
	line := data
	for range f.Line - 1 {
		i := bytes.IndexByte(line, '\n')
		if i < 0 {
			break
		}
		line = line[i+1:]
	}
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	return f.Kind + "\x00" + string(line)
}

// unpaired undoes a pairing git's rename detection made between two
// memories: git merges a file under name when one side removed a topic
// and added another that looks alike (small topics share their
// frontmatter), so the three versions are not one memory (sameMemory).
// The side that is not base's memory is the file at name; the
// other is given back under its own file name (memdir.FileName of its
// type and name). nil when the versions are one memory, or when it
// cannot tell.
func unpaired(name string, base, ours, theirs []byte) *FileMerge {
	b, errB := memdir.ParseTopic(name, base)
	o, errO := memdir.ParseTopic(name, ours)
	t, errT := memdir.ParseTopic(name, theirs)
	if errB != nil || errO != nil || errT != nil || sameMemory(o, t) {
		return nil
	}
	// Exactly one side is base's memory: the other removed it and added
	// one that git took for it. (When neither is, both sides renamed it,
	// and git leaves that conflict, with both files, to the person.)
	sameO, sameT := sameMemory(b, o), sameMemory(b, t)
	if sameO == sameT {
		return nil
	}
	here, other, otherData := ours, t, theirs
	if sameO {
		// Ours is base's memory; theirs was added at name.
		here, other, otherData = theirs, o, ours
	}
	restore := memdir.FileName(other.Type, other.Name)
	if restore == name {
		return nil
	}
	return &FileMerge{Merged: here, Clean: true, Restore: restore, RestoreData: otherData}
}

// sameMemory reports whether two versions of a topic are one memory:
// they keep one name, or, for a topic renamed on one side, one type and
// description and no created stamps that differ (a topic an agent wrote
// has none). Where the two cannot be told apart, a merge that keeps them
// as two files loses nothing, while one that merges two memories into one
// file mixes them: the test leans to two.
func sameMemory(a, b *memdir.Topic) bool {
	if a.Name == b.Name {
		return true
	}
	stamps := a.Created.IsZero() || b.Created.IsZero() || a.Created.Equal(b.Created)
	return stamps && a.Type == b.Type && a.Description == b.Description
}

// mergeMarked merges a file memdir does not own the way git would.
func (m *merger) mergeMarked(base, ours, theirs []byte) (*FileMerge, error) {
	for name, data := range map[string][]byte{"ours": ours, "base": base, "theirs": theirs} {
		if err := os.WriteFile(filepath.Join(m.tmp, name), data, 0o600); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
	}
	cmd := m.g.command("merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", "--", "ours", "base", "theirs")
	cmd.Dir = m.tmp
	out, err := cmd.Output()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return &FileMerge{Merged: out, Clean: true}, nil
	case errors.As(err, &exit) && exit.ExitCode() > 0 && exit.ExitCode() < 128:
		return &FileMerge{Merged: out}, nil
	}
	return nil, fmt.Errorf("git merge-file: %w", err)
}

// RegisterDriver makes `git merge` and `git pull` merge memory as a sync
// does, when memDir is committed with the project whose root is root (it
// lies in root's work tree; a memory directory that is a repository of
// its own is merged by nobody but memdir): it writes
// .gitattributes into memDir (adding only the lines it lacks) and sets
// merge.memdir.driver in that repository's own config to DriverCommand.
// It returns the config file it wrote, "" when memDir is in neither (a
// memory directory under memdir's home, say). Call it only on the user's
// command (init), never because a repository's files ask.
func RegisterDriver(ctx context.Context, memDir, root string) (string, error) {
	real, err := filepath.EvalSymlinks(memDir)
	if err != nil {
		return "", fmt.Errorf("register merge driver: %w", err)
	}
	dirs, found, err := canonical.FindGitDirs(real)
	if err != nil || !found || dirs.Top != root {
		return "", err
	}
	if err := writeAttributes(memDir); err != nil {
		return "", err
	}
	g := newGit(ctx, "")
	config := filepath.Join(dirs.CommonDir, "config")
	for _, kv := range [][2]string{
		{"merge." + DriverName + ".name", DriverLabel},
		{"merge." + DriverName + ".driver", DriverCommand},
	} {
		cmd := g.command("config", "--file", config, kv[0], kv[1])
		cmd.Dir = dirs.CommonDir
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("register merge driver in %s: %v: %s", config, err, strings.TrimSpace(string(out)))
		}
	}
	return config, nil
}

// writeAttributes adds the driver's lines that memDir's .gitattributes
// lacks, keeping every line it has.
func writeAttributes(memDir string) error {
	old, err := atomicfile.ReadInside(memDir, AttributesFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", AttributesFile, err)
	}
	have := map[string]bool{}
	var data []byte
	added := false
	for _, l := range strings.SplitAfter(string(old), "\n") {
		norm := strings.Join(strings.Fields(l), " ")
		if slices.Contains(oldAttributes, norm) {
			added = true // a change to write
			continue
		}
		have[norm] = true
		data = append(data, l...)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	for _, l := range attributes {
		if !have[l] {
			data = append(data, l+"\n"...)
			added = true
		}
	}
	if !added {
		return nil
	}
	if err := atomicfile.WriteInside(memDir, AttributesFile, data, atomicfile.Options{Perm: 0o644}); err != nil {
		return fmt.Errorf("write %s: %w", AttributesFile, err)
	}
	return nil
}
