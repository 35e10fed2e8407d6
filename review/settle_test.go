package review

import (
	"context"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/parser"
	"forumgm/referee"
	"forumgm/store"
)

// settleRig is a Crusade game in a store with one judged move, and a flagged post of a kind.
type settleRig struct {
	st   *store.Store
	rv   *Review
	flag int64
	when time.Time
}

func newSettleRig(t *testing.T, kind store.FlagKind, verdict store.Verdict, author, text string) *settleRig {
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
	when := time.Date(2026, 12, 1, 19, 5, 0, 0, msk)
	post := parser.FromBBCode(text)
	post.ID, post.Author, post.Time = "7", author, when
	// The daemon's own verdict for the post, and its events, as the real referee gave them.
	ref, err := newRef()
	if err != nil {
		t.Fatal(err)
	}
	cm := store.Commit{Game: "g", At: when, Post: &store.Judgement{Source: store.SourceThread, Post: post, Verdict: verdict},
		Flags: []store.NewFlag{{Source: store.SourceThread, PostID: "7", Kind: kind, Detail: "?"}}}
	if verdict == store.VerdictAccepted {
		out, err := ref.Judge(game.Input{Source: game.Thread, PostID: "7", Author: author, At: when, Post: post})
		if err != nil || out.Verdict != game.Accepted {
			t.Fatalf("the move must be legal: %v %+v", err, out)
		}
		for _, ev := range out.Events {
			rec, err := game.Encode(ev)
			if err != nil {
				t.Fatal(err)
			}
			cm.Events = append(cm.Events, rec)
		}
	}
	if err := st.Commit(ctx, cm); err != nil {
		t.Fatal(err)
	}
	now := when.Add(17 * time.Minute)
	rv := &Review{Store: st, Game: "g", NewReferee: reviewRef(newRef), Now: func() time.Time { return now },
		Moderators: []string{"Moderator"}, Caps: forum.Capabilities{PrivateMessages: true}}
	flags, err := rv.List(ctx)
	if err != nil || len(flags) != 1 {
		t.Fatalf("flags %+v %v", flags, err)
	}
	return &settleRig{st: st, rv: rv, flag: flags[0].ID, when: when}
}

func (r *settleRig) kinds(t *testing.T) []string {
	evs, err := r.st.Events(context.Background(), "g")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		out = append(out, e.Kind)
	}
	return out
}

// Accepting an edited move's flag keeps the first-seen move: nothing is judged again (a move
// accepted 17 minutes earlier is not answered "не ваша очередь" nor applied twice).
func TestAcceptEditedKeepsFirstVersion(t *testing.T) {
	for _, kind := range []store.FlagKind{store.FlagEdited, store.FlagDeleted, store.FlagDispute} {
		t.Run(string(kind), func(t *testing.T) {
			r := newSettleRig(t, kind, store.VerdictAccepted, "Джелу", "1-й ход крестоносца к1 на K16")
			before := r.kinds(t)
			out, err := r.rv.Accept(context.Background(), r.flag, "Moderator", "всё верно")
			if err != nil {
				t.Fatal(err)
			}
			after := r.kinds(t)
			if len(after) != len(before)+1 || after[len(after)-1] != referee.KindModerated {
				t.Fatalf("want only the moderator's decision logged: %v → %v", before, after)
			}
			if len(out.Messages) != 1 || strings.Contains(out.Messages[0].Body, "не принят") || !strings.Contains(out.Messages[0].Body, "Moderator") {
				t.Fatalf("reply %+v", out.Messages)
			}
			if f, _ := r.st.Flag(context.Background(), r.flag); f.State != store.FlagAccepted {
				t.Fatalf("flag %+v", f)
			}
		})
	}
}

