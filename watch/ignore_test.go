package watch

import "testing"

func TestIgnored(t *testing.T) {
	tests := []struct {
		rel  string
		want bool
	}{
		{"feedback_testing.md", false},
		{"logs/2026/11/2026-11-22.md", false},
		{"archive/project_old.md", false},
		{"MEMORY.md", false}, // ignored as the watcher's own file, not as noise
		{".memdir/lock", true},
		{".memdir", true},
		{".git/index", true},
		{"logs/.git/x", true},
		{".consolidate-lock", true},
		{".feedback_testing.md.swp", true},
		{"feedback_testing.md.swp", true},
		{"feedback_testing.md.swx", true},
		{"feedback_testing.md~", true},
		{"4913", true},
		{"logs/4913", true},
		{".#feedback_testing.md", true},
		{"#feedback_testing.md#", true},
		{"#", false},
		{".memdir-tmp-MEMORY.md-123456", true},
		{"feedback_testing.md___jb_tmp___", true},
	}
	for _, tc := range tests {
		if got := Ignored(tc.rel); got != tc.want {
			t.Errorf("Ignored(%q) = %v, want %v", tc.rel, got, tc.want)
		}
	}
}

func TestOwnFile(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"MEMORY.md", true},
		{"MEMORY-project.md", true},
		{"MEMORY-other.md", false},
		{"feedback_testing.md", false},
	}
	for _, tc := range tests {
		if got := ownFile(tc.name); got != tc.want {
			t.Errorf("ownFile(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
