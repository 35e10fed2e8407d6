package scrape

import (
	"time"
)

// defaultLayouts are the absolute date forms the built-in dialects know.
var defaultLayouts = []string{
	time.RFC3339,
	"2006-01-02T15:04:05-0700", // ISO 8601 with a basic offset (XenForo 2's <time datetime>)
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
	"02.01.2006 15:04:05",
	"02.01.2006 15:04",
	"02.01.2006, 15:04",
	"02 Jan 2006, 15:04",
	"02 Jan 2006 15:04",
	"Mon Jan 02, 2006 3:04 pm",
	"Mon Jan 02, 2006 15:04",
	"Jan 02, 2006 3:04 pm",
	"2 Jan 2006, 15:04",
}

// ParseTime reads a forum date as shown: an absolute form in layouts (DefaultLayouts when none;
// in loc unless it carries a zone), else a relative or common form ("Сегодня 12:34", "Вчера,
// 23:01", "Today, 12:34", "5 минут назад"), resolved against now in loc: date.Parse.
func ParseTime(s string, layouts []string, loc *time.Location, now time.Time) (time.Time, error) {
	if len(layouts) == 0 {
		layouts = defaultLayouts
	}
	return ParseDate(s, loc, now, layouts...)
}
