package memsync

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSameRemote(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	bare := filepath.Join(base, "mem.git")
	if err := os.MkdirAll(bare, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bare, filepath.Join(base, "link.git")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{bare, "file://" + filepath.Join(base, "mem"), true},
		{bare, filepath.Join(base, "mem"), true},
		{"file://" + bare, bare + "/", true},
		{bare, filepath.Join(base, "link"), true},
		{bare, filepath.Join(base, "other.git"), false},
		{"git@github.com:me/memory.git", "https://github.com/me/memory", true},
		{"git@github.com:Me/Memory.git", "https://www.github.com/me/memory", true},
		{"git@github.com:me/memory.git", "ssh://git@GitHub.com:22/me/memory.git/", true},
		{"git@github.com:me/memory.git", "https://github.com/me/memory-team", false},
		{"git@github.com:me/memory.git", "git@gitlab.com:me/memory.git", false},
		{"https://example.com:8443/me/memory", "https://example.com/me/memory", false},
	} {
		if got := SameRemote(tc.a, tc.b); got != tc.same {
			t.Errorf("SameRemote(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
		if got := SameRemote(tc.b, tc.a); got != tc.same {
			t.Errorf("SameRemote(%q, %q) = %v, want %v", tc.b, tc.a, got, tc.same)
		}
	}
}
