package signup

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"forumgm/game"
)

// fakeGame is a tiny game for the sign-up's tests (shared code names no real game): teams A and
// B, a move «ход» from a player, and replacements.
type fakeGame struct {
	role   string // the teams' role ("" none)
	pieces int    // pieces per team ("" none)
	size   int
	equal  bool
}

func (fakeGame) Name() string  { return "fake" }
func (fakeGame) Title() string { return "Проба" }

type fakeSpec struct {
	Players []struct{ Name, Team, Role string } `yaml:"players"`
	Pieces  map[string][]string                 `yaml:"pieces"`
}

func (fakeGame) Setup(sp game.Spec) (*game.Setup, error) {
	var in fakeSpec
	if sp.Node.Kind != 0 {
		if err := game.DecodeStrict(&sp.Node, &in); err != nil {
			return nil, err
		}
	}
	if len(in.Players) == 0 {
		return nil, errors.New("fake: no players")
	}
	var names []string
	for _, p := range in.Players {
		names = append(names, p.Name)
	}
	return &game.Setup{Players: names, New: func() (game.Rules, error) {
		return &fakeRules{players: slices.Clone(names), pieces: in.Pieces}, nil
	}}, nil
}

func (f fakeGame) Shape(_ game.Spec, names []string, size int) (game.Shape, error) {
	if len(names) == 0 {
		names = []string{"A", "B"}
	}
	sh := game.Shape{Equal: f.equal, Departure: "Иначе место закрывается.", PiecesList: "Игроки-воины"}
	for _, n := range names {
		s := game.Slot{Key: n, Label: "команда " + n, Words: []string{strings.ToLower(n)}, Size: max(size, f.size), Role: f.role}
		for i := range f.pieces {
			s.Pieces = append(s.Pieces, fmt.Sprintf("%s%d", strings.ToLower(n), i+1))
		}
		if f.pieces > 0 {
			s.PerPlayer = 2
		}
		sh.Teams = append(sh.Teams, s)
	}
	return sh, nil
}

func (fakeGame) Enrol(sp game.Spec, teams []game.Formed) (game.Spec, error) {
	var in fakeSpec
	in.Pieces = map[string][]string{}
	for _, t := range teams {
		for _, p := range t.Players {
			in.Players = append(in.Players, struct{ Name, Team, Role string }{p, t.Key, map[bool]string{true: "x"}[t.Role == p]})
			if ps := t.Pieces[p]; ps != nil {
				in.Pieces[p] = ps
			}
		}
	}
	var err error
	sp.Node, err = node(in)
	return sp, err
}

// fakeRules: moves from players, replacements.
type fakeRules struct {
	players []string
	pieces  map[string][]string
	moves   int
}

type fakeMove struct{}
type fakeSwap struct{ Old, New string }
type fakeDrop struct{ Name string }
type fakeEvent struct {
	Kind string `json:"kind"`
	Old  string `json:"old,omitempty"`
	New  string `json:"new,omitempty"`
}

func (e *fakeEvent) EventKind() string { return "fake." + e.Kind }

func (r *fakeRules) Decide(in game.Act) ([]game.Event, error) {
	switch b := in.Body.(type) {
	case *fakeMove:
		if !r.IsPlayer(in.Author) {
			return nil, errors.New("fake: not a player")
		}
		return []game.Event{&fakeEvent{Kind: "moved", Old: in.Author}}, nil
	case *fakeSwap:
		if b.Old == "проглочен" {
			return nil, errors.New("fake: swallowed")
		}
		return []game.Event{&fakeEvent{Kind: "replaced", Old: b.Old, New: b.New}}, nil
	case *fakeDrop:
		return []game.Event{&fakeEvent{Kind: "removed", Old: b.Name}}, nil
	}
	return nil, fmt.Errorf("fake: %T", in.Body)
}
func (r *fakeRules) Apply(ev game.Event) error {
	e := ev.(*fakeEvent)
	switch e.Kind {
	case "moved":
		r.moves++
	case "replaced":
		r.players[slices.Index(r.players, e.Old)] = e.New
	case "removed":
		r.players = slices.DeleteFunc(r.players, func(p string) bool { return p == e.Old })
	}
	return nil
}
func (r *fakeRules) NextTimer(time.Time) (time.Time, bool)            { return time.Time{}, false }
func (r *fakeRules) Tick(time.Time, *game.Rand) ([]game.Event, error) { return nil, nil }
func (r *fakeRules) DecodeEvent(kind string, data []byte) (game.Event, error) {
	e := &fakeEvent{}
	return e, json.Unmarshal(data, e)
}
func (r *fakeRules) Title() string                                   { return "Проба" }
func (r *fakeRules) IsPlayer(name string) bool                       { return slices.Contains(r.players, name) }
func (r *fakeRules) Say(name string, _ game.Context) (string, error) { return "[" + name + "]", nil }
func (r *fakeRules) Messages(_ game.Context, ev game.Event) ([]game.Message, error) {
	return []game.Message{{Body: ev.EventKind()}}, nil
}
func (r *fakeRules) Refusal(_ game.Context, err error) (string, bool, error) {
	return err.Error(), false, nil
}
func (r *fakeRules) Over() bool                         { return false }
func (r *fakeRules) Ender(string, string) any           { return nil }
func (r *fakeRules) Undoable(game.Event) (string, bool) { return "", false }
func (r *fakeRules) Snapshot() any                      { return r.players }
func (r *fakeRules) Required() []string                 { return nil }
func (r *fakeRules) Defined(string) bool                { return true }
func (r *fakeRules) Read(in game.Input) game.Reading {
	if in.Post.Text == "помощь" {
		return game.Reading{Kind: game.Help}
	}
	if strings.HasPrefix(in.Post.Text, "ход") {
		return game.Reading{Kind: game.Intent, Move: true, Intent: &fakeMove{}}
	}
	return game.Reading{Kind: game.Chatter}
}
func (r *fakeRules) Replace(old, new string) (any, error) { return &fakeSwap{old, new}, nil }
func (r *fakeRules) Remove(name string) (any, error)      { return &fakeDrop{name}, nil }
