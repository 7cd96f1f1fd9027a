package memdir

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// topicText is a hand-written topic file, as an agent writes one directly.
func topicText(name, desc, typ string, extra ...string) string {
	s := "---\nname: " + name + "\ndescription: " + desc + "\ntype: " + typ + "\n"
	for _, e := range extra {
		s += e + "\n"
	}
	return s + "---\n\nBody of " + name + ".\n"
}

const twoLines = "# Memory\n\n- [Role](user_role.md) — Senior Go engineer\n- [Testing policy](feedback_testing.md) — Real database\n"

func TestReconcile(t *testing.T) {
	secret := "ghp_" + "1234567890abcdefghijABCDEFGHIJ123456"
	tests := []struct {
		name     string
		index    string
		files    map[string]string // written before; "" removes
		req      ReconcileRequest
		want     string // MEMORY.md after
		wantRes  ReconcileResult
		problems []string // kinds of problems, by file
	}{{
		name:  "new file gets a line in its group",
		index: twoLines,
		files: map[string]string{"feedback_style.md": topicText("Style", "Short functions", "feedback")},
		req:   ReconcileRequest{Files: []string{"feedback_style.md"}},
		want:  twoLines + "- [Style](feedback_style.md) — Short functions\n",
		wantRes: ReconcileResult{Added: []string{"feedback_style.md"},
			Paths: []string{"MEMORY.md", "feedback_style.md"}},
	}, {
		name:    "edited description updates the hook",
		index:   twoLines,
		files:   map[string]string{"user_role.md": topicText("Role", "Staff engineer", "user")},
		req:     ReconcileRequest{Files: []string{"user_role.md"}},
		want:    "# Memory\n\n- [Role](user_role.md) — Staff engineer\n- [Testing policy](feedback_testing.md) — Real database\n",
		wantRes: ReconcileResult{Updated: []string{"user_role.md"}, Paths: []string{"MEMORY.md", "user_role.md"}},
	}, {
		name:  "a conflict copy gets no line",
		index: twoLines,
		files: map[string]string{"user_role.conflict-0a1b2c3.md": topicText("Role", "Staff engineer", "user")},
		req:   ReconcileRequest{Files: []string{"user_role.conflict-0a1b2c3.md"}},
		want:  twoLines,
	}, {
		name:  "rename keeps the line in place",
		index: twoLines,
		files: map[string]string{"user_role.md": "", "user_job.md": topicText("Role", "Senior Go engineer", "user")},
		req:   ReconcileRequest{Files: []string{"user_role.md", "user_job.md"}},
		want:  "# Memory\n\n- [Role](user_job.md) — Senior Go engineer\n- [Testing policy](feedback_testing.md) — Real database\n",
		wantRes: ReconcileResult{Renamed: []Rename{{From: "user_role.md", To: "user_job.md"}},
			Paths: []string{"MEMORY.md", "user_job.md", "user_role.md"}},
	}, {
		name:    "delete drops the line",
		index:   twoLines,
		files:   map[string]string{"user_role.md": ""},
		req:     ReconcileRequest{Files: []string{"user_role.md"}},
		want:    "# Memory\n\n- [Testing policy](feedback_testing.md) — Real database\n",
		wantRes: ReconcileResult{Removed: []string{"user_role.md"}, Paths: []string{"MEMORY.md", "user_role.md"}},
	}, {
		name:     "broken frontmatter is reported and its line kept",
		index:    twoLines,
		files:    map[string]string{"user_role.md": "---\nname: Role\ndescription: [unclosed\n---\n"},
		req:      ReconcileRequest{Files: []string{"user_role.md"}},
		want:     twoLines,
		problems: []string{"user_role.md frontmatter"},
	}, {
		name:     "a secret keeps a file out of the index and the commit",
		index:    twoLines,
		files:    map[string]string{"reference_ci.md": topicText("CI", "token "+secret, "reference")},
		req:      ReconcileRequest{Files: []string{"reference_ci.md"}},
		want:     twoLines,
		problems: []string{"reference_ci.md secret"},
	}, {
		name:    "private topic leaves the index",
		index:   twoLines,
		files:   map[string]string{"user_role.md": topicText("Role", "Senior Go engineer", "user", "private: true")},
		req:     ReconcileRequest{Files: []string{"user_role.md"}},
		want:    "# Memory\n\n- [Testing policy](feedback_testing.md) — Real database\n",
		wantRes: ReconcileResult{Removed: []string{"user_role.md"}, Paths: []string{"MEMORY.md", "user_role.md"}},
	}, {
		name:  "only the named files are looked at",
		index: twoLines,
		files: map[string]string{"user_role.md": "", "user_other.md": topicText("Other", "Unnamed", "user")},
		req:   ReconcileRequest{Files: []string{"feedback_testing.md"}, Touched: []string{"logs/2026/11/2026-11-22.md"}},
		want:  twoLines,
		// The named file is unchanged but passed on, with the touched path.
		wantRes: ReconcileResult{Paths: []string{"feedback_testing.md", "logs/2026/11/2026-11-22.md"}},
	}, {
		name:  "full scan adds, updates and drops",
		index: twoLines + "- [Elsewhere](../notes.md) — not a topic\n",
		files: map[string]string{"user_role.md": "", "project_freeze.md": topicText("Freeze", "Merge freeze Thursday", "project"),
			"feedback_testing.md": topicText("Testing policy", "Real database, never mocks", "feedback")},
		req: ReconcileRequest{All: true},
		want: "# Memory\n\n- [Testing policy](feedback_testing.md) — Real database, never mocks\n" +
			"- [Freeze](project_freeze.md) — Merge freeze Thursday\n- [Elsewhere](../notes.md) — not a topic\n",
		wantRes: ReconcileResult{Added: []string{"project_freeze.md"}, Updated: []string{"feedback_testing.md"}, Removed: []string{"user_role.md"},
			Paths: []string{"MEMORY.md", "feedback_testing.md", "project_freeze.md", "user_role.md"}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var changes []Change
			d := Open(t.TempDir(), Live, WithCommitter(CommitFunc(func(c Change) error { changes = append(changes, c); return nil })))
			reconWrite(t, d, IndexFile, tc.index)
			reconWrite(t, d, "user_role.md", topicText("Role", "Senior Go engineer", "user"))
			reconWrite(t, d, "feedback_testing.md", topicText("Testing policy", "Real database", "feedback"))
			before := map[string]string{}
			for f, text := range tc.files {
				if text == "" {
					if err := os.Remove(filepath.Join(d.Path, f)); err != nil {
						t.Fatal(err)
					}
					continue
				}
				reconWrite(t, d, f, text)
				before[f] = text
			}
			res, err := d.ReconcileWith(tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if got := reconRead(t, d, IndexFile); got != tc.want {
				t.Errorf("MEMORY.md:\n%s\nwant:\n%s", got, tc.want)
			}
			var kinds []string
			for _, p := range res.Problems {
				kinds = append(kinds, p.File+" "+p.Kind)
			}
			if diff := cmp.Diff(tc.problems, kinds); diff != "" {
				t.Errorf("problems (-want +got):\n%s\n%v", diff, res.Problems)
			}
			res.Problems = nil
			if diff := cmp.Diff(tc.wantRes, res, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			for f, text := range before {
				if got := reconRead(t, d, f); got != text {
					t.Errorf("%s was rewritten:\n%s", f, got)
				}
			}
			wantChanges := 0
			if len(tc.wantRes.Paths) > 0 {
				wantChanges = 1
			}
			if len(changes) != wantChanges {
				t.Fatalf("committer called %d times, want %d: %v", len(changes), wantChanges, changes)
			}
			if wantChanges == 1 && !cmp.Equal(changes[0].Paths, tc.wantRes.Paths) {
				t.Errorf("change paths %v, want %v", changes[0].Paths, tc.wantRes.Paths)
			}
		})
	}
}

func TestReconcileOverflow(t *testing.T) {
	d := Open(t.TempDir(), Live)
	reconWrite(t, d, IndexFile, "- [More project memories](MEMORY-project.md) — 1 more project topics\n")
	reconWrite(t, d, "MEMORY-project.md", "# More project memories\n\n- [Freeze](project_freeze.md) — Old hook\n")
	reconWrite(t, d, "project_freeze.md", topicText("Freeze", "New hook", "project"))
	res, err := d.Reconcile()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"project_freeze.md"}, res.Updated); diff != "" {
		t.Errorf("updated (-want +got):\n%s", diff)
	}
	if got, want := reconRead(t, d, "MEMORY-project.md"), "# More project memories\n\n- [Freeze](project_freeze.md) — New hook\n"; got != want {
		t.Errorf("overflow index:\n%s\nwant:\n%s", got, want)
	}
	if got, want := reconRead(t, d, IndexFile), "- [More project memories](MEMORY-project.md) — 1 more project topics\n"; got != want {
		t.Errorf("MEMORY.md:\n%s\nwant:\n%s", got, want)
	}
}

