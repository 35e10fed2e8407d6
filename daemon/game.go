package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"forumgm/config"
	cr "forumgm/engine/crusade"
	"forumgm/forum"
	"forumgm/judge"
	"forumgm/store"
)

// GameRecord is what the store keeps about a game when it is first registered: what a restart (and
// a replay) needs to rebuild the same referee, notably the start time when the config left it to
// the first run.
type GameRecord struct {
	Kind   string    `json:"kind"`
	Forum  string    `json:"forum"`
	Thread string    `json:"thread"`
	Start  time.Time `json:"start"`
}

// Register registers the game in the store (once) and returns its record: a game already
// registered keeps its stored start time.
func Register(ctx context.Context, st *store.Store, cfg *config.Config, now time.Time) (GameRecord, error) {
	rec := GameRecord{Kind: cfg.Game.Kind, Forum: cfg.Forum.URL, Thread: cfg.Forum.Thread, Start: cfg.StartTime()}
	if rec.Start.IsZero() {
		rec.Start = now
	}
	rec.Start = rec.Start.UTC().Truncate(time.Second)
	b, err := json.Marshal(rec)
	if err != nil {
		return rec, fmt.Errorf("daemon: register: %w", err)
	}
	g, err := st.EnsureGame(ctx, cfg.Game.ID, cfg.Game.Kind, b)
	if err != nil {
		return rec, fmt.Errorf("daemon: register: %w", err)
	}
	var stored GameRecord
	if err := json.Unmarshal(g.Config, &stored); err != nil || stored.Start.IsZero() {
		return rec, fmt.Errorf("daemon: register: stored game %s has no start time (config %s)", cfg.Game.ID, g.Config)
	}
	return stored, nil
}

// RefereeFactory builds a fresh referee for a game from the config, the forum's capabilities and
// the game's start time.
func RefereeFactory(cfg *config.Config, caps forum.Capabilities, start time.Time) (func() (judge.Referee, error), error) {
	switch cfg.Game.Kind {
	case "crusade":
		s, err := cfg.CrusadeSettings()
		if err != nil {
			return nil, fmt.Errorf("daemon: %w", err)
		}
		setup := cr.Setup{Mode: cr.SetupDefault, At: start}
		if cfg.Game.Deployment == "private" {
			setup = cr.Setup{Mode: cr.SetupPrivate}
		}
		opt := judge.CrusadeOptions{Settings: s, Roster: cfg.CrusadeRoster(), Setup: setup, Bot: cfg.Bot.Username,
			DisputeKeyword: cfg.Game.DisputeKeyword, NoPM: !caps.PrivateMessages}
		f := func() (judge.Referee, error) { return judge.NewCrusade(opt) }
		if _, err := f(); err != nil {
			return nil, err
		}
		return f, nil
	}
	return nil, fmt.Errorf("daemon: no referee for game %q", cfg.Game.Kind)
}