// An unreadable move is accepted as the moderator retyped it, judged as the player's, with the
// moderator named in the reply.
func TestAcceptUnreadableWithText(t *testing.T) {
	r := newSettleRig(t, store.FlagUnreadable, store.VerdictFlagged, "Джелу", "1-й ход крестоносца к1 на К-шестнадцать")
	if _, err := r.rv.Accept(context.Background(), r.flag, "Moderator", ""); err == nil || !strings.Contains(err.Error(), "no readable move") {
		t.Fatalf("accept without the move's text: %v", err)
	}
	out, err := r.rv.AcceptAs(context.Background(), r.flag, "Moderator", "игрок имел в виду K16", "1-й ход крестоносца к1 на K16")
	if err != nil {
		t.Fatal(err)
	}
	if out.Verdict != game.Accepted || len(out.Messages) == 0 || !strings.Contains(out.Messages[0].Body, "к1: K17 → K16") ||
		!strings.Contains(out.Messages[0].Body, "модератором Moderator") || !strings.Contains(out.Messages[0].Body, "Джелу") {
		t.Fatalf("accept as retyped: %s %+v", out.Verdict, out.Messages)
	}
}

// A flag settled elsewhere is closed with no post at all, its reason logged (a dispute's
// author is told: dispute_test.go).
func TestCloseFlagWithoutPost(t *testing.T) {
	r := newSettleRig(t, store.FlagEdited, store.VerdictAccepted, "Джелу", "1-й ход крестоносца к1 на K16")
	if _, err := r.rv.Close(context.Background(), r.flag, "Moderator", ""); err == nil {
		t.Fatal("close without a reason must fail")
	}
	out, err := r.rv.Close(context.Background(), r.flag, "Moderator", "договорились в чате")
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Messages) != 0 {
		t.Fatalf("close posts nothing: %+v", out.Messages)
	}
	pending, _ := r.st.PendingOutbox(context.Background(), "g")
	if len(pending) != 0 {
		t.Fatalf("outbox %+v", pending)
	}
	f, _ := r.st.Flag(context.Background(), r.flag)
	if f.State != store.FlagDismissed || f.ResolvedBy != "Moderator" {
		t.Fatalf("flag %+v", f)
	}
	if k := r.kinds(t); k[len(k)-1] != referee.KindModerated || strings.Count(strings.Join(k, " "), referee.KindModerated) != 1 {
		t.Fatalf("log %v", k)
	}
}

// Moderators end the game with a winner or a draw; the seed is revealed.
func TestEndWithWinner(t *testing.T) {
	r := newSettleRig(t, store.FlagDispute, store.VerdictFlagged, "snovaya", "#спор")
	if _, err := r.rv.End(context.Background(), "Moderator", "", "draw"); err == nil {
		t.Fatal("end without a reason must fail")
	}
	out, err := r.rv.End(context.Background(), "Moderator", "игроки договорились о ничьей", "draw")
	if err != nil {
		t.Fatal(err)
	}
	body := ""
	for _, m := range out.Messages {
		body += m.Body
	}
	if !strings.Contains(body, "ничья") && !strings.Contains(body, "Ничья") {
		t.Errorf("no draw in the end post: %s", body)
	}
	if !strings.Contains(body, "Зерно партии: test") {
		t.Errorf("the seed is not revealed: %s", body)
	}
	k := r.kinds(t)
	if k[len(k)-1] != referee.KindRevealed {
		t.Fatalf("log %v", k)
	}
}

