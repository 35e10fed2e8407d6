package main

import (
	"forumgm/game"
	gamelist "forumgm/games" // main has its own type games (a daemon's running games)
)

// knownGames are the games forumgm plays (the list in package games).
func knownGames() *game.Registry { return game.NewRegistry(gamelist.All()...) }
