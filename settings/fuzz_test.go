package settings

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

var fuzzSeeds = []string{
	"",
	"# only a comment\n",
	"mode: log\n",
	"dream:\n  schedule: '@daily'\n  min_hours: 2\n",
	"dream.schedule: 0 3 * * *\ngit: true\ngit.autocommit: yes\n",
	"context: {agent: claude, agent_id: bot, allow_outside_imports: false}\n",
	"locked: [mode, dir]\nmode: live\n",
	"profiles:\n  mine: {file: AGENTS.md}\n",
	"base: &b {agent: x}\ncontext: *b\n",
	"mode: [\n",
	"- a\n- b\n",
	"? [a]\n: b\n",
	"mode:\n",
	"lock.timeout: -1s\n",
	"---\nmode: log\n---\nmode: live\n",
	"home: ~/x\ndir: ../mem\n",
	"capture: {team_types: [project, *a]}\nteam: {dir: .memdir/team, remote: x}\n",
	"capture.team_types: [[user], {a: b}]\n",
}

// FuzzParseFile loads arbitrary bytes as a settings file: it must never
// panic, and whatever it accepts must be valid.
func FuzzParseFile(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := parseFile(Managed, "f.yaml", data)
		if err != nil {
			var ie *InvalidError
			var se *SyntaxError
			if !errors.As(err, &ie) && !errors.As(err, &se) {
				t.Fatalf("error %v is neither *InvalidError nor *SyntaxError", err)
			}
			return
		}
		for key, e := range d.values {
			if err := Validate(key, e.value); err != nil {
				t.Errorf("accepted %s = %q, which does not validate: %v", key, e.value, err)
			}
		}
	})
}

// FuzzSet edits arbitrary settings files: Set must never panic, and when
// both the file and the edit are accepted, the edited file must load with
// the new value.
func FuzzSet(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add([]byte(s), uint8(i), "log")
	}
	f.Fuzz(func(t *testing.T, data []byte, ki uint8, value string) {
		k := registry[int(ki)%len(registry)]
		if k.Kind == KindStructured {
			return
		}
		v, err := normalize(k.Key, value)
		if err != nil {
			v = k.Default
		}
		if _, err := parseFile(Project, "f.yaml", data); err != nil {
			return
		}
		out, err := setBytes("f.yaml", data, k.Key, v)
		if err != nil {
			return
		}
		d, err := parseFile(Project, "f.yaml", out)
		if err != nil {
			t.Fatalf("edited file does not load: %v\nbefore:\n%s\nafter:\n%s", err, data, out)
		}
		if got := d.values[k.Key].value; got != v {
			t.Fatalf("%s after Set = %q, want %q\nbefore:\n%s\nafter:\n%s", k.Key, got, v, data, out)
		}
	})
}

func BenchmarkLoadNoFiles(b *testing.B) {
	dir := b.TempDir()
	opts := Options{
		Root:     filepath.Join(dir, "proj"),
		Getenv:   func(k string) string { return map[string]string{ManagedPathEnv: filepath.Join(dir, "none.yaml")}[k] },
		UserHome: dir,
	}
	for b.Loop() {
		if _, err := Load(opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadFourFiles(b *testing.B) {
	dir := b.TempDir()
	root := filepath.Join(dir, "proj")
	files := map[string]string{
		filepath.Join(dir, "managed.yaml"):      "locked: [git]\ngit: false\n",
		filepath.Join(dir, ".memdir", UserFile): "mode: log\ndream:\n  schedule: '@daily'\n",
		filepath.Join(root, ProjectFile):        "dir: memory\ncontext:\n  agent: claude\n",
		filepath.Join(root, LocalFile):          "lock.timeout: 30s\n",
	}
	for path, content := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	env := map[string]string{ManagedPathEnv: filepath.Join(dir, "managed.yaml")}
	opts := Options{Root: root, Getenv: func(k string) string { return env[k] }, UserHome: dir}
	for b.Loop() {
		if _, err := Load(opts); err != nil {
			b.Fatal(err)
		}
	}
}
