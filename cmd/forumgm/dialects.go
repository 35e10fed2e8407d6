package main

// The forum dialects forumgm speaks; each registers itself with package forum.
import (
	_ "forumgm/poster/generic"
	_ "forumgm/poster/mybb"
	_ "forumgm/poster/mybbru"
	_ "forumgm/poster/phpbb"
	_ "forumgm/poster/punbb"
	_ "forumgm/poster/smf"
)
