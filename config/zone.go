package config

import (
	"time"

	"forumgm/game"
)

// ZoneLabel is the game zone's name to write beside the times the bot posts when the forum shows
// another zone ("" when both are the same at at): a player reads the forum's times beside the
// bot's, and must not mistake one zone for the other.
func (c *Config) ZoneLabel(at time.Time) string {
	g, f := c.GameLocation(), c.ForumLocation()
	_, gOff := at.In(g).Zone()
	_, fOff := at.In(f).Zone()
	if g.String() == f.String() || gOff == fOff {
		return ""
	}
	return game.ZoneName(g, at)
}
