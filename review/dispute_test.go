package review

import (
	"context"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/game"
	gcr "forumgm/games/crusade"
	cr "forumgm/games/crusade/rules"
	"forumgm/parser"
	"forumgm/store"
)

// disputeRig is a Crusade game in a real store where Джелу's first move was judged by the real
// referee (without the quoted board: 1 wound for sloppiness) and Джелу's next post disputes it.
type disputeRig struct {
	st   *store.Store
	rv   *Review
	flag int64
}

func newDisputeRig(t *testing.T, move, dispute string) *disputeRig {
	t.Helper()
	ctx := context.Background()
	newRef := crusadeFactory(t)
	st, err := store.Open(ctx, t.TempDir()+"/s.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.EnsureGame(ctx, "g", "crusade", nil); err != nil {
		t.Fatal(err)
	}
	ref, err := newRef()
	if err != nil {
		t.Fatal(err)
	}
	judge := func(id, text string, at time.Time) {
		post := parser.FromBBCode(text)
		post.ID, post.Author, post.Time = id, "Джелу", at
		out, err := ref.Judge(game.Input{Source: game.Thread, PostID: id, Author: "Джелу", At: at, Post: post})
		if err != nil {
			t.Fatal(err)
		}
		cm := store.Commit{Game: "g", At: at, Post: &store.Judgement{Source: store.SourceThread, Post: post, Verdict: out.Verdict}}
		if err := cm.Fill(out, &game.Input{Source: game.Thread, PostID: id, Author: "Джелу", At: at, Post: post}, store.Notify{}); err != nil {
			t.Fatal(err)
		}
		if err := st.Commit(ctx, cm); err != nil {
			t.Fatal(err)
		}
	}
	when := time.Date(2026, 12, 1, 19, 5, 0, 0, msk)
	if move != "" {
		judge("7", move, when)
	}
	judge("8", dispute, when.Add(5*time.Minute))
	now := when.Add(20 * time.Minute)
	rv := &Review{Store: st, Game: "g", NewReferee: reviewRef(newRef), Now: func() time.Time { return now },
		Moderators: []string{"Moderator"}, Caps: forum.Capabilities{PrivateMessages: true}}
	flags, err := rv.List(ctx)
	if err != nil || len(flags) != 1 || flags[0].Kind != store.FlagDispute {
		t.Fatalf("want one dispute flag: %+v %v", flags, err)
	}
	// Only the settlement's own posts count below.
	pending, _ := st.PendingOutbox(ctx, "g")
	for _, p := range pending {
		if err := st.MarkPosted(ctx, p.ID, "x"+p.Marker, now); err != nil {
			t.Fatal(err)
		}
	}
	return &disputeRig{st: st, rv: rv, flag: flags[0].ID}
}

