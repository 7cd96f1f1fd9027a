package sessionctx

import (
	"strings"
	"testing"

	"github.com/memdir/memdir/index"
)

func TestTeamMemory(t *testing.T) {
	team := &TeamMemory{Dir: "/p/.memdir/team", Rel: ".memdir/team", Index: []byte("- [Deploy](reference_deploy.md) — make deploy\n"), Caps: index.DefaultCaps}
	own := &Memory{Dir: "/m", Mode: "live", Index: []byte("- [Mine](user_mine.md) — mine\n"), Caps: index.DefaultCaps}
	heading := "Team memory (shared with everyone who works in this project; committed at .memdir/team)"
	for _, tc := range []struct {
		name   string
		text   func(Options) string
		team   *TeamMemory
		want   []string // in this order
		absent []string
	}{
		{"tagged", func(o Options) string { return Build(o).Text() }, team,
			[]string{"<auto-memory", "- [Mine]", `<team-memory path="/p/.memdir/team" scope="team">`, "# " + heading, "- [Deploy]"}, nil},
		{"claude native", func(o Options) string { s, _ := Native("claude", o); return s }, team,
			[]string{"Contents of /m/MEMORY.md", "- [Mine]", "Contents of /p/.memdir/team/MEMORY.md (" + heading + "):", "- [Deploy]"}, nil},
		{"codex native", func(o Options) string { s, _ := Native("codex", o); return s }, team,
			[]string{"- [Mine]", "# " + heading, "- [Deploy]"}, nil},
		{"empty team index", func(o Options) string { return Build(o).Text() }, &TeamMemory{Dir: "/p/t", Rel: "t", Caps: index.DefaultCaps},
			[]string{"- [Mine]"}, []string{"team-memory", "Team memory"}},
		{"no team", func(o Options) string { return Build(o).Text() }, nil,
			[]string{"- [Mine]"}, []string{"team-memory"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.text(Options{Agent: "generic", Memory: own, Team: tc.team})
			at := 0
			for _, w := range tc.want {
				i := strings.Index(got[at:], w)
				if i < 0 {
					t.Fatalf("missing (or out of order) %q in:\n%s", w, got)
				}
				at += i + len(w)
			}
			for _, a := range tc.absent {
				if strings.Contains(got, a) {
					t.Errorf("has %q:\n%s", a, got)
				}
			}
		})
	}
}
