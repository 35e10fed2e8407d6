package smf

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// The pages of testdata/forums/smf20: SMF 2.0.15 (default Curve theme, Russian language pack)
// captured on loopback. "Сегодня" on them is 2026-12-01; SMF 2.0 shows seconds.
var capture20Now = time.Date(2026, 12, 1, 9, 48, 0, 0, time.UTC)

func test20Config() forum.Config {
	return forum.Config{Location: time.UTC, Now: func() time.Time { return capture20Now }}
}

// extract20Pages are every 2.0 page that shows posts or private messages.
var extract20Pages = []string{
	"10-thread-p1.guest.html",
	"10e-thread-p1.guest.english.html",
	"11-thread-p2.guest.html",
	"11e-thread-p2.guest.english.html",
	"12-thread-p1.gm-bot.html",
	"13-thread-p2.gm-bot.html",
	"14-thread-new.guest.html",
	"14b-thread-new.gm-bot.html",
	"15-post-permalink-msg11.guest.html",
	"15b-thread-msg-beyond-last.guest.html",
	"33-pm-inbox.dzhelu.html",
	"34-pm-read.dzhelu.html",
	"35b-pm-sent-outbox.gm-bot.html",
	"36-pm-inbox-after-read.dzhelu.html",
}

func TestGolden20(t *testing.T) {
	for _, name := range extract20Pages {
		t.Run(name, func(t *testing.T) {
			posts, err := extract(fixture.Read(t, "smf20", name), "text/html; charset=UTF-8", test20Config())
			if err != nil {
				t.Fatal(err)
			}
			if len(posts) == 0 {
				t.Fatal("no posts")
			}
			fixture.Golden(t, "smf20/"+strings.TrimSuffix(name, ".html")+".json", posts, *update)
		})
	}
}

