package generic

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

var (
	relDay    = regexp.MustCompile(`(?i)^\s*(сегодня|вчера|today|yesterday)\s*(?:,|в|at)?\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?`)
	minsAgo   = regexp.MustCompile(`(?i)^\s*(\d+|одну|минуту|a|one)?\s*(минут[аы]?|minutes?|мин\.?)\s*(назад|ago)`)
	secsAgo   = regexp.MustCompile(`(?i)(секунд[уы]?|seconds?)\s*(назад|ago)|^\s*(только что|just now)`)
	ruMonths  = strings.NewReplacer("января", "Jan", "февраля", "Feb", "марта", "Mar", "апреля", "Apr", "мая", "May", "июня", "Jun", "июля", "Jul", "августа", "Aug", "сентября", "Sep", "октября", "Oct", "ноября", "Nov", "декабря", "Dec", "янв", "Jan", "фев", "Feb", "мар", "Mar", "апр", "Apr", "май", "May", "июн", "Jun", "июл", "Jul", "авг", "Aug", "сен", "Sep", "окт", "Oct", "ноя", "Nov", "дек", "Dec")
	ruWeekday = strings.NewReplacer("Пн", "Mon", "Вт", "Tue", "Ср", "Wed", "Чт", "Thu", "Пт", "Fri", "Сб", "Sat", "Вс", "Sun")
)

// DefaultLayouts are the absolute date forms the built-in dialects know.
var DefaultLayouts = []string{
	time.RFC3339,
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

// ParseTime reads a forum date as shown: an absolute form in layouts (in loc unless it carries a
// zone), or a relative one ("Сегодня 12:34", "Вчера, 23:01", "Today, 12:34", "5 минут назад")
// resolved against now in loc.
func ParseTime(s string, layouts []string, loc *time.Location, now time.Time) (time.Time, error) {
	if loc == nil {
		loc = time.UTC
	}
	s = strings.TrimSpace(strings.ReplaceAll(s, "\u00a0", " "))
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return time.Time{}, fmt.Errorf("empty date")
	}
	nowL := now.In(loc)
	if m := relDay.FindStringSubmatch(s); m != nil {
		h, _ := strconv.Atoi(m[2])
		mi, _ := strconv.Atoi(m[3])
		sec, _ := strconv.Atoi(m[4])
		switch strings.ToLower(m[5]) {
		case "pm":
			if h < 12 {
				h += 12
			}
		case "am":
			if h == 12 {
				h = 0
			}
		}
		y, mo, d := nowL.Date()
		day := time.Date(y, mo, d, h, mi, sec, 0, loc)
		if w := strings.ToLower(m[1]); w == "вчера" || w == "yesterday" {
			day = time.Date(y, mo, d-1, h, mi, sec, 0, loc)
		}
		return day, nil
	}
	if m := minsAgo.FindStringSubmatch(s); m != nil {
		n := 1
		if v, err := strconv.Atoi(m[1]); err == nil {
			n = v
		}
		return nowL.Add(-time.Duration(n) * time.Minute).Truncate(time.Minute), nil
	}
	if secsAgo.MatchString(s) {
		return nowL.Truncate(time.Second), nil
	}
	cand := ruWeekday.Replace(ruMonths.Replace(strings.ToLower(s)))
	cands := []string{s, cand, capitalizeWords(cand)}
	if len(layouts) == 0 {
		layouts = DefaultLayouts
	}
	for _, l := range layouts {
		for _, c := range cands {
			if t, err := time.ParseInLocation(l, c, loc); err == nil {
				return t, nil
			}
		}
	}
	return time.Time{}, fmt.Errorf("date %q matches no known layout", s)
}

// capitalizeWords turns "mon nov 30, 2026 3:45 am" back into "Mon Nov 30, 2026 3:45 am" (month
// and weekday names are case-sensitive in Go layouts; am/pm stay lower case).
func capitalizeWords(s string) string {
	f := strings.Fields(s)
	for i, w := range f {
		if w == "am" || w == "pm" {
			continue
		}
		r := []rune(w)
		if len(r) > 0 && r[0] >= 'a' && r[0] <= 'z' {
			r[0] -= 'a' - 'A'
		}
		f[i] = string(r)
	}
	return strings.Join(f, " ")
}
