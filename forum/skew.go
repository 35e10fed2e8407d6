package forum

import (
	"fmt"
	"time"
)

// DefaultMaxSkew is how far the forum's stamps may be from the daemon's clock before it is an
// error (forum.max_clock_skew): forums show times to the minute, and a post is read a little
// after it is made, so a few minutes is no fault.
const DefaultMaxSkew = 5 * time.Minute

// Skew is how far the forum's stamps are from the daemon's clock: a post's stamp as read minus
// when it was made by the daemon's clock. Positive: the forum's stamps are ahead.
type Skew time.Duration

// SkewOf is the skew of a stamp read from the forum against when the daemon knows it was made.
func SkewOf(stamp, made time.Time) Skew { return Skew(stamp.Sub(made)) }

// Over reports whether the skew is beyond max either way.
func (s Skew) Over(max time.Duration) bool {
	return time.Duration(s) > max || time.Duration(s) < -max
}

// String says the skew for a log line: "3h0m0s ahead", "7m0s behind".
func (s Skew) String() string {
	d := time.Duration(s).Round(time.Second)
	switch {
	case d > 0:
		return d.String() + " ahead"
	case d < 0:
		return (-d).String() + " behind"
	}
	return "none"
}

// zoneSlack is how far from a whole number of hours (or half hours: some zones have them) a skew
// may be and still be a zone's: the stamps are to the minute, and a post is read after it is made.
const zoneSlack = 2 * time.Minute

// Zone reports whether the skew is a whole number of hours (or half hours), the mark of a wrong
// forum.timezone rather than a clock that is off.
func (s Skew) Zone() bool {
	d := time.Duration(s)
	if d < 0 {
		d = -d
	}
	if d < 30*time.Minute-zoneSlack {
		return false
	}
	off := d - d.Round(30*time.Minute)
	return off <= zoneSlack && off >= -zoneSlack
}

// Cause names the likely cause of a skew: a wrong forum.timezone (a whole number of hours), or a
// clock that is off (the forum's server or the daemon's host).
func (s Skew) Cause() string {
	if s.Zone() {
		h := time.Duration(s).Round(30 * time.Minute)
		return fmt.Sprintf("forum.timezone is likely wrong: the forum's times are %s off (a whole number of hours); set forum.timezone to the zone the forum shows its times in", h)
	}
	return "a clock is off (the forum server's or this host's): the forum's times do not match this host's clock; check NTP on both"
}
