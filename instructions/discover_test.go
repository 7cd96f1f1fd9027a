package instructions

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// makeTree writes files (relative path -> content) under a new temp dir and
// returns its real path.
func makeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range files {
		writeFile(t, filepath.Join(dir, p), c)
	}
	return dir
}

// summary lists "status rel-path" per file.
func summary(res Result, base string) []string {
	var out []string
	for _, f := range res.Files {
		out = append(out, string(f.Status)+" "+relTo(base)(f.Path))
	}
	return out
}

func TestDiscoverCases(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		profile Profile
		opts    func(o *Options)
		want    []string
	}{
		{
			name:    "outside import allowed by settings",
			files:   map[string]string{"p/AGENTS.md": "@../x.md\n", "x.md": "x\n"},
			profile: Profile{ProjectNames: []string{"AGENTS.md"}, ImportDepth: 1},
			opts:    func(o *Options) { o.AllowOutsideImports = true },
			want:    []string{"loaded p/AGENTS.md", "loaded x.md"},
		},
		{
			name:    "outside import refused",
			files:   map[string]string{"p/AGENTS.md": "@../x.md\n", "x.md": "x\n"},
			profile: Profile{ProjectNames: []string{"AGENTS.md"}, ImportDepth: 1},
			want:    []string{"loaded p/AGENTS.md", "outside-root x.md"},
		},
		{
			name:    "imports cut away by the file limit are not followed",
			files:   map[string]string{"p/AGENTS.md": "@a.md\n" + strings.Repeat("filler\n", 10) + "@b.md\n", "p/a.md": "a\n", "p/b.md": "b\n"},
			profile: Profile{ProjectNames: []string{"AGENTS.md"}, ImportDepth: 1, MaxFileBytes: 40},
			want:    []string{"truncated p/AGENTS.md", "loaded p/a.md"},
		},
		{
			name:    "imports off",
			files:   map[string]string{"p/AGENTS.md": "@a.md\n", "p/a.md": "a\n"},
			profile: Profile{ProjectNames: []string{"AGENTS.md"}},
			want:    []string{"loaded p/AGENTS.md"},
		},
		{
			name:    "one per dir skips an empty winner",
			files:   map[string]string{"p/A.md": " \n", "p/B.md": "b\n", "p/C.md": "c\n"},
			profile: Profile{ProjectNames: []string{"A.md", "B.md", "C.md"}, OnePerDir: true},
			want:    []string{"empty p/A.md", "loaded p/B.md", "shadowed p/C.md"},
		},
		{
			name:    "walk stops at the root and runs down to cwd",
			files:   map[string]string{"AGENTS.md": "above\n", "p/AGENTS.md": "root\n", "p/a/AGENTS.md": "a\n", "p/a/b/AGENTS.md": "b\n", "p/a/b/c/AGENTS.md": "below\n"},
			profile: Profile{ProjectNames: []string{"AGENTS.md"}},
			opts:    func(o *Options) { o.Cwd = filepath.Join(o.Root, "a", "b") },
			want:    []string{"loaded p/AGENTS.md", "loaded p/a/AGENTS.md", "loaded p/a/b/AGENTS.md"},
		},
		{
			name:    "root walk",
			files:   map[string]string{"p/AGENTS.md": "root\n", "p/a/AGENTS.md": "a\n"},
			profile: Profile{ProjectNames: []string{"AGENTS.md"}, Walk: WalkRoot},
			opts:    func(o *Options) { o.Cwd = filepath.Join(o.Root, "a") },
			want:    []string{"loaded p/AGENTS.md"},
		},
		{
			name:    "total budget",
			files:   map[string]string{"p/AGENTS.md": "12345\n12345\n", "p/a/AGENTS.md": "x\n"},
			profile: Profile{ProjectNames: []string{"AGENTS.md"}, MaxTotalBytes: 7},
			opts:    func(o *Options) { o.Cwd = filepath.Join(o.Root, "a") },
			want:    []string{"truncated p/AGENTS.md", "over-budget p/a/AGENTS.md"},
		},
		{
			name:    "import depth counts hops",
			files:   map[string]string{"p/AGENTS.md": "@1.md\n", "p/1.md": "@2.md\n", "p/2.md": "@3.md\n", "p/3.md": "3\n"},
			profile: Profile{ProjectNames: []string{"AGENTS.md"}, ImportDepth: 2},
			want:    []string{"loaded p/AGENTS.md", "loaded p/1.md", "loaded p/2.md", "depth-limit p/3.md"},
		},
		{
			name:    "rules in path order, dot names too, only .md (as Claude Code)",
			files:   map[string]string{"p/r/b.md": "b\n", "p/r/a.md": "a\n", "p/r/sub/c.md": "c\n", "p/r/.hidden.md": "h\n", "p/r/n.txt": "n\n", "p/r/u.MD": "u\n"},
			profile: Profile{RulesDirs: []string{"r"}},
			want:    []string{"loaded p/r/.hidden.md", "loaded p/r/a.md", "loaded p/r/b.md", "loaded p/r/sub/c.md"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := makeTree(t, tc.files)
			root := filepath.Join(dir, "p")
			opts := Options{Profile: tc.profile, Root: root, Cwd: root, UserHome: filepath.Join(dir, "home")}
			if tc.opts != nil {
				tc.opts(&opts)
			}
			res, err := Discover(opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, summary(res, dir)); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDiscoverTruncationIsVisible(t *testing.T) {
	dir := makeTree(t, map[string]string{"AGENTS.md": "line one\nline two\nline three\n"})
	res, err := Discover(Options{Profile: Profile{ProjectNames: []string{"AGENTS.md"}, MaxFileBytes: 12}, Root: dir, Cwd: dir, UserHome: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := "line one\n[memdir: AGENTS.md truncated: per-file limit of 12 bytes: loaded 9 of 29 bytes, cut at a line boundary]\n"
	if got := res.Files[0].Content; got != want {
		t.Errorf("content = %q, want %q", got, want)
	}
	if res.Bytes != 9 {
		t.Errorf("Bytes = %d, want 9", res.Bytes)
	}
}

func TestDiscoverOptions(t *testing.T) {
	dir := makeTree(t, map[string]string{"p/AGENTS.md": "x\n", "elsewhere/AGENTS.md": "e\n"})
	p := Profile{Name: "t", ProjectNames: []string{"AGENTS.md"}}
	if _, err := Discover(Options{Profile: p}); !errors.Is(err, ErrNoCwd) {
		t.Errorf("no cwd: err = %v, want ErrNoCwd", err)
	}
	res, err := Discover(Options{Profile: p, Root: dir + "/p", Cwd: dir + "/p", UserHome: dir, Disabled: true})
	if err != nil || len(res.Files) != 0 || len(res.Notes) != 1 {
		t.Errorf("disabled: got %+v, %v", res, err)
	}
	res, err = Discover(Options{Profile: p, Root: dir + "/p", Cwd: dir + "/elsewhere", UserHome: dir})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"loaded elsewhere/AGENTS.md"}, summary(res, dir)); diff != "" || len(res.Notes) != 1 {
		t.Errorf("cwd outside root (-want +got):\n%s\nnotes %v", diff, res.Notes)
	}
}

func TestResultText(t *testing.T) {
	r := Result{Files: []File{
		{Path: "/a/AGENTS.md", Scope: "project", Kind: KindInstructions, Status: StatusLoaded, Content: "A"},
		{Path: "/a/x.md", Status: StatusMissing},
		{Path: "/a/b.md", Scope: "project", Kind: KindImport, Status: StatusTruncated, Content: "B\n"},
	}}
	want := "Contents of /a/AGENTS.md (project instructions):\n\nA\n\nContents of /a/b.md (project import):\n\nB\n\n"
	if got := r.Text(); got != want {
		t.Errorf("Text() = %q, want %q", got, want)
	}
}

// BenchmarkDiscover runs the case: 8 instruction files, 3 imports
// and 5 rules.
func BenchmarkDiscover(b *testing.B) {
	files := map[string]string{
		"m/CLAUDE.md": "managed\n", "h/.claude/CLAUDE.md": "user\n@~/.claude/u.md\n", "h/.claude/u.md": "u\n",
		"p/CLAUDE.md": "# root\n\n@docs/a.md\n@docs/b.md\n", "p/docs/a.md": "a\n", "p/docs/b.md": "b\n",
		"p/CLAUDE.local.md": "local\n", "p/.claude/CLAUDE.md": "dot\n",
	}
	for i := range 5 {
		files[fmt.Sprintf("p/.claude/rules/r%d.md", i)] = "---\npaths: [\"src/**/*.go\"]\n---\nrule\n"
	}
	for _, d := range []string{"src", "src/a", "src/a/b"} {
		files["p/"+d+"/CLAUDE.md"] = "# " + d + "\n\n- some instruction\n"
	}
	dir := makeTree(b, files)
	p := Builtin()["claude"]
	opts := Options{Profile: p, Root: dir + "/p", Cwd: dir + "/p/src/a/b", Files: []string{"x.go"},
		UserHome: dir + "/h", ManagedRoot: dir + "/m"}
	res, err := Discover(opts)
	if err != nil {
		b.Fatal(err)
	}
	if n := countLoaded(res.Files); n != 16 {
		b.Fatalf("loaded %d files, want 16", n)
	}
	for b.Loop() {
		if _, err := Discover(opts); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDiscoverThroughLinks: a working directory and a home reached
// through symbolic links resolve to their real directories (the loader
// caches what it resolved): the project's files load once, a second name
// for the same file is a duplicate, and an import through the linked
// path still counts as inside the project.
func TestDiscoverThroughLinks(t *testing.T) {
	dir := makeTree(t, map[string]string{
		"real/p/AGENTS.md":   "@docs/a.md\n",
		"real/p/docs/a.md":   "a\n",
		"real/p/sub/x.txt":   "",
		"realhome/AGENTS.md": "mine\n",
	})
	for link, target := range map[string]string{"p": "real/p", "home": "realhome", "real/p/sub/CLAUDE.md": "../AGENTS.md"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	p := Profile{Name: "t", UserFiles: []string{"~/AGENTS.md"}, ProjectNames: []string{"AGENTS.md", "CLAUDE.md"}, ImportDepth: 1}
	res, err := Discover(Options{Profile: p, Root: dir + "/p", Cwd: dir + "/p/sub", UserHome: dir + "/home"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"loaded realhome/AGENTS.md", "loaded real/p/AGENTS.md", "loaded real/p/docs/a.md", "duplicate real/p/sub/CLAUDE.md"}
	if diff := cmp.Diff(want, summary(res, dir)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
