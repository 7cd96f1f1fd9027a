// Package memdir is the memory store: a directory of markdown topic files
// with a MEMORY.md index, as DESIGN.md describes. It adds, reads, updates
// and removes topics, keeps the index in step, writes every file
// atomically and holds the sidecar lock .memdir/lock around every
// read-modify-write, so many processes can share one directory.
package memdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/index"
)

// Names inside a memory directory.
const (
	IndexFile  = "MEMORY.md"
	StateDir   = ".memdir"
	LogsDir    = "logs"
	ArchiveDir = "archive"
)

// Mode says how `add` records a memory.
type Mode string

// The two modes.
const (
	Live Mode = "live" // add writes the topic and the index at once
	Log  Mode = "log"  // add appends to today's daily log; dream distills later
)

// ParseMode returns the mode named s.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case Live, Log:
		return m, nil
	case "":
		return Live, nil
	}
	return "", &InputError{Msg: fmt.Sprintf("unknown mode %q: use live or log", s)}
}

// Dir is an open memory directory. Everything but its path and mode is
// given to Open as an option and fixed there; With makes a copy with more.
type Dir struct {
	Path string
	Mode Mode

	clock       func() time.Time // see WithClock
	lockTimeout time.Duration    // see WithLockTimeout
	cache       *Cache           // see WithCache
	readOnly    string           // see WithReadOnly

	// committer records every change (see WithCommitter); repaired hears
	// what a lock repaired (see WithRepairReport). Both are fixed at Open.
	committer Committer
	repaired  func(*Recovery)
	fault     func(point string) // see WithFault
	supersede Supersede          // see WithSupersede
}

// faultHook returns the fault call for one point, or nil.
func (d *Dir) faultHook(point string) func() {
	if d.fault == nil {
		return nil
	}
	return func() { d.fault(point) }
}

// Open returns the memory directory at path, in mode, with the
// collaborators opts pass in. It does not create it.
func Open(path string, mode Mode, opts ...Option) *Dir {
	d := &Dir{Path: path, Mode: mode}
	for _, o := range opts {
		o(d)
	}
	return d
}

// Option passes a collaborator to Open.
type Option func(*Dir)

// With returns a copy of d with opts applied: a server that shares one
// Cache between the directories it opens per call adds it so.
func (d *Dir) With(opts ...Option) *Dir {
	c := *d
	for _, o := range opts {
		o(&c)
	}
	return &c
}

// WithClock makes now the clock memory is stamped with (MEMDIR_NOW in
// tests and reproducible runs); nil means time.Now.
func WithClock(now func() time.Time) Option { return func(d *Dir) { d.clock = now } }

// WithLockTimeout bounds the wait for the sidecar lock; zero means
// DefaultLockTimeout.
func WithLockTimeout(t time.Duration) Option { return func(d *Dir) { d.lockTimeout = t } }

// WithCache keeps work a long-running process can reuse from one call to
// the next (see Cache).
func WithCache(c *Cache) Option { return func(d *Dir) { d.cache = c } }

// WithReadOnly makes every write fail with ErrReadOnly, saying why (a
// subagent memory whose MEMORY.md is a link, as Claude Code treats it).
func WithReadOnly(reason string) Option { return func(d *Dir) { d.readOnly = reason } }

// Clock is the clock the directory stamps memory with.
func (d *Dir) Clock() func() time.Time {
	if d.clock != nil {
		return d.clock
	}
	return time.Now
}

// LockTimeout is how long a write waits for the sidecar lock.
func (d *Dir) LockTimeout() time.Duration {
	if d.lockTimeout > 0 {
		return d.lockTimeout
	}
	return DefaultLockTimeout
}

// Cache is the reusable work Open was given, or nil.
func (d *Dir) Cache() *Cache { return d.cache }

// ReadOnly says why the directory must not be written, or "".
func (d *Dir) ReadOnly() string { return d.readOnly }

// WithCommitter makes c record every change to memory (memdir's git
// support commits each one). A nil c records nothing.
func WithCommitter(c Committer) Option { return func(d *Dir) { d.committer = c } }

// WithSupersede gives an add to an existing topic the rule that says
// which paragraph the new fact replaces (the dream's rule); without it an
// add appends.
func WithSupersede(rule Supersede) Option { return func(d *Dir) { d.supersede = rule } }

// WithFault makes fault run at named points of every write (crash tests
// kill the process there): "write <file>" runs when the file's new
// content is complete in its temp and about to replace it. A nil fault
// runs nothing.
func WithFault(fault func(point string)) Option { return func(d *Dir) { d.fault = fault } }

// WithRepairReport makes report hear what taking the lock repaired after
// a holder that was killed, as soon as it is repaired and before the call
// that took the lock goes on (the CLI warns on stderr).
func WithRepairReport(report func(*Recovery)) Option {
	return func(d *Dir) { d.repaired = report }
}

// now is the time by the clock Open was given.
func (d *Dir) now() time.Time { return d.Clock()() }

