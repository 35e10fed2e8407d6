package review

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	gcr "forumgm/games/crusade"
	cr "forumgm/games/crusade/rules"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/parser"
	"forumgm/referee"
	"forumgm/store"
)

var msk = time.FixedZone("MSK", 3*3600)

func crusadeFactory(t *testing.T) func() (*referee.Referee, error) {
	t.Helper()
	// board_required defaults to true: a move without the quoted board is sloppy.
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]"), &n); err != nil {
		t.Fatal(err)
	}
	setup, err := gcr.Game{}.Setup(game.Spec{Node: *n.Content[0], Start: time.Date(2026, 12, 1, 18, 0, 0, 0, msk)})
	if err != nil {
		t.Fatal(err)
	}
	return func() (*referee.Referee, error) {
		return referee.New(setup, referee.Options{Bot: "gm-bot", Seed: "test", Salt: "salt"})
	}
}

// turns lists the TurnPlayed events of an outcome.
func turns(evs []game.Event) []*cr.TurnPlayed {
	var out []*cr.TurnPlayed
	for _, e := range evs {
		switch tp := e.(type) {
		case *cr.TurnPlayed:
			out = append(out, tp)
		case cr.TurnPlayed:
			out = append(out, &tp)
		}
	}
	return out
}

// A move post that quotes the correct board after the move, flagged for the moderator, is accepted
// by the moderator as the daemon saw it: quote included, so it is not sloppy (no wound). Before
// the store kept whole posts, the re-judged post had lost its quote and got "board missing".
func TestAcceptJudgesTheQuotedBoard(t *testing.T) {
	ctx := context.Background()
	newRef := crusadeFactory(t)
	when := time.Date(2026, 12, 1, 19, 5, 0, 0, msk)
	move := "1-й ход крестоносца к1 на K16"

	// The correct board after the move, drawn by a scratch referee.
	scratch, err := newRef()
	if err != nil {
		t.Fatal(err)
	}
	bare := game.Input{Source: game.Thread, PostID: "1", Author: "Джелу", At: when, Post: parser.FromBBCode(move)}
	out, err := scratch.Judge(bare)
	if err != nil || out.Verdict != game.Accepted {
		t.Fatalf("scratch move: %v %+v", err, out)
	}
	if tp := turns(out.Events); len(tp) != 1 || len(tp[0].Sloppy) != 1 || tp[0].Sloppy[0].Code != cr.SloppyBoardMissing {
		t.Fatalf("without the quote the move must be sloppy (board missing), got %+v", tp)
	}
	board := cr.Render(scratch.Rules().(*gcr.Rules).Game().Tokens())
	if !strings.Contains(board, "|к1|") {
		t.Fatalf("board lacks к1:\n%s", board)
	}

	post := parser.FromBBCode("[quote=\"gm-bot\" pid='3' dateline='1796000000']\n" + board + "\n[/quote]\n" + move)
	post.ID, post.Author, post.Time = "7", "Джелу", when
	if len(post.Quotes) != 1 || strings.TrimSpace(post.Text) != move {
		t.Fatalf("post as the forum gives it: %+v", post)
	}

	st, err := store.Open(ctx, t.TempDir()+"/s.db")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.EnsureGame(ctx, "g", "crusade", nil); err != nil {
		t.Fatal(err)
	}
	// The daemon flagged it (say a referee error or a dispute keyword) and stored it as it read it.
	err = st.Commit(ctx, store.Commit{Game: "g", At: when,
		Post:  &store.Judgement{Source: store.SourceThread, Post: post, Verdict: store.VerdictFlagged},
		Flags: []store.NewFlag{{Source: store.SourceThread, PostID: "7", Kind: store.FlagUnreadable, Detail: "ошибка судьи"}}})
	if err != nil {
		t.Fatal(err)
	}
	now := when.Add(20 * time.Minute)
	rv := &Review{Store: st, Game: "g", NewReferee: reviewRef(newRef), Now: func() time.Time { return now },
		Moderators: []string{"Moderator"}, Caps: forum.Capabilities{PrivateMessages: true}}
	flags, err := rv.List(ctx)
	if err != nil || len(flags) != 1 {
		t.Fatalf("flags: %+v %v", flags, err)
	}
	c, err := rv.Show(ctx, flags[0].ID)
	if err != nil || len(c.Post.Post.Quotes) != 1 || !strings.Contains(c.Post.Post.Quotes[0].Text, "к1") {
		t.Fatalf("the stored post lost its quote: %+v %v", c.Post, err)
	}
	out, err = rv.Accept(ctx, flags[0].ID, "Moderator", "ход читается")
	if err != nil {
		t.Fatal(err)
	}
	tp := turns(out.Events)
	if out.Verdict != game.Accepted || len(tp) != 1 {
		t.Fatalf("accept: verdict %s, turns %+v", out.Verdict, tp)
	}
	if len(tp[0].Sloppy) != 0 || tp[0].Wounds != 0 || len(tp[0].BoardDiff) != 0 {
		t.Fatalf("a move quoting the correct board was judged sloppy: %+v (diff %+v, wounds %d)", tp[0].Sloppy, tp[0].BoardDiff, tp[0].Wounds)
	}
	for _, m := range out.Messages {
		if strings.Contains(m.Body, "не процитировано") || strings.Contains(m.Body, "не совпадает с позицией") {
			t.Errorf("reply speaks of sloppiness:\n%s", m.Body)
		}
	}
	// The log holds the same: the turn as committed has no sloppiness.
	evs, err := st.Events(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range evs {
		if strings.Contains(e.Kind, "turn") {
			found = true
			if strings.Contains(string(e.Data), "sloppy") {
				t.Errorf("logged turn is sloppy: %s", e.Data)
			}
			if e.Actor != "Moderator" || e.Cause != store.ModeratorCause("Moderator") {
				t.Errorf("logged turn without the moderator: %+v", e)
			}
		}
	}
	if !found {
		t.Fatalf("no turn in the log: %+v", evs)
	}
	if rec, _, _ := st.SeenPost(ctx, "g", store.SourceThread, "7"); rec.Verdict != store.VerdictAccepted {
		t.Fatalf("verdict %s", rec.Verdict)
	}
}
