package main

// The games forumgm plays, linked in by their registration (as the forum dialects are).
import (
	_ "forumgm/games/crusade"
	_ "forumgm/games/dragonball"
	_ "forumgm/games/football"
)
