package instructions

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/memdir/memdir/typesx"
)

// load reads f.Path, decides its status, appends it (and, when it loads, its
// imports) to the result, and returns its status. chain holds the real paths
// of the importers, outermost first.
func (l *loader) load(f File, chain []string) Status {
	data, err := l.read(f.Path)
	if err != nil {
		return l.failRead(f, err)
	}
	f.Size = len(data)
	real := l.realPath(f.Path)
	if prev, ok := l.seen[real]; ok {
		return l.fail(f, StatusDuplicate, "same file as "+prev+", already loaded")
	}
	if !isText(data) {
		return l.fail(f, StatusNotText, "binary content: only text files are loaded")
	}
	body, note, ok := l.applyFrontmatter(&f, data)
	if !ok {
		return f.Status
	}
	if l.p.StripComments {
		body = StripComments(body)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return l.fail(f, StatusEmpty, "nothing but white space"+note)
	}
	content, ok := l.limit(&f, string(body))
	if !ok {
		return f.Status
	}
	f.Reason = strings.TrimPrefix(f.Reason+note, "; ")
	l.seen[real] = f.Path
	if l.counts(f) {
		l.used += len(content)
	}
	f.Content = content
	if f.Status == StatusTruncated && l.p.Agent != AgentCodex {
		f.Content += fmt.Sprintf("[memdir: %s truncated: %s]\n", filepath.Base(f.Path), f.Reason)
	}
	l.add(f)
	// Only the loaded part counts: imports cut away by a limit are not followed.
	l.imports(f, content, append(slices.Clip(chain), real))
	return f.Status
}

func (l *loader) fail(f File, st Status, reason string) Status {
	f.Status, f.Reason = st, reason
	l.add(f)
	return st
}

func readReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if strings.Contains(err.Error(), "is a directory") {
		return "is a directory, not a file"
	}
	return "cannot read: " + err.Error()
}

// applyFrontmatter handles the frontmatter of rules and imports: it removes
// it from the text and skips the file when its paths match no --file. The
// claude profile strips the frontmatter of every file, as Claude Code does,
// and only its `paths` key limits a file.
func (l *loader) applyFrontmatter(f *File, data []byte) (body []byte, note string, ok bool) {
	claude := l.p.Agent == AgentClaude
	if f.Kind == KindInstructions && !claude {
		return data, "", true
	}
	parse := ParseFrontmatter
	if claude {
		parse = claudeFrontmatter
	}
	fm, body, had, err := parse(data)
	if had && !claude {
		body = bytes.TrimLeft(body, "\r\n")
	}
	if err != nil {
		return body, "; " + err.Error() + ": loaded without conditions", true
	}
	pats, always := fm.Patterns(), fm.AlwaysApply
	if claude {
		pats, always = claudePaths(fm.Paths), false
	}
	if f.Kind == KindInstructions {
		return body, "", true
	}
	if always && len(pats) > 0 {
		return body, "", withReason(f, "alwaysApply overrides paths "+strings.Join(pats, ", "))
	}
	if applies(pats, always, l.files) {
		switch {
		case len(pats) > 0 && len(l.files) == 0:
			f.Reason = "paths " + strings.Join(pats, ", ") + " only exclude: applies with no --file"
		case len(pats) > 0:
			f.Reason = "paths " + strings.Join(pats, ", ") + " match a --file (" + strings.Join(l.files, ", ") + ")"
		case f.Kind == KindRule:
			f.Reason = "no paths in frontmatter: always loaded"
		}
		return body, "", true
	}
	why := "no --file given"
	if len(l.files) > 0 {
		why = "no --file matches (" + strings.Join(l.files, ", ") + ")"
	}
	l.fail(*f, StatusSkippedGlob, "available, not loaded: applies to "+strings.Join(pats, ", ")+"; "+why)
	f.Status = StatusSkippedGlob
	return nil, "", false
}

func withReason(f *File, r string) bool {
	f.Reason = r
	return true
}

