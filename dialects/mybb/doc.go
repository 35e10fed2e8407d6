// Package mybb is forumgm's MyBB 1.8 (and 1.6) dialect, "mybb" in a configuration.
//
// Writing: the Forum owns the session (logs in through member.php), replies through the full
// newreply.php form replaying every hidden field (my_post_key, posthash, subject, …), recognises
// MyBB's auto-merge of consecutive posts, sends private messages, and turns MyBB's error pages
// into forum's typed errors. Reply and SendPM act on those errors (web.Retry): they log in again
// when logged out and fetch a fresh form on a rejected token; flood control and a message too
// long come back typed (the daemon waits and splits). HTTP goes through forum.Client.
//
// Reading: MyBB 1.8 pages (default theme "postbit" layout, stock templates) and MyBB 1.6 pages
// (the table postbit, horizontal and classic, through the selectors' fallbacks): the posts of a
// thread page (showthread.php), the message list of a private-message folder (private.php) and a
// private message (private.php?action=read&pmid=N), plus the pages a writer meets: login and
// reply forms, "redirect" success pages and error pages, each recognised as forum's typed errors.
//
// Every CSS selector and every pattern of page text lives in selectors.go, so a theme change is
// fixed in one place. A page whose markup is not recognised yields an error wrapping
// forum.ErrMarkupChanged, never an empty list.
//
// reader reads a board through a session it is given: a thread's posts from a cursor with as few
// requests as the engine allows (one per idle poll), and the messages of a PM folder; the
// Forum's Posts, Inbox and Sent call it through its session. Extractor reads one saved page
// (`forumgm posts --file`). Dialect (dialect.go) describes the dialect to package dialects.
package mybb
