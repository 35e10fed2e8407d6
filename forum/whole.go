package forum

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ErrTruncated: a page lacks the closing markers a whole page ends with (a PHP fatal error
// mid-page, a dropped connection, a proxy's size limit). Nothing on it may be taken as the truth:
// a post cut in half is not the post, and a post missing from it is not gone. Reading again later
// is the remedy.
var ErrTruncated = errors.New("forum: page cut short (its closing markers are missing)")

// reHTMLEnd is the closing tag every engine's pages end with (a comment or a host's script may
// follow it).
var reHTMLEnd = regexp.MustCompile(`(?i)</html\s*>`)

// CheckWhole reports ErrTruncated when p is an HTML page that is not whole: a 2xx answer with a
// body (or the cached copy a 304 gave back) lacking "</html>". Dialects call it on every page
// they read before using it. Themes differ in their footers; "</html>" is what every engine and
// theme writes last, and what a page cut short lacks.
func CheckWhole(p *Page) error {
	if p == nil || p.Status < 200 || p.Status > 299 && p.Status != 304 || len(p.Body) == 0 {
		return nil
	}
	if ct := strings.ToLower(p.Header.Get("Content-Type")); !p.NotModified && ct != "" && !strings.Contains(ct, "html") {
		return nil
	}
	if reHTMLEnd.Match(p.Body) {
		return nil
	}
	return fmt.Errorf("forum: %s: %d bytes, no </html>: %w", p.URL, len(p.Body), ErrTruncated)
}
