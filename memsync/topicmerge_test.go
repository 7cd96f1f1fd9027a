package memsync

import (
	"strings"
	"testing"
)

func topicText(modified, body string) string {
	return "---\nname: Use pnpm\ndescription: Package manager\ntype: feedback\ncreated: 2026-11-01T10:00:00Z\nmodified: " + modified + "\n---\n\n" + body
}

func TestMergeTopic(t *testing.T) {
	base := topicText("2026-11-01T10:00:00Z", "- Use pnpm.\n- Lockfile committed.\n")
	for _, tc := range []struct {
		name                string
		base, local, remote string
		want                string
		clean               bool
	}{{
		name:   "both append a list item",
		base:   base,
		local:  topicText("2026-11-02T10:00:00Z", "- Use pnpm.\n- Lockfile committed.\n- Local fact.\n"),
		remote: topicText("2026-11-03T10:00:00Z", "- Use pnpm.\n- Lockfile committed.\n- Remote fact.\n"),
		want:   topicText("2026-11-03T10:00:00Z", "- Use pnpm.\n- Lockfile committed.\n- Local fact.\n- Remote fact.\n"),
		clean:  true,
	}, {
		name:   "the order does not depend on the side",
		base:   base,
		local:  topicText("2026-11-03T10:00:00Z", "- Use pnpm.\n- Lockfile committed.\n- Remote fact.\n"),
		remote: topicText("2026-11-02T10:00:00Z", "- Use pnpm.\n- Lockfile committed.\n- Local fact.\n"),
		want:   topicText("2026-11-03T10:00:00Z", "- Use pnpm.\n- Lockfile committed.\n- Local fact.\n- Remote fact.\n"),
		clean:  true,
	}, {
		name:   "both created the same memory",
		base:   "",
		local:  topicText("2026-11-02T10:00:00Z", "Use pnpm.\n"),
		remote: topicText("2026-11-03T10:00:00Z", "Use pnpm.\n"),
		want:   topicText("2026-11-03T10:00:00Z", "Use pnpm.\n"),
		clean:  true,
	}, {
		name:   "paragraphs added at one place",
		base:   base,
		local:  topicText("2026-11-02T10:00:00Z", "- Use pnpm.\n- Lockfile committed.\n\nWhy: speed.\n"),
		remote: topicText("2026-11-02T10:00:00Z", "- Use pnpm.\n- Lockfile committed.\n\nHow: corepack.\n"),
		want:   topicText("2026-11-02T10:00:00Z", "- Use pnpm.\n- Lockfile committed.\n\nHow: corepack.\n\nWhy: speed.\n"),
		clean:  true,
	}, {
		name:   "adjacent lines changed on each side",
		base:   base,
		local:  topicText("2026-11-02T10:00:00Z", "- Use pnpm 9.\n- Lockfile committed.\n"),
		remote: topicText("2026-11-02T10:00:00Z", "- Use pnpm.\n- Lockfile committed to git.\n"),
		want:   topicText("2026-11-02T10:00:00Z", "- Use pnpm 9.\n- Lockfile committed to git.\n"),
		clean:  true,
	}, {
		name:   "one fact changed two ways",
		base:   base,
		local:  topicText("2026-11-02T10:00:00Z", "- Use pnpm 9.\n- Lockfile committed.\n"),
		remote: topicText("2026-11-02T10:00:00Z", "- Use yarn.\n- Lockfile committed.\n"),
		clean:  false,
	}, {
		name:   "one key changed two ways",
		base:   base,
		local:  strings.Replace(base, "Package manager", "Tooling", 1),
		remote: strings.Replace(base, "Package manager", "Node tooling", 1),
		clean:  false,
	}, {
		name:   "an edit and a removal of one line",
		base:   base,
		local:  topicText("2026-11-02T10:00:00Z", "- Use pnpm 9.\n- Lockfile committed.\n"),
		remote: topicText("2026-11-02T10:00:00Z", "- Lockfile committed.\n"),
		clean:  false,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, clean := mergeTopic([]byte(tc.base), []byte(tc.local), []byte(tc.remote))
			if clean != tc.clean || clean && string(got) != tc.want {
				t.Errorf("mergeTopic = %v\n%s\nwant %v\n%s", clean, got, tc.clean, tc.want)
			}
		})
	}
}

// FuzzMergeTopic checks, against an oracle that needs no diff, that two
// sides that only append lines to a body merge cleanly, lose none of
// them (blanks around a line aside), and give one text whichever side
// merges.
func FuzzMergeTopic(f *testing.F) {
	f.Add("- a\n- b\n", "- c\n", "- d\n")
	f.Add("", "x\n", "x\n")
	f.Add("a\n\nb\n", "\nc\n", "\nd\ne\n")
	f.Add("---\n", "---\n", "- ---\n")
	f.Fuzz(func(t *testing.T, base, addL, addR string) {
		if strings.ContainsAny(base+addL+addR, "\r") || base != "" && !strings.HasSuffix(base, "\n") {
			return
		}
		b := topicText("2026-11-01T10:00:00Z", base)
		l := topicText("2026-11-02T10:00:00Z", base+addL)
		r := topicText("2026-11-03T10:00:00Z", base+addR)
		got, clean := mergeTopic([]byte(b), []byte(l), []byte(r))
		swapped, clean2 := mergeTopic([]byte(b), []byte(r), []byte(l))
		if !clean || !clean2 {
			t.Fatalf("two appends did not merge")
		}
		if string(got) != string(swapped) {
			t.Fatalf("the merge depends on the side:\n%s\n---\n%s", got, swapped)
		}
		for _, add := range []string{addL, addR} {
			for _, line := range strings.Split(add, "\n") {
				// A line both added once: blanks around it aside.
				if tl := strings.TrimSpace(line); tl != "" && !strings.Contains(string(got), tl) {
					t.Fatalf("line %q lost:\n%s", line, got)
				}
			}
		}
	})
}

// TestMergeIndexProse: the lines a person wrote in the remote's index
// (headings, notes) survive beside the local's, in their place; a note
// the local side removed stays removed.
func TestMergeIndexProse(t *testing.T) {
	base := "# Memory\n\n- [A](user_a.md) — a\nOld note.\n"
	local := "# Memory\n\n- [A](user_a.md) — a\n- [B](user_b.md) — b\n"
	remote := "# Memory\n\n- [A](user_a.md) — a\nOld note.\nRemember: ask before deploying.\n\n## Team\n- [C](user_c.md) — c\n"
	got := string(mergeIndex([]byte(base), []byte(local), []byte(remote)))
	want := "# Memory\n\n- [A](user_a.md) — a\n- [B](user_b.md) — b\nRemember: ask before deploying.\n## Team\n- [C](user_c.md) — c\n"
	if got != want {
		t.Errorf("mergeIndex =\n%s\nwant\n%s", got, want)
	}
}
