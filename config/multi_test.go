package config

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

const multiSrc = `
forums:
  main:
    url: http://127.0.0.1:8081/
    dialect: mybb
    bot: {username: gm-bot, password_env: FORUMGM_BOT_PASSWORD}
  other:
    url: http://127.0.0.1:8082/
    dialect: phpbb
    timezone: Europe/Kiev
    bot: {username: gm2, password_env: OTHER_PASSWORD}
moderators: [Moderator]
games:
  - id: crusade-a
    kind: crusade
    forum: main
    thread: "1"
    section: "3"
    roster:
      - {name: Джелу, side: crusaders}
      - {name: snovaya, side: saracens}
  - kind: crusade
    forum: main
    thread: "2"
    moderators: [Arbiter]
    roster:
      - {name: Вася, side: crusaders}
      - {name: Петя, side: saracens}
  - id: lone
    kind: crusade
    forum: other
    thread: "7"
    timezone: Asia/Yekaterinburg
    roster:
      - {name: a, side: crusaders}
      - {name: b, side: saracens}
store: {path: games.db}
`

func TestGameConfigsGiveEachGameItsView(t *testing.T) {
	c, err := Parse([]byte(multiSrc))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(known); err != nil {
		t.Fatalf("valid several-game config refused: %v", err)
	}
	views := c.GameConfigs()
	if len(views) != 3 {
		t.Fatalf("%d views", len(views))
	}
	a, b, lone := views[0], views[1], views[2]
	if a.Game.ID != "crusade-a" || a.Forum.URL != "http://127.0.0.1:8081/" || a.Forum.Thread != "1" || a.Game.Section != "3" || a.Game.Forum != "main" {
		t.Errorf("first view: %+v %+v", a.Forum, a.Game)
	}
	if b.Game.ID != "crusade-2" || b.Forum.Thread != "2" {
		t.Errorf("default id from kind and thread: %q", b.Game.ID)
	}
	// Two games on main's bot: its inbox is shared; the lone game's bot is not.
	if !a.Bot.Shared || !b.Bot.Shared || lone.Bot.Shared {
		t.Errorf("shared: %v %v %v", a.Bot.Shared, b.Bot.Shared, lone.Bot.Shared)
	}
	if got := strings.Join(b.Moderators, ","); got != "Arbiter" {
		t.Errorf("game moderators: %q", got)
	}
	if got := strings.Join(a.Moderators, ","); got != "Moderator" {
		t.Errorf("default moderators: %q", got)
	}
	if lone.Forum.Dialect != "phpbb" || lone.Forum.Timezone != "Europe/Kiev" || lone.Bot.Username != "gm2" || lone.Game.Timezone != "Asia/Yekaterinburg" {
		t.Errorf("lone view: %+v %+v", lone.Forum, lone.Bot)
	}
	if a.Forum.Timezone != "Europe/Moscow" {
		t.Errorf("forum time zone defaults to the game's: %q", a.Forum.Timezone)
	}
	if a.Store.Path != "games.db" || lone.Store.Path != "games.db" {
		t.Error("the store is shared")
	}
	// Each view validates on its own and is single-game.
	for _, v := range views {
		if v.Multi() {
			t.Errorf("view %s is multi", v.Game.ID)
		}
		if err := v.validate(); err != nil {
			t.Errorf("view %s: %v", v.Game.ID, err)
		}
	}
	if v, err := c.Select("lone"); err != nil || v.Game.ID != "lone" {
		t.Errorf("select: %v %v", v, err)
	}
	if _, err := c.Select(""); err == nil || !strings.Contains(err.Error(), "crusade-a, crusade-2, lone") {
		t.Errorf("select without an id among three: %v", err)
	}
	if _, err := c.Select("nope"); err == nil || !strings.Contains(err.Error(), `no game "nope"`) {
		t.Errorf("select unknown: %v", err)
	}
}

func TestSingleGameConfigIsItsOwnView(t *testing.T) {
	c, err := Load("../config.yaml", known)
	if err != nil {
		t.Fatal(err)
	}
	views := c.GameConfigs()
	if len(views) != 1 || views[0] != c {
		t.Fatalf("views %v", views)
	}
	if v, err := c.Select(""); err != nil || v != c {
		t.Fatalf("select: %v", err)
	}
	if v, err := c.Select(c.Game.ID); err != nil || v != c {
		t.Fatalf("select by id: %v", err)
	}
}

func TestMultiValidateNamesFields(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
		want           string
	}{
		{"unknown forum", "forum: main\n    thread: \"2\"", "forum: nowhere\n    thread: \"2\"",
			`games[1].forum: "nowhere" is not one of forums: (main, other)`},
		{"same id", "  - kind: crusade\n    forum: main", "  - id: lone\n    kind: crusade\n    forum: main",
			`games[2].id: "lone" is also games[1]'s id`},
		{"same thread", `thread: "2"`, `thread: "1"`, `games[1].thread: "1" on main is also games[0]'s thread`},
		{"bad forum url told once", "url: http://127.0.0.1:8081/", "url: ftp://x", `forums.main.url: "ftp://x" is not an http(s) URL`},
		{"game field", "timezone: Asia/Yekaterinburg", "timezone: Mars/Olympus", `games[2].timezone: "Mars/Olympus" is not a time zone name`},
		{"missing thread", "    thread: \"7\"\n", "", `games[2].thread: missing`},
		{"mixed", "moderators: [Moderator]", "moderators: [Moderator]\ngame: {kind: crusade}", `forum, bot, game: a config with forums: and games:`},
		{"thread on a forum", "dialect: phpbb", "dialect: phpbb\n    thread: \"9\"", `forums.other.thread: a game's thread goes in its games: entry`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(multiSrc, tc.old) {
				t.Fatalf("test edit %q not found", tc.old)
			}
			c, err := Parse([]byte(strings.Replace(multiSrc, tc.old, tc.new, 1)))
			if err != nil {
				t.Fatal(err)
			}
			err = c.Validate(known)
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want %q in:\n%v", tc.want, err)
			}
			if n := strings.Count(err.Error(), tc.want); n != 1 {
				t.Fatalf("%q told %d times:\n%v", tc.want, n, err)
			}
		})
	}
}

