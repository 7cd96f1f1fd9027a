package search

import (
	"os"
	"runtime/debug"
	"sync"
)

// readIndexFile returns an index file's bytes: mapped read-only when
// mapped is set and the platform can (a search process maps the whole
// index in about a millisecond, where reading it into fresh memory costs
// a page fault per 4 KB: 15 ms at 10,000 topics), else read. A mapping is
// never unmapped: strings decoded from it point into it, so only a
// process that exits after a few searches maps.
func readIndexFile(p string, mapped bool) ([]byte, error) {
	if mapped {
		if data, ok := mapFile(p); ok {
			return data, nil
		}
	}
	return os.ReadFile(p)
}

// faultGuard runs f with memory faults turned into panics (a mapped index
// file truncated in place under this process faults on the pages it
// lost) and reports whether one happened. Any other panic goes on.
func faultGuard(f func()) (faulted bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(interface{ Addr() uintptr }); !ok {
				panic(r)
			}
			faulted = true
		}
	}()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	f()
	return false
}

// parallel runs fn(0) ... fn(workers-1) side by side and waits for them.
// Workers read the index too (paths point into a mapped file), and a
// fault there would crash the process, since faultGuard covers only its
// own goroutine: each worker turns faults into panics, and the first
// worker's panic is raised again here, in the caller's goroutine.
func parallel(workers int, fn func(w int)) {
	panics := make([]any, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			defer func() { panics[w] = recover() }()
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			fn(w)
		})
	}
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
}
