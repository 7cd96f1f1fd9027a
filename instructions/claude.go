package instructions

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf16"
)

// claudeTextExts are the extensions Claude Code 2.1 imports (its mpp set);
// a file with another extension is skipped, one with none is read.
var claudeTextExts = sync.OnceValue(func() map[string]bool {
	exts := map[string]bool{}
	for _, e := range strings.Fields(`.md .txt .text .json .yaml .yml .toml .xml .csv .html .htm .css .scss .sass
		.less .js .ts .tsx .jsx .mjs .cjs .mts .cts .py .pyi .pyw .rb .erb .rake .go .rs .java .kt .kts .scala .c
		.cpp .cc .cxx .h .hpp .hxx .cs .swift .sh .bash .zsh .fish .ps1 .bat .cmd .env .ini .cfg .conf .config
		.properties .sql .graphql .gql .proto .vue .svelte .astro .ejs .hbs .pug .jade .php .pl .pm .lua .r
		.dart .ex .exs .erl .hrl .clj .cljs .cljc .edn .hs .lhs .elm .ml .mli .f .f90 .f95 .for .cmake .make
		.makefile .gradle .sbt .rst .adoc .asciidoc .org .tex .latex .lock .log .diff .patch`) {
		exts[e] = true
	}
	return exts
})

// ClaudeLargeFile is the size, in UTF-16 code units, above which Claude Code
// warns that an instruction file "will impact performance": the larger of
// 40,000 and 5% of the context window in tokens times 4 characters, which
// is 40,000 for the default 200,000-token window memdir assumes.
const ClaudeLargeFile = 40000

// largeFileNotes returns Claude Code's warning for each loaded file over
// ClaudeLargeFile, as its /doctor words it.
func largeFileNotes(files []File) []string {
	var out []string
	for _, f := range files {
		if !f.Loaded() {
			continue
		}
		if n := len(utf16.Encode([]rune(f.Content))); n > ClaudeLargeFile {
			out = append(out, fmt.Sprintf("%s: Large CLAUDE.md file detected (%s chars > %s)", f.Path, thousands(n), thousands(ClaudeLargeFile)))
		}
	}
	return out
}

// thousands formats n as JavaScript's toLocaleString does in English.
func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
