package mybb

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"forumgm/forum"
	"forumgm/forum/scrape"

	"github.com/PuerkitoBio/goquery"
)

// URLs of a board, relative to its root (resolve them against the base URL).

// threadPath is page n of thread tid (page 1 has no page parameter, as MyBB links it).
func threadPath(tid string, page int) string {
	if page <= 1 {
		return "showthread.php?tid=" + url.QueryEscape(tid)
	}
	return "showthread.php?tid=" + url.QueryEscape(tid) + "&page=" + strconv.Itoa(page)
}

// ThreadURL is the thread's first page (forum.Linker).
func (f *Forum) ThreadURL(t forum.Thread) string {
	return f.base.ResolveReference(&url.URL{Path: "showthread.php", RawQuery: "tid=" + url.QueryEscape(t.ID)}).String()
}

// PostURL is a post of the thread, as MyBB links it: showthread.php?tid=T&pid=P#pidP (forum.Linker).
func (f *Forum) PostURL(t forum.Thread, id string) string {
	return f.base.ResolveReference(&url.URL{Path: "showthread.php", RawQuery: "tid=" + url.QueryEscape(t.ID) + "&pid=" + url.QueryEscape(id), Fragment: "pid" + id}).String()
}

// lastPostPath answers 302 to the thread's newest post (showthread.php?tid=T&pid=P#pidP).
func lastPostPath(tid string) string {
	return "showthread.php?tid=" + url.QueryEscape(tid) + "&action=lastpost"
}

// postPath is a post's permalink; the server answers with the page that holds the post.
func postPath(tid, pid string) string {
	return "showthread.php?tid=" + url.QueryEscape(tid) + "&pid=" + url.QueryEscape(pid) + "#pid" + pid
}

// newReplyPath is the full reply form of a thread.
func newReplyPath(tid string) string { return "newreply.php?tid=" + url.QueryEscape(tid) }

// editPostPath is the edit form of post pid.
func editPostPath(pid string) string { return "editpost.php?pid=" + url.QueryEscape(pid) }

// pmPath reads one private message.
func pmPath(pmid string) string { return "private.php?action=read&pmid=" + url.QueryEscape(pmid) }

// Paths of the login form, the PM folder listing (inbox, page n) and the PM compose form.
const (
	loginPath   = "member.php?action=login"
	loginPost   = "member.php"
	composePath = "private.php?action=send"
)

// pidFromURL reads the pid of a post URL: showthread.php?tid=1&pid=16#pid16, Google SEO's
// Thread-Name?pid=16#pid16, MyBB's own SEO URLs thread-1-post-16.html#pid16 and post-16.html,
// else the #pidN fragment alone.
func pidFromURL(u string) string {
	u = strings.ReplaceAll(u, "&amp;", "&")
	frag := ""
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u, frag = u[:i], u[i+1:]
	}
	if id := firstMatch(rePID, queryOf(u)); id != "" {
		return id
	}
	if id := firstMatch(rePIDSEO, u); id != "" {
		return id
	}
	return firstMatch(rePIDFrag, frag)
}

// myPostKey is the page's CSRF token: the hidden input, or `var my_post_key = "…"`.
func myPostKey(doc *goquery.Document) string {
	if v, ok := doc.Find(selectors.PostKeyInput).First().Attr("value"); ok && v != "" {
		return v
	}
	var key string
	doc.Find("script").EachWithBreak(func(_ int, s *goquery.Selection) bool {
		key = firstMatch(rePostKeyJ, s.Text())
		return key == ""
	})
	return key
}

// LoggedIn tells whether the page was rendered for a member: the header has a logout link, or,
// in themes whose header has neither a logout nor a login link (the same header for everyone),
// the page has the members' quick-reply form.
func LoggedIn(doc *goquery.Document) bool {
	if doc.Find(selectors.LogoutLink).Length() > 0 {
		return true
	}
	return doc.Find(selectors.LoginLink).Length() == 0 && doc.Find(selectors.QuickReply).Length() > 0
}