// limit applies the per-file and total limits, setting f.Status. It returns
// ok false when nothing could be loaded (the file is then recorded).
func (l *loader) limit(f *File, s string) (string, bool) {
	f.Status = StatusLoaded
	var why []string
	if m := l.p.MaxFileBytes; m > 0 && len(s) > m {
		s = cutAtLine(s, m)
		why = append(why, fmt.Sprintf("per-file limit of %d bytes", m))
	}
	if m := l.p.MaxTotalBytes; m > 0 && l.counts(*f) && l.used+len(s) > m {
		left := m - l.used
		switch {
		case left > 0 && l.p.Agent == AgentCodex:
			// Codex cuts at the exact byte; a split character becomes U+FFFD.
			s = strings.ToValidUTF8(s[:left], "\uFFFD")
		case left > 0:
			s = cutAtLine(s, left)
		}
		if left <= 0 || s == "" {
			l.fail(*f, StatusOverBudget, fmt.Sprintf("total limit of %d bytes already used by earlier files", m))
			f.Status = StatusOverBudget
			return "", false
		}
		why = append(why, fmt.Sprintf("total limit of %d bytes", m))
	}
	if len(why) > 0 {
		f.Status = StatusTruncated
		how := "cut at a line boundary"
		if l.p.Agent == AgentCodex {
			how = "cut at the byte where the budget ends, as Codex does"
		}
		r := fmt.Sprintf("%s: loaded %d of %d bytes, %s", strings.Join(why, " and "), len(s), f.Size, how)
		f.Reason = strings.TrimPrefix(f.Reason+"; "+r, "; ")
	}
	return s, true
}

// counts reports whether f's text counts against MaxTotalBytes: for Codex
// only project files do.
func (l *loader) counts(f File) bool {
	return l.p.Agent != AgentCodex || f.Scope == typesx.ScopeProject
}

// ruleFiles lists the files whose names end in ".md" (case matters, dot
// names count) under a rules directory, recursively, as Claude Code's rule
// loader takes them, in path order (Claude Code takes them in directory
// order, which the file system decides). A missing directory has none.
func ruleFiles(dir string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// imports follows the "@path" imports of a loaded file.
func (l *loader) imports(from File, content string, chain []string) {
	// Text without an "@" has none (the finders say so too), and is not
	// copied to look.
	if l.p.ImportDepth <= 0 || strings.IndexByte(content, '@') < 0 {
		return
	}
	found := FindImports
	if l.p.Agent == AgentClaude {
		found = FindClaudeImports
	}
	for _, im := range found([]byte(content)) {
		l.importOne(from, im.Path, chain)
	}
}

func (l *loader) importOne(from File, ref string, chain []string) {
	f := File{Scope: from.Scope, Kind: KindImport, ImportedFrom: from.Path, Import: ref, Depth: from.Depth + 1}
	f.Path = l.env.expand(ref, filepath.Dir(from.Path))
	if f.Depth > l.p.ImportDepth {
		l.fail(f, StatusDepthLimit, fmt.Sprintf("import %d hops deep: the profile follows %d", f.Depth, l.p.ImportDepth))
		return
	}
	if _, err := os.Stat(f.Path); err != nil {
		l.fail(f, StatusMissing, fmt.Sprintf("target does not exist: @%s left as written", ref))
		return
	}
	real := l.realPath(f.Path)
	if l.p.Agent == AgentClaude {
		if ext := strings.ToLower(filepath.Ext(f.Path)); ext != "" && !claudeTextExts()[ext] {
			l.fail(f, StatusNotText, "not a text file by its extension: Claude Code skips it")
			return
		}
		if !within(l.cwd, real) && !l.opts.AllowOutsideImports && from.Scope != typesx.ScopeUser {
			l.fail(f, StatusOutsideRoot, "outside the working directory: Claude Code loads only user files' imports from there (allow it in settings)")
			return
		}
	} else if !l.insideProject(real) && !l.opts.AllowOutsideImports &&
		from.Scope != typesx.ScopeUser && from.Scope != typesx.ScopeManaged {
		l.fail(f, StatusOutsideRoot, "outside the project root: only user and managed files may import it (allow it in settings)")
		return
	}
	if i := slices.Index(chain, real); i >= 0 {
		l.fail(f, StatusCycle, "already in the import chain: "+strings.Join(append(chainNames(chain[i:]), filepath.Base(real)), " -> "))
		return
	}
	l.load(f, chain)
}

func (l *loader) insideProject(p string) bool {
	return within(l.root, p) || within(l.top, p)
}

func chainNames(chain []string) []string {
	out := make([]string, len(chain))
	for i, c := range chain {
		out[i] = filepath.Base(c)
	}
	return out
}

// realAbs is realPath for a path that may be relative, through the
// loader's cache: home, the managed directory and the project share their
// first components, and each was an lstat a path.
func (l *loader) realAbs(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return l.realPath(p)
}

// realPath resolves symlinks like the package-level realPath, caching the
// resolved directories: EvalSymlinks costs one lstat per path component.
func (l *loader) realPath(p string) string {
	p = filepath.Clean(p)
	if r, ok := l.dirs[p]; ok {
		return r
	}
	parent := filepath.Dir(p)
	fi, err := os.Lstat(p)
	if parent == p || err != nil || fi.Mode()&fs.ModeSymlink != 0 {
		r := realPath(p)
		l.dirs[p] = r
		return r
	}
	r := filepath.Join(l.realPath(parent), filepath.Base(p))
	l.dirs[p] = r
	return r
}
