package config

import (
	"fmt"
	"strings"
	"time"
)

// DefaultReminderLead is how long before a deadline the players who owe something are reminded
// when game.reminders is not set.
const DefaultReminderLead = 2 * time.Hour

// ReminderLead is game.reminders read: how long before each deadline the reminders go (0: "off").
func (g *Game) ReminderLead() (time.Duration, error) {
	s := strings.TrimSpace(g.Reminders)
	switch strings.ToLower(s) {
	case "":
		return DefaultReminderLead, nil
	case "off", "no", "false":
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < time.Minute || d > 7*24*time.Hour {
		return 0, fmt.Errorf("%q: want how long before a deadline, from 1m to 168h (such as 2h or 30m), or off", s)
	}
	return d, nil
}
