package referee

import (
	"fmt"

	"forumgm/game"
)

// A post can appear in a thread late: hidden from one read and shown in a later one, after later
// posts were judged (MyBB's moderation queue approves a new member's post later, keeping its id
// and time; a lagging database replica serves a page without it). The referee judges such a post
// when it is first seen unless the order of play makes that unfair: what a player's late post
// holds for the game (a move, an order, an answer, a line that looks like one) was written against
// a position the game has since left, so it is flagged for a moderator (who may accept it, judged
// then, or reject it) and the player is told in the thread (SayLate). Chatter, a request for help,
// a dispute and a stranger's post are judged as ever: none of them depends on the order of play.
// Each game's rules document states the ruling (games/<name>/docs/decisions.md).

// A private message is late the same way (the inbox listed it after later ones, or it was read
// only after a timed rule it was written before had fired): the same ruling, told privately.

// JudgeLate judges in, a post first seen after later posts were judged (see above).
func (r *Referee) JudgeLate(in game.Input) (game.Outcome, error) {
	draws := r.draws
	link, player := r.absorb(in) // a late post enters the chain when it is judged, like any other
	drawn, err := r.drawStart(link, player, in)
	if err != nil {
		return game.Outcome{Link: link}, err
	}
	out, err := r.judgeLate(in)
	out.Link = r.keep(link, in, player, draws)
	return lead(drawn, out), err
}

func (r *Referee) judgeLate(in game.Input) (game.Outcome, error) {
	if r.isBot(in.Author) {
		return game.Outcome{Verdict: game.Ignored}, nil
	}
	rd := r.rules.Read(in)
	inPlay := rd.Kind == game.Intent || rd.Kind == game.Unreadable
	dispute := in.Source == game.Thread && HasWord(in.Post.Text, r.opt.DisputeKeyword)
	if !inPlay || dispute || !r.rules.IsPlayer(in.Author) {
		return r.judge(in)
	}
	out, err := r.say(in, game.Flagged, game.SayLate, nil)
	warn := "Пост появился в теме с опозданием: его не было при чтении темы, а более поздние посты уже рассмотрены " +
		"(очередь модерации форума или запаздывающая копия базы). Ход не рассмотрен — решите, засчитать ли его сейчас."
	if in.Source == game.PM {
		warn = "Личное сообщение пришло с опозданием: его не было в ящике, когда игра пошла дальше (более поздние сообщения " +
			"уже рассмотрены или срок, к которому оно написано, уже прошёл). Ход не рассмотрен — решите, засчитать ли его сейчас."
	}
	stamp := "unknown"
	if !in.At.IsZero() {
		stamp = in.At.Format("2006-01-02 15:04 MST")
	}
	out.Flags = []game.Flag{{Kind: game.FlagLate, PostID: in.PostID, Warning: warn,
		Detail: cut(fmt.Sprintf("%s the post (stamped %s) appeared late, after later posts were judged: %s", warn, stamp, firstLine(in.Post.Text)), maxDetail)}}
	return out, err
}