// A stranger who should play is added to the roster; their move flagged "not in roster" is then
// accepted and judged. A side is given wounds and some are taken back, never below none.
func TestAddPlayerAndAdjustWounds(t *testing.T) {
	r := newSettleRig(t, store.FlagNotInRoster, store.VerdictFlagged, "Вася", "1-й ход крестоносца к1 на K16")
	ctx := context.Background()
	if _, err := r.rv.Accept(ctx, r.flag, "Moderator", ""); err == nil || !strings.Contains(err.Error(), "roster") {
		t.Fatalf("a stranger's move accepted before they play: %v", err)
	}
	if _, err := r.rv.AddPlayer(ctx, "Moderator", "", "Вася", "крестоносцы"); err == nil {
		t.Fatal("adding a player without a reason must fail")
	}
	if _, err := r.rv.AddPlayer(ctx, "Moderator", "записался в теме набора", "Вася", "марсиане"); err == nil {
		t.Fatal("an unknown side must fail")
	}
	out, err := r.rv.AddPlayer(ctx, "Moderator", "записался в теме набора", "Вася", "крестоносцы")
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Messages) != 1 || !strings.Contains(out.Messages[0].Body, "записал в игру Вася") {
		t.Fatalf("announcement %+v", out.Messages)
	}
	out, err = r.rv.Accept(ctx, r.flag, "Moderator", "теперь играет")
	if err != nil || out.Verdict != game.Accepted || !strings.Contains(out.Messages[0].Body, "к1: K17 → K16") {
		t.Fatalf("the flagged move after the player was added: %v %+v", err, out)
	}

	out, err = r.rv.Adjust(ctx, "Moderator", "оскорбление в теме", "сарацины", 2)
	if err != nil || !strings.Contains(out.Messages[0].Body, "+2 ранения сарацинам") {
		t.Fatalf("wounds given: %v %+v", err, out.Messages)
	}
	if _, err := r.rv.Adjust(ctx, "Moderator", "ошибка", "сарацины", -3); err == nil {
		t.Fatal("more wounds taken back than owed")
	}
	out, err = r.rv.Adjust(ctx, "Moderator", "ошибка", "сарацины", -1)
	if err != nil || !strings.Contains(out.Messages[0].Body, "снято 1 ранение") || !strings.Contains(out.Messages[0].Body, "сарацин: 1") {
		t.Fatalf("wounds taken back: %v %+v", err, out.Messages)
	}
	k := r.kinds(t)
	if !strings.Contains(strings.Join(k, " "), "crusade.player_added") || !strings.Contains(strings.Join(k, " "), "crusade.wounds_adjusted") {
		t.Fatalf("log %v", k)
	}
}

// A flag about no post (the daemon's clock_jump flag, which holds the timed rules after this
// host's clock jumped) is confirmed by accepting or closing it: resolved, nothing judged, no event;
// rejecting it has no post to refuse and is refused (issue 19).
func TestSettleFlagWithoutPost(t *testing.T) {
	for _, action := range []string{"accept", "close", "reject"} {
		t.Run(action, func(t *testing.T) {
			r := newSettleRig(t, store.FlagUnreadable, store.VerdictFlagged, "Джелу", "1-й ход крестоносца к1 на K-шестнадцать??")
			ctx := context.Background()
			if err := r.st.Commit(ctx, store.Commit{Game: "g", At: r.when.Add(time.Hour),
				Flags: []store.NewFlag{{Kind: store.FlagClockJump, Detail: "часы прыгнули"}}}); err != nil {
				t.Fatal(err)
			}
			flags, err := r.rv.List(ctx)
			if err != nil || len(flags) != 2 || flags[1].Kind != store.FlagClockJump {
				t.Fatalf("flags %+v %v", flags, err)
			}
			before := r.kinds(t)
			var aerr error
			switch action {
			case "accept":
				_, aerr = r.rv.Accept(ctx, flags[1].ID, "Moderator", "сервер спал")
			case "close":
				_, aerr = r.rv.Close(ctx, flags[1].ID, "Moderator", "сервер спал")
			case "reject":
				_, aerr = r.rv.Reject(ctx, flags[1].ID, "Moderator", "нет")
			}
			open, _ := r.rv.List(ctx)
			if action == "reject" {
				if aerr == nil || len(open) != 2 {
					t.Fatalf("reject of a flag about no post: %v, open %d", aerr, len(open))
				}
				return
			}
			if aerr != nil || len(open) != 1 || open[0].ID == flags[1].ID || len(r.kinds(t)) != len(before) {
				t.Fatalf("%s: %v, open %+v, events %d → %d", action, aerr, open, len(before), len(r.kinds(t)))
			}
		})
	}
}
