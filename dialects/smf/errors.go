package smf

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// errNewReplies is SMF re-showing the post form because someone replied after the form was built
// ("while you were typing a new reply has been posted"); nothing was posted, send again.
var errNewReplies = errors.New("smf: new replies while typing; nothing posted")

// pageError is an error page SMF showed; Kind is the forum error it means (nil when none fits).
type pageError struct {
	ID   string // SMF's error id where the page has one (fatal errors), e.g. post_WaitTime_broken
	Msg  string // the message as shown
	Kind error
}

func (e *pageError) Error() string {
	s := "smf: " + e.Msg
	if e.ID != "" {
		s = "smf: " + e.ID + ": " + e.Msg
	}
	if e.Kind != nil {
		s += " (" + e.Kind.Error() + ")"
	}
	return s
}

func (e *pageError) Unwrap() []error {
	if e.Kind == nil {
		return nil
	}
	return []error{e.Kind}
}

var (
	secondsRe = regexp.MustCompile(`(\d+)\s*(?:seconds?|second\(s\)|сек)`)
	// floodTextRe is SMF's spam protection in words (2.0 names no error id): "less than 5 seconds
	// ago", "wait about 2 seconds", "менее чем 5 секунд назад", "подождать около 2 секунд".
	floodTextRe = regexp.MustCompile(`(?:less than|wait about|менее чем|около)\s+\d+\s*(?:seconds?|секунд)`)
)

// floodWait reads the wait out of a flood message ("less than 5 seconds ago", "about 2 seconds").
func floodWait(msg string) time.Duration {
	if m := secondsRe.FindStringSubmatch(strings.ToLower(msg)); m != nil {
		n, _ := strconv.Atoi(m[1])
		return time.Duration(n) * time.Second
	}
	return 5 * time.Second // SMF's default spamWaitTime
}

// errorTexts maps message fragments of re-shown forms (English and Russian language packs) to the
// forum error they mean.
var errorTexts = []scrape.ErrorText{
	{Frag: "while you were typing", Kind: errNewReplies},
	{Frag: "пока вы писали", Kind: errNewReplies},
	{Frag: "session timed out", Kind: forum.ErrBadToken},
	{Frag: "session verification", Kind: forum.ErrBadToken},
	{Frag: "verify", Kind: forum.ErrBadToken},
	{Frag: "сесси", Kind: forum.ErrBadToken},
	{Frag: "body was left empty", Kind: forum.ErrTooShort},
	{Frag: "was left empty", Kind: forum.ErrTooShort},
	{Frag: "не заполнен", Kind: forum.ErrTooShort},
	{Frag: "пустое", Kind: forum.ErrTooShort},
	{Frag: "оставлено пустым", Kind: forum.ErrTooShort},
	{Frag: "exceeds the maximum allowed length", Kind: forum.ErrTooLong},
	{Frag: "превышает", Kind: forum.ErrTooLong},
	{Frag: "password incorrect", Kind: forum.ErrBadLogin},
	{Frag: "username does not exist", Kind: forum.ErrBadLogin},
	{Frag: "неверный пароль", Kind: forum.ErrBadLogin},
	{Frag: "не существует", Kind: forum.ErrBadLogin},
	{Frag: "already submitted", Kind: forum.ErrBadToken},
	{Frag: "уже отправили", Kind: forum.ErrBadToken},
	{Frag: "not allowed", Kind: forum.ErrNoPermission},
	{Frag: "нет прав", Kind: forum.ErrNoPermission},
}

func kindOfText(msg string) error { return scrape.KindOf(msg, errorTexts) }

