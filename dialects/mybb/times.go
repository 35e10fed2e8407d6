package mybb

import (
	"strings"
	"time"

	"forumgm/forum/scrape"
)

// dateLayouts are the date and time layouts tried for absolute dates, board default first
// (date format m-d-Y, time format h:i A, joined by ", "). A board with another format adds its
// own with options.DateLayouts.
var dateLayouts = []string{
	"01-02-2006, 03:04 PM",
	"01-02-2006, 3:04 PM",
	"01-02-2006, 15:04",
	"02.01.2006, 15:04",
	"02.01.2006, 03:04 PM",
	"2006-01-02, 15:04",
	"2006-01-02, 03:04 PM",
	"02-01-2006, 15:04",
	"02-01-2006, 15h04", // the French pack's time format (PHP H\hi): "30-12-2012, 16h30"
	"01/02/2006, 03:04 PM",
	"02/01/2006, 15:04",
	"January 2, 2006, 03:04 PM",
	"2 January 2006, 15:04",
	"01-02-2006 03:04 PM", // MyBB 1.6's classic postbit: date and time without the comma
}

// dateOnlyLayouts are the layouts of a date without time ("Today"'s title holds only the date).
var dateOnlyLayouts = []string{
	"01-02-2006", "02.01.2006", "2006-01-02", "02-01-2006", "01/02/2006", "02/01/2006",
	"January 2, 2006", "2 January 2006",
}

// layouts are the absolute layouts this board is read with: its configured ones first.
func (o *options) layouts() []string {
	return append(append([]string{}, o.DateLayouts...), dateLayouts...)
}

// parseDateOnly reads a date without a time of day ("Today"'s title holds only the date).
func (o *options) parseDateOnly(s string) (time.Time, bool) {
	return scrape.ParseLayouts(s, o.loc(), dateOnlyLayouts...)
}

// parseShown reads a date as MyBB shows it: absolute ("11-30-2026, 03:16 AM"), relative to now
// ("Less than 1 minute ago", "6 minutes ago", "2 hours ago", "Today, 03:16 AM",
// "Yesterday, 11:02 PM", Russian "Сегодня, 03:16", "Вчера, 23:02", "5 минут назад"): date.Parse
// with the board's layouts.
func (o *options) parseShown(s string) (time.Time, bool) {
	t, err := scrape.ParseDate(s, o.loc(), o.now(), o.layouts()...)
	return t, err == nil
}

// parseDateTitle resolves a date shown as <span title="ABS">TEXT</span>REST: the title is the
// absolute date and time ("11-30-2026, 03:17 AM"), or only the date for "Today"/"Yesterday"
// (then the time is in REST: "<span title="11-30-2026">Today</span>, 03:14 AM").
func (o *options) parseDateTitle(title, text, rest string) (time.Time, bool) {
	if title != "" {
		if t, err := scrape.ParseDate(title, o.loc(), o.now(), o.layouts()...); err == nil {
			return t, true
		}
		if d, ok := o.parseDateOnly(title); ok {
			for _, s := range []string{rest, text} {
				if h, m, _, ok := scrape.Clock(s); ok {
					return time.Date(d.Year(), d.Month(), d.Day(), h, m, 0, 0, o.loc()), true
				}
			}
		}
	}
	full := strings.TrimSpace(text + " " + rest)
	if t, ok := o.parseShown(full); ok {
		return t, true
	}
	return o.parseShown(text)
}
