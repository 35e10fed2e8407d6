package config

import (
	"strings"
	"testing"
)

// store.url names a PostgreSQL database and never holds a password; StoreLocation prefers it to
// store.path.
func TestStoreURL(t *testing.T) {
	base := `forum: {url: "http://127.0.0.1:1/", dialect: mybb, thread: "7"}
bot: {username: gm-bot, password_env: FORUMGM_BOT_PASSWORD}
game: {id: g, kind: crusade, roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]}
`
	for _, c := range []struct{ store, want string }{
		{"store: {url: \"postgres://forumgm@db:5432/forumgm\"}\n", ""},
		{"store: {url: \"postgres://forumgm:hunter2@db:5432/forumgm\"}\n", "store.url: holds a password"},
		{"store: {url: \"mysql://db/forumgm\"}\n", "store.url: want postgres://"},
	} {
		cfg, err := Parse([]byte(base + c.store))
		if err == nil {
			err = cfg.Validate(known)
		}
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.store, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.store, err, c.want)
		case c.want != "" && strings.Contains(err.Error(), "hunter2"):
			t.Errorf("the password is printed: %v", err)
		case c.want == "" && cfg.StoreLocation() != "postgres://forumgm@db:5432/forumgm":
			t.Errorf("location %q", cfg.StoreLocation())
		}
	}
}
