package mcpserver

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/search"
)

// ScopeTeam marks a team memory in results ("scope": "team").
const ScopeTeam = "team"

// Team is the project's team memory: a memory directory committed with
// the project and seen by everyone who works in it (docs/team.md).
type Team struct {
	Dir *memdir.Dir
	// Rel is where it lives relative to the project, e.g. .memdir/team.
	Rel string
}

// TeamOpener opens a project's team memory; with create, it makes the
// directory (and its .gitignore) first, as before a write. A directory
// that does not exist yet is returned as it is (Dir.Exists says so).
type TeamOpener func(create bool) (*Team, error)

// Hit is a search result with its scope: "team" for a team memory, empty
// for the person's own.
type Hit struct {
	search.Hit
	Scope string `json:"scope,omitempty" jsonschema:"team for a memory of the project's team memory (shared with everyone in the project); absent for the user's own"`
}

// MergeHits orders the hits of personal and team memory as one list, the
// way a search orders its own (a memory named by the query first, then by
// score, then the newer), and keeps the first limit (all when limit < 1).
// The sort is stable, so at equal rank the hits given first (the person's
// own) come first.
func MergeHits(hits []Hit, limit int) []Hit {
	slices.SortStableFunc(hits, func(a, b Hit) int {
		switch {
		case a.ExactName != b.ExactName:
			if a.ExactName {
				return -1
			}
			return 1
		case a.Score != b.Score:
			return cmp.Compare(b.Score, a.Score)
		}
		return b.Modified.Compare(a.Modified)
	})
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	if hits == nil {
		hits = []Hit{}
	}
	return hits
}

// Scoped marks hits with scope and appends them to out.
func Scoped(out []Hit, hits []search.Hit, scope string) []Hit {
	for _, h := range hits {
		out = append(out, Hit{Hit: h, Scope: scope})
	}
	return out
}

// topicView is a memory as memory_show and memory_list give it.
type topicView struct {
	memdir.TopicView
	Scope string `json:"scope,omitempty" jsonschema:"team for a memory of the project's team memory; absent for the user's own"`
}

// addOutput is memory_add's result.
type addOutput struct {
	memdir.AddResult
	Scope string `json:"scope,omitempty" jsonschema:"team when the memory went to the project's team memory"`
}

// errNoTeam is the answer to a team call where there is no team memory.
var errNoTeam = errors.New("this project has no team memory yet: memory_add with team: true creates it")

// team opens p's existing team memory for a read; nil when there is none
// or it cannot be opened (a team directory leading out of the project is
// never read, and a read of personal memory goes on without it).
func (s *Server) team(p *Project) *Team {
	if p.Team == nil {
		return nil
	}
	t, err := p.Team(false)
	if err != nil {
		s.log.Warn("team memory left out", "err", err)
		return nil
	}
	if t == nil || !t.Dir.Exists() {
		return nil
	}
	if t.Dir.Cache() == nil {
		t.Dir = t.Dir.With(memdir.WithCache(s.cache))
	}
	return t
}

// teamOnly is the team memory a call with team: true works on.
func (s *Server) teamOnly(p *Project, create bool) (*Team, error) {
	if p.Team == nil {
		return nil, errors.New("a subagent's memory has no team part: drop team or agent_type")
	}
	t, err := p.Team(create)
	if err != nil {
		return nil, err
	}
	if !create && !t.Dir.Exists() {
		return nil, errNoTeam
	}
	if t.Dir.Cache() == nil {
		t.Dir = t.Dir.With(memdir.WithCache(s.cache))
	}
	return t, nil
}

// find resolves a memory named in a call: in team memory with team, else
// in the person's own and then, for a read (fallback), in team memory.
func (s *Server) find(p *Project, ref string, team, fallback bool) (*memdir.Dir, string, string, error) {
	if team {
		t, err := s.teamOnly(p, false)
		if err != nil {
			return nil, "", "", err
		}
		file, err := t.Dir.Find(ref)
		return t.Dir, file, ScopeTeam, err
	}
	file, err := p.Dir.Find(ref)
	if err == nil || !fallback || !errors.Is(err, memdir.ErrNotFound) {
		return p.Dir, file, "", err
	}
	if t := s.team(p); t != nil {
		if tf, terr := t.Dir.Find(ref); terr == nil {
			return t.Dir, tf, ScopeTeam, nil
		}
	}
	return p.Dir, file, "", err
}

// searchBoth runs q on the person's memory and the team's and merges the
// results.
func (s *Server) searchBoth(ctx context.Context, p *Project, q search.Query) ([]Hit, error) {
	hits, err := s.index(p.Dir, p.Semantic).Search(ctx, q)
	if err != nil {
		return nil, err
	}
	out := Scoped(nil, hits, "")
	if t := s.team(p); t != nil {
		hits, err := s.index(t.Dir, p.Semantic).Search(ctx, q)
		if err != nil {
			return nil, err
		}
		out = Scoped(out, hits, ScopeTeam)
	}
	limit := q.Limit
	if limit < 1 {
		limit = search.DefaultLimit
	}
	return MergeHits(out, limit), nil
}
