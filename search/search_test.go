package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

var testNow = time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)

// topicFile is a topic file's content.
func topicFile(typ, name, desc, body string, extra ...string) string {
	fm := fmt.Sprintf("---\nname: %s\ndescription: %s\ntype: %s\ncreated: 2026-11-01T10:00:00Z\nmodified: 2026-11-01T10:00:00Z\n", name, desc, typ)
	for _, e := range extra {
		fm += e + "\n"
	}
	return fm + "---\n\n" + body + "\n"
}

// newDir makes a memory directory holding files (name -> content).
func newDir(t *testing.T, files map[string]string) *memdir.Dir {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		writeFile(t, filepath.Join(dir, name), content)
	}
	d := memdir.Open(dir, memdir.Live)
	d = d.With(memdir.WithClock(func() time.Time { return testNow }))
	return d
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// files runs a query and returns the hits' files in order.
func files(t *testing.T, ix *Index, q Query) []string {
	t.Helper()
	q.NoRecall = true
	hits, err := ix.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("Search(%q): %v", q.Text, err)
	}
	out := []string{}
	for _, h := range hits {
		f := h.File
		if h.Kind == kindLog {
			f += fmt.Sprintf("#%d", h.Entry)
		}
		out = append(out, f)
	}
	return out
}

var corpus = map[string]string{
	"feedback_testing_policy.md": topicFile("feedback", "Testing policy", "Integration tests hit a real database, never mocks",
		"Integration tests must run against a real database.\n\n**Why:** a mocked suite passed while the production migration failed."),
	"project_billing_owner.md": topicFile("project", "Billing service owner", "Priya Natarajan owns the billing service",
		"Priya owns billing; escalate invoices to her. Configuring the payment retries lives in MAX_RETRIES."),
	"reference_grafana.md": topicFile("reference", "Latency dashboard", "Grafana board for api-latency",
		"The api-latency panel is at grafana.example.com/d/api.", "tags: [dashboards, observability]"),
	"user_role.md": topicFile("user", "Role", "Senior Go engineer from Zürich",
		"Jürgen Müller is a senior Go engineer, new to the React side."),
	"project_kafka_topics.md": topicFile("project", "Kafka topic naming", "How Kafka topics are named",
		"Topics are named <team>.<domain>.<event>, lowercase, with snake_case events."),
	"project_old_freeze.md": topicFile("project", "Release freeze", "Merge freeze for the mobile cut",
		"The merge freeze begins Thursday.", "expires: 2026-01-01"),
	"user_health.md": topicFile("user", "Health", "A medical appointment every Tuesday",
		"Appointment every Tuesday at the clinic.", "private: true"),
}

func TestSearch(t *testing.T) {
	ix := Open(newDir(t, corpus))
	tests := []struct {
		name string
		q    Query
		want []string
	}{
		{"word", Query{Text: "database"}, []string{"feedback_testing_policy.md"}},
		{"stemming", Query{Text: "configuration"}, []string{"project_billing_owner.md"}},
		{"question", Query{Text: "who owns billing"}, []string{"project_billing_owner.md"}},
		{"natural", Query{Text: "how do we name kafka topics"}, []string{"project_kafka_topics.md"}},
		{"diacritics", Query{Text: "Muller"}, []string{"user_role.md"}},
		{"diacritics in query", Query{Text: "zurich"}, []string{"user_role.md"}},
		{"identifier whole", Query{Text: "MAX_RETRIES"}, []string{"project_billing_owner.md"}},
		{"identifier part", Query{Text: "retries"}, []string{"project_billing_owner.md"}},
		{"identifier dash", Query{Text: "api-latency"}, []string{"reference_grafana.md"}},
		{"identifier spaced", Query{Text: "api latency"}, []string{"reference_grafana.md"}},
		{"snake part", Query{Text: "snake"}, []string{"project_kafka_topics.md"}},
		{"phrase", Query{Text: `"real database"`}, []string{"feedback_testing_policy.md"}},
		{"phrase no match", Query{Text: `"database real"`}, []string{}},
		{"prefix", Query{Text: "integr*"}, []string{"feedback_testing_policy.md"}},
		{"or", Query{Text: "kafka OR grafana"}, []string{"project_kafka_topics.md", "reference_grafana.md"}},
		{"not", Query{Text: "senior NOT react"}, []string{}},
		{"not keeps others", Query{Text: "freeze OR database NOT mocks"}, []string{"project_old_freeze.md"}},
		{"fallback to any", Query{Text: "database zebra"}, []string{"feedback_testing_policy.md"}},
		{"type filter", Query{Text: "engineer OR billing", Types: []typesx.Type{typesx.User}}, []string{"user_role.md"}},
		{"tag filter", Query{Text: "latency", Tags: []string{"Observability"}}, []string{"reference_grafana.md"}},
		{"tag filter excludes", Query{Text: "billing", Tags: []string{"observability"}}, []string{}},
		{"private hidden", Query{Text: "appointment"}, []string{}},
		{"private included", Query{Text: "appointment", IncludePrivate: true}, []string{"user_health.md"}},
		{"since", Query{Text: "database", Since: "2026-11-02"}, []string{}},
		{"until", Query{Text: "database", Until: "2026-11-01"}, []string{"feedback_testing_policy.md"}},
		{"limit", Query{Text: "database OR billing OR engineer", Limit: 1}, nil},
		{"stop words only", Query{Text: "the"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := files(t, ix, tc.q)
			if tc.want == nil { // only the count is known
				if want := max(tc.q.Limit, 1); len(got) != want && (tc.q.Limit > 0 || len(got) == 0) {
					t.Errorf("Search(%q) = %v, want %d hits", tc.q.Text, got, want)
				}
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Search(%q) files (-want +got):\n%s", tc.q.Text, diff)
			}
		})
	}
}

