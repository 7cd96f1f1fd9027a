package dream

import (
	"strings"
	"unicode"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

// One fact once. Paraphrases of a fact come with other titles ("Integration
// tests", "Integration test database"), so an entry is matched against the
// facts of every topic of its type by content, with memdir's one
// similarity measure (memdir.Compare, SameFact): an entry that says what
// a fact says goes to that fact's topic, where merge drops it, or lets it
// replace the fact when it says all of it and more ("keep PRs small: at
// most 400 changed lines" after "Keep pull requests small").
//
// Routing compares each side with its title (the entry's, the topic's
// name), since a fact leans on the title it was filed under; merge then
// compares the facts as they are written.

// fact is one paragraph of a topic, with its terms. Its full terms, of
// the topic's name and the paragraph (union), are made only when an entry
// is compared with it.
type fact struct {
	w     *work
	terms bag  // of the paragraph
	gone  bool // replaced or dropped since it was indexed
}

func newFact(w *work, para string) *fact {
	return &fact{w: w, terms: bagOf(memdir.TermsOf(para))}
}

// fullCount is how often the fact's full terms hold t.
func (f *fact) fullCount(t string) int { return max(f.terms.count(t), f.w.name.count(t)) }

// eachFull calls fn for every distinct term of the fact's full terms.
func (f *fact) eachFull(fn func(t string)) {
	f.terms.each(func(t string, _ int) { fn(t) })
	f.w.name.each(func(t string, _ int) {
		if f.terms.count(t) == 0 {
			fn(t)
		}
	})
}

// union is the bag of terms in a or b, each as often as the one that has
// it more: a fact that repeats its title's words says them once more, not
// twice.
func union(a, b memdir.Terms) memdir.Terms {
	out := make(memdir.Terms, len(a)+len(b))
	for _, bag := range []memdir.Terms{a, b} {
		for t, n := range bag {
			out[t] = max(out[t], n)
		}
	}
	return out
}

// factIndex finds the facts of one type that may say what an entry says.
// A fact with numbers matches only an entry with the same numbers or
// none, so facts with numbers are found by their numbers when the entry
// has some: a year of "service 12 answers in 60 ms" stays cheap.
type factIndex struct {
	plain   map[string][]*fact // term -> facts without numbers
	numbers map[string][]*fact // term -> facts with numbers
	byNum   map[string][]*fact // number -> facts holding it
	hits    map[*fact]hit      // candidates' scratch, reused
}

func (x *factIndex) add(f *fact) {
	if x.plain == nil {
		x.plain, x.numbers, x.byNum = map[string][]*fact{}, map[string][]*fact{}, map[string][]*fact{}
	}
	var nums, words []string
	f.eachFull(func(t string) {
		if hasDigit(t) {
			nums = append(nums, t)
		} else {
			words = append(words, t)
		}
	})
	to := x.plain
	if len(nums) > 0 {
		to = x.numbers
		for _, n := range nums {
			x.byNum[n] = append(x.byNum[n], f)
		}
	}
	for _, t := range words {
		to[t] = append(to[t], f)
	}
}

// minShared is the fewest terms a candidate fact shares with an entry
// (memdir.Score.SameFact asks for at least as many).
const minShared = 3

func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

// sameFactTopic returns the topic of type typ holding the fact most like
// an entry, or nil: the entry's text is compared with the fact's, and its
// title and text with the topic's name and the fact.
func (b *builtin) sameFactTopic(typ typesx.Type, title, text string) *work {
	tt := memdir.TermsOf(text)
	return b.sameFactTerms(typ, union(memdir.TermsOf(title), tt), tt)
}

func (b *builtin) sameFactTerms(typ typesx.Type, full, text memdir.Terms) *work {
	x := b.facts[typ]
	if x == nil {
		return nil
	}
	var best *fact
	var bestScore memdir.Score
	for _, f := range x.candidates(full, text.Len()) {
		if f.w.expired {
			continue
		}
		fterms, name := f.terms.terms(), f.w.name.terms()
		ffull := union(name, fterms)
		if !restates(full, ffull, name) && !restates(text, fterms, name) {
			continue
		}
		s := memdir.Compare(full, ffull)
		if t := memdir.Compare(text, fterms); better(t, s) {
			s = t
		}
		if best == nil || better(s, bestScore) || s == bestScore && f.w.t.File < best.w.t.File {
			best, bestScore = f, s
		}
	}
	if best == nil {
		return nil
	}
	return best.w
}

// better reports whether a is the closer match; a same fact beats any
// other.
func better(a, b memdir.Score) bool {
	if a.SameFact() != b.SameFact() {
		return a.SameFact()
	}
	if a.Containment != b.Containment {
		return a.Containment > b.Containment
	}
	return a.Shared > b.Shared
}

// sameFact returns the index of the topic's fact that says what a new
// fact says, compared as written (fact, which may carry the entry's
// title) and as its text alone, and whether the new fact replaces it: it
// says all of it and its text adds at least two terms of its own ("keep
// PRs small: at most 400 changed lines" after "Keep pull requests
// small"); a restatement that adds a word or two is dropped instead. It
// returns -1 when no fact is the same.
func (w *work) sameFact(fact, text memdir.Terms) (int, bool) {
	name := w.name.terms()
	for i, f := range w.factTerms() {
		for _, terms := range []memdir.Terms{fact, text} {
			if restates(f, terms, name) {
				return i, containsAll(fact, f) && adds(text, f) >= 2
			}
		}
	}
	return -1, false
}

// restates reports whether two facts about a subject (the terms of their
// topic's name) say the same thing. Words they share only because they
// are about one subject, and numbers they share, are no evidence of it:
// "Release notes are due 2026-11-19" and "The release went out
// 2026-11-19" share the release and a date (four terms: a date is three)
// and are two facts. So, beyond memdir's SameFact on the facts as they
// are:
//
//   - the facts must still be the same fact with all their numbers
//     counted as one term (agreeing numbers are one piece of evidence;
//     numbers that differ are a conflict already), and
//   - what each says beyond its subject and its numbers (its predicate:
//     "notes are due", "went out") must agree: more than half of the
//     smaller predicate's terms are in the other, so a short restatement
//     inside a longer fact still matches. When both facts hold numbers,
//     more than half of the larger one's: a date or an amount anchors an
//     event, and "the review is on 2026-12-04" and "the slides for the
//     review are due 2026-12-04" are two events on one day.
//
// A fact whose predicate is empty ("Release: next week") says nothing the
// other does not, unless both hold numbers. Measured on testdata/dedup
// (TestOneFactOnce; nearmiss.txt holds facts that share a subject and a
// date).
func restates(a, b, subject memdir.Terms) bool {
	na, nb := oneNumber(a), oneNumber(b)
	if !memdir.Compare(a, b).SameFact() || !memdir.Compare(na, nb).SameFact() {
		return false
	}
	pa, pb := predicate(a, subject), predicate(b, subject)
	n := min(pa.Len(), pb.Len())
	if na[numberTerm] > 0 && nb[numberTerm] > 0 {
		n = max(pa.Len(), pb.Len())
	}
	return n == 0 || 2*memdir.Compare(pa, pb).Shared > n
}

// numberTerm stands for all of a fact's numbers in oneNumber.
const numberTerm = "#"

// oneNumber is t with its terms holding digits counted as one term.
func oneNumber(t memdir.Terms) memdir.Terms {
	out := make(memdir.Terms, len(t))
	for k, n := range t {
		if hasDigit(k) {
			out[numberTerm] = 1
		} else {
			out[k] = n
		}
	}
	return out
}

// predicate is t without its numbers and the terms of its subject.
func predicate(t, subject memdir.Terms) memdir.Terms {
	out := make(memdir.Terms, len(t))
	for k, n := range t {
		if !hasDigit(k) && subject[k] == 0 {
			out[k] = n
		}
	}
	return out
}

// adds counts the terms of text that old lacks.
func adds(text, old memdir.Terms) int {
	n := 0
	for t := range text {
		if old[t] == 0 {
			n++
		}
	}
	return n
}
