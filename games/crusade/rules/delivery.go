package rules

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"forumgm/game"
)

// A side's evening time limit counts from when it got the move (the move post's time). The board
// reply that shows the new position can appear later (the forum's flood control holds it up to a
// minute, a forum outage longer): the clock then starts when the reply was posted. The referee
// reports each reply that starts a clock once it is on the forum (Delivered), and the reply itself
// states the deadline that follows from its posting time (Deadline).

// KindClockStarted is the kind of ClockStarted.
const KindClockStarted = "crusade.clock_started"

// ClockStarted: the reply showing the position of a wait was posted after the wait began, while
// that wait was still the current one and its limit had not passed: the side's time limit counts
// from the reply's posting time.
type ClockStarted struct {
	At   time.Time `json:"at"`   // the reply's posting time (minute precision): the new start
	Side Side      `json:"side"` // the side to move
	Turn int       `json:"turn"` // the wait's turn number (the turns played before it; 0: the game's start)
	Was  time.Time `json:"was"`  // the start it replaces (the move post's time)
}

func (ClockStarted) EventKind() string { return KindClockStarted }

// ClockKey names the wait that starts when turn number turn has been played (0: the game's start)
// and side gets the move: a reply that shows the position carries it, and Delivered and Deadline
// take it back.
func ClockKey(turn int, side Side) string { return strconv.Itoa(turn) + ":" + string(side) }

// parseClockKey reads a ClockKey.
func parseClockKey(key string) (int, Side, bool) {
	n, s, ok := strings.Cut(key, ":")
	turn, err := strconv.Atoi(n)
	if !ok || err != nil || turn < 0 || (Side(s) != Crusaders && Side(s) != Saracens) {
		return 0, "", false
	}
	return turn, Side(s), true
}

// currentWait reports whether key names the current wait (the game is on, that turn is the last
// one played and that side has the move).
func (g *Game) currentWait(key string) bool {
	turn, side, ok := parseClockKey(key)
	st := g.st
	return ok && st.Phase == PhasePlaying && st.Turns == turn && st.ToMove == side
}

// firstDeadline is the first deadline of a wait that starts at since: the end of the side's first
// MoveLimit in an evening window (a move stamped at that minute is in time); false when no
// working evening comes within the calendar's reach.
func (g *Game) firstDeadline(since time.Time) (time.Time, bool) {
	v, ok := g.nextViolation(since, since)
	if !ok {
		return time.Time{}, false
	}
	return v.Add(-postGrain), true
}

// movable reports whether a reply posted at at moves the start of the current wait key: the wait
// is still the current one, no violation of it was charged, the reply came after the wait began
// and before its first deadline had passed, and starting the wait at at changes that deadline (a
// reply posted before the evening window opens leaves it at the window's start + the limit).
func (g *Game) movable(key string, at time.Time) bool {
	st := g.st
	if !g.currentWait(key) || st.LimitChargedUntil.After(st.ToMoveSince) || !at.After(st.ToMoveSince) {
		return false
	}
	dl, ok := g.firstDeadline(st.ToMoveSince)
	if ok && at.After(dl) {
		return false
	}
	moved, mok := g.firstDeadline(at)
	return ok != mok || !moved.Equal(dl)
}

// Delivered is the reply that shows wait key's position posted at at (minute precision): the
// clock of the side to move starts then when that is later than the wait's start, while the wait
// is still the current one and its limit has not passed; otherwise nothing changes (a reply posted
// after a later move, or after the limit fired while the referee caught up). No event is decided
// when the first deadline would stay where it is.
func (g *Game) Delivered(key string, at time.Time) []game.Event {
	if !g.movable(key, at) {
		return nil
	}
	st := g.st
	return []game.Event{&ClockStarted{At: at.In(g.clk.loc), Side: st.ToMove, Turn: st.Turns, Was: st.ToMoveSince.In(g.clk.loc)}}
}

// Deadline is the first deadline of wait key as a reply posted at at states it: from the later of
// the wait's start and at when Delivered would move the start, else from the wait's start.
// False when there is nothing to state: the wait is over or its first deadline has passed at at,
// or no working evening comes within the calendar's reach.
func (g *Game) Deadline(key string, at time.Time) (time.Time, bool) {
	if !g.currentWait(key) {
		return time.Time{}, false
	}
	since := g.st.ToMoveSince
	if g.movable(key, at) {
		since = at
	}
	dl, ok := g.firstDeadline(since)
	if !ok || at.After(dl) || g.st.LimitChargedUntil.After(g.st.ToMoveSince) {
		return time.Time{}, false
	}
	return dl, true
}

// Location is the game's time zone (deadlines are stated in it).
func (g *Game) Location() *time.Location { return g.clk.loc }

func (g *Game) applyClockStarted(e *ClockStarted) error {
	st := g.st
	if e.At.IsZero() {
		return fmt.Errorf("crusade: apply clock_started: no time")
	}
	// A wait that is no longer the current one (a moderator undid the turn that began it) keeps
	// its own start: the event changes nothing then.
	if st.Phase != PhasePlaying || st.Turns != e.Turn || st.ToMove != e.Side || !e.At.After(st.ToMoveSince) {
		return nil
	}
	st.ToMoveSince = e.At
	if st.LimitChargedUntil.Before(e.At) {
		st.LimitChargedUntil = e.At
	}
	return nil
}

// Turns is how many turns have been played.
func (g *Game) Turns() int { return g.st.Turns }
