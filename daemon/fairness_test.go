package daemon

import (
	"strings"
	"testing"
	"time"

	"forumgm/config"
	"forumgm/fairness"
	"forumgm/forum"
	"forumgm/judge"
)

// With a served pictures folder (attachments.public_url) the game's final post links the
// players' fair-play check, seed, salt and commitment in the link's fragment (issue 20).
func TestRevealLinksTheFairnessCheck(t *testing.T) {
	cfg, err := config.Parse([]byte(`
forum: {url: "http://127.0.0.1:1/", thread: "1"}
bot: {username: gm-bot, password_env: PW}
moderators: [Moderator]
game:
  id: g1
  kind: crusade
  timezone: Europe/Moscow
  roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]
attachments: {dir: pics, public_url: "https://example.org/pics/"}
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	f, err := RefereeFactory(cfg, forum.Capabilities{PrivateMessages: true}, GameRecord{Start: start, Seed: "5eed", Salt: "5a17"})
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
	out, err := ref.Moderate(judge.ModCommand{Action: judge.ModEnd, By: "Moderator", Winner: "crusaders", Reason: "проверка", At: start.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, m := range out.Messages {
		all.WriteString(m.Body)
	}
	want := "[url=" + fairness.URL("https://example.org/pics/") + "#seed=5eed&salt=5a17&c="
	if !strings.Contains(all.String(), want) {
		t.Errorf("the final post does not link the check page %s:\n%s", want, all.String())
	}
}