// Every post of the 2.0 topic against the database: author and member id (also on a member's
// page, where the poster's heading starts with the online mark linking to a PM), the date to the
// second, the edit mark, the code block verbatim, quotes with author and message id.
func TestAgainstDatabase20(t *testing.T) {
	var raw rawDump
	fixture.Raw(t, "smf20", &raw)
	for _, pages := range [][2]string{
		{"10-thread-p1.guest.html", "11-thread-p2.guest.html"},
		{"12-thread-p1.gm-bot.html", "13-thread-p2.gm-bot.html"},
		{"10e-thread-p1.guest.english.html", "11e-thread-p2.guest.english.html"}, // the English language pack
	} {
		posts := map[string]forum.Post{}
		for _, name := range pages {
			ps, err := extract(fixture.Read(t, "smf20", name), "", test20Config())
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				posts[p.ID] = p
			}
		}
		if len(posts) != 14 {
			t.Fatalf("%v: %d posts in topic 2, want 14", pages, len(posts))
		}
		for _, r := range raw.Posts {
			if r.Topic != 2 {
				continue
			}
			id := itoa(r.ID)
			p, ok := posts[id]
			if !ok {
				t.Errorf("msg %d missing", r.ID)
				continue
			}
			if p.Author != r.Poster || p.AuthorID != itoa(r.Member) || len(p.Problems) != 0 {
				t.Errorf("%s msg %d author %q/%q (%q), want %q/%d", pages[0], r.ID, p.Author, p.AuthorID, p.Problems, r.Poster, r.Member)
			}
			want, _ := time.Parse(time.RFC3339, r.TimeUTC)
			if !p.Time.Equal(want) {
				t.Errorf("msg %d time %v, want %v", r.ID, p.Time, want)
			}
			if p.Edited != (r.Modified != 0) {
				t.Errorf("msg %d edited %v, database modified_time %d", r.ID, p.Edited, r.Modified)
			}
			if c := codeOf(r.BodyText); c != "" {
				if len(p.Code) != 1 || p.Code[0] != c || !strings.Contains(p.Text, c) {
					t.Errorf("msg %d code block not intact:\n got %q\nwant %q", r.ID, p.Code, c)
				}
			} else if len(p.Code) != 0 {
				t.Errorf("msg %d has code %q, database has none", r.ID, p.Code)
			}
			if strings.Contains(r.BodyText, "[quote") != (len(p.Quotes) > 0) {
				t.Errorf("msg %d quotes %v vs raw %q", r.ID, p.Quotes, r.BodyText)
			}
			if p.Subject != r.Subject || p.Permalink != "http://127.0.0.1:18100/index.php?topic=2.msg"+id+"#msg"+id {
				t.Errorf("msg %d subject %q permalink %q", r.ID, p.Subject, p.Permalink)
			}
		}
		for id, line := range map[string]string{
			"4":  "1-й ход сарацина н2 на G5",
			"6":  "1-й ход крестоносца в1 на C4",
			"8":  "gl hf. 2-й ход сарацина н1 на D6",
			"10": "2-й ход крестоносца в1 на Z9",
			"13": "2-й ход крестоносца в2 на H4",
			"14": "3-й ход сарацинa Н2 на F4", // Latin "a" in the word, Cyrillic "Н" in the piece
		} {
			if !hasLine(posts[id].Text, line) {
				t.Errorf("msg %s: no line %q in %q", id, line, posts[id].Text)
			}
		}
		// The edited post: the text after the edit, the edit mark out of the text.
		if p := posts["6"]; p.Text != "1-й ход крестоносца в1 на C4\nUPD: опечатка в клетке, не C5, а C4." || !p.Edited {
			t.Errorf("msg 6: %+v", p)
		}
		// A quote keeps its author and linked post; the quoted move is not the author's own text.
		p5 := posts["5"]
		if len(p5.Quotes) != 1 || p5.Quotes[0].Author != "snovaya" || p5.Quotes[0].PostID != "4" ||
			p5.Quotes[0].Text != "Играю за сарацин, поехали.\n\n1-й ход сарацина н2 на G5" || strings.Contains(p5.Text, "1-й ход сарацина") {
			t.Errorf("msg 5 quote: %+v / %q", p5.Quotes, p5.Text)
		}
		// Nested quote: the inner quote stays inside the outer quote's text.
		p12 := posts["12"]
		if len(p12.Quotes) != 1 || p12.Quotes[0].Author != "gm-bot" || p12.Quotes[0].PostID != "11" ||
			!strings.Contains(p12.Quotes[0].Text, "2-й ход крестоносца в1 на Z9") ||
			!strings.Contains(p12.Quotes[0].Text, "Ход отклонён: клетки Z9 нет на доске") ||
			p12.Text != "Ну вот, Z9 — это уже другая игра ;)" {
			t.Errorf("msg 12: %+v / %q", p12.Quotes, p12.Text)
		}
		// Signatures are not part of the post.
		for _, p := range posts {
			if strings.Contains(p.Text, "Deus vult") || strings.Contains(p.Text, "Бот, не человек") || strings.Contains(p.Text, "Moves in Latin") {
				t.Errorf("msg %s carries a signature: %q", p.ID, p.Text)
			}
		}
	}
}

func TestPMAgainstDatabase20(t *testing.T) {
	var raw rawDump
	fixture.Raw(t, "smf20", &raw)
	posts, err := extract(fixture.Read(t, "smf20", "34-pm-read.dzhelu.html"), "", test20Config())
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) != 1 || len(raw.PMs) != 2 {
		t.Fatalf("posts %d, raw %d", len(posts), len(raw.PMs))
	}
	p, r := posts[0], raw.PMs[0]
	want, _ := time.Parse(time.RFC3339, r.TimeUTC)
	if p.ID != itoa(r.ID) || p.Author != r.From || p.AuthorID != itoa(r.FromID) || p.Subject != r.Subject || !p.Time.Equal(want) {
		t.Errorf("PM %+v vs raw %+v", p, r)
	}
	if len(p.Code) != 1 || p.Code[0] != codeOf(r.BodyText) || !strings.HasPrefix(p.Text, "Джелу, твой ход в партии 1.\nПозиция:\n") {
		t.Errorf("PM text %q code %q", p.Text, p.Code)
	}
}

