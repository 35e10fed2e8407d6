package review

import (
	"context"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/referee"
	"forumgm/store"
)

type modEvent struct {
	Action string `json:"action"`
}

func (modEvent) EventKind() string { return "mod" }

// reviewRef is a factory of real referees as Review takes it.
func reviewRef(newRef func() (*referee.Referee, error)) func() (Referee, error) {
	return func() (Referee, error) { return newRef() }
}

// modRef is a referee that only knows moderator commands.
type modRef struct{ paused bool }

func (m *modRef) Restore(recs []game.Record) error          { return nil }
func (m *modRef) Rechain([]game.Link) error                 { return nil }
func (m *modRef) Snapshot() any                             { return nil }
func (m *modRef) Rules() game.Rules                         { return nil }
func (m *modRef) View(time.Time) (game.View, bool, error)   { return game.View{}, false, nil }
func (m *modRef) LastUndoable() (string, bool)              { return "", false }
func (m *modRef) Describer() game.Describer                 { return nil }
func (m *modRef) Describe(game.Record) string               { return "" }
func (m *modRef) UnreadableReply(game.Input) (string, bool) { return "", false }
func (m *modRef) Moderate(c game.ModCommand) (game.Outcome, error) {
	out := game.Outcome{Verdict: game.Accepted, Events: []game.Event{modEvent{Action: string(c.Action)}}}
	switch c.Action {
	case game.ModAccept:
		out.Messages = []game.Message{{Body: "Ход принят модератором."}}
	case game.ModPause:
		out.Messages = []game.Message{{Body: "Игра на паузе."}}
	}
	return out, nil
}

func TestReviewAcceptAndPause(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, t.TempDir()+"/s.db")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.EnsureGame(ctx, "g", "fake", nil); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	post := forum.Post{ID: "7", Author: "Джелу", Time: now, Text: "хд к1 K16"}
	err = st.Commit(ctx, store.Commit{Game: "g", At: now, Post: &store.Judgement{Source: store.SourceThread, Post: post, Verdict: store.VerdictFlagged},
		Flags: []store.NewFlag{{Source: store.SourceThread, PostID: "7", Kind: store.FlagUnreadable, Detail: "?"}}})
	if err != nil {
		t.Fatal(err)
	}
	rv := &Review{Store: st, Game: "g", NewReferee: func() (Referee, error) { return &modRef{}, nil },
		Now: func() time.Time { return now }, Moderators: []string{"Moderator"}, Caps: forum.Capabilities{PrivateMessages: true}}
	flags, err := rv.List(ctx)
	if err != nil || len(flags) != 1 {
		t.Fatalf("list: %v %v", flags, err)
	}
	if _, err := rv.Reject(ctx, flags[0].ID, "Moderator", ""); err == nil {
		t.Fatal("reject without a reason must fail")
	}
	if _, err := rv.Accept(ctx, flags[0].ID, "Moderator", "ход читается"); err != nil {
		t.Fatal(err)
	}
	if _, err := rv.Accept(ctx, flags[0].ID, "Moderator", "again"); err == nil {
		t.Fatal("a resolved flag cannot be accepted twice")
	}
	if _, err := rv.Pause(ctx, "Moderator", "перерыв"); err != nil {
		t.Fatal(err)
	}
	evs, _ := st.Events(ctx, "g")
	if len(evs) != 2 || evs[0].Actor != "Moderator" || evs[0].Reason != "ход читается" || evs[0].Cause != "moderator:Moderator" {
		t.Fatalf("events: %+v", evs)
	}
	rec, _, _ := st.SeenPost(ctx, "g", store.SourceThread, "7")
	if rec.Verdict != store.VerdictAccepted {
		t.Fatalf("verdict %s", rec.Verdict)
	}
	out, _ := st.PendingOutbox(ctx, "g")
	if len(out) != 2 || out[1].Body == "" { // the acceptance reply and the pause notice
		t.Fatalf("outbox: %+v", out)
	}
	if g, _ := st.Game(ctx, "g"); !g.Paused || g.PausedBy != "Moderator" {
		t.Fatalf("game: %+v", g)
	}
}
