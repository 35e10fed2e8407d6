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
//	replace PLAYER NEW           NEW takes PLAYER's place (team, warriors or figure), as review replace
//	remove PLAYER                PLAYER is taken out (a sign-up game asks his team for a replacement)
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
	case "replace":
		if len(f) != 3 {
			return cmd, fmt.Errorf("replace: want the player who leaves and the new player: replace Петя Оля")
		}
		cmd.Action, cmd.Player, cmd.Replacement = game.ModReplace, f[1], f[2]
	case "remove":
		if len(f) != 2 {
			return cmd, fmt.Errorf("remove: want the one player to take out: remove Петя")
		}
		cmd.Action, cmd.Player = game.ModRemove, f[1]
	case "pause":
		cmd.Action = game.ModPause
	case "resume":
		cmd.Action = game.ModResume
	case "end":
		cmd.Action, cmd.Winner = game.ModEnd, arg(1)
	default:
		return cmd, fmt.Errorf("unknown command %q (extend, holiday, clarify, length, replace, remove, pause, resume, end)", f[0])
	}
	return cmd, nil
}
