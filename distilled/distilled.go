// Package distilled owns the dream's marks: which daily-log entries a
// dream has distilled into topics. The dream reads and advances them;
// search, the stream and the timelines only ask whether an entry is
// distilled, and so need neither the dream nor its schedule.
//
// An entry is identified by (file, hash, occurrence), so a log that was
// appended to or edited since the last dream is handled: appended
// entries and edited ones (whose hash changed) are new, the rest are not.
package distilled

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
)

// Path is where the marks live, relative to the memory directory.
const Path = memdir.StateDir + "/dream/state.json"

// Marks records, for every log file, how many occurrences of each entry
// hash a dream has distilled.
type Marks struct {
	Version int                       `json:"version"`
	Logs    map[string]map[string]int `json:"logs"`
}

// New returns marks that record nothing.
func New() *Marks { return &Marks{Version: 1, Logs: map[string]map[string]int{}} }

// Load reads the marks of the memory directory dir; a missing file is
// marks that record nothing.
func Load(dir string) (*Marks, error) {
	data, err := atomicfile.ReadInside(dir, Path)
	if errors.Is(err, fs.ErrNotExist) {
		return New(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("read dream state: %w", err)
	}
	m := New()
	if err := json.Unmarshal(data, m); err != nil {
		return nil, fmt.Errorf("%s: %w; delete it to distill every log again", Path, err)
	}
	if m.Logs == nil {
		m.Logs = map[string]map[string]int{}
	}
	return m, nil
}

// Pending is a log entry not yet distilled, with its stable identity.
type Pending struct {
	dailylog.Entry
	ID string `json:"id"` // file#hash#occurrence
}

// Pending returns the entries not yet distilled, in log order. entries
// are as dailylog.Read returns them: whole files, in order.
func (m *Marks) Pending(entries []dailylog.Entry) []Pending {
	var out []Pending
	m.each(entries, func(e dailylog.Entry, n int, done bool) {
		if !done {
			out = append(out, Pending{Entry: e, ID: fmt.Sprintf("%s#%s#%d", e.File, e.Hash, n)})
		}
	})
	return out
}

// Done reports, for each of entries (whole files, in order), whether it
// is distilled.
func (m *Marks) Done(entries []dailylog.Entry) []bool {
	out := make([]bool, 0, len(entries))
	m.each(entries, func(_ dailylog.Entry, _ int, done bool) { out = append(out, done) })
	return out
}

// each calls f for every entry with its occurrence number among equal
// entries of its file and whether the marks cover it.
func (m *Marks) each(entries []dailylog.Entry, f func(e dailylog.Entry, n int, done bool)) {
	seen := map[string]map[string]int{}
	for _, e := range entries {
		if seen[e.File] == nil {
			seen[e.File] = map[string]int{}
		}
		n := seen[e.File][e.Hash]
		seen[e.File][e.Hash] = n + 1
		f(e, n, n < m.Logs[e.File][e.Hash])
	}
}

// With returns a copy of m that also records entries as distilled.
func (m *Marks) With(entries []Pending) *Marks {
	out := New()
	for f, hashes := range m.Logs {
		out.Logs[f] = make(map[string]int, len(hashes))
		for h, n := range hashes {
			out.Logs[f][h] = n
		}
	}
	for _, e := range entries {
		if out.Logs[e.File] == nil {
			out.Logs[e.File] = map[string]int{}
		}
		out.Logs[e.File][e.Hash]++
	}
	return out
}

// Bytes is the marks as written to Path.
func (m *Marks) Bytes() ([]byte, error) {
	data, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return nil, fmt.Errorf("encode dream state: %w", err)
	}
	return append(data, '\n'), nil
}

// Of reports, for entries as dailylog.Read returns them (whole files, in
// order), whether a dream of the memory directory dir has distilled each.
func Of(dir string, entries []dailylog.Entry) ([]bool, error) {
	m, err := Load(dir)
	if err != nil {
		return nil, err
	}
	return m.Done(entries), nil
}
