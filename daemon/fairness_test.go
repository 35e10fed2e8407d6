package daemon

import (
	"strings"
	"testing"
	"time"

	"forumgm/fairness"
	"forumgm/forum"
	"forumgm/game"
)

// With a served pictures folder (attachments.public_url) the game's final post links the
// players' fair-play check, seed, salt and commitment in the link's fragment (issue 20).
func TestRevealLinksTheFairnessCheck(t *testing.T) {
	cfg := crusadeConfig(t, `attachments: {dir: pics, public_url: "https://example.org/pics/"}`+"\n")
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	f, err := RefereeFactory(cfg, forum.Capabilities{PrivateMessages: true}, GameRecord{Start: start, Seed: "e2e", Salt: "salt"})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := f()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ref.Start(start); err != nil {
		t.Fatal(err)
	}
	out, err := ref.Moderate(game.ModCommand{Action: game.ModEnd, By: "Moderator", Winner: "crusaders", Reason: "проверка", At: start.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, m := range out.Messages {
		all.WriteString(m.Body)
	}
	want := "[url=" + fairness.URL("https://example.org/pics/") + "#seed=e2e&salt=salt&c="
	if !strings.Contains(all.String(), want) {
		t.Errorf("the final post does not link the check page %s:\n%s", want, all.String())
	}
}
