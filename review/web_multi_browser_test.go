package review

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"forumgm/internal/chrome"
	"forumgm/store"
)

// Two games of different kinds in one UI, in chromium: Moderator logs in once, sees both games in
// the list, settles the Crusade flag from its own queue, and the football queue still holds its
// flag; Анна, who moderates only the Crusade game, sees the football game without a link and is
// refused on its pages. Screenshots go to $REVIEW_SCREENSHOTS when set.
func TestWebBrowserSeveralGames(t *testing.T) {
	m := newMultiEnv(t)
	crFlag := m.flagPost(crusadeID, "7", "Джелу", "к1 на К-шестнадцать", store.FlagUnreadable)
	fbFlag := m.flagPost(footballID, "8", "Петя", "бросаю что-нибудь", store.FlagUnreadable)
	shots := os.Getenv("REVIEW_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	browser := chrome.Start(t, 3*time.Minute)
	// Each moderator in a browser context of their own (their own cookies).
	as := func(name, password string) *browserSession {
		t.Helper()
		page := browser.MustIncognito().MustPage("")
		page.MustSetViewport(1200, 900, 1, false)
		b := &browserSession{t: t, e: m.env, page: page, shots: shots}
		b.open("/")
		if got := page.MustInfo().URL; !strings.Contains(got, "/login?next=") {
			t.Fatalf("unauthenticated: at %s", got)
		}
		page.MustElement(`#login input[name=name]`).MustInput(name)
		page.MustElement(`#login input[name=password]`).MustInput(password)
		b.submit(`#login button[type=submit]`)
		return b
	}
	rows := func(b *browserSession) map[string]string {
		t.Helper()
		out := map[string]string{}
		for _, el := range b.page.MustElements("#games tbody tr") {
			out[*el.MustAttribute("id")] = el.MustText()
		}
		return out
	}
	has := func(p *rod.Page, sel string) bool {
		t.Helper()
		ok, _, err := p.Has(sel)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}

	mod := as(modName, modPass)
	// After the login: the list of games, both there with their kinds and one open flag each.
	list := rows(mod)
	if len(list) != 2 {
		t.Fatalf("the list shows %d games: %v", len(list), list)
	}
	for id, kind := range map[string]string{crusadeID: "Крестовый поход", footballID: "Футбол с кубиком"} {
		row := list["game-"+id]
		if !strings.Contains(row, id) || !strings.Contains(row, kind) || !strings.Contains(row, "1") || !strings.Contains(row, "идёт") {
			t.Errorf("row of %s: %q", id, row)
		}
	}
	mod.shot("games.png")

	// Into the Crusade game from the list: its queue, labelled, with its flag only.
	mod.submit(`#game-crusade-1 a`)
	if got := mod.page.MustInfo().URL; !strings.HasSuffix(got, "/g/crusade-1/") {
		t.Fatalf("crusade link led to %s", got)
	}
	if label := mod.text("#game-label"); !strings.Contains(label, "crusade-1") || !strings.Contains(label, "Крестовый поход") {
		t.Errorf("header label %q", label)
	}
	if title := mod.page.MustInfo().Title; !strings.Contains(title, "crusade-1") || !strings.Contains(title, "Крестовый поход") {
		t.Errorf("title %q", title)
	}
	if has(mod.page, "#flag-"+itoa(fbFlag)) {
		t.Fatal("the football flag is in the crusade queue")
	}
	mod.submit("#flag-" + itoa(crFlag) + " a.button")
	mod.page.MustElement(`#close-form input[name=reason]`).MustInput("решено в ЛС")
	mod.submit("#close")
	mod.flash("закрыт без сообщения")
	mod.page.MustElement("#empty")
	mod.shot("crusade-settled.png")

	// The football queue is as it was.
	mod.submit("#all-games")
	list = rows(mod)
	if row := list["game-crusade-1"]; !strings.Contains(row, "0") {
		t.Errorf("crusade row after the close: %q", row)
	}
	mod.submit(`#game-football-1 a`)
	if label := mod.text("#game-label"); !strings.Contains(label, "football-1") || !strings.Contains(label, "Футбол с кубиком") {
		t.Errorf("football header label %q", label)
	}
	if txt := mod.text("#flag-" + itoa(fbFlag)); !strings.Contains(txt, "Петя") || !strings.Contains(txt, "бросаю что-нибудь") {
		t.Errorf("football flag row %q", txt)
	}
	mod.shot("football-queue.png")
	if f := m.env.flag(fbFlag); f.State != store.FlagOpen {
		t.Errorf("the football flag is %s", f.State)
	}

	// Анна: the football game is not hers.
	anna := as(annaName, annaPass)
	list = rows(anna)
	if row := list["game-football-1"]; !strings.Contains(row, "вы не модератор этой игры") {
		t.Errorf("Анна's football row %q", row)
	}
	if has(anna.page, `#game-football-1 a`) {
		t.Error("Анна's list links to the football game")
	}
	anna.open("/g/football-1/")
	if txt := anna.text("#refused"); !strings.Contains(txt, "Вы не модератор этой игры") || !strings.Contains(txt, modName) {
		t.Errorf("refusal %q", txt)
	}
	if has(anna.page, "#flag-"+itoa(fbFlag)) || has(anna.page, "#pause") {
		t.Error("Анна sees the football queue")
	}
	anna.shot("refused.png")
	anna.open("/g/football-1/flag/" + itoa(fbFlag))
	if has(anna.page, "#close-form") || !has(anna.page, "#refused") {
		t.Error("Анна gets the football flag's forms")
	}
	// Her own game opens.
	anna.open("/g/crusade-1/")
	if !has(anna.page, "#pause") {
		t.Error("Анна cannot act on the crusade game")
	}
	t.Logf("screenshots in %s", shots)
}
