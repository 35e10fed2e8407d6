package fleet

import (
	"path/filepath"
	"strings"

	"forumgm/config"
	"forumgm/store"
)

// SettleOf is how the moderators of the game's view v settle its flags, for the notices: the
// console command's --config (the file's absolute path) and --game (when the config lists its
// games), and the web UI's address when it has one (review.accounts): review.public_url, else
// the loopback address the daemon serves it on (review.listen, through an SSH tunnel), else none
// (forumgm review serve prints one).
func SettleOf(v *config.Config) store.Settle {
	s := store.Settle{Config: v.Path()}
	if abs, err := filepath.Abs(v.Path()); err == nil && v.Path() != "" {
		s.Config = abs
	}
	if v.Listed() {
		s.Game = v.Game.ID
	}
	if len(v.Review.Accounts) == 0 {
		return s
	}
	switch {
	case v.Review.PublicURL != "":
		s.WebURL = v.Review.PublicURL
	case v.Review.Listen != "" && !strings.HasSuffix(v.Review.Listen, ":0"): // :0, a free port: not known here
		s.WebURL, s.Tunnel = "http://"+v.Review.Listen+"/", true
	default:
		s.Serve = true
	}
	return s
}
