package forum

import (
	"errors"
	"net/http"
	"net/url"
	"testing"
)

func TestCheckWhole(t *testing.T) {
	u, _ := url.Parse("http://127.0.0.1/showthread.php?tid=1")
	html := http.Header{"Content-Type": {"text/html; charset=UTF-8"}}
	for _, c := range []struct {
		name   string
		page   *Page
		wantOK bool
	}{
		{"whole", &Page{URL: u, Status: 200, Header: html, Body: []byte("<html><body>пост</body></html>\n<!-- end: showthread -->")}, true},
		{"upper case, host script after", &Page{URL: u, Status: 200, Header: html, Body: []byte("<HTML><BODY>x</BODY></HTML >\n<script>track()</script>")}, true},
		{"cut mid-post", &Page{URL: u, Status: 200, Header: html, Body: []byte("<html><body><div class=\"post\">1-й ход на O\n<b>Fatal error</b>: Allowed memory size")}, false},
		{"cut, cached by a 304", &Page{URL: u, Status: 200, Header: http.Header{}, NotModified: true, Body: []byte("<html><body>x")}, false},
		{"empty redirect", &Page{URL: u, Status: 302, Header: html}, true},
		{"not html", &Page{URL: u, Status: 200, Header: http.Header{"Content-Type": {"image/gif"}}, Body: []byte("GIF89a")}, true},
		{"error page", &Page{URL: u, Status: 503, Header: html, Body: []byte("<html>")}, true},
	} {
		err := CheckWhole(c.page)
		if (err == nil) != c.wantOK || err != nil && !errors.Is(err, ErrTruncated) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
