package mybb

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// DateLayouts are the date and time layouts tried for absolute dates, board default first
// (date format m-d-Y, time format h:i A, joined by ", "). A board with another format adds its
// own with Options.DateLayouts.
var DateLayouts = []string{
	"01-02-2006, 03:04 PM",
	"01-02-2006, 3:04 PM",
	"01-02-2006, 15:04",
	"02.01.2006, 15:04",
	"02.01.2006, 03:04 PM",
	"2006-01-02, 15:04",
	"2006-01-02, 03:04 PM",
	"02-01-2006, 15:04",
	"01/02/2006, 03:04 PM",
	"02/01/2006, 15:04",
	"January 2, 2006, 03:04 PM",
	"2 January 2006, 15:04",
}

// dateOnlyLayouts are the layouts of a date without time ("Today"'s title holds only the date).
var dateOnlyLayouts = []string{
	"01-02-2006", "02.01.2006", "2006-01-02", "02-01-2006", "01/02/2006", "02/01/2006",
	"January 2, 2006", "2 January 2006",
}

var (
	reClock    = regexp.MustCompile(`(\d{1,2}):(\d{2})(?:\s*([AaPp])\.?[Mm]\.?)?`)
	reLessThan = regexp.MustCompile(`(?i)^(less than|менее|меньше)(?:$|[^\p{L}])`)
	reMinAgo   = regexp.MustCompile(`(?i)(\d+)\s*(minutes?|mins?|минут[уы]?|мин\.?)\s*(ago|назад)`)
	reHourAgo  = regexp.MustCompile(`(?i)(\d+)\s*(hours?|час(?:а|ов)?|ч\.?)\s*(ago|назад)`)
	reMinAgo1  = regexp.MustCompile(`(?i)^(минуту|a minute|one minute)\s*(назад|ago)`)
	reHourAgo1 = regexp.MustCompile(`(?i)^(час|an hour|one hour)\s*(назад|ago)`)
	reToday    = regexp.MustCompile(`(?i)^(today|сегодня)(?:$|[^\p{L}])`)
	reYest     = regexp.MustCompile(`(?i)^(yesterday|вчера)(?:$|[^\p{L}])`)
	reOrdinal  = regexp.MustCompile(`(\d)(st|nd|rd|th)\b`)
)

// clock reads "03:16 AM" / "15:04" from s.
func clock(s string) (h, m int, ok bool) {
	mm := reClock.FindStringSubmatch(s)
	if mm == nil {
		return 0, 0, false
	}
	h, _ = strconv.Atoi(mm[1])
	m, _ = strconv.Atoi(mm[2])
	switch strings.ToLower(mm[3]) {
	case "a":
		if h == 12 {
			h = 0
		}
	case "p":
		if h != 12 {
			h += 12
		}
	}
	if h > 23 || m > 59 {
		return 0, 0, false
	}
	return h, m, true
}

func (o *Options) parseAbsolute(s string) (time.Time, bool) {
	s = normalizeSpace(reOrdinal.ReplaceAllString(s, "$1"))
	for _, l := range append(append([]string{}, o.DateLayouts...), DateLayouts...) {
		if t, err := time.ParseInLocation(l, s, o.loc()); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func (o *Options) parseDateOnly(s string) (time.Time, bool) {
	s = normalizeSpace(reOrdinal.ReplaceAllString(s, "$1"))
	for _, l := range dateOnlyLayouts {
		if t, err := time.ParseInLocation(l, s, o.loc()); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// parseShown reads a date as MyBB shows it: absolute ("11-30-2026, 03:16 AM"), relative to now
// ("Less than 1 minute ago", "6 minutes ago", "2 hours ago", "Today, 03:16 AM",
// "Yesterday, 11:02 PM", Russian "Сегодня, 03:16", "Вчера, 23:02", "5 минут назад").
func (o *Options) parseShown(s string) (time.Time, bool) {
	s = normalizeSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	if t, ok := o.parseAbsolute(s); ok {
		return t, true
	}
	now := o.now().In(o.loc())
	switch {
	case reLessThan.MatchString(s):
		return now.Truncate(time.Minute), true
	case reMinAgo.MatchString(s):
		n, _ := strconv.Atoi(reMinAgo.FindStringSubmatch(s)[1])
		return now.Add(-time.Duration(n) * time.Minute).Truncate(time.Minute), true
	case reMinAgo1.MatchString(s):
		return now.Add(-time.Minute).Truncate(time.Minute), true
	case reHourAgo.MatchString(s):
		n, _ := strconv.Atoi(reHourAgo.FindStringSubmatch(s)[1])
		return now.Add(-time.Duration(n) * time.Hour).Truncate(time.Minute), true
	case reHourAgo1.MatchString(s):
		return now.Add(-time.Hour).Truncate(time.Minute), true
	case reToday.MatchString(s), reYest.MatchString(s):
		day := now
		if reYest.MatchString(s) {
			day = now.AddDate(0, 0, -1)
		}
		h, m, ok := clock(s)
		if !ok {
			return time.Time{}, false
		}
		return time.Date(day.Year(), day.Month(), day.Day(), h, m, 0, 0, o.loc()), true
	}
	return time.Time{}, false
}

// parseDateTitle resolves a date shown as <span title="ABS">TEXT</span>REST: the title is the
// absolute date and time ("11-30-2026, 03:17 AM"), or only the date for "Today"/"Yesterday"
// (then the time is in REST: "<span title="11-30-2026">Today</span>, 03:14 AM").
func (o *Options) parseDateTitle(title, text, rest string) (time.Time, bool) {
	if title != "" {
		if t, ok := o.parseAbsolute(title); ok {
			return t, true
		}
		if d, ok := o.parseDateOnly(title); ok {
			if h, m, ok := clock(rest); ok {
				return time.Date(d.Year(), d.Month(), d.Day(), h, m, 0, 0, o.loc()), true
			}
			if h, m, ok := clock(text); ok {
				return time.Date(d.Year(), d.Month(), d.Day(), h, m, 0, 0, o.loc()), true
			}
		}
	}
	full := strings.TrimSpace(text + " " + rest)
	if t, ok := o.parseShown(full); ok {
		return t, true
	}
	return o.parseShown(text)
}

func normalizeSpace(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), " ")
}
