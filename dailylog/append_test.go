package dailylog

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/memdir/memdir/typesx"
)

var testNow = time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)

func TestAppendWritesHeaderOnce(t *testing.T) {
	dir := t.TempDir()
	entries := []Entry{
		{Time: "10:04", Type: typesx.Feedback, Title: "Testing policy", Text: "real database\nWhy: mocks lied"},
		{Text: "no time given"},
		{Type: typesx.Project, Title: "A: B", Text: "[user] not a type"},
	}
	var want strings.Builder
	want.WriteString("# 2026-11-22\n\n")
	for _, e := range entries {
		path, err := Append(dir, testNow, e)
		if err != nil {
			t.Fatalf("Append(%+v): %v", e, err)
		}
		if wantPath := filepath.Join(dir, "logs", "2026", "11", "2026-11-22.md"); path != wantPath {
			t.Errorf("got path %q, want %q", path, wantPath)
		}
		if e.Time == "" {
			e.Time = "10:04"
		}
		want.WriteString(Format(e))
	}
	got, err := os.ReadFile(Path(dir, testNow))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want.String() {
		t.Errorf("log = %q, want %q", got, want.String())
	}
}

func TestAppendAfterHandEdit(t *testing.T) {
	tests := []struct{ name, before, want string }{
		{"unterminated line", "# 2026-11-22\n\n- hand written", "# 2026-11-22\n\n- hand written\n- 10:04 x\n"},
		{"terminated", "- hand\n", "- hand\n- 10:04 x\n"},
		{"empty file", "", "# 2026-11-22\n\n- 10:04 x\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := Path(dir, testNow)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tc.before), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Append(dir, testNow, Entry{Text: "x"}); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tc.want {
				t.Errorf("log = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAppendUsesDaysOwnLocation(t *testing.T) {
	dir := t.TempDir()
	east := time.FixedZone("UTC+13", 13*3600)
	now := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC).In(east) // 2026-11-23 09:00 there
	path, err := Append(dir, now, Entry{Text: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "logs", "2026", "11", "2026-11-23.md"); path != want {
		t.Errorf("got %q, want %q", path, want)
	}
	got, _ := os.ReadFile(path)
	if want := "# 2026-11-23\n\n- 09:00 x\n"; string(got) != want {
		t.Errorf("log = %q, want %q", got, want)
	}
}

func TestAppendRejects(t *testing.T) {
	isUnknownType := func(err error) bool {
		var ute *typesx.UnknownTypeError
		return errors.As(err, &ute)
	}
	tests := []struct {
		name string
		e    Entry
		want func(error) bool
	}{
		{"empty", Entry{Time: "10:00", Text: " \n "}, func(err error) bool { return errors.Is(err, ErrEmptyEntry) }},
		{"bad time", Entry{Time: "noon", Text: "x"}, func(err error) bool { return errors.Is(err, ErrInvalidTime) }},
		{"bad type", Entry{Type: "todo", Text: "x"}, isUnknownType},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := Append(dir, testNow, tc.e); !tc.want(err) {
				t.Errorf("got error %v, want the %s error", err, tc.name)
			}
			if _, err := os.Stat(filepath.Join(dir, "logs")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a rejected entry created logs/: %v", err)
			}
		})
	}
}

const (
	helperDirEnv  = "DAILYLOG_HELPER_DIR"
	helperProcs   = 16
	helperEntries = 100
)

// helperText is the text process p writes in its entry n: long and
// multi-line so that a torn or interleaved write cannot go unnoticed.
func helperText(p, n int) string {
	return fmt.Sprintf("p%d n%d %s\nsecond line of p%d n%d\n\n  indented %s end",
		p, n, strings.Repeat(string(rune('a'+p)), 500+p*61), p, n, strings.Repeat("z", 700+n*7))
}

// TestHelperAppend is not a test: TestAppendConcurrentProcesses runs the
// test binary as child processes that append through it.
func TestHelperAppend(t *testing.T) {
	dir := os.Getenv(helperDirEnv)
	if dir == "" {
		t.Skip("run only as a helper process")
	}
	p, _ := strconv.Atoi(os.Getenv("DAILYLOG_HELPER_PROC"))
	locked := os.Getenv("DAILYLOG_HELPER_LOCK") == "1"
	lk := flock.New(filepath.Join(dir, ".memdir", "lock"))
	if os.Getenv("DAILYLOG_HELPER_FOREVER") == "1" {
		// Until killed: one line on stdout after each append.
		for n := 0; ; n++ {
			e := Entry{Time: "10:04", Type: typesx.Project, Title: fmt.Sprintf("Proc %d", p), Text: fmt.Sprintf("p%d n%d", p, n)}
			if _, err := Append(dir, testNow, e); err != nil {
				t.Fatal(err)
			}
			fmt.Println("appended")
		}
	}
	for n := range helperEntries {
		if locked {
			if err := lk.Lock(); err != nil {
				t.Fatal(err)
			}
		}
		e := Entry{Time: "10:04", Type: typesx.Project, Title: fmt.Sprintf("Proc %d", p), Text: helperText(p, n)}
		if _, err := Append(dir, testNow, e); err != nil {
			t.Fatal(err)
		}
		if locked {
			if err := lk.Unlock(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestAppendConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 16 processes")
	}
	for _, locked := range []bool{true, false} {
		t.Run(fmt.Sprintf("locked=%v", locked), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, ".memdir"), 0o755); err != nil {
				t.Fatal(err)
			}
			runHelpers(t, dir, locked)
			data, err := os.ReadFile(Path(dir, testNow))
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(data), "# 2026-11-22\n"); locked && n != 1 {
				t.Errorf("got %d headings, want 1", n)
			}
			checkHelperEntries(t, data)
			if n, ok, err := Appended(dir); err != nil || !ok || n != helperProcs*helperEntries {
				t.Errorf("Appended = %d, %v, %v; want %d", n, ok, err, helperProcs*helperEntries)
			}
		})
	}
}

