package viewer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConflictCopy: a conflict copy is shown as a conflict on its topic,
// never as a memory: not among the stream's changes nor the search
// results, listed under conflicts, its page naming its topic and the
// command that resolves it, and its topic's page pointing at it.
func TestConflictCopy(t *testing.T) {
	f := start(t)
	const topic, copy = "feedback_testing_policy.md", "feedback_testing_policy.conflict-0a1b2c3.md"
	now := time.Now().UTC().Format(time.RFC3339)
	src := "---\nname: Their testing policy\ndescription: the other side\ntype: feedback\ncreated: " + now + "\nmodified: " + now +
		"\n---\n\nIntegration tests use the quokka fixture.\n"
	if err := os.WriteFile(filepath.Join(f.dir.Path, copy), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	resolve := "memdir resolve " + topic + " --keep mine|theirs|both"

	_, stream := f.get(t, "/p/p1/stream")
	if !strings.Contains(stream, "Conflicts (1)") || !strings.Contains(stream, resolve) {
		t.Errorf("stream does not list the conflict with its command")
	}
	if strings.Contains(stream, "Their testing policy") {
		t.Errorf("stream lists the conflict copy as a memory")
	}
	if _, page := f.get(t, "/p/p1/search?q=quokka"); strings.Contains(page, copy) {
		t.Errorf("search lists the conflict copy as a memory")
	}
	code, page := f.get(t, "/p/p1/topic/"+copy)
	for _, want := range []string{"Conflict on", `href="/p/p1/topic/` + topic + `"`, resolve, "quokka fixture"} {
		if code != 200 || !strings.Contains(page, want) {
			t.Errorf("conflict page %d: no %q", code, want)
		}
	}
	if strings.Contains(page, `id="edit"`) {
		t.Errorf("conflict page offers to edit the copy as a topic")
	}
	if _, page := f.get(t, "/p/p1/topic/"+topic); !strings.Contains(page, `href="/p/p1/topic/`+copy+`"`) || !strings.Contains(page, resolve) {
		t.Errorf("the topic's page does not point at its conflict")
	}
}
