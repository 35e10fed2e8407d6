// This file reads the dates forums show, in English and Russian, for every reader: a
// board's own layouts (Go syntax, such as MyBB's m-d-Y "11-30-2026, 03:16 AM"), relative forms
// ("5 minutes ago", "5 минут назад", "Less than 1 minute ago", "just now"), and the common
// absolute and day-relative forms ("Today at 03:44 AM", "Yesterday 23:59:01", "Nov 30, 2026,
// 03:44 AM", "30 ноября 2026, 03:44", "2026-11-30 03:44:12", "30.11.2026, 03:44"). The scrapers
// wrap its errors in their own name.

package scrape

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

var (
	clockRe    = regexp.MustCompile(`(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?m\.?\b)?`)
	isoDateRe  = regexp.MustCompile(`(\d{4})-(\d{1,2})-(\d{1,2})`)
	dotDateRe  = regexp.MustCompile(`(\d{1,2})[./](\d{1,2})[./](\d{4})`)
	yearRe     = regexp.MustCompile(`\b(\d{4})\b`)
	dayRe      = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th)?\b`)
	agoRe      = regexp.MustCompile(`(?:(\d+|an?|one|одну|одна|один)\s*)?(second|sec|minute|min|hour|day|секунд|сек|минут|мин|час|ч\.?|день|дня|дней)\S*\s*(ago|назад)`)
	justNowRe  = regexp.MustCompile(`^(just now|только что|сейчас)$`)
	lessThanRe = regexp.MustCompile(`^(less than|менее|меньше)(?:$|[^\p{L}])`)
	ordinalRe  = regexp.MustCompile(`(\d)(st|nd|rd|th)\b`)
	ruMonths   = strings.NewReplacer("января", "Jan", "февраля", "Feb", "марта", "Mar", "апреля", "Apr", "мая", "May", "июня", "Jun", "июля", "Jul", "августа", "Aug", "сентября", "Sep", "октября", "Oct", "ноября", "Nov", "декабря", "Dec", "янв", "Jan", "фев", "Feb", "мар", "Mar", "апр", "Apr", "май", "May", "июн", "Jun", "июл", "Jul", "авг", "Aug", "сен", "Sep", "окт", "Oct", "ноя", "Nov", "дек", "Dec")
	ruWeekdays = strings.NewReplacer("пн", "Mon", "вт", "Tue", "ср", "Wed", "чт", "Thu", "пт", "Fri", "сб", "Sat", "вс", "Sun")
	monthWords = []struct {
		prefix string
		month  time.Month
	}{
		{"jan", 1}, {"feb", 2}, {"mar", 3}, {"apr", 4}, {"may", 5}, {"jun", 6}, {"jul", 7}, {"aug", 8},
		{"sep", 9}, {"oct", 10}, {"nov", 11}, {"dec", 12},
		{"янв", 1}, {"фев", 2}, {"мар", 3}, {"апр", 4}, {"мая", 5}, {"май", 5}, {"июн", 6}, {"июл", 7},
		{"авг", 8}, {"сен", 9}, {"окт", 10}, {"ноя", 11}, {"дек", 12},
	}
)

// Parse reads a date as a forum shows it. layouts (a board's own formats, Go syntax) are tried
// first, in order, with Russian month and weekday names read as English ones; then the relative
// forms, then the common ones. Times without a zone are in loc (UTC when nil); relative ones
// ("Today", "5 minutes ago") are resolved against now in loc.
func ParseDate(s string, loc *time.Location, now time.Time, layouts ...string) (time.Time, error) {
	if loc == nil {
		loc = time.UTC
	}
	now = now.In(loc)
	norm := strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), " ")
	low := strings.ToLower(norm)
	if low == "" {
		return time.Time{}, errors.New("empty date")
	}
	if t, ok := ParseLayouts(norm, loc, layouts...); ok {
		return t, nil
	}
	if justNowRe.MatchString(low) {
		return now.Truncate(time.Second), nil
	}
	if lessThanRe.MatchString(low) { // "Less than 1 minute ago"
		return now.Truncate(time.Minute), nil
	}
	if m := agoRe.FindStringSubmatch(low); m != nil {
		n, err := strconv.Atoi(m[1])
		if err != nil {
			n = 1
		}
		unit := time.Minute
		switch {
		case strings.HasPrefix(m[2], "sec"), strings.HasPrefix(m[2], "сек"):
			unit = time.Second
		case strings.HasPrefix(m[2], "hour"), strings.HasPrefix(m[2], "ч"):
			unit = time.Hour
		case strings.HasPrefix(m[2], "day"), strings.HasPrefix(m[2], "д"):
			unit = 24 * time.Hour
		}
		return now.Add(-time.Duration(n) * unit).Truncate(time.Minute), nil
	}
	cm := clockRe.FindStringSubmatchIndex(low)
	if cm == nil {
		return time.Time{}, fmt.Errorf("no time of day in %q", s)
	}
	hour, minute, sec, err := clockAt(low, cm)
	if err != nil {
		return time.Time{}, fmt.Errorf("%v in %q", err, s)
	}
	rest := low[:cm[0]] + " " + low[cm[1]:]
	var y, d int
	var mo time.Month
	switch {
	case strings.Contains(rest, "today") || strings.Contains(rest, "сегодня"):
		y, mo, d = now.Date()
	case strings.Contains(rest, "yesterday") || strings.Contains(rest, "вчера"):
		y, mo, d = now.AddDate(0, 0, -1).Date()
	default:
		if m := isoDateRe.FindStringSubmatch(rest); m != nil {
			y, _ = strconv.Atoi(m[1])
			mi, _ := strconv.Atoi(m[2])
			mo = time.Month(mi)
			d, _ = strconv.Atoi(m[3])
		} else if m := dotDateRe.FindStringSubmatch(rest); m != nil {
			d, _ = strconv.Atoi(m[1])
			mi, _ := strconv.Atoi(m[2])
			mo = time.Month(mi)
			y, _ = strconv.Atoi(m[3])
		} else {
			mo = monthIn(rest)
			ym := yearRe.FindStringSubmatch(rest)
			if mo == 0 || ym == nil {
				return time.Time{}, fmt.Errorf("no date in %q", s)
			}
			y, _ = strconv.Atoi(ym[1])
			noYear := strings.Replace(rest, ym[1], " ", 1)
			dm := dayRe.FindStringSubmatch(noYear)
			if dm == nil {
				return time.Time{}, fmt.Errorf("no day in %q", s)
			}
			d, _ = strconv.Atoi(dm[1])
		}
	}
	if mo < 1 || mo > 12 || d < 1 || d > 31 {
		return time.Time{}, fmt.Errorf("bad date in %q", s)
	}
	t := time.Date(y, mo, d, hour, minute, sec, 0, loc)
	if t.Day() != d {
		return time.Time{}, fmt.Errorf("bad date in %q", s)
	}
	return t, nil
}

// ParseLayouts reads s with the first of layouts (Go syntax) that fits it as written, without
// ordinal suffixes ("2nd" → "2"), or with Russian month and weekday names in English; in loc
// (UTC when nil) unless s carries a zone. It is the first step of Parse.
func ParseLayouts(s string, loc *time.Location, layouts ...string) (time.Time, bool) {
	if len(layouts) == 0 {
		return time.Time{}, false
	}
	if loc == nil {
		loc = time.UTC
	}
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), " ")
	plain := ordinalRe.ReplaceAllString(s, "$1")
	english := ruWeekdays.Replace(ruMonths.Replace(strings.ToLower(plain)))
	cands := []string{s, plain, english, capitalizeWords(english)}
	for _, l := range layouts {
		for _, c := range cands {
			if t, err := time.ParseInLocation(l, c, loc); err == nil {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

// capitalizeWords turns "mon nov 30, 2026 3:45 am" back into "Mon Nov 30, 2026 3:45 am" (month
// and weekday names are case-sensitive in Go layouts; am/pm stay lower case).
func capitalizeWords(s string) string {
	f := strings.Fields(s)
	for i, w := range f {
		if w == "am" || w == "pm" {
			continue
		}
		if w[0] >= 'a' && w[0] <= 'z' {
			f[i] = string(w[0]-'a'+'A') + w[1:]
		}
	}
	return strings.Join(f, " ")
}

// Clock reads the first time of day in s ("03:16 AM", "15:04", "1:02:03 p.m."): hour, minute and
// second, ok false when there is none or it is out of range.
func Clock(s string) (hour, minute, sec int, ok bool) {
	low := strings.ToLower(s)
	cm := clockRe.FindStringSubmatchIndex(low)
	if cm == nil {
		return 0, 0, 0, false
	}
	h, m, sec, err := clockAt(low, cm)
	return h, m, sec, err == nil
}

// clockAt reads the time of day clockRe matched at cm in low.
func clockAt(low string, cm []int) (hour, minute, sec int, err error) {
	hour, _ = strconv.Atoi(low[cm[2]:cm[3]])
	minute, _ = strconv.Atoi(low[cm[4]:cm[5]])
	if cm[6] >= 0 {
		sec, _ = strconv.Atoi(low[cm[6]:cm[7]])
	}
	if cm[8] >= 0 {
		if hour < 1 || hour > 12 {
			return 0, 0, 0, errors.New("bad 12-hour time")
		}
		hour %= 12
		if low[cm[8]:cm[9]] == "p" {
			hour += 12
		}
	}
	if hour > 23 || minute > 59 || sec > 59 {
		return 0, 0, 0, errors.New("bad time of day")
	}
	return hour, minute, sec, nil
}

func monthIn(s string) time.Month {
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == ',' || r == '.' || r == '-' || r == '/'
	}) {
		for _, mw := range monthWords {
			if strings.HasPrefix(f, mw.prefix) {
				return mw.month
			}
		}
	}
	return 0
}
