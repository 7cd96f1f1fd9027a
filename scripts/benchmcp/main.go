// Command benchmcp measures `memdir mcp` against the official MCP memory
// server (@modelcontextprotocol/server-memory): each server is
// started on a store preseeded with the same memories, then it prints the
// time from spawn to the initialize response, the average add and the
// average search, and checks that every search for a word held by exactly
// one memory finds it. scripts/bench-mcp installs the peer and runs this.
//
// Usage:
//
//	benchmcp -memdir BIN -peer 'node .../dist/index.js' [-n 10000] [-adds 100] [-searches 100]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	var o options
	flag.StringVar(&o.memdir, "memdir", "", "the memdir binary")
	flag.StringVar(&o.peer, "peer", "", "the command that starts the peer server, e.g. 'node /x/dist/index.js'")
	flag.IntVar(&o.n, "n", 10000, "memories to preseed each store with")
	flag.IntVar(&o.adds, "adds", 100, "memories to add through each server")
	flag.IntVar(&o.searches, "searches", 100, "searches to run against each server")
	flag.IntVar(&o.inits, "inits", 10, "spawns to time for the initialize figure")
	flag.StringVar(&o.work, "work", "", "work directory (default: a new temp directory, removed after)")
	flag.BoolVar(&o.raw, "raw", false, "seed memdir's MEMORY.md with one line per memory, written directly (past its caps, as no memdir command leaves it), instead of `memdir index --rebuild`")
	flag.Parse()
	if o.memdir == "" || o.peer == "" || o.n < 1 || o.adds < 1 || o.searches < 1 || o.inits < 1 {
		fmt.Fprintln(os.Stderr, "usage: benchmcp -memdir BIN -peer 'node .../dist/index.js' [-n 10000] [-adds 100] [-searches 100] [-inits 10]")
		os.Exit(2)
	}
	ok, err := run(context.Background(), o)
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchmcp: %v\n", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

type options struct {
	memdir, peer, work       string
	n, adds, searches, inits int
	raw                      bool
}

// figures are one server's measurements.
type figures struct {
	init      time.Duration // median, spawn to initialize response
	firstFind time.Duration // the first search, which may build an index
	add       time.Duration // mean
	search    time.Duration // mean
	found     int           // searches for a unique word that found it
}

func run(ctx context.Context, o options) (bool, error) {
	work := o.work
	if work == "" {
		var err error
		if work, err = os.MkdirTemp("", "benchmcp"); err != nil {
			return false, err
		}
		defer os.RemoveAll(work)
	}
	mems := corpus(o.n + o.adds)
	seeded, added := mems[:o.n], mems[o.n:]
	targets := pick(seeded, o.searches)

	start := time.Now()
	md, err := newMemdirServer(work, o.memdir, seeded, o.raw)
	if err != nil {
		return false, fmt.Errorf("seed memdir: %w", err)
	}
	fmt.Printf("seeded memdir with %d memories in %s\n", o.n, since(start))
	start = time.Now()
	peer, err := newPeerServer(work, o.peer, seeded)
	if err != nil {
		return false, fmt.Errorf("seed the peer: %w", err)
	}
	fmt.Printf("seeded the peer with %d memories in %s\n", o.n, since(start))

	md2, peer2, err := measure(ctx, [2]server{md, peer}, o, added, targets)
	if err != nil {
		return false, err
	}
	return report(o, md2, peer2), nil
}

func since(t time.Time) string { return time.Since(t).Round(time.Millisecond).String() }

