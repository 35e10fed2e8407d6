package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/config"
	"forumgm/daemon"
	"forumgm/forum"
	"forumgm/store"
)

// reviewCLI is a started Crusade game in a store beside a config, driven through `forumgm review`.
type reviewCLI struct {
	t    *testing.T
	path string // config.yaml
	cfg  *config.Config
	at   time.Time
}

func newReviewCLI(t *testing.T) *reviewCLI {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	src := `forum: {url: "http://127.0.0.1:1/", dialect: mybb, thread: "1", timezone: Europe/Moscow}
bot: {username: gm-bot, password_env: FORUMGM_TEST_REVIEW_BOT}
moderators: [Moderator]
game: {id: g1, kind: crusade, timezone: Europe/Moscow, start: "2026-12-01T19:00:00+03:00", roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]}
store: {path: forumgm.db}
`
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FORUMGM_TEST_REVIEW_BOT", "x")
	cfg, err := config.Load(path, knownGames())
	if err != nil {
		t.Fatal(err)
	}
	c := &reviewCLI{t: t, path: path, cfg: cfg, at: cfg.StartTime()}
	// The daemon's start: the opening events in the log.
	c.withStore(func(ctx context.Context, st *store.Store) {
		rec, err := daemon.Register(ctx, st, cfg, c.at)
		if err != nil {
			t.Fatal(err)
		}
		newRef, err := daemon.RefereeFactory(cfg, forum.Capabilities{PrivateMessages: true}, rec)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := newRef()
		if err != nil {
			t.Fatal(err)
		}
		out, err := ref.Start(c.at)
		if err != nil {
			t.Fatal(err)
		}
		cm := store.Commit{Game: "g1", At: c.at, Cause: "start"}
		if err := cm.Fill(out, nil, store.Notify{}); err != nil {
			t.Fatal(err)
		}
		if err := st.Commit(ctx, cm); err != nil {
			t.Fatal(err)
		}
	})
	return c
}

func (c *reviewCLI) withStore(fn func(context.Context, *store.Store)) {
	c.t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, c.cfg.Resolve(c.cfg.Store.Path), store.Shared())
	if err != nil {
		c.t.Fatal(err)
	}
	defer st.Close()
	fn(ctx, st)
}

// flag stores a post the daemon flagged and returns the flag's number.
func (c *reviewCLI) flag(id, author, text string, kind store.FlagKind) int64 {
	c.t.Helper()
	var n int64
	c.withStore(func(ctx context.Context, st *store.Store) {
		post := forum.Post{ID: id, Author: author, Time: c.at.Add(10 * time.Minute), Text: text}
		err := st.Commit(ctx, store.Commit{Game: "g1", At: post.Time,
			Post:  &store.Judgement{Source: store.SourceThread, Post: post, Verdict: store.VerdictFlagged},
			Flags: []store.NewFlag{{Source: store.SourceThread, PostID: id, Kind: kind, Detail: "line 1: no cell"}}})
		if err != nil {
			c.t.Fatal(err)
		}
		flags, err := st.OpenFlags(ctx, "g1")
		if err != nil {
			c.t.Fatal(err)
		}
		for _, f := range flags {
			if f.PostID == id {
				n = f.ID
			}
		}
	})
	return n
}

