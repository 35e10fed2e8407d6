package daemon

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/game"
	"forumgm/review"
	"forumgm/store"
	"forumgm/transcript"
)

// TestWholeGameE2E runs each game from an empty thread through the daemon over loopback HTTP on
// the sandbox forum, as issue 22's "Done when" says: the game's whole example transcript
// (games/<name>/examples/<name>-whole.yaml) is played post by post on the board — players sign up
// in the thread, organise by private message, play, get reminders, one leaves and is replaced,
// the master extends a deadline (and replaces or lengthens) through review, as the CLI and the web
// UI do — with a new daemon process taking over half-way. Each post must be judged as the
// transcript's replay judges it, each player must get the replay's reminders exactly once, and
// the game must end with its summary; a referee re-folded from the store agrees that it is over.
func TestWholeGameE2E(t *testing.T) {
	cases := []struct {
		name, yaml string
	}{
		{"dragonball", `  kind: dragonball
  timezone: Europe/Moscow
  start: "2026-12-01T10:00:00+03:00"
  reminders: 2h
  signup: {deadline: "2026-12-02T10:00:00+03:00", team_size: 2, until_full: true, organise: 12h}
  settings: {rounds: 2, deadline: "23:00"}
`},
		{"football", `  kind: football
  timezone: Europe/Moscow
  start: "2026-12-01T10:00:00+03:00"
  reminders: 5m
  signup: {deadline: "2026-12-01T12:00:00+03:00", teams: [Спартак, Динамо], organise: 2h}
  settings: {first_turn: "2026-12-01T20:00:00+03:00", turn_every: 30m, window: 10m, turns_max: 2, turns_early: 0, dice: {37: 1, 12: 1}}
`},
		{"crusade", `  kind: crusade
  timezone: Europe/Moscow
  start: "2026-12-01T12:00:00+03:00"
  reminders: 2h
  signup: {deadline: "2026-12-02T12:00:00+03:00", team_size: 2, until_full: true, organise: 6h}
  settings: {board_required: false}
`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := transcript.Load(filepath.Join("..", "games", c.name, "examples", c.name+"-whole.yaml"), known)
			if err != nil {
				t.Fatal(err)
			}
			res, err := tr.Replay()
			if err != nil {
				t.Fatal(err)
			}
			users := []string{"gm-bot", "Moderator"}
			for _, p := range tr.Posts {
				name := p.Author
				if p.Command != "" { // a moderator's replacement is a forum user too
					cmd, err := transcript.Command(p, msk)
					if err != nil {
						t.Fatal(err)
					}
					name = cmd.Replacement
				}
				if name != "" && !slices.Contains(users, name) {
					users = append(users, name)
				}
			}
			b := newBoard(t, tr.Start, users, "Игра")
			g := b.game(t, c.name, "gm-bot", 1, c.yaml)
			g.settle(t)
			// The draws come from the daemon's own seed (config may not name one), so only what
			// the draws cannot change is compared with the replay: verdicts, answers' first lines,
			// reminders.
			rv := &review.Review{Store: g.st, Game: g.id, NewReferee: func() (review.Referee, error) { return g.newRef() }, Now: b.clock.Now, Location: msk}
			for i, p := range tr.Posts {
				if i == len(tr.Posts)/2 {
					g.restart(t, "") // a new process mid-way: the game comes back from the store
				}
				want := res.Posts[i]
				b.clock.Set(p.At)
				g.settle(t) // the timers due by now fire before the post is written
				before, pmBefore := len(g.botPosts(t)), 0
				if p.Private {
					pmBefore = len(g.received(t, p.Author))
				}
				var id string
				switch {
				case p.Command != "":
					cmd, err := transcript.Command(p, msk)
					if err != nil {
						t.Fatal(err)
					}
					if err := byReview(rv, cmd); err != nil {
						t.Fatalf("post %d: the moderator's %q: %v", i, p.Command, err)
					}
				case p.Private:
					g.pm(t, p.Author, p.Text)
				default:
					id = strconv.Itoa(g.post(t, p.Author, p.Text))
				}
				// A private message is read once the board's unread counter is looked at again
				// (within PMLookEvery), a thread post at the next poll.
				wait := 30 * time.Second
				if p.Private {
					wait = PMLookEvery + 5*time.Second
				}
				b.clock.Advance(wait)
				g.settle(t)
				got := g.botPosts(t)[before:]
				if p.Private {
					got = g.received(t, p.Author)[pmBefore:]
				}
				for _, r := range want.Replies {
					if strings.HasPrefix(r, "[ЛС для ") != p.Private {
						continue // the other channel's reply (a PM's public announcement, or the reverse)
					}
					// The transcript's moderator is «Модератор», the board's «Moderator».
					if first := strings.ReplaceAll(replyLine(r), "Модератор", "Moderator"); withText(got, first) == "" {
						t.Errorf("post %d (%s: %q): no answer with %q; got %q", i, p.Author, p.Text+p.Command, first, got)
					}
				}
				if id != "" {
					if v := g.verdict(t, store.SourceThread, id); string(v) != want.Verdict {
						t.Errorf("post %d (%s: %q): verdict %s, the replay's %s", i, p.Author, p.Text, v, want.Verdict)
					}
				}
			}
			// The clock goes through each timed rule after the last post, as the replay's did (a
			// reminder the clock jumped past its debt's deadline is rightly never sent).
			for _, tm := range res.Timed {
				if tm.At.After(b.clock.Now()) && tm.At.Before(tr.Until) {
					b.clock.Set(tm.At)
					b.clock.Advance(30 * time.Second)
					g.settle(t)
				}
			}
			b.clock.Set(tr.Until)
			b.clock.Advance(30 * time.Second)
			g.settle(t)

			// The reminders: the replay's, each exactly once, and none to anyone else.
			wantRem := map[string][]string{}
			for _, tm := range res.Timed {
				for _, r := range tm.Replies {
					if to, body, ok := strings.Cut(strings.TrimPrefix(r, "[ЛС для "), "] "); ok && strings.HasPrefix(r, "[ЛС для ") && strings.Contains(body, "Напоминание:") {
						wantRem[to] = append(wantRem[to], replyLine(body))
					}
				}
			}
			if len(wantRem) == 0 {
				t.Fatal("the example has no reminder")
			}
			for _, u := range users[2:] {
				got := withAll(g.received(t, u), "Напоминание:")
				if len(got) != len(wantRem[u]) {
					t.Errorf("%s got %d reminders, the replay %d: %q", u, len(got), len(wantRem[u]), got)
					continue
				}
				for j, w := range wantRem[u] {
					if !strings.Contains(got[j], w) {
						t.Errorf("%s's reminder %d: %q, want %q", u, j, got[j], w)
					}
				}
			}
			posts := g.botPosts(t)
			if last := posts[len(posts)-1]; !strings.Contains(last, "в цифрах[/b]") {
				t.Errorf("the game does not end with its summary: %q", last)
			}
			k := g.kinds(t)
			for _, kind := range []string{"signup.formed", "signup.started", "signup.departed", c.name + ".player_replaced", "judge.extended", "judge.reminded", "judge.summary"} {
				if k[kind] == 0 {
					t.Errorf("no %s event; have %v", kind, k)
				}
			}
			g.exactlyOnce(t)
			if !g.newRefOver(t) {
				t.Error("the game re-folded from the store is not over")
			}
		})
	}
}