// Page info of 2.0 pages: page numbers from "[<strong>1</strong>]" and a.navPages, the previous
// page from the page links (2.0's rel=prev/next lead to the previous and next topic, not a page),
// the new-post anchor, and the session read without 2.1's script variables.
func TestPageInfo20(t *testing.T) {
	for _, c := range []struct {
		file                  string
		cur, last             int
		prev, next, new_      string
		member                int
		sessionVar, sessionID string
	}{
		{"10-thread-p1.guest.html", 1, 2, "", "http://127.0.0.1:18100/index.php?topic=2.8", "", 0, "dcf5d7fff7", ""},
		{"12-thread-p1.gm-bot.html", 1, 2, "", "http://127.0.0.1:18100/index.php?topic=2.8", "", 2, "b48aab0a87", "df4bc238f15967efb5c96e2dd9f25e34"},
		{"13-thread-p2.gm-bot.html", 2, 2, "http://127.0.0.1:18100/index.php?topic=2.0", "", "", 2, "b48aab0a87", "df4bc238f15967efb5c96e2dd9f25e34"},
		{"15-post-permalink-msg11.guest.html", 2, 2, "http://127.0.0.1:18100/index.php?topic=2.0", "", "11", 0, "", ""},
	} {
		p, doc, err := parseBytes(fixture.Read(t, "smf20", c.file), options{Now: capture20Now})
		if err != nil {
			t.Fatal(err)
		}
		if p.Kind != kindThread || p.TopicID != "2" || p.Current != c.cur || p.Last != c.last || p.PrevURL != c.prev ||
			p.NextURL != c.next || p.NewID != c.new_ || p.MemberID != c.member {
			t.Errorf("%s: %+v", c.file, p)
		}
		if c.sessionVar != "" && (p.SessionVar != c.sessionVar || (c.sessionID != "" && p.SessionID != c.sessionID)) {
			t.Errorf("%s: session %q=%q", c.file, p.SessionVar, p.SessionID)
		}
		if LoggedIn(doc) != (c.member > 0) {
			t.Errorf("%s: logged in %v", c.file, LoggedIn(doc))
		}
	}
	// A guest's session pair comes from the login form (hashLoginPassword and its hidden input).
	_, doc, _ := parseBytes(fixture.Read(t, "smf20", "01-login-form.guest.html"), options{Now: capture20Now})
	if id, v, s := session(doc); id != 0 || v == "" || len(s) != 32 || doc.Find("input[name='"+v+"'][value='"+s+"']").Length() == 0 {
		t.Errorf("login form session %d %q %q", id, v, s)
	}
	for _, c := range []struct {
		file   string
		unread bool
	}{{"33-pm-inbox.dzhelu.html", true}, {"36-pm-inbox-after-read.dzhelu.html", false}} {
		p, _, err := parseBytes(fixture.Read(t, "smf20", c.file), options{Now: capture20Now})
		if err != nil {
			t.Fatal(err)
		}
		if p.Kind != kindPM || len(p.PMList) != 1 || p.PMList[0].ID != "1" || p.PMList[0].Unread != c.unread || !p.PMList[0].Rendered ||
			p.PMList[0].From != "gm-bot" || p.PMList[0].FromID != "2" || p.PMList[0].Subject != "Крестовый поход: твой ход" ||
			!p.PMList[0].Time.Equal(time.Date(2026, 12, 1, 9, 46, 38, 0, time.UTC)) || p.MemberID != 3 {
			t.Errorf("%s: %+v member %d", c.file, p.PMList, p.MemberID)
		}
	}
	// The sent folder is empty (the PM was sent without "save a copy"): an empty list, no error.
	p, _, err := parseBytes(fixture.Read(t, "smf20", "35-pm-sent.gm-bot.html"), options{Now: capture20Now})
	if err != nil || p.Kind != kindPM || len(p.PMList) != 0 || len(p.Posts) != 0 {
		t.Errorf("sent: %+v %v", p, err)
	}
	// The sent folder with the copy of PM 2: the row names the recipient, the message its author.
	p, _, err = parseBytes(fixture.Read(t, "smf20", "35b-pm-sent-outbox.gm-bot.html"), options{Now: capture20Now})
	if err != nil || p.Kind != kindPM || len(p.PMList) != 1 || len(p.Posts) != 1 || p.MemberID != 2 ||
		p.PMList[0].ID != "2" || p.PMList[0].From != "snovaya" || !p.PMList[0].Rendered ||
		p.Posts[0].Author != "gm-bot" || p.Posts[0].AuthorID != "2" || p.Posts[0].Text != "snovaya, твой 4-й ход." ||
		!p.Posts[0].Time.Equal(time.Date(2026, 12, 1, 9, 53, 13, 0, time.UTC)) {
		t.Errorf("sent with copy: %+v %v", p, err)
	}
}

