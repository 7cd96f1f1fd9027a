package settings

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestUntrustedProjectSettings(t *testing.T) {
	tests := []struct {
		name    string
		project string
		setup   func(t *testing.T, f *fixture)
		key     string // a key that must keep its default
		ignored []string
	}{
		{"distiller runs a command", "dream:\n  distiller: sh -c 'touch /tmp/pwned'\n", nil,
			"dream.distiller", []string{"dream.distiller"}},
		{"outside imports", "context:\n  allow_outside_imports: true\n", nil,
			"context.allow_outside_imports", []string{"context.allow_outside_imports"}},
		{"dir climbing out", "dir: ../elsewhere\n", nil, "dir", []string{"dir"}},
		{"absolute dir", "dir: /var/tmp/mem\n", nil, "dir", []string{"dir"}},
		{"dir under ~", "dir: ~/mem\n", nil, "dir", []string{"dir"}},
		{"dir through a symlink out", "dir: .mem/x\n", func(t *testing.T, f *fixture) {
			if err := os.Symlink(t.TempDir(), filepath.Join(f.root, ".mem")); err != nil {
				t.Fatal(err)
			}
		}, "dir", []string{"dir"}},
		{"home", "home: .mh\n", nil, "home", []string{"home"}},
		{"capture into team memory", "capture:\n  team_types: [user, project]\n", nil,
			"capture.team_types", []string{"capture.team_types"}},
		{"several at once", "home: /h\ndream.distiller: evil\n", nil, "home", []string{"dream.distiller", "home"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			if tc.setup != nil {
				tc.setup(t, f)
			}
			path := f.write(t, Project, tc.project)
			s := f.load(t)
			if v, _ := s.Lookup(tc.key); v.Origin.Layer != Default {
				t.Errorf("%s = %q from %s, want the default", tc.key, v.Value, v.Origin)
			}
			var got []string
			for _, ig := range s.Ignored() {
				got = append(got, ig.Key)
			}
			if diff := cmp.Diff(tc.ignored, got); diff != "" {
				t.Errorf("ignored keys (-want +got):\n%s", diff)
			}
			ws := s.Warnings()
			if len(ws) != 1 || ws[0].File != path || !strings.Contains(ws[0].Message, "memdir trust") {
				t.Errorf("warnings = %v, want one line naming %s and `memdir trust`", ws, path)
			}

			// Trusted as it is, the file is honoured.
			data, _ := os.ReadFile(path)
			if _, err := Trust(s.TrustHome(), f.root, data, time.Unix(0, 0)); err != nil {
				t.Fatal(err)
			}
			s = f.load(t)
			if v, _ := s.Lookup(tc.key); v.Origin.Layer != Project {
				t.Errorf("after trust: %s from %s, want project", tc.key, v.Origin)
			}
			if len(s.Ignored()) != 0 || len(s.Warnings()) != 0 {
				t.Errorf("after trust: ignored %v, warnings %v", s.Ignored(), s.Warnings())
			}

			// A changed file needs trusting again.
			f.write(t, Project, tc.project+"# changed\n")
			if s = f.load(t); len(s.Ignored()) == 0 {
				t.Errorf("a changed file stayed trusted")
			}
		})
	}
}

func TestHarmlessProjectSettingsNeedNoTrust(t *testing.T) {
	f := newFixture(t)
	f.write(t, Project, "mode: log\ndir: .memdir\ndream:\n  distiller: \"\"\ncontext:\n  allow_outside_imports: false\n"+
		"profiles:\n  mine:\n    extends: claude\n    project_names: [AGENTS.md, docs/AI.md]\n")
	s := f.load(t)
	if len(s.Ignored()) != 0 || len(s.Warnings()) != 0 {
		t.Errorf("ignored %v, warnings %v; want none", s.Ignored(), s.Warnings())
	}
	if got, want := s.Path("dir"), filepath.Join(f.root, ".memdir"); got != want {
		t.Errorf("dir = %s, want %s", got, want)
	}
	if _, ok := s.Profiles()["mine"]; !ok {
		t.Errorf("profile mine dropped")
	}
}

func TestUntrustedProfilesNamingOutsidePaths(t *testing.T) {
	f := newFixture(t)
	f.write(t, Project, "profiles:\n  ok:\n    project_names: [AGENTS.md]\n"+
		"  keys:\n    user_files: [\"~/.ssh/id_rsa\"]\n  up:\n    project_names: [../../secret.md]\n"+
		"  abs:\n    rules_dirs: [/etc]\n  managed:\n    managed_files: [\"{managed}/x.md\"]\n")
	s := f.load(t)
	got := []string{}
	for name := range s.Profiles() {
		got = append(got, name)
	}
	if diff := cmp.Diff([]string{"ok"}, got); diff != "" {
		t.Errorf("profiles kept (-want +got):\n%s", diff)
	}
	if n := len(s.Ignored()); n != 4 {
		t.Errorf("ignored %d profiles, want 4: %v", n, s.Ignored())
	}
}

