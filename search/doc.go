// Package search is memdir's recall: ranked search over every topic and
// every daily-log entry no dream has distilled yet. The timeline of what
// happened to memory and its stats are package overview, which reads
// what it needs of the engine through List, IndexState and Recalls
// (readapi.go) of an Index or a Topics. The files stay the only truth; the
// index is derived data under <memory dir>/.memdir/search/ (git-ignored
// with the rest of .memdir/), and recall counts live there too, never in
// a topic file.
//
// # Use
//
//	ix := search.Open(dir)                 // a *memdir.Dir; nothing is read yet
//	hits, err := ix.Search(ctx, search.Query{Text: `kafka "topic naming" -legacy`})
//
// Results are plain structs with JSON tags; a query that cannot be read
// is a *memdir.InputError with one line for the person who typed it, and
// the index itself never makes a call fail.
//
// # Matching and ranking
//
// Text is cut into words that fold case and diacritics (Müller, muller),
// English words are stemmed with the Snowball stemmer (configuring,
// configuration), and identifiers give both their parts and their whole
// (api-latency: api, latency and apilatency; MAX_RETRIES; getUserName).
// Relevance is BM25 with field weights (name 5, description 3, tags 2.5,
// body 1, each field saturated on its own: see eval.go), then a mild
// fade with age (rank.go: HalfLife) and a small boost for memories
// recalled often. A memory whose name is exactly the query always comes
// first.
//
// # Queries
//
// A query is words, "phrases", prefix*, OR, AND and NOT in capitals (or
// -word) and parentheses. A word no document holds is read as the near
// spellings the index holds (fuzzy.go), and Query.Prefix reads the last
// word as a prefix, for a search made while someone types. It is read the same way wherever it comes from
// (the CLI, the MCP tool): an agent's question and a person's query are
// both natural text, and neither should fail on punctuation. So an
// operator that cannot apply is punctuation, never an error: a quote left
// open is dropped and the words after it are plain words; a ) that closes
// nothing is dropped and a ( left open is closed by the end of the query;
// empty parentheses, an OR or AND with no words on a side, a NOT or - with
// nothing after it and a * with nothing before it are dropped. A query is
// refused (a *memdir.InputError, one line) only for what no reading can
// mend: nothing to search for once punctuation is gone, a NOT with nothing
// to exclude from (NOT x, a OR NOT b), too long a query, too many words,
// a control character or text that is not UTF-8.
//
// # Freshness and concurrency
//
// Every search stats every source file (through an os.Root on the memory
// directory) and compares size, mtime, ctime and inode with what the
// index read; a directory whose mtime did not move is not listed again.
// Files that changed are read again into a small delta segment over the
// base; past compactAt the two are merged into a new base. Index files
// are written through atomicfile (a temp file and a rename), so a reader
// sees an old file or a new one; a writer takes .memdir/search/lock
// without waiting (a busy lock means another process is saving the same
// changes, and this one answers from memory). A stamp taken within the
// file system's timestamp granularity of the file's change is "racy" and
// read again next time, as git does with its index. A file that does not
// decode (another format, a bad checksum, truncated, garbage, a record
// out of bounds or a path leading out of the memory directory) is
// rebuilt without a word.
//
// A long-running process (the MCP server) searches through Live, which
// keeps the index in memory and asks its inotify descriptor, without
// waiting, whether anything changed since the last search: a warm search
// reads no file and writes none. Recall counts are batched there and
// written at most every RecallFlushEvery and when it closes.
//
// # Reading the index
//
// An index file's sources and documents are fixed-size records (segment.go)
// that a search reads where they lie, in the file's bytes as read
// (through atomicfile's size-capped reader); strings point into those
// bytes, which nothing writes to again. Postings lie in a region of their
// own at the end of the file (format 4): a one-shot search (the CLI)
// reads the body and then only its query's terms' postings, each list
// checked against its own CRC-32C; an index kept in memory (Live, a
// merge) reads the region whole and checks it. A list that does not
// match makes the search rebuild the index from the files and answer
// from that. At 10,000 topics the postings are 2.4 of the file's 4.3 MB,
// and on this project's VM a short process pays for every page it reads
// into memory: a fresh search went from 2,247 to 1,743 page faults and
// from 157-178 to 92-116 ms of task clock (perf stat -r 20, load 10-13).
// Mapping the file instead cost less still, but needed a fault guard
// (SetPanicOnFault), a panic relay across workers and unsafe system
// calls; it was dropped for plain reads.
//
// # Why not a library
//
// The engine is written here because the kept candidates cost every
// memdir command at start, and most commands never search. Measured on
// this project's machine (Go 1.26, CGO_ENABLED=0, a program that only
// imports the package against one that does not): modernc.org/sqlite
// (FTS5, bm25) adds 7.1 MB to the binary and runs 1.2 to 4.2 ms of
// package initialisation in every process (modernc.org/libc and
// sqlite/lib; the sum of all package inits is 4.1 ms against 0.6 ms for
// hello world, best of 40 runs, GODEBUG=inittrace=1), where memdir's
// start-up budget then was 2x a hello-world process, about 1 ms more;
// bleve v2 measured about 20 ms. Used instead:
// github.com/kljensen/snowball (no package initialisation, +0.5 MB) and
// this package, whose own initialisation is empty (no maps, regexps or
// replacers at package level). Diacritic folding is a table generated
// once from golang.org/x/text/unicode/norm's decompositions (package
// tokenize, which search and similarity share), since that module is not
// among memdir's dependencies.
package search
