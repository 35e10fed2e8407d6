package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"forumgm/forum"
	"forumgm/internal/chrome"
	"forumgm/store"
)

// TestWebBrowserAccept is a moderator in Debian's chromium (which may only resolve and reach
// loopback): open the UI, get sent to the login form, log in, open the flagged post from the
// queue, press Accept, and see the flag gone from the queue. Screenshots go to
// $REVIEW_SCREENSHOTS when set (else the test's temp dir).
func TestWebBrowserAccept(t *testing.T) {
	e := newWebEnv(t)
	post := forum.Post{Text: move, Quotes: []forum.Quote{{Author: "gm-bot", Text: "доска до хода"}}}
	id := e.flagPost("7", "Джелу", post, store.FlagUnreadable, "ошибка судьи")
	shots := os.Getenv("REVIEW_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}

	browser := chrome.Start(t, 3*time.Minute)
	page := browser.MustPage("")
	page.MustSetViewport(1200, 900, 1, false)
	shot := func(name string) {
		t.Helper()
		b, err := page.Screenshot(true, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shots, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	submit := func(sel string) {
		t.Helper()
		wait := page.WaitNavigation(proto.PageLifecycleEventNameLoad)
		page.MustElement(sel).MustClick()
		wait()
	}

	// The queue sends a stranger to the login form.
	page.MustNavigate(e.srv.URL + "/").MustWaitLoad()
	if got := page.MustInfo().URL; !strings.Contains(got, "/login?next=") {
		t.Fatalf("unauthenticated: at %s", got)
	}
	page.MustElement(`#login input[name=name]`).MustInput(modName)
	page.MustElement(`#login input[name=password]`).MustInput(modPass)
	submit(`#login button[type=submit]`)

	// The queue, with the flagged post.
	row := page.MustElement("#flag-" + itoa(id))
	if txt := row.MustText(); !strings.Contains(txt, "Джелу") || !strings.Contains(txt, move) {
		t.Fatalf("queue row: %q", txt)
	}
	shot("queue.png")
	submit("#flag-" + itoa(id) + " a.button")

	// The flag's page: the post as stored, Accept.
	if txt := page.MustElement("#post-text").MustText(); txt != move {
		t.Fatalf("post text %q", txt)
	}
	page.MustElement(`#accept-form input[name=reason]`).MustInput("ход читается")
	shot("flag.png")
	submit("#accept")

	// Back on the queue: the flash says so and the flag is gone.
	if txt := page.MustElement("p.flash.ok").MustText(); !strings.Contains(txt, "ход принят") {
		t.Fatalf("flash %q", txt)
	}
	page.MustElement("#empty")
	if has, _, err := page.Has("#flag-" + itoa(id)); err != nil || has {
		t.Fatalf("the flag is still in the queue (%v)", err)
	}
	shot("accepted.png")
	if f := e.flag(id); f.State != store.FlagAccepted || f.ResolvedBy != modName || f.Note != "ход читается" {
		t.Fatalf("flag in the store: %+v", f)
	}
	t.Logf("screenshots in %s", shots)
}
