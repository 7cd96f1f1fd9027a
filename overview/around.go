package overview

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
)

// maxSpan bounds how far a timeline looks on each side: ten years.
const maxSpan = 3650 * day

// ParseSpan reads how far a timeline looks on each side of its point: Nd,
// Nw, Nh or a Go duration such as 90m, positive and at most ten years. A
// span that does not read is a *memdir.InputError.
func ParseSpan(s string) (time.Duration, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	var d time.Duration
	var err error
	if n, unit := strings.TrimRight(s, "dw"), s[max(len(s)-1, 0):]; (unit == "d" || unit == "w") && n != "" {
		var k int
		if k, err = strconv.Atoi(n); err == nil && k > 0 && k <= 3650 {
			d = time.Duration(k) * day
			if unit == "w" {
				d *= 7
			}
		}
	} else {
		d, err = time.ParseDuration(s)
	}
	if err != nil || d <= 0 || d > maxSpan {
		return 0, &memdir.InputError{Msg: fmt.Sprintf("%q is not a span: use Nd, Nw, Nh or 90m, e.g. 3d", s)}
	}
	return d, nil
}

// Around is the timeline query for span on each side of a point: ref is
// "" (now), a day (YYYY-MM-DD, today, yesterday or Nd: the whole day) or a
// topic (its name or file: its last change, and its changes marked). A day
// wins over a topic of the same name.
func (r *Reader) Around(ref string, span time.Duration, includePrivate bool) (TimelineQuery, error) {
	q := TimelineQuery{IncludePrivate: includePrivate}
	now := r.now()
	if d, err := dailylog.ParseDay(ref, now); ref == "" || err == nil {
		if d == "" {
			q.From, q.To = now.Add(-span), now.Add(span)
			return q, nil
		}
		start, _ := time.ParseInLocation(time.DateOnly, d, time.Local)
		q.From, q.To = start.Add(-span), start.AddDate(0, 0, 1).Add(span-time.Second)
		return q, nil
	}
	file, err := r.Dir.Find(ref)
	if err != nil {
		return q, err
	}
	centre := topicTime(r.Dir.Path, file)
	q.Topic, q.From, q.To = file, centre.Add(-span), centre.Add(span)
	return q, nil
}

// topicTime is a topic's last change: its modified stamp, else its
// created stamp, else the file's modification time.
func topicTime(dir, file string) time.Time {
	data, err := atomicfile.ReadInside(dir, file)
	if err == nil {
		if t, perr := memdir.ParseTopic(file, data); perr == nil {
			for _, ts := range []time.Time{t.Modified, t.Created} {
				if !ts.IsZero() {
					return ts
				}
			}
		}
	}
	if fi, err := atomicfile.StatInside(dir, file); err == nil {
		return fi.ModTime()
	}
	return time.Time{}
}
