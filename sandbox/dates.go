package sandbox

import (
	"fmt"
	"time"
)

// Board date and time formats of the captured board: `m-d-Y` and `h:i A`.
const (
	dateFormat = "01-02-2006"
	timeFormat = "03:04 PM"
)

// absDate is the absolute form MyBB puts in title attributes: "11-30-2026, 03:16 AM".
func absDate(t time.Time, loc *time.Location) string {
	t = t.In(loc)
	return t.Format(dateFormat) + ", " + t.Format(timeFormat)
}

// relDate is MyBB's my_date('relative', …) as HTML: within an hour "Less than 1 minute ago" /
// "N minutes ago", within 12 hours "N hours ago" (both with the absolute time in a title
// attribute), then "Today, 03:16 AM" / "Yesterday, 03:16 AM" (the date in the title), then the
// plain absolute date.
func relDate(t, now time.Time, loc *time.Location) string {
	title := absDate(t, loc)
	diff := now.Unix() - t.Unix()
	ad := diff
	if ad < 0 {
		ad = -ad
	}
	prefix, suffix := "", "ago"
	if diff < 0 {
		prefix, suffix = "in ", ""
	}
	switch {
	case ad < 3600:
		n, unit := ad/60, "minutes"
		if n <= 1 {
			n, unit = 1, "minute"
		}
		if ad <= 60 {
			prefix = "Less than "
		}
		return fmt.Sprintf(`<span title="%s">%s%d %s %s</span>`, title, prefix, n, unit, suffix)
	case ad < 43200:
		n, unit := ad/3600, "hours"
		if n <= 1 {
			n, unit = 1, "hour"
		}
		return fmt.Sprintf(`<span title="%s">%s%d %s %s</span>`, title, prefix, n, unit, suffix)
	}
	lt, ln := t.In(loc), now.In(loc)
	day := lt.Format(dateFormat)
	switch day {
	case ln.Format(dateFormat):
		return fmt.Sprintf(`<span title="%s">Today</span>, %s`, day, lt.Format(timeFormat))
	case ln.AddDate(0, 0, -1).Format(dateFormat):
		return fmt.Sprintf(`<span title="%s">Yesterday</span>, %s`, day, lt.Format(timeFormat))
	}
	return title
}
