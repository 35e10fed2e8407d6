package generic

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
)

// Form is an HTML form as a browser would submit it.
type Form struct {
	Action *url.URL   // resolved against the page URL
	Values url.Values // successful controls except submit buttons
}

// ReadForm reads the form matched by sel on the page: its action and every control a browser
// would send (hidden, text and password inputs, checked checkboxes and radios, textareas, selected
// options), without any submit button.
func ReadForm(p *forum.Page, doc *goquery.Document, sel string) (*Form, error) {
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
	vals := url.Values{}
	f.Find("input, textarea, select").Each(func(_ int, s *goquery.Selection) {
		name, ok := s.Attr("name")
		if !ok || name == "" {
			return
		}
		if _, dis := s.Attr("disabled"); dis {
			return
		}
		switch goquery.NodeName(s) {
		case "textarea":
			vals.Add(name, s.Text())
		case "select":
			opt := s.Find("option[selected]").First()
			if opt.Length() == 0 {
				opt = s.Find("option").First()
			}
			if v, ok := opt.Attr("value"); ok {
				vals.Add(name, v)
			} else if opt.Length() > 0 {
				vals.Add(name, opt.Text())
			}
		default:
			typ := strings.ToLower(s.AttrOr("type", "text"))
			v := s.AttrOr("value", "")
			switch typ {
			case "submit", "button", "image", "reset", "file":
			case "checkbox", "radio":
				if _, checked := s.Attr("checked"); checked {
					if _, has := s.Attr("value"); !has {
						v = "on"
					}
					vals.Add(name, v)
				}
			default:
				vals.Add(name, v)
			}
		}
	})
	return &Form{Action: u, Values: vals}, nil
}

// Sleeper waits for d or until ctx ends; tests inject one that advances a fake clock.
type Sleeper func(ctx context.Context, d time.Duration) error

// RealSleep waits on a timer.
func RealSleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

var metaRefresh = regexp.MustCompile(`(?i)^\s*\d+\s*;\s*url\s*=\s*['"]?([^'"]+)`)

// RedirectTarget is where a page sends the browser: its final URL after HTTP redirects, or the
// target of a <meta http-equiv="refresh"> ("Redirecting…" pages).
func RedirectTarget(p *forum.Page, doc *goquery.Document) *url.URL {
	if doc != nil {
		if c, ok := doc.Find(`meta[http-equiv="refresh" i]`).Attr("content"); ok {
			if m := metaRefresh.FindStringSubmatch(c); m != nil {
				if u, err := p.URL.Parse(strings.TrimSpace(m[1])); err == nil {
					return u
				}
			}
		}
	}
	return p.URL
}

// IDFromURL reads a post id from a URL: the query parameter param, else the fragment "#p123".
func IDFromURL(u *url.URL, params ...string) string {
	if u == nil {
		return ""
	}
	q := u.Query()
	for _, k := range params {
		if v := q.Get(k); v != "" && isDigits(v) {
			return v
		}
	}
	if f := strings.TrimPrefix(u.Fragment, "p"); f != "" && isDigits(f) {
		return f
	}
	return ""
}

func isDigits(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

var secondsRe = regexp.MustCompile(`(\d+)\s*(?:секунд|сек\.?|seconds?|s\b)`)

// FloodWait reads "N seconds" out of a flood message, else def.
func FloodWait(msg string, def time.Duration) time.Duration {
	if m := secondsRe.FindStringSubmatch(msg); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
			return time.Duration(n) * time.Second
		}
	}
	return def
}

// SplitMessage cuts body into parts of at most max runes, at paragraph breaks where it can, then
// at line breaks, never inside a [code]…[/code] block unless that block alone is too long.
func SplitMessage(body string, max int) []string {
	if max <= 0 || len([]rune(body)) <= max {
		return []string{body}
	}
	var parts []string
	rest := body
	for len([]rune(rest)) > max {
		r := []rune(rest)
		window := string(r[:max])
		cut := bestCut(window)
		if cut <= 0 {
			cut = len(window)
		}
		parts = append(parts, strings.TrimRight(rest[:cut], "\n "))
		rest = strings.TrimLeft(rest[cut:], "\n")
	}
	if strings.TrimSpace(rest) != "" {
		parts = append(parts, rest)
	}
	return parts
}

func bestCut(window string) int {
	lower := strings.ToLower(window)
	inCode := func(i int) bool {
		open := strings.LastIndex(lower[:i], "[code")
		return open >= 0 && strings.LastIndex(lower[:i], "[/code]") < open
	}
	for _, sep := range []string{"\n\n", "\n", " "} {
		for i := strings.LastIndex(window, sep); i > 0; i = strings.LastIndex(window[:i], sep) {
			if !inCode(i) {
				return i + len(sep)
			}
		}
	}
	return 0
}
