package index

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestCheck(t *testing.T) {
	long := "- [L](user_l.md) — " + strings.Repeat("é", 140)
	tests := []struct {
		name string
		data string
		disk Disk
		want []Problem
	}{
		{
			name: "clean",
			data: "# Memory\n\n<!-- kept -->\n- [A](user_a.md) — h\n---\n",
			disk: Disk{Topics: []string{"user_a.md"}},
		},
		{
			name: "dangling",
			data: "- [A](user_a.md)\n- [Gone](user_gone.md)\n",
			disk: Disk{Topics: []string{"user_a.md"}},
			want: []Problem{{Kind: KindDangling, Level: LevelError, Source: IndexName, Line: 2, File: "user_gone.md"}},
		},
		{
			name: "orphan",
			data: "- [A](user_a.md)\n",
			disk: Disk{Topics: []string{"user_a.md", "user_b.md", "MEMORY.md"}},
			want: []Problem{{Kind: KindOrphan, Level: LevelWarning, File: "user_b.md"}},
		},
		{
			name: "duplicate",
			data: "- [A](user_a.md)\n- [B](user_b.md)\n- [A2](user_a.md)\n- [A3](user_a.md)\n",
			disk: Disk{Topics: []string{"user_a.md", "user_b.md"}},
			want: []Problem{
				{Kind: KindDuplicate, Level: LevelError, Source: IndexName, Line: 3, File: "user_a.md"},
				{Kind: KindDuplicate, Level: LevelError, Source: IndexName, Line: 4, File: "user_a.md"},
			},
		},
		{
			name: "long line counts runes",
			data: "- [S](user_s.md) — " + strings.Repeat("é", 100) + "\n" + long + "\n",
			disk: Disk{Topics: []string{"user_l.md", "user_s.md"}},
			want: []Problem{{Kind: KindLongLine, Level: LevelWarning, Source: IndexName, Line: 2}},
		},
		{
			name: "not entry runs",
			data: "# M\nnote one\nnote two\n\n- [A](user_a.md)\n- [Docs](https://x.com)\n```\ncode\n```\n",
			disk: Disk{Topics: []string{"user_a.md"}},
			want: []Problem{
				{Kind: KindNotEntry, Level: LevelNote, Source: IndexName, Line: 2},
				{Kind: KindNotEntry, Level: LevelNote, Source: IndexName, Line: 6},
				{Kind: KindNotEntry, Level: LevelNote, Source: IndexName, Line: 7},
			},
		},
		{
			name: "over cap",
			data: string(indexOf(testMetas(201, 5))),
			disk: Disk{Topics: filesOf(testMetas(201, 5))},
			want: []Problem{{Kind: KindOverCap, Level: LevelError, Source: IndexName}},
		},
		{
			name: "overflow files",
			data: "- [A](user_a.md)\n- [More project memories](MEMORY-project.md) — 2 more\n- [More user memories](MEMORY-user.md)\n",
			disk: Disk{
				Topics: []string{"user_a.md", "project_p.md", "project_q.md", "project_r.md"},
				Overflow: map[string][]byte{
					"MEMORY-project.md":   []byte("# More project memories\n\n- [P](project_p.md)\n- [Q](project_q.md)\n- [X](project_x.md)\n"),
					"MEMORY-reference.md": []byte("# More reference memories\n"),
				},
			},
			want: []Problem{
				{Kind: KindDangling, Level: LevelError, Source: IndexName, Line: 3, File: "MEMORY-user.md"},
				{Kind: KindDangling, Level: LevelError, Source: "MEMORY-project.md", Line: 5, File: "project_x.md"},
				{Kind: KindOrphan, Level: LevelWarning, File: "MEMORY-reference.md"},
				{Kind: KindOrphan, Level: LevelWarning, File: "project_r.md"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Check([]byte(tc.data), tc.disk, DefaultCaps)
			for _, p := range got {
				if p.Message == "" {
					t.Errorf("%s problem without a message", p.Kind)
				}
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.IgnoreFields(Problem{}, "Message"), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Check mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func filesOf(metas []Meta) []string {
	out := make([]string, len(metas))
	for i, m := range metas {
		out[i] = m.Entry.File
	}
	return out
}
