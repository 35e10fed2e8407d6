package smf

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
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(fixture.Read(t, "smf", name)))
	if err != nil {
		t.Fatal(err)
	}
	return checkError(doc, status)
}

// Every captured error page is recognised as its typed error.
func TestCapturedErrors(t *testing.T) {
	for _, c := range []struct {
		file   string
		status int
		want   error
		wait   time.Duration
	}{
		{"03-login-error.guest.html", 200, forum.ErrBadLogin, 0},
		{"03b-login-error-nouser.guest.html", 200, forum.ErrBadLogin, 0},
		{"04-login-error-flood.guest.html", 403, nil, 2 * time.Second},
		{"24-reply-error-empty.gm-bot.html", 200, forum.ErrTooShort, 0},
		{"25-reply-error-badsession.gm-bot.html", 200, forum.ErrBadToken, 0},
		{"26-reply-noperm.guest.html", 200, forum.ErrLoggedOut, 0},
		{"27-newtopic-error-resubmit.snovaya.html", 403, forum.ErrBadToken, 0},
		{"28-reply-error-flood.gm-bot.html", 403, nil, 5 * time.Second},
		{"32-pm-send-error-flood.gm-bot.html", 403, nil, 5 * time.Second},
	} {
		err := checkFixture(t, c.file, c.status)
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
	// The guest's reply attempt is also a permission problem.
	if err := checkFixture(t, "26-reply-noperm.guest.html", 200); !errors.Is(err, forum.ErrNoPermission) {
		t.Errorf("26: %v", err)
	}
	// The sign-up error has no forum error of its own, but is still an error with SMF's text.
	err := checkFixture(t, "06-register-error-reserved-name.guest.html", 200)
	var pe *pageError
	if !errors.As(err, &pe) || pe.Msg != "(Moderator) This name is already in use by another member." {
		t.Errorf("06: %#v", err)
	}
	// Pages without errors.
	for _, name := range []string{"10-thread-p1.guest.html", "12-thread-p1.gm-bot.html", "20-reply-form.gm-bot.html", "30-pm-compose.gm-bot.html", "33-pm-inbox.dzhelu.html"} {
		if err := checkFixture(t, name, 200); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
