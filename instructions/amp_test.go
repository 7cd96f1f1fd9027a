package instructions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ampGot is one guidance file as Amp's discovery reports it.
type ampGot struct {
	Path    string `json:"path"`
	Type    string `json:"type"`
	Content string `json:"content"`
}

// TestAmpFidelity runs the amp profile on the cases under
// testdata/ampfidelity and compares the files it loads, in order, with
// their kind and text, with what Amp's own discovery loaded from the same
// tree (<case>.golden.json, recorded by scripts/fidelity/amp-run from the
// release AmpVersion names).
func TestAmpFidelity(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join("testdata", "ampfidelity", "*.json"))
	n := 0
	for _, c := range cases {
		if strings.HasSuffix(c, ".golden.json") {
			continue
		}
		n++
		t.Run(strings.TrimSuffix(filepath.Base(c), ".json"), func(t *testing.T) {
			var spec struct {
				Cwd   string   `json:"cwd"`
				Files []string `json:"files"`
				XDG   string   `json:"xdg"`
			}
			var want struct {
				Files []ampGot `json:"files"`
			}
			readJSON(t, c, &spec)
			readJSON(t, strings.TrimSuffix(c, ".json")+".golden.json", &want)
			tree, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.CopyFS(tree, os.DirFS(filepath.Join("testdata", "ampfidelity", "tree"))); err != nil {
				t.Fatal(err)
			}
			p, _ := Lookup("amp", nil)
			proj := filepath.Join(tree, "work", "proj")
			opts := Options{Profile: p, Root: proj, WorkTree: proj, Cwd: filepath.Join(tree, spec.Cwd), Files: spec.Files,
				UserHome: filepath.Join(tree, "home"), ManagedRoot: filepath.Join(tree, "managed")}
			if spec.XDG != "" {
				opts.ConfigHome = filepath.Join(tree, spec.XDG)
			}
			res, err := Discover(opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []ampGot
			for _, f := range res.Files {
				if f.Loaded() {
					got = append(got, ampGot{Path: strings.Replace(f.Path, tree, "$TREE", 1), Type: ampType(f), Content: strings.TrimSpace(f.Content)})
				}
			}
			if diff := cmp.Diff(want.Files, got); diff != "" {
				t.Errorf("memdir differs from Amp %s (-amp +memdir):\n%s", AmpVersion, diff)
			}
		})
	}
	if n == 0 {
		t.Fatal("no amp fidelity cases")
	}
}

func ampType(f File) string {
	if f.Kind == KindImport {
		return "mentioned"
	}
	kind, _, _ := strings.Cut(strings.TrimPrefix(f.Reason, "Amp: "), " ")
	return kind
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		t.Fatal(err)
	}
}

func TestAmpMentions(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"see @a.md, and @b/c.md.", []string{"a.md", "b/c.md"}},
		{"mail@example.com", []string{"example.com"}},
		{"`@code.md` and <code>@tag.md</code>", nil},
		{"```\n@fenced.md\n```\n@after.md", []string{"after.md"}},
		{"text\n\n    @indented.md\n- @list.md", []string{"list.md"}},
		{"@**/all.md @* @/ @docs/\\*.md", []string{"docs/*.md"}},
		{"(@~/amp/x.md)", []string{"~/amp/x.md"}},
	} {
		if diff := cmp.Diff(tc.want, ampMentions(tc.in)); diff != "" {
			t.Errorf("ampMentions(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestAmpGlobsMatch(t *testing.T) {
	for _, tc := range []struct {
		globs []string
		file  string
		reads []string
		want  bool
	}{
		{nil, "/p/AGENTS.md", nil, true},
		{[]string{"*.go"}, "/p/AGENTS.md", nil, false},
		{[]string{"*.go"}, "/p/AGENTS.md", []string{"/p/src/x.go"}, true},
		{[]string{"./deep/**"}, "/p/lib/AGENTS.md", []string{"/p/lib/deep/x.go"}, true},
		{[]string{"./deep/**"}, "/p/lib/AGENTS.md", []string{"/p/deep/x.go"}, false},
		{[]string{"/p/src/*.go"}, "/p/AGENTS.md", []string{"/p/src/x.go"}, true},
		{[]string{"src/**"}, "/p/AGENTS.md", []string{"/p/src/a/b.ts"}, true},
	} {
		if got := ampGlobsMatch(tc.globs, tc.file, tc.reads); got != tc.want {
			t.Errorf("ampGlobsMatch(%v, %s, %v) = %v, want %v", tc.globs, tc.file, tc.reads, got, tc.want)
		}
	}
}

// FuzzAmpMentions checks that every mention found is one Amp would
// resolve: non-empty, not a disk-wide glob, made of the characters Amp's
// pattern takes and not ending in punctuation.
func FuzzAmpMentions(f *testing.F) {
	for _, s := range []string{"see @a.md.", "mail@x.com", "```\n@f.md\n```", "    @i.md", "@**/x", "@docs/\\*.md", "<code>@c</code>@d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range ampMentions(s) {
			if m == "" || m == "/" || strings.HasPrefix(m, "**/") {
				t.Fatalf("ampMentions(%q) gave %q", s, m)
			}
			if strings.Trim(m, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._~/*?[]{}\\,-") != "" || strings.ContainsAny(m[len(m)-1:], ".,;!?") {
				t.Fatalf("ampMentions(%q) gave %q: not a mention Amp reads", s, m)
			}
		}
	})
}
