package punbb

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/scraper/extract"
	"forumgm/scraper/htmltext"
)

// PageError is an error PunBB showed; Kind is the forum error it means (nil when none fits).
type PageError struct {
	Msg  string
	Kind error
}

func (e *PageError) Error() string {
	if e.Kind != nil {
		return "punbb: " + e.Msg + " (" + e.Kind.Error() + ")"
	}
	return "punbb: " + e.Msg
}

func (e *PageError) Unwrap() []error {
	if e.Kind == nil {
		return nil
	}
	return []error{e.Kind}
}

var (
	// "At least 10 seconds have to pass between posts." (Russian packs: "… 10 секунд …").
	floodRe = regexp.MustCompile(`(?i)(?:at least|как минимум|минимум|не менее)\s+(\d+)\s+(?:seconds?|секунд)`)
	// Registration from the same IP: "at least an hour has to pass".
	hourFloodRe = regexp.MustCompile(`(?i)at least an hour|не менее часа|как минимум час`)
)

// errorTexts maps error messages (English and Russian language packs) to the forum error they mean.
var errorTexts = []extract.ErrorText{
	{Frag: "you must enter a message", Kind: forum.ErrTooShort},
	{Frag: "вы должны ввести сообщение", Kind: forum.ErrTooShort},
	{Frag: "cannot be longer than", Kind: forum.ErrTooLong},
	{Frag: "too long", Kind: forum.ErrTooLong},
	{Frag: "не может быть длиннее", Kind: forum.ErrTooLong},
	{Frag: "incorrect username and/or password", Kind: forum.ErrBadLogin},
	{Frag: "wrong username and/or password", Kind: forum.ErrBadLogin}, // PunBB 1.2, FluxBB
	{Frag: "неверное имя пользователя", Kind: forum.ErrBadLogin},
	{Frag: "unable to confirm security token", Kind: forum.ErrBadToken},
	{Frag: "bad http_referer", Kind: forum.ErrBadToken}, // FluxBB 1.4/1.5: a POST without its page as Referer
	{Frag: "do not have permission", Kind: forum.ErrNoPermission},
	{Frag: "нет прав", Kind: forum.ErrNoPermission},
	{Frag: "bad request", Kind: forum.ErrNotFound},
	{Frag: "link you followed is incorrect", Kind: forum.ErrNotFound},
	{Frag: "неверный запрос", Kind: forum.ErrNotFound},
}

func kindOfText(msg string) error { return extract.KindOf(msg, errorTexts) }

// CheckError recognises the error a PunBB page shows, with the HTTP status it came with: the error
// list over a re-shown form (flood with its wait, empty or too long message, wrong login), the
// "Confirm action" page of a rejected CSRF token, and "Forum message" pages (no permission — for a
// guest that means logged out —, bad request). It returns nil when the page shows no error (a
// topic page, a form, the "Redirecting…" page after a success).
func CheckError(doc *goquery.Document, status int) error {
	guest := doc.Find(sel.navLogin).Length() > 0
	if items := doc.Find(sel.errorItems); items.Length() > 0 {
		var msgs []string
		items.Each(func(_ int, li *goquery.Selection) { msgs = append(msgs, htmltext.Collapse(li.Text())) })
		msg := strings.Join(msgs, " ")
		if m := floodRe.FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			return fmt.Errorf("%w: %w", &PageError{Msg: msg}, &forum.FloodError{Wait: time.Duration(n) * time.Second})
		}
		if hourFloodRe.MatchString(msg) {
			return fmt.Errorf("%w: %w", &PageError{Msg: msg}, &forum.FloodError{Wait: time.Hour})
		}
		return &PageError{Msg: msg, Kind: kindOfText(msg)}
	}
	if doc.Find(sel.confirmForm).Length() > 0 {
		msg := htmltext.Collapse(doc.Find("div.info-box").First().Text())
		if msg == "" {
			msg = "Confirm action"
		}
		return &PageError{Msg: msg, Kind: forum.ErrBadToken}
	}
	if doc.Find(sel.redirect).Length() == 0 && doc.Find(sel.topic).Length() == 0 {
		if m := doc.Find(sel.message).First(); m.Length() > 0 {
			msg := htmltext.Collapse(m.Text())
			kind := kindOfText(msg)
			if kind == forum.ErrNoPermission && guest {
				return fmt.Errorf("%w: %w", &PageError{Msg: msg, Kind: forum.ErrLoggedOut}, forum.ErrNoPermission)
			}
			return &PageError{Msg: msg, Kind: kind}
		}
	}
	if status >= 400 {
		return &PageError{Msg: fmt.Sprintf("HTTP %d", status)}
	}
	return nil
}
