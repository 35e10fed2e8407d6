package stats

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"forumgm/game"
	"forumgm/games"
	"forumgm/store"
	"forumgm/transcript"
)

var known = game.NewRegistry(games.All()...)

// load replays example transcripts into a real store, each as a game, and one game that has not
// ended (its summary absent).
func load(t *testing.T, files map[string]string, running string) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for id, file := range files {
		tr, err := transcript.Load(filepath.Join("..", "games", strings.Split(file, "-")[0], "examples", file), known)
		if err != nil {
			t.Fatal(err)
		}
		res, err := tr.Replay()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.EnsureGame(ctx, id, tr.Game, nil); err != nil {
			t.Fatal(err)
		}
		if id == running {
			continue
		}
		var recs []game.Record
		for _, ev := range res.Events {
			r, err := game.Encode(ev)
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, r)
		}
		if err := st.Commit(ctx, store.Commit{Game: id, At: tr.Start, Cause: store.ModeratorCause("test"), Events: recs}); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func TestCollect(t *testing.T) {
	st := load(t, map[string]string{"db1": "dragonball-score.yaml", "db2": "dragonball-swallowed.yaml", "cr": "crusade-flag.yaml", "fb": "football-early.yaml"}, "fb")
	tab, err := Collect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Games) != 4 {
		t.Fatalf("games: %+v", tab.Games)
	}
	ended := map[string]string{}
	for _, g := range tab.Games {
		if !g.Ended.IsZero() {
			ended[g.ID] = g.Result
		}
	}
	if len(ended) != 3 || !strings.Contains(ended["cr"], "крестоносцы") || !strings.Contains(ended["db1"], "Грифоны 1 — Змеи 0") {
		t.Errorf("results: %v (the football game is still running)", ended)
	}
	by := map[string]PlayerRow{}
	for _, p := range tab.Players {
		by[p.Name] = p
	}
	// Гарри played both Dragonball games for the Griffins, who won both.
	if p := by["Гарри"]; p.Games != 2 || p.Wins != 2 || p.Moves != 3 {
		t.Errorf("Гарри: %+v", p)
	}
	if p := by["Драко"]; p.Games != 2 || p.Wins != 0 {
		t.Errorf("Драко: %+v", p)
	}
	// Crusade: the crusaders won; the side's penalty wounds count for its player.
	if p := by["Джелу"]; p.Games != 1 || p.Wins != 1 || p.Penalties == 0 {
		t.Errorf("Джелу: %+v", p)
	}
	if _, ok := by["Петя"]; ok {
		t.Error("a player of a game still running is counted")
	}
	var b bytes.Buffer
	if err := tab.Write(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PLAYER", "Гарри", "fb", "running", "4 games, 3 finished"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, b.String())
		}
	}
}
