package punbb

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

func checkFixture(t *testing.T, name string, status int) error {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(fixture.Read(t, "punbb", name)))
	if err != nil {
		t.Fatal(err)
	}
	return checkError(doc, status)
}

// Every captured error page is recognised as its typed error.
func TestCapturedErrors(t *testing.T) {
	for _, c := range []struct {
		file string
		want error
		wait time.Duration
	}{
		{"03-login-error.guest.html", forum.ErrBadLogin, 0},
		{"03b-login-error-nouser.guest.html", forum.ErrBadLogin, 0},
		{"04-login-error-badtoken.guest.html", forum.ErrBadToken, 0},
		{"06-register-error-ip-flood.guest.html", nil, time.Hour},
		{"24-reply-error-empty.gm-bot.html", forum.ErrTooShort, 0},
		{"25b-reply-error-flood.gm-bot.html", nil, 10 * time.Second},
		{"26-reply-noperm.guest.html", forum.ErrLoggedOut, 0},
		{"28-reply-error-flood.snovaya.html", nil, 10 * time.Second},
	} {
		err := checkFixture(t, c.file, 200)
		if err == nil {
			t.Errorf("%s: no error recognised", c.file)
			continue
		}
		if c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.file, err, c.want)
		}
		var fe *forum.FloodError
		if c.wait != 0 && (!errors.As(err, &fe) || fe.Wait != c.wait) {
			t.Errorf("%s: %v, want flood %v", c.file, err, c.wait)
		}
		if c.wait == 0 && errors.As(err, &fe) {
			t.Errorf("%s: unexpected flood %v", c.file, err)
		}
	}
	if err := checkFixture(t, "26-reply-noperm.guest.html", 200); !errors.Is(err, forum.ErrNoPermission) {
		t.Errorf("26: %v", err)
	}
	// A member who lacks permission is not logged out.
	page := bytes.Replace(fixture.Read(t, "punbb", "26-reply-noperm.guest.html"), []byte(`id="navlogin"`), []byte(`id="navprofile"`), 1)
	doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(page))
	if err := checkError(doc, 200); !errors.Is(err, forum.ErrNoPermission) || errors.Is(err, forum.ErrLoggedOut) {
		t.Errorf("member without permission: %v", err)
	}
	for _, name := range []string{"12-thread-p1.gm-bot.html", "20-reply-form.gm-bot.html", "22-reply-success.gm-bot.html",
		"02-login-success.gm-bot.html", "25-reply-badtoken-accepted.gm-bot.html", "01-login-form.guest.html"} {
		if err := checkFixture(t, name, 200); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
