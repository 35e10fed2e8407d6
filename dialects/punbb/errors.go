package punbb

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// pageError is an error PunBB showed; Kind is the forum error it means (nil when none fits).
type pageError struct {
	Msg  string
	Kind error
}

func (e *pageError) Error() string {
	if e.Kind != nil {
		return "punbb: " + e.Msg + " (" + e.Kind.Error() + ")"
	}
	return "punbb: " + e.Msg
}

func (e *pageError) Unwrap() []error {
	if e.Kind == nil {
		return nil
	}
	return []error{e.Kind}
}

// The Russian wordings come from real packs (quoted with their keys in errors_ru_test.go):
// PunBB 1.4 lang/Russian (github.com/punbb/punbb commit 841d7a39570d210cbaa6ca8b1e6899c5321b8e07),
// FluxBB 1.5.8 lang/Russian (github.com/openstreetmap/fluxbb commit
// 2b99c3ddca342541226d7fb0640cb3df62ef9ad4), FluxBB 1.5.11 by Visman (github.com/MioVisman/FluxBB_by_Visman
// commit eba28a59590c2d218b1492c9389be9eb8327e547) and PunBB 1.2 punbb-mod
// (github.com/Gemorroj/punbb-mod commit 8e52d5e01ea5b7806437282809c3713814d9f9c2). PunBB 1.4's and
// Visman's were also seen on real installs (testdata/forums/{punbb,fluxbb15}-russian).
var (
	// "At least 10 seconds have to pass between posts." / "Должно пройти не менее 10 секунд…"
	// (PunBB 1.4) / "Нельзя оставлять сообщения чаще, чем раз в 10 секунд…" (FluxBB 1.5) /
	// "Хотя бы 10 секунд должно пройти…" (Visman) / "Должно пройти, по крайней мере 10 секунд, …"
	// (punbb-mod). The board's interval is the wait, as in English.
	floodRe = regexp.MustCompile(`(?i)(?:at least|как минимум|минимум|не менее|чаще, чем раз в|хотя бы|по крайней мере)\s+(\d+)\s+(?:seconds?|секунд)`)
	// Registration from the same IP: "at least an hour has to pass".
	hourFloodRe = regexp.MustCompile(`(?i)at least an hour|не менее часа|как минимум час`)
)

