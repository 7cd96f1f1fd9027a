package mcpserver

import "testing"

func TestFileURIPath(t *testing.T) {
	for _, tc := range []struct {
		uri, want string
		ok        bool
	}{
		{"file:///home/u/app", "/home/u/app", true},
		{"file://localhost/home/u/my%20app/", "/home/u/my app", true},
		{"file:///a/b/../c", "/a/c", true},
		{"file://server/share", "", false},
		{"https://example.com/x", "", false},
		{"file:relative", "", false},
		{"file://", "", false},
		{"%zz", "", false},
	} {
		got, ok := fileURIPath(tc.uri)
		if got != tc.want || ok != tc.ok {
			t.Errorf("fileURIPath(%q) = %q, %v; want %q, %v", tc.uri, got, ok, tc.want, tc.ok)
		}
	}
}

func TestTopicFile(t *testing.T) {
	for _, tc := range []struct {
		uri, want string
	}{
		{"memdir://topic/feedback_testing_policy.md", "feedback_testing_policy.md"},
		{"memdir://topic/MEMORY-project.md", "MEMORY-project.md"},
		{"memdir://topic/my%20notes.md", "my notes.md"},
		{"memdir://topic/MEMORY.md", ""},
		{"memdir://topic/..%2F..%2Fetc%2Fpasswd.md", ""},
		{"memdir://topic/a/b.md", ""},
		{"memdir://topic/.hidden.md", ""},
		{"memdir://topic/notes.txt", ""},
		{"memdir://topic/", ""},
		{"memdir://index", ""},
	} {
		got, ok := topicFile(tc.uri)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("topicFile(%q) = %q, %v; want %q", tc.uri, got, ok, tc.want)
		}
	}
}
