package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"forumgm/forum"
)

func TestRecordPost(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	p := mkPost("10")
	rec, isNew, err := s.RecordPost(ctx, "g", SourceThread, p)
	if err != nil || !isNew {
		t.Fatalf("first record: new %v, %v", isNew, err)
	}
	if rec.Verdict != VerdictPending || rec.Judged() || rec.Text != p.Text || rec.TextHash != TextHash(p.Text) ||
		rec.Author != p.Author || rec.AuthorID != p.AuthorID || !rec.PostedAt.Equal(p.Time) || rec.FirstSeenAt.IsZero() {
		t.Errorf("record = %+v", rec)
	}
	edited := p
	edited.Text = "ход 10, исправленный"
	rec2, isNew, err := s.RecordPost(ctx, "g", SourceThread, edited)
	if err != nil || isNew {
		t.Fatalf("second record: new %v, %v", isNew, err)
	}
	if !reflect.DeepEqual(rec2, rec) {
		t.Errorf("second record changed the post: %+v", rec2)
	}
	if _, ok, err := s.SeenPost(ctx, "g", SourcePM, "10"); ok || err != nil {
		t.Errorf("pm 10 seen: %v %v", ok, err)
	}
	if _, _, err := s.RecordPost(ctx, "nogame", SourceThread, p); err == nil {
		t.Error("recorded a post of an unknown game")
	}
	if _, _, err := s.RecordPost(ctx, "g", "email", p); !errors.Is(err, ErrInvalid) {
		t.Errorf("source email: %v", err)
	}
}

