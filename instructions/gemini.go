package instructions

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/typesx"
)

// StatusInlined marks a file Gemini's import processor put inside its
// importer's text: listed, not a block of its own.
const StatusInlined Status = "inlined"

// geminiDiscover loads files as Gemini CLI core 0.61 does: the user files,
// then every project name from the working directory up to the nearest
// directory holding .git (or the working directory alone), sorted by path
// as strings; each file's imports inlined by its import processor. A --file
// adds, marked OnDemand, the files from the git root down to the touched
// file's directory not yet loaded, as its just-in-time loader does.
func (l *loader) geminiDiscover() {
	for _, p := range l.p.UserFiles {
		l.geminiFile(File{Path: l.env.expand(p, l.env.home), Scope: typesx.ScopeUser, Kind: KindInstructions})
	}
	ceiling := geminiRoot(l.cwd)
	var project []string
	for _, d := range chain(ceiling, l.cwd) {
		for _, n := range l.names(d, l.p.ProjectNames) {
			if fi, err := os.Stat(n); err == nil && !fi.IsDir() {
				project = append(project, n)
			}
		}
	}
	sort.Strings(project)
	for _, p := range project {
		l.geminiFile(File{Path: p, Scope: typesx.ScopeProject, Kind: KindInstructions})
	}
	for _, f := range l.opts.Files {
		if !filepath.IsAbs(f) {
			f = filepath.Join(l.cwd, f)
		}
		dir := f
		if fi, err := os.Stat(f); err != nil || !fi.IsDir() {
			dir = filepath.Dir(f)
		}
		if !within(ceiling, dir) {
			continue
		}
		for _, d := range chain(ceiling, dir) {
			for _, n := range l.names(d, l.p.ProjectNames) {
				if _, done := l.seen[l.realPath(n)]; !done && exists(n) {
					l.geminiFile(File{Path: n, Scope: typesx.ScopeProject, Kind: KindInstructions, OnDemand: true})
				}
			}
		}
	}
}

// geminiRoot is the nearest directory from dir up that holds .git, or dir.
func geminiRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

func (l *loader) geminiFile(f File) {
	data, err := l.read(f.Path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			l.failRead(f, err)
		}
		return
	}
	real := l.realPath(f.Path)
	if prev, ok := l.seen[real]; ok {
		l.fail(f, StatusDuplicate, "same file as "+prev+", already loaded")
		return
	}
	l.seen[real] = f.Path
	f.Size = len(data)
	g := geminiImports{l: l, root: geminiRoot(filepath.Dir(f.Path)), from: f}
	text := g.process(string(data), filepath.Dir(f.Path), nil, 0)
	if strings.TrimSpace(text) == "" {
		l.fail(f, StatusEmpty, "nothing but white space")
		return
	}
	f.Status, f.Content = StatusLoaded, text
	l.used += len(data) // the file's own bytes: inlined text varies with paths
	l.add(f)
	l.res.Files = append(l.res.Files, g.inlined...)
}

// geminiImports runs Gemini's import processor over one top-level file.
type geminiImports struct {
	l       *loader
	root    string // imports must stay under it
	from    File
	inlined []File
}

// geminiCode is Gemini's idea of code: backtick runs and what they enclose.
var geminiCode = lazyre.New("(`+)")

