package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestExampleConfigLoads(t *testing.T) {
	c, err := Load("../config.yaml", known)
	if err != nil {
		t.Fatalf("the example config.yaml must be valid: %v", err)
	}
	if c.Forum.Dialect != "mybb" || c.Game.Kind != "crusade" || c.Bot.PasswordEnv != "FORUMGM_BOT_PASSWORD" {
		t.Fatalf("unexpected values: %+v", c)
	}
	setup, err := c.GameSetup(false, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(setup.Players) != 2 {
		t.Fatalf("players %v", setup.Players)
	}
	if c.Poll.Floor.D() != 5*time.Second || c.Poll.Ceiling.D() != 10*time.Minute {
		t.Fatalf("poll: %v %v", c.Poll.Floor.D(), c.Poll.Ceiling.D())
	}
}

func TestValidateNamesFields(t *testing.T) {
	src := `
forum: {url: "ftp://x", dialect: "my bb", thread: ""}
bot: {username: "", password_env: "hunter2 secret"}
moderators: [Moderator, moderator]
game:
  kind: chess
  timezone: Mars/Olympus
  calendar: {working_days: [Funday]}
  roster: [{name: a, side: vikings}]
  deployment: random
poll: {floor: 10ms, ceiling: 5ms, evening_start: "25:00"}
ops: {listen: "0.0.0.0:9000", log_format: xml, log_level: loud}
review: {public_url: "http://mod.example.org/"}
`
	c, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	err = c.Validate(known)
	if err == nil {
		t.Fatal("want errors")
	}
	msg := err.Error()
	for _, field := range []string{"forum.url", "forum.dialect", "forum.thread", "bot.username", "bot.password_env",
		"moderators[1]", "game.kind", "game.timezone", "game.calendar.working_days[0]",
		"poll.floor", "poll.ceiling", "poll.evening_start", "ops.listen", "ops.log_format", "ops.log_level", "review.public_url"} {
		if !strings.Contains(msg, field+":") {
			t.Errorf("no message for %s in:\n%s", field, msg)
		}
	}
	if strings.Contains(msg, "hunter2 secret") {
		t.Errorf("a password pasted into password_env is echoed back:\n%s", msg)
	}
}

func TestUnknownFieldAndBadDuration(t *testing.T) {
	if _, err := Parse([]byte("forum: {urll: x}\n")); err == nil || !strings.Contains(err.Error(), "urll") {
		t.Fatalf("unknown field: %v", err)
	}
	if _, err := Parse([]byte("poll: {floor: soon}\n")); err == nil || !strings.Contains(err.Error(), "soon") {
		t.Fatalf("bad duration: %v", err)
	}
}

func TestCrusadeRosterAndSettingsChecked(t *testing.T) {
	src := `
forum: {url: "http://127.0.0.1:1/", thread: "1"}
bot: {username: gm-bot, password_env: PW}
game:
  kind: crusade
  roster: [{name: a, side: crusaders, warriors: [ш1]}]
  settings: {first_side: nobody, no_such_setting: 1}
  deployment: random
`
	c, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	err = c.Validate(known)
	if err == nil || !strings.Contains(err.Error(), "roster:") || !strings.Contains(err.Error(), "game.settings.no_such_setting: line 7: unknown field") ||
		!strings.Contains(err.Error(), "game.deployment: want default") {
		t.Fatalf("want roster and settings errors, got %v", err)
	}
}

func TestPasswordFromEnvAndResolve(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.yaml")
	src := `
forum: {url: "http://127.0.0.1:1/", thread: "7"}
bot: {username: gm-bot, password_env: FORUMGM_TEST_PW}
game:
  kind: crusade
  roster: [{name: a, side: crusaders}, {name: b, side: saracens}]
store: {path: state/x.db}
`
	if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(p, known)
	if err != nil {
		t.Fatal(err)
	}
	if c.Game.ID != "crusade-7" {
		t.Errorf("default id %q", c.Game.ID)
	}
	if got := c.Resolve(c.Store.Path); got != filepath.Join(dir, "state/x.db") {
		t.Errorf("resolve: %s", got)
	}
	t.Setenv("FORUMGM_TEST_PW", "")
	if _, err := c.Password(); err == nil || !strings.Contains(err.Error(), "FORUMGM_TEST_PW") {
		t.Errorf("missing password: %v", err)
	}
	t.Setenv("FORUMGM_TEST_PW", "s3cret")
	if pw, err := c.Password(); err != nil || pw != "s3cret" {
		t.Errorf("password: %q %v", pw, err)
	}
}

func TestReviewAccounts(t *testing.T) {
	c, err := Load("../config.yaml", known)
	if err != nil {
		t.Fatal(err)
	}
	if c.Review.Listen != "127.0.0.1:9322" || len(c.Review.Accounts) != 1 || c.Review.Accounts[0].PasswordEnv != "FORUMGM_MOD_PASSWORD" {
		t.Fatalf("example review section: %+v", c.Review)
	}
	src := `
forum: {url: "http://127.0.0.1:1/", thread: "1"}
bot: {username: gm-bot, password_env: BOT_PW}
game:
  kind: crusade
  roster: [{name: a, side: crusaders}, {name: b, side: saracens}]
review:
  listen: "10.0.0.1:80"
  accounts:
    - {name: "", password_env: MOD_PW}
    - {name: Anna, password_env: "hunter2 secret"}
    - {name: anna, password_env: MOD_PW}
    - {name: Boris, password_env: BOT_PW}
    - {name: Vera}
    - {name: A, password_env: MOD_PW}
`
	c, err = Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	err = c.Validate(known)
	if err == nil {
		t.Fatal("want errors")
	}
	msg := err.Error()
	for _, field := range []string{"review.listen", "review.accounts[0].name", "review.accounts[1].password_env",
		"review.accounts[2].name", "review.accounts[3].password_env", "review.accounts[4].password_env", "review.accounts[5].name"} {
		if !strings.Contains(msg, field+":") {
			t.Errorf("no message for %s in:\n%s", field, msg)
		}
	}
	if strings.Contains(msg, "hunter2 secret") {
		t.Errorf("a password pasted into password_env is echoed back:\n%s", msg)
	}
	acc := ReviewAccount{Name: "Anna", PasswordEnv: "FORUMGM_TEST_MOD_PW"}
	t.Setenv("FORUMGM_TEST_MOD_PW", "")
	if _, err := acc.Password(); err == nil || !strings.Contains(err.Error(), "FORUMGM_TEST_MOD_PW") {
		t.Errorf("missing password: %v", err)
	}
	t.Setenv("FORUMGM_TEST_MOD_PW", "pa55")
	if pw, err := acc.Password(); err != nil || pw != "pa55" {
		t.Errorf("password: %q %v", pw, err)
	}
}

func TestValidateAttachments(t *testing.T) {
	base, err := os.ReadFile("../config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if i := strings.Index(string(base), "\nattachments:"); i >= 0 {
		base = base[:i] // the example's sections (all commented out) are replaced below
	}
	for _, c := range []struct {
		name, yaml string
		bad        []string
	}{
		{"none", "", nil},
		{"https", "attachments: {dir: pics, public_url: https://example.org/pics/}", nil},
		{"loopback http and listen", "attachments: {dir: pics, public_url: http://127.0.0.1:8090/, listen: 127.0.0.1:8090}", nil},
		{"no dir", "attachments: {public_url: https://example.org/pics/}", []string{"attachments.dir"}},
		{"no url", "attachments: {dir: pics}", []string{"attachments.public_url"}},
		{"plain http elsewhere", "attachments: {dir: pics, public_url: http://example.org/pics/}", []string{"attachments.public_url"}},
		{"query", "attachments: {dir: pics, public_url: \"https://example.org/p?x=1\"}", []string{"attachments.public_url"}},
		{"not a url", "attachments: {dir: pics, public_url: pics}", []string{"attachments.public_url"}},
		{"public listen", "attachments: {dir: pics, public_url: https://example.org/, listen: 0.0.0.0:80}", []string{"attachments.listen"}},
		{"game pages", "public: {addr: 127.0.0.1:9324, public_url: https://example.org/games/}", nil},
		{"game pages on every address", "public: {addr: 0.0.0.0:9324}", []string{"public.addr"}},
		{"game pages over plain http", "public: {addr: 127.0.0.1:9324, public_url: http://example.org/games/}", []string{"public.public_url"}},
		{"game pages' proxy header", "public: {addr: 127.0.0.1:9324, trusted_proxy_header: Forwarded}", []string{"public.trusted_proxy_header"}},
	} {
		cfg, err := Parse(append(append([]byte{}, base...), "\n"+c.yaml+"\n"...))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		err = cfg.Validate(known)
		if len(c.bad) == 0 {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		for _, f := range c.bad {
			if err == nil || !strings.Contains(err.Error(), f+":") {
				t.Errorf("%s: no message for %s in %v", c.name, f, err)
			}
		}
	}
}

// review.trusted_proxy_header names a header a reverse proxy sets to the client's address.
func TestValidateTrustedProxyHeader(t *testing.T) {
	for h, ok := range map[string]bool{"": true, "X-Forwarded-For": true, "x-real-ip": true, "X-Client-IP": false, "Forwarded": false} {
		c, err := Load("../config.yaml", known)
		if err != nil {
			t.Fatal(err)
		}
		c.Review.TrustedProxyHeader = h
		err = c.Validate(known)
		if got := err == nil; got != ok {
			t.Errorf("%q: %v", h, err)
		}
		if !ok && (err == nil || !strings.Contains(err.Error(), "review.trusted_proxy_header:")) {
			t.Errorf("%q: the field is not named: %v", h, err)
		}
	}
}