func TestEditsAndDeletionsFlaggedOnce(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	for i, v := range []Verdict{VerdictAccepted, VerdictRefused, VerdictIgnored, VerdictFlagged} {
		c := Commit{Game: "g", Post: &Judgement{Source: SourceThread, Post: mkPost(fmt.Sprint(i + 1)), Verdict: v}}
		if err := s.Commit(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := s.RecordPost(ctx, "g", SourceThread, mkPost("5")); err != nil { // pending
		t.Fatal(err)
	}
	moves, err := s.MovePosts(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 2 || moves[0].ID != "1" || moves[1].ID != "2" {
		t.Fatalf("move posts %+v", moves)
	}

	editFlag := &NewFlag{Source: SourceThread, PostID: "1", Kind: FlagEdited, Detail: "text changed"}
	h1, h2 := TextHash("v2"), TextHash("v3")
	steps := []struct {
		hash        string
		wantChanged bool
	}{
		{moves[0].TextHash, false}, // unchanged
		{h1, true},
		{h1, false}, // seen already
		{h2, true},
		{moves[0].TextHash, true}, // edited back
	}
	for i, st := range steps {
		changed, err := s.MarkPostEdited(ctx, "g", SourceThread, "1", st.hash, editFlag)
		if err != nil || changed != st.wantChanged {
			t.Fatalf("edit step %d: changed %v, %v; want %v", i, changed, err, st.wantChanged)
		}
	}
	p, _, _ := s.SeenPost(ctx, "g", SourceThread, "1")
	if p.EditedHash != moves[0].TextHash || p.EditedAt.IsZero() || p.TextHash != moves[0].TextHash {
		t.Errorf("edited post = %+v", p)
	}
	for i, want := range []bool{true, false} {
		changed, err := s.MarkPostVanished(ctx, "g", SourceThread, "2", &NewFlag{Source: SourceThread, PostID: "2", Kind: FlagDeleted})
		if err != nil || changed != want {
			t.Fatalf("vanish %d: %v %v", i, changed, err)
		}
	}
	if _, err := s.MarkPostVanished(ctx, "g", SourceThread, "404", nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("vanish unknown post: %v", err)
	}
	flags, err := s.OpenFlags(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[FlagKind]int{}
	for _, f := range flags {
		kinds[f.Kind]++
	}
	if kinds[FlagEdited] != 3 || kinds[FlagDeleted] != 1 || len(flags) != 4 {
		t.Errorf("flags %+v", flags)
	}
	// A bad flag rolls the mark back.
	if _, err := s.MarkPostEdited(ctx, "g", SourceThread, "2", h1, &NewFlag{Kind: "nonsense"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad flag: %v", err)
	}
	if p, _, _ := s.SeenPost(ctx, "g", SourceThread, "2"); p.EditedHash != "" {
		t.Errorf("edit recorded despite the failed flag: %+v", p)
	}
}

func TestGames(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	g, err := s.EnsureGame(ctx, "c1", "crusade", json.RawMessage(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if g.ID != "c1" || g.Name != "crusade" || string(g.Config) != `{"a":1}` || g.Paused || g.CreatedAt.IsZero() {
		t.Errorf("game = %+v", g)
	}
	g2, err := s.EnsureGame(ctx, "c1", "crusade", json.RawMessage(`{"a":2}`))
	if err != nil || string(g2.Config) != `{"a":1}` || !g2.CreatedAt.Equal(g.CreatedAt) {
		t.Errorf("ensure again = %+v, %v (config must stay the first one)", g2, err)
	}
	for _, bad := range []struct{ id, name, cfg string }{
		{"c1", "football", `{}`}, {"", "crusade", `{}`}, {"a b", "crusade", `{}`}, {"c2", "crusade", `{`}, {"c2", "", `{}`},
	} {
		if _, err := s.EnsureGame(ctx, bad.id, bad.name, json.RawMessage(bad.cfg)); !errors.Is(err, ErrInvalid) {
			t.Errorf("EnsureGame(%q, %q, %s): %v, want ErrInvalid", bad.id, bad.name, bad.cfg, err)
		}
	}
	if err := s.SetPaused(ctx, "c1", true, "dispute", "mod"); err != nil {
		t.Fatal(err)
	}
	g, _ = s.Game(ctx, "c1")
	if !g.Paused || g.PauseReason != "dispute" || g.PausedBy != "mod" || g.PauseChangedAt.IsZero() {
		t.Errorf("paused game = %+v", g)
	}
	if err := s.SetPaused(ctx, "c1", false, "resolved", "mod2"); err != nil {
		t.Fatal(err)
	}
	if g, _ = s.Game(ctx, "c1"); g.Paused {
		t.Errorf("still paused")
	}
	if err := s.SetPaused(ctx, "zz", true, "", ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("pause unknown: %v", err)
	}
	if _, err := s.Game(ctx, "zz"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown game: %v", err)
	}
	if gs, err := s.Games(ctx); err != nil || len(gs) != 1 {
		t.Errorf("games %v %v", gs, err)
	}
}

func TestFlags(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "a")
	ensureGame(t, s, "b")
	if _, _, err := s.RecordPost(ctx, "a", SourcePM, mkPost("5")); err != nil {
		t.Fatal(err)
	}
	id1, err := s.AddFlag(ctx, NewFlag{Game: "a", Source: SourcePM, PostID: "5", Kind: FlagNotInRoster, Detail: "who?"})
	if err != nil {
		t.Fatal(err)
	}
	id2, err := s.AddFlag(ctx, NewFlag{Game: "b", Kind: FlagOther, Detail: "check the board"})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []NewFlag{
		{Game: "a", Kind: "weird"},
		{Game: "a", Source: SourcePM, Kind: FlagOther},
		{Game: "a", PostID: "5", Kind: FlagOther},
	} {
		if _, err := s.AddFlag(ctx, bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	if _, err := s.AddFlag(ctx, NewFlag{Game: "a", Source: SourceThread, PostID: "5", Kind: FlagOther}); err == nil {
		t.Error("flag about an unrecorded post accepted")
	}
	for _, tc := range []struct {
		game string
		want []int64
	}{{"", []int64{id1, id2}}, {"a", []int64{id1}}, {"b", []int64{id2}}, {"c", nil}} {
		fs, err := s.OpenFlags(ctx, tc.game)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, f := range fs {
			ids = append(ids, f.ID)
		}
		if fmt.Sprint(ids) != fmt.Sprint(tc.want) {
			t.Errorf("open flags %q = %v, want %v", tc.game, ids, tc.want)
		}
	}
	at := time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC)
	if err := s.ResolveFlag(ctx, Resolution{FlagID: id1, State: FlagRejected, By: "mod", Note: "spam", At: at}); err != nil {
		t.Fatal(err)
	}
	f, err := s.Flag(ctx, id1)
	if err != nil {
		t.Fatal(err)
	}
	if f.State != FlagRejected || f.ResolvedBy != "mod" || f.Note != "spam" || !f.ResolvedAt.Equal(at) ||
		f.Source != SourcePM || f.PostID != "5" || f.Kind != FlagNotInRoster || f.Detail != "who?" || f.Game != "a" {
		t.Errorf("flag = %+v", f)
	}
	for _, tc := range []struct {
		r      Resolution
		wantIs error
	}{
		{Resolution{FlagID: id1, State: FlagAccepted, By: "mod"}, ErrFlagNotOpen},
		{Resolution{FlagID: 99, State: FlagAccepted, By: "mod"}, ErrNotFound},
		{Resolution{FlagID: id2, State: FlagOpen, By: "mod"}, ErrInvalid},
		{Resolution{FlagID: id2, State: FlagAccepted}, ErrInvalid},
	} {
		if err := s.ResolveFlag(ctx, tc.r); !errors.Is(err, tc.wantIs) {
			t.Errorf("%+v: %v, want %v", tc.r, err, tc.wantIs)
		}
	}
	if _, err := s.Flag(ctx, 99); !errors.Is(err, ErrNotFound) {
		t.Errorf("flag 99: %v", err)
	}
}

func TestCursors(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	if _, ok, err := s.Cursor(ctx, "g", SourceThread); ok || err != nil {
		t.Fatalf("new cursor: %v %v", ok, err)
	}
	for _, c := range []forum.Cursor{{PostID: "100", Page: 3}, {PostID: "120", Page: 4}} {
		if err := s.SetCursor(ctx, "g", SourceThread, c); err != nil {
			t.Fatal(err)
		}
		got, ok, err := s.Cursor(ctx, "g", SourceThread)
		if err != nil || !ok || got != c {
			t.Errorf("cursor %+v %v %v, want %+v", got, ok, err, c)
		}
	}
	if _, ok, _ := s.Cursor(ctx, "g", SourcePM); ok {
		t.Error("pm cursor set by the thread cursor")
	}
	if err := s.SetCursor(ctx, "nogame", SourcePM, forum.Cursor{}); err == nil {
		t.Error("cursor for an unknown game")
	}
}

// The whole first-seen post (own text, quotes, code blocks, spoilers, permalink) is stored and
// comes back; the stored hash covers what the referee reads (own text, quotes' texts, code) and
// nothing a forum may re-render by itself (quote attributions, spoilers).
func TestWholePostStored(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	p := mkPost("20")
	p.Permalink = "https://forum.example/showthread.php?pid=20#pid20"
	p.Text = "1-й ход крестоносца к1 на K16\n |__|к1|"
	p.Quotes = []forum.Quote{{Author: "gm-bot", PostID: "19", Text: "-K|__|__|к1|"}}
	p.Code = []string{" |__|к1|"}
	p.Spoilers = []forum.Spoiler{{Title: "мысли", Text: "пойду-ка я вперёд"}}
	c := Commit{Game: "g", At: t0, Post: &Judgement{Source: SourceThread, Post: p, Verdict: VerdictFlagged}}
	if err := s.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	rec, ok, err := s.SeenPost(ctx, "g", SourceThread, "20")
	if err != nil || !ok || !rec.Whole {
		t.Fatalf("seen: %+v %v %v", rec, ok, err)
	}
	got := rec.Post
	if !got.Time.Equal(p.Time) {
		t.Errorf("time %v, want %v", got.Time, p.Time)
	}
	got.Time = p.Time
	if !reflect.DeepEqual(got, p) {
		t.Errorf("stored post\n%+v\nwant\n%+v", got, p)
	}
	if rec.Text != p.Text || rec.TextHash != ContentHash(p) || rec.TextHash == TextHash(p.Text) {
		t.Errorf("text %q hash %s: want the content hash %s", rec.Text, rec.TextHash, ContentHash(p))
	}
	// What changes the hash and what does not.
	mut := func(f func(*forum.Post)) string {
		q := p
		q.Quotes = append([]forum.Quote(nil), p.Quotes...)
		q.Code = append([]string(nil), p.Code...)
		q.Spoilers = append([]forum.Spoiler(nil), p.Spoilers...)
		f(&q)
		return rec.HashOf(q)
	}
	for name, tc := range map[string]struct {
		f    func(*forum.Post)
		same bool
	}{
		"quoted board fixed": {func(q *forum.Post) { q.Quotes[0].Text = "-K|__|к1|__|" }, false},
		"quote removed":      {func(q *forum.Post) { q.Quotes = nil }, false},
		"move line edited":   {func(q *forum.Post) { q.Text = "1-й ход крестоносца к1 на K15" }, false},
		"code edited":        {func(q *forum.Post) { q.Code[0] = " |к1|__|" }, false},
		"quote attribution":  {func(q *forum.Post) { q.Quotes[0].Author, q.Quotes[0].PostID = "Game Master", "" }, true},
		"spoiler edited":     {func(q *forum.Post) { q.Spoilers[0].Text = "передумал" }, true},
		"edit notice":        {func(q *forum.Post) { q.Edited, q.Permalink = true, "" }, true},
	} {
		if h := mut(tc.f); (h == rec.TextHash) != tc.same {
			t.Errorf("%s: hash unchanged %v, want %v", name, h == rec.TextHash, tc.same)
		}
	}
	// A post without quotes or code hashes as its own text did before migration 0003.
	if plain := mkPost("21"); ContentHash(plain) != TextHash(plain.Text) {
		t.Error("a plain post's content hash differs from its text hash")
	}
}