func (g *geminiImports) process(content, base string, chain []string, depth int) string {
	if depth >= g.l.p.ImportDepth {
		return content
	}
	code := geminiCodeRegions(content)
	var b strings.Builder
	last := 0
	for _, im := range FindGeminiImports(content) {
		b.WriteString(content[last:im.Offset])
		last = im.Offset + 1 + len(im.Path)
		if inRegions(code, im.Offset) {
			b.WriteString("@" + im.Path)
			continue
		}
		full := filepath.Join(base, im.Path)
		if filepath.IsAbs(im.Path) {
			full = filepath.Clean(im.Path)
		}
		if strings.HasPrefix(im.Path, "file://") || strings.HasPrefix(im.Path, "http://") || strings.HasPrefix(im.Path, "https://") ||
			!within(realPath(g.root), realPath(full)) {
			b.WriteString("<!-- Import failed: " + im.Path + " - Path traversal attempt -->")
			g.note(full, im.Path, depth, StatusOutsideRoot, "outside "+g.root+": Gemini refuses it")
			continue
		}
		if contains(chain, full) {
			b.WriteString("<!-- File already processed: " + im.Path + " -->")
			g.note(full, im.Path, depth, StatusCycle, "already in the import chain")
			continue
		}
		data, err := g.l.readForImport(full)
		if err != nil {
			b.WriteString("<!-- Import failed: " + im.Path + " - " + err.Error() + " -->")
			g.note(full, im.Path, depth, StatusMissing, err.Error())
			continue
		}
		g.note(full, im.Path, depth, StatusInlined, "inlined into "+g.from.Path)
		inner := g.process(data, filepath.Dir(full), append(append([]string(nil), chain...), full), depth+1)
		b.WriteString("<!-- Imported from: " + im.Path + " -->\n" + inner + "\n<!-- End of import from: " + im.Path + " -->")
	}
	b.WriteString(content[last:])
	return b.String()
}

func (g *geminiImports) note(path, ref string, depth int, st Status, reason string) {
	g.inlined = append(g.inlined, File{Path: path, Scope: g.from.Scope, Kind: KindImport, Status: st, Reason: reason,
		ImportedFrom: g.from.Path, Import: ref, Depth: depth + 1})
}

// readForImport reads an import target, failing with the message Node's
// fs.access and fs.readFile give, which Gemini puts in its comment; a
// target the untrusted-file owner refuses fails with its reason.
func (l *loader) readForImport(p string) (string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return "", errors.New("ENOENT: no such file or directory, access '" + p + "'")
	}
	if fi.IsDir() {
		return "", errors.New("EISDIR: illegal operation on a directory, read")
	}
	data, err := l.read(p)
	if _, why, ok := refusal(err); ok {
		return "", errors.New(why)
	}
	if err != nil {
		return "", errors.New("EACCES: permission denied, open '" + p + "'")
	}
	return string(data), nil
}

// FindGeminiImports returns the imports of a text as Gemini CLI's import
// processor finds them: "@" at the start or after a space, tab or line
// break, the path running to the next such character and starting with
// ".", "/" or an ASCII letter. Offset is the "@". Code is not excluded
// here (see geminiCodeRegions).
func FindGeminiImports(content string) []Import {
	var out []Import
	for i := 0; i < len(content); {
		k := strings.IndexByte(content[i:], '@')
		if k < 0 {
			break
		}
		i += k
		if i > 0 && !geminiSpace(content[i-1]) {
			i++
			continue
		}
		j := i + 1
		for j < len(content) && !geminiSpace(content[j]) {
			j++
		}
		if p := content[i+1 : j]; p != "" && (p[0] == '.' || p[0] == '/' || 'a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z') {
			out = append(out, Import{Path: p, Offset: i})
		}
		i = j + 1
	}
	return out
}

func geminiSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// geminiCodeRegions finds what /(`+)([\s\S]*?)\1/g matches: a run of n
// backticks up to the next n backticks; with none, the expression backtracks
// to a shorter opening run at the same place.
func geminiCodeRegions(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		loc := geminiCode().FindStringIndex(s[i:])
		if loc == nil {
			break
		}
		start, n := i+loc[0], loc[1]-loc[0]
		i = start + n
		for k := n; k >= 1; k-- {
			if at := strings.Index(s[start+k:], strings.Repeat("`", k)); at >= 0 {
				end := start + k + at + k
				out = append(out, [2]int{start, end})
				i = end
				break
			}
		}
	}
	return out
}

func inRegions(rs [][2]int, at int) bool {
	for _, r := range rs {
		if at >= r[0] && at < r[1] {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
