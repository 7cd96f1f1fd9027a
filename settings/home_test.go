package settings

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

func TestHome(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, f *fixture)
		want  func(f *fixture) string
		layer Layer
	}{
		{"default", func(t *testing.T, f *fixture) {},
			func(f *fixture) string { return filepath.Join(f.userHome, ".memdir") }, Default},
		{"env", func(t *testing.T, f *fixture) { f.env["MEMDIR_HOME"] = "~/.claude" },
			func(f *fixture) string { return filepath.Join(f.userHome, ".claude") }, Env},
		{"relative env is relative to cwd", func(t *testing.T, f *fixture) { f.env["MEMDIR_HOME"] = "h" },
			func(f *fixture) string { return filepath.Join(f.root, "sub", "h") }, Env},
		{"flag beats env", func(t *testing.T, f *fixture) {
			f.env["MEMDIR_HOME"] = "/env"
			f.flags = map[string]string{"home": "/flag"}
		}, func(f *fixture) string { return "/flag" }, Flag},
		{"relative local value is relative to root", func(t *testing.T, f *fixture) {
			f.write(t, Local, "home: .mh\n")
		}, func(f *fixture) string { return filepath.Join(f.root, ".mh") }, Local},
		{"untrusted project value ignored", func(t *testing.T, f *fixture) {
			f.write(t, Project, "home: .mh\n")
		}, func(f *fixture) string { return filepath.Join(f.userHome, ".memdir") }, Default},
		{"managed", func(t *testing.T, f *fixture) { f.write(t, Managed, "home: /srv/memdir\n") },
			func(f *fixture) string { return "/srv/memdir" }, Managed},
		{"user file ignored", func(t *testing.T, f *fixture) { f.write(t, User, "home: /elsewhere\n") },
			func(f *fixture) string { return filepath.Join(f.userHome, ".memdir") }, Default},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			tc.setup(t, f)
			s := f.load(t)
			if got, want := s.Home(), tc.want(f); got != want {
				t.Errorf("Home() = %s, want %s", got, want)
			}
			if v, _ := s.Lookup("home"); v.Origin.Layer != tc.layer {
				t.Errorf("home origin = %s, want %s", v.Origin.Layer, tc.layer)
			}
			if got, want := s.File(User), filepath.Join(tc.want(f), UserFile); got != want {
				t.Errorf("File(User) = %s, want %s", got, want)
			}
		})
	}
}

func TestUserFileHomeWarning(t *testing.T) {
	f := newFixture(t)
	path := f.write(t, User, "mode: log\nhome: /elsewhere\n")
	s := f.load(t)
	want := []Warning{{File: path, Line: 2, Message: "home is ignored in the user settings file, which lives in home; set MEMDIR_HOME, or home in the managed or local settings"}}
	if diff := cmp.Diff(want, s.Warnings()); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
	if got := s.Get("mode"); got != "log" {
		t.Errorf("mode = %q, want log from the user file", got)
	}
}

// TestUserFileFollowsHome checks that the user file is read from the home
// that the other layers chose.
func TestUserFileFollowsHome(t *testing.T) {
	f := newFixture(t)
	home := filepath.Join(f.root, "h")
	f.write(t, Local, "home: "+home+"\n")
	writeFile(t, filepath.Join(home, UserFile), "mode: log\n")
	s := f.load(t)
	if got, _ := s.Lookup("mode"); got.Value != "log" || got.Origin.Layer != User || got.Origin.File != filepath.Join(home, UserFile) {
		t.Errorf("mode = %+v, want log from %s", got, filepath.Join(home, UserFile))
	}
}

func TestPath(t *testing.T) {
	f := newFixture(t)
	f.write(t, User, "dir: memory\n")
	s := f.load(t)
	if got, want := s.Path("dir"), filepath.Join(f.root, "memory"); got != want {
		t.Errorf("Path(dir) = %s, want %s", got, want)
	}
	f.flags = map[string]string{"dir": "../m"}
	s = f.load(t)
	if got, want := s.Path("dir"), filepath.Join(f.root, "m"); got != want {
		t.Errorf("Path(dir) from flag = %s, want %s", got, want)
	}
	f.flags = map[string]string{"dir": ""}
	if got := f.load(t).Path("dir"); got != "" {
		t.Errorf("Path(dir) empty = %q, want empty", got)
	}
}

func TestProfiles(t *testing.T) {
	f := newFixture(t)
	user := f.write(t, User, "profiles:\n  a: {file: A.md}\n  b: {file: B.md}\n")
	project := f.write(t, Project, "profiles:\n  b: {file: B2.md}\n  c: {file: C.md}\n")
	s := f.load(t)
	got := map[string]string{}
	for name, n := range s.Profiles() {
		var p struct{ File string }
		if err := n.Decode(&p); err != nil {
			t.Fatal(err)
		}
		got[name] = p.File
	}
	want := map[string]string{"a": "A.md", "b": "B2.md", "c": "C.md"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("profiles mismatch (-want +got):\n%s", diff)
	}
	if o, _ := s.ProfileOrigin("a"); o != (Origin{Layer: User, File: user, Line: 2}) {
		t.Errorf("ProfileOrigin(a) = %+v", o)
	}
	v, _ := s.Lookup(ProfilesKey)
	if want := (Value{Key: ProfilesKey, Value: "a, b, c", Origin: Origin{Layer: Project, File: project}}); v != want {
		t.Errorf("Lookup(profiles) = %+v, want %+v", v, want)
	}
}

func TestProfilesLocked(t *testing.T) {
	f := newFixture(t)
	f.write(t, Managed, "locked: [profiles]\nprofiles:\n  a: {file: A.md}\n")
	f.write(t, Project, "profiles:\n  a: {file: X.md}\n  b: {file: B.md}\n")
	s := f.load(t)
	got := s.Profiles()
	if len(got) != 1 || got["a"] == nil || got["a"].Kind != yaml.MappingNode {
		t.Fatalf("Profiles() = %v, want only the managed a", got)
	}
	if len(s.Warnings()) != 1 {
		t.Errorf("Warnings() = %v, want one lock warning", s.Warnings())
	}
}
