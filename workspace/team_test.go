package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveTeamDir(t *testing.T) {
	work := t.TempDir()
	root := filepath.Join(work, "proj")
	outside := filepath.Join(work, "outside")
	for _, d := range []string{root, outside, filepath.Join(root, "docs", "memory"), filepath.Join(root, "linked")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"out":            outside,                          // absolute, out
		"rel-out":        "../outside",                     // relative, out
		"inside":         "docs/memory",                    // relative, stays inside
		"linked/up":      "../../outside",                  // nested, out
		"abs-inside":     filepath.Join(root, "docs"),      // absolute, back inside: os.Root never follows it
		"file":           "",                               // a regular file, not a link
		"docs/memory/in": filepath.Join(root, "docs", "x"), // dangling absolute
	}
	for name, target := range links {
		p := filepath.Join(root, name)
		var err error
		if target == "" {
			err = os.WriteFile(p, []byte("x"), 0o644)
		} else {
			err = os.Symlink(target, p)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	realRoot, _ := filepath.EvalSymlinks(root)
	for _, tc := range []struct {
		rel, want, refused string
	}{
		{".memdir/team", filepath.Join(realRoot, ".memdir", "team"), ""},
		{"team/", filepath.Join(realRoot, "team"), ""},
		{"inside", filepath.Join(realRoot, "docs", "memory"), ""},
		{"inside/team", filepath.Join(realRoot, "docs", "memory", "team"), ""},
		{"", "", "is not a path inside the project"},
		{"..", "", "is not a path inside the project"},
		{"../outside", "", "is not a path inside the project"},
		{"a/../../outside", "", "is not a path inside the project"},
		{outside, "", "is not a path inside the project"},
		{"out", "", "through the symbolic link out"},
		{"out/team", "", "through the symbolic link out"},
		{"rel-out/team", "", "through the symbolic link rel-out"},
		{"linked/up", "", "through the symbolic link linked/up"},
		{"abs-inside", "", "through the symbolic link abs-inside"},
		{"file", "", "is not a directory"},
		{"inside/in", "", "through the symbolic link inside/in"},
	} {
		t.Run(tc.rel, func(t *testing.T) {
			got, err := resolveTeamDir(root, tc.rel)
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refused) || !isUsage(err) {
					t.Fatalf("resolveTeamDir(%q) = %q, %v; want a usage error with %q", tc.rel, got, err, tc.refused)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("resolveTeamDir(%q) = %q, %v; want %q", tc.rel, got, err, tc.want)
			}
		})
	}
}

// isUsage reports whether err is the user's mistake (exit 2).
func isUsage(err error) bool {
	var ue interface{ UserError() }
	return errors.As(err, &ue)
}
