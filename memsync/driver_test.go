package memsync

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/memdir"
)

const driverTopic = "---\nname: Policy\ndescription: A policy\ntype: feedback\n---\n\n"

func TestMergeFile(t *testing.T) {
	base := driverTopic + "one\ntwo\nthree\n"
	for _, tc := range []struct {
		name, file, base, ours, theirs string
		want                           string
		clean                          bool
		conflict                       bool
	}{
		{name: "index union by entry", file: "MEMORY.md",
			base:   "- [A](feedback_a.md) — a\n",
			ours:   "- [A](feedback_a.md) — a\n- [B](feedback_b.md) — b\n",
			theirs: "- [A](feedback_a.md) — a\n- [C](feedback_c.md) — c\n",
			want:   "- [A](feedback_a.md) — a\n- [B](feedback_b.md) — b\n- [C](feedback_c.md) — c\n", clean: true},
		{name: "overflow index removal", file: "MEMORY-project.md",
			base:   "- [A](project_a.md) — a\n- [B](project_b.md) — b\n",
			ours:   "- [A](project_a.md) — a\n- [B](project_b.md) — b\n",
			theirs: "- [B](project_b.md) — b\n",
			want:   "- [B](project_b.md) — b\n", clean: true},
		{name: "topic clean text merge", file: "feedback_policy.md", base: base,
			ours:   driverTopic + "ONE\ntwo\nthree\n",
			theirs: driverTopic + "one\ntwo\nTHREE\n",
			want:   driverTopic + "ONE\ntwo\nTHREE\n", clean: true},
		{name: "topic conflict keeps ours and a copy", file: "feedback_policy.md", base: base,
			ours:   driverTopic + "one\nours\nthree\n",
			theirs: driverTopic + "one\ntheirs\nthree\n",
			want:   driverTopic + "one\nours\nthree\n", clean: true, conflict: true},
		{name: "a file memdir does not own gets markers", file: ".draft.md", base: "a\n",
			ours: "b\n", theirs: "c\n", want: "<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n"},
		{name: "a file memdir does not own is never clean", file: "README.md", base: "a\nx\nb\n",
			ours: "A\nx\nb\n", theirs: "a\nx\nB\n", want: "A\nx\nB\n"},
		{name: "theirs brings a credential: ours kept", file: "feedback_policy.md", base: base,
			ours:   driverTopic + "one\ntwo\nthree\n",
			theirs: driverTopic + "one\ntwo\nthree\nghp_0123456789abcdefghijABCDEFGHIJ0123456789\n",
			want:   driverTopic + "one\ntwo\nthree\n"},
		{name: "ours holds one credential, theirs brings another: ours kept", file: "feedback_policy.md",
			base:   base + "AKIAZ7QW4RTY2UIO3PLK\n",
			ours:   driverTopic + "one\ntwo\nthree\nAKIAZ7QW4RTY2UIO3PLK\n",
			theirs: driverTopic + "one\ntwo\nthree\nAKIAZ7QW4RTY2UIO3PLK\nghp_0123456789abcdefghijABCDEFGHIJ0123456789\n",
			want:   driverTopic + "one\ntwo\nthree\nAKIAZ7QW4RTY2UIO3PLK\n"},
		{name: "a credential ours already holds does not hold a merge", file: "feedback_policy.md",
			base:   base + "AKIAZ7QW4RTY2UIO3PLK\n",
			ours:   driverTopic + "ONE\ntwo\nthree\nAKIAZ7QW4RTY2UIO3PLK\n",
			theirs: driverTopic + "one\ntwo\nTHREE\nAKIAZ7QW4RTY2UIO3PLK\n",
			want:   driverTopic + "ONE\ntwo\nTHREE\nAKIAZ7QW4RTY2UIO3PLK\n", clean: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := MergeFile(context.Background(), tc.file, []byte(tc.base), []byte(tc.ours), []byte(tc.theirs))
			if err != nil {
				t.Fatal(err)
			}
			if string(got.Merged) != tc.want || got.Clean != tc.clean {
				t.Errorf("merged (clean %v) =\n%s\nwant (clean %v)\n%s", got.Clean, got.Merged, tc.clean, tc.want)
			}
			if tc.conflict != (got.Conflict != "") {
				t.Fatalf("conflict copy = %q, want one: %v", got.Conflict, tc.conflict)
			}
			if tc.conflict {
				if want := conflictName(tc.file, blobID([]byte(tc.theirs))); got.Conflict != want || string(got.ConflictData) != tc.theirs {
					t.Errorf("conflict copy %s = %q, want %s = %q", got.Conflict, got.ConflictData, want, tc.theirs)
				}
			}
		})
	}
}

