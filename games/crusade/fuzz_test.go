package crusade

import (
	"forumgm/game"
	"testing"
)

// FuzzJudge: any post text, from a player or a stranger, in the thread or privately, gets a
// verdict without a panic; a post that is not accepted changes nothing; an accepted one folds.
func FuzzJudge(f *testing.F) {
	for _, s := range []string{
		"1-й ход крестоносца к1 на K16",
		"1-й ход к1 на K14",
		"2-й ход крестоносца в1 на Z9",
		"р1 атакует мечом с2",
		"а1+а2 стреляют в K5",
		"к1,к2 строем на J16",
		"р2 копьём на R14",
		"ранение: р2 защита",
		"расстановка: р1 P18",
		"[quote=gm-bot][code]|__|__|[/code][/quote]\nн2 -> G5",
		"#спор",
		"помощь",
		"Ответ: Эдесса",
	} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, text string, who uint8) {
		c := newRef(t)
		author := []string{"Джелу", "snovaya", "Vasya", "gm-bot"}[who%4]
		in := post(author, at(19, 5), text)
		if who&4 != 0 {
			in.Source = game.PM
		}
		before, _ := c.game().SnapshotJSON()
		out, err := c.Judge(in)
		if err != nil {
			t.Fatalf("%q by %s: %v", text, author, err)
		}
		after, _ := c.game().SnapshotJSON()
		if out.Verdict != game.Accepted && string(before) != string(after) {
			t.Fatalf("%q by %s: verdict %s changed the state", text, author, out.Verdict)
		}
		if (out.Verdict != game.Ignored || in.Source == game.PM) && author != "gm-bot" && len(out.Messages) == 0 {
			t.Fatalf("%q by %s: verdict %s without a reply", text, author, out.Verdict)
		}
	})
}
