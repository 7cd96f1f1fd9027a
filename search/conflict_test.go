package search

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConflictCopiesLeftOut: a sync's conflict copy of a topic is neither
// searched nor listed (for stats), by a one-shot search, a live one or a
// topics table, also
// when the copy appears after the index was built.
func TestConflictCopiesLeftOut(t *testing.T) {
	topic := topicFile("project", "Kafka topic naming", "How topics are named", "Topics use zebraword names.")
	copyOf := topicFile("project", "Kafka topic naming", "How topics were named", "Topics use zebraword names, the other way.")
	d := newDir(t, map[string]string{
		"project_kafka_topic_naming.md":                  topic,
		"project_kafka_topic_naming.conflict-0a1b2c3.md": copyOf,
		// Not a conflict copy (no 7 hex digits): an ordinary topic.
		"project_zebra.conflict-notes.md": topicFile("project", "Zebra", "zebraword", "zebraword"),
	})
	want := []string{"project_zebra.conflict-notes.md", "project_kafka_topic_naming.md"} // the name is the query: first
	ix := Open(d)
	if diff := cmp.Diff(want, files(t, ix, Query{Text: "zebraword"})); diff != "" {
		t.Errorf("search (-want +got):\n%s", diff)
	}
	// A copy written after the index: still left out.
	writeFile(t, filepath.Join(d.Path, "project_kafka_topic_naming.conflict-ffffff0.md"), copyOf)
	if diff := cmp.Diff(want, files(t, ix, Query{Text: "zebraword"})); diff != "" {
		t.Errorf("search after a new copy (-want +got):\n%s", diff)
	}
	live := OpenLive(d)
	defer live.Close()
	hits, err := live.Search(context.Background(), Query{Text: "zebraword", NoRecall: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 {
		t.Errorf("live search: %d hits, want 2: %+v", len(hits), hits)
	}
	topics, _, err := ix.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(topics) != 2 {
		t.Errorf("List: %d topics, want 2", len(topics))
	}
	tp := OpenTopics(d)
	defer tp.Close()
	if topics, _, err = tp.List(); err != nil {
		t.Fatal(err)
	}
	if len(topics) != 2 {
		t.Errorf("topics table: %d topics, want 2", len(topics))
	}
}
