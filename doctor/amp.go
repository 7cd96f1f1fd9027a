package doctor

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memdir/memdir/agentsetup"
	"github.com/memdir/memdir/untrusted"
)

// ampChecks: memdir's plugin is present and as this memdir writes it, and
// a workspace server is approved as Amp records approval (the sha256 of
// the server's spec in amp.mcpTrustedServers of the user's settings,
// recomputed here offline).
func ampChecks(o Options, user bool) []Check {
	cfg := agentsetup.AmpConfigDir(o.Home, o.Getenv)
	plugin, settings := agentsetup.AmpPaths(o.Root, cfg, user)
	out := []Check{ampPlugin(plugin, user)}
	if !user {
		out = append(out, ampApproved(o, settings, agentsetup.AmpUserSettings(cfg, o.Getenv)))
	}
	return out
}

func ampPlugin(path string, user bool) Check {
	c := Check{Agent: "amp", Name: "plugin", Status: Fail, Fix: "memdir setup amp"}
	if user {
		c.Fix += " --user"
	}
	data, err := untrusted.ReadFile(path, "", untrusted.MaxSettings)
	if err != nil {
		c.Detail = "no memdir plugin at " + path + ": Amp gets no memory at the start of a thread and saves no \"remember that\""
		return c
	}
	prog, ours := agentsetup.AmpPluginProgram(data)
	switch {
	case !ours:
		c.Detail = path + " is not memdir's plugin"
		c.Fix = "move " + path + " aside, then " + c.Fix
	case !bytes.Equal(data, agentsetup.AmpPlugin(prog)):
		c.Detail = path + " differs from the plugin this memdir writes (edited, or from another release)"
	case filepath.IsAbs(prog) && !executable(prog):
		c.Detail = "the plugin " + path + " runs " + prog + ", which is not an executable file"
	default:
		c.Status, c.Fix = OK, ""
		c.Detail = "the plugin " + path + " runs " + prog
	}
	return c
}

func ampApproved(o Options, settings, userSettings string) Check {
	c := Check{Agent: "amp", Name: "mcp-approved", Status: Fail}
	s, ok, err := agentsetup.AmpMCPServer(settings, "memdir")
	switch {
	case err != nil:
		c.Detail, c.Fix = err.Error(), "fix the file by hand"
		return c
	case !ok:
		c.Detail, c.Fix = "no memdir server in "+settings, "memdir setup amp"
		return c
	}
	approved, err := agentsetup.AmpApproved(userSettings, o.Root, "memdir", s.SpecHash)
	switch {
	case err != nil:
		c.Detail, c.Fix = err.Error(), "fix the file by hand"
	case !approved:
		c.Detail = fmt.Sprintf("Amp starts no server from a workspace's .amp/settings.json until it is approved: %s records no approval of memdir's (spec hash %.12s)", userSettings, s.SpecHash)
		c.Fix = "run `amp mcp approve memdir` in " + o.Root
	default:
		c.Status = OK
		c.Detail = "Amp's settings approve the memdir server as it is now (" + userSettings + ")"
	}
	return c
}

func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}
