package doctor

import "github.com/memdir/memdir/agentsetup"

// recallCheck: the agent's prompt hook runs `memdir recall`, which adds
// the memories relevant to each prompt that the loaded part of MEMORY.md
// leaves out. ok is false for an agent without recall hooks (Amp: its
// plugin calls recall) and for files setup's own check reports unreadable.
func recallCheck(o Options, agent string, user bool) (c Check, ok bool) {
	hooks, err := agentsetup.RecallHooks(setupOptions(o, agent, user))
	if err != nil || len(hooks) == 0 {
		return Check{}, false
	}
	c = Check{Agent: agent, Name: "recall", Status: OK}
	for _, h := range hooks {
		if h.Wired {
			c.Detail = h.Event + " runs memdir recall (" + h.Path + "): memories relevant to each prompt reach the agent"
			return c, true
		}
	}
	h := hooks[0]
	c.Status = Fail
	c.Detail = "no " + h.Event + " hook in " + h.Path + " runs memdir recall: a memory outside the loaded MEMORY.md reaches the agent only when it searches"
	c.Fix = "memdir setup " + agent
	if user {
		c.Fix += " --user"
	}
	return c, true
}
