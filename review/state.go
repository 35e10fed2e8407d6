package review

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"forumgm/game"
	"forumgm/store"
)

// Standing is the game as it stands, for a moderator: the state rebuilt from the log by the
// game's own referee.
type Standing struct {
	// View is the state drawn for people by the game itself (game.Viewer: the board, the field or
	// the ring, the standings, what happens next), the same view the players' public page shows;
	// nil for a game without one.
	View *game.View
	// Board is the state as text for a game without a View: the snapshot's "board" when it has
	// one, else the whole snapshot as indented JSON.
	Board string
	// Status is the state in the game's words (whose turn it is, what a side owes); "" when the
	// game has none.
	Status string
	// LastMove names the move an undo would undo; CanUndo is false when there is none.
	LastMove string
	CanUndo  bool
	// Winners are the names a moderator may give when ending the game (none: the game decides).
	Winners []game.Winner
}

// Standing rebuilds the referee from the log and describes the game as it stands.
func (r *Review) Standing(ctx context.Context) (Standing, error) {
	ref, _, err := r.referee(ctx)
	if err != nil {
		return Standing{}, err
	}
	var s Standing
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	if v, ok, err := ref.View(now()); err != nil {
		return Standing{}, fmt.Errorf("review: %w", err)
	} else if ok {
		s.View = &v
	} else if s.Board, err = boardText(ref.Snapshot()); err != nil {
		return Standing{}, err
	}
	s.LastMove, s.CanUndo = ref.LastUndoable()
	if d := ref.Describer(); d != nil {
		s.Status, s.Winners = d.Status(), d.Winners()
	}
	return s, nil
}

// Summary is a game at a glance, for the list of games.
type Summary struct {
	Game      string
	Kind      string // the game's engine ("crusade", "football")
	Open      int    // open flags
	Paused    bool
	Over      bool
	LastEvent time.Time // zero: no event yet
	// Reading is the game's long read under way (the cold catch-up of a long thread); nil: none.
	Reading *store.Progress
}

// Summary describes the game at a glance: its kind, open flags, whether it is paused or over,
// and when its last event happened.
func (r *Review) Summary(ctx context.Context) (Summary, error) {
	g, err := r.State(ctx)
	if err != nil {
		return Summary{}, err
	}
	flags, err := r.List(ctx)
	if err != nil {
		return Summary{}, err
	}
	over, err := r.Over(ctx)
	if err != nil {
		return Summary{}, err
	}
	s := Summary{Game: r.Game, Kind: g.Name, Open: len(flags), Paused: g.Paused, Over: over}
	last, err := r.Log(ctx, 1)
	if err != nil {
		return Summary{}, err
	}
	if len(last) > 0 {
		s.LastEvent = last[0].At
	}
	if s.Reading, err = r.Reading(ctx); err != nil {
		return Summary{}, err
	}
	return s, nil
}

// Reading is the game's long read under way as its daemon last recorded it (nil: none).
func (r *Review) Reading(ctx context.Context) (*store.Progress, error) {
	ps, err := r.Store.Progresses(ctx)
	if err != nil {
		return nil, err
	}
	if p, ok := ps[r.Game]; ok {
		return &p, nil
	}
	return nil, nil
}

// LastMove names the move an undo would undo now; ok is false when there is none.
func (r *Review) LastMove(ctx context.Context) (label string, ok bool, err error) {
	ref, _, err := r.referee(ctx)
	if err != nil {
		return "", false, err
	}
	label, ok = ref.LastUndoable()
	return label, ok, nil
}

// boardText is a snapshot as text: its "board" field when it has a text one, else indented JSON.
func boardText(snap any) (string, error) {
	if snap == nil {
		return "", nil
	}
	b, err := json.Marshal(snap)
	if err != nil {
		return "", fmt.Errorf("review: snapshot: %w", err)
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) == nil {
		var board string
		if raw, ok := fields["board"]; ok && json.Unmarshal(raw, &board) == nil && board != "" {
			return board, nil
		}
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return "", fmt.Errorf("review: snapshot: %w", err)
	}
	return out.String(), nil
}

// Entry is a logged event with the game's words for it.
type Entry struct {
	store.EventRow
	// Words is the game's description of the event; "" for the referee's own events (the web
	// UI words those) and for events the game has no words for.
	Words string
}

// Described returns the game's last n events (all when n <= 0) in log order, each with the
// game's words for it.
func (r *Review) Described(ctx context.Context, n int) ([]Entry, error) {
	evs, err := r.Log(ctx, n)
	if err != nil {
		return nil, err
	}
	ref, err := r.NewReferee()
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(evs))
	for i, e := range evs {
		out[i] = Entry{EventRow: e, Words: ref.Describe(e.Record())}
	}
	return out, nil
}
