package workspace

import (
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/canonical"
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
