package doctor

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestProgramCheck(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "memdir")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	found := func(string) (string, error) { return "/usr/local/bin/memdir", nil }
	missing := func(string) (string, error) { return "", errors.New("not found") }
	for _, tc := range []struct {
		name    string
		user    bool // the files are the user's (the program is a path)
		program string
		look    func(string) (string, error)
		want    Status
	}{
		{"on PATH", false, "memdir", found, OK},
		{"not on PATH", false, "memdir", missing, Fail},
		{"user files name this binary", true, exe, missing, OK},
		{"user files name a binary that is gone", true, filepath.Join(dir, "gone", "memdir"), found, Fail},
		{"user files name a directory", true, dir, found, Fail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := programCheck(Options{Self: exe, LookPath: tc.look}, "claude", tc.program)
			if c.Status != tc.want || c.Status == Fail && c.Fix != "memdir setup claude --command "+exe {
				t.Errorf("programCheck = %+v, want %s with the fix naming %s", c, tc.want, exe)
			}
		})
	}
}

func TestGeminiTrust(t *testing.T) {
	for _, tc := range []struct {
		name, folders string
		want          Status
	}{
		{"none", ``, Fail},
		{"the folder", `{"/src/app": "TRUST_FOLDER"}`, OK},
		{"an ancestor", `{"/src": "TRUST_FOLDER"}`, OK},
		{"the parent of a sibling", `{"/src/other": "TRUST_PARENT"}`, OK},
		{"not trusted", `{"/src/app": "DO_NOT_TRUST"}`, Fail},
		{"a name that only starts alike", `{"/src/ap": "TRUST_FOLDER"}`, Fail},
		{"a folder inside", `{"/src/app/sub": "TRUST_FOLDER"}`, Fail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "trustedFolders.json")
			if err := os.WriteFile(path, []byte(tc.folders), 0o644); err != nil {
				t.Fatal(err)
			}
			env := func(k string) string {
				if k == "GEMINI_CLI_TRUSTED_FOLDERS_PATH" {
					return path
				}
				return ""
			}
			if c := geminiTrust(Options{Root: "/src/app", Getenv: env}); c.Status != tc.want {
				t.Errorf("geminiTrust = %+v, want %s", c, tc.want)
			}
		})
	}
}

func TestFindSchedule(t *testing.T) {
	home := t.TempDir()
	for _, tc := range []struct {
		name, crontab string
		unit          bool
		want          bool
	}{
		{"nothing", "", false, false},
		{"cron dream", "0 3 * * * /usr/local/bin/memdir dream --all\n", false, true},
		{"commented out", "# 0 3 * * * memdir dream\n", false, false},
		{"another memdir command", "0 3 * * * memdir lint\n", false, false},
		{"systemd unit", "", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			unit := filepath.Join(home, ".config", "systemd", "user", "memdir-dream.timer")
			os.RemoveAll(filepath.Dir(unit))
			if tc.unit {
				if err := os.MkdirAll(filepath.Dir(unit), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(unit, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if _, ok := FindSchedule(home, func() string { return tc.crontab }); ok != tc.want {
				t.Errorf("FindSchedule = %v, want %v", ok, tc.want)
			}
		})
	}
}
