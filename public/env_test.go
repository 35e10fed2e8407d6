package public

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"forumgm/game"
	"forumgm/games"
	"forumgm/internal/testkit"
	"forumgm/parser"
	"forumgm/referee"
	"forumgm/store"
	"forumgm/transcript"
)

// env is a game played from a transcript into a real SQLite store, as the daemon writes it:
// every outcome's events and replies in one commit, the thread replies then marked posted; and
// the public pages over it on a real loopback server.
type env struct {
	st    *store.Store
	tr    *transcript.Transcript
	ref   *referee.Referee // the writer's referee (the daemon's)
	game  Game
	pages *Pages
	srv   *httptest.Server
	clock *testkit.Clock
	last  time.Time
	post  int // the next transcript post to play
	n     int // replies posted so far (their forum ids)
}

func registry(t testing.TB) *game.Registry {
	return game.NewRegistry(games.All()...)
}

// newEnv starts the game of the transcript at path (its opening post) with no post played.
func newEnv(t testing.TB, path string) *env { return newEnvPage(t, path, "") }

// newEnvPage is newEnv with the game's public page at page (public.public_url set): its posts
// link it.
func newEnvPage(t testing.TB, path, page string) *env {
	t.Helper()
	ctx := context.Background()
	if !filepath.IsAbs(path) {
		path = filepath.Join("..", path) // the repository's root
	}
	tr, err := transcript.Load(path, registry(t))
	if err != nil {
		t.Fatal(err)
	}
	e := &env{tr: tr, clock: testkit.NewStillClock(tr.Start)}
	e.st, err = store.Open(ctx, filepath.Join(t.TempDir(), "forumgm.db"), store.WithClock(e.clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.st.Close() })
	if _, err := e.st.EnsureGame(ctx, "g1", tr.Game, json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	setup, err := tr.Setup()
	if err != nil {
		t.Fatal(err)
	}
	if e.ref, err = referee.New(setup, referee.Options{Bot: tr.Bot, Seed: tr.Seed, Salt: tr.Salt, Page: page}); err != nil {
		t.Fatal(err)
	}
	start, err := e.ref.Start(tr.Start)
	if err != nil {
		t.Fatal(err)
	}
	e.commit(t, tr.Start, store.TimerCause, start)
	e.last = tr.Start
	title := ""
	css := ""
	if g, err := registry(t).Lookup(tr.Game); err == nil {
		title = g.Title()
		if st, ok := game.As[game.Styled](g); ok {
			css = st.ViewCSS()
		}
	}
	e.game = Game{ID: "g1", Title: title, CSS: css, Store: e.st, NewReferee: tr.Referee, ThreadURL: "http://forum.invalid/showthread.php?tid=1",
		PostURL: func(id string) string { return "http://forum.invalid/showthread.php?pid=" + id + "#pid" + id }}
	if e.pages, err = New(Options{Now: e.clock.Now, Rate: 100000, Burst: 100000}, e.game); err != nil {
		t.Fatal(err)
	}
	e.srv = httptest.NewServer(e.pages)
	t.Cleanup(e.srv.Close)
	return e
}

// commit writes one outcome as the daemon does, and posts its thread replies.
func (e *env) commit(t testing.TB, at time.Time, cause string, out game.Outcome) {
	t.Helper()
	ctx := context.Background()
	c := store.Commit{Game: "g1", At: at, Cause: cause}
	for _, ev := range out.Events {
		rec, err := game.Encode(ev)
		if err != nil {
			t.Fatal(err)
		}
		c.Events = append(c.Events, rec)
	}
	for _, m := range out.Messages {
		it := store.OutboxItem{Kind: store.OutboxReply, Body: e.ref.FillDeadline(m.Body, m.Clock, at)}
		if m.To != "" {
			it.Kind, it.Recipient = store.OutboxPM, m.To
		}
		c.Outbox = append(c.Outbox, it)
	}
	if len(c.Events) == 0 && len(c.Outbox) == 0 {
		return
	}
	if err := e.st.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	pending, err := e.st.PendingOutbox(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range pending {
		id := ""
		if o.Kind == store.OutboxReply {
			e.n++
			id = strconv.Itoa(100 + e.n)
		}
		if err := e.st.MarkPosted(ctx, o.ID, id, at); err != nil {
			t.Fatal(err)
		}
	}
}

// play plays the transcript's posts up to (not including) post `to` (-1: all, then its until).
func (e *env) play(t testing.TB, to int) {
	t.Helper()
	if to < 0 || to > len(e.tr.Posts) {
		to = len(e.tr.Posts)
	}
	timed := func(at time.Time, out game.Outcome) error {
		e.clock.Set(at)
		e.commit(t, at, store.TimerCause, out)
		return nil
	}
	var err error
	for ; e.post < to; e.post++ {
		p := e.tr.Posts[e.post]
		if e.last, err = e.ref.Advance(e.last, p.At, timed); err != nil {
			t.Fatal(err)
		}
		src, ssrc := game.Thread, store.SourceThread
		if p.Private {
			src, ssrc = game.PM, store.SourcePM
		}
		id := "t" + strconv.Itoa(e.post)
		cause := store.PostCause(ssrc, id)
		var out game.Outcome
		if p.Command != "" { // a moderator's command, as review commits it
			cmd, err := transcript.Command(p, e.tr.Start.Location())
			if err == nil {
				out, err = e.ref.Moderate(cmd)
			}
			if err != nil {
				t.Fatal(err)
			}
			cause = store.ModeratorCause(p.Author)
		} else if out, err = e.ref.Judge(game.Input{Source: src, PostID: id, Author: p.Author, At: p.At, Post: parser.FromBBCode(p.Text)}); err != nil {
			t.Fatal(err)
		}
		e.clock.Set(p.At)
		e.commit(t, p.At, cause, out)
		if p.At.After(e.last) {
			e.last = p.At
		}
	}
	if to == len(e.tr.Posts) && !e.tr.Until.IsZero() {
		if _, err := e.ref.Advance(e.last, e.tr.Until, timed); err != nil {
			t.Fatal(err)
		}
		e.last = e.tr.Until
	}
}

// beforeFirstDeadline plays a Dragonball transcript up to its first round's deadline (the first
// after the balls' draw at the first player post in the thread) and returns the index of the
// first post at or after it.
func (e *env) beforeFirstDeadline(t testing.TB) int {
	t.Helper()
	first := 0
	for first < len(e.tr.Posts) && e.tr.Posts[first].Private {
		first++
	}
	e.play(t, first+1)
	deadline, ok := e.ref.NextTimer(e.tr.Posts[first].At)
	if !ok {
		t.Fatal("no deadline after the first player post")
	}
	to := first + 1
	for to < len(e.tr.Posts) && e.tr.Posts[to].At.Before(deadline) {
		to++
	}
	e.play(t, to)
	return to
}
