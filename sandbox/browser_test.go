package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"forumgm/internal/chrome"
	"forumgm/internal/testkit"
)

// TestBrowser drives Debian's chromium like a person: log in as a player, open the thread, type
// a reply in the quick reply form, submit, see it on the page; quote a post; send and read a PM.
// Screenshots go to $SANDBOX_SCREENSHOTS when set (else the test's temp dir). The browser may
// only resolve and reach loopback.
func TestBrowser(t *testing.T) {
	shots := os.Getenv("SANDBOX_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	clock := testkit.NewClock(captureTime.Add(10 * time.Minute))
	_, base := newBoard(t, true, clock, nil)

	t0 := time.Now()
	browser := chrome.Start(t, 90*time.Second)

	t.Logf("browser up after %s", time.Since(t0))
	page := browser.MustPage(base + "/member.php?action=login")
	page.MustSetViewport(1200, 1600, 1, false)
	shot := func(name string) {
		t.Logf("%5.1fs %s", time.Since(t0).Seconds(), name)
		page.MustWaitLoad()
		b, err := page.Screenshot(true, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shots, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	waitText := func(sel, text string) *rod.Element {
		t.Helper()
		el, err := page.Timeout(15*time.Second).ElementR(sel, text)
		if err != nil {
			t.Fatalf("waiting for %s %q: %v (url %s)", sel, text, err, page.MustInfo().URL)
		}
		return el
	}

	// Log in as a player.
	form := page.MustElement(`#content form[action="member.php"]`)
	form.MustElement(`input[name=username]`).MustInput("Джелу")
	form.MustElement(`input[name=password]`).MustInput("DzheluPass1")
	wait := page.WaitNavigation(proto.PageLifecycleEventNameLoad)
	form.MustElement(`input[type=submit]`).MustClick()
	wait()
	waitText("td.trow1", "You have successfully been logged in")
	t.Logf("%5.1fs logged in", time.Since(t0).Seconds())

	// Open the thread's last page (the meta refresh would also get there).
	page.MustNavigate(base + "/showthread.php?tid=1&page=2").MustWaitLoad()
	waitText(".welcome", "Welcome back")
	t.Logf("%5.1fs thread open", time.Since(t0).Seconds())
	shot("thread-before.png")
	t.Logf("%5.1fs shot done", time.Since(t0).Seconds())

	// Type a reply in the quick reply form and submit it.
	reply := "3-й ход крестоносца в1 на C6\nПроверка из браузера: «кавычки» <теги> & амперсанд."
	page.MustElement("#quick_reply_form textarea#message").MustInput(reply)
	wait = page.WaitNavigation(proto.PageLifecycleEventNameLoad)
	page.MustElement("#quick_reply_submit").MustClick()
	wait()
	waitText("td.trow1", "Thank you, your reply has been posted.")
	shot("reply-posted.png")
	// The meta refresh takes the browser to the new post.
	body := waitText("div.post_body#pid_18", "Проверка из браузера")
	if got := body.MustText(); !strings.Contains(got, "«кавычки» <теги> & амперсанд.") || !strings.Contains(page.MustInfo().URL, "pid=18") {
		t.Errorf("posted text %q at %s", got, page.MustInfo().URL)
	}
	shot("thread-after.png")

	// The Quote button opens the reply form with the quote pre-filled. (An hour later: a reply
	// within the hour would be merged into the player's last post.)
	clock.Advance(61 * time.Minute)
	page.MustNavigate(base + "/showthread.php?tid=1&page=2").MustWaitLoad()
	page.MustElement(`#post_16 a.postbit_quote`).MustClick()
	waitText("td.thead", "Post a New Reply")
	if v := page.MustElement("textarea#message").MustProperty("value").String(); !strings.HasPrefix(v, `[quote="gm-bot" pid='16' dateline='1796008903']`) {
		t.Errorf("quote pre-fill %q", v)
	}
	page.MustElement("textarea#message").MustInput("Принято, жду доску.")
	wait = page.WaitNavigation(proto.PageLifecycleEventNameLoad)
	page.MustElement(`form[name=input] input[name=submit]`).MustClick()
	wait()
	waitText("td.trow1", "Thank you, your reply has been posted.")
	page.MustNavigate(base + "/showthread.php?tid=1&pid=19").MustWaitLoad()
	waitText("#pid_19 blockquote.mycode_quote cite", "gm-bot Wrote:")
	shot("quote-posted.png")

	// Send a private message to the bot and read it as the bot.
	page.MustNavigate(base + "/private.php?action=send").MustWaitLoad()
	page.MustElement("textarea#to").MustInput("gm-bot")
	page.MustElement("input[name=subject]").MustInput("Вопрос по партии")
	page.MustElement("textarea#message").MustInput("Когда следующий ход?\n[code]\n    A  B\n 1|__|__|\n[/code]")
	wait = page.WaitNavigation(proto.PageLifecycleEventNameLoad)
	page.MustElement(`input[name=submit][value="Send Message"]`).MustClick()
	wait()
	waitText("td.trow1", "Thank you, your private message has successfully been sent.")

	page.MustNavigate(base + "/member.php?action=login").MustWaitLoad()
	page.MustElement(`.welcome a.logout`).MustClick()
	waitText("td.trow1", "You have successfully been logged out.")
	page.MustNavigate(base + "/member.php?action=login").MustWaitLoad()
	form = page.MustElement(`#content form[action="member.php"]`)
	form.MustElement(`input[name=username]`).MustInput("gm-bot")
	form.MustElement(`input[name=password]`).MustInput("GmBotPass1")
	wait = page.WaitNavigation(proto.PageLifecycleEventNameLoad)
	form.MustElement(`input[type=submit]`).MustClick()
	wait()
	page.MustNavigate(base + "/index.php").MustWaitLoad()
	waitText("#pm_notice", "You have one unread private message")
	page.MustElement(`#pm_notice a[href*="action=read"]`).MustClick()
	waitText("td.thead strong", "Вопрос по партии")
	code := page.MustElement(".post_body code").MustHTML()
	if !strings.Contains(code, "A&nbsp;&nbsp;B<br>\n 1|__|__|") {
		t.Errorf("PM code block %q", code)
	}
	shot("pm-read.png")
}
