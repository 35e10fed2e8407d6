package main

// The forum dialects forumgm speaks; each registers itself with package forum. poster/browser
// registers the real-browser writer the generic dialect uses with Extra["browser"] = "true".
import (
	_ "forumgm/poster/browser"
	_ "forumgm/poster/discourse"
	_ "forumgm/poster/generic"
	_ "forumgm/poster/invision"
	_ "forumgm/poster/mybb"
	_ "forumgm/poster/mybbru"
	_ "forumgm/poster/phpbb"
	_ "forumgm/poster/punbb"
	_ "forumgm/poster/smf"
	_ "forumgm/poster/xenforo"
	_ "forumgm/scraper/ucoz"       // reading only: `forumgm posts --dialect ucoz`
	_ "forumgm/scraper/vbulletin5" // reading only: `forumgm posts --dialect vbulletin5`
)
