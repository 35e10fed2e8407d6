package web

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
)

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

// IDFromURL reads a post id from a URL: the first of the query parameters params that holds a
// number, else the fragment "#p123"; "" when there is none.
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