func check20(t *testing.T, name string) error {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(fixture.Read(t, "smf20", name)))
	if err != nil {
		t.Fatal(err)
	}
	return checkError(doc, 200) // SMF 2.0 sends its fatal errors with 200
}

// SMF 2.0's error pages: fatal errors without an error id (flood told by its words), the login
// form's p.error, the errors of a re-shown post form, the login form shown to a guest.
func TestCapturedErrors20(t *testing.T) {
	for _, c := range []struct {
		file string
		want error
		wait time.Duration
	}{
		{"03-login-error.guest.html", forum.ErrBadLogin, 0},
		{"03b-login-error-nouser.guest.html", forum.ErrBadLogin, 0},
		{"04-login-error-flood.guest.html", nil, 2 * time.Second},
		{"24-reply-error-empty.gm-bot.html", forum.ErrTooShort, 0},
		{"25-reply-error-badsession.gm-bot.html", forum.ErrBadToken, 0},
		{"26-reply-noperm.guest.html", forum.ErrLoggedOut, 0},
		{"28-reply-error-flood.gm-bot.html", nil, 5 * time.Second},
		{"32-pm-send-error-flood.gm-bot.html", nil, 5 * time.Second},
	} {
		err := check20(t, c.file)
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
	for _, name := range []string{"10-thread-p1.guest.html", "12-thread-p1.gm-bot.html", "20-reply-form.gm-bot.html",
		"29-newtopic-form.gm-bot.html", "30-pm-compose.gm-bot.html", "33-pm-inbox.dzhelu.html", "16-messageindex-board2.guest.html"} {
		if err := check20(t, name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// The 2.0 board index, topic list and print page are not topic pages: an error, never no posts.
func TestMarkupChanged20(t *testing.T) {
	for _, name := range []string{"16-messageindex-board2.guest.html", "18-boardindex.guest.html", "55-printpage.guest.html"} {
		if _, err := extract(fixture.Read(t, "smf20", name), "", test20Config()); !errors.Is(err, forum.ErrMarkupChanged) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// On a 2.0 page too, a part that cannot be read costs that part of each post (a problem it
// reports), not the page.
func TestFieldLost20(t *testing.T) {
	page := string(fixture.Read(t, "smf20", "11-thread-p2.guest.html"))
	for what, c := range map[string]struct{ from, to, problem string }{
		"poster renamed":  {`class="poster"`, `class="author"`, "author:"},
		"date unreadable": {`<strong>Сегодня</strong> в 09:4`, `someday`, "time:"},
	} {
		posts, err := extract([]byte(strings.ReplaceAll(page, c.from, c.to)), "", test20Config())
		if err != nil || len(posts) != 6 {
			t.Fatalf("%s: %d posts, %v", what, len(posts), err)
		}
		for _, p := range posts {
			if len(p.Problems) != 1 || !strings.HasPrefix(p.Problems[0].String(), c.problem) || p.Text == "" {
				t.Errorf("%s: post %s problems %q", what, p.ID, p.Problems)
			}
		}
	}
}
