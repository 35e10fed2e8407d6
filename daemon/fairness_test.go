package daemon

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/fairness"
	"forumgm/forum"
	"forumgm/game"
	"forumgm/store"
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

// Register keeps the seed and salt apart from the game's config row: a read of the config never
// shows them, the secrets table gives them, and a second Register (a restart) keeps the first.
func TestRegisterKeepsTheSeedApart(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "forumgm.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := crusadeConfig(t, "")
	now := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	rec, err := Register(ctx, st, cfg, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Seed) != 64 || len(rec.Salt) != 64 || rec.Seed == rec.Salt {
		t.Fatalf("drawn secrets: %q %q", rec.Seed, rec.Salt)
	}
	g, err := st.Game(ctx, cfg.Game.ID)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(g.Config), rec.Seed) || strings.Contains(string(g.Config), rec.Salt) || strings.Contains(string(g.Config), "seed") {
		t.Errorf("the config row shows a secret: %s", g.Config)
	}
	if sec, err := st.GameSecret(ctx, cfg.Game.ID); err != nil || sec.Seed != rec.Seed || sec.Salt != rec.Salt {
		t.Errorf("secrets table: %+v %v", sec, err)
	}
	again, err := Register(ctx, st, cfg, now.Add(time.Hour))
	if err != nil || again.Seed != rec.Seed || again.Salt != rec.Salt || !again.Start.Equal(rec.Start) {
		t.Errorf("a restart re-registered the game: %+v %v", again, err)
	}
}
