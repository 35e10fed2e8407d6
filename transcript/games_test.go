package transcript

import (
	"forumgm/game"
	"forumgm/games"
)

// known are the games the tests name (the list in package games).
var known = game.NewRegistry(games.All()...)
