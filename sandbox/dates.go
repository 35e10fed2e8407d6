package sandbox

import (
	"fmt"
	"time"
)

// relDate is MyBB's my_date('relative', …) as HTML in the pack's words: within an hour "Less
// than 1 minute ago" / "N minutes ago" ("5 минут назад"), within 12 hours "N hours ago" (both
// with the absolute time in a title attribute), then "Today, 03:16 AM" / "Yesterday, 03:16 AM"
// ("Сегодня, 03:16"; the date in the title), then the plain absolute date.
func (p *pack) relDate(t, now time.Time, loc *time.Location) string {
	title := p.absDate(t, loc)
	diff := now.Unix() - t.Unix()
	ad := diff
	if ad < 0 {
		ad = -ad
	}
	switch {
	case ad < 3600:
		n := max(ad/60, 1)
		text := p.relative(n, false, diff < 0)
		if ad <= 60 && p == englishPack {
			text = "Less than " + text
		}
		return fmt.Sprintf(`<span title="%s">%s</span>`, title, text)
	case ad < 43200:
		return fmt.Sprintf(`<span title="%s">%s</span>`, title, p.relative(max(ad/3600, 1), true, diff < 0))
	}
	lt, ln := t.In(loc), now.In(loc)
	day := lt.Format(p.dateFormat)
	switch day {
	case ln.Format(p.dateFormat):
		return fmt.Sprintf(`<span title="%s">%s</span>, %s`, day, p.today, lt.Format(p.timeFormat))
	case ln.AddDate(0, 0, -1).Format(p.dateFormat):
		return fmt.Sprintf(`<span title="%s">%s</span>, %s`, day, p.yesterday, lt.Format(p.timeFormat))
	}
	return title
}
