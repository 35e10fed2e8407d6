package smf

import (
	"fmt"
	"time"

	"forumgm/forum/scrape"
)

var zeroNow = time.Date(2000, 1, 1, 12, 0, 0, 0, time.UTC)

// parseTime reads a date as SMF shows it: "Today at 03:44 AM" (todayMod), "Yesterday at …",
// "Nov 30, 2026, 03:44 AM" (the default time_format), "30 ноября 2026, 03:44", "2026-11-30 03:44:12",
// "30.11.2026, 03:44", and relative forms ("5 minutes ago", "5 минут назад"). Times without a zone
// are in loc; relative ones are resolved against now (in loc).
func parseTime(s string, loc *time.Location, now time.Time) (time.Time, error) {
	t, err := scrape.ParseDate(s, loc, now)
	if err != nil {
		return t, fmt.Errorf("smf: %w", err)
	}
	return t, nil
}
