package instructions

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/memdir/memdir/internal/lazyre"
)

// ampGlobLimit is the most files one glob @-mention brings in, as in Amp.
const ampGlobLimit = 1000

// ampLoad reads one guidance file, records it, and follows its
// @-mentions, depth first, to any depth: a file already loaded, or one
// that mentions itself through others, is not read again. A file whose
// globs match no --file is left out, but Amp still follows its mentions.
func (l *loader) ampLoad(f File, reads []string, seen map[string]bool, chain []string) {
	key := filepath.Clean(f.Path)
	if seen[key] {
		if f.Kind == KindImport {
			l.fail(f, StatusDuplicate, "already loaded")
		}
		return
	}
	for _, c := range chain {
		if c == key {
			l.fail(f, StatusCycle, "already in the mention chain")
			return
		}
	}
	data, err := l.read(f.Path)
	if err != nil {
		if f.Kind == KindImport && !exists(f.Path) {
			l.fail(f, StatusMissing, fmt.Sprintf("target does not exist: @%s left as written", f.Import))
			return
		}
		l.failRead(f, err)
		return
	}
	f.Size = len(data)
	if !isText(data) {
		l.fail(f, StatusNotText, "binary content: only text files are loaded")
		return
	}
	seen[key] = true
	globs, content, note := ampSplit(string(data))
	f.Reason = strings.TrimPrefix(f.Reason+"; "+note, "; ")
	f.Reason = strings.TrimSuffix(f.Reason, "; ")
	switch {
	case !ampGlobsMatch(globs, key, reads):
		why := "no --file given"
		if len(reads) > 0 {
			why = "no --file matches"
		}
		l.fail(f, StatusSkippedGlob, "available, not loaded: globs "+strings.Join(globs, ", ")+"; "+why)
	case content == "":
		l.fail(f, StatusEmpty, "nothing but white space")
	default:
		f.Status, f.Content = StatusLoaded, content+"\n"
		l.used += len(f.Content)
		l.add(f)
	}
	for _, ref := range ampMentions(string(data)) {
		for _, p := range l.ampResolve(f.Path, ref) {
			m := File{Path: p, Scope: f.Scope, Kind: KindImport, ImportedFrom: f.Path, Import: ref, Depth: f.Depth + 1}
			if !l.ampMayRead(f, p) {
				l.fail(m, StatusOutsideRoot, "outside the project root: only user, system and parent files may mention it (allow it in settings)")
				continue
			}
			l.ampLoad(m, reads, seen, append(chain, key))
		}
	}
}

// ampMayRead keeps the mentions of a file inside the project inside it,
// as every memdir profile does (a cloned repository must not make memdir
// read a private file); Amp itself follows them anywhere.
func (l *loader) ampMayRead(from File, p string) bool {
	return !l.insideProject(l.realPath(from.Path)) || l.opts.AllowOutsideImports || l.insideProject(l.realPath(p))
}

// ampGlobsMatch is Amp's test of a file's globs against the files the
// thread touched: "./" and "../" patterns are relative to the file's
// directory, a pattern not starting with "/" or "**/" matches at any
// depth, dot files match.
func ampGlobsMatch(globs []string, file string, reads []string) bool {
	if len(globs) == 0 {
		return true
	}
	dir := filepath.ToSlash(filepath.Dir(file))
	for _, g := range globs {
		p := g
		switch {
		case strings.HasPrefix(g, "./") || strings.HasPrefix(g, "../"):
			p = path.Join(dir, g)
		case !strings.HasPrefix(g, "/") && !strings.HasPrefix(g, "**/"):
			p = "**/" + g
		}
		abs := strings.HasPrefix(p, "/")
		for _, r := range reads {
			r = filepath.ToSlash(r)
			if !abs {
				r = strings.TrimPrefix(r, "/")
			}
			if ok, _ := doublestar.Match(p, r); ok {
				return true
			}
		}
	}
	return false
}

var (
	ampFence      = lazyre.New("```[\\s\\S]*?```")
	ampInline     = lazyre.New("`[^`]*`")
	ampCodeTag    = lazyre.New(`(?i)<code[^>]*>[\s\S]*?</code>`)
	ampIndented   = lazyre.New(`^(?: {4}|\t)`)
	ampListItem   = lazyre.New(`^\s*(?:[-*+]|\d+[.)])\s`)
	ampMention    = lazyre.New(`@([a-zA-Z0-9._~/*?\[\]{}\\,-]+)`)
	ampTrailPunct = lazyre.New(`[.,;!?)]+$`)
)

// ampMentions returns the @-mentions of a guidance file as Amp finds
// them: code (fenced, inline, <code> and indented blocks) removed, trailing
// punctuation dropped, "\*" read as "*", and globs that could match the
// whole disk ignored.
func ampMentions(text string) []string {
	text = ampFence().ReplaceAllString(text, "")
	text = ampInline().ReplaceAllString(text, "")
	text = ampCodeTag().ReplaceAllString(text, "")
	text = ampStripIndented(text)
	var out []string
	for _, m := range ampMention().FindAllStringSubmatch(text, -1) {
		ref := ampTrailPunct().ReplaceAllString(m[1], "")
		ref = strings.ReplaceAll(ref, `\*`, "*")
		if strings.HasPrefix(ref, "**/") || strings.Contains(ref, "__dangerous_glob_canary__") {
			continue
		}
		switch ref {
		case "*", "**", "/*", "/**", "", "/":
			continue
		}
		out = append(out, ref)
	}
	return out
}

// ampStripIndented drops indented code blocks: indented lines after a
// blank line or another such line, unless they are list items.
func ampStripIndented(text string) string {
	lines := strings.Split(text, "\n")
	out := lines[:0:0]
	afterBlank, inCode := true, false
	for _, ln := range lines {
		blank := strings.TrimSpace(ln) == ""
		if ampIndented().MatchString(ln) && !ampListItem().MatchString(ln) && (inCode || afterBlank) {
			inCode, afterBlank = true, false
			continue
		}
		inCode, afterBlank = false, blank
		out = append(out, ln)
	}
	return strings.Join(out, "\n")
}

// ampResolve turns a mention into paths: "~/" is $XDG_CONFIG_HOME (Amp's
// configuration directory, not the home directory), "/" the file system
// root, anything else the mentioning file's directory. A glob expands,
// without regard to case and without following symbolic links, to at
// most ampGlobLimit files.
func (l *loader) ampResolve(from, ref string) []string {
	var base, rest string
	switch {
	case strings.HasPrefix(ref, "~/"):
		base, rest = l.env.config, ref[2:]
	case strings.HasPrefix(ref, "/"):
		base, rest = "/", ref[1:]
	default:
		base, rest = filepath.Dir(from), ref
	}
	parts := strings.Split(rest, "/")
	i := 0
	for i < len(parts) && !ampIsGlob(parts[i]) {
		i++
	}
	if i == len(parts) {
		last := parts[len(parts)-1]
		if last == "" {
			return nil
		}
		return []string{filepath.Join(base, filepath.FromSlash(rest))}
	}
	dir := filepath.Join(base, filepath.FromSlash(strings.Join(parts[:i], "/")))
	pattern := strings.ToLower(strings.Join(parts[i:], "/"))
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || len(out) >= ampGlobLimit {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if ok, _ := doublestar.Match(pattern, strings.ToLower(filepath.ToSlash(rel))); ok && d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func ampIsGlob(s string) bool {
	return strings.ContainsAny(s, "*?[{")
}
