package dream

import (
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/reldate"
	"github.com/memdir/memdir/secrets"
	"github.com/memdir/memdir/typesx"
)

// work is one topic as the built-in distiller changes it.
type work struct {
	t     *memdir.Topic
	words bag // of name and description, for matching
	name  bag // of the name: the subject of every fact
	paras []string
	refs  []*fact // each paragraph, as indexed for routing
	// facts holds the terms of each paragraph once an entry is merged
	// into the topic (factTerms); nil until then.
	facts   []memdir.Terms
	changed bool
	created bool
	expired bool
	stamp   bool // set created and modified to now when the bytes change
}

func newWork(t *memdir.Topic, now time.Time) *work {
	w := &work{t: t, words: bagOf(memdir.TermsOf(t.Name + " " + t.Description)), expired: t.Type == typesx.Project && t.Expired(now)}
	w.name = bagOf(memdir.TermsOf(t.Name))
	for _, p := range paragraphs(t.Body) {
		w.paras = append(w.paras, p)
		w.refs = append(w.refs, newFact(w, p))
	}
	return w
}

// factTerms returns the terms of each paragraph, made from the facts'
// bags the first time and kept up to date from then on: a topic that
// takes one entry is likely to take more.
func (w *work) factTerms() []memdir.Terms {
	if w.facts == nil {
		w.facts = make([]memdir.Terms, len(w.refs))
		for i, f := range w.refs {
			w.facts[i] = f.terms.terms()
		}
	}
	return w.facts
}

// builtin is the deterministic distiller.
type builtin struct {
	now      time.Time
	works    []*work
	byName   map[string]*work
	postings map[typesx.Type]map[string][]*work
	facts    map[typesx.Type]*factIndex
	files    map[string]bool
	rep      *Report
	// busy holds topic files that kept changing while this dream ran:
	// entries bound for them wait for the next dream (deferred).
	busy     map[string]bool
	deferred map[string]bool // entry IDs
}

func nameKey(t typesx.Type, name string) string { return string(t) + "\x00" + strings.ToLower(name) }

func newBuiltin(s *snapshot, now time.Time, rep *Report) *builtin {
	b := &builtin{now: now, byName: map[string]*work{}, postings: map[typesx.Type]map[string][]*work{}, facts: map[typesx.Type]*factIndex{}, files: map[string]bool{}, rep: rep, deferred: map[string]bool{}}
	for _, f := range append(append([]string(nil), s.broken...), s.conflict...) {
		b.files[f] = true // a new topic takes another name
	}
	for _, t := range s.topics {
		b.track(newWork(t, now))
	}
	return b
}

// track adds a topic to the lookups (expired topics take no new facts).
func (b *builtin) track(w *work) {
	b.works = append(b.works, w)
	b.files[w.t.File] = true
	if w.expired {
		return
	}
	b.byName[nameKey(w.t.Type, w.t.Name)] = w
	if b.postings[w.t.Type] == nil {
		b.postings[w.t.Type] = map[string][]*work{}
	}
	w.words.each(func(word string, _ int) {
		b.postings[w.t.Type][word] = append(b.postings[w.t.Type][word], w)
	})
	for _, f := range w.refs {
		b.index(f)
	}
}

// index makes a fact findable by content.
func (b *builtin) index(f *fact) {
	if b.facts[f.w.t.Type] == nil {
		b.facts[f.w.t.Type] = &factIndex{}
	}
	b.facts[f.w.t.Type].add(f)
}

// target finds the topic an entry belongs to, of its type: the one
// holding a fact the entry restates (see match.go), else the one of the
// same name, else the one whose name and description are most like the
// entry's name and first sentence.
func (b *builtin) target(typ typesx.Type, name, title, text string) *work {
	if w := b.sameFactTopic(typ, title, text); w != nil {
		return w
	}
	if w := b.byName[nameKey(typ, name)]; w != nil {
		return w
	}
	return b.nearestByWords(typ, memdir.TermsOf(name+" "+memdir.Describe(text)))
}

// add distills one entry.
func (b *builtin) add(e Entry) {
	ref := entryRef(e)
	if found := secrets.Scan(e.Title + "\n" + e.Text); len(found) > 0 {
		b.rep.Skipped = append(b.rep.Skipped, Skipped{Entry: ref, Reason: "looks like a " + found[0].Kind + " (" + found[0].Redacted + "); secrets never go into memory"})
		return
	}
	at := entryTime(e, b.now.Location())
	title := b.rewrite(ref, e.Title, at)
	text := tidyText(strings.TrimSpace(b.rewrite(ref, e.Text, at)))
	if text == "" {
		text = title
	}
	typ := e.Type
	if typ == "" {
		var rule string
		typ, rule = classify(title, text)
		b.rep.Typed = append(b.rep.Typed, Typed{Entry: ref, Type: string(typ), Rule: rule})
	}
	name := cleanName(title)
	if title == "" {
		name = deriveName(text)
	}
	w := b.target(typ, name, title, text)
	if w != nil && b.busy[w.t.File] {
		b.deferred[e.ID] = true
		b.rep.Problems = append(b.rep.Problems, ref+" waits for the next dream: "+w.t.File+" kept changing while dreaming")
		return
	}
	if w == nil || len(w.t.Body)+len(text) > memdir.MaxBodyBytes-2 {
		b.create(typ, name, text, at)
		return
	}
	b.merge(w, ref, title, text, at)
}

