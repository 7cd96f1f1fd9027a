// Package docs holds memdir's documentation. Its tests keep the pages true
// to the tree: the package map of architecture.md names exactly the
// module's packages, every relative link of README.md and docs/*.md leads
// to a file (and heading) that exists, and cli.md documents every command
// and flag the binary has.
package docs

import (
	"bytes"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/memdir/memdir/settings"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// root is the module's root, seen from this package's directory.
const root = ".."

// modulePackages lists every directory of the module that holds a non-test
// Go file, slash-separated and relative to the root. It skips testdata,
// dot and underscore directories (as the go command does) and nested
// modules.
func modulePackages(t *testing.T) []string {
	t.Helper()
	var pkgs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root {
			if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return err
		}
		for _, e := range entries {
			n := e.Name()
			if e.Type().IsRegular() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
				rel, err := filepath.Rel(root, p)
				if err != nil {
					return err
				}
				pkgs = append(pkgs, filepath.ToSlash(rel))
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(pkgs)
	return pkgs
}

// packageRow is a row of the package table: its first cell is a package
// path in backquotes.
var packageRow = regexp.MustCompile("^\\|\\s*`([^`]+)`\\s*\\|")

// mappedPackages returns the packages named in the first column of the
// table under architecture.md's "## Packages" heading.
func mappedPackages(t *testing.T, doc string) []string {
	t.Helper()
	var pkgs []string
	in := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "## ") {
			in = strings.TrimSpace(line) == "## Packages"
			continue
		}
		if m := packageRow.FindStringSubmatch(line); in && m != nil {
			pkgs = append(pkgs, m[1])
		}
	}
	if len(pkgs) == 0 {
		t.Fatal("architecture.md: no package table under \"## Packages\"")
	}
	sort.Strings(pkgs)
	return pkgs
}

func TestArchitectureMapsEveryPackage(t *testing.T) {
	doc, err := os.ReadFile("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	have := modulePackages(t)
	if len(have) < 10 {
		t.Fatalf("found only %d packages under %s: %v", len(have), root, have)
	}
	mapped := mappedPackages(t, string(doc))
	missing, gone := diff(have, mapped), diff(mapped, have)
	for _, p := range missing {
		t.Errorf("architecture.md: package %s is not in the package table", p)
	}
	for _, p := range gone {
		t.Errorf("architecture.md: the package table names %s, which is not a package of the module", p)
	}
	seen := map[string]bool{}
	for _, p := range mapped {
		if seen[p] {
			t.Errorf("architecture.md: %s is listed twice", p)
		}
		seen[p] = true
	}
}

func TestMappedPackagesReadsOnlyThePackageTable(t *testing.T) {
	doc := "# A\n\n| `x` | before |\n\n## Packages\n\n| package | holds |\n|---|---|\n| `a` | one |\n| `b/c` | two |\n\n## Owners\n\n| `d` | after |\n"
	got := mappedPackages(t, doc)
	if want := []string{"a", "b/c"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("mappedPackages = %v, want %v", got, want)
	}
}

// diff returns the elements of a not in b.
func diff(a, b []string) []string {
	in := map[string]bool{}
	for _, s := range b {
		in[s] = true
	}
	var out []string
	for _, s := range a {
		if !in[s] {
			out = append(out, s)
		}
	}
	return out
}

// markdownFiles returns README.md and every page under docs/.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join(root, "README.md"))
	if len(files) < 2 {
		t.Fatalf("no pages under docs/: %v", files)
	}
	return files
}

var md = goldmark.New(goldmark.WithExtensions(extension.GFM))

// page is a parsed markdown file: its link destinations and the anchors
// its headings get on GitHub.
type page struct {
	links   []string
	anchors map[string]bool
}

