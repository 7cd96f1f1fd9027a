package search

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memdir"
)

// Per-prompt recall: before an agent answers a prompt, the few memories
// most relevant to it that the session has not seen, within a small
// budget, and nothing at all for a prompt that says too little ("hi",
// "run the tests"). The floor: a prompt of at least minPromptWords words
// that are not stop or question words, and a memory holding at least
// minMatched of them (all of them when the prompt has fewer), so one
// common word never brings a memory in.
const (
	DefaultPromptBudget = 1000
	maxPromptHits       = 3
	minPromptWords      = 3
	minMatched          = 2
	promptCandidates    = 6
	// promptWords is how many of a long prompt's words recall searches
	// when its words are common (see rarest): at least need, so a memory
	// that holds need of them clears the floor.
	promptWords = 5
	// Sessions and the files each has been given are derived state,
	// bounded: the oldest sessions go first, a session keeps its last
	// maxSessionFiles.
	PromptStateDir  = memdir.StateDir + "/recall"
	maxSessions     = 64
	maxSessionFiles = 256
)

// PromptHeader is the first line of what per-prompt recall adds.
const PromptHeader = "Memories that may bear on this prompt (memdir; `memdir show FILE` prints one whole):"

// PromptOptions are the knobs of per-prompt recall.
type PromptOptions struct {
	// Budget is the most characters the text may take, header included:
	// DefaultPromptBudget when 0.
	Budget int
	// Loaded reports the files the agent already has (the part of
	// MEMORY.md it loaded names them); nil for none.
	Loaded func(file string) bool
	// Session identifies the agent's session: a memory is given to a
	// session once. "" keeps no record.
	Session string
}

// ForPrompt returns the text per-prompt recall adds to prompt ("" for
// nothing) and the hits it holds. Private topics are never given.
func (ix *Index) ForPrompt(ctx context.Context, prompt string, o PromptOptions) (string, []Hit, error) {
	if o.Budget <= 0 {
		o.Budget = DefaultPromptBudget
	}
	pq, err := parseTyped(prompt, false, ix.now())
	if err != nil {
		return "", nil, nil // nothing to search for in it: nothing to add
	}
	n := contentWords(pq.root)
	if n < minPromptWords {
		return "", nil, nil
	}
	seen, known := ix.sessionFiles(o.Session)
	need := float64(min(n, max(minMatched, min(3, (n+1)/2))))
	// Only the memories recall may give are read for their hits, and no
	// more than it gives.
	admit := func(h Hit, admitted int) bool {
		return admitted < maxPromptHits && !h.Private && h.Coverage*float64(n)+1e-9 >= need &&
			!slices.Contains(seen, h.File) && !(o.Loaded != nil && h.Kind == kindTopic && o.Loaded(h.File))
	}
	hits, err := ix.Search(ctx, Query{Text: prompt, Limit: promptCandidates, NoRecall: true, DirsOnly: true,
		Rarest: promptWords, admit: admit})
	if err != nil {
		return "", nil, err
	}
	var out []Hit
	text := PromptHeader
	for _, h := range hits {
		line := PromptLine(h)
		if len(text)+1+len(line) > o.Budget {
			break
		}
		text += "\n" + line
		out = append(out, h)
	}
	if len(out) == 0 {
		return "", nil, nil
	}
	ix.rememberGiven(o.Session, seen, out, !known)
	return text, out, nil
}

// PromptLine is one memory as per-prompt recall gives it: the file (and
// entry of a log), the name, and the description or the snippet.
func PromptLine(h Hit) string {
	file := h.File
	if h.Kind == kindLog {
		file = fmt.Sprintf("%s#%d", h.File, h.Entry)
	}
	about := h.Description
	if about == "" || h.Kind == kindLog {
		about = strings.ReplaceAll(h.Snippet, "**", "")
	}
	return TrimSnippet(fmt.Sprintf("- %s (%s): %s", strings.Join(strings.Fields(h.Name), " "), file, about), 300)
}

// contentWords counts the words of a query that are not stop words: a
// period and a compound count once.
func contentWords(n *node) int {
	switch {
	case n.kind == nNot:
		return 0
	case n.kind == nTerm:
		if n.isStop {
			return 0
		}
		return 1
	case n.kind == nPrefix || n.kind == nPhrase || n.alt:
		return 1
	}
	c := 0
	for _, k := range n.kids {
		c += contentWords(k)
	}
	return c
}

// sessionFile is where a session's given files are listed.
func sessionFile(session string) string {
	sum := sha256.Sum256([]byte(session))
	return PromptStateDir + "/" + hex.EncodeToString(sum[:12])
}

// sessionFiles lists the files a session was given, and whether the
// session has a list.
func (ix *Index) sessionFiles(session string) ([]string, bool) {
	if session == "" {
		return nil, false
	}
	data, err := atomicfile.ReadInside(ix.dir.Path, sessionFile(session))
	if err != nil || len(data) > 64<<10 {
		return nil, err == nil
	}
	return strings.Fields(string(data)), true
}

// rememberGiven adds the hits to the session's list and, when the
// session is new, drops the oldest sessions past maxSessions. Failing to
// record is no failure of recall.
func (ix *Index) rememberGiven(session string, seen []string, hits []Hit, isNew bool) {
	if session == "" {
		return
	}
	for _, h := range hits {
		seen = append(seen, h.File)
	}
	seen = seen[max(0, len(seen)-maxSessionFiles):]
	if atomicfile.MkdirAllInside(ix.dir.Path, PromptStateDir, 0o755) != nil {
		return
	}
	_ = atomicfile.WriteInside(ix.dir.Path, sessionFile(session), []byte(strings.Join(seen, "\n")+"\n"), atomicfile.Options{Perm: 0o644})
	if !isNew {
		return // no more sessions than before
	}
	ents, err := os.ReadDir(filepath.Join(ix.dir.Path, filepath.FromSlash(PromptStateDir)))
	if err != nil || len(ents) <= maxSessions {
		return
	}
	type aged struct {
		name string
		mod  int64
	}
	var all []aged
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && e.Type().IsRegular() {
			all = append(all, aged{e.Name(), fi.ModTime().UnixNano()})
		}
	}
	slices.SortFunc(all, func(a, b aged) int { return cmp.Compare(a.mod, b.mod) })
	for _, a := range all[:max(0, len(all)-maxSessions)] {
		_ = os.Remove(filepath.Join(ix.dir.Path, filepath.FromSlash(PromptStateDir), a.name))
	}
}

// brief is what the index alone says of a ranked memory, for
// Query.admit: its file, kind, privacy and coverage. The file's name
// points into the index's bytes.
func (ix *Index) brief(v *view, r ranked) Hit {
	s, x := v.at(r.g)
	h := s.head(x)
	kind := kindTopic
	if s.srcKind(int(h.src)) == srcLog {
		kind = kindLog
	}
	return Hit{File: s.srcPath(int(h.src)), Kind: kind, Private: h.private, Coverage: r.cover}
}
