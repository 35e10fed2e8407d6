package referee

import (
	"errors"
	"fmt"
	"strings"

	"forumgm/game"
)

// A player's post may hold a move and then a dispute ("2-й ход крестоносца к1 на K15", then
// "#спор: …" on a line of its own, typed together or merged by the forum): the lines before the
// keyword's line are judged as the post's move, the rest is filed as the dispute, and the reply
// says both. A post whose lines before the keyword hold nothing for the game is a dispute alone.

// dispute answers a player's thread post holding the dispute keyword.
func (r *Referee) dispute(in game.Input) (game.Outcome, error) {
	out, err := r.say(in, game.Flagged, game.SayDispute, nil)
	if err != nil {
		return out, err
	}
	flag := game.Flag{Kind: game.FlagDispute, PostID: in.PostID, Detail: firstLine(in.Post.Text)}
	before, rest := splitAtWord(in.Post.Text, r.opt.DisputeKeyword)
	if strings.TrimSpace(before) == "" {
		out.Flags = []game.Flag{flag}
		return out, nil
	}
	mv := in
	mv.Post.Text = before
	if r.rules.Read(mv).Kind == game.Chatter {
		out.Flags = []game.Flag{flag}
		return out, nil
	}
	moved, err := r.judge(mv)
	if err != nil {
		return game.Outcome{}, err
	}
	flag.Detail = firstLine(rest)
	moved.Flags = append(moved.Flags, flag)
	if moved.Verdict != game.Accepted && moved.Verdict != game.Refused {
		moved.Verdict = game.Flagged
	}
	said := out.Messages[0]
	for i, m := range moved.Messages {
		if m.To == said.To {
			moved.Messages[i].Body += "\n" + said.Body
			return moved, nil
		}
	}
	moved.Messages = append(moved.Messages, said)
	return moved, nil
}

// splitAtWord cuts text before the first line holding word (HasWord): before is the lines above
// it, rest that line and the ones below. A text with no such line is all rest.
func splitAtWord(text, word string) (before, rest string) {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if HasWord(l, word) {
			return strings.Join(lines[:i], "\n"), strings.Join(lines[i:], "\n")
		}
	}
	return "", text
}

// ErrNotDispute: uphold, overturn and settle are for a disputed decision only.
var ErrNotDispute = errors.New("this flag is not a dispute (uphold, overturn and settle settle a dispute; use accept, reject or close)")

// ErrMoveRefused: the move a moderator typed to overturn a decision is refused by the rules.
var ErrMoveRefused = errors.New("the move as typed is refused by the rules")

// settle settles a dispute (game.ModUphold, ModOverturn, ModSettle): every way ends in a post to
// the player who disputed (in the thread, or by private message when the dispute came so).
// Overturning takes back the last penalty still owed by the player's side (the game's
// Penalizer) before the move as the player meant it (cmd.Text) is judged as the player's, so a
// sloppiness wound the corrected move earns is not the one taken back.
func (r *Referee) settle(cmd game.ModCommand, c game.Context) (game.Outcome, error) {
	if cmd.Post == nil {
		return game.Outcome{}, fmt.Errorf("judge: %s needs the disputed post", cmd.Action)
	}
	if cmd.Flag != game.FlagDispute {
		return game.Outcome{}, fmt.Errorf("judge: %s: %w", cmd.Action, ErrNotDispute)
	}
	c.In = cmd.Post
	mark := &ModeratedEvent{At: cmd.At, By: cmd.By, Action: cmd.Action, PostID: cmd.Post.PostID, Reason: cmd.Reason,
		Flag: cmd.Flag, Text: cmd.Text}
	out := game.Outcome{Verdict: game.Ignored}
	name := game.SayModKept
	switch cmd.Action {
	case game.ModSettle:
		if strings.TrimSpace(cmd.Text) == "" {
			c.Mod.Text = cmd.Reason
		}
		if strings.TrimSpace(c.Mod.Text) == "" {
			return game.Outcome{}, fmt.Errorf("judge: settle: no message for the player")
		}
		name = game.SayModSettled
	case game.ModOverturn:
		name, out.Verdict = game.SayModOverturn, game.Accepted
		if p, ok := r.rules.(game.Penalizer); ok {
			if intent, ok := p.Penalty(cmd.Post.Author); ok {
				evs, refused, err := r.chance(cmd.At, func(rnd *game.Rand) ([]game.Event, error) {
					return r.rules.Decide(game.Act{At: cmd.At, Author: cmd.By, Body: intent, Rand: rnd})
				})
				if refused != nil {
					return game.Outcome{}, fmt.Errorf("judge: overturn: take the penalty back: %w", refused)
				}
				if err != nil {
					return game.Outcome{}, err
				}
				out.Events = append(out.Events, evs...)
				if len(evs) > 0 {
					c.Event = evs[0]
				}
			}
		}
		if strings.TrimSpace(cmd.Text) != "" {
			in := *cmd.Post
			in.At = cmd.At
			in.Post.Text = cmd.Text // the post's quotes (a quoted board) stay
			rd := r.rules.Read(in)
			if rd.Kind != game.Intent {
				return game.Outcome{}, fmt.Errorf("judge: overturn: %q: %w; type the move as the player meant it", cmd.Text, ErrNoReadable)
			}
			moved, err := r.decide(in, rd)
			if err != nil {
				return game.Outcome{}, err
			}
			if moved.Verdict != game.Accepted {
				said := ""
				if len(moved.Messages) > 0 {
					said = ": " + moved.Messages[0].Body
				}
				return game.Outcome{}, fmt.Errorf("judge: overturn: %w%s", ErrMoveRefused, said)
			}
			out.Events = append(out.Events, moved.Events...)
			out.Messages = moved.Messages
		}
	}
	if err := r.commit([]game.Event{mark}); err != nil {
		return game.Outcome{}, err
	}
	out.Events = append(out.Events, mark)
	body, err := r.rules.Say(name, c)
	if err != nil {
		return game.Outcome{}, err
	}
	note := r.route(cmd.Post, game.Message{To: game.Sender, Body: body})
	// The ruling comes first, then the move's reply (its board) when the move is answered
	// where the ruling goes.
	for i, m := range out.Messages {
		if m.To == note.To {
			out.Messages[i].Body = body + "\n" + m.Body
			return out, nil
		}
	}
	out.Messages = append([]game.Message{note}, out.Messages...)
	return out, nil
}