func TestSingleGameRefusesGamesListKeys(t *testing.T) {
	b, err := os.ReadFile("../config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(b), "  kind: crusade\n", "  kind: crusade\n  thread: \"5\"\n", 1)
	c, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(known); err == nil || !strings.Contains(err.Error(), "belong in forum.thread") {
		t.Fatalf("game.thread in a single-game config: %v", err)
	}
}

// Who may moderate a game: in a several-game config, the game's own moderators (else the
// top-level ones) and no other web account; in a single-game config, the moderators and every
// web account.
func TestModerating(t *testing.T) {
	src := multiSrc + "review:\n  accounts:\n    - {name: Moderator, password_env: P1}\n    - {name: Arbiter, password_env: P2}\n    - {name: Helper, password_env: P3}\n"
	c, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"crusade-a": "Moderator", "crusade-2": "Arbiter", "lone": "Moderator"}
	// A web account named in no game's moderators is refused; a player of one game may moderate
	// another.
	if err := c.Validate(known); err == nil || !strings.Contains(err.Error(), `review.accounts[2].name: "Helper" moderates no game`) {
		t.Errorf("an account moderating nothing: %v", err)
	}
	c.Review.Accounts = c.Review.Accounts[:2]
	c.Games[1].Moderators = []string{"Arbiter", "snovaya"}
	c.Review.Accounts = append(c.Review.Accounts, ReviewAccount{Name: "snovaya", PasswordEnv: "P3"})
	if err := c.Validate(known); err != nil {
		t.Errorf("a player of crusade-a moderating crusade-2: %v", err)
	}
	c.Games[1].Moderators = []string{"Arbiter"}
	c.Review.Accounts = c.Review.Accounts[:2]
	for _, v := range c.GameConfigs() {
		if got := strings.Join(v.Moderating(), ","); got != want[v.Game.ID] {
			t.Errorf("%s: moderating %q, want %q", v.Game.ID, got, want[v.Game.ID])
		}
	}
	one, err := Load("../config.yaml", known)
	if err != nil {
		t.Fatal(err)
	}
	one.Moderators = []string{"Moderator"}
	one.Review.Accounts = []ReviewAccount{{Name: "moderator", PasswordEnv: "P1"}, {Name: "Helper", PasswordEnv: "P3"}}
	if got := strings.Join(one.Moderating(), ","); got != "Moderator,Helper" {
		t.Errorf("single game: moderating %q", got)
	}
}

// Every problem names its field as the file spells it and its line in the file, in whichever
// part it is: a shared section's bad duration (poll.floor, or a ceiling without a floor), a game
// setting's misspelt key (its line in the file, not counted from the game's block), a setting's
// bad value (issue 21, item 5).
func TestProblemsNameFieldAndLine(t *testing.T) {
	lineOf := func(src, text string) int {
		return strings.Count(src[:strings.Index(src, text)], "\n") + 1
	}
	for _, tc := range []struct {
		name, old, new string
		want           func(src string) string
	}{
		{"floor", "store: {path: games.db}", "store: {path: games.db}\npoll:\n  floor: 5q\n",
			func(src string) string {
				return fmt.Sprintf(`line %d: poll.floor: "5q" is not a duration`, lineOf(src, "5q"))
			}},
		{"ceiling without floor", "store: {path: games.db}", "store: {path: games.db}\npoll: {ceiling: 10x}\n",
			func(src string) string {
				return fmt.Sprintf(`line %d: poll.ceiling: "10x" is not a duration`, lineOf(src, "10x"))
			}},
		{"flow mapping, second value", "store: {path: games.db}", "store: {path: games.db}\npoll: {floor: 5s, ceiling: 10x}\n",
			func(src string) string {
				return fmt.Sprintf(`line %d: poll.ceiling: "10x" is not a duration`, lineOf(src, "10x"))
			}},
		{"a game's key", "    section: \"3\"\n    roster:", "    section: \"3\"\n    rostr:",
			func(src string) string {
				return fmt.Sprintf(`games[0].rostr: line %d: unknown field (did you mean roster?`, lineOf(src, "rostr"))
			}},
		{"a game's setting", "    timezone: Asia/Yekaterinburg\n", "    timezone: Asia/Yekaterinburg\n    settings:\n      first_side: crusaders\n      frist_side: saracens\n",
			func(src string) string {
				return fmt.Sprintf(`games[2].settings.frist_side: line %d: unknown field (did you mean first_side?`, lineOf(src, "frist_side"))
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(multiSrc, tc.old) {
				t.Fatalf("test edit %q not found", tc.old)
			}
			src := strings.Replace(multiSrc, tc.old, tc.new, 1)
			c, err := Parse([]byte(src))
			if err == nil {
				err = c.Validate(known)
			}
			if want := tc.want(src); err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("want %q in:\n%v", want, err)
			}
		})
	}
}
