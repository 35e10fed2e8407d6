// Package mybb reads MyBB 1.8 pages (default theme "postbit" layout, stock templates) and MyBB
// 1.6 pages (the table postbit, horizontal and classic, through the selectors' fallbacks): the
// posts of a thread page (showthread.php), the message list of a private-message folder (private.php)
// and a private message (private.php?action=read&pmid=N), plus the pages a writer meets: login
// and reply forms, "redirect" success pages and error pages, each recognised as forum's typed
// errors.
//
// Every CSS selector and every pattern of page text lives in selectors.go, so a theme change is
// fixed in one place. A page whose markup is not recognised yields an error wrapping
// forum.ErrMarkupChanged, never an empty list.
//
// Reader reads a board through a session it is given: a thread's posts from a cursor with as few
// requests as the engine allows (one per idle poll), and the messages of a PM folder.
//
// The extractor is registered as "mybb" (forum.RegisterExtractor); the writing side (the session
// and login, replies, sending private messages) is forumgm/dialects/mybb.
package mybb