// byReview carries out a transcript's moderator command through review, as `forumgm review` and
// the web UI do (the running daemon posts what it says).
func byReview(rv *review.Review, cmd game.ModCommand) error {
	ctx, by := context.Background(), "Moderator"
	var err error
	switch cmd.Action {
	case game.ModExtend:
		_, err = rv.Extend(ctx, by, cmd.Reason, cmd.Delay, cmd.Deadline)
	case game.ModHoliday:
		_, err = rv.Holiday(ctx, by, cmd.Reason, cmd.Day)
	case game.ModClarify:
		_, err = rv.Clarify(ctx, by, cmd.Reason, cmd.Text)
	case game.ModLength:
		_, err = rv.Length(ctx, by, cmd.Reason, cmd.Amount)
	case game.ModReplace:
		_, err = rv.Replace(ctx, by, cmd.Reason, cmd.Player, cmd.Replacement)
	case game.ModRemove:
		_, err = rv.Remove(ctx, by, cmd.Reason, cmd.Player)
	case game.ModEnd:
		_, err = rv.End(ctx, by, cmd.Reason, cmd.Winner)
	default:
		err = fmt.Errorf("no review command for %q", cmd.Action)
	}
	return err
}

// replyLine is a reply's first line without the private-message prefix.
func replyLine(s string) string {
	if strings.HasPrefix(s, "[ЛС для ") {
		_, s, _ = strings.Cut(s, "] ")
	}
	line := []rune(firstLine(s))
	if len(line) > 120 {
		line = line[:120] // firstLine cuts long lines with an ellipsis
	}
	// What the draws decided differs (the chain holds the forum's post ids, not the transcript's
	// indexes): the start's draw announced, a face rolled.
	for _, cut := range []string{":[/b] ", " — на кубике "} {
		if i := strings.Index(string(line), cut); i >= 0 && strings.HasPrefix(string(line), "[b]Жеребьёвка") == (cut == ":[/b] ") {
			return string(line)[:i]
		}
	}
	return string(line)
}
