package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fixture is a sandbox: a project root, a user home and a managed file
// path, none of them real.
type fixture struct {
	root, userHome, managed string
	env                     map[string]string
	flags                   map[string]string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{
		root:     filepath.Join(dir, "proj"),
		userHome: filepath.Join(dir, "uhome"),
		managed:  filepath.Join(dir, "etc", "config.yaml"),
	}
	f.env = map[string]string{ManagedPathEnv: f.managed}
	for _, d := range []string{f.root, f.userHome, filepath.Dir(f.managed)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// userFile is the user settings file under the default home.
func (f *fixture) userFile() string { return filepath.Join(f.userHome, ".memdir", UserFile) }

func (f *fixture) file(layer Layer) string {
	switch layer {
	case Managed:
		return f.managed
	case User:
		return f.userFile()
	case Project:
		return filepath.Join(f.root, ProjectFile)
	case Local:
		return filepath.Join(f.root, LocalFile)
	}
	panic("no file for " + layer.String())
}

func (f *fixture) write(t *testing.T, layer Layer, content string) string {
	t.Helper()
	path := f.file(layer)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func (f *fixture) options() Options {
	return Options{
		Root:     f.root,
		Getenv:   func(k string) string { return f.env[k] },
		Flags:    f.flags,
		UserHome: f.userHome,
		Cwd:      filepath.Join(f.root, "sub"),
	}
}

func (f *fixture) load(t *testing.T) *Settings {
	t.Helper()
	s, err := Load(f.options())
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return s
}

func TestDefaults(t *testing.T) {
	f := newFixture(t)
	s := f.load(t)
	for _, k := range Keys() {
		if k.Kind == KindStructured {
			continue
		}
		got, ok := s.Lookup(k.Key)
		want := Value{Key: k.Key, Value: k.Default, Origin: Origin{Layer: Default}}
		if !ok || got != want {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v", k.Key, got, ok, want)
		}
	}
	if got, want := s.Duration("lock.timeout").String(), "10s"; got != want {
		t.Errorf("Duration(lock.timeout) = %s, want %s", got, want)
	}
	if got := s.Warnings(); len(got) != 0 {
		t.Errorf("Warnings() = %v, want none", got)
	}
}

// TestLayerOverrides sets lock.timeout in every layer up to the one under
// test, each with a different value, and expects the highest to win.
func TestLayerOverrides(t *testing.T) {
	values := map[Layer]string{Managed: "1s", User: "2s", Project: "3s", Local: "4s", Env: "5s", Flag: "6s"}
	for top := Managed; top <= Flag; top++ {
		t.Run(top.String(), func(t *testing.T) {
			f := newFixture(t)
			f.flags = map[string]string{}
			for l := Managed; l <= top; l++ {
				switch l {
				case Env:
					f.env["MEMDIR_LOCK_TIMEOUT"] = values[l]
				case Flag:
					f.flags["lock.timeout"] = values[l]
				default:
					f.write(t, l, "# "+l.String()+"\nlock.timeout: "+values[l]+"\n")
				}
			}
			got, _ := f.load(t).Lookup("lock.timeout")
			want := Value{Key: "lock.timeout", Value: values[top], Origin: Origin{Layer: top}}
			switch top {
			case Env:
				want.Origin.File = "MEMDIR_LOCK_TIMEOUT"
			case Flag:
			default:
				want.Origin.File, want.Origin.Line = f.file(top), 2
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Lookup(lock.timeout) mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEnvNames(t *testing.T) {
	tests := []struct{ env, key, value, want string }{
		{"MEMDIR_MODE", "mode", "LOG", "log"},
		{"MEMDIR_DIR", "dir", "mem", "mem"},
		{"MEMDIR_GIT", "git", "yes", "true"},
		{"MEMDIR_GIT_AUTOCOMMIT", "git.autocommit", "1", "true"},
		{"MEMDIR_AGENT", "context.agent", "claude", "claude"},
		{"MEMDIR_CONTEXT_AGENT_ID", "context.agent_id", "bot", "bot"},
		{"MEMDIR_DREAM_MIN_HOURS", "dream.min_hours", "2.5", "2.5"},
		{"MEMDIR_DREAM_SCHEDULE", "dream.schedule", "@daily", "@daily"},
		{"MEMDIR_DREAM_DISTILLER", "dream.distiller", "llm --json", "llm --json"},
		{"MEMDIR_CONTEXT_ALLOW_OUTSIDE_IMPORTS", "context.allow_outside_imports", "true", "true"},
	}
	for _, tc := range tests {
		t.Run(tc.env, func(t *testing.T) {
			f := newFixture(t)
			f.env[tc.env] = tc.value
			f.env["MEMDIR_NOW"] = "not a setting"
			f.env["MEMDIR_DISABLE_WATCH"] = "1"
			got, _ := f.load(t).Lookup(tc.key)
			want := Value{Key: tc.key, Value: tc.want, Origin: Origin{Layer: Env, File: tc.env}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLocked(t *testing.T) {
	f := newFixture(t)
	managed := f.write(t, Managed, "mode: log\nlocked:\n  - mode\n  - git\n")
	project := f.write(t, Project, "mode: live\ngit: true\ndream.min_hours: 3\n")
	f.env["MEMDIR_MODE"] = "live"
	f.env["MEMDIR_GIT"] = "true"
	f.flags = map[string]string{"mode": "live"}
	s := f.load(t)

	got := []Value{}
	for _, k := range []string{"mode", "git", "dream.min_hours"} {
		v, _ := s.Lookup(k)
		got = append(got, v)
	}
	want := []Value{
		{Key: "mode", Value: "log", Origin: Origin{Layer: Managed, File: managed, Line: 1, Locked: true}},
		{Key: "git", Value: "false", Origin: Origin{Layer: Default, Locked: true}},
		{Key: "dream.min_hours", Value: "3", Origin: Origin{Layer: Project, File: project, Line: 3}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("values mismatch (-want +got):\n%s", diff)
	}
	if !s.Locked("mode") || s.Locked("dream.min_hours") {
		t.Errorf("Locked(mode), Locked(dream.min_hours) = %v, %v; want true, false", s.Locked("mode"), s.Locked("dream.min_hours"))
	}
	msg := func(key string) string {
		return key + " is locked by the managed settings (" + managed + "); value ignored"
	}
	wantW := []Warning{
		{File: project, Line: 2, Message: msg("git")},
		{File: project, Line: 1, Message: msg("mode")},
		{File: "MEMDIR_GIT", Message: msg("git")},
		{File: "MEMDIR_MODE", Message: msg("mode")},
		{File: "flag", Message: msg("mode")},
	}
	if diff := cmp.Diff(wantW, s.Warnings()); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
}

func TestWarnings(t *testing.T) {
	f := newFixture(t)
	managed := f.write(t, Managed, "locked: [mode, nope]\n")
	project := f.write(t, Project, "foo: 1\ndream:\n  bogus: x\nlocked: [git]\n? [a]\n: b\n")
	s := f.load(t)
	known := " (known: " + strings.Join(keyNames(), ", ") + ")"
	want := []Warning{
		{File: managed, Line: 1, Message: `locked: unknown setting "nope"` + known},
		{File: project, Line: 1, Message: `unknown setting "foo"` + known},
		{File: project, Line: 3, Message: `unknown setting "dream.bogus"` + known},
		{File: project, Line: 4, Message: "locked is honoured only in the managed settings file; ignored"},
		{File: project, Line: 5, Message: "ignored a key that is not a plain name"},
	}
	if diff := cmp.Diff(want, s.Warnings()); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
	if s.Locked("git") {
		t.Error("Locked(git) = true from a project file, want false")
	}
}

func TestNestedAndDotted(t *testing.T) {
	tests := []struct {
		name, content string
		want          map[string]string
		wantLine      map[string]int
	}{
		{"nested", "dream:\n  schedule: '@hourly'\n  min_hours: 2\ngit:\n  autocommit: true\n",
			map[string]string{"dream.schedule": "@hourly", "dream.min_hours": "2", "git.autocommit": "true", "git": "false"},
			map[string]int{"dream.schedule": 2, "dream.min_hours": 3, "git.autocommit": 5}},
		{"dotted", "dream.schedule: '@hourly'\ndream.min_hours: 2\ngit: on\ngit.autocommit: true\n",
			map[string]string{"dream.schedule": "@hourly", "dream.min_hours": "2", "git.autocommit": "true", "git": "true"},
			map[string]int{"dream.schedule": 1, "dream.min_hours": 2, "git": 3, "git.autocommit": 4}},
		{"flow and later wins", "context: {agent: claude, agent_id: x}\ncontext.agent_id: y\n",
			map[string]string{"context.agent": "claude", "context.agent_id": "y"},
			map[string]int{"context.agent": 1, "context.agent_id": 2}},
		{"alias", "base: &b {agent: codex}\ncontext: *b\n",
			map[string]string{"context.agent": "codex"},
			map[string]int{"context.agent": 1}},
		{"null leaves unset", "mode:\n", map[string]string{"mode": "live"}, map[string]int{"mode": 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.write(t, Project, tc.content)
			s := f.load(t)
			for key, want := range tc.want {
				v, _ := s.Lookup(key)
				if v.Value != want || v.Origin.Line != tc.wantLine[key] {
					t.Errorf("%s = %q line %d, want %q line %d", key, v.Value, v.Origin.Line, want, tc.wantLine[key])
				}
			}
		})
	}
}

func TestInvalid(t *testing.T) {
	tests := []struct {
		name, content string
		env, flags    map[string]string
		want          string
	}{
		{name: "enum", content: "# c\nmode: fast\n",
			want: `PROJECT:2: mode: invalid value "fast" (allowed: live, log)`},
		{name: "bool", content: "git:\n  autocommit: maybe\n",
			want: `PROJECT:2: git.autocommit: invalid value "maybe" (allowed: true, false)`},
		{name: "negative number", content: "dream.min_hours: -1\n",
			want: `PROJECT:1: dream.min_hours: invalid value "-1" (allowed: a number >= 0)`},
		{name: "duration", content: "lock:\n  timeout: 10\n",
			want: `PROJECT:2: lock.timeout: invalid value "10" (allowed: a Go duration >= 0 such as 10s or 1m30s)`},
		{name: "schedule never fires", content: "dream.schedule: 0 0 30 2 *\n",
			want: `PROJECT:1: dream.schedule: invalid value "0 0 30 2 *" (allowed: a cron schedule such as "0 3 * * *" or @daily, or empty)`},
		{name: "schedule panics cron", content: "dream.schedule: TZ=0\n",
			want: `PROJECT:1: dream.schedule: invalid value "TZ=0" (allowed: a cron schedule such as "0 3 * * *" or @daily, or empty)`},
		{name: "list", content: "mode: [live]\n",
			want: `PROJECT:1: mode: expected a single value, not a list (allowed: live, log)`},
		{name: "profiles not mapping", content: "profiles: 3\n",
			want: `PROJECT:1: profiles: expected a mapping (allowed: a mapping of profile names)`},
		{name: "env", env: map[string]string{"MEMDIR_MODE": "fast"},
			want: `MEMDIR_MODE: mode: invalid value "fast" (allowed: live, log)`},
		{name: "flag", flags: map[string]string{"mode": "fast"},
			want: `mode: invalid value "fast" (allowed: live, log)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			path := f.write(t, Project, tc.content)
			for k, v := range tc.env {
				f.env[k] = v
			}
			f.flags = tc.flags
			_, err := Load(f.options())
			var ie *InvalidError
			if !errors.As(err, &ie) {
				t.Fatalf("Load error = %v, want *InvalidError", err)
			}
			if got, want := err.Error(), strings.ReplaceAll(tc.want, "PROJECT", path); got != want {
				t.Errorf("error = %s\nwant    %s", got, want)
			}
		})
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, content, want string
		line                int
	}{
		{"unclosed flow", "a: 1\nmode: [\n", "did not find expected node content", 2},
		{"not a mapping", "# c\n- mode\n", "settings file must be a mapping of keys to values", 2},
		{"tab indent", "dream:\n\tschedule: x\n", "found character that cannot start any token", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			path := f.write(t, Local, tc.content)
			_, err := Load(f.options())
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Load error = %v, want *SyntaxError", err)
			}
			if se.File != path || se.Line != tc.line || !strings.Contains(se.Message, tc.want) {
				t.Errorf("error = %v, want %s:%d with %q", err, path, tc.line, tc.want)
			}
		})
	}
}

func TestUnknownFlag(t *testing.T) {
	f := newFixture(t)
	f.flags = map[string]string{"colour": "red"}
	_, err := Load(f.options())
	if !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("Load error = %v, want ErrUnknownKey", err)
	}
}
