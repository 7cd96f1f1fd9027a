package instructions

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Walk modes for Profile.Walk.
const (
	WalkRootToCwd = "root-to-cwd" // every directory from the project root down to the working directory
	WalkRoot      = "root"        // the project root only
	WalkUp        = "up"          // every directory from the filesystem root down to the working directory
)

// Profile describes, as data, how one agent finds its instruction files.
// Paths may use "~/" (the user's home), "{managed}" (the managed directory)
// and "{agent}" (Options.AgentID). Names in ProjectNames, LocalNames and
// RulesDirs are relative to each walked directory and may contain "/".
type Profile struct {
	// Name is the profile's name, as given to --profile.
	Name string `yaml:"name"`
	// Extends names the profile a user-defined profile starts from.
	Extends string `yaml:"extends"`
	// ManagedDir is the default for {managed} when Options.ManagedRoot is empty.
	ManagedDir string `yaml:"managed_dir"`
	// ManagedFiles are instruction files installed by an administrator.
	ManagedFiles []string `yaml:"managed_files"`
	// ManagedRulesDirs are rules directories at the managed level.
	ManagedRulesDirs []string `yaml:"managed_rules_dirs"`
	// UserFiles are the person's own instruction files, for every project.
	UserFiles []string `yaml:"user_files"`
	// UserOneOf loads only the first existing, non-empty user file.
	UserOneOf bool `yaml:"user_one_of"`
	// UserRulesDirs are rules directories at the user level.
	UserRulesDirs []string `yaml:"user_rules_dirs"`
	// ProjectNames are the names looked for in each walked directory, in
	// priority order.
	ProjectNames []string `yaml:"project_names"`
	// OnePerDir loads only the first existing, non-empty project name of a
	// directory; the others are reported as shadowed.
	OnePerDir bool `yaml:"one_per_dir"`
	// LocalNames are uncommitted per-directory files, loaded after the
	// project file of the same directory.
	LocalNames []string `yaml:"local_names"`
	// RulesDirs are rules directories relative to each walked directory.
	RulesDirs []string `yaml:"rules_dirs"`
	// SkillDirs hold one directory per skill with a SKILL.md inside; "~/"
	// paths are user skills, relative paths are under the project root.
	SkillDirs []string `yaml:"skill_dirs"`
	// Walk is WalkRootToCwd (the default) or WalkRoot.
	Walk string `yaml:"walk"`
	// ImportDepth is how many hops of @path imports are followed; 0 turns
	// imports off.
	ImportDepth int `yaml:"import_depth"`
	// StripComments removes block HTML comments from loaded text.
	StripComments bool `yaml:"strip_comments"`
	// MaxFileBytes caps each file; 0 is unlimited.
	MaxFileBytes int `yaml:"max_file_bytes"`
	// MaxTotalBytes caps everything loaded together; 0 is unlimited.
	MaxTotalBytes int `yaml:"max_total_bytes"`
	// AddFiles names the file `instructions add` creates per scope ("user",
	// "project", "local") when none of the scope's files exists yet.
	AddFiles map[string]string `yaml:"add_files"`
	// Agent names the agent whose exact loading rules and text the profile
	// follows: "claude", "codex", "gemini", "amp", or "" for memdir's own. See
	// docs/agents.md, "Fidelity", for what each one changes.
	Agent string `yaml:"agent"`
}

// The agents a Profile can follow exactly.
const (
	AgentClaude = "claude"
	AgentCodex  = "codex"
	AgentGemini = "gemini"
	AgentAmp    = "amp"
)

// DefaultProfile is the profile used when none is chosen.
const DefaultProfile = "generic"

func claudeManagedDir() string {
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/ClaudeCode"
	case "windows":
		return `C:\Program Files\ClaudeCode`
	}
	return "/etc/claude-code"
}

// Builtin returns the shipped profiles by name. Each call returns fresh
// copies that the caller may change.
func Builtin() map[string]Profile {
	m := map[string]Profile{}
	for _, f := range []func() Profile{genericProfile, claudeProfile, codexProfile, geminiProfile, ampProfile, amplifierProfile, deepagentsProfile} {
		p := f()
		m[p.Name] = p
	}
	return m
}

// generic: memdir's own cross-agent default. One file per directory
// from the AGENTS/AGENT/CLAUDE family, both local variants, Claude's
// rules directories, Claude's four import hops, and Claude's 40,000
// character warning used as a hard per-file cap.
func genericProfile() Profile {
	return Profile{
		Name:             "generic",
		ManagedDir:       claudeManagedDir(),
		ManagedFiles:     []string{"{managed}/CLAUDE.md"},
		ManagedRulesDirs: []string{"{managed}/.claude/rules"},
		UserFiles:        []string{"~/.agents/AGENTS.md", "~/.claude/CLAUDE.md"},
		UserRulesDirs:    []string{"~/.claude/rules"},
		ProjectNames:     []string{"AGENTS.md", "AGENT.md", "CLAUDE.md", ".claude/CLAUDE.md"},
		OnePerDir:        true,
		LocalNames:       []string{"AGENTS.local.md", "CLAUDE.local.md"},
		RulesDirs:        []string{".claude/rules"},
		SkillDirs:        []string{"~/.agents/skills", "~/.claude/skills", ".agents/skills", ".claude/skills"},
		ImportDepth:      4,
		StripComments:    true,
		MaxFileBytes:     40000,
		AddFiles:         map[string]string{"user": "~/.agents/AGENTS.md", "project": "AGENTS.md", "local": "AGENTS.local.md"},
	}
}

