// Package games is the list of the games forumgm plays: a new game adds its one line here.
package games

import (
	"forumgm/game"
	"forumgm/games/crusade"
	"forumgm/games/dragonball"
	"forumgm/games/football"
)

// All is every game, each once.
func All() []game.Game {
	return []game.Game{crusade.Game{}, dragonball.Game{}, football.Game{}}
}
