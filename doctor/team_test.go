package doctor

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/memdir/memdir/memdir"
)

func TestNamesDriver(t *testing.T) {
	for _, tc := range []struct {
		name, attrs string
		want        bool
	}{
		{"memdir's lines", "/MEMORY.md merge=memdir\n/*.md merge=memdir\n", true},
		{"among other attributes", "*.md text eol=lf merge=memdir\n", true},
		{"union only", "/logs/** merge=union\n", false},
		{"commented out", "# /MEMORY.md merge=memdir\n", false},
		{"another driver", "/MEMORY.md merge=memdirx\n", false},
		{"empty", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := namesDriver([]byte(tc.attrs)); got != tc.want {
				t.Errorf("namesDriver(%q) = %v, want %v", tc.attrs, got, tc.want)
			}
		})
	}
}

func TestTeamChecks(t *testing.T) {
	write := func(t *testing.T, dir string, files map[string]string) {
		t.Helper()
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	topic := "---\nname: Runbook\ndescription: Deploys go through make deploy.\ntype: reference\n---\n\nDeploys go through make deploy.\n"
	entry := "- [Runbook](reference_runbook.md) — Deploys go through make deploy.\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  map[string]Status // by check name
	}{
		{"clean", map[string]string{"MEMORY.md": entry, "reference_runbook.md": topic},
			map[string]Status{"memory-dir": OK, "index": OK, "conflicts": OK}},
		{"dangling entry", map[string]string{"MEMORY.md": entry + "- [Gone](reference_gone.md) — gone\n", "reference_runbook.md": topic},
			map[string]Status{"memory-dir": OK, "index": Fail, "conflicts": OK}},
		{"conflict copy", map[string]string{"MEMORY.md": entry, "reference_runbook.md": topic, "reference_runbook.conflict-0a1b2c3.md": topic},
			map[string]Status{"memory-dir": OK, "index": OK, "conflicts": Fail}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, tc.files)
			got := map[string]Status{}
			for _, c := range teamChecks(&Team{Rel: ".memdir/team", Dir: memdir.Open(dir, memdir.Live)}) {
				if c.Scope != ScopeTeam {
					t.Errorf("check %s has scope %q, want %q", c.Name, c.Scope, ScopeTeam)
				}
				if c.Status == Fail && c.Fix == "" {
					t.Errorf("check %s fails with no fix", c.Name)
				}
				got[c.Name] = c.Status
			}
			for name, want := range tc.want {
				if got[name] != want {
					t.Errorf("%s = %q, want %q (all: %v)", name, got[name], want, got)
				}
			}
			if _, ok := got["merge-driver"]; ok {
				t.Errorf("merge-driver checked outside git and with no .gitattributes: %v", got)
			}
		})
	}
	t.Run("refused", func(t *testing.T) {
		cs := teamChecks(&Team{Rel: "../outside", Refused: errors.New("team.dir leads out of the project")})
		if len(cs) != 1 || cs[0].Status != Fail || cs[0].Fix == "" {
			t.Errorf("teamChecks(refused) = %+v, want one failed check with a fix", cs)
		}
	})
}
