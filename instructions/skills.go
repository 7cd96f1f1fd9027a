package instructions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memdir/memdir/typesx"
)

// skills lists the SKILL.md files in the profile's skill directories: user
// ones first, then project ones, which replace a user skill of the same
// name. Within a scope the first directory listed wins.
func (l *loader) skills() []Skill {
	byName := map[string]Skill{}
	for _, scope := range []typesx.Scope{typesx.ScopeUser, typesx.ScopeProject} {
		for _, d := range l.p.SkillDirs {
			if isUserPath(d) != (scope == typesx.ScopeUser) {
				continue
			}
			dir := l.env.expand(d, l.top)
			if dir == "" {
				continue
			}
			for _, s := range l.skillsIn(dir, scope) {
				prev, ok := byName[s.Name]
				switch {
				case ok && prev.Scope == scope:
					l.res.Notes = append(l.res.Notes, fmt.Sprintf("skill %q in %s is shadowed by %s", s.Name, s.Path, prev.Path))
					continue
				case ok:
					s.Overrides = prev.Path
				}
				byName[s.Name] = s
			}
		}
	}
	out := make([]Skill, 0, len(byName))
	for _, s := range byName {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (l *loader) skillsIn(dir string, scope typesx.Scope) []Skill {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []Skill
	for _, e := range entries {
		p := filepath.Join(dir, e.Name(), "SKILL.md")
		data, err := l.read(p)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				l.res.Notes = append(l.res.Notes, fmt.Sprintf("skill %s: not read: %v", p, err))
			}
			continue
		}
		fm, _, _, err := ParseFrontmatter(data)
		if err != nil {
			l.res.Notes = append(l.res.Notes, fmt.Sprintf("skill %s: %v", p, err))
		}
		name := strings.TrimSpace(fm.Name)
		if name == "" {
			name = e.Name()
		}
		out = append(out, Skill{Name: name, Description: strings.TrimSpace(fm.Description), Path: p, Scope: scope})
	}
	return out
}
