package config

import (
	"os"
	"strings"
	"testing"
)

// CheckSecrets names every password variable that is not set by its field: the bot's (of each
// forum a game plays on, in a several-game config) and, when asked, the moderators' (issue 19).
func TestCheckSecretsNamesUnsetFields(t *testing.T) {
	c, err := Load("../config.yaml", known)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("FORUMGM_BOT_PASSWORD", "")
	t.Setenv("FORUMGM_MOD_PASSWORD", "")
	os.Unsetenv("FORUMGM_BOT_PASSWORD")
	err = c.CheckSecrets(true)
	if err == nil || !strings.Contains(err.Error(), "bot.password_env:") || !strings.Contains(err.Error(), "$FORUMGM_BOT_PASSWORD is not set") ||
		!strings.Contains(err.Error(), "review.accounts[0].password_env:") {
		t.Errorf("both unset: %v", err)
	}
	if err := c.CheckSecrets(false); err == nil || strings.Contains(err.Error(), "review.accounts") {
		t.Errorf("the bot's only: %v", err)
	}
	t.Setenv("FORUMGM_BOT_PASSWORD", "b")
	if err := c.CheckSecrets(false); err != nil {
		t.Errorf("the bot's set: %v", err)
	}
	if err := c.CheckSecrets(true); err == nil || !strings.Contains(err.Error(), "review.accounts[0].password_env:") {
		t.Errorf("a moderator's unset: %v", err)
	}
	t.Setenv("FORUMGM_MOD_PASSWORD", "m")
	if err := c.CheckSecrets(true); err != nil {
		t.Errorf("all set: %v", err)
	}

	m, err := Parse([]byte(multiSrc))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("OTHER_PASSWORD", "")
	err = m.CheckSecrets(false)
	if err == nil || !strings.Contains(err.Error(), "forums.other.bot.password_env:") || strings.Contains(err.Error(), "forums.main") {
		t.Errorf("several games, one forum's bot unset: %v", err)
	}
	if _, err := m.GameConfigs()[2].Password(); err == nil || !strings.Contains(err.Error(), "forums.other.bot.password_env") {
		t.Errorf("the game's view names the forum's field: %v", err)
	}
}

// A password typed into password_env that passes for a variable's name (letters, digits, _) is
// never printed when the variable is missing: the message names the field and shows the value
// only when it looks like an environment variable's name (capitals, digits, _) (issue 19).
func TestSecretLikePasswordEnvNotPrinted(t *testing.T) {
	const secret = "Hunter2SuperSecretPw"
	src := strings.Replace(multiSrc, "OTHER_PASSWORD", secret, 1)
	c, err := Parse([]byte(`
forum: {url: "http://127.0.0.1:1/", thread: "7"}
bot: {username: gm-bot, password_env: ` + secret + `}
game:
  kind: crusade
  roster: [{name: a, side: crusaders}, {name: b, side: saracens}]
review:
  accounts: [{name: Anna, password_env: ` + strings.ToLower(secret) + `}, {name: Boris, password_env: ` + secret + `}]
`))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	add := func(err error) {
		if err == nil {
			t.Fatal("no error")
		}
		msgs = append(msgs, err.Error())
	}
	_, err = c.Password()
	add(err)
	_, err = c.Review.Accounts[0].Password()
	add(err)
	add(c.CheckSecrets(true))
	add(c.Validate(known)) // Boris shares the bot's variable
	add(m.CheckSecrets(false))
	_, err = m.GameConfigs()[2].Password()
	add(err)
	for _, msg := range msgs {
		if strings.Contains(strings.ToLower(msg), strings.ToLower(secret[2:])) || !strings.Contains(msg, "password_env") {
			t.Errorf("the value is shown, or the field not named:\n%s", msg)
		}
	}
	if ref, ok := EnvRef("FORUMGM_BOT_PASSWORD"); !ok || ref != "$FORUMGM_BOT_PASSWORD" {
		t.Errorf("a variable's name is not shown: %q", ref)
	}
}
