package search

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConflictCopiesLeftOut: a sync's conflict copy of a topic is neither
// searched nor counted, by a one-shot search, a live one or stats, also
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
	st, err := ix.Stats(context.Background(), StatsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Topics != 2 || st.ByType["project"] != 2 {
		t.Errorf("stats: %d topics, %d project; want 2 and 2", st.Topics, st.ByType["project"])
	}
	tp := OpenTopics(d)
	defer tp.Close()
	st, err = tp.Stats(context.Background(), StatsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Topics != 2 {
		t.Errorf("topics table stats: %d topics, want 2", st.Topics)
	}
}
