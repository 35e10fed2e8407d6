package mybb

import (
	"net/url"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// quickFormMaxAge is how long the quick reply form of a thread page read stands for a reply:
// the reply to a move goes out within seconds of the read that found the move; an older form is
// fetched anew (newreply.php).
const quickFormMaxAge = 2 * time.Minute

// quickForm is the quick reply form of the last page of a thread read for the bot: its fields
// (my_post_key, posthash, tid, ...) ready to post, the page's charset and when it was read.
type quickForm struct {
	form    Form
	charset string
	at      time.Time
}

// keepQuickForm keeps the quick reply form of thread tid's page just read at path (reader.Seen),
// so that the reply to a move found on it costs no read of newreply.php: MyBB's quick reply
// (form#quick_reply_form on showthread.php, posted without JavaScript) takes the same fields
// as the full form. A page without one (a closed thread, a theme without quick reply), or in
// another charset than the board's forms (formCharset), drops the form kept before. f.mu is held
// (the read runs under it).
func (f *Forum) keepQuickForm(tid, path string, doc *goquery.Document) {
	delete(f.quick, tid)
	sel := doc.Find(selectors.QuickReply).First()
	if sel.Length() == 0 || f.charset != f.formCharset {
		return
	}
	page, err := url.Parse(f.abs(path))
	if err != nil {
		return
	}
	form := readForm(sel, page)
	if form.Values.Get("my_post_key") == "" {
		form.Values.Set("my_post_key", myPostKey(doc))
	}
	if form.Values.Get("my_post_key") == "" || form.Action == "" || form.Values.Get("tid") != "" && form.Values.Get("tid") != tid {
		return // not a form the reply can be posted with: the full form is fetched
	}
	if form.Values.Get("tid") == "" {
		form.Values.Set("tid", tid)
	}
	form.Values.Set("action", "do_newreply")
	if f.quick == nil {
		f.quick = map[string]quickForm{}
	}
	f.quick[tid] = quickForm{form: form, charset: f.charset, at: f.cfg.Now()}
}

// takeQuickForm gives thread tid's quick reply form kept from the page read last, when the
// session is logged in and the form is fresh (younger than quickFormMaxAge); ok is false
// otherwise (a stale form is dropped), and the full reply form is fetched. Several replies to the
// moves one read found take the same form, as a member posting twice from one page does (its
// posthash only gathers the attachments uploaded under it, and the quick reply uploads none). A
// token the board rejects logs in again (retry), which drops every kept form. f.mu is held.
func (f *Forum) takeQuickForm(tid string) (Form, string, bool) {
	q, ok := f.quick[tid]
	if !ok || !f.loggedIn {
		return Form{}, "", false
	}
	if age := f.cfg.Now().Sub(q.at); age < 0 || age > quickFormMaxAge {
		delete(f.quick, tid)
		return Form{}, "", false
	}
	return cloneForm(q.form), q.charset, true
}