// claude: Claude Code 2.1.197's claudemd loader (checked against the
// real client, see docs/agents.md): managed policy file, ~/.claude/CLAUDE.md
// and ~/.claude/rules, then every directory from / down to the working
// directory: CLAUDE.md, .claude/CLAUDE.md, .claude/rules/**/*.md,
// CLAUDE.local.md; frontmatter stripped everywhere, only `paths` limits a
// rule; @imports four hops, only under the working directory for project
// files; block HTML comments stripped. Not done: nested CLAUDE.md files
// below the working directory (loaded on demand by Claude) and
// CLAUDE_CONFIG_DIR.
func claudeProfile() Profile {
	return Profile{
		Name:             "claude",
		ManagedDir:       claudeManagedDir(),
		ManagedFiles:     []string{"{managed}/CLAUDE.md"},
		ManagedRulesDirs: []string{"{managed}/.claude/rules"},
		UserFiles:        []string{"~/.claude/CLAUDE.md"},
		UserRulesDirs:    []string{"~/.claude/rules"},
		ProjectNames:     []string{"CLAUDE.md", ".claude/CLAUDE.md"},
		LocalNames:       []string{"CLAUDE.local.md"},
		RulesDirs:        []string{".claude/rules"},
		SkillDirs:        []string{"~/.claude/skills", ".claude/skills"},
		Walk:             WalkUp,
		ImportDepth:      4,
		StripComments:    true,
		Agent:            AgentClaude,
	}
}

// codex: Codex 0.169.0 (checked with `codex debug prompt-input`). In
// CODEX_HOME (~/.codex) the first non-empty of AGENTS.override.md,
// AGENTS.md; then root to cwd the first existing of AGENTS.override.md,
// AGENTS.md per directory (an empty override still shadows AGENTS.md),
// white-space-only files skipped, project_doc_max_bytes 32 KiB over the
// project files only, cut at the exact byte. CODEX_HOME and
// project_doc_fallback_filenames come through a user profile.
func codexProfile() Profile {
	return Profile{
		Name:          "codex",
		UserFiles:     []string{"~/.codex/AGENTS.override.md", "~/.codex/AGENTS.md"},
		UserOneOf:     true,
		ProjectNames:  []string{"AGENTS.override.md", "AGENTS.md"},
		OnePerDir:     true,
		SkillDirs:     []string{"~/.codex/skills", ".agents/skills"},
		MaxTotalBytes: 32 * 1024,
		AddFiles:      map[string]string{"user": "~/.codex/AGENTS.md", "project": "AGENTS.md"},
		Agent:         AgentCodex,
	}
}

// gemini: Gemini CLI core 0.61.0's memory loader (run on the same
// trees): ~/.gemini/GEMINI.md, then GEMINI.md from the working directory
// up to the git root, sorted by path; its import processor (five deep);
// --file adds the files between the root and the touched file, as its
// just-in-time loader does. context.fileName maps to project_names in a
// user profile extending gemini.
func geminiProfile() Profile {
	return Profile{
		Name:         "gemini",
		UserFiles:    []string{"~/.gemini/GEMINI.md"},
		ProjectNames: []string{"GEMINI.md"},
		SkillDirs:    []string{"~/.gemini/skills", ".gemini/skills"},
		ImportDepth:  5,
		Agent:        AgentGemini,
	}
}

// amp: Amp's guidance discovery as AmpVersion ships it (read from its
// code, checked by running it: testdata/fidelity/amp). In every directory
// the first existing of seven spellings; the directories are the
// workspace root and those down to the working directory, every parent
// above the root up to (not including) /, /home and /Users,
// $XDG_CONFIG_HOME/amp, $XDG_CONFIG_HOME and the system directory
// (/etc/ampcode; /Library/Application Support/ampcode too). Frontmatter
// `globs:` limits any file to threads that touched a matching file;
// @-mentions are followed recursively, globs expand, "~/" is
// $XDG_CONFIG_HOME. Discovery is ampDiscover; the lists below serve
// `instructions add` and the listings.
func ampProfile() Profile {
	return Profile{
		Name:         "amp",
		ManagedDir:   "/etc/ampcode",
		ManagedFiles: []string{"{managed}/AGENTS.md"},
		UserFiles:    []string{"{config}/amp/AGENTS.md", "{config}/AGENTS.md"},
		UserOneOf:    true,
		ProjectNames: []string{"AGENTS.md", "Agents.md", "agents.md", "AGENT.md", "Agent.md", "agent.md", "CLAUDE.md"},
		OnePerDir:    true,
		SkillDirs:    []string{"~/.config/agents/skills", ".agents/skills"}, // Amp joins ~/.config here, not $XDG_CONFIG_HOME
		Walk:         WalkUp,
		Agent:        AgentAmp,
	}
}

