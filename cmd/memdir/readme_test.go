package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestREADMETour runs the README's "A short tour" as written: every
// command of its sh blocks, top to bottom, in a fresh git repository,
// each of which must succeed. The editor the tour opens appends a line.
func TestREADMETour(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	tour := tourCommands(t, string(data))
	if len(tour) < 15 {
		t.Fatalf("the tour has %d commands; README.md's \"## A short tour\" was not found whole", len(tour))
	}
	dir := t.TempDir()
	script := `# The README's tour, as written.
mkdir proj
cd proj
exec git init -q .
env EDITOR='sh -c "echo Seeds come from tests/fixtures. >> \"$1\"" sh'
exec sh -e $WORK/tour.sh
exec memdir show 'Testing policy'
stdout 'Seeds come from tests/fixtures.'
exec memdir show 'Release freeze'
stdout 'Thursday 2026-11-26'
-- tour.sh --
set -x
` + strings.Join(tour, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "tour.txtar"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{Dir: dir, RequireExplicitExec: true, Setup: scriptEnv})
}

// tourCommands returns the commands of the sh blocks of README's "A short
// tour" section, continuation lines joined.
func tourCommands(t *testing.T, readme string) []string {
	t.Helper()
	_, section, ok := strings.Cut(readme, "\n## A short tour\n")
	if !ok {
		return nil
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	var cmds []string
	in := false
	cont := ""
	for _, line := range strings.Split(section, "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			in = true
			continue
		case strings.HasPrefix(line, "```"):
			in = false
			continue
		case !in || strings.TrimSpace(line) == "":
			continue
		}
		line = cont + line
		if strings.HasSuffix(line, "\\") {
			cont = strings.TrimSuffix(line, "\\")
			continue
		}
		cont = ""
		cmds = append(cmds, line)
	}
	return cmds
}
