package memdir

import (
	"github.com/memdir/memdir/dailylog"
)

// appendLog records a memory in log mode: one whole entry appended to
// today's daily log under the lock, and nothing else touched. The entry is
// scanned as it will be written ("Title: text" on one line can read as an
// assignment the fields alone do not hold), so that lint and commit never
// refuse the log add wrote.
func (d *Dir) appendLog(req AddRequest) (AddResult, error) {
	now := d.now()
	e := dailylog.Entry{Time: now.Format("15:04"), Type: req.Type, Title: req.Name, Text: req.Body()}
	if !req.AllowSecret {
		if err := refuseSecret("", dailylog.Format(e)); err != nil {
			return AddResult{}, err
		}
	}
	lk, err := d.lock("add")
	if err != nil {
		return AddResult{}, err
	}
	defer lk.Release()
	path, err := dailylog.Append(d.Path, now, e)
	if err != nil {
		return AddResult{}, writeErr(d.Path, err)
	}
	rel := d.rel(path)
	return AddResult{Action: Logged, Log: rel, Type: req.Type, Name: req.Name}, d.Changed(Change{Paths: []string{rel}, Message: "log " + req.Type.String() + " " + req.Name})
}
