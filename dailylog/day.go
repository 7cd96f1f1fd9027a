package dailylog

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// maxDaysBack bounds Nd, well past any log and short of int overflow.
const maxDaysBack = 1_000_000

// ParseDay reads a day the way --since and --until take it: YYYY-MM-DD,
// today, yesterday or Nd (N days before now), in any case; "" is no day.
// It returns the day as YYYY-MM-DD, or "".
func ParseDay(v string, now time.Time) (string, error) {
	v = strings.ToLower(strings.TrimSpace(v))
	switch {
	case v == "":
		return "", nil
	case v == "today":
		return now.Format(DateLayout), nil
	case v == "yesterday":
		return now.AddDate(0, 0, -1).Format(DateLayout), nil
	case strings.HasSuffix(v, "d"):
		// Days before the year 1 are not days a log can have.
		if n, err := strconv.Atoi(strings.TrimSuffix(v, "d")); err == nil && n >= 0 && n <= maxDaysBack {
			if d := now.AddDate(0, 0, -n); d.Year() >= 1 {
				return d.Format(DateLayout), nil
			}
		}
	default:
		if _, err := time.Parse(DateLayout, v); err == nil {
			return v, nil
		}
	}
	return "", inputError(fmt.Sprintf("%q is not a date: use YYYY-MM-DD, today, yesterday or Nd", v))
}
