// Package game owns the contract a game plug-in implements, at the bottom of the import graph:
// the plug-in value (Game: Name, Title, Setup) and the Rules it builds with their optional parts
// (plugin.go); the pure engine inside them (Engine, Act, Event and its stored Record: engine.go),
// the seeded source of chance and commitments (rand.go), typed refusals (refusal.go); the
// vocabulary the referee, the daemon and the store share (Input, Outcome, Message, Flag,
// ModCommand: vocabulary.go); and the Registry of the games a process knows (registry.go, built
// from the list in package games). It imports only forum (for Post and Attachment).
//
// An engine is pure: it reads no clock, does no I/O, logs nothing, and iterates maps only after
// sorting their keys. Its state is a fold of its events: Decide judges an input against the current
// state and returns the events it causes (or a typed error, and then nothing changes); Apply folds
// one event into the state. Timed rules (a daily close, a deadline) are driven from outside: the
// caller asks NextTimer when the next one is due and calls Tick at that moment, in order, never
// skipping one, so a replay and a live daemon that was down for a while reach the same state.
package game

import (
	"encoding/json"
	"fmt"
	"time"
)

// Event is one fact in a game's event log. Kind names the event type (stable, stored in the log);
// the value is stored as JSON.
type Event interface {
	EventKind() string
}

// Act is one thing a game's engine is asked to judge: a player's post or private message (Body
// holds the game-specific intent the grammar read), an answer to a question, a moderator command.
type Act struct {
	At      time.Time // when it happened (the post's time), in any zone
	Author  string    // the forum user name (players) or the moderator's name
	Private bool      // came by private message to the game
	Body    any       // game-specific: the parsed intents
	Rand    *Rand     // the game's source of chance; nil when the input cannot draw
}

// Engine is a rules engine for one running game.
type Engine interface {
	// Name is the game's identifier ("crusade").
	Name() string
	// Decide judges in against the current state. It never changes the state: the caller appends
	// the returned events to the log and folds each with Apply. A refusal is a typed error whose
	// fields name every problem; templates explain it to players.
	Decide(in Act) ([]Event, error)
	// Apply folds one event into the state.
	Apply(ev Event) error
	// NextTimer is the earliest timed rule due strictly after t, if any.
	NextTimer(t time.Time) (time.Time, bool)
	// Tick fires the timed rules due at exactly at (a value NextTimer returned); chance comes
	// from rnd and every draw is recorded in the events returned.
	Tick(at time.Time, rnd *Rand) ([]Event, error)
	// DecodeEvent rebuilds a stored event from its kind and JSON.
	DecodeEvent(kind string, data []byte) (Event, error)
}

// Record is an event as stored: its kind and JSON form.
type Record struct {
	Kind string          `json:"kind"`
	Data json.RawMessage `json:"data"`
}

// Encode turns an event into its stored form.
func Encode(ev Event) (Record, error) {
	b, err := json.Marshal(ev)
	if err != nil {
		return Record{}, fmt.Errorf("engine: encode %s: %w", ev.EventKind(), err)
	}
	return Record{Kind: ev.EventKind(), Data: b}, nil
}

// Replay folds stored records into g in order.
func Replay(g Engine, recs []Record) error {
	for i, r := range recs {
		ev, err := g.DecodeEvent(r.Kind, r.Data)
		if err != nil {
			return fmt.Errorf("engine: replay record %d: %w", i, err)
		}
		if err := g.Apply(ev); err != nil {
			return fmt.Errorf("engine: replay record %d (%s): %w", i, r.Kind, err)
		}
	}
	return nil
}
