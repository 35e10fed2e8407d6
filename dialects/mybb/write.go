package mybb

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"forumgm/forum"
	"forumgm/forum/web"

	"github.com/PuerkitoBio/goquery"
)

// Reply posts body to thread t and returns the new post's id. When MyBB auto-merged the text into
// the bot's previous post (same author, within postmergemins), the id is that post's and merged
// is true.
//
// Errors are acted on (retry): a logged-out session logs in again once, a rejected token logs in
// again and fetches a fresh form once. Flood control and a message longer than the board allows
// come back typed (*forum.FloodError, scrape.TooLongError with the board's limit): the daemon
// waits and splits.
func (f *Forum) Reply(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.retry().Post(ctx, func() (string, bool, error) { return f.replyOnce(ctx, t.ID, body) })
}

// retry is how a write is tried again (form.Retry): logged out → log in, once; a rejected token
// (my_post_key belongs to the session) → log in again and a fresh form, once.
func (f *Forum) retry() web.Retry {
	return web.Retry{Login: f.login, Fresh: f.login}
}

// ReplyOnce makes one reply attempt without acting on errors: take the quick reply form of the
// thread page just read (quick.go), else GET the full reply form; replay its fields with the
// message, POST, and read the result page.
func (f *Forum) ReplyOnce(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.replyOnce(ctx, t.ID, body)
}

func (f *Forum) replyOnce(ctx context.Context, tid, body string) (string, bool, error) {
	form, charset, ok := f.takeQuickForm(tid)
	if !ok {
		var err error
		if form, charset, _, err = f.replyForm(ctx, tid); err != nil {
			return "", false, err
		}
	}
	form.Values.Set("message", body)
	return f.submitReply(ctx, tid, form, charset)
}

// replyForm fetches the full reply form of thread tid (logging in first if needed) and returns
// it ready to post (every field replayed, action do_newreply), with the page's charset and the
// form's selection.
func (f *Forum) replyForm(ctx context.Context, tid string) (Form, string, *goquery.Selection, error) {
	if tid == "" {
		return Form{}, "", nil, errors.New("mybb: empty thread id")
	}
	if err := f.ensureLogin(ctx); err != nil {
		return Form{}, "", nil, err
	}
	p, doc, err := f.get(ctx, newReplyPath(tid))
	if err != nil {
		return Form{}, "", nil, err
	}
	f.formCharset = p.Charset
	sel, err := replyFormOf(doc)
	if err != nil {
		return Form{}, "", nil, err
	}
	form := readForm(sel, p.URL)
	if form.Values.Get("my_post_key") == "" {
		form.Values.Set("my_post_key", myPostKey(doc))
	}
	if form.Values.Get("tid") == "" {
		form.Values.Set("tid", tid)
	}
	form.Values.Set("action", "do_newreply")
	return form, p.Charset, sel, nil
}

// replyFormOf finds the full reply form of a page, or the page's error.
func replyFormOf(doc *goquery.Document) (*goquery.Selection, error) {
	sel := doc.Find(selectors.ReplyForm).Not("#quick_reply_form").First()
	if sel.Length() == 0 {
		if perr := pageError(doc); perr != nil {
			return nil, perr
		}
		if !LoggedIn(doc) {
			return nil, fmt.Errorf("mybb: reply form shown to a guest: %w", forum.ErrLoggedOut)
		}
		return nil, fmt.Errorf("mybb: no reply form (%s): %w", selectors.ReplyForm, forum.ErrMarkupChanged)
	}
	return sel, nil
}

// submitReply posts a filled reply form ("Post Reply") and reads the result page: the new post's
// id, and whether MyBB merged the text into the bot's previous post.
func (f *Forum) submitReply(ctx context.Context, tid string, form Form, charset string) (string, bool, error) {
	form.Values.Del("newattachment")
	form.Values.Set("submit", "Post Reply")

	st := f.rd.Thread(tid)
	prevLast := st.KnownLast
	if prevLast == "" {
		prevLast = f.probeLastPID(ctx, tid)
		st.KnownLast = prevLast
	}

	rp, rdoc, err := f.post(ctx, form, charset)
	if err != nil {
		return "", false, err
	}
	target, err := result(rdoc, rp.URL)
	if err != nil {
		return "", false, err
	}
	pid := pidFromURL(target)
	if pid == "" {
		return "", false, fmt.Errorf("mybb: reply accepted but the redirect %q names no post (queued for moderation?): %w", target, errUnrecognised)
	}
	// A new post always gets a pid above every existing one; MyBB's auto-merge answers with the
	// bot's previous post instead.
	merged := pid == st.OwnLast || (prevLast != "" && forum.CompareIDs(pid, prevLast) <= 0)
	st.OwnLast = pid
	if forum.CompareIDs(pid, st.KnownLast) > 0 {
		st.KnownLast = pid
	}
	return pid, merged, nil
}

