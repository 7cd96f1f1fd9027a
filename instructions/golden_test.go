package instructions

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", os.Getenv("UPDATE") != "", "rewrite golden files")

// copyTree copies testdata/tree into a temp dir, renaming "dot-git" to ".git"
// (git cannot commit nested .git paths) and keeping symlinks. It returns the
// copy's real path.
func copyTree(t testing.TB) string {
	t.Helper()
	dst, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join("testdata", "tree")
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		rel = strings.ReplaceAll(rel, "dot-git", ".git")
		to := filepath.Join(dst, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, to)
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

type scenario struct {
	name  string
	cwd   string
	files []string
}

var scenarios = []scenario{
	{name: "nested cwd with --file", cwd: "project/src/api/v2", files: []string{"handler.go", "../../../docs/guide.md"}},
	{name: "nested linked worktree", cwd: "project/wt/sub"},
}

func fixtureOptions(tree string, p Profile, sc scenario) Options {
	return Options{
		Profile:     p,
		Root:        filepath.Join(tree, "project"),
		Cwd:         filepath.Join(tree, sc.cwd),
		Files:       sc.files,
		UserHome:    filepath.Join(tree, "home"),
		ManagedRoot: filepath.Join(tree, "managed"),
		AgentID:     "coder",
	}
}

func TestGoldenProfiles(t *testing.T) {
	tree := copyTree(t)
	for _, name := range BuiltinNames() {
		t.Run(name, func(t *testing.T) {
			p, err := Lookup(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, sc := range scenarios {
				res, err := Discover(fixtureOptions(tree, p, sc))
				if err != nil {
					t.Fatalf("Discover(%s): %v", sc.name, err)
				}
				fmt.Fprintf(&b, "=== %s: cwd %s, files %v\n", sc.name, sc.cwd, sc.files)
				if err := WriteList(&b, res, tree); err != nil {
					t.Fatal(err)
				}
				writeContents(&b, res, tree)
			}
			checkGolden(t, filepath.Join("testdata", "golden", name+".txt"), b.String())
		})
	}
}

// writeContents renders the loaded text, eliding the middle of long files.
func writeContents(b *strings.Builder, res Result, tree string) {
	rel := relTo(tree)
	for _, f := range res.Files {
		if !f.Loaded() {
			continue
		}
		fmt.Fprintf(b, "--- %s\n", rel(f.Path))
		content := strings.ReplaceAll(f.Content, tree+string(filepath.Separator), "")
		lines := strings.SplitAfter(strings.TrimSuffix(content, "\n"), "\n")
		if len(lines) > 40 {
			elided := fmt.Sprintf("... %d lines elided ...\n", len(lines)-8)
			lines = append(append(lines[:4:4], elided), lines[len(lines)-4:]...)
		}
		b.WriteString(strings.Join(lines, ""))
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with UPDATE=1 to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}
