package instructions

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// oracleMax bounds the inputs the slower oracles run on; longer inputs
// only get the checks that need no oracle.
const oracleMax = 128

// FuzzClaudeImports checks FindClaudeImports against what must hold
// whatever markdown it is given: each import's "@" is at its offset and
// the path, with its spaces escaped again, is the text that follows it;
// nothing inside a fenced block, an indented block or a code span built
// around the input is an import; and on text with no markdown beyond
// paragraphs and headings it finds exactly what Claude Code's expression
// finds over the whole text.
func FuzzClaudeImports(f *testing.F) {
	for _, s := range []string{
		"See @docs/a.md and @./b.md#sec, @my\\ file.md", "`@x.md` @y.md", "```\n@f.md\n```\n@g.md",
		"    @indented.md\n\n@h.md", "*@e_f.md* a@b.md", "# @head.md\n@/abs @/ @@x @#frag",
		"~~~\n@in.md\n~~~~\n@out.md", "<!-- @c.md -->\n@d.md", "- @~/home.md\n> @nodot", "@\\ a @a\\",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkClaudeOffsets(t, src, FindClaudeImports(src))
		if len(src) > oracleMax {
			return
		}
		if doc := codeAround(string(src)); len(FindClaudeImports([]byte(doc))) > 0 {
			t.Fatalf("an import inside the code of %q", doc)
		}
		plain := plainMarkdown(src)
		got := FindClaudeImports([]byte(plain))
		checkClaudeOffsets(t, []byte(plain), got)
		if want := claudeOracle(plain); !slices.Equal(got, want) {
			t.Fatalf("FindClaudeImports(%q) = %+v, Claude's expression finds %+v", plain, got, want)
		}
	})
}

// codeAround puts s inside a fenced block, then an indented block, then
// (when s is one line) a code span, with fences and backtick runs longer
// than any in s: one document, so one parse checks all three.
func codeAround(s string) string {
	fence := strings.Repeat("~", maxRun(s, '~')+3)
	lines := strings.Split(strings.ReplaceAll(s, "\r", "\n"), "\n")
	doc := fence + "\n" + s + "\n" + fence + "\n\n    " + strings.Join(lines, "\n    ") + "\n\n"
	if !strings.ContainsAny(s, "\r\n") {
		ticks := strings.Repeat("`", maxRun(s, '`')+1)
		doc += "x " + ticks + " " + s + " " + ticks + "\n"
	}
	return doc
}

// checkClaudeOffsets checks that every import is the text at its offset.
func checkClaudeOffsets(t *testing.T, src []byte, ims []Import) {
	t.Helper()
	prev := -1
	for _, im := range ims {
		if im.Offset <= prev || im.Offset >= len(src) || src[im.Offset] != '@' {
			t.Fatalf("%q: import %q at offset %d (previous %d) is not at an @", src, im.Path, im.Offset, prev)
		}
		prev = im.Offset
		if im.Offset > 0 && isAlnum(src[im.Offset-1]) {
			t.Fatalf("%q: import %q at %d follows a letter or digit", src, im.Path, im.Offset)
		}
		if im.Path == "" || strings.ContainsAny(im.Path, "#\n\r\t") {
			t.Fatalf("%q: bad path %q", src, im.Path)
		}
		if written := strings.ReplaceAll(im.Path, " ", `\ `); !bytes.HasPrefix(src[im.Offset+1:], []byte(written)) {
			t.Fatalf("%q: path %q is not the text after the @ at %d", src, im.Path, im.Offset)
		}
	}
}

// plainMarkdown maps bytes onto a,b,".","/","@","#",space and newline with
// no line starting with a space: paragraphs and ATX headings only, whose
// text is the source minus heading markers.
func plainMarkdown(src []byte) string {
	const alphabet = "ab./@# \n"
	out := make([]byte, len(src))
	for i, c := range src {
		out[i] = alphabet[int(c)%len(alphabet)]
		if out[i] == ' ' && (i == 0 || out[i-1] == '\n') {
			out[i] = 'a'
		}
	}
	return string(out)
}

var claudeExpr = regexp.MustCompile(`(?:^|\s)@((?:[^\s\\]|\\ )+)`)

// claudeOracle runs Claude Code's import expression over the whole of a
// plainMarkdown text, with its path rules as they apply to that alphabet:
// a "#fragment" goes, and what is left must not be empty, "/" or start
// with "@".
func claudeOracle(s string) []Import {
	var out []Import
	for _, m := range claudeExpr.FindAllStringSubmatchIndex(s, -1) {
		p, _, _ := strings.Cut(s[m[2]:m[3]], "#")
		if p != "" && p != "/" && p[0] != '@' {
			out = append(out, Import{Path: p, Offset: m[2] - 1})
		}
	}
	return out
}

