package daemon

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"forumgm/dialects/mybb"
	"forumgm/forum"
	"forumgm/game"
	"forumgm/internal/testkit"

	"forumgm/referee"
	"forumgm/sandbox"
	"forumgm/store"
)

// fakeEvent is the fake referee's only event.
type fakeEvent struct {
	What string `json:"what"`
	Text string `json:"text,omitempty"`
}

func (fakeEvent) EventKind() string { return "fake" }

// fakeRules is a tiny deterministic game, run by the real referee: a thread post containing "ход"
// is a move (accepted), one containing "плохой" is refused, one containing "??" is flagged
// unreadable, a private message is confirmed privately, the daily close at 00:00 (game zone)
// posts a summary. Its options change it for one test: quiet (an opening that records no event,
// onStart called when it is asked for the opening), expects (whether it expects a private message;
// nil: always), pic (accepted moves are answered with a report carrying the picture).
type fakeRules struct {
	loc     *time.Location
	moves   int
	closes  int
	quiet   bool
	onStart func()
	expects *atomic.Bool
	pic     *forum.Attachment
}

// fakeIntent is what the fake game reads from a post (What: move, pm, bad, end).
type fakeIntent fakeEvent

var errFakeRefused = errors.New("fake: refused")

func (f *fakeRules) Open(time.Time, *game.Rand) ([]game.Event, error) {
	if f.quiet {
		return nil, nil
	}
	return []game.Event{fakeEvent{What: "start"}}, nil
}

func (f *fakeRules) Read(in game.Input) game.Reading {
	t := in.Post.Text
	switch {
	case in.Source == game.PM:
		return game.Reading{Kind: game.Intent, Intent: fakeIntent{What: "pm", Text: t}}
	case strings.Contains(t, "??"):
		return game.Reading{Kind: game.Unreadable, Detail: "не понял"}
	case strings.Contains(t, "плохой"):
		return game.Reading{Kind: game.Intent, Intent: fakeIntent{What: "bad"}}
	case strings.Contains(t, "ход"):
		return game.Reading{Kind: game.Intent, Intent: fakeIntent{What: "move", Text: t}}
	}
	return game.Reading{Kind: game.Chatter}
}

func (f *fakeRules) Decide(in game.Act) ([]game.Event, error) {
	it, _ := in.Body.(fakeIntent)
	if it.What == "bad" {
		return nil, errFakeRefused
	}
	return []game.Event{fakeEvent(it)}, nil
}

func (f *fakeRules) Apply(ev game.Event) error {
	e, ok := ev.(fakeEvent)
	if !ok {
		return fmt.Errorf("fake: event %T", ev)
	}
	switch e.What {
	case "move", "accept": // a moderator's accept forces a flagged move
		f.moves++
	case "close":
		f.closes++
	}
	return nil
}

func (f *fakeRules) NextTimer(t time.Time) (time.Time, bool) {
	l := t.In(f.loc)
	return time.Date(l.Year(), l.Month(), l.Day()+1, 0, 0, 0, 0, f.loc), true
}

func (f *fakeRules) Tick(at time.Time, _ *game.Rand) ([]game.Event, error) {
	return []game.Event{fakeEvent{What: "close", Text: at.In(f.loc).Format("2006-01-02")}}, nil
}

func (f *fakeRules) DecodeEvent(kind string, data []byte) (game.Event, error) {
	var ev fakeEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return nil, err
	}
	return ev, nil
}

func (f *fakeRules) Say(name string, c game.Context) (string, error) {
	switch name {
	case game.SayStart:
		if f.onStart != nil {
			f.onStart()
		}
		if f.quiet {
			return "Игра началась.", nil
		}
		return "Игра началась. [code]доска 0[/code]", nil
	case game.SayUnreadable:
		return "Не понял ход " + c.In.PostID, nil
	case game.SayLate: // a move that appeared late goes to a moderator; its author is told
		return "Ход опоздал и передан модератору (пост " + c.In.PostID + ")", nil
	}
	return "", nil
}