func parsePage(src []byte) page {
	doc := md.Parser().Parse(text.NewReader(src))
	p := page{anchors: map[string]bool{}}
	count := map[string]int{}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			p.links = append(p.links, string(n.Destination))
		case *ast.Image:
			p.links = append(p.links, string(n.Destination))
		case *ast.Heading:
			a := anchor(headingText(n, src))
			if c := count[a]; c > 0 {
				count[a]++
				a += "-" + strconv.Itoa(c)
			} else {
				count[a] = 1
			}
			p.anchors[a] = true
		}
		return ast.WalkContinue, nil
	})
	return p
}

// headingText collects the text segments of a heading, code spans
// included.
func headingText(h ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(h, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := n.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(src))
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// anchor is GitHub's id for a heading: lowercase, punctuation other than
// '-' and '_' dropped, spaces turned into '-'.
func anchor(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestRelativeLinksResolve(t *testing.T) {
	pages := map[string]page{}
	load := func(file string) (page, error) {
		file = filepath.Clean(file)
		if p, ok := pages[file]; ok {
			return p, nil
		}
		src, err := os.ReadFile(file)
		if err != nil {
			return page{}, err
		}
		p := parsePage(src)
		pages[file] = p
		return p, nil
	}
	checked := 0
	for _, file := range markdownFiles(t) {
		p, err := load(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, dest := range p.links {
			u, err := url.Parse(dest)
			if err != nil {
				t.Errorf("%s: link %q: %v", file, dest, err)
				continue
			}
			if u.Scheme != "" || u.Host != "" {
				continue
			}
			checked++
			target := file
			if u.Path != "" {
				if path.IsAbs(u.Path) {
					t.Errorf("%s: link %q is absolute; make it relative to the page", file, dest)
					continue
				}
				target = filepath.Join(filepath.Dir(file), filepath.FromSlash(u.Path))
				fi, err := os.Stat(target)
				if err != nil {
					t.Errorf("%s: link %q: %v", file, dest, err)
					continue
				}
				if fi.IsDir() || !strings.HasSuffix(target, ".md") {
					if u.Fragment != "" {
						t.Errorf("%s: link %q: an anchor into a file that is not markdown", file, dest)
					}
					continue
				}
			}
			if u.Fragment == "" {
				continue
			}
			tp, err := load(target)
			if err != nil {
				t.Errorf("%s: link %q: %v", file, dest, err)
				continue
			}
			if !tp.anchors[u.Fragment] {
				t.Errorf("%s: link %q: %s has no heading with the anchor #%s", file, dest, target, u.Fragment)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link was checked")
	}
}

func TestParsePage(t *testing.T) {
	src := "# Where memory lives\n\n## Adding: merge, don't duplicate\n\n## `index --fit`\n\n## Dup\n\n## Dup\n\n" +
		"[a](a.md) [b](b.md#x) ![i](img.png) [web](https://example.com) [self](#dup-1)\n\n" +
		"```\n- [not a link](nowhere.md)\n```\n\n`[code](span.md)`\n"
	p := parsePage([]byte(src))
	wantLinks := []string{"a.md", "b.md#x", "img.png", "https://example.com", "#dup-1"}
	if strings.Join(p.links, " ") != strings.Join(wantLinks, " ") {
		t.Errorf("links = %q, want %q", p.links, wantLinks)
	}
	for _, a := range []string{"where-memory-lives", "adding-merge-dont-duplicate", "index---fit", "dup", "dup-1"} {
		if !p.anchors[a] {
			t.Errorf("no anchor %q in %v", a, p.anchors)
		}
	}
}

// TestCLIReferenceIsComplete builds memdir and checks that docs/cli.md has
// a section for every command (and subcommand) `memdir --help` lists, and
// names every flag of each in that section.
func TestCLIReferenceIsComplete(t *testing.T) {
	if testing.Short() {
		t.Skip("builds memdir")
	}
	bin := filepath.Join(t.TempDir(), "memdir")
	build := exec.Command("go", "build", "-o", bin, "./cmd/memdir")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	doc, err := os.ReadFile("cli.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := cliSections(string(doc))
	help := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, append(args, "--help")...)
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "MEMDIR_HOME="+t.TempDir())
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("memdir %s --help: %v", strings.Join(args, " "), err)
		}
		return string(out)
	}
	commands := subcommands(help())
	if len(commands) < 20 {
		t.Fatalf("memdir --help lists only %d commands: %v", len(commands), commands)
	}
	for _, c := range commands {
		if c == "help" {
			continue
		}
		out := help(c)
		subs := subcommands(out)
		if len(subs) == 0 || c == "completion" {
			checkSection(t, sections, c, out)
			continue
		}
		for _, s := range subs {
			if s != "help" {
				checkSection(t, sections, c+" "+s, help(c, s))
			}
		}
	}
}

func checkSection(t *testing.T, sections map[string]string, name, help string) {
	t.Helper()
	body, ok := sections[name]
	if !ok {
		t.Errorf("cli.md: no section \"## %s\"", name)
		return
	}
	for _, f := range flagNames(help) {
		if !strings.Contains(body, f) {
			t.Errorf("cli.md: section %q does not mention %s", name, f)
		}
	}
}

// cliSections maps each "## name" heading of cli.md to its text.
func cliSections(doc string) map[string]string {
	out := map[string]string{}
	name := ""
	var b bytes.Buffer
	flush := func() {
		if name != "" {
			out[name] = b.String()
		}
		b.Reset()
	}
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "## ") {
			flush()
			name = strings.TrimSpace(line[3:])
			continue
		}
		b.WriteString(line + "\n")
	}
	flush()
	return out
}