// TestRegisterDriver: memory committed with the project gets the
// attributes and the driver in the project's config; memory outside the
// project's work tree gets neither.
func TestRegisterDriver(t *testing.T) {
	root := t.TempDir()
	run(t, root, "git", "init", "-q")
	mem := filepath.Join(root, ".memdir")
	outside := filepath.Join(t.TempDir(), "memory")
	for _, d := range []string{mem, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(mem, AttributesFile), []byte("*.png binary\n/*.md merge=memdir\n/MEMORY.md  merge=memdir"), 0o644); err != nil {
		t.Fatal(err)
	}
	config, err := RegisterDriver(context.Background(), mem, root)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, ".git", "config"); config != want {
		t.Errorf("config = %q, want %q", config, want)
	}
	if got := strings.TrimSpace(run(t, root, "git", "config", "merge.memdir.driver")); got != DriverCommand {
		t.Errorf("merge.memdir.driver = %q, want %q", got, DriverCommand)
	}
	data, _ := os.ReadFile(filepath.Join(mem, AttributesFile))
	want := "*.png binary\n/MEMORY.md  merge=memdir\n/MEMORY-*.md merge=memdir\n/user_*.md merge=memdir\n/feedback_*.md merge=memdir\n/project_*.md merge=memdir\n/reference_*.md merge=memdir\n/logs/** merge=union\n"
	if string(data) != want {
		t.Errorf(".gitattributes =\n%s\nwant\n%s", data, want)
	}
	for path, want := range map[string]string{
		".memdir/feedback_x.md":              "merge: memdir",
		".memdir/MEMORY.md":                  "merge: memdir",
		".memdir/README.md":                  "merge: unspecified",
		".memdir/notes.md":                   "merge: unspecified",
		".memdir/logs/2026/11/2026-11-22.md": "merge: union",
		".memdir/archive/project_old.md":     "merge: unspecified",
		"feedback_outside_the_memory_dir.md": "merge: unspecified",
	} {
		if out := run(t, root, "git", "check-attr", "merge", "--", path); !strings.Contains(out, want) {
			t.Errorf("git check-attr %s = %q, want %s", path, out, want)
		}
	}
	for name, dir := range map[string]string{"outside any work tree": outside, "in another work tree": mem} {
		config, err := RegisterDriver(context.Background(), dir, filepath.Join(root, "elsewhere"))
		if err != nil || config != "" {
			t.Errorf("%s: config %q, err %v; want nothing registered", name, config, err)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, AttributesFile)); err == nil {
		t.Error("a .gitattributes was written outside the project")
	}
}

// FuzzWriteAttributes: whatever .gitattributes holds, every line of it
// stays, every driver line is there after, and a second write changes
// nothing.
func FuzzWriteAttributes(f *testing.F) {
	f.Add("")
	f.Add("*.png binary\n")
	f.Add("MEMORY.md merge=memdir\n*.md\tmerge=memdir")
	f.Add("\n\n# comment\r\n")
	f.Fuzz(func(t *testing.T, old string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, AttributesFile), []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := writeAttributes(dir); err != nil {
			t.Fatal(err)
		}
		first, _ := os.ReadFile(filepath.Join(dir, AttributesFile))
		if !strings.HasPrefix(string(first), old) {
			t.Fatalf("the old content %q is not kept at the start of %q", old, first)
		}
		lines := map[string]bool{}
		for _, l := range strings.Split(string(first), "\n") {
			lines[strings.Join(strings.Fields(l), " ")] = true
		}
		for _, l := range attributes {
			if !lines[l] {
				t.Errorf("%q lacks %q", first, l)
			}
		}
		if err := writeAttributes(dir); err != nil {
			t.Fatal(err)
		}
		if second, _ := os.ReadFile(filepath.Join(dir, AttributesFile)); string(second) != string(first) {
			t.Errorf("a second write changed %q to %q", first, second)
		}
	})
}