// checkError recognises the error an SMF page shows, with the HTTP status it came with: a fatal
// error page (flood with its wait, double submit, no permission, missing topic), an error box over a
// re-shown form (empty, too long, session timed out, wrong login), or the login form shown to a
// guest where a member page was expected. It returns nil when the page shows no error.
func checkError(doc *goquery.Document, status int) error {
	if fe := doc.Find(sel.fatalInner).First(); fe.Length() == 0 && doc.Find(sel.fatalError).Length() > 0 {
		// SMF 2.0: the fatal error names no error id (and comes with HTTP 200); its text tells.
		msg := scrape.Collapse(doc.Find(sel.fatalText).First().Text())
		if msg == "" {
			msg = scrape.Collapse(doc.Find(sel.fatalError).Text())
		}
		e := &pageError{Msg: msg, Kind: kindOfText(msg)}
		if e.Kind == nil && floodTextRe.MatchString(strings.ToLower(msg)) {
			return fmt.Errorf("%w: %w", e, &forum.FloodError{Wait: floodWait(msg)})
		}
		return e
	}
	if fe := doc.Find(sel.fatalInner).First(); fe.Length() > 0 {
		id := fe.AttrOr("id", "")
		msg := scrape.Collapse(fe.Text())
		e := &pageError{ID: id, Msg: msg}
		switch {
		case strings.HasSuffix(id, "_WaitTime_broken"):
			return fmt.Errorf("%w: %w", e, &forum.FloodError{Wait: floodWait(msg)})
		case id == "error_form_already_submitted", strings.HasPrefix(id, "session_"), strings.HasPrefix(id, "token_"):
			e.Kind = forum.ErrBadToken
		case strings.HasPrefix(id, "cannot_"), id == "no_access", strings.HasSuffix(id, "_locked"):
			e.Kind = forum.ErrNoPermission
		case id == "not_a_topic", id == "not_a_board", id == "topic_gone", id == "no_board", id == "smf232":
			e.Kind = forum.ErrNotFound
		default:
			e.Kind = kindOfText(msg)
		}
		return e
	}
	vars := jsVars(doc)
	if box := doc.Find(sel.errorBox).First(); box.Length() > 0 && !idleErrorBox(box) {
		msg := scrape.Collapse(box.Find("#error_list").Text())
		if msg == "" {
			msg = scrape.Collapse(box.Find("li").Text())
		}
		if msg == "" {
			msg = scrape.Collapse(box.Text())
		}
		kind := kindOfText(msg)
		if box.ParentsFiltered(sel.loginForm).Length() > 0 && kind == nil {
			kind = forum.ErrBadLogin
		}
		return &pageError{Msg: msg, Kind: kind}
	}
	if form := doc.Find(sel.postForm); form.Find("textarea[name='message']").Length() > 0 &&
		strings.Contains(strings.ToLower(doc.Find("#main_content_section").Text()), "while you were typing") {
		return &pageError{Msg: "a new reply was posted while typing", Kind: errNewReplies}
	}
	if le := doc.Find(sel.loginError).First(); le.Length() > 0 && scrape.Collapse(le.Text()) != "" {
		// SMF 2.0: the login form again with the reason in p.error.
		msg := scrape.Collapse(le.Text())
		kind := kindOfText(msg)
		if kind == nil {
			kind = forum.ErrBadLogin
		}
		return &pageError{Msg: msg, Kind: kind}
	}
	if doc.Find(sel.loginForm).Length() > 0 && !loggedIn(doc, vars) {
		msg := scrape.Collapse(doc.Find(sel.information).First().Text())
		if msg == "" {
			msg = "login form shown to a guest"
		}
		// A guest asked for a member page: logged out, and (for now) no permission.
		return fmt.Errorf("%w: %w", &pageError{Msg: msg, Kind: forum.ErrLoggedOut}, forum.ErrNoPermission)
	}
	if status >= 400 {
		return &pageError{Msg: fmt.Sprintf("HTTP %d", status)}
	}
	return nil
}

// idleErrorBox is SMF 2.0's post form's box for preview errors: always there, hidden and empty
// until an error is shown.
func idleErrorBox(box *goquery.Selection) bool {
	return strings.Contains(strings.ReplaceAll(box.AttrOr("style", ""), " ", ""), "display:none") &&
		scrape.Collapse(box.Find("#error_list").Text()) == ""
}
