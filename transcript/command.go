package transcript

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"forumgm/game"
)

// Command reads a transcript entry's moderator command (Post.Command) into the referee's
// vocabulary; dates and times without a zone are in loc (the transcript's start zone).
//
//	extend DURATION [DEADLINE]   the next deadline (or the one at DEADLINE, RFC 3339) DURATION later
//	holiday YYYY-MM-DD           the game's clock stands still that day
//	clarify                      the entry's text is posted as a rules clarification
//	length N                     the game is made N rounds or turns long
//	pause, resume, end [WINNER]  as the review command's
func Command(p Post, loc *time.Location) (game.ModCommand, error) {
	f := strings.Fields(p.Command)
	if len(f) == 0 {
		return game.ModCommand{}, fmt.Errorf("empty command")
	}
	cmd := game.ModCommand{By: p.Author, At: p.At, Reason: p.Reason}
	arg := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	switch f[0] {
	case "extend":
		d, err := time.ParseDuration(arg(1))
		if err != nil {
			return cmd, fmt.Errorf("extend: want a duration such as 2h or 30m: %w", err)
		}
		cmd.Action, cmd.Delay = game.ModExtend, d
		if s := arg(2); s != "" {
			if cmd.Deadline, err = time.Parse(time.RFC3339, s); err != nil {
				return cmd, fmt.Errorf("extend: the deadline: want RFC 3339 (2026-12-02T23:00:00+03:00): %w", err)
			}
		}
	case "holiday":
		d, err := time.ParseInLocation("2006-01-02", arg(1), loc)
		if err != nil {
			return cmd, fmt.Errorf("holiday: want the day as 2026-12-03: %w", err)
		}
		cmd.Action, cmd.Day = game.ModHoliday, d
	case "clarify":
		if strings.TrimSpace(p.Text) == "" {
			return cmd, fmt.Errorf("clarify: the text is the clarification, and it is empty")
		}
		cmd.Action, cmd.Text = game.ModClarify, p.Text
	case "length":
		n, err := strconv.Atoi(arg(1))
		if err != nil {
			return cmd, fmt.Errorf("length: want the new length, a whole number: %w", err)
		}
		cmd.Action, cmd.Amount = game.ModLength, n
	case "pause":
		cmd.Action = game.ModPause
	case "resume":
		cmd.Action = game.ModResume
	case "end":
		cmd.Action, cmd.Winner = game.ModEnd, arg(1)
	default:
		return cmd, fmt.Errorf("unknown command %q (extend, holiday, clarify, length, pause, resume, end)", f[0])
	}
	return cmd, nil
}
