package settings

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSet(t *testing.T) {
	tests := []struct {
		name, before, key, value, want string
	}{
		{"new file nests", "", "dream.schedule", "@daily",
			"dream:\n  schedule: '@daily'\n"},
		{"new top-level key", "", "mode", "LOG", "mode: log\n"},
		{"update nested keeps comments and order",
			"# my settings\nmode: live # why\ndream:\n  # nightly\n  schedule: \"0 3 * * *\" # keep\n  min_hours: 1\ngit: true\n",
			"dream.schedule", "@hourly",
			"# my settings\nmode: live # why\ndream:\n  # nightly\n  schedule: \"@hourly\" # keep\n  min_hours: 1\ngit: true\n"},
		{"update dotted in place", "mode: live\ndream.min_hours: 1 # hours\n", "dream.min_hours", "2.5",
			"mode: live\ndream.min_hours: 2.5 # hours\n"},
		{"add into existing group", "dream:\n  schedule: '@daily'\nmode: log\n", "dream.min_hours", "4",
			"dream:\n  schedule: '@daily'\n  min_hours: 4\nmode: log\n"},
		{"group written dotted stays dotted", "dream.schedule: '@daily'\n", "dream.min_hours", "4",
			"dream.schedule: '@daily'\ndream.min_hours: 4\n"},
		{"scalar group goes dotted", "git: true\n", "git.autocommit", "yes",
			"git: true\ngit.autocommit: true\n"},
		{"bool written plain", "git: \"false\"\n", "git", "on", "git: true\n"},
		{"string that looks like a bool is quoted", "", "context.agent_id", "true",
			"context:\n  agent_id: \"true\"\n"},
		{"every occurrence updated", "mode: live\nmode: log\n", "mode", "log", "mode: log\nmode: log\n"},
		{"comment-only file kept", "# nothing yet\n", "mode", "log", "# nothing yet\nmode: log\n"},
		{"null document", "---\n", "mode", "log", "mode: log\n"},
		{"unknown keys kept", "colour: red\n", "git", "false", "colour: red\ngit: false\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sub", "config.yaml")
			if tc.before != "" {
				writeFile(t, path, tc.before)
			}
			if err := Set(path, tc.key, tc.value); err != nil {
				t.Fatalf("Set: %v", err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("file after Set:\n%s\nwant:\n%s", got, tc.want)
			}
			d, err := parseFile(Project, path, got)
			if err != nil {
				t.Fatalf("parse after Set: %v", err)
			}
			want, _ := normalize(tc.key, tc.value)
			if e := d.values[tc.key]; e.value != want {
				t.Errorf("reloaded %s = %q, want %q", tc.key, e.value, want)
			}
		})
	}
}

func TestSetErrors(t *testing.T) {
	tests := []struct {
		name, before, key, value string
		check                    func(error) bool
	}{
		{"unknown key", "", "colour", "red", func(err error) bool { return errors.Is(err, ErrUnknownKey) }},
		{"invalid value", "", "mode", "fast", func(err error) bool {
			var ie *InvalidError
			return errors.As(err, &ie) && ie.Key == "mode"
		}},
		{"structured", "", ProfilesKey, "x", func(err error) bool { return errors.Is(err, ErrStructured) }},
		{"not a mapping", "- a\n", "mode", "log", func(err error) bool {
			var se *SyntaxError
			return errors.As(err, &se) && se.Line == 1
		}},
		{"bad yaml", "mode: [\n", "mode", "log", func(err error) bool {
			var se *SyntaxError
			return errors.As(err, &se)
		}},
		{"nested group under a bool key", "git:\n  autocommit: true\n", "git", "true", func(err error) bool { return err != nil }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.yaml")
			if tc.before != "" {
				writeFile(t, path, tc.before)
			}
			err := Set(path, tc.key, tc.value)
			if !tc.check(err) {
				t.Fatalf("Set error = %v, not the expected kind", err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tc.before {
				t.Errorf("file changed to %q after a failed Set, want %q", got, tc.before)
			}
		})
	}
}

func TestSetThenLoad(t *testing.T) {
	f := newFixture(t)
	local := f.file(Local)
	if err := Set(local, "mode", "log"); err != nil {
		t.Fatal(err)
	}
	v, _ := f.load(t).Lookup("mode")
	if v.Value != "log" || v.Origin != (Origin{Layer: Local, File: local, Line: 1}) {
		t.Errorf("mode after Set = %+v, want log from %s:1", v, local)
	}
}

func TestCheckScope(t *testing.T) {
	tests := []struct {
		layer   Layer
		key     string
		wantErr bool
	}{
		{User, "mode", false},
		{Project, "home", false},
		{Local, "home", false},
		{User, "home", true},
		{Managed, "mode", true},
		{Env, "mode", true},
		{Project, "colour", true},
	}
	for _, tc := range tests {
		t.Run(tc.layer.String()+"/"+tc.key, func(t *testing.T) {
			if err := CheckScope(tc.layer, tc.key); (err != nil) != tc.wantErr {
				t.Errorf("CheckScope(%s, %s) = %v, want error %v", tc.layer, tc.key, err, tc.wantErr)
			}
		})
	}
}

// A flow map with a bare key ({allow_outside_imports}, a null) once came
// back from set as an empty string, which no longer loaded (a FuzzSet find).
func TestSetKeepsFlowNullsLoadable(t *testing.T) {
	data := []byte("context: {allow_outside_imports}\n")
	if _, err := parseFile(Project, "f.yaml", data); err != nil {
		t.Fatalf("parse: %v", err)
	}
	for _, k := range registry {
		if k.Kind == KindStructured {
			continue
		}
		out, err := setBytes("f.yaml", data, k.Key, k.Default)
		if err != nil {
			continue
		}
		if _, err := parseFile(Project, "f.yaml", out); err != nil {
			t.Errorf("%s: %v\n%s", k.Key, err, out)
		}
	}
}