func TestSearchSnippetAndHit(t *testing.T) {
	ix := Open(newDir(t, corpus))
	hits, err := ix.Search(context.Background(), Query{Text: "mocked migration", NoRecall: true})
	if err != nil || len(hits) != 1 {
		t.Fatalf("Search: %v %v", hits, err)
	}
	h := hits[0]
	if h.Name != "Testing policy" || h.Type != typesx.Feedback || h.Kind != "topic" || h.Description == "" {
		t.Errorf("hit = %+v", h)
	}
	if !strings.Contains(h.Snippet, "**mocked**") || !strings.Contains(h.Snippet, "**migration**") {
		t.Errorf("snippet %q does not mark the matches", h.Snippet)
	}
	if !h.Modified.Equal(time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("modified = %v", h.Modified)
	}
}

// A topic file that is a symlink out of the memory directory is never
// read: its text is not searchable and never shows in a snippet.
func TestSearchNeverFollowsLinksOut(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.md")
	writeFile(t, outside, topicFile("project", "Leak", "Outside text", "zebracorn outside the memory directory"))
	d := newDir(t, map[string]string{"project_inside.md": topicFile("project", "Inside", "Inside", "zebracorn inside")})
	if err := os.Symlink(outside, filepath.Join(d.Path, "project_leak.md")); err != nil {
		t.Skip(err)
	}
	got := files(t, Open(d), Query{Text: "zebracorn"})
	if diff := cmp.Diff([]string{"project_inside.md"}, got); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
}

// A damaged index (garbage, truncated, from another format) is rebuilt
// silently by the next search, which finds what the files say.
func TestDamagedIndexRebuilt(t *testing.T) {
	d := newDir(t, corpus)
	ix := Open(d)
	files(t, ix, Query{Text: "database"})
	base := filepath.Join(d.Path, filepath.FromSlash(StateDir), baseFile)
	good, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 0xff
	for name, data := range map[string][]byte{
		"garbage":   []byte("not an index at all"),
		"truncated": good[:len(good)/2],
		"flipped":   flipped,
		"empty":     nil,
		"version":   append([]byte(magic+"\x63\x00\x00\x00"), good[len(magic)+4:]...),
	} {
		t.Run(name, func(t *testing.T) {
			writeFile(t, base, string(data))
			got := files(t, Open(d), Query{Text: "database"})
			if diff := cmp.Diff([]string{"feedback_testing_policy.md"}, got); diff != "" {
				t.Errorf("hits (-want +got):\n%s", diff)
			}
			if s := Open(d).load(baseFile); s == nil {
				t.Errorf("the damaged index was not replaced by a good one")
			}
		})
	}
}