// posted is the settlement's queued posts.
func (r *disputeRig) posted(t *testing.T) []store.OutboxRow {
	t.Helper()
	p, err := r.st.PendingOutbox(context.Background(), "g")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (r *disputeRig) owed(t *testing.T) int {
	t.Helper()
	ref, _, err := r.rv.referee(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ref.Snapshot().(gcr.Final).Wounds[string(cr.Crusaders)]
}

// Every way of settling a dispute posts to the player who disputed, says the outcome, and
// resolves the flag; overturning takes the penalty back and judges the move as the player meant
// it. A settlement needs a reason, and is for disputes only.
func TestDisputeSettlement(t *testing.T) {
	const move = "1-й ход крестоносца к1 на K16" // no quoted board: 1 wound
	const dispute = "#спор цитата поля была в прошлом посте"
	ctx := context.Background()
	cases := []struct {
		name  string
		do    func(r *disputeRig) (game.Outcome, error)
		state store.FlagState
		want  []string
		owed  int
	}{
		{"uphold", func(r *disputeRig) (game.Outcome, error) {
			return r.rv.Uphold(ctx, r.flag, "Moderator", "поле нужно цитировать в каждом ходе")
		}, store.FlagRejected, []string{"Джелу", "решение остаётся в силе", "поле нужно цитировать в каждом ходе"}, 1},
		{"overturn", func(r *disputeRig) (game.Outcome, error) {
			return r.rv.Overturn(ctx, r.flag, "Moderator", "поле было в цитате", "")
		}, store.FlagAccepted, []string{"Джелу", "в вашу пользу", "поле было в цитате", "снято 1 ранение", "крестоносцев: 0"}, 0},
		{"settle", func(r *disputeRig) (game.Outcome, error) {
			return r.rv.Settle(ctx, r.flag, "Moderator", "объяснил", "ранение остаётся, но в следующий раз предупрежу")
		}, store.FlagDismissed, []string{"Джелу", "ранение остаётся, но в следующий раз предупрежу"}, 1},
		{"close", func(r *disputeRig) (game.Outcome, error) {
			return r.rv.Close(ctx, r.flag, "Moderator", "договорились в личке")
		}, store.FlagDismissed, []string{"Джелу", "закрыл ваш спор", "договорились в личке"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newDisputeRig(t, move, dispute)
			if r.owed(t) != 1 {
				t.Fatalf("the sloppy move must cost a wound: owed %d", r.owed(t))
			}
			if c.name != "close" {
				// Without a reason nothing happens.
				var err error
				switch c.name {
				case "uphold":
					_, err = r.rv.Uphold(ctx, r.flag, "Moderator", "")
				case "overturn":
					_, err = r.rv.Overturn(ctx, r.flag, "Moderator", " ", "")
				case "settle":
					_, err = r.rv.Settle(ctx, r.flag, "Moderator", "", "текст")
				}
				if err == nil {
					t.Fatal("a settlement without a reason must fail")
				}
			}
			if _, err := c.do(r); err != nil {
				t.Fatal(err)
			}
			posts := r.posted(t)
			if len(posts) != 1 {
				t.Fatalf("want one post to the player, got %+v", posts)
			}
			for _, w := range c.want {
				if !strings.Contains(posts[0].Body, w) {
					t.Errorf("the post lacks %q:\n%s", w, posts[0].Body)
				}
			}
			if posts[0].Kind != store.OutboxReply {
				t.Errorf("a thread dispute is answered in the thread, not to %q", posts[0].Recipient)
			}
			if f, _ := r.st.Flag(ctx, r.flag); f.State != c.state || f.ResolvedBy != "Moderator" {
				t.Fatalf("flag %+v, want %s", f, c.state)
			}
			if got := r.owed(t); got != c.owed {
				t.Fatalf("owed wounds %d, want %d", got, c.owed)
			}
			if _, err := c.do(r); err == nil {
				t.Fatal("a settled dispute settled again")
			}
		})
	}
}

// Overturning with the move as the player meant it judges that move as the player's: the ruling
// comes first, then the move's reply with the board, in one post.
func TestDisputeOverturnWithMove(t *testing.T) {
	ctx := context.Background()
	r := newDisputeRig(t, "", "#спор я писал ход к1 на K16, а бот его не понял")
	if _, err := r.rv.Overturn(ctx, r.flag, "Moderator", "ход понятен", "1-й ход крестоносца к1 на К-шестнадцать"); err == nil ||
		!strings.Contains(err.Error(), "no readable") {
		t.Fatalf("an unreadable corrected move: %v", err)
	}
	if _, err := r.rv.Overturn(ctx, r.flag, "Moderator", "ход понятен", "1-й ход крестоносца к1 на K10"); err == nil ||
		!strings.Contains(err.Error(), "refused") {
		t.Fatalf("an illegal corrected move: %v", err)
	}
	if p := r.posted(t); len(p) != 0 {
		t.Fatalf("a refused overturn posted %+v", p)
	}
	out, err := r.rv.Overturn(ctx, r.flag, "Moderator", "ход понятен", "1-й ход крестоносца к1 на K16")
	if err != nil {
		t.Fatal(err)
	}
	if out.Verdict != game.Accepted {
		t.Fatalf("verdict %s", out.Verdict)
	}
	posts := r.posted(t)
	if len(posts) != 1 {
		t.Fatalf("want one post, got %+v", posts)
	}
	body := posts[0].Body
	ruling, board := strings.Index(body, "в вашу пользу"), strings.Index(body, "к1: K17 → K16")
	if ruling < 0 || board < ruling {
		t.Fatalf("the ruling first, then the move's reply:\n%s", body)
	}
}

// Uphold, overturn and settle are for disputes; another flag is refused loudly.
func TestSettleNotDispute(t *testing.T) {
	r := newSettleRig(t, store.FlagUnreadable, store.VerdictFlagged, "Джелу", "1-й ход крестоносца к1 на К-шестнадцать")
	ctx := context.Background()
	if _, err := r.rv.Uphold(ctx, r.flag, "Moderator", "нет"); err == nil || !strings.Contains(err.Error(), "not a dispute") {
		t.Fatalf("uphold of an unreadable move: %v", err)
	}
	if _, err := r.rv.Settle(ctx, r.flag, "Moderator", "нет", ""); err == nil || !strings.Contains(err.Error(), "not a dispute") {
		t.Fatalf("settle of an unreadable move: %v", err)
	}
}