// errorTexts maps error messages (English and Russian language packs) to the forum error they mean.
var errorTexts = []scrape.ErrorText{
	{Frag: "you must enter a message", Kind: forum.ErrTooShort},
	{Frag: "вы должны ввести сообщение", Kind: forum.ErrTooShort},       // FluxBB 1.5 'No message'
	{Frag: "вы должны ввести текст сообщения", Kind: forum.ErrTooShort}, // PunBB 1.4, punbb-mod
	{Frag: "cannot be longer than", Kind: forum.ErrTooLong},
	{Frag: "too long", Kind: forum.ErrTooLong},
	{Frag: "не может быть длиннее", Kind: forum.ErrTooLong},  // FluxBB, punbb-mod 'Too long message'
	{Frag: "превышает лимит форума", Kind: forum.ErrTooLong}, // PunBB 1.4 'Too long message'
	{Frag: "incorrect username and/or password", Kind: forum.ErrBadLogin},
	{Frag: "wrong username and/or password", Kind: forum.ErrBadLogin}, // PunBB 1.2, FluxBB
	{Frag: "неверное имя пользователя", Kind: forum.ErrBadLogin},
	{Frag: "неверное имя и/или пароль", Kind: forum.ErrBadLogin},     // FluxBB 'Wrong user/pass'
	{Frag: "неправильное имя и/или пароль", Kind: forum.ErrBadLogin}, // punbb-mod
	{Frag: "неправильное имя или пароль", Kind: forum.ErrBadLogin},   // PunBB 1.4
	{Frag: "unable to confirm security token", Kind: forum.ErrBadToken},
	{Frag: "bad http_referer", Kind: forum.ErrBadToken},                 // FluxBB 1.4/1.5: a POST without its page as Referer
	{Frag: "обнаружена проблема безопасности", Kind: forum.ErrBadToken}, // PunBB 1.4 post 'CSRF token mismatch'
	{Frag: "невозможно подтвердить маркер доступа", Kind: forum.ErrBadToken},
	{Frag: "плохой http_referer", Kind: forum.ErrBadToken}, // FluxBB 1.5 'Bad referrer'
	{Frag: "неверный csrf_hash", Kind: forum.ErrBadToken},  // Visman 'Bad referrer'
	{Frag: "bad csrf hash", Kind: forum.ErrBadToken},       // FluxBB 1.5 'Bad csrf hash': a login with a stale csrf_token (404)
	{Frag: "неверный csrf хэш", Kind: forum.ErrBadToken},   // Visman 'Bad csrf hash'
	{Frag: "неверный источник", Kind: forum.ErrBadToken},   // punbb-mod 'Bad referrer'
	{Frag: "do not have permission", Kind: forum.ErrNoPermission},
	{Frag: "нет прав", Kind: forum.ErrNoPermission},       // FluxBB, Visman; PunBB 1.4 "нет права доступа"
	{Frag: "не имеете прав", Kind: forum.ErrNoPermission}, // punbb-mod
	{Frag: "bad request", Kind: forum.ErrNotFound},
	{Frag: "link you followed is incorrect", Kind: forum.ErrNotFound},
	{Frag: "неверный запрос", Kind: forum.ErrNotFound},
}

func kindOfText(msg string) error { return scrape.KindOf(msg, errorTexts) }

// checkError recognises the error a PunBB page shows, with the HTTP status it came with: the error
// list over a re-shown form (flood with its wait, empty or too long message, wrong login), the
// "Confirm action" page of a rejected CSRF token, and "Forum message" pages (no permission — for a
// guest that means logged out —, bad request). It returns nil when the page shows no error (a
// topic page, a form, the "Redirecting…" page after a success).
func checkError(doc *goquery.Document, status int) error {
	guest := doc.Find(sel.navLogin).Length() > 0
	if items := doc.Find(sel.errorItems); items.Length() > 0 {
		var msgs []string
		items.Each(func(_ int, li *goquery.Selection) { msgs = append(msgs, scrape.Collapse(li.Text())) })
		msg := strings.Join(msgs, " ")
		if m := floodRe.FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			return fmt.Errorf("%w: %w", &pageError{Msg: msg}, &forum.FloodError{Wait: time.Duration(n) * time.Second})
		}
		if hourFloodRe.MatchString(msg) {
			return fmt.Errorf("%w: %w", &pageError{Msg: msg}, &forum.FloodError{Wait: time.Hour})
		}
		return &pageError{Msg: msg, Kind: kindOfText(msg)}
	}
	if doc.Find(sel.confirmForm).Length() > 0 {
		msg := scrape.Collapse(doc.Find("div.info-box").First().Text())
		if msg == "" {
			msg = "Confirm action"
		}
		return &pageError{Msg: msg, Kind: forum.ErrBadToken}
	}
	if doc.Find(sel.redirect).Length() == 0 && doc.Find(sel.topic).Length() == 0 {
		if m := doc.Find(sel.message).First(); m.Length() > 0 {
			msg := scrape.Collapse(m.Text())
			kind := kindOfText(msg)
			if kind == forum.ErrNoPermission && guest {
				return fmt.Errorf("%w: %w", &pageError{Msg: msg, Kind: forum.ErrLoggedOut}, forum.ErrNoPermission)
			}
			return &pageError{Msg: msg, Kind: kind}
		}
	}
	if status >= 400 {
		return &pageError{Msg: fmt.Sprintf("HTTP %d", status)}
	}
	return nil
}
