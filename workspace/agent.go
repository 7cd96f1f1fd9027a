package workspace

import (
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/memdir"
)

// agentLocation places the memory of the subagent type AgentType in the
// scope AgentScope. Without a scope, the one scope in which that type has
// a memory is taken, and returned; none or several is a usage error.
func (o *Options) agentLocation(repo canonical.Repo) (canonical.Location, string, error) {
	if o.Dir != "" {
		return canonical.Location{}, "", usagef("--dir and --agent-type name two memory directories: give one")
	}
	a := canonical.AgentOptions{Type: o.AgentType, Scope: o.AgentScope, Project: repo.WorkTree, Root: repo.Root, Getenv: o.getenv}
	if a.Project == "" {
		a.Project = repo.Root
	}
	if a.Scope == "" {
		scope, err := o.onlyScope(a)
		if err != nil {
			return canonical.Location{}, "", err
		}
		a.Scope = scope
	}
	dir, err := canonical.AgentDir(a)
	if err != nil {
		return canonical.Location{}, "", usagef("--scope %s: %v", a.Scope, err)
	}
	return canonical.Location{Dir: filepath.Clean(dir), Root: repo.Root, Slug: canonical.Slug(repo.Root), Source: canonical.SourceAgent}, a.Scope, nil
}

// onlyScope is the one scope in which the agent type has a memory.
func (o *Options) onlyScope(a canonical.AgentOptions) (string, error) {
	var found []canonical.AgentMemory
	for _, m := range canonical.AgentMemories(a) {
		if m.Type == canonical.AgentTypeDir(o.AgentType) {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 0:
		return "", usagef("agent type %q has no memory yet: say where with --scope user, project or local", o.AgentType)
	case 1:
		return found[0].Scope, nil
	}
	var scopes []string
	for _, m := range found {
		scopes = append(scopes, m.Scope)
	}
	return "", usagef("agent type %q has memory in %s scope: choose one with --scope", o.AgentType, strings.Join(scopes, " and "))
}

// AgentMemory is one subagent memory of the project or the user.
type AgentMemory struct {
	canonical.AgentMemory
	// Topics is how many topic files it holds.
	Topics int `json:"topics"`
	// ReadOnly says why Claude Code would not load it, when it would not.
	ReadOnly string `json:"read_only,omitempty"`
}

// AgentMemories lists every subagent memory of the project and the user.
func (o *Options) AgentMemories(p *Project) []AgentMemory {
	out := []AgentMemory{}
	for _, m := range canonical.AgentMemories(canonical.AgentOptions{Project: p.WorkTree(), Root: p.Repo.Root, Getenv: o.getenv}) {
		files, _ := memdir.Open(m.Dir, memdir.Live).TopicFiles()
		out = append(out, AgentMemory{AgentMemory: m, Topics: len(files), ReadOnly: canonical.AgentEntrypoint(m.Dir, m.Scope, p.WorkTree())})
	}
	return out
}
