package referee

import (
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