// probeLastPID asks the board for the thread's newest post without reading a page:
// showthread.php?tid=T&action=lastpost answers 302 to …pid=P#pidP. "" when it cannot tell.
func (f *Forum) probeLastPID(ctx context.Context, tid string) string {
	p, err := f.c.GetNoRedirect(ctx, f.abs(lastPostPath(tid)), sessionCookies...)
	if err != nil || p.Status < 300 || p.Status > 399 {
		return ""
	}
	loc, err := p.Location()
	if err != nil {
		return ""
	}
	return pidFromURL(loc.String())
}

// SendPM sends a private message through the compose form (private.php?action=send), acting on
// a logged-out session and a rejected token like Reply. A recipient that does not exist is
// forum.ErrNotFound.
func (f *Forum) SendPM(ctx context.Context, to, subject, body string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.retry().Do(ctx, func() error { return f.sendPMOnce(ctx, to, subject, body) })
}

func (f *Forum) sendPMOnce(ctx context.Context, to, subject, body string) error {
	if err := f.ensureLogin(ctx); err != nil {
		return err
	}
	p, doc, err := f.get(ctx, composePath)
	if err != nil {
		return err
	}
	sel := doc.Find(selectors.PMSendForm).First()
	if sel.Length() == 0 {
		if perr := pageError(doc); perr != nil {
			return perr
		}
		if !LoggedIn(doc) {
			return fmt.Errorf("mybb: PM form shown to a guest: %w", forum.ErrLoggedOut)
		}
		return fmt.Errorf("mybb: no PM form (%s): %w", selectors.PMSendForm, forum.ErrMarkupChanged)
	}
	form := readForm(sel, p.URL)
	if form.Values.Get("my_post_key") == "" {
		form.Values.Set("my_post_key", myPostKey(doc))
	}
	form.Values.Set("action", "do_send")
	form.Values.Set("to", to)
	form.Values.Set("subject", subject)
	form.Values.Set("message", body)
	form.Values.Del("options[readreceipt]") // a bot wants no read receipts
	form.Values.Set("submit", "Send Message")
	rp, rdoc, err := f.post(ctx, form, p.Charset)
	if err != nil {
		return err
	}
	if _, err := result(rdoc, rp.URL); err != nil {
		if errors.Is(err, errFormRejected) && reNoRecipient.MatchString(err.Error()) {
			return fmt.Errorf("mybb: PM to %q: %w: %w", to, err, forum.ErrNotFound)
		}
		if errors.Is(err, errFormRejected) && reCannotReceive.MatchString(err.Error()) {
			return fmt.Errorf("mybb: PM to %q: %w: %w", to, err, forum.ErrRecipient)
		}
		return fmt.Errorf("mybb: PM to %q: %w", to, err)
	}
	return nil
}

// reNoRecipient is MyBB's refusal of a PM whose recipient is not a member ("One or more of the
// recipients you entered are not registered users: NAME", pmdata_invalid_recipients) or that
// names none ("You did not enter any recipients…", pmdata_no_recipients), in English and in the
// Russian packs' wording (kmitrakov/MyBB-Russian-Language-Pack for MyBB 1.8.39,
// XTRO123/mybb_lang_ru for 1.8.8, ferm32/mybb-rus for 1.6; quoted in sent_test.go). The dialect's generic classifier leaves them as a rejected form; for a PM they
// mean the recipient was not found.
var reNoRecipient = regexp.MustCompile(`(?i)not registered users|did not enter any recipients|не (?:являются )?зарег[ие]стрирован|не указали (?:ни одного )?получател|не ввели (?:никаких получателей|ни одного получателя)`)

// reCannotReceive is MyBB's refusal of a PM whose recipient cannot receive one: the quota is full
// (pmdata_recipient_reached_quota, error_pmrecipientreachedquota), private messages are turned
// off (pmdata_recipient_pms_disabled, error_recipientpmturnedoff), the recipient ignores the
// sender or takes PMs from buddies only (pmdata_recipient_is_ignoring, _has_buddy_only); English
// and the Russian pack's wording.
var reCannotReceive = regexp.MustCompile(`(?i)messaging quota|reached (?:their|his|her|the)[^.]*quota|inbox is full|(?:disabled|turned off) private messag|do(?:es)? not wish to receive|are ignoring you|on their ignore list|not on their buddy list|достиг\S*[^.]*(?:лимит|квот|предел)|превыш\S* лимит личных|отключил\S* (?:получение )?личн|не получать личные|запрет на получение личных|спис\S* игнорир|в (?:их|его) ч[её]рный список|в (?:их|его) спис\S* друзей|не внесли их в спис\S* друзей`)
