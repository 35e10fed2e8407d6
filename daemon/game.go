package daemon

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"forumgm/config"
	"forumgm/fairness"
	"forumgm/forum"
	"forumgm/game"
	"forumgm/referee"
	"forumgm/store"

	"go.yaml.in/yaml/v3"
)

// GameRecord is what the store keeps about a game when it is first registered: what a restart (and
// a replay) needs to rebuild the same referee: the start time when the config left it to the
// first run, and the game's secret seed and salt, drawn from crypto/rand then and kept only in
// the store's secrets table (never in the game's config row, config.yaml or logs) until the game
// reveals them.
type GameRecord struct {
	Kind   string    `json:"kind"`
	Forum  string    `json:"forum"`
	Thread string    `json:"thread"`
	Start  time.Time `json:"start"`
	Seed   string    `json:"-"` // the store's secrets table
	Salt   string    `json:"-"`
	// Spec is the fingerprint of the game's settings as first registered (SpecPrint): a config
	// reloaded with other settings is announced in the thread (referee.Options.Spec).
	Spec string `json:"spec,omitempty"`
}

// Register registers the game in the store (once) and returns its record: a game already
// registered keeps its stored start time and seed.
func Register(ctx context.Context, st *store.Store, cfg *config.Config, now time.Time) (GameRecord, error) {
	rec := GameRecord{Kind: cfg.Game.Kind, Forum: cfg.Forum.URL, Thread: cfg.Forum.Thread, Start: cfg.StartTime(), Spec: SpecPrint(cfg)}
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
	return RegisterRecord(ctx, st, cfg.Game.ID, rec)
}

// RegisterRecord registers game id with rec unless it is registered (the config row without the
// secrets, the seed and salt in the secrets table) and returns the stored record: a registered
// game keeps its start time and its first seed. Register draws the seed; a test or a tool that
// must replay a known seed gives it here.
func RegisterRecord(ctx context.Context, st *store.Store, id string, rec GameRecord) (GameRecord, error) {
	b, err := json.Marshal(rec)
	if err != nil {
		return rec, fmt.Errorf("daemon: register: %w", err)
	}
	g, err := st.EnsureGame(ctx, id, rec.Kind, b)
	if err != nil {
		return rec, fmt.Errorf("daemon: register: %w", err)
	}
	var stored GameRecord
	if err := json.Unmarshal(g.Config, &stored); err != nil || stored.Start.IsZero() {
		return rec, fmt.Errorf("daemon: register: stored game %s has no start time", id)
	}
	if stored.Spec == "" {
		// A game registered before its settings were fingerprinted: fingerprint them now, once.
		stored.Spec = rec.Spec
		b, err := json.Marshal(stored)
		if err != nil {
			return rec, fmt.Errorf("daemon: register: %w", err)
		}
		if err := st.SetGameConfig(ctx, id, b); err != nil {
			return rec, fmt.Errorf("daemon: register: %w", err)
		}
	}
	// The game's first seed stands; a game registered before seeds were drawn gets one now, once.
	sec, err := st.EnsureSecret(ctx, id, store.Secret{Seed: rec.Seed, Salt: rec.Salt})
	if err != nil {
		return rec, fmt.Errorf("daemon: register: %w", err)
	}
	stored.Seed, stored.Salt = sec.Seed, sec.Salt
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
	public, err := game.PublicSetup(cfg.Game.Kind, cfg.GameSpec(!caps.PrivateMessages, rec.Start))
	if err != nil {
		return nil, fmt.Errorf("daemon: game %s: %w", cfg.Game.ID, err)
	}
	opt := referee.Options{Bot: cfg.Bot.Username, DisputeKeyword: cfg.Game.DisputeKeyword, NoPM: !caps.PrivateMessages,
		Seed: rec.Seed, Salt: rec.Salt, Check: fairness.URL(cfg.Attachments.PublicURL), Setup: public,
		Location: cfg.GameLocation(), Zone: cfg.ZoneLabel(rec.Start), Spec: SpecPrint(cfg), SpecWas: rec.Spec,
		Page: cfg.GamePage()}
	if opt.RemindLead, err = cfg.Game.ReminderLead(); err != nil {
		return nil, fmt.Errorf("daemon: game %s: game.reminders %w", cfg.Game.ID, err)
	}
	f := func() (*referee.Referee, error) { return referee.New(setup, opt) }
	if _, err := f(); err != nil {
		return nil, err
	}
	return f, nil
}

// SpecPrint is a fingerprint of the game's settings (its own keys, zone and calendar): what a
// config reload may change under a running game.
func SpecPrint(cfg *config.Config) string {
	b, _ := yaml.Marshal(&cfg.Game.Spec)
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%v\x00", cfg.Game.Kind, cfg.Game.Timezone, cfg.Game.Calendar.WorkingDays)
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))[:16]
}
