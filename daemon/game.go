package daemon

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"forumgm/config"
	"forumgm/fairness"
	"forumgm/forum"
	"forumgm/referee"
	"forumgm/store"
)

// GameRecord is what the store keeps about a game when it is first registered: what a restart (and
// a replay) needs to rebuild the same referee: the start time when the config left it to the
// first run, and the game's secret seed and salt, drawn from crypto/rand then and kept only in
// the store (never in config.yaml, never in logs) until the game reveals them.
type GameRecord struct {
	Kind   string    `json:"kind"`
	Forum  string    `json:"forum"`
	Thread string    `json:"thread"`
	Start  time.Time `json:"start"`
	Seed   string    `json:"seed"`
	Salt   string    `json:"salt"`
}

// Register registers the game in the store (once) and returns its record: a game already
// registered keeps its stored start time and seed.
func Register(ctx context.Context, st *store.Store, cfg *config.Config, now time.Time) (GameRecord, error) {
	rec := GameRecord{Kind: cfg.Game.Kind, Forum: cfg.Forum.URL, Thread: cfg.Forum.Thread, Start: cfg.StartTime()}
	if rec.Start.IsZero() {
		rec.Start = now
	}
	rec.Start = rec.Start.UTC().Truncate(time.Second)
	var err error
	if rec.Seed, err = secret(); err != nil {
		return rec, fmt.Errorf("daemon: register: %w", err)
	}
	if rec.Salt, err = secret(); err != nil {
		return rec, fmt.Errorf("daemon: register: %w", err)
	}
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
		return rec, fmt.Errorf("daemon: register: stored game %s has no start time", cfg.Game.ID)
	}
	if stored.Seed == "" {
		// A game registered before seeds were drawn: give it one now, once.
		stored.Seed, stored.Salt = rec.Seed, rec.Salt
		b, err := json.Marshal(stored)
		if err != nil {
			return rec, fmt.Errorf("daemon: register: %w", err)
		}
		if err := st.SetGameConfig(ctx, cfg.Game.ID, b); err != nil {
			return rec, fmt.Errorf("daemon: register: %w", err)
		}
	}
	return stored, nil
}

// secret is 32 random bytes in hex.
func secret() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("crypto/rand: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// RefereeFactory builds fresh referees for a game from the config, the forum's capabilities and
// the game's record (start time, seed and salt).
func RefereeFactory(cfg *config.Config, caps forum.Capabilities, rec GameRecord) (func() (*referee.Referee, error), error) {
	setup, err := cfg.GameSetup(!caps.PrivateMessages, rec.Start)
	if err != nil {
		return nil, fmt.Errorf("daemon: game %s: %w", cfg.Game.ID, err)
	}
	opt := referee.Options{Bot: cfg.Bot.Username, DisputeKeyword: cfg.Game.DisputeKeyword, NoPM: !caps.PrivateMessages,
		Seed: rec.Seed, Salt: rec.Salt, Check: fairness.URL(cfg.Attachments.PublicURL),
		Page: cfg.GamePage()}
	f := func() (*referee.Referee, error) { return referee.New(setup, opt) }
	if _, err := f(); err != nil {
		return nil, err
	}
	return f, nil
}
