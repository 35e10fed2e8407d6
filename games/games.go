// Package games is the list of the games forumgm plays: a new game adds its one line here.
package games

import (
	"forumgm/game"
	"forumgm/games/crusade"
	"forumgm/games/dragonball"
	"forumgm/games/football"
	"forumgm/signup"
)

// All is every game, each once; a game that declares its team shape also takes a sign-up phase
// (a signup: block in its section, package signup).
func All() []game.Game {
	return []game.Game{signup.Wrap(crusade.Game{}), signup.Wrap(dragonball.Game{}), signup.Wrap(football.Game{})}
}
