package dragonball

import (
	"testing"

	"forumgm/game"
)

// FuzzJudge: any text, from a player, the handler, a stranger or the bot, in the thread or
// privately, gets a verdict without a panic; a post that is not accepted changes nothing; a
// player's post that is judged gets an answer.
func FuzzJudge(f *testing.F) {
	for _, s := range []string{
		"Такт 1: 57 в2 ловлю\nТакт 2: 58 в3 пас красный 62 в2\nТакт 3: 58 в3 отбираю у Драко",
		"Дракон такт 1: вперёд, выше, пасть закрыта, залп",
		"1) 2 в3\n2) юв\n3. стою",
		"Такт 2: пас 19 в2 Гуллис-дуллис",
		"Такт 1: ловлю Цап-царапс",
		"Описание: [b]Гарри[/b] ныряет",
		"такт 4: 57",
		"ловлю",
		"помощь",
		"#спор",
		"[quote=gm-bot]Такт 1: 57 в2[/quote]\nсогласен",
	} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(9))
	}
	f.Fuzz(func(t *testing.T, text string, who uint8) {
		r := newRef(t, teamsYAML+"deployment: {players: {Гарри: {cell: 2, height: 2, balls: [красный]}}}\n")
		author := []string{"Гарри", "Драко", "Невилл", "gm-bot"}[who%4]
		private := who&8 != 0
		before := finalJSON(t, r.Referee)
		out := r.send(author, private, at(1, 12, 0), text)
		if out.Verdict != game.Accepted && finalJSON(t, r.Referee) != before {
			t.Fatalf("%q by %s: verdict %s changed the state", text, author, out.Verdict)
		}
		if (out.Verdict == game.Refused || out.Verdict == game.Flagged || private && author != "gm-bot") && len(out.Messages) == 0 {
			t.Fatalf("%q by %s: verdict %s without an answer", text, author, out.Verdict)
		}
	})
}