// Exists reports whether the memory directory exists.
func (d *Dir) Exists() bool {
	fi, err := os.Stat(d.Path)
	return err == nil && fi.IsDir()
}

// Init creates the memory directory, its state directory and an empty
// MEMORY.md when they are missing. It reports whether it created anything.
func (d *Dir) Init() (bool, error) {
	created := !d.Exists()
	if err := d.ensure(); err != nil {
		return false, err
	}
	lk, err := d.lock("init")
	if err != nil {
		return false, err
	}
	defer lk.Release()
	if _, err := atomicfile.StatInside(d.Path, IndexFile); errors.Is(err, fs.ErrNotExist) {
		if err := d.writeFile(IndexFile, nil, &atomicfile.Stamp{}); err != nil {
			return false, err
		}
		created = true
	} else if err != nil {
		return false, err
	}
	return created, nil
}

// ensure creates the directory and its state directory; a state directory
// linked out of the memory directory is refused.
func (d *Dir) ensure() error {
	if err := os.MkdirAll(d.Path, 0o755); err != nil {
		return writeErr(d.Path, err)
	}
	if err := atomicfile.MkdirAllInside(d.Path, StateDir, 0o755); err != nil {
		return writeErr(d.Path, err)
	}
	return d.ignoreState()
}

// stateIgnore keeps the state directory out of any git repository the
// memory directory lies in (a subagent's project memory is committed
// with the project), except the recorded mode, which belongs to the
// memory.
const stateIgnore = "# memdir's private state: never committed\n*\n!mode\n"

// ignoreState writes the state directory's .gitignore when it has none.
func (d *Dir) ignoreState() error {
	rel := filepath.Join(StateDir, ".gitignore")
	if _, err := atomicfile.StatInside(d.Path, rel); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return d.writeFile(rel, []byte(stateIgnore), nil)
}

// writeFile atomically writes the file rel inside the memory directory.
// With expect, it refuses (an error wrapping atomicfile.ErrChanged) when
// the file is no longer what was read.
func (d *Dir) writeFile(rel string, data []byte, expect *atomicfile.Stamp) error {
	if d.readOnly != "" {
		return fmt.Errorf("%s: %w: %s", d.Path, ErrReadOnly, d.readOnly)
	}
	err := atomicfile.WriteInside(d.Path, rel, data, atomicfile.Options{Perm: 0o644, Expect: expect, BeforeRename: d.faultHook("write " + rel)})
	if err != nil && !errors.Is(err, atomicfile.ErrChanged) {
		return writeErr(d.Path, err)
	}
	return err
}

// writeErr turns a permission problem into a clear input error: the user
// pointed memdir at a directory it cannot write.
func writeErr(dir string, err error) error {
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) || errors.Is(err, syscall.ENOTDIR) {
		return &InputError{Msg: fmt.Sprintf("cannot write the memory directory %s: %v; fix its permissions or choose another with --dir", dir, rootCause(err)), Err: err}
	}
	return err
}

func rootCause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// Problem is a file memdir could not use, with where and why. Commands
// report problems and go on with the other files.
type Problem struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	Msg  string `json:"message"`
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Msg)
}

func problemOf(file string, err error) Problem {
	var pe *ParseError
	if errors.As(err, &pe) {
		return Problem{File: file, Line: pe.Line, Msg: pe.Msg}
	}
	return Problem{File: file, Msg: rootCause(err).Error()}
}

// IsTopicFile reports whether a base name in the memory directory is a
// topic file: markdown that is neither the index nor an overflow index nor
// a temp file.
func IsTopicFile(name string) bool {
	if !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") || name == IndexFile {
		return false
	}
	_, overflow := index.IsOverflowFile(name)
	return !overflow
}