func runHelpers(t *testing.T, dir string, locked bool) {
	t.Helper()
	lock := "0"
	if locked {
		lock = "1"
	}
	cmds := make([]*exec.Cmd, helperProcs)
	for p := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAppend$", "-test.count=1")
		cmd.Env = append(os.Environ(), helperDirEnv+"="+dir,
			"DAILYLOG_HELPER_PROC="+strconv.Itoa(p), "DAILYLOG_HELPER_LOCK="+lock)
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[p] = cmd
		t.Cleanup(func() {
			if t.Failed() && out.Len() > 0 {
				t.Logf("helper %d output:\n%s", p, out)
			}
		})
	}
	for p, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("helper %d: %v", p, err)
		}
	}
}

// checkHelperEntries asserts that data holds every helper entry exactly
// once and intact.
func checkHelperEntries(t *testing.T, data []byte) {
	t.Helper()
	entries, problems := Parse(data, testFile)
	if len(problems) != 0 {
		t.Errorf("got problems %v, want none", problems[:min(len(problems), 5)])
	}
	if want := helperProcs * helperEntries; len(entries) != want {
		t.Fatalf("got %d entries, want %d", len(entries), want)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		var p, n int
		if _, err := fmt.Sscanf(e.Text, "p%d n%d", &p, &n); err != nil {
			t.Fatalf("line %d: unreadable entry %q", e.Line, e.Text)
		}
		want := Entry{Time: "10:04", Type: typesx.Project, Title: fmt.Sprintf("Proc %d", p), Text: helperText(p, n)}
		if e.Time != want.Time || e.Type != want.Type || e.Title != want.Title || e.Text != want.Text {
			t.Fatalf("line %d: torn entry %+v", e.Line, e)
		}
		key := fmt.Sprint(p, n)
		if seen[key] {
			t.Fatalf("line %d: entry p%d n%d twice", e.Line, p, n)
		}
		seen[key] = true
	}
}
