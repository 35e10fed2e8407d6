package config

import (
	"strings"
	"testing"
)

// A misspelt key is named by its place in the file and the key it probably meant, not by the
// decoder's Go type (issue 21, item 5: "line 25: field pasword not found in type config.Bot").
func TestUnknownFieldNamed(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"one game": {"forum: {url: \"http://127.0.0.1:1/\", dialect: mybb, thread: \"1\"}\nbot:\n  username: gm\n  pasword: x\n",
			"line 4: bot.pasword: unknown field (did you mean password_env?"},
		"a typo in forum": {"forum: {url: \"http://127.0.0.1:1/\", dialekt: mybb}\n",
			"line 1: forum.dialekt: unknown field (did you mean dialect?"},
		"nothing near": {"bot: {username: gm, colour: red}\n",
			"line 1: bot.colour: unknown field (known here: "},
	} {
		_, err := Parse([]byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "config.") {
			t.Errorf("%s: %v\nwant %q", name, err, tc.want)
		}
	}
}

// In a several-game config the path names the forum's key and, in a list, the entry's index.
func TestKeyPathNested(t *testing.T) {
	src := "forums:\n  main:\n    url: \"http://127.0.0.1:1/\"\n    dialekt: mybb\n"
	_, err := Parse([]byte(src))
	if err == nil || !strings.Contains(err.Error(), "line 4: forums.main.dialekt: unknown field (did you mean dialect?") {
		t.Errorf("%v", err)
	}
}
