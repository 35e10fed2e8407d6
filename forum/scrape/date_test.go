package scrape

import (
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	loc := time.FixedZone("MSK", 3*3600)
	now := time.Date(2026, 11, 30, 12, 0, 30, 0, loc)
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"Today at 03:44 AM", time.Date(2026, 11, 30, 3, 44, 0, 0, loc)},
		{"Today 12:00 pm", time.Date(2026, 11, 30, 12, 0, 0, 0, loc)},
		{"Сегодня 12:34", time.Date(2026, 11, 30, 12, 34, 0, 0, loc)},
		{"Yesterday 23:59:01", time.Date(2026, 11, 29, 23, 59, 1, 0, loc)},
		{"вчера, 00:05", time.Date(2026, 11, 29, 0, 5, 0, 0, loc)},
		{"Nov 28, 2026, 03:44 PM", time.Date(2026, 11, 28, 15, 44, 0, 0, loc)},
		{"1st Dec 2026 1:02:03 p.m.", time.Date(2026, 12, 1, 13, 2, 3, 0, loc)},
		{"28 ноября 2026, 03:44", time.Date(2026, 11, 28, 3, 44, 0, 0, loc)},
		{"2026-11-28 03:45:57", time.Date(2026, 11, 28, 3, 45, 57, 0, loc)},
		{"28.11.2026, 03:45", time.Date(2026, 11, 28, 3, 45, 0, 0, loc)},
		{"28/11/2026 12:00 am", time.Date(2026, 11, 28, 0, 0, 0, 0, loc)},
		{"\u00a0Today\u00a0 at  03:44\n", time.Date(2026, 11, 30, 3, 44, 0, 0, loc)},
		{"5 minutes ago", time.Date(2026, 11, 30, 11, 55, 0, 0, loc)},
		{"an hour ago", time.Date(2026, 11, 30, 11, 0, 0, 0, loc)},
		{"2 дня назад", time.Date(2026, 11, 28, 12, 0, 0, 0, loc)},
		{"30 seconds ago", time.Date(2026, 11, 30, 12, 0, 0, 0, loc)},
		{"just now", time.Date(2026, 11, 30, 12, 0, 30, 0, loc)},
		{"Less than 1 minute ago", time.Date(2026, 11, 30, 12, 0, 0, 0, loc)},
		{"Менее 1 минуты назад", time.Date(2026, 11, 30, 12, 0, 0, 0, loc)},
		{"минуту назад", time.Date(2026, 11, 30, 11, 59, 0, 0, loc)},
		{"час назад", time.Date(2026, 11, 30, 11, 0, 0, 0, loc)},
		{"2 часа назад", time.Date(2026, 11, 30, 10, 0, 0, 0, loc)},
		{"3 ч. назад", time.Date(2026, 11, 30, 9, 0, 0, 0, loc)},
		{"10 мин. назад", time.Date(2026, 11, 30, 11, 50, 0, 0, loc)},
	} {
		got, err := ParseDate(tc.in, loc, now)
		if err != nil || !got.Equal(tc.want) || got.Location() != loc {
			t.Errorf("ParseDate(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// A board's own layouts come first: they settle what the common forms cannot (m-d-Y against
// d-m-Y), read ordinals and Russian month and weekday names, and keep a zone the text carries.
func TestParseLayouts(t *testing.T) {
	loc := time.FixedZone("MSK", 3*3600)
	now := time.Date(2026, 11, 30, 12, 0, 30, 0, loc)
	for _, tc := range []struct {
		in      string
		layouts []string
		want    time.Time
	}{
		{"11-30-2026, 03:16 AM", []string{"01-02-2006, 03:04 PM"}, time.Date(2026, 11, 30, 3, 16, 0, 0, loc)},
		{"01-02-2026, 15:04", []string{"02-01-2006, 15:04"}, time.Date(2026, 2, 1, 15, 4, 0, 0, loc)},
		{"December 2nd, 2026, 03:04 PM", []string{"January 2, 2006, 03:04 PM"}, time.Date(2026, 12, 2, 15, 4, 0, 0, loc)},
		{"28 ноя 2026, 14:00", []string{"02 Jan 2006, 15:04"}, time.Date(2026, 11, 28, 14, 0, 0, 0, loc)},
		{"Пн Ноя 30, 2026 3:45 am", []string{"Mon Jan 02, 2006 3:04 pm"}, time.Date(2026, 11, 30, 3, 45, 0, 0, loc)},
		{"2026-11-30T03:45:00+00:00", []string{time.RFC3339}, time.Date(2026, 11, 30, 3, 45, 0, 0, time.UTC)},
		// No layout fits: the common forms still apply.
		{"Today, 03:16 AM", []string{"01-02-2006, 03:04 PM"}, time.Date(2026, 11, 30, 3, 16, 0, 0, loc)},
		{"5 минут назад", []string{"01-02-2006, 03:04 PM"}, time.Date(2026, 11, 30, 11, 55, 0, 0, loc)},
	} {
		got, err := ParseDate(tc.in, loc, now, tc.layouts...)
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("ParseDate(%q, %q) = %v, %v; want %v", tc.in, tc.layouts, got, err, tc.want)
		}
	}
	// Without the layout, m-d-Y is no date at all.
	if _, err := ParseDate("11-30-2026, 03:16 AM", loc, now); err == nil {
		t.Error("11-30-2026 read without a layout")
	}
}

func TestClock(t *testing.T) {
	for in, want := range map[string][3]int{
		"03:16 AM": {3, 16, 0}, "12:05 am": {0, 5, 0}, "12:05 PM": {12, 5, 0}, ", 11:02 PM": {23, 2, 0},
		"15:04": {15, 4, 0}, "1:02:03 p.m.": {13, 2, 3},
	} {
		h, m, s, ok := Clock(in)
		if !ok || [3]int{h, m, s} != want {
			t.Errorf("Clock(%q) = %d %d %d %v, want %v", in, h, m, s, ok, want)
		}
	}
	for _, bad := range []string{"", "Today", "13:00 PM", "24:00", "10:60"} {
		if _, _, _, ok := Clock(bad); ok {
			t.Errorf("Clock(%q) ok", bad)
		}
	}
}

func TestParseNilLocation(t *testing.T) {
	got, err := ParseDate("2026-11-28 03:45", nil, time.Now())
	if err != nil || !got.Equal(time.Date(2026, 11, 28, 3, 45, 0, 0, time.UTC)) {
		t.Errorf("%v, %v", got, err)
	}
}

func TestParseErrors(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]string{
		"":                 "empty date",
		" \u00a0 ":         "empty date",
		"someday":          `no time of day in "someday"`,
		"13:00 pm":         `bad 12-hour time in "13:00 pm"`,
		"24:00":            `bad time of day in "24:00"`,
		"feb 10:00":        `no date in "feb 10:00"`,
		"Feb 2026 10:00":   `no day in "Feb 2026 10:00"`,
		"2026-02-30 10:00": `bad date in "2026-02-30 10:00"`,
		"2026-13-01 10:00": `bad date in "2026-13-01 10:00"`,
	} {
		if _, err := ParseDate(in, time.UTC, now); err == nil || err.Error() != want {
			t.Errorf("ParseDate(%q): %v, want %q", in, err, want)
		}
	}
}

// FuzzParse: any text either fails or gives a time in loc, never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"Today at 03:44 AM", "11-30-2026, 03:16 AM", "Менее 1 минуты назад", "3 ч. назад", "28 ноя 2026, 14:00", "1st Dec 2026 1:02:03 p.m."} {
		f.Add(s)
	}
	loc := time.FixedZone("MSK", 3*3600)
	now := time.Date(2026, 11, 30, 12, 0, 30, 0, loc)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseDate(s, loc, now, "01-02-2006, 03:04 PM", "02 Jan 2006, 15:04")
		if err == nil && got.Location() != loc {
			t.Errorf("ParseDate(%q) = %v, not in %v", s, got, loc)
		}
		Clock(s)
	})
}
