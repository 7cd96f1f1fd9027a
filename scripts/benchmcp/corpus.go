package main

import (
	"math/rand/v2"
	"strings"
)

// memory is one memory of the benchmark corpus; word is held by this
// memory alone.
type memory struct {
	typ, name, text, word string
}

var types = []string{"user", "feedback", "reference", "project"}

// vocabulary is common words of engineering notes: every memory shares
// many of them with many others, as real notes do.
var vocabulary = strings.Fields(`
api build cache client config database deploy docker error event feature file
flag function gateway handler index job kafka latency library log metric
migration module network node owner package pipeline port queue release
request retry review schema script server service session staging storage
stream task team test ticket timeout token topic trace user version worker
always never before after because check keep make prefer run start stop use
write read update remove rename merge split move the a an of to in on for with
from by when while until each every all some most only first last new old
small large fast slow safe careful daily weekly monthly policy rule decision
incident runbook dashboard alert oncall rotation budget deadline freeze
customer billing payment invoice account login signup search report export
import backup restore mobile web desktop frontend backend infra security audit`)

// corpus is n memories, the same for every run.
func corpus(n int) []memory {
	r := rand.New(rand.NewPCG(10, 10000))
	words := func(k int) string {
		out := make([]string, k)
		for i := range out {
			out[i] = vocabulary[r.IntN(len(vocabulary))]
		}
		return strings.Join(out, " ")
	}
	mems := make([]memory, n)
	for i := range mems {
		w := unique(i)
		mems[i] = memory{
			typ:  types[i%len(types)],
			name: words(3) + " " + w,
			text: capitalize(words(12)) + " " + w + ". " + capitalize(words(16)) + ".",
			word: w,
		}
	}
	return mems
}

// unique is the i-th word of the form zqxxxxk: the same length, so none is
// part of another, and ending in k, so no English suffix rule stems two to
// one.
func unique(i int) string {
	b := []byte("zq0000k")
	for k := len(b) - 2; k >= 2; k-- {
		b[k] = byte('a' + i%26)
		i /= 26
	}
	return string(b)
}

func capitalize(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// pick is n memories spread evenly over mems.
func pick(mems []memory, n int) []memory {
	out := make([]memory, 0, n)
	for i := range n {
		out = append(out, mems[i*len(mems)/n])
	}
	return out
}

// slug is a memory's name as memdir spells it in a file name.
func slug(name string) string { return strings.ReplaceAll(name, " ", "_") }
