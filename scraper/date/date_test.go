package date

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
	} {
		got, err := Parse(tc.in, loc, now)
		if err != nil || !got.Equal(tc.want) || got.Location() != loc {
			t.Errorf("Parse(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestParseNilLocation(t *testing.T) {
	got, err := Parse("2026-11-28 03:45", nil, time.Now())
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
		if _, err := Parse(in, time.UTC, now); err == nil || err.Error() != want {
			t.Errorf("Parse(%q): %v, want %q", in, err, want)
		}
	}
}
