package dailylog

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memdir/memdir/atomicfile"
)

// Read returns the entries of every log whose file-name date lies between
// since and until, both inclusive, "YYYY-MM-DD" or "" for no bound, in
// chronological order (files by date, entries in file order). A log that
// cannot be read is a Problem, not an error; a bad date is an error wrapping
// ErrInvalidDate.
func Read(memDir, since, until string) ([]Entry, []Problem, error) {
	for _, d := range []string{since, until} {
		if d != "" && !validDate(d) {
			return nil, nil, fmt.Errorf("read logs: date %q: %w", d, ErrInvalidDate)
		}
	}
	files, err := Files(memDir)
	if err != nil {
		return nil, nil, err
	}
	var entries []Entry
	var problems []Problem
	for _, path := range files {
		date := dateOfFile(path)
		if since != "" && date < since || until != "" && date > until {
			continue
		}
		rel := relSlash(memDir, path)
		// A log linked out of the memory directory is never read.
		data, err := atomicfile.ReadInside(memDir, filepath.FromSlash(rel))
		if err != nil {
			problems = append(problems, Problem{File: rel, Message: "unreadable: " + err.Error()})
			continue
		}
		es, ps := Parse(data, rel)
		entries = append(entries, es...)
		problems = append(problems, ps...)
	}
	return entries, problems, nil
}

// Files returns the paths of the daily logs under memDir/logs, in
// chronological order: files named YYYY-MM-DD.md at any depth, sorted by
// that date and then by path. Dotfiles and dot directories are skipped;
// a missing logs directory gives none.
func Files(memDir string) ([]string, error) {
	var files []string
	err := walkLogs(memDir, func(path string, _ fs.DirEntry) error {
		files = append(files, path)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(files, func(i, j int) bool {
		di, dj := dateOfFile(files[i]), dateOfFile(files[j])
		if di != dj {
			return di < dj
		}
		return files[i] < files[j]
	})
	return files, nil
}

// walkLogs calls fn for each log file under memDir/logs, in directory
// order: files whose name holds a date, in no hidden directory. fn may
// return fs.SkipAll to stop.
func walkLogs(memDir string, fn func(path string, d fs.DirEntry) error) error {
	root := filepath.Join(memDir, "logs")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && path != root {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || dateOfFile(path) == "" {
			return nil
		}
		return fn(path, d)
	})
	if err != nil {
		return fmt.Errorf("list logs: %w", err)
	}
	return nil
}

// relSlash returns path relative to dir with forward slashes, or path
// itself when it is not inside dir.
func relSlash(dir, path string) string {
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

// IsLogFile reports whether rel, a slash-separated path relative to the
// memory directory, names a file Files lists: under logs/, in no hidden
// directory, with a date in its name or its directories.
func IsLogFile(rel string) bool {
	parts := strings.Split(rel, "/")
	if len(parts) < 2 || parts[0] != "logs" {
		return false
	}
	for _, p := range parts[1:] {
		if p == "" || strings.HasPrefix(p, ".") {
			return false
		}
	}
	return dateOfFile(rel) != ""
}