// amplifier: microsoft/amplifier-app-cli's AMPLIFIER.md memory files:
// ~/.amplifier/AMPLIFIER.md, then AMPLIFIER.md from the project root
// down to cwd; @mentions are followed recursively. Simplified: the
// mention depth is capped at five and bundle mentions (@ns:path) are
// not resolved (they are reported missing).
func amplifierProfile() Profile {
	return Profile{
		Name:         "amplifier",
		UserFiles:    []string{"~/.amplifier/AMPLIFIER.md"},
		ProjectNames: []string{"AMPLIFIER.md"},
		ImportDepth:  5,
	}
}

// deepagents: the Deep Agents CLI's memory files:
// ~/.deepagents/<agent>/agent.md (agent "agent" unless --agent-id) and
// <root>/.deepagents/agent.md, skills in ~/.deepagents/<agent>/skills and
// .deepagents/skills. There is no <root>/agent.md fallback: the library
// (npm deepagents 1.14.1) reads exactly the paths given to
// createDeepAgent({memory}) and nothing else (docs/deepagents.md).
func deepagentsProfile() Profile {
	return Profile{
		Name:         "deepagents",
		UserFiles:    []string{"~/.deepagents/{agent}/agent.md"},
		ProjectNames: []string{".deepagents/agent.md"},
		OnePerDir:    true,
		Walk:         WalkRoot,
		SkillDirs:    []string{"~/.deepagents/{agent}/skills", ".deepagents/skills"},
	}
}

// BuiltinNames lists the shipped profiles' names, sorted.
func BuiltinNames() []string {
	var names []string
	for n := range Builtin() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the profile called name: a user-defined one from settings
// (decoded from its YAML node, starting from the profile it extends) or a
// built-in one. An empty name means DefaultProfile.
func Lookup(name string, user map[string]*yaml.Node) (Profile, error) {
	if name == "" {
		name = DefaultProfile
	}
	return lookup(name, user, nil)
}

func lookup(name string, user map[string]*yaml.Node, seen []string) (Profile, error) {
	if slices.Contains(seen, name) {
		return Profile{}, fmt.Errorf("profile %s: extends cycle %s", name, strings.Join(append(seen, name), " -> "))
	}
	node, ok := user[name]
	if !ok || node == nil {
		p, ok := Builtin()[name]
		if !ok {
			return Profile{}, &UnknownProfileError{Name: name, Known: knownNames(user)}
		}
		return p, nil
	}
	if err := checkKeys(node); err != nil {
		return Profile{}, fmt.Errorf("profile %s: %w", name, err)
	}
	var head struct {
		Extends string `yaml:"extends"`
	}
	if err := node.Decode(&head); err != nil {
		return Profile{}, fmt.Errorf("profile %s: %w", name, err)
	}
	var p Profile
	if head.Extends != "" {
		base, err := lookup(head.Extends, user, append(seen, name))
		if err != nil {
			return Profile{}, fmt.Errorf("profile %s: %w", name, err)
		}
		p = base
	}
	if err := node.Decode(&p); err != nil {
		return Profile{}, fmt.Errorf("profile %s: %w", name, err)
	}
	p.Name = name
	p.Extends = head.Extends
	if p.Walk != "" && p.Walk != WalkRoot && p.Walk != WalkRootToCwd && p.Walk != WalkUp {
		return Profile{}, fmt.Errorf("profile %s: walk %q: use %s, %s or %s", name, p.Walk, WalkRootToCwd, WalkRoot, WalkUp)
	}
	switch p.Agent {
	case "", AgentClaude, AgentCodex, AgentGemini, AgentAmp:
	default:
		return Profile{}, fmt.Errorf("profile %s: agent %q: use %s, %s, %s or %s", name, p.Agent, AgentClaude, AgentCodex, AgentGemini, AgentAmp)
	}
	if p.ImportDepth < 0 || p.MaxFileBytes < 0 || p.MaxTotalBytes < 0 {
		return Profile{}, fmt.Errorf("profile %s: %w", name, ErrNegativeLimit)
	}
	return p, nil
}

// checkKeys rejects keys that are not Profile fields, so a typo in settings
// is an error rather than a silently ignored line.
func checkKeys(node *yaml.Node) error {
	n := node
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return errors.New("profile must be a mapping")
	}
	known := map[string]bool{}
	t := reflect.TypeFor[Profile]()
	for i := range t.NumField() {
		known[strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]] = true
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i].Value; !known[k] {
			return fmt.Errorf("line %d: unknown key %q", n.Content[i].Line, k)
		}
	}
	return nil
}

func knownNames(user map[string]*yaml.Node) []string {
	names := BuiltinNames()
	for n := range user {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}
