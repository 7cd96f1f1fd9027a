package search

import (
	"os"
	"runtime/debug"
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