func (f *fakeRules) Messages(c game.Context, ev game.Event) ([]game.Message, error) {
	e := ev.(fakeEvent)
	switch e.What {
	case "pm":
		return []game.Message{{To: c.In.Author, Subject: "Принято", Body: "Распределение принято: " + e.Text}}, nil
	case "move":
		m := game.Message{Body: fmt.Sprintf("Ход %d принят (пост %s). [code]доска %d[/code]", f.moves, c.In.PostID, f.moves)}
		if f.pic != nil {
			m.Body = "Отчёт раунда.\n" + forum.Placeholder(f.pic.Name) + "\nПозиции: " + m.Body
			m.Attachments = []forum.Attachment{*f.pic}
		}
		return []game.Message{m}, nil
	case "close":
		return []game.Message{{Body: fmt.Sprintf("Итоги дня %s: ходов %d.", e.Text, f.moves)}}, nil
	}
	return nil, nil
}

func (f *fakeRules) Refusal(c game.Context, err error) (string, bool, error) {
	if !errors.Is(err, errFakeRefused) {
		return "", false, err
	}
	return "Ход отклонён: " + c.In.PostID, false, nil
}

func (f *fakeRules) ExpectsPrivate(time.Time) bool { return f.expects == nil || f.expects.Load() }

func (f *fakeRules) Title() string                      { return "Игра" }
func (f *fakeRules) IsPlayer(string) bool               { return true }
func (f *fakeRules) Over() bool                         { return false }
func (f *fakeRules) Ender(string, string) any           { return fakeIntent{What: "end"} }
func (f *fakeRules) Undoable(game.Event) (string, bool) { return "", false }
func (f *fakeRules) Snapshot() any                      { return map[string]int{"moves": f.moves, "closes": f.closes} }
func (f *fakeRules) Required() []string                 { return nil }
func (f *fakeRules) Defined(string) bool                { return true }

// fakeWith is a factory of referees of the fake game as change makes it.
func fakeWith(change func(*fakeRules)) func() (*referee.Referee, error) {
	return func() (*referee.Referee, error) {
		setup := &game.Setup{New: func() (game.Rules, error) {
			f := &fakeRules{loc: msk}
			if change != nil {
				change(f)
			}
			return f, nil
		}}
		return referee.New(setup, referee.Options{DisputeKeyword: "#не-бывает-спора"})
	}
}

var msk = time.FixedZone("MSK", 3*3600)

// rig is a sandbox board on loopback, the mybb dialect logged in as the bot, a store and a daemon.
type rig struct {
	t     *testing.T
	ctx   context.Context
	board *sandbox.Server
	url   string
	clock *testkit.Clock
	st    *store.Store
	fo    forum.Forum
	d     *Daemon
	dir   string
	log   *strings.Builder
	logMu *sync.Mutex
}

type syncWriter struct {
	mu *sync.Mutex
	b  *strings.Builder
}

