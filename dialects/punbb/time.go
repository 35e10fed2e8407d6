package punbb

import (
	"fmt"
	"time"

	"forumgm/forum/scrape"
)

// parseTime reads a date as PunBB shows it: "Today 03:45:57", "Yesterday 23:59:01",
// "2026-11-28 03:45:57", "28.11.2026 03:45", "Nov 28 2026 03:45", Russian "Сегодня 12:34", and
// relative forms ("1 minute ago", "10 минут назад"). Times without a zone are in loc; relative
// ones are resolved against now (in loc).
func parseTime(s string, loc *time.Location, now time.Time) (time.Time, error) {
	t, err := scrape.ParseDate(s, loc, now)
	if err != nil {
		return t, fmt.Errorf("punbb: %w", err)
	}
	return t, nil
}
