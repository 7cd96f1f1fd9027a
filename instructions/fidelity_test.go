package instructions_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/instructions"
	"github.com/memdir/memdir/sessionctx"
)

// TestFidelity runs memdir on every tree under testdata/fidelity and
// compares what it gives the agent, byte for byte, with what the real
// agent loaded from the same tree (golden.txt, recorded by
// scripts/fidelity/run). Claude Code takes a rules directory in the order
// the file system lists it, so blocks of one rules directory are compared
// sorted by path.
func TestFidelity(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join("..", "testdata", "fidelity", "*", "*", "case.json"))
	if len(cases) == 0 {
		t.Fatal("no fidelity cases")
	}
	for _, c := range cases {
		dir := filepath.Dir(c)
		agent := filepath.Base(filepath.Dir(dir))
		t.Run(agent+"/"+filepath.Base(dir), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, "golden.txt"))
			if err != nil {
				t.Fatal(err)
			}
			got := fidelityRun(t, agent, dir)
			if agent != "gemini" {
				want = append(want, '\n') // memdir ends its text with a newline
			}
			if diff := cmp.Diff(normalize(string(want)), normalize(got)); diff != "" {
				t.Errorf("memdir differs from %s (-%s +memdir):\n%s", agent, agent, diff)
			}
		})
	}
}

func fidelityRun(t *testing.T, agent, dir string) string {
	var spec struct {
		Cwd   string   `json:"cwd"`
		Files []string `json:"files"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "case.json"))
	if err == nil {
		err = json.Unmarshal(data, &spec)
	}
	if err != nil {
		t.Fatal(err)
	}
	tree := copyFidelityTree(t, filepath.Join(dir, "tree"))
	cwd := filepath.Join(tree, spec.Cwd)
	root := gitTop(cwd)
	p, err := instructions.Lookup(agent, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := instructions.Discover(instructions.Options{Profile: p, Root: root, Cwd: cwd, Files: spec.Files,
		UserHome: filepath.Join(tree, "home"), ManagedRoot: filepath.Join(tree, "managed")})
	if err != nil {
		t.Fatal(err)
	}
	opts := sessionctx.Options{Agent: agent, Cwd: cwd}
	opts.Instructions, _ = sessionctx.FromDiscovery(res)
	if idx, err := os.ReadFile(filepath.Join(dir, "memory", "MEMORY.md")); err == nil {
		mem := filepath.Join(tree, "home", ".claude", "projects", canonical.Slug(root), "memory")
		opts.Memory = &sessionctx.Memory{Dir: mem, Index: idx, Caps: index.DefaultCaps}
	}
	text, _ := sessionctx.Native(agent, opts)
	return strings.ReplaceAll(text, tree, "$TREE")
}

var slugDir = regexp.MustCompile(`/projects/[^/]+/memory/`)

// normalize hides the slug of the temporary tree and sorts the blocks of
// each rules directory.
func normalize(s string) string {
	s = slugDir.ReplaceAllString(s, "/projects/$$SLUG/memory/")
	s, nl := strings.CutSuffix(s, "\n") // the last block, wherever it sorts, ends like the others
	blocks := strings.Split(s, "\n\nContents of ")
	for i := 0; i < len(blocks); {
		j := i
		for j < len(blocks) && ruleDir(blocks[j]) != "" && ruleDir(blocks[j]) == ruleDir(blocks[i]) {
			j++
		}
		if j > i+1 {
			sort.Strings(blocks[i:j])
			i = j
			continue
		}
		i++
	}
	s = strings.Join(blocks, "\n\nContents of ")
	if nl {
		s += "\n"
	}
	return s
}

func ruleDir(block string) string {
	path, _, _ := strings.Cut(block, " (")
	if i := strings.Index(path, "/.claude/rules/"); i >= 0 {
		return path[:i]
	}
	return ""
}

func gitTop(dir string) string {
	for d := dir; filepath.Dir(d) != d; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
	}
	return dir
}

// copyFidelityTree copies a fixture tree, renaming dot-git to .git, and
// returns the copy's real path.
func copyFidelityTree(t *testing.T, src string) string {
	t.Helper()
	dst, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, strings.ReplaceAll(rel, "dot-git", ".git"))
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