// measure takes both servers' figures, one step of each in turn so that
// a change in the machine's load weighs on both alike: initialize over
// fresh spawns, then, in one session each, a first search, the adds and
// the searches.
func measure(ctx context.Context, srv [2]server, o options, added, targets []memory) (figures, figures, error) {
	var f [2]figures
	var inits [2][]time.Duration
	for range o.inits {
		for k, s := range srv {
			d, err := spawnToInit(ctx, s)
			if err != nil {
				return f[0], f[1], fmt.Errorf("%s: initialize: %w", s.name(), err)
			}
			inits[k] = append(inits[k], d)
		}
	}
	var sess [2]*mcp.ClientSession
	for k, s := range srv {
		var err error
		f[k].init = median(inits[k])
		if sess[k], err = connect(ctx, s); err != nil {
			return f[0], f[1], fmt.Errorf("%s: connect: %w", s.name(), err)
		}
		defer sess[k].Close()
	}
	// each runs one step against each server and adds its time to *sum.
	// Each step starts with no dirty page in the page cache (sync, not
	// timed): the peer never fsyncs, and the journal commit of the next
	// fsync anyone makes writes out the data of a file rewritten in place
	// (ext4's auto_da_alloc), so memdir's fsyncs would pay for the peer's
	// 1.5 MB rewrite of its store (with a fitted index on the 2-core VM: memdir's add
	// 15.0 ms without the sync, 11.1 ms with it; the peer's 74.6 and 65.8
	// ms). Each server pays for its own writes: memdir for its fsyncs, the
	// peer for nothing it waits on.
	each := func(what string, sum func(*figures) *time.Duration, step func(server, *mcp.ClientSession) (bool, error)) error {
		for k, s := range srv {
			syscall.Sync()
			t := time.Now()
			found, err := step(s, sess[k])
			*sum(&f[k]) += time.Since(t)
			if err != nil {
				return fmt.Errorf("%s: %s: %w", s.name(), what, err)
			}
			if found {
				f[k].found++
			}
		}
		return nil
	}
	search := func(m memory) func(server, *mcp.ClientSession) (bool, error) {
		return func(s server, cs *mcp.ClientSession) (bool, error) {
			hits, err := s.search(ctx, cs, m.word)
			return err == nil && s.found(hits, m), err
		}
	}
	if err := each("first search", func(f *figures) *time.Duration { return &f.firstFind }, search(targets[0])); err != nil {
		return f[0], f[1], err
	}
	f[0].found, f[1].found = 0, 0
	for _, m := range added {
		err := each("add "+m.name, func(f *figures) *time.Duration { return &f.add }, func(s server, cs *mcp.ClientSession) (bool, error) {
			return false, s.add(ctx, cs, m)
		})
		if err != nil {
			return f[0], f[1], err
		}
	}
	for _, m := range targets {
		if err := each("search "+m.word, func(f *figures) *time.Duration { return &f.search }, search(m)); err != nil {
			return f[0], f[1], err
		}
	}
	for k := range f {
		f[k].add /= time.Duration(len(added))
		f[k].search /= time.Duration(len(targets))
	}
	return f[0], f[1], nil
}

func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// report prints both servers' figures and the verdicts; it reports
// whether every target was met.
func report(o options, md, peer figures) bool {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
	fmt.Printf("\n%d memories preseeded; %d adds and %d searches per server; initialize: median of %d spawns\n\n",
		o.n, o.adds, o.searches, o.inits)
	fmt.Printf("%-34s %14s %14s %8s\n", "", "memdir", "server-memory", "ratio")
	row := func(what string, a, b time.Duration) {
		fmt.Printf("%-34s %14s %14s %8.3f\n", what, ms(a), ms(b), float64(a)/float64(b))
	}
	row("spawn to initialize response", md.init, peer.init)
	row("first search (builds its index)", md.firstFind, peer.firstFind)
	row("add (mean)", md.add, peer.add)
	row("search (mean)", md.search, peer.search)
	fmt.Printf("%-34s %14s %14s\n", "unique-word searches that found it",
		fmt.Sprintf("%d/%d", md.found, o.searches), fmt.Sprintf("%d/%d", peer.found, o.searches))
	fmt.Println()
	ok := true
	check := func(what string, pass bool) {
		verdict := "PASS"
		if !pass {
			verdict, ok = "FAIL", false
		}
		fmt.Printf("%s  %s\n", verdict, what)
	}
	check("initialize <= 1/10 of the peer's", md.init*10 <= peer.init)
	check("add <= 1/5 of the peer's", md.add*5 <= peer.add)
	check("search <= 1/5 of the peer's", md.search*5 <= peer.search)
	check("memdir finds every memory by its unique word", md.found == o.searches)
	return ok
}

// env is the environment of a server: the caller's, without memdir's
// settings, in a home of its own.
func env(work string, extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MEMDIR_") {
			out = append(out, kv)
		}
	}
	home := filepath.Join(work, "home")
	out = append(out, "HOME="+home, "MEMDIR_HOME="+filepath.Join(home, ".memdir"),
		"MEMDIR_MANAGED_CONFIG="+filepath.Join(work, "no-managed-config.yaml"))
	return append(out, extra...)
}
