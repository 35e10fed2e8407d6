// Package scrape is the dialects' HTML reading kit: the text of a post as a reader sees it
// (htmltext.go: Render), the dates forums show (date.go), what the hand-written readers share
// (readers.go), how a page names its own thread (thread.go: PageThread), and the selector-table
// reading engine, which is also the generic dialect's reading. The table-driven dialects read
// their pages with it (phpBB, Invision, XenForo, vBulletin 5, uCoz, MyBB.ru: each a Table of its
// own in dialects/<engine>); MyBB, PunBB and SMF have hand-written readers on the rest of the kit
// instead, and Discourse reads JSON.
//
// A table describes one engine's markup (Table): where a post is, where its id, permalink, author, time
// and body are, which parts of the body are quotes, code blocks, spoilers, signatures and edit
// notices, and how the pagination shows the current and last page. Extract applies a table to a
// page and returns forum.Post values: the author's own text with line breaks kept and code
// verbatim, quotes (author, linked post id, text with nested quotes inside), code blocks, spoilers,
// the edited flag, absolute times in the forum's zone (relative "Сегодня"/"Вчера"/"Today" forms
// resolved against the injected clock). A page that does not match its table is an error wrapping
// forum.ErrMarkupChanged, never an empty list; a part of a post the table cannot find costs
// that part (a forum.Problem of the post), not the page. Posts come in forum.CompareIDs order.
//
// The generic dialect reads its table from forum.Config.Extra (TableFromExtra; keys in README.md)
// and reads its saved pages with ExtractPage (its Extractor).
package scrape
