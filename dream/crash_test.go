package dream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

// helperDirEnv makes the test binary a dream process (see TestMain).
const helperDirEnv = "DREAM_HELPER_DIR"

// crashAfterEnv is the crash hook's variable (CrashAfterEnv, in binaries
// built with -tags crashtest; others ignore it).
const crashAfterEnv = "MEMDIR_DREAM_CRASH_AFTER"

var testNow = time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)

// TestMain lets the test binary act as a dream process for the crash
// tests: with DREAM_HELPER_DIR set it dreams that directory and exits;
// with DREAM_HELPER_APPEND_DIR it is a person editing files meanwhile.
func TestMain(m *testing.M) {
	if dir := os.Getenv(appendDirEnv); dir != "" {
		appendHelper(dir)
	}
	if dir := os.Getenv(helperDirEnv); dir != "" {
		d := memdir.Open(dir, memdir.Log)
		d = d.With(memdir.WithClock(func() time.Time { return testNow }))
		rep, err := Run(context.Background(), Options{Dir: d})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for _, p := range rep.Problems {
			fmt.Println("problem:", p)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// crashFixture writes a log-mode memory directory with entries over
// several days and topics, every entry text distinct, and one expired
// project topic to archive. It returns the entry texts.
func crashFixture(t *testing.T, dir string, days, perDay int) []string {
	t.Helper()
	d := memdir.Open(dir, memdir.Log)
	if _, err := d.Init(); err != nil {
		t.Fatal(err)
	}
	var texts []string
	types := []typesx.Type{typesx.Project, typesx.Reference, typesx.Feedback, typesx.User}
	for day := range days {
		at := time.Date(2026, 11, 1+day, 9, 0, 0, 0, time.UTC)
		for i := range perDay {
			n := day*perDay + i
			text := fmt.Sprintf("Item%d zeta%d omega%d lives %d units away.", n, n, n, 1000+n)
			texts = append(texts, text)
			e := dailylog.Entry{Time: at.Add(time.Duration(i) * time.Minute).Format("15:04"), Type: types[n%4], Title: fmt.Sprintf("Area %d", n%2), Text: text}
			if _, err := dailylog.Append(dir, at, e); err != nil {
				t.Fatal(err)
			}
		}
	}
	old := "---\nname: Old launch\ndescription: The old launch date\ntype: project\nexpires: 2026-01-01\n---\n\nThe launch was on 2025-12-30.\n"
	if err := os.WriteFile(filepath.Join(dir, "project_old_launch.md"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	return texts
}

// snapshotFiles reads every file of the directory but the locks.
func snapshotFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if rel == LockFile || rel == filepath.Join(".memdir", "lock") {
			return nil
		}
		data, err := os.ReadFile(path)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// helper runs the test binary as a dream process on dir; with crashAfter
// positive, one that kills itself after so many file operations (in a test
// binary built with -tags crashtest).
func helper(dir string, crashAfter int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	// GORACE: a race-enabled helper would otherwise sleep a second at exit.
	cmd.Env = append(os.Environ(), helperDirEnv+"="+dir, crashAfterEnv+"="+strconv.Itoa(crashAfter), "GORACE=atexit_sleep_ms=0")
	return cmd
}

// killed reports whether a helper died of SIGKILL.
func killed(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// checkExactlyOnce asserts that every entry text is in exactly one topic
// file, once, and nothing else is in the archive but the expired topic.
func checkExactlyOnce(t *testing.T, files map[string]string, texts []string) {
	t.Helper()
	var topics []string
	for f := range files {
		if !strings.Contains(f, "/") && memdir.IsTopicFile(f) {
			tp, err := memdir.ParseTopic(f, []byte(files[f]))
			if err != nil {
				t.Fatal(err)
			}
			topics = append(topics, tp.Body)
		}
	}
	all := strings.Join(topics, "\n")
	for _, text := range texts {
		if n := strings.Count(all, text); n != 1 {
			t.Fatalf("entry %q is in the topics %d times, want 1", text, n)
		}
	}
	if _, ok := files["archive/project_old_launch.md"]; !ok {
		t.Errorf("the expired topic was not archived")
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := copyTree(from, to); err != nil {
		t.Fatal(err)
	}
}

func copyTree(from, to string) error { return os.CopyFS(to, os.DirFS(from)) }

// crashReference writes the crash tests' fixture under a new temp
// directory base and dreams a copy of it uninterrupted: the files every
// interrupted dream must end with.
func crashReference(t *testing.T) (base, fixture string, texts []string, want map[string]string) {
	t.Helper()
	base = t.TempDir()
	fixture = filepath.Join(base, "fixture")
	texts = crashFixture(t, fixture, 6, 20)
	ref := filepath.Join(base, "ref")
	copyDir(t, fixture, ref)
	if out, err := helper(ref, 0).CombinedOutput(); err != nil {
		t.Fatalf("reference dream: %v\n%s", err, out)
	}
	want = snapshotFiles(t, ref)
	checkExactlyOnce(t, want, texts)
	if _, ok := want[journalPath]; ok {
		t.Fatal("the reference dream left its journal")
	}
	return base, fixture, texts, want
}

func TestCrashAtRandomMoments(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	base, fixture, texts, want := crashReference(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 12 {
		dir := filepath.Join(base, fmt.Sprint("kill", round))
		copyDir(t, fixture, dir)
		for range 3 {
			cmd := helper(dir, 0)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The delay picks a moment to kill at; nothing waits on it.
			time.Sleep(time.Duration(rng.IntN(60_000)) * time.Microsecond)
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		finishAndCompare(t, dir, want, texts, fmt.Sprintf("random kills, round %d", round))
	}
}

// finishAndCompare runs dream to completion on dir, checks the result is
// exactly the uninterrupted dream's, and that a further dream changes no
// byte.
func finishAndCompare(t *testing.T, dir string, want map[string]string, texts []string, what string) {
	t.Helper()
	if out, err := helper(dir, 0).CombinedOutput(); err != nil {
		t.Fatalf("%s: finishing dream: %v\n%s", what, err, out)
	}
	got := snapshotFiles(t, dir)
	checkExactlyOnce(t, got, texts)
	if diff := diffFiles(want, got); diff != "" {
		t.Fatalf("%s: the result differs from an uninterrupted dream:\n%s", what, diff)
	}
	if out, err := helper(dir, 0).CombinedOutput(); err != nil {
		t.Fatalf("%s: further dream: %v\n%s", what, err, out)
	}
	if diff := diffFiles(got, snapshotFiles(t, dir)); diff != "" {
		t.Fatalf("%s: a further dream changed files:\n%s", what, diff)
	}
}

// diffFiles names the files that differ between two snapshots.
func diffFiles(a, b map[string]string) string {
	var out []string
	for f, da := range a {
		if db, ok := b[f]; !ok {
			out = append(out, "missing "+f)
		} else if !bytes.Equal([]byte(da), []byte(db)) {
			out = append(out, "differs "+f)
		}
	}
	for f := range b {
		if _, ok := a[f]; !ok {
			out = append(out, "extra "+f)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}
