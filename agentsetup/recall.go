package agentsetup

import (
	"errors"
	"io/fs"

	"github.com/memdir/memdir/untrusted"
)

// RecallHook is the file and event where setup wires an agent's
// per-prompt recall (`memdir recall`), and whether the file runs it now.
type RecallHook struct {
	Path  string
	Event string
	// Wired: the event runs memdir recall, in setup's form or the
	// person's own variant.
	Wired bool
}

// RecallHooks lists the recall hooks setup wires for o's agent and scope
// with whether each is in place; an agent without hooks (Amp, whose plugin
// calls recall itself) lists none. A missing file is not wired; a file
// that does not parse is an error.
func RecallHooks(o Options) ([]RecallHook, error) {
	ts, err := targets(o)
	if err != nil {
		return nil, err
	}
	var out []RecallHook
	for _, t := range ts {
		for _, h := range t.hooks {
			if h.sub != recallArgs {
				continue
			}
			wired, err := hookWired(t.path, h)
			if err != nil {
				return nil, err
			}
			out = append(out, RecallHook{Path: t.path, Event: h.event, Wired: wired})
		}
	}
	return out, nil
}

// hookWired reports whether the JSON file at path runs h's subcommand
// for h's event.
func hookWired(path string, h hookSpec) (bool, error) {
	data, err := untrusted.ReadFile(path, "", untrusted.MaxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	d, err := newJSONDoc(path, string(data))
	if err != nil {
		return false, err
	}
	return len(d.findHooks(h)) > 0, nil
}