func TestReconcileSummary(t *testing.T) {
	tests := []struct {
		res  ReconcileResult
		want string
	}{
		{ReconcileResult{}, "index unchanged"},
		{ReconcileResult{Added: []string{"a", "b"}, Removed: []string{"c"}}, "2 added, 1 removed"},
		{ReconcileResult{Renamed: []Rename{{"a", "b"}}, Updated: []string{"x"}}, "1 updated, 1 renamed"},
	}
	for _, tc := range tests {
		if got := tc.res.Summary(); got != tc.want {
			t.Errorf("Summary(%+v) = %q, want %q", tc.res, got, tc.want)
		}
	}
}

func reconWrite(t *testing.T, d *Dir, file, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(d.Path, file), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func reconRead(t *testing.T, d *Dir, file string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(d.Path, file))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// BenchmarkReconcileOneFile is the watcher's work after one topic file
// changed in a directory of 10,000: re-read it, fix its line, write the
// index.
func BenchmarkReconcileOneFile(b *testing.B) {
	d := Open(b.TempDir(), Live)
	var index []byte
	for i := range 10000 {
		f := "project_topic_" + strconv.Itoa(i) + ".md"
		if err := os.WriteFile(filepath.Join(d.Path, f), []byte(topicText("Topic "+strconv.Itoa(i), "Hook", "project")), 0o644); err != nil {
			b.Fatal(err)
		}
		index = append(index, "- [Topic "+strconv.Itoa(i)+"]("+f+") — Hook\n"...)
	}
	if err := os.WriteFile(filepath.Join(d.Path, IndexFile), index, 0o644); err != nil {
		b.Fatal(err)
	}
	req := ReconcileRequest{Files: []string{"project_topic_5000.md"}, What: "watch"}
	for i := 0; b.Loop(); i++ {
		text := topicText("Topic 5000", "Hook "+strconv.Itoa(i), "project")
		if err := os.WriteFile(filepath.Join(d.Path, "project_topic_5000.md"), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		if res, err := d.ReconcileWith(req); err != nil || len(res.Updated) != 1 {
			b.Fatalf("reconcile: %v, %+v", err, res)
		}
	}
}

// A topic whose description is longer than an index line holds keeps its
// line when renamed by hand: the line's hook is the description cut as
// the index cuts it.
func TestReconcileRenameLongDescription(t *testing.T) {
	d := Open(t.TempDir(), Live)
	long := strings.Repeat("The deploy pipeline needs the VPN profile and a fresh token from the vault ", 3)
	reconWrite(t, d, "project_deploys.md", topicText("Deploys", long, "project"))
	if _, err := d.ReconcileWith(ReconcileRequest{Files: []string{"project_deploys.md"}}); err != nil {
		t.Fatal(err)
	}
	before := reconRead(t, d, IndexFile)
	if strings.Contains(before, long) {
		t.Fatalf("the index line was not cut:\n%s", before)
	}
	if err := os.Remove(filepath.Join(d.Path, "project_deploys.md")); err != nil {
		t.Fatal(err)
	}
	reconWrite(t, d, "project_shipping.md", topicText("Shipping", long, "project"))
	res, err := d.ReconcileWith(ReconcileRequest{Files: []string{"project_deploys.md", "project_shipping.md"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Rename{{From: "project_deploys.md", To: "project_shipping.md"}}
	if !cmp.Equal(res.Renamed, want) || len(res.Added) > 0 || len(res.Removed) > 0 {
		t.Errorf("renamed %v, added %v, removed %v; want only %v", res.Renamed, res.Added, res.Removed, want)
	}
}
