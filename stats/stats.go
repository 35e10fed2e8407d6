// Package stats owns the tables over every game a store holds (`forumgm stats`): each finished
// game's result from the summary the referee kept in its log when it ended (judge.summary), and
// per player the games played, won, the moves made and the penalties taken. It reads the store
// only: no config and no game's rules are needed.
package stats

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"forumgm/referee"
	"forumgm/store"
)

// GameRow is one game of the store.
type GameRow struct {
	ID     string    `json:"id"`
	Kind   string    `json:"kind"`
	Title  string    `json:"title,omitempty"`
	Ended  time.Time `json:"ended,omitzero"` // zero: still running (or ended before summaries were kept)
	Result string    `json:"result,omitempty"`
	Best   string    `json:"best,omitempty"`
}

// PlayerRow is one player over the finished games.
type PlayerRow struct {
	Name      string `json:"name"`
	Games     int    `json:"games"`
	Wins      int    `json:"wins"`
	Moves     int    `json:"moves"`
	Penalties int    `json:"penalties"` // wounds, cards, warnings: the player's own and his team's
}

// Table is the stats of a store.
type Table struct {
	Games   []GameRow   `json:"games"`
	Players []PlayerRow `json:"players"`
}

// Collect reads every game of st and its summary, if it has ended.
func Collect(ctx context.Context, st *store.Store) (Table, error) {
	games, err := st.Games(ctx)
	if err != nil {
		return Table{}, fmt.Errorf("stats: %w", err)
	}
	t := Table{Games: []GameRow{}, Players: []PlayerRow{}}
	players := map[string]*PlayerRow{}
	for _, g := range games {
		row := GameRow{ID: g.ID, Kind: g.Name}
		evs, err := st.Events(ctx, g.ID)
		if err != nil {
			return Table{}, fmt.Errorf("stats: game %s: %w", g.ID, err)
		}
		for _, e := range evs {
			if e.Kind != referee.KindSummary {
				continue
			}
			var s referee.SummaryEvent
			if err := json.Unmarshal(e.Data, &s); err != nil {
				return Table{}, fmt.Errorf("stats: game %s: event %d: %w", g.ID, e.Seq, err)
			}
			row.Title, row.Ended, row.Result, row.Best = s.Game, s.At, s.Summary.Result, s.Summary.Best
			won := map[string]bool{}
			for _, w := range s.Summary.Winners {
				won[strings.ToLower(w)] = true
			}
			for _, l := range s.Summary.Players {
				key := strings.ToLower(l.Name)
				p := players[key]
				if p == nil {
					p = &PlayerRow{Name: l.Name}
					players[key] = p
				}
				p.Games++
				p.Moves += l.Moves
				if won[key] {
					p.Wins++
				}
				p.Penalties += s.Summary.Penalties[l.Name]
				if l.Team != "" {
					p.Penalties += s.Summary.Penalties[l.Team]
				}
			}
		}
		t.Games = append(t.Games, row)
	}
	for _, p := range players {
		t.Players = append(t.Players, *p)
	}
	sort.Slice(t.Players, func(i, j int) bool {
		a, b := t.Players[i], t.Players[j]
		if a.Wins != b.Wins {
			return a.Wins > b.Wins
		}
		if a.Games != b.Games {
			return a.Games > b.Games
		}
		return a.Name < b.Name
	})
	return t, nil
}

// Write prints the table as aligned text: the games, then the players.
func (t Table) Write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tKIND\tENDED\tRESULT")
	running := 0
	for _, g := range t.Games {
		ended, result := "running", g.Result
		if g.Ended.IsZero() {
			running++
		} else {
			ended = g.Ended.UTC().Format("2006-01-02 15:04 UTC")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", g.ID, g.Kind, ended, result)
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "PLAYER\tGAMES\tWINS\tMOVES\tPENALTIES")
	for _, p := range t.Players {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\n", p.Name, p.Games, p.Wins, p.Moves, p.Penalties)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d games, %d finished; players counted over the finished games\n", len(t.Games), len(t.Games)-running)
	return err
}