func (w syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func newRig(t testing.TB, start time.Time, newRef func() (*referee.Referee, error)) *rig {
	t.Helper()
	return newRigWith(t, start, newRef, rigOptions{})
}

// rigOptions change a rig's board and dialect from the defaults (no flood control).
type rigOptions struct {
	floodSeconds int  // the board's flood control for posts (0: off)
	maxMessage   int  // the board's longest message (0: MyBB's 65535)
	noMerge      bool // the board does not merge a user's consecutive posts (the bot exempted)
	// boardSkew, if set, puts the board's clock this far from the rig's (a forum clock that is off).
	boardSkew func() time.Duration
	// forumLoc, if set, is the zone the dialect reads the board's times in (a wrong forum.timezone).
	forumLoc *time.Location
	// transport, if set, carries the dialect's requests (one that records them).
	transport http.RoundTripper
}

func newRigWith(t testing.TB, start time.Time, newRef func() (*referee.Referee, error), ro rigOptions) *rig {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dir := t.TempDir()
	clock := testkit.NewClock(start)
	boardNow := clock.Now
	if ro.boardSkew != nil {
		boardNow = func() time.Time { return clock.Now().Add(ro.boardSkew()) }
	}
	board, err := sandbox.New(ctx, sandbox.Options{DBPath: dir + "/board.db", Now: boardNow, Location: msk,
		Users: []sandbox.User{{Name: "Джелу", Password: "p1"}, {Name: "snovaya", Password: "p2"}, {Name: "Moderator", Password: "p3"},
			{Name: "gm-bot", Password: "botpw"}, {Name: "Вася", Password: "p4"}},
		Threads:      []sandbox.Thread{{Subject: "Игра", Posts: []sandbox.SeedPost{{Author: "gm-bot", Message: "Тема игры: ходы ниже."}}}},
		FloodSeconds: cmp.Or(ro.floodSeconds, -1), PMFloodSeconds: -1, PostsPerPage: 8, MaxMessageLength: ro.maxMessage,
		MergeMinutes: map[bool]int{true: -1}[ro.noMerge]})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { board.Close() })
	url, err := board.Start(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{ctx: ctx, board: board, url: url, clock: clock, dir: dir, log: &strings.Builder{}, logMu: &sync.Mutex{}}
	if tt, ok := t.(*testing.T); ok {
		r.t = tt
	}
	r.st, err = store.Open(ctx, dir+"/forumgm.db", store.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.st.Close() })
	r.fo = newForumWith(t, url, clock, ro)
	r.d = r.newDaemon(t, newRef)
	return r
}

func newForum(t testing.TB, url string, clock Clock) forum.Forum {
	return newForumWith(t, url, clock, rigOptions{})
}

func newForumWith(t testing.TB, url string, clock Clock, ro rigOptions) forum.Forum {
	f, err := mybb.New(forum.Config{BaseURL: url + "/", Username: "gm-bot", Password: "botpw", Location: cmp.Or(ro.forumLoc, msk), Now: clock.Now},
		mybb.WithClient(forum.NewClient(forum.ClientConfig{Rate: 10000, Burst: 1000, Transport: ro.transport})))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (r *rig) newDaemon(t testing.TB, newRef func() (*referee.Referee, error), opts ...func(*Options)) *Daemon {
	if _, err := r.st.EnsureGame(r.ctx, "g1", "fake", nil); err != nil {
		t.Fatal(err)
	}
	d, err := newWith(Options{Game: "g1", Kind: "fake", Thread: forum.Thread{ID: "1"}, Forum: r.fo, Store: r.st,
		NewReferee: newRef, Bot: "gm-bot", Moderators: []string{"Moderator"}, Start: r.clock.Now(), Clock: r.clock,
		Poll: PollPolicy{Floor: time.Second, Ceiling: time.Minute, Loc: msk}, Rescan: time.Minute,
		Log: zerolog.New(syncWriter{r.logMu, r.log})}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.fo.Login(r.ctx); err != nil {
		t.Fatal(err)
	}
	return d
}

func newWith(o Options, opts ...func(*Options)) (*Daemon, error) {
	for _, f := range opts {
		f(&o)
	}
	return New(o)
}

func (r *rig) cycle(t testing.TB) {
	t.Helper()
	if _, err := r.d.Cycle(r.ctx); err != nil {
		t.Fatalf("cycle: %v", err)
	}
}

func (r *rig) post(t testing.TB, user, text string) int {
	t.Helper()
	pid, _, err := r.board.Reply(r.ctx, user, 1, text)
	if err != nil {
		t.Fatalf("%s posts: %v", user, err)
	}
	return pid
}

// botTexts lists the bot's posts in the thread as stored by the board (raw MyCode).
func (r *rig) botTexts(t testing.TB) []string {
	t.Helper()
	posts, err := r.board.Posts(r.ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range posts {
		if p.Author == "gm-bot" {
			out = append(out, p.Message)
		}
	}
	return out
}

func fakeFactory() (*referee.Referee, error) { return fakeWith(nil)() }
