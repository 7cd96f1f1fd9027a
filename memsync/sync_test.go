package memsync

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

func TestMain(m *testing.M) {
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	if home := os.Getenv("MEMDIR_SYNC_CHILD"); home != "" {
		// A sync in a process of its own, for the simulation to kill.
		p := Project{Dir: os.Getenv("MEMDIR_SYNC_MEM"), Root: os.Getenv("MEMDIR_SYNC_ROOT")}
		o := Options{Home: home, Projects: []Project{p}, LockTimeout: 10 * time.Second}
		var err error
		if team := os.Getenv("MEMDIR_SYNC_TEAM"); team != "" {
			o.Projects[0].Identity = teamIdentity
			_, err = SyncTeam(context.Background(), o, team)
		} else {
			_, err = Sync(context.Background(), o)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const origin = "git@github.com:acme/app.git"

// machine is one computer: a memdir home and a clone of the project at a
// path of its own.
type machine struct {
	home, root, mem string
	// team is the team remote a team machine syncs mem (the project's
	// team memory) through; "" for a machine that syncs its own memory.
	team string
}

// teamIdentity is the project's identity a team machine syncs under.
const teamIdentity = "github.com/acme/app"

// newTeamMachine is a teammate: a machine whose mem is the project's
// team memory, synced through the team remote url.
func newTeamMachine(t testing.TB, url string) *machine {
	t.Helper()
	m := newMachine(t, url)
	m.mem, m.team = filepath.Join(m.root, ".memdir", "team"), url
	return m
}

func newMachine(t testing.TB, url string) *machine {
	t.Helper()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	m := &machine{home: filepath.Join(base, "home"), root: filepath.Join(base, "src", "app")}
	m.mem = filepath.Join(m.home, "projects", "-src-app", "memory")
	if err := os.MkdirAll(m.root, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, m.root, "git", "init", "-q")
	run(t, m.root, "git", "remote", "add", "origin", origin)
	if err := SetRemote(m.home, url); err != nil {
		t.Fatal(err)
	}
	return m
}

// run runs a command in dir and returns its output.
func run(t testing.TB, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// add records a memory as `memdir add` does, claiming the directory for
// the project first as the CLI does.
func (m *machine) add(t *testing.T, typ typesx.Type, name, text string, private bool) string {
	t.Helper()
	if err := canonical.ClaimRoot(m.mem, m.root); err != nil {
		t.Fatal(err)
	}
	res, err := memdir.Open(m.mem, memdir.Live).Add(memdir.AddRequest{Type: typ, Name: name, Text: text, Private: private, AllowSecret: true, New: true})
	if err != nil {
		t.Fatal(err)
	}
	return res.File
}

// sync runs a sync as `memdir sync` inside the project does.
func (m *machine) sync(t *testing.T) *Result {
	t.Helper()
	o := Options{Home: m.home, Projects: []Project{{Dir: m.mem, Root: m.root}}, LockTimeout: 10 * time.Second}
	var res *Result
	var err error
	if m.team != "" {
		o.Projects[0].Identity = teamIdentity
		res, err = SyncTeam(context.Background(), o, m.team)
	} else {
		res, err = Sync(context.Background(), o)
	}
	if err != nil {
		t.Fatalf("sync %s: %v", m.home, err)
	}
	return res
}

func (m *machine) read(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(m.mem, name))
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return string(data)
}

// bareRemote makes an empty bare repository and returns its directory.
func bareRemote(t testing.TB) string {
	t.Helper()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	dir := filepath.Join(base, "memory.git")
	run(t, base, "git", "init", "-q", "--bare", "--initial-branch=main", dir)
	return dir
}

// gitDaemon serves the bare repository's parent over git:// on a free
// port of 127.0.0.1, pushes allowed, until the test ends.
func gitDaemon(t testing.TB, bare string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	base := filepath.Dir(bare)
	cmd := exec.Command("git", "daemon", "--reuseaddr", "--export-all", "--enable=receive-pack",
		"--base-path="+base, "--listen=127.0.0.1", fmt.Sprintf("--port=%d", port), base)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	url := fmt.Sprintf("git://127.0.0.1:%d/%s", port, filepath.Base(bare))
	// Ready when it answers: each try is a real ls-remote, bounded.
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := exec.Command("git", "ls-remote", url).Run(); err == nil {
			return url
		}
		if time.Now().After(deadline) {
			t.Fatalf("git daemon on port %d never answered", port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// transports are the remotes each end-to-end test runs over.
func transports(t *testing.T) map[string]func(bare string) string {
	return map[string]func(string) string{
		"file":   func(bare string) string { return "file://" + bare },
		"daemon": func(bare string) string { return gitDaemon(t, bare) },
	}
}

func TestSyncNewMachineGetsMemory(t *testing.T) {
	for name, url := range transports(t) {
		t.Run(name, func(t *testing.T) {
			u := url(bareRemote(t))
			a, b := newMachine(t, u), newMachine(t, u)
			file := a.add(t, typesx.Feedback, "Testing policy", "Integration tests hit a real database.", false)
			if res := a.sync(t); !res.Pushed {
				t.Fatalf("A's first sync pushed nothing: %+v", res)
			}
			res := b.sync(t)
			if got := b.read(t, file); !strings.Contains(got, "Integration tests hit a real database.") {
				t.Errorf("B's %s = %q", file, got)
			}
			if got := b.read(t, "MEMORY.md"); !strings.Contains(got, "("+file+")") {
				t.Errorf("B's MEMORY.md lacks %s:\n%s", file, got)
			}
			if len(res.Projects) != 1 || res.Projects[0].Identity != "github.com/acme/app" {
				t.Errorf("B's projects = %+v", res.Projects)
			}
			if again := b.sync(t); again.Pushed || len(again.Projects[0].Pulled) != 0 {
				t.Errorf("a second sync did something: %+v", again)
			}
		})
	}
}

func TestSyncConcurrentTopicsBothSurvive(t *testing.T) {
	for name, url := range transports(t) {
		t.Run(name, func(t *testing.T) {
			u := url(bareRemote(t))
			a, b := newMachine(t, u), newMachine(t, u)
			fa := a.add(t, typesx.Feedback, "Testing policy", "Use a real database.", false)
			fb := b.add(t, typesx.User, "Role", "A data scientist.", false)
			a.sync(t)
			b.sync(t)
			a.sync(t)
			for _, m := range []*machine{a, b} {
				ix := m.read(t, "MEMORY.md")
				for _, f := range []string{fa, fb} {
					m.read(t, f)
					if strings.Count(ix, "("+f+")") != 1 {
						t.Errorf("%s: MEMORY.md lists %s %d times:\n%s", m.home, f, strings.Count(ix, "("+f+")"), ix)
					}
				}
			}
			if a.read(t, "MEMORY.md") != b.read(t, "MEMORY.md") {
				t.Errorf("the indexes differ:\n%s\n---\n%s", a.read(t, "MEMORY.md"), b.read(t, "MEMORY.md"))
			}
		})
	}
}