// TopicFiles lists the base names of the topic files, sorted. A
// conflict copy a sync kept (ConflictCopy) is not a topic: it is listed
// by ConflictCopies until resolved, never as memory.
func (d *Dir) TopicFiles() ([]string, error) {
	ents, err := os.ReadDir(d.Path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", d.Path, err)
	}
	var names []string
	for _, e := range ents {
		if _, copy := ConflictCopy(e.Name()); !copy && e.Type().IsRegular() && IsTopicFile(e.Name()) {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// Read parses one topic file by base name.
func (d *Dir) Read(file string) (*Topic, error) {
	t, _, err := d.readTopic(file)
	return t, err
}

// readTopic parses one topic file and stamps what it read, for a write
// that must not replace a change made since.
func (d *Dir) readTopic(file string) (*Topic, atomicfile.Stamp, error) {
	data, st, err := atomicfile.ReadStamped(d.Path, file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, st, fmt.Errorf("%s: %w", file, ErrNotFound)
		}
		return nil, st, fmt.Errorf("read %s: %w", file, err)
	}
	t, err := ParseTopic(file, data)
	return t, st, err
}

// List reads every topic file. Files that cannot be read or parsed are
// returned as problems; the rest are returned sorted by type order, then
// name.
func (d *Dir) List() ([]*Topic, []Problem, error) {
	snap, err := d.snapshot(false)
	if err != nil {
		return nil, nil, err
	}
	return snap.topics, snap.problems, nil
}

// snapshot is every topic file read once: the names, the parsed topics
// (sorted), the problems, and, when asked for, each file's raw bytes.
type snapshot struct {
	files    []string
	raw      map[string][]byte
	topics   []*Topic
	problems []Problem
}

// snapshot reads and parses every topic file, several at a time.
func (d *Dir) snapshot(keepRaw bool) (*snapshot, error) {
	files, err := d.TopicFiles()
	if err != nil {
		return nil, err
	}
	root, err := atomicfile.OpenRoot(d.Path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", d.Path, err)
	}
	defer root.Close()
	topics := make([]*Topic, len(files))
	raws := make([][]byte, len(files))
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	work := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0)*2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				raws[i], errs[i] = root.ReadFile(files[i])
				if errs[i] == nil {
					topics[i], errs[i] = ParseTopic(files[i], raws[i])
				}
			}
		}()
	}
	for i := range files {
		work <- i
	}
	close(work)
	wg.Wait()
	snap := &snapshot{files: files}
	if keepRaw {
		snap.raw = make(map[string][]byte, len(files))
	}
	for i, t := range topics {
		if keepRaw && raws[i] != nil {
			snap.raw[files[i]] = raws[i]
		}
		if errs[i] != nil {
			snap.problems = append(snap.problems, problemOf(files[i], errs[i]))
			continue
		}
		snap.topics = append(snap.topics, t)
	}
	sort.SliceStable(snap.topics, func(i, j int) bool {
		ti, tj := snap.topics[i], snap.topics[j]
		if ri, rj := ti.Type.Rank(), tj.Type.Rank(); ri != rj {
			return ri < rj
		}
		return strings.ToLower(ti.Name) < strings.ToLower(tj.Name)
	})
	return snap, nil
}

// readIndex parses MEMORY.md; a missing index is an empty one.
func (d *Dir) readIndex() (*index.Index, []byte, error) {
	ix, f, err := d.loadIndex()
	return ix, f.data, err
}

// loadIndex parses MEMORY.md for a read-modify-write: writeIndex refuses
// to replace it if it changed meanwhile.
func (d *Dir) loadIndex() (*index.Index, stamped, error) {
	f, err := d.readStamped(IndexFile)
	if err != nil {
		return nil, f, err
	}
	return index.Parse(f.data), f, nil
}

// stamped is a file as read for a read-modify-write: its bytes and its
// stamp.
type stamped struct {
	data  []byte
	stamp atomicfile.Stamp
}

// readStamped reads an index file (or any file that may be missing) inside
// the memory directory; a missing file is empty, stamped as absent.
func (d *Dir) readStamped(rel string) (stamped, error) {
	data, st, err := atomicfile.ReadStamped(d.Path, rel)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return stamped{}, fmt.Errorf("read %s: %w", rel, err)
	}
	return stamped{data: data, stamp: st}, nil
}

// IndexBytes returns MEMORY.md as it is on disk; a missing index is empty.
// An index linked out of the memory directory is never read.
func (d *Dir) IndexBytes() ([]byte, error) {
	f, err := d.readStamped(IndexFile)
	return f.data, err
}

// writeIndex writes MEMORY.md when its content differs from old, the
// index as read, and refuses when the file changed since (old's stamp).
func (d *Dir) writeIndex(ix *index.Index, old stamped) ([]byte, error) {
	data := ix.Bytes()
	if string(data) == string(old.data) {
		return data, nil
	}
	if err := d.writeFile(IndexFile, data, &old.stamp); err != nil {
		return nil, err
	}
	return data, nil
}

// writeTopic renders and atomically writes a topic file, refusing when
// the file is no longer as stamped when it was read (absent, for a new
// topic).
func (d *Dir) writeTopic(t *Topic, st atomicfile.Stamp) error {
	data, err := t.Marshal()
	if err != nil {
		return err
	}
	return d.writeFile(t.File, data, &st)
}

// entryOf is the index line for a topic.
func entryOf(t *Topic) index.Entry {
	return index.Entry{Title: t.Name, File: t.File, Hook: t.Description}
}

// modeFile records the mode `memdir init --mode` chose.
const modeFile = "mode"

// LookupRecordedMode returns the mode recorded in the memory directory at
// path and whether one was recorded (live and false when none was).
func LookupRecordedMode(path string) (Mode, bool, error) {
	data, err := atomicfile.ReadInside(path, filepath.Join(StateDir, modeFile))
	if err != nil {
		return Live, false, nil
	}
	m, err := ParseMode(string(data))
	return m, err == nil, err
}

// RecordMode records the directory's mode for later commands.
func (d *Dir) RecordMode(m Mode) error {
	if err := d.ensure(); err != nil {
		return err
	}
	return d.writeFile(filepath.Join(StateDir, modeFile), []byte(string(m)+"\n"), nil)
}
