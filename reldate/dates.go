package reldate

import (
	"fmt"
	"time"
)

// day is a calendar day held as noon UTC, so that adding days never trips
// over a daylight-saving change.
type day = time.Time

func dayOf(ref time.Time) day {
	y, m, d := ref.Date()
	return time.Date(y, m, d, 12, 0, 0, 0, time.UTC)
}

func iso(d day) string {
	y, m, dd := d.Date()
	if y < 0 || y > 9999 {
		return fmt.Sprintf("%04d-%02d-%02d", y, int(m), dd)
	}
	b := [10]byte{'0', '0', '0', '0', '-', '0', '0', '-', '0', '0'}
	put := func(at, n, width int) {
		for i := at + width - 1; i >= at; i-- {
			b[i] = byte('0' + n%10)
			n /= 10
		}
	}
	put(0, y, 4)
	put(5, int(m), 2)
	put(8, dd, 2)
	return string(b[:])
}

func withWeekday(d day) string { return d.Weekday().String() + " " + iso(d) }

func withPart(d day, part string) string { return iso(d) + " (" + part + ")" }

func addDays(d day, n int) day { return d.AddDate(0, 0, n) }

// isoIndex is d's weekday counted from Monday = 0.
func isoIndex(d day) int { return (int(d.Weekday()) + 6) % 7 }

// monday is the Monday of d's week, plus k weeks.
func monday(d day, k int) day { return addDays(d, -isoIndex(d)+7*k) }

// addMonths adds n months, clamping the day to the end of a shorter month.
func addMonths(d day, n int) day {
	y, m, dd := d.Date()
	first := time.Date(y, m+time.Month(n), 1, 12, 0, 0, 0, time.UTC)
	if last := lastOfMonth(first).Day(); dd > last {
		dd = last
	}
	return time.Date(first.Year(), first.Month(), dd, 12, 0, 0, 0, time.UTC)
}

func lastOfMonth(d day) day {
	return time.Date(d.Year(), d.Month()+1, 0, 12, 0, 0, 0, time.UTC)
}

func monthName(d day) string { return fmt.Sprintf("%s %04d", d.Month(), d.Year()) }

func yearName(d day, k int) string { return fmt.Sprintf("%04d", d.Year()+k) }
