package generic

import (
	"context"
	"testing"

	"forumgm/forum"
	"forumgm/forum/forumtest"
)

// The dialect conformance suite (forum/forumtest) on the sandbox, a MyBB 1.8 board over HTTP
// (forumtest.SandboxBoard), read and written through the selector table mybbExtra. The generic
// dialect has no private messages.
func TestConformance(t *testing.T) {
	forumtest.Run(t, forumtest.Harness{
		Lacks: map[forumtest.Lack]string{forumtest.LackPM: "the generic dialect configures no private messages"},
		Start: func(t *testing.T) *forumtest.Board { return forumtest.SandboxBoard(t, openMyBB) },
	})
}

// openMyBB is the generic dialect configured for MyBB (mybbExtra).
func openMyBB(cfg forum.Config) (forum.Forum, error) {
	cfg.Extra = mybbExtra()
	return New(cfg, Options{Client: forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100})})
}

// Found by the suite: MyBB answers a login with a "Redirecting…" page that shows no navigation
// (no logout link): the page it leads to tells whether the login took.
func TestLoginThroughRedirectPage(t *testing.T) {
	b := forumtest.SandboxBoard(t, openMyBB)
	if err := b.Forum.Login(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// mybbExtra configures the generic dialect for MyBB 1.8's default theme (the sandbox's
// templates, which are the captured board's): posts div.post#post_N, the date a relative text
// with the absolute time in a title within 12 hours ("5 minutes ago"), else "Today, 07:00 PM" or
// the absolute "12-01-2026, 07:00 PM"; showthread.php?action=lastpost a 302 to the newest post.
func mybbExtra() map[string]string {
	return map[string]string{
		"post": "div.post[id^='post_']", "post_id": "@id", "post_id_re": `^post_(\d+)$`,
		"permalink": ".post_head a[href*='pid=']@href", "permalink_format": "showthread.php?tid={thread}&pid={id}#pid{id}", "subject": ".post_head a[href*='pid=']@title",
		"author": ".author_information .largetext a", "author_id": ".author_information .largetext a@href", "author_id_re": `uid=(\d+)`,
		"time":        "span.post_date > span[title]@title || span.post_date",
		"time_re":     `^(\d\d-\d\d-\d{4}, \d\d:\d\d [AP]M)$ || ^(.*?\d\d:\d\d [AP]M)`,
		"time_layout": "01-02-2006, 03:04 PM",
		"body":        "div.post_body", "signature": "div.signature", "edited": "span.edited_post",
		"quote": "blockquote.mycode_quote", "quote_cite": "cite",
		"code": "div.codeblock", "code_text": "code",
		"page_current":  "div.pagination:not(.pagination_breadcrumb) .pagination_current",
		"page_numbers":  "div.pagination:not(.pagination_breadcrumb) a.pagination_page, div.pagination:not(.pagination_breadcrumb) .pagination_current",
		"prev_page":     "div.pagination:not(.pagination_breadcrumb) a.pagination_previous@href",
		"required":      "#posts",
		"thread_url":    "showthread.php?tid={thread}&page={page}",
		"last_page_url": "showthread.php?tid={thread}&action=lastpost",
		"thread_id":     "input[name='tid']@value",
		"logged_in":     "a[href*='action=logout']",
		"login_url":     "member.php?action=login", "login_form": "form:has(input[name='action'][value='do_login']):has(input[name='username'])",
		"login_user_field": "username", "login_pass_field": "password",
		"reply_url": "newreply.php?tid={thread}", "reply_form": "form:has(input[name='action'][value='do_newreply'])",
		"reply_field": "message", "reply_extra": "submit=Post Reply", "reply_id_param": "pid",
		"error":               "div.error li",
		"error_flood":         "too quickly",
		"error_too_long":      "is too long",
		"error_too_short":     "too short|is missing",
		"error_no_permission": "do not have permission",
		"error_bad_login":     "invalid username|password combination",
	}
}
