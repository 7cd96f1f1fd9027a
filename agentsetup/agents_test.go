package agentsetup

import "testing"

func TestHookCommand(t *testing.T) {
	for _, tc := range []struct{ program, want string }{
		{"memdir", "memdir capture"},
		{"/home/u/go/bin/memdir", "/home/u/go/bin/memdir capture"},
		{"/Users/Jo Smith/bin/memdir", "'/Users/Jo Smith/bin/memdir' capture"},
		{"/opt/it's/memdir", `'/opt/it'\''s/memdir' capture`},
	} {
		got := hookCommand(tc.program, captureArgs)
		if got != tc.want {
			t.Errorf("hookCommand(%q) = %q, want %q", tc.program, got, tc.want)
		}
		if p, rest, ok := runsMemdir(got); tc.program != "/opt/it's/memdir" && (!ok || p != tc.program || rest != "capture") {
			t.Errorf("runsMemdir(%q) = %q, %q, %v", got, p, rest, ok)
		}
	}
}

func TestRunsMemdir(t *testing.T) {
	for _, tc := range []struct {
		command, rest string
		ok            bool
	}{
		{"memdir context --agent claude --no-instructions --format claude-hook", "context --agent claude --no-instructions --format claude-hook", true},
		{"/usr/local/bin/memdir capture", "capture", true},
		{`C:\tools\memdir.exe capture`, "capture", false}, // a Windows path is not split on this system
		{"memdir.exe capture", "capture", true},
		{"npx memdir capture", "", false},
		{"memdirx capture", "", false},
		{"'unterminated capture", "", false},
		{"", "", false},
	} {
		_, rest, ok := runsMemdir(tc.command)
		if ok != tc.ok || ok && rest != tc.rest {
			t.Errorf("runsMemdir(%q) = %q, %v; want %q, %v", tc.command, rest, ok, tc.rest, tc.ok)
		}
	}
}

func TestTOMLQuote(t *testing.T) {
	for in, want := range map[string]string{
		"memdir":            `"memdir"`,
		`C:\bin\memdir.exe`: `"C:\\bin\\memdir.exe"`,
		"a\"b\tc":           `"a\"b\u0009c"`,
	} {
		if got := tomlQuote(in); got != want {
			t.Errorf("tomlQuote(%q) = %s, want %s", in, got, want)
		}
		if _, err := scanTOML("x.toml", "k = "+tomlQuote(in)+"\n"); err != nil {
			t.Errorf("tomlQuote(%q) does not parse: %v", in, err)
		}
	}
}
