package daemon

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"forumgm/forum"
	"forumgm/game"
	mybb "forumgm/poster/mybb"
	"forumgm/sandbox"
	"forumgm/store"
)

// fakeEvent is the fake referee's only event.
type fakeEvent struct {
	What string `json:"what"`
	Text string `json:"text,omitempty"`
}

func (fakeEvent) EventKind() string { return "fake" }

// fakeRef is a tiny deterministic referee: a thread post containing "ход" is a move (accepted),
// one containing "плохой" is refused, one containing "??" is flagged unreadable, a private
// message is confirmed privately, the daily close at 00:00 (game zone) posts a summary.
type fakeRef struct {
	loc    *time.Location
	moves  int
	closes int
	paused bool
}

func (f *fakeRef) Start(at time.Time) (game.Outcome, error) {
	ev := fakeEvent{What: "start"}
	return game.Outcome{Verdict: game.Accepted, Events: []game.Event{ev}, Messages: []game.Message{{Body: "Игра началась. [code]доска 0[/code]"}}}, nil
}

func (f *fakeRef) Judge(in game.Input) (game.Outcome, error) {
	t := in.Post.Text
	switch {
	case in.Source == game.PM:
		ev := fakeEvent{What: "pm", Text: t}
		return game.Outcome{Verdict: game.Accepted, Events: []game.Event{ev},
			Messages: []game.Message{{To: in.Author, Subject: "Принято", Body: "Распределение принято: " + t}}}, nil
	case strings.Contains(t, "??"):
		return game.Outcome{Verdict: game.Flagged, Flags: []game.Flag{{Kind: game.FlagUnreadable, Detail: "не понял"}},
			Messages: []game.Message{{Body: "Не понял ход " + in.PostID}}}, nil
	case strings.Contains(t, "плохой"):
		return game.Outcome{Verdict: game.Refused, Messages: []game.Message{{Body: "Ход отклонён: " + in.PostID}}}, nil
	case strings.Contains(t, "ход"):
		f.moves++
		ev := fakeEvent{What: "move", Text: t}
		return game.Outcome{Verdict: game.Accepted, Events: []game.Event{ev},
			Messages: []game.Message{{Body: fmt.Sprintf("Ход %d принят (пост %s). [code]доска %d[/code]", f.moves, in.PostID, f.moves)}}}, nil
	}
	return game.Outcome{Verdict: game.Ignored}, nil
}

func (f *fakeRef) NextTimer(t time.Time) (time.Time, bool) {
	if f.paused {
		return time.Time{}, false
	}
	l := t.In(f.loc)
	return time.Date(l.Year(), l.Month(), l.Day()+1, 0, 0, 0, 0, f.loc), true
}

func (f *fakeRef) Fire(at time.Time) (game.Outcome, error) {
	f.closes++
	ev := fakeEvent{What: "close", Text: at.In(f.loc).Format("2006-01-02")}
	return game.Outcome{Verdict: game.Accepted, Events: []game.Event{ev},
		Messages: []game.Message{{Body: fmt.Sprintf("Итоги дня %s: ходов %d.", ev.Text, f.moves)}}}, nil
}

func (f *fakeRef) Moderate(cmd game.ModCommand) (game.Outcome, error) {
	ev := fakeEvent{What: string(cmd.Action), Text: cmd.By}
	f.apply(ev)
	return game.Outcome{Verdict: game.Accepted, Events: []game.Event{ev}}, nil
}

func (f *fakeRef) apply(ev fakeEvent) {
	switch ev.What {
	case "move", "accept": // a moderator's accept forces a flagged move
		f.moves++
	case "close":
		f.closes++
	case "pause":
		f.paused = true
	case "resume":
		f.paused = false
	}
}

func (f *fakeRef) Restore(recs []game.Record) error {
	for _, r := range recs {
		var ev fakeEvent
		if err := json.Unmarshal(r.Data, &ev); err != nil {
			return err
		}
		f.apply(ev)
	}
	return nil
}

func (f *fakeRef) Snapshot() any           { return map[string]int{"moves": f.moves, "closes": f.closes} }
func (f *fakeRef) Paused() bool            { return f.paused }
func (f *fakeRef) ForGame(game.Input) bool { return false }
func (f *fakeRef) Plays(string) bool       { return true }

var msk = time.FixedZone("MSK", 3*3600)

// rig is a sandbox board on loopback, the mybb dialect logged in as the bot, a store and a daemon.
type rig struct {
	t     *testing.T
	ctx   context.Context
	board *sandbox.Server
	url   string
	clock *SimClock
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

func newRig(t testing.TB, start time.Time, newRef func() (game.Referee, error)) *rig {
	t.Helper()
	return newRigWith(t, start, newRef, rigOptions{})
}

// rigOptions change a rig's board and dialect from the defaults (no flood control).
type rigOptions struct {
	floodSeconds int  // the board's flood control for posts (0: off)
	returnFlood  bool // the dialect returns flood errors to the daemon (as forumgm run sets it)
	maxMessage   int  // the board's longest message (0: MyBB's 65535)
	callerSplits bool // the dialect returns too-long errors to the daemon (as forumgm run sets it)
	noMerge      bool // the board does not merge a user's consecutive posts (the bot exempted)
}

func newRigWith(t testing.TB, start time.Time, newRef func() (game.Referee, error), ro rigOptions) *rig {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dir := t.TempDir()
	clock := NewSimClock(start, true)
	board, err := sandbox.New(ctx, sandbox.Options{DBPath: dir + "/board.db", Now: clock.Now, Location: msk,
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
	f, err := mybb.New(forum.Config{BaseURL: url + "/", Username: "gm-bot", Password: "botpw", Location: msk, Now: clock.Now,
		ReturnFlood: ro.returnFlood, ReturnTooLong: ro.callerSplits},
		mybb.WithClient(forum.NewClient(forum.ClientConfig{Rate: 10000, Burst: 1000})),
		mybb.WithSleep(clock.Sleep))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (r *rig) newDaemon(t testing.TB, newRef func() (game.Referee, error), opts ...func(*Options)) *Daemon {
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

func fakeFactory() (game.Referee, error) { return &fakeRef{loc: msk}, nil }
