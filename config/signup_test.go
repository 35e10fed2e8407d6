package config

import (
	"strings"
	"testing"
)

// A game section with a signup: block instead of a roster validates; its mistakes are named by
// field (the deadline, the sizes, a misspelt key, the rest of the game's section).
func TestSignupBlockChecked(t *testing.T) {
	cases := []struct {
		name, game string
		want       []string // parts of the error ("" none: valid)
	}{
		{"valid", `  kind: crusade
  start: "2026-12-01T12:00:00+03:00"
  signup: {deadline: "2026-12-03T20:00:00+03:00", team_size: 5, until_full: true}
  deployment: private`, nil},
		{"football teams", `  kind: football
  start: "2026-12-01T12:00:00+03:00"
  signup: {deadline: "2026-12-03T20:00:00+03:00", teams: [Спартак, Динамо, Зенит]}
  settings: {first_turn: "2026-12-04T20:00:00+03:00"}`, nil},
		{"no deadline", `  kind: dragonball
  start: "2026-12-01T12:00:00+03:00"
  signup: {team_size: 3}`, []string{"signup.deadline: missing"}},
		{"until full without sizes", `  kind: football
  start: "2026-12-01T12:00:00+03:00"
  signup: {deadline: "2026-12-03T20:00:00+03:00", until_full: true}
  settings: {first_turn: "2026-12-04T20:00:00+03:00"}`, []string{"signup.until_full"}},
		{"misspelt key", `  kind: crusade
  start: "2026-12-01T12:00:00+03:00"
  signup: {deadline: "2026-12-03T20:00:00+03:00", team_sise: 5}`, []string{"team_sise"}},
		{"bad duration", `  kind: crusade
  start: "2026-12-01T12:00:00+03:00"
  signup: {deadline: "2026-12-03T20:00:00+03:00", replace: soon}`, []string{"signup.replace"}},
		{"the game's section still checked", `  kind: crusade
  start: "2026-12-01T12:00:00+03:00"
  signup: {deadline: "2026-12-03T20:00:00+03:00"}
  settings: {first_side: nobody}`, []string{"first_side"}},
		{"crusade's sides are fixed", `  kind: crusade
  start: "2026-12-01T12:00:00+03:00"
  signup: {deadline: "2026-12-03T20:00:00+03:00", teams: [a, b]}`, []string{"signup.teams"}},
		{"no roster, no sign-up", `  kind: crusade
  start: "2026-12-01T12:00:00+03:00"`, []string{"no players"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "forum: {url: \"http://127.0.0.1:1/\", thread: \"1\"}\nbot: {username: gm-bot, password_env: PW}\nmoderators: [Moderator]\ngame:\n" + c.game + "\n"
			cfg, err := Parse([]byte(src))
			if err == nil {
				err = cfg.Validate(known)
			}
			if len(c.want) == 0 {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				if len(cfg.Players()) != 0 {
					t.Errorf("a sign-up game lists players %v before the sign-up", cfg.Players())
				}
				return
			}
			if err == nil {
				t.Fatalf("want an error with %q", c.want)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}