// subcommands lists the commands under "Available Commands:" of a cobra
// help text, or under each group's title when the commands are grouped.
func subcommands(help string) []string {
	var out []string
	lines := strings.Split(help, "\n")
	for i := 0; i < len(lines); i++ {
		// "Available Commands:", or each group's title ("Core commands:")
		// and "Additional Commands:".
		if !strings.HasSuffix(strings.ToLower(lines[i]), "commands:") || strings.HasPrefix(lines[i], " ") {
			continue
		}
		for i++; i < len(lines) && strings.HasPrefix(lines[i], "  "); i++ {
			out = append(out, strings.Fields(lines[i])[0])
		}
	}
	return out
}

var longFlag = regexp.MustCompile(`(?m)^\s+(?:-\w, )?(--[a-z][a-z0-9-]*)`)

// flagNames lists the long flags of a cobra help text's own "Flags:"
// block (not the global flags), --help left out.
func flagNames(help string) []string {
	_, rest, ok := strings.Cut(help, "\nFlags:\n")
	if !ok {
		return nil
	}
	rest, _, _ = strings.Cut(rest, "\n\n")
	var out []string
	for _, m := range longFlag.FindAllStringSubmatch(rest, -1) {
		if m[1] != "--help" {
			out = append(out, m[1])
		}
	}
	return out
}

// TestSettingsTableIsComplete checks that settings.md's table has one row
// per setting, named as the key, with the environment variable that sets
// it, and no row for a key that does not exist.
func TestSettingsTableIsComplete(t *testing.T) {
	data, err := os.ReadFile("settings.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(line, "|")
		key := strings.Trim(strings.TrimSpace(cells[1]), "`")
		if _, dup := rows[key]; dup {
			t.Errorf("settings.md: %s has two rows", key)
		}
		rows[key] = line
	}
	known := map[string]bool{}
	for _, k := range settings.Keys() {
		known[k.Key] = true
		row, ok := rows[k.Key]
		switch {
		case !ok:
			t.Errorf("settings.md: no row for %s", k.Key)
		case k.Env != "" && !strings.Contains(row, "`"+k.Env+"`"):
			t.Errorf("settings.md: the row for %s does not name %s", k.Key, k.Env)
		}
	}
	for key := range rows {
		if !known[key] {
			t.Errorf("settings.md: a row for %s, which is no setting", key)
		}
	}
}