// TestUnpaired: the driver keeps apart two memories git's rename
// detection paired, and merges every version of one memory as one.
func TestUnpaired(t *testing.T) {
	topic := func(name, desc, created, body string) []byte {
		return []byte("---\nname: " + name + "\ndescription: " + desc + "\ntype: reference\ncreated: " + created + "\n---\n\n" + body + "\n")
	}
	const t1, t2 = "2026-11-20T10:00:00Z", "2026-11-22T10:00:00Z"
	start := topic("Team start", "Where team memory starts", t1, "Team memory starts here.")
	edited := topic("Team start", "Where team memory starts", t1, "Team memory starts here.\nEdit by alice.")
	bob := topic("Bob fact", "A fact from bob", t2, "Fact from bob.")
	renamed := topic("Team beginning", "Where team memory starts", t1, "Team memory starts here.")
	for _, tc := range []struct {
		name                string
		file                string
		base, ours, theirs  []byte
		wantHere            []byte // nil: merged as one memory
		wantRestore         string
		wantRestoreFromOurs bool
	}{
		{name: "one memory edited on both sides", file: "reference_team_start.md", base: start, ours: edited, theirs: start},
		{name: "a rename on one side, an edit on the other", file: "reference_team_beginning.md", base: start, ours: renamed, theirs: edited},
		{name: "a rename of a topic with no created stamp (an agent wrote it)", file: "reference_team_beginning.md",
			base:   []byte("---\nname: Team start\ndescription: Where team memory starts\ntype: reference\n---\n\nStarts here.\n"),
			ours:   []byte("---\nname: Team beginning\ndescription: Where team memory starts\ntype: reference\n---\n\nStarts here.\n"),
			theirs: []byte("---\nname: Team start\ndescription: Where team memory starts\ntype: reference\n---\n\nStarts here.\nEdit.\n")},
		{name: "ours removed it and added another", file: "reference_bob_fact.md", base: start, ours: bob, theirs: edited,
			wantHere: bob, wantRestore: "reference_team_start.md"},
		{name: "theirs removed it and added another", file: "reference_bob_fact.md", base: start, ours: edited, theirs: bob,
			wantHere: bob, wantRestore: "reference_team_start.md", wantRestoreFromOurs: true},
		{name: "both sides replaced it (git leaves that to the person)", file: "reference_team_start.md", base: start, ours: bob,
			theirs: topic("Alice fact", "A fact from alice", t2, "Fact from alice.")},
		{name: "a side that does not parse", file: "reference_bob_fact.md", base: start, ours: []byte("no frontmatter\n"), theirs: edited},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := unpaired(tc.file, tc.base, tc.ours, tc.theirs)
			if tc.wantHere == nil {
				if got != nil {
					t.Fatalf("unpaired = restore %s, want the versions merged as one memory", got.Restore)
				}
				return
			}
			if got == nil {
				t.Fatal("unpaired = nil, want the two memories kept apart")
			}
			want := tc.theirs
			if tc.wantRestoreFromOurs {
				want = tc.ours
			}
			if string(got.Merged) != string(tc.wantHere) || got.Restore != tc.wantRestore || string(got.RestoreData) != string(want) {
				t.Errorf("unpaired = here %q, restore %s %q; want here %q, restore %s %q", got.Merged, got.Restore, got.RestoreData, tc.wantHere, tc.wantRestore, want)
			}
		})
	}
}

// FuzzUnpaired: whatever three versions git hands the driver, unpaired
// never fails, and when it keeps two memories apart it loses neither:
// the file keeps one side whole, the other side is written back whole,
// under a topic file name of its own that is no path.
func FuzzUnpaired(f *testing.F) {
	t1 := "---\nname: Team start\ndescription: Where it starts\ntype: reference\ncreated: 2026-11-20T10:00:00Z\n---\n\nBody.\n"
	t2 := "---\nname: Bob fact\ndescription: A fact\ntype: reference\ncreated: 2026-11-22T10:00:00Z\n---\n\nFact.\n"
	f.Add("reference_bob_fact.md", t1, t2, t1+"Edit.\n")
	f.Add("reference_bob_fact.md", t1, t1+"Edit.\n", t2)
	f.Add("reference_team_start.md", t1, t1, t1)
	f.Add("x.md", "", "---\nname: ../../x\ntype: user\n---\n", t2)
	f.Fuzz(func(t *testing.T, name, base, ours, theirs string) {
		r := unpaired(name, []byte(base), []byte(ours), []byte(theirs))
		if r == nil {
			return
		}
		here, back := string(r.Merged), string(r.RestoreData)
		if !(here == ours && back == theirs || here == theirs && back == ours) {
			t.Fatalf("unpaired kept %q and wrote back %q; want ours and theirs, one each", here, back)
		}
		if r.Restore == name || !memdir.IsTopicFile(r.Restore) || strings.ContainsAny(r.Restore, `/\`) || !r.Clean {
			t.Fatalf("unpaired writes back %q beside %q", r.Restore, name)
		}
	})
}
