// Package memdirtest generates the synthetic memory the benchmarks
// measure: the store's and search's own (go test -bench ./memdir ./search)
// and the whole-process ones of scripts/benchcli gen. Topic i is always
// the same topic, so figures from all of them stay comparable. Nothing in
// the product imports it.
//
// Topics are made of ordinary engineering words so that names and
// descriptions look like real ones to memdir's similarity check; each name
// and description ends with the topic's number, which keeps every topic
// apart from every other (numbers that differ are never the same memory).
package memdirtest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

// words is the vocabulary of generated topics.
var words = strings.Fields(`build cache database migration staging deploy release test
fixture mock integration service queue worker retry timeout config flag rollout
schema index query latency budget owner review branch merge freeze mobile api
client server token rotate secret vault metrics alert pager incident runbook
logging trace span sample backend frontend react router style lint format
module package vendor upgrade pin version docker image cluster node region`)

// sentence is a capitalised sentence of n words drawn from r.
func sentence(r *rand.Rand, n int) string {
	w := make([]string, n)
	for k := range w {
		w[k] = words[r.IntN(len(words))]
	}
	s := strings.Join(w, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// Request is the add of generated topic i: a numbered name, a hook of 6
// to 9 words and a body that makes a topic file of about 350 to 800 bytes.
func Request(i int) memdir.AddRequest {
	r := rand.New(rand.NewPCG(uint64(i), 7))
	var body []string
	for size := 0; size < 100+r.IntN(350); {
		s := sentence(r, 8+r.IntN(10))
		body = append(body, s)
		size += len(s) + 1
	}
	return memdir.AddRequest{
		Type:        typesx.Types[i%len(typesx.Types)],
		Name:        fmt.Sprintf("%s %d", strings.TrimSuffix(sentence(r, 3), "."), i),
		Text:        strings.Join(body, " "),
		Description: fmt.Sprintf("%s (%d)", strings.TrimSuffix(sentence(r, 6+r.IntN(4)), "."), i),
		Why:         sentence(r, 9),
	}
}

// Topic is generated topic i as memdir writes it, created i minutes after
// a moment long before now.
func Topic(i int, now time.Time) *memdir.Topic {
	req := Request(i)
	t := &memdir.Topic{
		Type:        req.Type,
		Name:        req.Name,
		Description: req.Description,
		Created:     now.Add(time.Duration(i-100000) * time.Minute),
		Body:        req.Body(),
	}
	t.Modified = t.Created
	t.File = memdir.FileName(t.Type, t.Name)
	return t
}

// Write fills the memory directory dir with n generated topics and the
// MEMORY.md that indexes them, one line per topic in the order memdir's
// rebuild chooses (past the caps, where rebuild would fit it: the
// benchmarks of an over-cap index rely on that). The files are written
// directly rather than through Add, so that 10,000 topics take seconds,
// not minutes.
func Write(dir string, n int, now time.Time) error {
	metas := make([]index.Meta, n)
	for i := range n {
		t := Topic(i, now)
		data, err := t.Marshal()
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, t.File), data, 0o644); err != nil {
			return err
		}
		metas[i] = index.Meta{Entry: index.Entry{Title: t.Name, File: t.File, Hook: t.Description}, Type: t.Type, Modified: t.Modified}
	}
	ix := index.Rebuild(index.Parse(nil), metas)
	return atomicfile.WriteFile(filepath.Join(dir, memdir.IndexFile), ix.Bytes(), 0o644)
}