func TestTrustedLayersAlwaysHonoured(t *testing.T) {
	f := newFixture(t)
	f.write(t, Local, "dream.distiller: my-llm\ncontext.allow_outside_imports: true\n")
	f.write(t, User, "dir: /srv/mem\n")
	s := f.load(t)
	if got := s.Get("dream.distiller"); got != "my-llm" {
		t.Errorf("local distiller = %q", got)
	}
	if !s.Bool("context.allow_outside_imports") {
		t.Errorf("local allow_outside_imports ignored")
	}
	if got := s.Path("dir"); got != "/srv/mem" {
		t.Errorf("user dir = %q", got)
	}
	if len(s.Warnings()) != 0 {
		t.Errorf("warnings %v", s.Warnings())
	}
}

// A project file cannot choose where its own trust is looked up: its home
// is ignored when finding the trust list, even with a forged list there.
func TestProjectCannotMoveTrustList(t *testing.T) {
	f := newFixture(t)
	content := "home: forged\ndream.distiller: evil\n"
	f.write(t, Project, content)
	forged := filepath.Join(f.root, "forged")
	if _, err := Trust(forged, f.root, []byte(content), time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	s := f.load(t)
	if got := s.Get("dream.distiller"); got != "" {
		t.Errorf("distiller = %q with a forged trust list", got)
	}
	if got, want := s.TrustHome(), filepath.Join(f.userHome, ".memdir"); got != want {
		t.Errorf("TrustHome = %s, want %s", got, want)
	}
}

func TestRevoke(t *testing.T) {
	f := newFixture(t)
	home := filepath.Join(f.userHome, ".memdir")
	data := []byte("dream.distiller: x\n")
	for _, root := range []string{"/a", f.root, "/z"} {
		if _, err := Trust(home, root, data, time.Unix(0, 0)); err != nil {
			t.Fatal(err)
		}
	}
	if !IsTrusted(home, f.root, data) {
		t.Fatal("not trusted after Trust")
	}
	if ok, err := Revoke(home, f.root); !ok || err != nil {
		t.Fatalf("Revoke = %v, %v", ok, err)
	}
	if IsTrusted(home, f.root, data) {
		t.Error("still trusted after Revoke")
	}
	recs, err := ReadTrust(home)
	if err != nil || len(recs) != 2 || recs[0].Root != "/a" || recs[1].Root != "/z" {
		t.Errorf("ReadTrust = %v, %v; want /a and /z", recs, err)
	}
	if ok, _ := Revoke(home, f.root); ok {
		t.Error("second Revoke found the root again")
	}
}

func TestDamagedTrustListTrustsNothing(t *testing.T) {
	f := newFixture(t)
	home := filepath.Join(f.userHome, ".memdir")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, TrustFile), []byte(`[{"root": `), 0o600); err != nil {
		t.Fatal(err)
	}
	if IsTrusted(home, f.root, nil) {
		t.Error("a damaged list trusted a root")
	}
	if _, err := Trust(home, f.root, nil, time.Unix(0, 0)); err == nil {
		t.Error("Trust overwrote a damaged list without a word")
	}
}

// Trust and Set hold the directory lock: concurrent writers in real
// processes all land.
func TestConcurrentTrustInProcesses(t *testing.T) {
	if os.Getenv("MEMDIR_TRUST_CHILD") != "" {
		return
	}
	if testing.Short() {
		t.Skip("starts processes")
	}
	home := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(exe, "-test.run=^TestTrustChild$")
			cmd.Env = append(os.Environ(), "MEMDIR_TRUST_CHILD=1", "TRUST_HOME="+home, "TRUST_ROOT=/r"+string(rune('a'+i)))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- &childError{err, string(out)}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	recs, err := ReadTrust(home)
	if err != nil || len(recs) != n {
		t.Errorf("ReadTrust: %d records, %v; want %d", len(recs), err, n)
	}
}

func TestTrustChild(t *testing.T) {
	if os.Getenv("MEMDIR_TRUST_CHILD") == "" {
		t.Skip("run by TestConcurrentTrustInProcesses")
	}
	if _, err := Trust(os.Getenv("TRUST_HOME"), os.Getenv("TRUST_ROOT"), []byte("x"), time.Now()); err != nil {
		t.Fatal(err)
	}
}

type childError struct {
	err error
	out string
}

func (e *childError) Error() string { return e.err.Error() + ": " + e.out }

// A local file committed to the repository came with it: its sensitive
// settings are dropped whatever the trust list says.
func TestCommittedLocalFileUntrusted(t *testing.T) {
	f := newFixture(t)
	local := f.write(t, Local, "dream.distiller: evil\nmode: log\n")
	opts := f.options()
	opts.Committed = func(p string) bool { return p == local }
	s, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Get("dream.distiller"); got != "" {
		t.Errorf("distiller = %q from a committed local file", got)
	}
	if got := s.Get("mode"); got != "log" {
		t.Errorf("mode = %q, want log: harmless keys still apply", got)
	}
	if ws := s.Warnings(); len(ws) != 1 || ws[0].File != local {
		t.Errorf("warnings = %v, want one naming %s", ws, local)
	}
}