// rewrite makes the relative dates in s absolute against the entry's day.
func (b *builtin) rewrite(ref, s string, at time.Time) string {
	out, changes := reldate.Rewrite(s, at)
	for _, c := range changes {
		b.rep.Dates = append(b.rep.Dates, DateChange{Entry: ref, From: c.From, To: c.To})
	}
	return out
}

// create starts a new topic for an entry.
func (b *builtin) create(typ typesx.Type, name, text string, at time.Time) {
	if w := b.byName[nameKey(typ, name)]; w != nil {
		name = continuedName(name)
	}
	t := &memdir.Topic{Name: name, Description: memdir.Describe(text), Type: typ, Created: at, Modified: at, Body: text}
	if t.Description == "" {
		t.Description = name
	}
	t.File = b.freeName(typ, name)
	w := newWork(t, b.now)
	w.changed, w.created, w.expired = true, true, false
	b.track(w)
}

// continuedName names the topic that takes over from a full one.
func continuedName(name string) string {
	const mark = " (continued)"
	if strings.HasSuffix(name, mark) {
		return name + " 2"
	}
	return name + mark
}

func (b *builtin) freeName(typ typesx.Type, name string) string {
	base := strings.TrimSuffix(memdir.FileName(typ, name), ".md")
	file := base + ".md"
	for n := 2; b.files[file]; n++ {
		file = base + "_" + itoa(n) + ".md"
	}
	return file
}

// merge folds an entry into a topic: a fact it replaces goes (a value it
// updates, or a fact it restates and adds to), an exact or near duplicate
// is dropped, anything else is appended.
func (b *builtin) merge(w *work, ref, title, text string, at time.Time) {
	if strings.Contains(squash(w.t.Body), squash(text)) {
		b.rep.Duplicates = append(b.rep.Duplicates, Duplicate{Entry: ref, Topic: w.t.File, Kind: "exact", Text: short(text, 120)})
		return
	}
	fact := factText(w.t.Name, title, text)
	terms := memdir.TermsOf(fact)
	i := supersedes(fact, w.factTerms(), w.paras, title, w.t.Name)
	if i < 0 {
		j, replaces := w.sameFact(terms, memdir.TermsOf(text))
		if j >= 0 && !replaces {
			b.rep.Duplicates = append(b.rep.Duplicates, Duplicate{Entry: ref, Topic: w.t.File, Kind: "near", Text: short(text, 120)})
			return
		}
		i = j
	}
	if i >= 0 {
		old := w.paras[i]
		b.rep.Replaced = append(b.rep.Replaced, Replacement{Topic: w.t.File, Old: short(old, 120), New: short(fact, 120), Entry: ref})
		if w.t.Description == memdir.Describe(old) {
			w.t.Description = memdir.Describe(fact)
		}
		w.refs[i].gone = true
		w.paras = slices.Delete(w.paras, i, i+1)
		w.facts = slices.Delete(w.facts, i, i+1)
		w.refs = slices.Delete(w.refs, i, i+1)
	}
	b.appendFact(w, fact, at)
}

// factText is how an entry is written into a topic: its text, after its
// title when the title says what the text leaves out and is not the
// topic's name ("keep PRs small: at most 400 changed lines" in "Pull
// request size").
func factText(topicName, title, text string) string {
	if title == "" || strings.EqualFold(cleanName(title), topicName) || containsAll(memdir.TermsOf(text), memdir.TermsOf(title)) {
		return text
	}
	return title + ": " + text
}

func (b *builtin) appendFact(w *work, text string, at time.Time) {
	f := newFact(w, text)
	w.paras = append(w.paras, text)
	if w.facts != nil {
		w.facts = append(w.facts, f.terms.terms())
	}
	w.refs = append(w.refs, f)
	b.index(f)
	w.t.Body = strings.Join(w.paras, "\n\n")
	if at.After(w.t.Modified) {
		w.t.Modified = at
	}
	w.changed = true
}

// result returns the topics after distilling: every topic, and which of
// them changed. The terms that matched entries to them are let go: the
// plan needs none, and they are most of a dream's memory.
func (b *builtin) result() []*work {
	b.postings, b.facts, b.byName = nil, nil, nil
	for _, w := range b.works {
		w.words, w.name, w.facts, w.refs = nil, nil, nil, nil
	}
	return b.works
}

// distilled returns the entries the result holds: all but the deferred.
func (b *builtin) distilled(entries []Entry) []Entry {
	if len(b.deferred) == 0 {
		return entries
	}
	var out []Entry
	for _, e := range entries {
		if !b.deferred[e.ID] {
			out = append(out, e)
		}
	}
	return out
}

// entryTime is when an entry was written: its day and time in loc, or the
// start of its day when it has no time.
func entryTime(e Entry, loc *time.Location) time.Time {
	tm := e.Time
	switch len(tm) {
	case 0:
		tm = "00:00:00"
	case 5:
		tm += ":00"
	}
	t, err := time.ParseInLocation("2006-01-02 15:04:05", e.Date+" "+tm, loc)
	if err != nil {
		d, derr := time.ParseInLocation("2006-01-02", e.Date, loc)
		if derr != nil {
			return time.Time{}
		}
		return d
	}
	return t
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	for ; n > 0; n /= 10 {
		i--
		buf[i] = byte('0' + n%10)
	}
	return string(buf[i:])
}
