package doctor

import (
	"os"
	"path/filepath"
	"strings"
)

// FindSchedule looks for something that runs the dream on a schedule: a
// line of the user's crontab (crontab gives its text) that runs memdir
// daemon or dream, or a systemd user unit or launchd agent whose file
// names memdir. It returns where it found one.
func FindSchedule(home string, crontab func() string) (string, bool) {
	for _, line := range strings.Split(crontab(), "\n") {
		l := strings.TrimSpace(line)
		if l == "" || strings.HasPrefix(l, "#") || !strings.Contains(l, "memdir") {
			continue
		}
		if strings.Contains(l, " dream") || strings.Contains(l, " daemon") {
			return "crontab: " + l, true
		}
	}
	for _, pattern := range []string{
		filepath.Join(home, ".config", "systemd", "user", "*memdir*"),
		filepath.Join(home, "Library", "LaunchAgents", "*memdir*.plist"),
	} {
		if m, _ := filepath.Glob(pattern); len(m) > 0 {
			if _, err := os.Stat(m[0]); err == nil {
				return m[0], true
			}
		}
	}
	return "", false
}
