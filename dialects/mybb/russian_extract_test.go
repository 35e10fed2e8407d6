package mybb

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// The Russian board (testdata/forums/mybb-russian): MyBB 1.8.37 with the Russian pack of
// kmitrakov/MyBB-Russian-Language-Pack as its default language, date format d.m.Y, time H:i,
// board time GMT+3 (Moscow).
const ruDir = "mybb-russian"

// ruZone is the board's time zone, ruNow a moment just after the thread captures (11:10 UTC).
var (
	ruZone = time.FixedZone("MSK", 3*3600)
	ruNow  = time.Date(2026, 12, 1, 14, 12, 0, 0, ruZone)
)

func ruOptions() options {
	return options{BaseURL: "http://127.0.0.1:18450/", Location: ruZone, Now: func() time.Time { return ruNow }}
}

func extractRu(t testing.TB, name string) *Page {
	t.Helper()
	doc, err := parse(fixture.Read(t, ruDir, name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := extract(doc, ruOptions())
	if err != nil {
		t.Fatalf("%s/%s: %v", ruDir, name, err)
	}
	return p
}

var ruThreadPages = []string{"10-thread-p1.guest.html", "11-thread-p2.guest.html", "12-thread-p1.gm-bot.html", "13-thread-p2.gm-bot.html"}

// The Russian captures' extraction is pinned in testdata/golden/russian (go test -update
// rewrites them; read every rewritten file against its page).
func TestRussianGolden(t *testing.T) {
	for _, f := range append(append([]string{}, ruThreadPages...), "15-post-permalink-pid10.guest.html") {
		t.Run(f, func(t *testing.T) {
			p := extractRu(t, f)
			got, err := json.MarshalIndent(golden{Kind: p.Kind.String(), ThreadID: p.ThreadID, Subject: p.Subject,
				Page: p.Page, LastPage: p.LastPage, LastPID: p.LastPID, LoggedIn: p.LoggedIn, Posts: p.Posts}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", "golden", "russian", strings.TrimSuffix(f, ".html")+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("extraction differs from %s (run go test -update after checking):\n%s", path, firstDiff(string(want), string(got)))
			}
		})
	}
}

// Every post of the Russian thread says what the database says: author and uid, the time
// whether shown as an absolute d.m.Y date, «Вчера» or «Сегодня», the edit mark (the pack's
// «Это сообщение было изменено»), own text without quotes, signatures and edit notices, quotes
// with their author (the pack's «Написал(а):») and post id, and the page facts (pages from the
// pack's pagination, member or guest).
func TestRussianCapturesMatchRaw(t *testing.T) {
	var raw struct {
		Posts []rawPost `json:"posts"`
	}
	fixture.Raw(t, ruDir, &raw)
	byID := map[string]rawPost{}
	for _, r := range raw.Posts {
		byID[jsonInt(r.PID)] = r
	}
	got := map[string]forum.Post{}
	for i, f := range ruThreadPages {
		p := extractRu(t, f)
		member := strings.Contains(f, "gm-bot")
		if p.ThreadID != "1" || p.ForumID != "2" || p.Page != i%2+1 || p.LastPage != 2 || p.LoggedIn != member {
			t.Errorf("%s: thread %q forum %q page %d/%d logged in %v", f, p.ThreadID, p.ForumID, p.Page, p.LastPage, p.LoggedIn)
		}
		if member && p.LastPID != "13" || !member && p.LastPID != "" {
			t.Errorf("%s: last pid %q", f, p.LastPID)
		}
		for _, post := range p.Posts {
			got[post.ID] = post
		}
	}
	if len(got) != 13 {
		t.Fatalf("%d posts read, want 13", len(got))
	}
	for id, p := range got {
		r, ok := byID[id]
		if !ok {
			t.Fatalf("post %s not in posts-raw.json", id)
		}
		if p.Author != r.Username || p.AuthorID != jsonInt(r.UID) || len(p.Problems) > 0 {
			t.Errorf("post %s: author %q/%q, want %q/%d; problems %q", id, p.Author, p.AuthorID, r.Username, r.UID, p.Problems)
		}
		if want := time.Unix(r.Dateline, 0).UTC().Truncate(time.Minute); !p.Time.Equal(want) {
			t.Errorf("post %s: time %v, want %v", id, p.Time, want)
		}
		if p.Edited != (r.EditTime != 0) {
			t.Errorf("post %s: edited %v, raw edittime %d", id, p.Edited, r.EditTime)
		}
		if g, w := strings.Join(lines(p.Text), "\n"), strings.Join(lines(themeOwnText(r.Message)), "\n"); g != w {
			t.Errorf("post %s text:\n got  %q\n want %q", id, g, w)
		}
		if p.Permalink != "http://127.0.0.1:18450/showthread.php?tid=1&pid="+id+"#pid"+id {
			t.Errorf("post %s: permalink %q", id, p.Permalink)
		}
		for _, sig := range []string{"GL HF", "Sig:", "Бот-ведущий", "было изменено", "Причина", "пользователем"} {
			if strings.Contains(p.Text, sig) {
				t.Errorf("post %s: %q in the text", id, sig)
			}
		}
		quotes := reQuoteOpen.FindAllString(reCodeAny.ReplaceAllString(stripQuotesOuter(r.Message), ""), -1)
		if len(p.Quotes) != len(quotes) {
			t.Errorf("post %s: %d quotes, want %d", id, len(p.Quotes), len(quotes))
		}
		for _, q := range p.Quotes {
			qr, ok := byID[q.PostID]
			if !ok || q.Author != qr.Username || q.Text == "" {
				t.Errorf("post %s: quote %+v", id, q)
			}
		}
	}
	// How each post's date is shown (board time GMT+3), each read to the minute above.
	for id, shown := range map[string]string{"1": "27.11.2026, 21:15", "6": "Вчера, 20:05", "9": "Сегодня, 00:45", "13": "2 часов назад"} {
		if !strings.Contains(ruPostDate(t, id), shown) {
			t.Errorf("post %s: the page shows %q, want %q", id, ruPostDate(t, id), shown)
		}
	}
	p6 := got["6"]
	if len(p6.Quotes) != 1 || p6.Quotes[0].Author != "gm-bot" || !strings.Contains(p6.Quotes[0].Text, "1-й ход сарацина н2 на G5") {
		t.Errorf("post 6: quotes %+v", p6.Quotes)
	}
	p8 := got["8"]
	if len(p8.Quotes) != 0 || len(p8.Code) != 1 || !strings.Contains(p8.Code[0], `[quote="not a quote"]`) {
		t.Errorf("post 8: code %q quotes %+v", p8.Code, p8.Quotes)
	}

	perm := extractRu(t, "15-post-permalink-pid10.guest.html")
	found := false
	for _, post := range perm.Posts {
		found = found || post.ID == "10"
	}
	if !found || perm.Page != 2 {
		t.Errorf("permalink: page %d does not hold post 10", perm.Page)
	}

	doc, err := parse(fixture.Read(t, ruDir, "16-forumdisplay-fid2.guest.html"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := extractSection(doc, ruOptions())
	if err != nil {
		t.Fatal(err)
	}
	if s.ForumID != "2" || len(s.Threads) != 1 || s.Threads[0].ID != "1" || s.Threads[0].Replies != 12 ||
		s.Threads[0].LastPoster != "gm-bot" || !s.Threads[0].LastAt.Equal(time.Date(2026, 12, 1, 12, 10, 0, 0, ruZone)) {
		t.Errorf("forumdisplay: %+v", s)
	}
}

// Every result page the Russian board answered a form with is typed as its English original:
// the redirects' targets and the pack's refusals (inline boxes and the error template).
func TestRussianResultPages(t *testing.T) {
	base, _ := url.Parse("http://127.0.0.1:18450/")
	for _, c := range []struct {
		file     string
		target   string // success: the redirect
		want     error
		wait     time.Duration
		loggedIn bool // the header's (a redirect page has none)
	}{
		{file: "02-login-success.gm-bot.html", target: "http://127.0.0.1:18450/index.php", loggedIn: true},
		{file: "03-login-error.guest.html", want: forum.ErrBadLogin},
		{file: "19-nopermission-modcp.gm-bot.html", want: forum.ErrNoPermission, loggedIn: true},
		{file: "22-reply-success.gm-bot.html", target: "http://127.0.0.1:18450/showthread.php?tid=1&pid=14#pid14", loggedIn: true},
		{file: "23-reply-error-duplicate.gm-bot.html", want: ErrAlreadyPosted, loggedIn: true},
		{file: "24-reply-error-empty.gm-bot.html", want: forum.ErrTooShort, loggedIn: true},
		{file: "25-reply-error-tooshort.gm-bot.html", want: forum.ErrTooShort, loggedIn: true},
		{file: "26-newreply-noperm.guest.html", want: forum.ErrLoggedOut},
		{file: "27-reply-error-badkey.gm-bot.html", want: forum.ErrBadToken, loggedIn: true},
		{file: "28-reply-automerged.gm-bot.html", target: "http://127.0.0.1:18450/showthread.php?tid=1&pid=14#pid14", loggedIn: true},
		{file: "46-reply-error-flood.gm-bot.html", wait: 22 * time.Second, loggedIn: true},
		{file: "47-reply-after-flood.gm-bot.html", target: "http://127.0.0.1:18450/showthread.php?tid=1&pid=18#pid18", loggedIn: true},
		{file: "31-pm-send-success.gm-bot.html", target: "http://127.0.0.1:18450/private.php", loggedIn: true},
		{file: "32-pm-send-error-duplicate.gm-bot.html", want: ErrAlreadyPosted, loggedIn: true},
		{file: "37-pm-send-error-flood.gm-bot.html", wait: 59 * time.Second, loggedIn: true},
	} {
		t.Run(c.file, func(t *testing.T) {
			doc, err := parse(fixture.Read(t, ruDir, c.file))
			if err != nil {
				t.Fatal(err)
			}
			if c.target == "" && LoggedIn(doc) != c.loggedIn { // a redirect page has no header
				t.Errorf("logged in %v, want %v", LoggedIn(doc), c.loggedIn)
			}
			target, err := result(doc, base)
			var fe *forum.FloodError
			switch {
			case c.target != "":
				if err != nil || target != c.target {
					t.Errorf("Result = %q, %v; want %q", target, err, c.target)
				}
			case c.wait != 0:
				if !errors.As(err, &fe) || fe.Wait != c.wait {
					t.Errorf("Result = %q, %v; want a flood refusal of %v", target, err, c.wait)
				}
			case !errors.Is(err, c.want):
				t.Errorf("Result = %q, %v; want %v", target, err, c.want)
			}
		})
	}
}

// The unread-PM signs of the Russian board: the new-PM notice and the header's counter
// "Личные сообщения (Непрочитанных 1, Всего 1)"; after reading, "(Непрочитанных 0, Всего 1)".
func TestRussianUnreadPM(t *testing.T) {
	for f, want := range map[string]bool{
		"17-index-with-pm-notice.dzhelu.html": true, "33-pm-inbox.dzhelu.html": true,
		"36-pm-inbox-after-read.dzhelu.html": false, "12-thread-p1.gm-bot.html": false,
	} {
		doc, err := parse(fixture.Read(t, ruDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if got := UnreadPM(doc); got != want {
			t.Errorf("%s: unread PM %v, want %v", f, got, want)
		}
	}
}

// ruPostDate is the text of post id's date line on the guest's thread pages.
func ruPostDate(t *testing.T, id string) string {
	t.Helper()
	for _, f := range ruThreadPages[:2] {
		doc, err := parse(fixture.Read(t, ruDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if s := doc.Find("#post_" + id + " .post_date"); s.Length() > 0 {
			return strings.Join(strings.Fields(s.Text()), " ")
		}
	}
	return ""
}
