package main

import (
	"flag"
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

// words is the vocabulary of generated topics: ordinary engineering words,
// so names and hooks look like real ones to the similarity check.
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

// topic is generated topic i: a numbered name (numbers keep topics apart
// in the similarity check), a hook of 6 to 9 words and a body that makes
// a file of about 350 to 800 bytes.
func topic(i int, now time.Time) *memdir.Topic {
	r := rand.New(rand.NewPCG(uint64(i), 7))
	var body []string
	for size := 0; size < 100+r.IntN(350); {
		s := sentence(r, 8+r.IntN(10))
		body = append(body, s)
		size += len(s) + 1
	}
	t := &memdir.Topic{
		Type:        typesx.Types[i%len(typesx.Types)],
		Name:        fmt.Sprintf("%s %d", strings.TrimSuffix(sentence(r, 3), "."), i),
		Description: fmt.Sprintf("%s (%d)", strings.TrimSuffix(sentence(r, 6+r.IntN(4)), "."), i),
		Created:     now.Add(time.Duration(i-100000) * time.Minute),
		Body:        strings.Join(body, " ") + "\n\n**Why:** " + sentence(r, 9),
	}
	t.Modified = t.Created
	t.File = memdir.FileName(t.Type, t.Name)
	return t
}

// runGen writes a memory directory holding n generated topics and the
// MEMORY.md that indexes them, in the order memdir's rebuild chooses.
func runGen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	n := fs.Int("n", 100, "number of topics")
	dir := fs.String("dir", "", "memory directory to create (must not exist)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return fmt.Errorf("gen: -dir is required")
	}
	if _, err := os.Stat(*dir); err == nil {
		return fmt.Errorf("gen: %s already exists", *dir)
	}
	d := memdir.Open(*dir, memdir.Live)
	if _, err := d.Init(); err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	now := time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)
	metas := make([]index.Meta, *n)
	for i := range *n {
		t := topic(i, now)
		data, err := t.Marshal()
		if err != nil {
			return fmt.Errorf("gen: %w", err)
		}
		if err := os.WriteFile(filepath.Join(*dir, t.File), data, 0o644); err != nil {
			return fmt.Errorf("gen: %w", err)
		}
		metas[i] = index.Meta{Entry: index.Entry{Title: t.Name, File: t.File, Hook: t.Description}, Type: t.Type, Modified: t.Modified}
	}
	ix := index.Rebuild(index.Parse(nil), metas)
	if err := atomicfile.WriteFile(filepath.Join(*dir, memdir.IndexFile), ix.Bytes(), 0o644); err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	return nil
}
