package review

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"forumgm/forum"
	"forumgm/internal/chrome"
	"forumgm/store"
)

// browserSession is a logged-in moderator in chromium.
type browserSession struct {
	t     *testing.T
	e     *webEnv
	page  *rod.Page
	shots string
}

func newBrowserSession(t *testing.T, e *webEnv) *browserSession {
	t.Helper()
	shots := os.Getenv("REVIEW_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	page := chrome.Start(t, 3*time.Minute).MustPage("")
	page.MustSetViewport(1200, 900, 1, false)
	b := &browserSession{t: t, e: e, page: page, shots: shots}
	page.MustNavigate(e.srv.URL + "/login").MustWaitLoad()
	page.MustElement(`#login input[name=name]`).MustInput(modName)
	page.MustElement(`#login input[name=password]`).MustInput(modPass)
	b.submit(`#login button[type=submit]`)
	return b
}

func (b *browserSession) submit(sel string) {
	b.t.Helper()
	wait := b.page.WaitNavigation(proto.PageLifecycleEventNameLoad)
	b.page.MustElement(sel).MustClick()
	wait()
}

func (b *browserSession) open(path string) {
	b.t.Helper()
	b.page.MustNavigate(b.e.srv.URL + path).MustWaitLoad()
}

func (b *browserSession) shot(name string) {
	b.t.Helper()
	img, err := b.page.Screenshot(true, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b.shots, name), img, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browserSession) text(sel string) string {
	b.t.Helper()
	return b.page.MustElement(sel).MustText()
}

func (b *browserSession) num(js string) float64 {
	b.t.Helper()
	return b.page.MustEval(js).Num()
}

func (b *browserSession) flash(want string) {
	b.t.Helper()
	if txt := b.text("p.flash"); !strings.Contains(txt, want) {
		b.t.Fatalf("flash %q, want %q in it", txt, want)
	}
}

// The queue is readable: the post column is wide enough to read (not squeezed by a long flag
// detail), and a 300-line post shows a short excerpt with a link to the whole post on its page.
func TestWebBrowserQueueReadable(t *testing.T) {
	e := newWebEnv(t)
	var long []string
	for i := 1; i <= 300; i++ {
		long = append(long, fmt.Sprintf("строка %d: к1 на K16, длинный текст поста игрока", i))
	}
	detail := strings.Repeat("line 1 \"к1 на К-шестнадцать\": no cell to move to; ", 12)
	id := e.flagPost("7", "Джелу", forum.Post{Text: strings.Join(long, "\n")}, store.FlagUnreadable, detail)
	e.flagPost("8", "snovaya", forum.Post{Text: "#спор " + strings.Repeat("оченьдлинноесловобезпробелов", 8)}, store.FlagDispute, detail)
	b := newBrowserSession(t, e)
	b.open("/g/g/")
	b.shot("queue-readable.png")

	width := b.num(`() => document.querySelector("#flag-` + itoa(id) + ` td.post").getBoundingClientRect().width`)
	if width < 300 {
		t.Errorf("the post column is %.0f px wide at a 1200 px window", width)
	}
	height := b.num(`() => document.documentElement.scrollHeight`)
	if height > 3000 {
		t.Errorf("the queue is %.0f px tall with two flags", height)
	}
	row := b.text("#flag-" + itoa(id))
	if !strings.Contains(row, "строка 1:") || strings.Contains(row, "строка 300:") || !strings.Contains(row, "Весь пост") {
		t.Errorf("queue row is not an excerpt:\n%s", row)
	}
	b.submit("#flag-" + itoa(id) + " p.more a")
	if txt := b.text("#post-text"); !strings.Contains(txt, "строка 300:") {
		t.Errorf("the flag's page does not show the whole post")
	}
}

// A moderator settles every kind of case from the web UI alone: sees the board and whose turn it
// is, accepts an unreadable move as retyped, reads the log in words, undoes the move after a
// confirmation naming it, closes a dispute without a post, and ends the game in a draw.
func TestWebBrowserModeratorJob(t *testing.T) {
	e := newWebEnv(t)
	unreadable := e.flagPost("7", "Джелу", forum.Post{Text: "к1 на К-шестнадцать"}, store.FlagUnreadable, "line 1: no cell")
	b := newBrowserSession(t, e)

	// The game page: the board and whose turn it is.
	b.open("/g/g/")
	if cells := b.page.MustElements("#view table.board td"); len(cells) != 400 {
		t.Errorf("the board grid has %d cells, want 400", len(cells))
	}
	if v := b.text("#view"); !strings.Contains(v, "крестоносцы") || !strings.Contains(v, "р1") {
		t.Errorf("view:\n%s", v)
	}
	if st := b.text("#status"); !strings.Contains(st, "Ходят крестоносцы") {
		t.Errorf("status %q", st)
	}
	b.shot("game.png")

	// Accept the unreadable move as the player meant it.
	b.open("/g/g/flag/" + itoa(unreadable))
	b.page.MustElement("#accept-text").MustInput(move)
	b.shot("accept-as.png")
	b.submit("#accept")
	b.flash("ход принят")

	// The log in words.
	b.open("/g/g/log")
	lg := b.text("table.log")
	if !strings.Contains(lg, "ход 1: крестоносцы (Джелу)") || !strings.Contains(lg, "решение модератора") || strings.Contains(lg, "crusade.turn_played") {
		t.Errorf("log:\n%s", lg)
	}

	// Undo: the queue names the move; the confirmation page names it again.
	b.open("/g/g/")
	if txt := b.text("#undo"); !strings.Contains(txt, "ход 1 (Джелу)") {
		t.Errorf("undo button %q", txt)
	}
	b.submit("#undo")
	if txt := b.text("#undo-what"); !strings.Contains(txt, "ход 1 (Джелу)") {
		t.Errorf("undo page %q", txt)
	}
	b.page.MustElement(`#undo-form input[name=reason]`).MustInput("ход записан не тому воину")
	b.shot("undo.png")
	b.submit("#undo-confirm")
	b.flash("Отменён ход 1 (Джелу)")

	// A dispute is settled by its own forms, and every settlement posts to the player: an
	// illegal corrected move is refused with the game's answer and changes nothing; the ruling
	// for the player is queued; a dispute closed as settled elsewhere tells the player too.
	dispute := e.flagPost("9", "snovaya", forum.Post{Text: "#спор ход был неверный"}, store.FlagDispute, "спор")
	before := len(e.outbox())
	b.open("/g/g/flag/" + itoa(dispute))
	if has, _, _ := b.page.Has("#accept-text"); has {
		t.Error("a dispute offers the unreadable move's form")
	}
	b.page.MustElement("#overturn-text").MustInput("1-й ход сарацина н2 на G5")
	b.page.MustElement(`#overturn-form input[name=reason]`).MustInput("ход был понятен")
	b.shot("dispute.png")
	b.submit("#overturn")
	b.flash("не по правилам")
	if n := len(e.outbox()); n != before {
		t.Errorf("a refused overturn queued %d messages", n-before)
	}
	b.page.MustElement(`#overturn-form input[name=reason]`).MustInput("ход был понятен")
	b.submit("#overturn")
	b.flash("решён в пользу игрока")
	if f := e.flag(dispute); f.State != store.FlagAccepted || f.ResolvedBy != modName {
		t.Errorf("dispute flag %+v", f)
	}
	ob := e.outbox()
	if len(ob) != before+1 || !strings.Contains(ob[len(ob)-1].Body, "snovaya") || !strings.Contains(ob[len(ob)-1].Body, "в вашу пользу") {
		t.Errorf("the ruling for the player: %+v", ob[before:])
	}
	closed := e.flagPost("10", "snovaya", forum.Post{Text: "#спор и ещё"}, store.FlagDispute, "спор")
	b.open("/g/g/flag/" + itoa(closed))
	b.page.MustElement(`#close-form input[name=reason]`).MustInput("решили в личке")
	b.submit("#close")
	b.flash("игроку уйдёт ответ")
	if f := e.flag(closed); f.State != store.FlagDismissed || f.ResolvedBy != modName {
		t.Errorf("dispute flag %+v", f)
	}
	if ob := e.outbox(); len(ob) != before+2 || !strings.Contains(ob[len(ob)-1].Body, "закрыл ваш спор: решили в личке") {
		t.Errorf("closing a dispute tells the player: %+v", ob[before:])
	}

	// End the game: a draw, confirmed.
	b.open("/g/g/")
	b.submit("#end-game")
	b.page.MustElement("#winner-draw").MustClick()
	b.page.MustElement(`#end-form input[name=reason]`).MustInput("игроки договорились")
	b.page.MustElement("#end-confirm").MustClick()
	b.shot("end.png")
	b.submit("#end")
	b.flash("Игра завершена")
	found := false
	for _, ev := range e.events() {
		if ev.Kind == "crusade.game_ended" && strings.Contains(string(ev.Data), `"winner":"draw"`) && ev.Actor == modName {
			found = true
		}
	}
	if !found {
		t.Error("no game_ended event with a draw")
	}
	b.open("/g/g/")
	if st := b.text("#status"); !strings.Contains(st, "ничья") {
		t.Errorf("status after the end %q", st)
	}
}

func (e *webEnv) outbox() []store.OutboxRow {
	e.t.Helper()
	rows, err := e.st.PendingOutbox(context.Background(), "g")
	if err != nil {
		e.t.Fatal(err)
	}
	return rows
}