func (c *reviewCLI) run(args ...string) (code int, stdout, stderr string) {
	c.t.Helper()
	var out, errb strings.Builder
	code = run(append([]string{"review", "--config", c.path}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

var cyrillic = regexp.MustCompile(`\p{Cyrillic}`)

// cleanError: one prefix, no other package's prefix, English only (Russian may only come from
// the data quoted, which these errors do not quote).
func cleanError(t *testing.T, stderr string, data ...string) {
	t.Helper()
	for _, d := range data {
		stderr = strings.ReplaceAll(stderr, d, "")
	}
	if !strings.HasPrefix(stderr, "forumgm review: ") || strings.Count(stderr, "review:") > 1 ||
		strings.Contains(stderr, "judge:") || strings.Contains(stderr, "store:") || cyrillic.MatchString(stderr) {
		t.Errorf("error is not one clean English line: %q", stderr)
	}
}

// The moderator's whole job from the CLI: accept an unreadable move as retyped, close a dispute
// without a post, end the game with a draw; --by must be a configured moderator.
func TestReviewCLIActions(t *testing.T) {
	c := newReviewCLI(t)
	unreadable := c.flag("7", "Джелу", "к1 на К-шестнадцать", store.FlagUnreadable)

	// A stranger's name is refused, in English, once.
	code, _, stderr := c.run("accept", itoa64(unreadable), "--by", "Somebody", "--text", "1-й ход крестоносца к1 на K16")
	if code != 1 || !strings.Contains(stderr, `"Somebody" is not a moderator of this game`) || !strings.Contains(stderr, "Moderator") {
		t.Fatalf("accept by a stranger: exit %d, %q", code, stderr)
	}
	cleanError(t, stderr)

	// Without the text the post holds no readable move: said so, with the way out.
	code, _, stderr = c.run("accept", itoa64(unreadable), "--by", "Moderator")
	if code != 1 || !strings.Contains(stderr, "--text") {
		t.Fatalf("accept without text: exit %d, %q", code, stderr)
	}
	cleanError(t, stderr, "Джелу")

	// Accepted as the moderator retyped it (the configured spelling of the name is logged).
	code, stdout, stderr := c.run("accept", itoa64(unreadable), "--by", "moderator", "--text", "1-й ход крестоносца к1 на K16", "--reason", "typo")
	if code != 0 || !strings.HasPrefix(stdout, "flag "+itoa64(unreadable)+" accepted: ") || cyrillic.MatchString(stdout) {
		t.Fatalf("accept --text: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	c.withStore(func(ctx context.Context, st *store.Store) {
		f, err := st.Flag(ctx, unreadable)
		if err != nil || f.State != store.FlagAccepted || f.ResolvedBy != "Moderator" {
			t.Fatalf("flag %+v (%v)", f, err)
		}
		evs, _ := st.Events(ctx, "g1")
		var kinds []string
		for _, e := range evs {
			kinds = append(kinds, e.Kind)
		}
		if !strings.Contains(strings.Join(kinds, " "), "crusade.turn_played judge.moderated") {
			t.Fatalf("events %v", kinds)
		}
	})

	// A dispute closed as settled elsewhere: the player is told the outcome.
	dispute := c.flag("8", "snovaya", "#спор ход был неверный", store.FlagDispute)
	code, _, stderr = c.run("close", itoa64(dispute), "--by", "Moderator")
	if code != 1 || !strings.Contains(stderr, "--reason is required") {
		t.Fatalf("close without a reason: exit %d %q", code, stderr)
	}
	cleanError(t, stderr)
	code, stdout, stderr = c.run("close", itoa64(dispute), "--by", "Moderator", "--reason", "settled by PM")
	if code != 0 || stdout != "flag "+itoa64(dispute)+" closed, the player told: 1 event logged, 1 message queued (the running daemon posts them)\n" {
		t.Fatalf("close: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	// The dispute settlements, as the usage writes them.
	for _, tc := range []struct{ post, action, want string }{
		{"9", "uphold", "the decision stands"},
		{"10", "overturn", "settled for the player"},
		{"11", "settle", "settled with a message"},
	} {
		id := c.flag(tc.post, "snovaya", "#спор "+tc.action, store.FlagDispute)
		args := []string{tc.action, itoa64(id), "--by", "Moderator", "--reason", "разобрались"}
		if tc.action == "settle" {
			args = append(args, "--message", "ранение остаётся")
		}
		code, stdout, stderr = c.run(args...)
		if code != 0 || !strings.Contains(stdout, tc.want) || !strings.Contains(stdout, "1 message queued") {
			t.Fatalf("%s: exit %d\nstdout %q\nstderr %q", tc.action, code, stdout, stderr)
		}
	}

	// Undo names the move it undoes.
	code, stdout, stderr = c.run("undo", "--by", "Moderator", "--reason", "wrong warrior")
	if code != 0 || !strings.HasPrefix(stdout, "undone: ход 1 (Джелу): ") {
		t.Fatalf("undo: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}

	// A player added to the roster, a side's wounds adjusted.
	code, stdout, stderr = c.run("add-player", "Вася", "--role", "saracens", "--by", "Moderator", "--reason", "signed up late")
	if code != 0 || !strings.HasPrefix(stdout, "Вася added (saracens): 1 event logged, 1 message queued") {
		t.Fatalf("add-player: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = c.run("adjust", "saracens", "2", "--by", "Moderator", "--reason", "rudeness")
	if code != 0 || !strings.HasPrefix(stdout, "saracens adjusted by +2: 1 event logged") {
		t.Fatalf("adjust: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	code, _, stderr = c.run("adjust", "saracens", "-9", "--by", "Moderator", "--reason", "oops")
	if code != 1 || !strings.Contains(stderr, "cannot be taken back") {
		t.Fatalf("adjust below none: exit %d %q", code, stderr)
	}
	cleanError(t, stderr)

	// The game ends in a draw.
	code, stdout, stderr = c.run("end", "--by", "Moderator", "--reason", "players agreed", "--winner", "draw")
	if code != 0 || !strings.HasPrefix(stdout, "game ended (winner: draw): ") {
		t.Fatalf("end: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	c.withStore(func(ctx context.Context, st *store.Store) {
		evs, _ := st.Events(ctx, "g1")
		found := false
		for _, e := range evs {
			if e.Kind == "crusade.game_ended" && strings.Contains(string(e.Data), `"winner":"draw"`) && e.Actor == "Moderator" {
				found = true
			}
		}
		if !found {
			t.Fatal("no game_ended event with a draw by Moderator")
		}
	})

	// A flag that does not exist, an unknown action and a bad number: English, no stutter.
	code, _, stderr = c.run("show", "99")
	if code != 1 || !strings.Contains(stderr, "there is no flag 99") {
		t.Fatalf("show 99: %d %q", code, stderr)
	}
	cleanError(t, stderr)
	code, _, stderr = c.run("frobnicate")
	if code != 1 || !strings.Contains(stderr, "usage: forumgm review") {
		t.Fatalf("unknown action: %d %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if last := lines[len(lines)-1]; last != `forumgm review: unknown action "frobnicate"` {
		t.Errorf("unknown action: %q", last)
	}
	code, _, stderr = c.run("show", "x")
	if code != 1 || !strings.Contains(stderr, `"x" is not a flag number`) {
		t.Fatalf("show x: %d %q", code, stderr)
	}
	cleanError(t, stderr)
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
