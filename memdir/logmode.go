package memdir

import (
	"github.com/memdir/memdir/dailylog"
)

// appendLog records a memory in log mode: one whole entry appended to
// today's daily log under the lock, and nothing else touched.
func (d *Dir) appendLog(req AddRequest) (AddResult, error) {
	lk, err := d.lock("add")
	if err != nil {
		return AddResult{}, err
	}
	defer lk.Release()
	now := d.now()
	path, err := dailylog.Append(d.Path, now, dailylog.Entry{
		Time:  now.Format("15:04"),
		Type:  req.Type,
		Title: req.Name,
		Text:  req.Body(),
	})
	if err != nil {
		return AddResult{}, writeErr(d.Path, err)
	}
	rel := d.rel(path)
	return AddResult{Action: Logged, Log: rel, Type: req.Type, Name: req.Name}, d.Changed(Change{Paths: []string{rel}, Message: "log " + req.Type.String() + " " + req.Name})
}
