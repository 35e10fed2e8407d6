package rules

import (
	"time"
)

// deadlineOn is the round deadline on the day of t (game zone).
func (g *Game) deadlineOn(t time.Time) time.Time {
	tod, _ := parseClock(g.settings.Deadline)
	l := t.In(g.settings.Location)
	return time.Date(l.Year(), l.Month(), l.Day(), int(tod/time.Hour), int(tod%time.Hour/time.Minute), 0, 0, g.settings.Location)
}

// NextTimer is the next round deadline strictly after t, while the game is being played: none
// while the start's draws wait for the first player post (Undrawn), and the first round's is the
// first deadline after them.
func (g *Game) NextTimer(t time.Time) (time.Time, bool) {
	if !g.st.Started || g.st.Over || g.Undrawn() {
		return time.Time{}, false
	}
	if g.st.Round == 0 && t.Before(g.st.Drawn) {
		t = g.st.Drawn
	}
	if every := g.settings.Every(); every > 0 {
		day, next := g.midnights(t)
		d := day.Add((t.Sub(day)/every + 1) * every)
		if !d.Before(next) {
			d = next
		}
		return d, true
	}
	d := g.deadlineOn(t)
	if !d.After(t) {
		l := t.In(g.settings.Location)
		d = g.deadlineOn(time.Date(l.Year(), l.Month(), l.Day()+1, 12, 0, 0, 0, g.settings.Location))
	}
	return d, true
}

// isDeadline reports whether at is a round deadline.
func (g *Game) isDeadline(at time.Time) bool {
	if every := g.settings.Every(); every > 0 {
		day, _ := g.midnights(at)
		return at.Sub(day)%every == 0
	}
	return g.deadlineOn(at).Equal(at)
}

// midnights are the midnights (game zone) that begin t's day and the next.
func (g *Game) midnights(t time.Time) (time.Time, time.Time) {
	l := t.In(g.settings.Location)
	day := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, g.settings.Location)
	return day, time.Date(l.Year(), l.Month(), l.Day()+1, 0, 0, 0, 0, g.settings.Location)
}