// redirect is the target of a MyBB "redirect" page (HTTP 200 with a meta refresh), resolved
// against base; "" when the page is not one.
func redirect(doc *goquery.Document, base *url.URL) string {
	content, ok := doc.Find(selectors.RedirectMeta).First().Attr("content")
	if !ok {
		return ""
	}
	target := firstMatch(reRefresh, content)
	if target == "" {
		return ""
	}
	target = strings.ReplaceAll(strings.TrimSpace(target), "&amp;", "&")
	return absolute(base, target)
}

// inlineErrors are the messages of the "Please correct the following errors" box.
func inlineErrors(doc *goquery.Document) []string {
	var out []string
	doc.Find(selectors.ErrorBox).Find(selectors.ErrorItems).Each(func(_ int, li *goquery.Selection) {
		if s := scrape.Collapse(li.Text()); s != "" {
			out = append(out, s)
		}
	})
	return out
}

// genericError is the message of MyBB's error template (a one-cell table under the header):
// "Authorization code mismatch…", the no-permission list, "The specified thread does not
// exist." Only read when the page has no post container, form or redirect.
func genericError(doc *goquery.Document) string {
	var msg string
	doc.Find("table.tborder").EachWithBreak(func(_ int, tbl *goquery.Selection) bool {
		// The table's own rows: MyBB 1.6's no-permission message holds a login form's table.
		rows := tbl.Find("tr").FilterFunction(func(_ int, tr *goquery.Selection) bool {
			return tr.Closest("table").IsSelection(tbl)
		})
		if rows.Length() != 2 || rows.Eq(0).Find("td.thead").Length() == 0 {
			return true
		}
		td := rows.Eq(1).Find("td.trow1").First()
		if td.Length() == 0 {
			return true
		}
		txt := scrape.Collapse(td.Text())
		if classifyMessage(txt, true) != nil {
			msg = txt
			return false
		}
		return true
	})
	return msg
}

// classifyMessage turns a MyBB error message into forum's typed error (nil when it is none of
// them). loggedIn tells a no-permission page for a guest (ErrLoggedOut) from one for a member
// (ErrNoPermission).
func classifyMessage(msg string, loggedIn bool) error {
	switch {
	case msg == "":
		return nil
	case reFlood.MatchString(msg) && (reFloodTopic.MatchString(msg) || strings.Contains(strings.ToLower(msg), "wait")):
		n, _ := strconv.Atoi(firstMatch(reFlood, msg))
		return fmt.Errorf("mybb: %q: %w", msg, &forum.FloodError{Wait: time.Duration(n) * time.Second})
	case reBadKey.MatchString(msg):
		return fmt.Errorf("mybb: %q: %w", msg, forum.ErrBadToken)
	case reLockout.MatchString(msg):
		return fmt.Errorf("mybb: account locked out after failed logins: %q: %w", msg, forum.ErrBadLogin)
	case reBadLogin.MatchString(msg):
		return fmt.Errorf("mybb: %q: %w", msg, forum.ErrBadLogin)
	case reTooLong.MatchString(msg):
		return &tooLongError{Limit: tooLongLimit(msg), Msg: msg}
	case reTooShort.MatchString(msg):
		return fmt.Errorf("mybb: %q: %w", msg, forum.ErrTooShort)
	case reNoPerm.MatchString(msg):
		if loggedIn {
			return fmt.Errorf("mybb: %q: %w", msg, forum.ErrNoPermission)
		}
		return fmt.Errorf("mybb: %q: %w", msg, forum.ErrLoggedOut)
	case reDuplicate.MatchString(msg):
		return fmt.Errorf("mybb: %q: %w", msg, ErrAlreadyPosted)
	case reNotFound.MatchString(msg):
		return fmt.Errorf("mybb: %q: %w", msg, forum.ErrNotFound)
	case forum.Maintenance(msg): // "The board is closed for maintenance", the board-closed reason
		return fmt.Errorf("mybb: %q: %w", msg, forum.ErrMaintenance)
	}
	return nil
}

// ErrAlreadyPosted is MyBB's refusal of a reply equal (subject and message) to one the same user
// posted in the same thread within the last ten minutes: "You have already posted this reply to
// the specified thread." The reply is on the board already (a retry of a post whose answer was
// lost). It wraps forum.ErrAmbiguous, so the caller looks for it (its marker) instead of posting
// it again. The same holds for a private message sent again within five minutes: "You have
// already submitted the same private message to the same recipient within the last 5 minutes."
var ErrAlreadyPosted = fmt.Errorf("mybb: the board already has this reply: %w", forum.ErrAmbiguous)

