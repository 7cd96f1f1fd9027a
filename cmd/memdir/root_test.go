package main

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestTopCommandNames keeps topCommands' names those of the commands
// they build, so that calledCommands builds the command a name calls.
func TestTopCommandNames(t *testing.T) {
	a := &app{}
	seen := map[string]bool{}
	for _, c := range topCommands {
		if got := c.new(a).Name(); got != c.name {
			t.Errorf("topCommands names %q, but its constructor builds %q", c.name, got)
		}
		if seen[c.name] {
			t.Errorf("%q is in topCommands twice", c.name)
		}
		seen[c.name] = true
	}
	for _, g := range commandGroups {
		for _, n := range g.names {
			if !seen[n] && n != "help" && n != "completion" {
				t.Errorf("help group %s lists %q, which topCommands does not build", g.id, n)
			}
		}
	}
}

func TestCalledCommands(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want map[string]bool
	}{
		{[]string{"add", "user", "x", "y"}, map[string]bool{"add": true}},
		{[]string{"--dir", "list", "search", "q"}, map[string]bool{"search": true}},
		{[]string{"--dir=/m", "--json", "list"}, map[string]bool{"list": true}},
		{[]string{"--version"}, map[string]bool{}},
		{[]string{"--version", "--help"}, nil},
		{nil, nil},
		{[]string{"--json"}, nil},
		{[]string{"help", "add"}, nil},
		{[]string{"completion", "bash"}, nil},
		{[]string{"__complete", "show", ""}, nil},
		{[]string{"lsit"}, nil},
		{[]string{"--", "add"}, nil},
	} {
		if got := calledCommands(tc.args); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("calledCommands(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
	// Every root flag that takes a value is skipped with it: one added
	// without teaching calledCommands would make its value read as the
	// command.
	newRootCmdFor(&app{}, map[string]bool{}).PersistentFlags().VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() == "bool" {
			return
		}
		args := []string{"--" + f.Name, "list", "search", "q"}
		if got := calledCommands(args); !reflect.DeepEqual(got, map[string]bool{"search": true}) {
			t.Errorf("calledCommands(%q) = %v: the root flag --%s takes a value calledCommands does not skip", args, got, f.Name)
		}
	})
}

// TestPartialTreeAnswersAsWhole runs commands through run, which builds
// only the command called, and compares with the help and errors of the
// whole tree: the suggestion for a mistyped name, a command's help and
// the version.
func TestPartialTreeAnswersAsWhole(t *testing.T) {
	getenv := func(k string) string {
		if k == "HOME" || k == "MEMDIR_HOME" {
			return t.TempDir()
		}
		return ""
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--version"}, 0, "memdir "},
		{[]string{"lsit"}, 2, "did you mean list?"},
		{[]string{"add", "--help"}, 0, "Global Flags:"},
		{[]string{"search", "-n", "abc", "x"}, 2, "--limit \"abc\""},
	} {
		var out, errw bytes.Buffer
		code := run(tc.args, strings.NewReader(""), &out, &errw, getenv)
		if code != tc.code || !strings.Contains(out.String()+errw.String(), tc.want) {
			t.Errorf("memdir %q: exit %d, output %q; want exit %d and %q", tc.args, code, out.String()+errw.String(), tc.code, tc.want)
		}
	}
}
