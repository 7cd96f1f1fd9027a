package search

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
)

// Recall counts live in .memdir/search/recalls, never in the topic files
// (a recall must not dirty git): one line per topic file that a search
// returned or `memdir show` printed, "<last unix time>\t<count>\t<file>",
// under a header line. Lines that do not read are skipped, so a damaged
// file loses counts, never a command.
const recallHeader = "memdir-recalls 1"

// recallWait bounds how long counting a recall waits for another process
// writing the index or the counts.
const recallWait = 2 * time.Second

type recall struct {
	count int
	last  int64
}

// loadRecalls reads the recall counts; none when there are none.
func (ix *Index) loadRecalls() map[string]recall {
	data, err := atomicfile.ReadInside(ix.dir.Path, StateDir+"/"+recallFile)
	if err != nil {
		return map[string]recall{}
	}
	return parseRecalls(data)
}

func parseRecalls(data []byte) map[string]recall {
	out := map[string]recall{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for first := true; sc.Scan(); first = false {
		if first && sc.Text() == recallHeader {
			continue
		}
		f := strings.SplitN(sc.Text(), "\t", 3)
		if len(f) != 3 {
			continue
		}
		last, err1 := strconv.ParseInt(f[0], 10, 64)
		n, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil || n < 0 || f[2] == "" {
			continue
		}
		out[f[2]] = recall{count: n, last: last}
	}
	return out
}

// Recall counts topic files (relative to the memory directory) as
// recalled now: a person or an agent looked at them. It waits a little
// for another process writing the counts and gives up quietly after.
func (ix *Index) Recall(files ...string) error {
	add := map[string]recall{}
	countRecalls(add, files, ix.now().Unix())
	_, err := ix.addRecalls(add)
	return err
}

// countRecalls adds one recall at unix time now to each of files in m.
func countRecalls(m map[string]recall, files []string, now int64) {
	for _, f := range files {
		if strings.ContainsAny(f, "\t\n\r") {
			continue // cannot be written on a line; no topic file is named so
		}
		r := m[f]
		r.count++
		r.last = max(r.last, now)
		m[f] = r
	}
}

// addRecalls adds counts to the recall file, under the search lock, and
// returns every count it now holds.
func (ix *Index) addRecalls(add map[string]recall) (map[string]recall, error) {
	if len(add) == 0 || !ix.dir.Exists() {
		return ix.loadRecalls(), nil
	}
	_, fl, err := ix.lockState()
	if err != nil {
		return nil, fmt.Errorf("count recalls: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), recallWait)
	defer cancel()
	if ok, err := fl.TryLockContext(ctx, 5*time.Millisecond); !ok || err != nil {
		return nil, fmt.Errorf("count recalls: %s is busy", filepath.Join(StateDir, lockFile))
	}
	defer fl.Unlock()
	counts := ix.loadRecalls()
	for f, a := range add {
		r := counts[f]
		r.count += a.count
		r.last = max(r.last, a.last)
		counts[f] = r
	}
	var b bytes.Buffer
	b.WriteString(recallHeader + "\n")
	for _, f := range sortedKeys(counts) {
		fmt.Fprintf(&b, "%d\t%d\t%s\n", counts[f].last, counts[f].count, f)
	}
	if err := ix.writeState(recallFile, b.Bytes()); err != nil {
		return nil, fmt.Errorf("count recalls: %w", err)
	}
	return counts, nil
}