// tooLongError is "The message is too long. Please enter a message shorter than N characters"
// with the board's limit when the message states it. errors.Is(err, forum.ErrTooLong) holds.
type tooLongError struct {
	Limit int // characters; 0 = not stated
	Msg   string
}

func (e *tooLongError) Error() string { return fmt.Sprintf("mybb: %q: %v", e.Msg, forum.ErrTooLong) }

// Unwrap makes errors.Is(err, forum.ErrTooLong) true.
func (e *tooLongError) Unwrap() error { return forum.ErrTooLong }

func tooLongLimit(msg string) int {
	m := reTooLongLimit.FindStringSubmatch(msg)
	for _, g := range m[1:] {
		if n, err := strconv.Atoi(g); err == nil {
			return n
		}
	}
	return 0
}

// errUnrecognised is wrapped (with forum.ErrMarkupChanged) when a form result page is neither a
// known success nor a known error.
var errUnrecognised = errors.New("mybb: result page not recognised")

// pageError is the typed error a page shows: an inline error box or the generic error template
// (nil when the page shows none that is known).
func pageError(doc *goquery.Document) error {
	in := LoggedIn(doc)
	msgs := inlineErrors(doc)
	for _, m := range msgs {
		if err := classifyMessage(m, in); err != nil {
			return err
		}
	}
	if msg := genericError(doc); msg != "" {
		return classifyMessage(msg, in)
	}
	if len(msgs) > 0 {
		return fmt.Errorf("mybb: form error %q: %w", strings.Join(msgs, "; "), errFormRejected)
	}
	return nil
}

// errFormRejected is a form error MyBB showed that forum has no type for (the text is kept).
var errFormRejected = errors.New("mybb: the forum rejected the form")

// result classifies the page a form POST answered with. Success is a redirect page (HTTP 200
// with a meta refresh); its target is returned. Anything else is a typed error.
func result(doc *goquery.Document, base *url.URL) (string, error) {
	if err := pageError(doc); err != nil {
		return "", err
	}
	if target := redirect(doc, base); target != "" {
		return target, nil
	}
	return "", fmt.Errorf("%w: neither a redirect page nor a known error: %w", errUnrecognised, forum.ErrMarkupChanged)
}

// Form is an HTML form ready to be submitted the way a browser would.
type Form struct {
	Action string     // resolved against the page's URL
	Values url.Values // the successful controls
}

// readForm collects a form's controls the way a browser submits it: hidden and text inputs,
// checked checkboxes and radios, textareas, selected options; no file inputs and no submit
// buttons (add the one "clicked" yourself).
func readForm(form *goquery.Selection, pageURL *url.URL) Form {
	f := Form{Values: url.Values{}}
	action, _ := form.Attr("action")
	f.Action = absolute(pageURL, strings.ReplaceAll(action, "&amp;", "&"))
	form.Find("input, textarea, select").Each(func(_ int, in *goquery.Selection) {
		name, ok := in.Attr("name")
		if !ok || name == "" {
			return
		}
		if _, dis := in.Attr("disabled"); dis {
			return
		}
		switch goquery.NodeName(in) {
		case "textarea":
			f.Values.Add(name, in.Text())
		case "select":
			opt := in.Find("option[selected]").First()
			if opt.Length() == 0 {
				opt = in.Find("option").First()
			}
			if opt.Length() > 0 {
				v, ok := opt.Attr("value")
				if !ok {
					v = opt.Text()
				}
				f.Values.Add(name, v)
			}
		default:
			typ := strings.ToLower(in.AttrOr("type", "text"))
			val := in.AttrOr("value", "")
			switch typ {
			case "submit", "button", "image", "reset", "file":
			case "checkbox", "radio":
				if _, checked := in.Attr("checked"); checked {
					if _, has := in.Attr("value"); !has {
						val = "on"
					}
					f.Values.Add(name, val)
				}
			default:
				f.Values.Add(name, val)
			}
		}
	})
	return f
}
