// Package generic is forumgm's configurable reading dialect and the extraction engine every
// built-in dialect shares.
//
// A dialect is a selector table (Table): where a post is, where its id, permalink, author, time
// and body are, which parts of the body are quotes, code blocks, spoilers, signatures and edit
// notices, and how the pagination shows the current and last page. Extract applies a table to a
// page and returns forum.Post values: the author's own text with line breaks kept and code
// verbatim, quotes (author, linked post id, text with nested quotes inside), code blocks, spoilers,
// the edited flag, absolute times in the forum's zone (relative "Сегодня"/"Вчера"/"Today" forms
// resolved against the injected clock). A page that does not match its table is an error wrapping
// forum.ErrMarkupChanged, never an empty list.
//
// The generic dialect reads its table from forum.Config.Extra (TableFromExtra; keys in README.md)
// and registers the "generic" Extractor.
package generic