// FuzzGeminiImports checks FindGeminiImports against Gemini CLI's rule
// written as one regular expression, and geminiCodeRegions against a
// backtracking reading of its /(`+)([\s\S]*?)\1/g: only backtick runs make
// code, so a fence of tildes or an indented line is not code.
func FuzzGeminiImports(f *testing.F) {
	for _, s := range []string{
		"@./a.md @b.md @1.md @@c @", "x@y.md\t@/abs\r\n@nodot", "`@code.md` @out.md",
		"``a`b``@x ```", "~~~\n@in.md\n~~~", "    @indented.md", "`open @a.md", "```\n@f.md\n```",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := FindGeminiImports(s)
		if want := geminiOracle(s); !slices.Equal(got, want) {
			t.Fatalf("FindGeminiImports(%q) = %+v, want %+v", s, got, want)
		}
		regions := geminiCodeRegions(s)
		if len(s) > oracleMax {
			return
		}
		if want := jsCodeRegions(s); !slices.Equal(regions, want) {
			t.Fatalf("geminiCodeRegions(%q) = %v, the expression gives %v", s, regions, want)
		}
		if strings.IndexByte(s, '`') < 0 && len(regions) > 0 {
			t.Fatalf("code regions %v without a backtick in %q", regions, s)
		}
	})
}

var geminiExpr = regexp.MustCompile(`(?:^|[ \t\r\n])@([./A-Za-z][^ \t\r\n]*)`)

func geminiOracle(s string) []Import {
	var out []Import
	for _, m := range geminiExpr.FindAllStringSubmatchIndex(s, -1) {
		out = append(out, Import{Path: s[m[2]:m[3]], Offset: m[2] - 1})
	}
	return out
}

// jsCodeRegions is /(`+)([\s\S]*?)\1/g as a backtracking engine runs it:
// at each start, the longest run of backticks first, then shorter ones;
// for each, the nearest equal run after it; the next search starts where
// a match ended.
func jsCodeRegions(s string) [][2]int {
	var out [][2]int
	for p := 0; p < len(s); p++ {
		n := 0
		for p+n < len(s) && s[p+n] == '`' {
			n++
		}
	runs:
		for k := n; k >= 1; k-- {
			for e := p + k; e+k <= len(s); e++ {
				if strings.Count(s[e:e+k], "`") == k {
					out = append(out, [2]int{p, e + k})
					p = e + k - 1
					break runs
				}
			}
		}
	}
	return out
}

func maxRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// FuzzPlainImports checks FindImports' short way round the parser: on
// text plainText accepts, the imports of the whole text taken as one run
// are exactly those the parsed text gives.
func FuzzPlainImports(f *testing.F) {
	for _, s := range []string{
		"# Project\n\n- rule 1: keep it short.\n\nArchitecture: @docs/architecture.md\nTesting: @docs/testing.md\n",
		"See @../docs/api.md, then @a.md.", "# @head.md #\n@x.md\n===\n", "1. @one.md\n2) @two.md\n   @three.md\n",
		"- - -\n@x.md\n---\n+ @y.md", "para\n   @x.md  \nnext @z.md", "@a.md\n\n  - @b.md\n\n    @c.md", "a@b.md @c@d.md @.md @./",
		"#@no.md\n-@no.md\n1.@no.md", "\u00a0@nbsp.md \u3000@ideo.md", "@x.md#\n## @y.md ##  \n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if !plainText(src) {
			return
		}
		if got, want := importsIn(src, 0, len(src)), findImportsParsed(src); !slices.Equal(got, want) {
			t.Fatalf("FindImports(%q): whole text %+v, parsed %+v", src, got, want)
		}
	})
}

func TestPlainText(t *testing.T) {
	if !plainText([]byte("# Project\n\n- rule: short.\n  more @docs/a.md\n")) {
		t.Error("plain markdown refused")
	}
	for _, s := range []string{"`@a.md`", "~~~\n@a.md\n~~~", "<!-- @a.md -->", "> @a.md", "[@a.md]: x", "*@a.md*",
		"_@a.md_", "\\@a.md", "&amp;@a.md", "a\r\n@b.md", "\t@a.md", "x\n    @a.md", "a\f@b.md", "a|b"} {
		if plainText([]byte(s)) {
			t.Errorf("plainText(%q) = true", s)
		}
	}
}

// TestPlainImportsAgree runs FuzzPlainImports' check over documents built
// from the pieces plain markdown is made of (list and heading markers,
// setext lines, spaces, "@" paths), which random bytes rarely hit.
func TestPlainImportsAgree(t *testing.T) {
	pieces := []string{"@", "@a.md", "@./b.md", "@../c/d.md", "x", "a@b", ".", "/", " ", "  ", "   ", "\n", "\n\n",
		"# ", "## ", "#", "- ", "+ ", "1. ", "2) ", "-", "=", "===", "---", "- - -", ":", "!", "(", ")", "\"", "'", "\u00a0", "é"}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 30000; n++ {
		var b strings.Builder
		for k := rng.IntN(24); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		src := []byte(b.String())
		if !plainText(src) {
			continue
		}
		if got, want := importsIn(src, 0, len(src)), findImportsParsed(src); !slices.Equal(got, want) {
			t.Fatalf("FindImports(%q): whole text %+v, parsed %+v", src, got, want)
		}
	}
}
