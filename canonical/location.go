package canonical

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Sentinel errors.
var (
	// ErrBadGitFile means a .git or commondir file does not hold a path.
	ErrBadGitFile = errors.New("malformed git link file")
	// ErrNoHome means "~" could not be expanded because HOME is unset.
	ErrNoHome = errors.New("no home directory: set HOME or MEMDIR_HOME")
	// ErrNoRoot means Resolve was given no absolute project root.
	ErrNoRoot = errors.New("no absolute project root")
)

// Sources a Location's Dir can come from, strongest first.
const (
	SourceFlag    = "flag"    // the --dir flag
	SourceEnv     = "env"     // MEMDIR_DIR
	SourceSetting = "setting" // the `dir` setting
	SourceDefault = "default" // <home>/projects/<slug>/memory
)

// MaxSlugLen is the length past which Slug cuts a slug and appends a hash.
const MaxSlugLen = 200

// Slug turns a project root into a directory name the way Claude Code does:
// every character outside [A-Za-z0-9] becomes '-'. Characters outside the
// Basic Multilingual Plane become "--", because Claude Code's JavaScript
// replaces UTF-16 code units. A slug longer than MaxSlugLen keeps its first
// MaxSlugLen characters and gets "-" and SlugHash of the full root, as in
// Claude Code 2.1 (its $E and fNu functions), so long roots that share a
// prefix stay distinct and memdir finds the directory Claude Code made.
func Slug(root string) string {
	var b strings.Builder
	b.Grow(len(root))
	for _, r := range root {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r > 0xFFFF:
			b.WriteString("--")
		default:
			b.WriteByte('-')
		}
	}
	s := b.String()
	if len(s) <= MaxSlugLen {
		return s
	}
	return s[:MaxSlugLen] + "-" + SlugHash(root)
}

// SlugHash is Claude Code's hash of a long root: the Java-style string hash
// (h = 31*h + c over UTF-16 code units, wrapping at 32 bits), its absolute
// value written in base 36.
func SlugHash(root string) string {
	var h int32
	for _, c := range utf16.Encode([]rune(root)) {
		h = h*31 + int32(c)
	}
	return strconv.FormatInt(abs64(int64(h)), 36)
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// Options are the inputs Resolve chooses the memory directory from.
type Options struct {
	Root        string              // canonical project root, from Find
	DirFlag     string              // --dir; relative to the working directory
	DirSetting  string              // the `dir` setting; relative to Root
	HomeSetting string              // the `home` setting
	Getenv      func(string) string // nil means os.Getenv; reads MEMDIR_DIR, MEMDIR_HOME, HOME
}

// Location is where a project's memory lives and why.
type Location struct {
	Dir    string // the memory directory, absolute and clean
	Root   string // the canonical project root
	Slug   string // Slug(Root)
	Home   string // the memdir home; empty only if it cannot be known and Dir did not need it
	Source string // where Dir came from: SourceFlag, SourceEnv, SourceSetting or SourceDefault
}

// Home returns the memdir home: MEMDIR_HOME, else homeSetting, else
// ~/.memdir. A leading "~/" is expanded in each; a relative result is made
// absolute against the working directory.
func Home(getenv func(string) string, homeSetting string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	h := getenv("MEMDIR_HOME")
	if h == "" {
		h = homeSetting
	}
	if h == "" {
		h = "~/.memdir"
	}
	home, err := expandPath(h, "", getenv)
	if err != nil {
		return "", fmt.Errorf("memdir home: %w", err)
	}
	return home, nil
}

// Resolve picks the memory directory: the first of --dir, MEMDIR_DIR, the
// `dir` setting and <home>/projects/<slug>/memory. "~/" is expanded in all
// of them.
func Resolve(opts Options) (Location, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if !filepath.IsAbs(opts.Root) {
		return Location{}, fmt.Errorf("resolve memory dir: root %q: %w", opts.Root, ErrNoRoot)
	}
	root := filepath.Clean(opts.Root)
	loc := Location{Root: root, Slug: Slug(root)}
	home, homeErr := Home(getenv, opts.HomeSetting)
	loc.Home = home
	var raw, base string
	switch {
	case opts.DirFlag != "":
		loc.Source, raw = SourceFlag, opts.DirFlag
	case getenv("MEMDIR_DIR") != "":
		loc.Source, raw = SourceEnv, getenv("MEMDIR_DIR")
	case opts.DirSetting != "":
		loc.Source, raw, base = SourceSetting, opts.DirSetting, root
	default:
		if homeErr != nil {
			return Location{}, fmt.Errorf("resolve memory dir: %w", homeErr)
		}
		loc.Source = SourceDefault
		loc.Dir = filepath.Join(home, "projects", loc.Slug, "memory")
		return loc, nil
	}
	dir, err := expandPath(raw, base, getenv)
	if err != nil {
		return Location{}, fmt.Errorf("resolve memory dir from %s %q: %w", loc.Source, raw, err)
	}
	loc.Dir = dir
	return loc, nil
}

// expandPath expands a leading "~" and makes p absolute against base, or
// against the working directory when base is empty.
func expandPath(p, base string, getenv func(string) string) (string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "~"+string(filepath.Separator)) {
		h := getenv("HOME")
		if h == "" {
			h = getenv("USERPROFILE")
		}
		if h == "" {
			return "", ErrNoHome
		}
		p = filepath.Join(h, p[1:])
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	if base != "" {
		return filepath.Join(base, p), nil
	}
	return filepath.Abs(p)
}
