// Package form owns replaying a forum's HTML forms the way a browser would, for the posters of
// every dialect: reading a form's controls, action and charset (Read, Replay, Action, Charset),
// following where the answer sends the browser (RedirectTarget, IDFromURL), the one write-retry
// policy every dialect's writer uses (Retry: a lost session, a rejected token, the dialect's own
// passing refusals; flood control and a message too long come back to the daemon), reading the
// wait a flood message names (FloodWait), and cutting a message too long for the board into parts
// (Split: the splitter the daemon uses).
package web

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
)

// Form is an HTML form as a browser would submit it.
type Form struct {
	Action *url.URL   // resolved against the page URL, without a fragment
	Values url.Values // successful controls except submit buttons
}

// Read reads the form matched by sel on the page: its action and every control a browser would
// send (hidden, text and password inputs, checked checkboxes and radios, textareas, selected
// options), without any submit button.
func Read(p *forum.Page, doc *goquery.Document, sel string) (*Form, error) {
	f := doc.Find(sel).First()
	if f.Length() == 0 {
		return nil, fmt.Errorf("no form %q on %s", sel, p.URL)
	}
	action, _ := f.Attr("action")
	u, err := p.URL.Parse(strings.TrimSpace(action))
	if err != nil {
		return nil, fmt.Errorf("form %q: bad action %q: %w", sel, action, err)
	}
	u.Fragment = ""
	return &Form{Action: u, Values: Replay{}.Values(f)}, nil
}

// Replay says how Values reads a form beyond the controls every browser sends.
type Replay struct {
	// Submit is the name of the submit button pressed: its value is sent too. "" sends none.
	Submit string
	// TrimTextarea drops one more leading newline from each textarea (the HTML parser already
	// drops the first one, as a browser does); the PunBB and SMF posters always have.
	TrimTextarea bool
}

// Values is what a browser would send for form: every hidden, text and password input with its
// value, checked checkboxes and radios ("on" when they have no value), the selected (else the
// first) option of each select, textareas, and the submit button named r.Submit; no file inputs,
// no other buttons, nothing disabled or unnamed.
func (r Replay) Values(form *goquery.Selection) url.Values {
	vals := url.Values{}
	form.Find("input, textarea, select").Each(func(_ int, s *goquery.Selection) {
		name, ok := s.Attr("name")
		if !ok || name == "" {
			return
		}
		if _, disabled := s.Attr("disabled"); disabled {
			return
		}
		switch goquery.NodeName(s) {
		case "textarea":
			v := s.Text()
			if r.TrimTextarea {
				v = strings.TrimPrefix(v, "\n")
			}
			vals.Add(name, v)
		case "select":
			opt := s.Find("option[selected]").First()
			if opt.Length() == 0 {
				opt = s.Find("option").First()
			}
			if opt.Length() > 0 {
				vals.Add(name, opt.AttrOr("value", opt.Text()))
			}
		default:
			switch strings.ToLower(s.AttrOr("type", "text")) {
			case "submit", "button", "image", "reset":
				if r.Submit != "" && name == r.Submit {
					vals.Add(name, s.AttrOr("value", ""))
				}
			case "file":
			case "checkbox", "radio":
				if _, checked := s.Attr("checked"); checked {
					vals.Add(name, s.AttrOr("value", "on"))
				}
			default:
				vals.Add(name, s.AttrOr("value", ""))
			}
		}
	})
	return vals
}

// Action is the form's action resolved against the page's URL (as written when the page has no
// URL); false when the form has no action or it does not resolve.
func Action(form *goquery.Selection, page *forum.Page) (string, bool) {
	action, ok := form.Attr("action")
	if !ok || page == nil || page.URL == nil {
		return action, ok
	}
	u, err := page.URL.Parse(action)
	if err != nil {
		return "", false
	}
	return u.String(), true
}

// Charset is the charset a browser would encode the form in: the form's accept-charset, else the
// page's own charset, else UTF-8.
func Charset(form *goquery.Selection, page *forum.Page) string {
	for _, cs := range strings.FieldsFunc(form.AttrOr("accept-charset", ""), func(r rune) bool { return r == ' ' || r == ',' }) {
		if !strings.EqualFold(cs, "unknown") {
			return cs
		}
	}
	if page != nil && page.Charset != "" {
		return page.Charset
	}
	return "utf-8"
}
