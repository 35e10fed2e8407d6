// Package discourse reads a Discourse forum through its JSON API: a topic's posts from a cursor
// (/t/<id>.json, whose post_stream.stream lists every post id, and /t/<id>/posts.json for the
// rest, twenty posts a request), a category's topic list (/c/<slug>/<id>.json) standing for its
// topics, and the bot's private-message topics (/topics/private-messages/<user>.json). It owns
// the JSON shapes of those answers and the reading of a post's cooked HTML (quotes as
// aside.quote with data-username and data-post, code as <pre>, spoilers as <details>).
//
// It makes no request of its own: the writer (forumgm/dialects/discourse) hands it a Get that
// carries the session or the API key.
package discourse
