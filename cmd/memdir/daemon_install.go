package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/atomicfile"
)

type daemonInstallOptions struct {
	undo    bool
	manager string
}

// newDaemonInstallCmd is `memdir daemon install`: the daemon as a service
// of the user's session, so that nothing has to be left running in a
// terminal.
func newDaemonInstallCmd(a *app) *cobra.Command {
	var opts daemonInstallOptions
	cmd := &cobra.Command{
		Use:   "install [--undo]",
		Short: "Run memdir daemon --all as a service of your login (systemd or launchd)",
		Long: `Write a systemd user unit (Linux: ~/.config/systemd/user/memdir-daemon.service)
or a launchd agent (macOS: ~/Library/LaunchAgents/dev.memdir.daemon.plist)
that runs memdir daemon --all, this binary, with your MEMDIR_HOME; then say
the one command that starts it. Running it again changes nothing; --undo
removes the file (stop the service first, as it says). --manager picks
systemd or launchd instead of this system's.

Examples:
  memdir daemon install
  systemctl --user enable --now memdir-daemon.service
  memdir daemon install --undo`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runDaemonInstall(a, opts) },
	}
	cmd.Flags().BoolVar(&opts.undo, "undo", false, "remove the service file")
	cmd.Flags().StringVar(&opts.manager, "manager", "", "systemd or launchd (default: this system's)")
	return cmd
}

// serviceFile is one service manager's file and how to start and stop it.
type serviceFile struct {
	path, start, stop string
	render            func(bin, home string) string
}

func (a *app) serviceFile(manager string) (serviceFile, error) {
	if manager == "" {
		manager = map[bool]string{true: "launchd", false: "systemd"}[runtime.GOOS == "darwin"]
	}
	home := a.getenv("HOME")
	if home == "" {
		return serviceFile{}, usagef("HOME is not set: daemon install writes into your home directory")
	}
	switch manager {
	case "systemd":
		dir := a.getenv("XDG_CONFIG_HOME")
		if dir == "" {
			dir = filepath.Join(home, ".config")
		}
		return serviceFile{
			path:   filepath.Join(dir, "systemd", "user", "memdir-daemon.service"),
			start:  "systemctl --user daemon-reload && systemctl --user enable --now memdir-daemon.service",
			stop:   "systemctl --user disable --now memdir-daemon.service",
			render: systemdUnit,
		}, nil
	case "launchd":
		p := filepath.Join(home, "Library", "LaunchAgents", "dev.memdir.daemon.plist")
		return serviceFile{
			path: p, start: "launchctl load -w " + p, stop: "launchctl unload -w " + p,
			render: launchdAgent,
		}, nil
	}
	return serviceFile{}, usagef("--manager %q: use systemd or launchd", manager)
}

func runDaemonInstall(a *app, opts daemonInstallOptions) error {
	if a.json {
		return usagef("daemon install has no result to print: drop --json")
	}
	svc, err := a.serviceFile(opts.manager)
	if err != nil {
		return err
	}
	if opts.undo {
		err := os.Remove(svc.path)
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(a.out, "nothing to remove: %s does not exist\n", svc.path)
			return nil
		}
		if err != nil {
			return fmt.Errorf("daemon install --undo: %w", err)
		}
		fmt.Fprintf(a.out, "removed %s (stop it first if it runs: %s)\n", svc.path, svc.stop)
		return nil
	}
	bin, err := os.Executable()
	if err != nil {
		return fmt.Errorf("daemon install: find memdir itself: %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(bin); err == nil {
		bin = resolved
	}
	want := svc.render(bin, a.getenv("MEMDIR_HOME"))
	if old, err := os.ReadFile(svc.path); err == nil && string(old) == want {
		fmt.Fprintf(a.out, "unchanged %s\nstart it: %s\n", svc.path, svc.start)
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(svc.path), 0o755); err != nil {
		return fmt.Errorf("daemon install: %w", err)
	}
	if err := atomicfile.WriteFile(svc.path, []byte(want), 0o644); err != nil {
		return fmt.Errorf("daemon install: %w", err)
	}
	fmt.Fprintf(a.out, "wrote %s\nstart it: %s\n", svc.path, svc.start)
	return nil
}

// systemdUnit is the user unit that runs the daemon.
func systemdUnit(bin, memdirHome string) string {
	var env string
	if memdirHome != "" {
		env = "Environment=" + systemdQuote("MEMDIR_HOME="+memdirHome) + "\n"
	}
	return `[Unit]
Description=memdir daemon: dream, watch and sync agent memory
Documentation=https://github.com/memdir/memdir/blob/main/docs/cli.md#daemon

[Service]
ExecStart=` + systemdQuote(bin) + ` daemon --all
` + env + `Restart=on-failure
RestartSec=30

[Install]
WantedBy=default.target
`
}

// systemdQuote quotes a word for a unit file when it needs it.
func systemdQuote(s string) string {
	if !strings.ContainsAny(s, " \t\"'\\") {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// launchdAgent is the launchd agent that runs the daemon.
func launchdAgent(bin, memdirHome string) string {
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace
	var env string
	if memdirHome != "" {
		env = `	<key>EnvironmentVariables</key>
	<dict>
		<key>MEMDIR_HOME</key>
		<string>` + esc(memdirHome) + `</string>
	</dict>
`
	}
	return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>dev.memdir.daemon</string>
	<key>ProgramArguments</key>
	<array>
		<string>` + esc(bin) + `</string>
		<string>daemon</string>
		<string>--all</string>
	</array>
` + env + `	<key>RunAtLoad</key>
	<true/>
	<key>KeepAlive</key>
	<true/>
</dict>
</plist>
`
}
