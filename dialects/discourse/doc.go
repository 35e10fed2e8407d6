// Package discourse is forumgm's Discourse dialect, "discourse" in a configuration: JSON all the
// way. The Forum owns the session and the writing: logging in (GET /session/csrf for the
// X-CSRF-Token, then POST /session with the login and password, the session living in the
// cookies) or an API key sent with every request instead (Api-Key with Api-Username, an admin's
// key, or User-Api-Key, a user's own), replies and private messages through POST /posts.json,
// files through POST /uploads.json, and the reading of Discourse's JSON errors into forum's typed
// errors: a rate limit ({"error_type":"rate_limit","extras":{"wait_seconds":N}}, HTTP 429) is a
// *forum.FloodError, a body too short or too long ErrTooShort or ErrTooLong, ["BAD CSRF"] a token
// to fetch again, not_logged_in a session to open again.
//
// Reading: Reader reads a topic's posts from a cursor (/t/<id>.json, whose post_stream.stream
// lists every post id, and /t/<id>/posts.json for the rest, twenty posts a request), a category's
// topic list (/c/<slug>/<id>.json) standing for its topics, and the bot's private-message topics
// (/topics/private-messages/<user>.json). This package owns the JSON shapes of those answers and
// the reading of a post's cooked HTML (quotes as aside.quote with data-username and data-post,
// code as <pre>, spoilers as <details>), and the reading of a saved topic's HTML page from its
// crawler view (Extract, crawler.go: saved pages only). Reader makes no request of its own: the Forum hands it a
// Get that carries the session or the API key. HTTP goes through forum.Client.
//
// Config.Extra keys: "auth" ("session", the default; "api_key": the configured password is an
// admin API key, sent for "api_username", default the configured user name; "user_api_key": the
// password is a user API key), or the key itself in "api_key" / "user_api_key" (and
// "user_api_client_id"); "max_post_length" (default 32000, Discourse's max_post_length);
// "attachments" (on or off) and "max_attachment_size" (bytes, default 4 MB); "chunk" (posts a
// request, default 20: Discourse's posts_chunksize); "rate".
package discourse
