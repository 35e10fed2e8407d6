package smf

import (
	"context"
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"forumgm/daemon"
	"forumgm/forum"
	"forumgm/internal/fixture"
)

// The dialect satisfies forum.SentFolder (crash recovery of PMs).
var _ forum.SentFolder = (*Forum)(nil)

// sentQuery is what Sent asks for: the Sent Items folder, newest first, first page.
const sentQuery = "action=pm;f=sent;sort=date;desc;start=0"

// hasMarker finds m in text as a whole token, the way the daemon does.
func hasMarker(text, m string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], m)
		if j < 0 {
			return false
		}
		end := i + j + len(m)
		if end == len(text) || !strings.ContainsRune("-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", rune(text[end])) {
			return true
		}
		i += j + 1
	}
}

// The captured Sent Items page (35-pm-sent.gm-bot.html, SMF's default "all at once" display: the
// folder list and every message of the page in full) gives the bot's one PM in one request; a
// second call with the cursor costs one request and returns nothing; a call from scratch again
// costs the listing only. The result is pinned in testdata/golden/sent-captured.json.
func TestSentCaptured(t *testing.T) {
	srv := newFakeSMF(t)
	srv.loggedIn = true
	srv.pages[sentQuery] = "35-pm-sent.gm-bot.html"
	fm, _ := newForum(t, srv, nil)
	ctx := context.Background()

	sent, cur, err := fm.Sent(ctx, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if len(sent) != 1 || cur.PostID != "1" {
		t.Fatalf("%d sent, cursor %+v", len(sent), cur)
	}
	pm := sent[0]
	if pm.ID != "1" || pm.Author != "gm-bot" || pm.AuthorID != "2" || pm.Subject != "Партия 1: ваш 3-й ход" ||
		!strings.HasPrefix(pm.Text, "Джелу, ваш ход в теме Крестовый поход — партия 1.\nТекущая позиция:\n") || len(pm.Code) != 1 ||
		!pm.Time.Equal(time.Date(2026, 11, 30, 3, 48, 0, 0, time.UTC)) ||
		pm.Permalink != srv.srv.URL+"/index.php?action=pm;f=sent;pmsg=1#msg1" {
		t.Errorf("%+v", pm)
	}
	if got := srv.requests(); !equalStrings(got, []string{"GET " + sentQuery}) {
		t.Errorf("requests %q, want the folder page only", got)
	}
	golden := pm
	golden.Permalink = strings.Replace(golden.Permalink, srv.srv.URL, "http://127.0.0.1:8082", 1)
	fixture.Golden(t, "sent-captured.json", []forum.Post{golden}, *update)

	n := len(srv.requests())
	none, cur2, err := fm.Sent(ctx, cur)
	if err != nil || len(none) != 0 || cur2 != cur || len(srv.requests())-n != 1 {
		t.Errorf("after the cursor: %+v %+v %v, requests %q", none, cur2, err, srv.requests()[n:])
	}
	n = len(srv.requests())
	again, _, err := fm.Sent(ctx, forum.Cursor{})
	if err != nil || len(again) != 1 || again[0].Text != pm.Text || len(srv.requests())-n != 1 {
		t.Errorf("from scratch again: %d %v, requests %q", len(again), err, srv.requests()[n:])
	}
}

// sentPM is a message of a made-up Sent Items folder.
type sentPM struct {
	id            int
	subject, body string // body as sent (BBCode)
	clock         string // "03:50 AM", today
}

var (
	reSentRow   = regexp.MustCompile(`(?s)<tbody>.*?</tbody>`)
	reSentMsg   = regexp.MustCompile(`(?s)\t<div class="windowbg" id="msg1">.*?</div><!-- \.windowbg -->`)
	reSentInner = regexp.MustCompile(`(?s)(<div class="inner" id="msg_1">).*?(</div>\s*</div><!-- \.post -->)`)
	reSizeTag   = regexp.MustCompile(`\[size=1\]`)
	reColorTag  = regexp.MustCompile(`\[color=(#[0-9a-fA-F]{6})\]`)
)

const capturedPageIndex = `<div class="pagelinks"><span class="pages">Pages</span><span class="current_page">1</span> </div>`

// smfRender renders the BBCode the tests send as SMF 2.1.4 does (Subs.php parse_bbc: [size=1] is
// 0.7em, [color] a span, newlines <br>).
func smfRender(bb string) string {
	s := html.EscapeString(bb)
	s = reSizeTag.ReplaceAllString(s, `<span style="font-size: 0.7em;" class="bbc_size">`)
	s = reColorTag.ReplaceAllString(s, `<span style="color: $1;" class="bbc_color">`)
	s = strings.NewReplacer("[/size]", "</span>", "[/color]", "</span>", "\n", "<br>").Replace(s)
	return s
}

// sentFolderPage builds a Sent Items page from the captured one: the rows (newest first) in the
// captured row's markup, the messages shown in the captured message's markup (msg 1 is the
// captured message itself), and SMF's page index (Themes/default/index.template.php) for page cur
// of len(pages), pages[i] being page i+1's query.
func (f *fakeSMF) sentFolderPage(rows, shown []sentPM, cur int, pages []string) string {
	page := f.file("35-pm-sent.gm-bot.html")
	row := regexp.MustCompile(`(?s)\t*<tr class="windowbg">.*?</tr>`).FindString(page)
	msg := reSentMsg.FindString(page)
	if row == "" || msg == "" || !strings.Contains(page, capturedPageIndex) {
		f.t.Fatal("captured sent page: row, message or page index not found")
	}
	var rs, ms strings.Builder
	for _, p := range rows {
		rs.WriteString("\n" + sentCopy(row, p))
	}
	for _, p := range shown {
		ms.WriteString("\n" + sentCopy(msg, p))
	}
	page = reSentRow.ReplaceAllLiteralString(page, "<tbody>"+rs.String()+"\n\t\t</tbody>")
	page = reSentMsg.ReplaceAllLiteralString(page, ms.String())
	idx := `<div class="pagelinks"><span class="pages">Pages</span>`
	link := func(n int) string { return f.srv.URL + "/index.php?" + pages[n-1] }
	if cur > 1 {
		idx += `<a class="nav_page" href="` + link(cur-1) + `"><span class="main_icons previous_page"></span></a> `
	}
	for n := 1; n <= len(pages); n++ {
		if n == cur {
			idx += fmt.Sprintf(`<span class="current_page">%d</span> `, n)
		} else {
			idx += fmt.Sprintf(`<a class="nav_page" href="%s">%d</a> `, link(n), n)
		}
	}
	if cur < len(pages) {
		idx += `<a class="nav_page" href="` + link(cur+1) + `"><span class="main_icons next_page"></span></a> `
	}
	return strings.ReplaceAll(page, capturedPageIndex, idx+`</div>`)
}

// sentCopy turns the captured row or message block (PM 1) into PM p's.
func sentCopy(block string, p sentPM) string {
	if p.id == 1 {
		return block
	}
	id := fmt.Sprint(p.id)
	block = reSentInner.ReplaceAllString(block, "${1}\n\t\t\t\t\t\t"+strings.ReplaceAll(smfRender(p.body), "$", "$$")+"\n\t\t\t\t\t${2}")
	return strings.NewReplacer(
		`id="msg1"`, `id="msg`+id+`"`, `id="msg_1"`, `id="msg_`+id+`"`, `id="subject_1"`, `id="subject_`+id+`"`,
		`href="#msg1"`, `href="#msg`+id+`"`, "currentLabels[1]", "currentLabels["+id+"]",
		"pmsg=1;", "pmsg="+id+";", "pm_actions%5b1%5D", "pm_actions%5b"+id+"%5D",
		"deletelisting1", "deletelisting"+id, "deletedisplay1", "deletedisplay"+id, `value="1"`, `value="`+id+`"`,
		"Партия 1: ваш 3-й ход", html.EscapeString(p.subject), "at 03:48 AM", "at "+p.clock,
	).Replace(block)
}

// The bot's PMs 2–4 as sent: each ends with its marker line.
var sentPMs = []sentPM{
	{id: 1}, // the captured message
	{2, "Партия 1: ваш 4-й ход", daemon.Mark("Джелу, ваш ход.", "fgm-crusade1-7-a1b2c3"), "03:50 AM"},
	{3, "Партия 1: ждите", daemon.Mark("snovaya, ждите хода крестоносцев.", "fgm-crusade1-8-d4e5f6"), "03:52 AM"},
	{4, "Партия 1: ваш 5-й ход", daemon.Mark("Джелу, ваш ход.", "fgm-crusade1-9-0a1b2c"), "03:54 AM"},
}

// sentOneAtATime serves the Sent Items folder as SMF shows it to a member who chose "one at a
// time" (pm_prefs 1): two pages of two (newest first), each page showing only its current message
// (with the descending sort, the oldest of the page); the others are read with pmsg=N, which
// lists and shows that message alone.
func sentOneAtATime(srv *fakeSMF) {
	page2 := "action=pm;f=sent;sort=date;desc;start=2"
	pages := []string{sentQuery, page2}
	srv.bodies = map[string]string{
		sentQuery: srv.sentFolderPage([]sentPM{sentPMs[3], sentPMs[2]}, []sentPM{sentPMs[2]}, 1, pages),
		page2:     srv.sentFolderPage([]sentPM{sentPMs[1], sentPMs[0]}, []sentPM{sentPMs[0]}, 2, pages),
	}
	for _, p := range sentPMs {
		srv.bodies[fmt.Sprintf("action=pm;f=sent;pmsg=%d", p.id)] = srv.sentFolderPage([]sentPM{p}, []sentPM{p}, 1, []string{sentQuery})
	}
}

// Messages the folder page does not show are read one by one; every page needed is read and no
// more: a cursor on page 2 stops there, a cursor at the newest message costs one request. The
// messages come oldest first with their marker lines (found as the daemon looks for them), and
// each message is read once per Forum.
func TestSentOneAtATime(t *testing.T) {
	srv := newFakeSMF(t)
	srv.loggedIn = true
	sentOneAtATime(srv)
	fm, _ := newForum(t, srv, nil)
	ctx := context.Background()

	sent, cur, err := fm.Sent(ctx, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(ids(sent), ","); got != "1,2,3,4" || cur.PostID != "4" {
		t.Fatalf("sent %s, cursor %+v", got, cur)
	}
	want := []string{"GET " + sentQuery, "GET action=pm;f=sent;sort=date;desc;start=2", "GET action=pm;f=sent;pmsg=2", "GET action=pm;f=sent;pmsg=4"}
	if got := srv.requests(); !equalStrings(got, want) {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	markers := []string{"fgm-crusade1-7-a1b2c3", "fgm-crusade1-8-d4e5f6", "fgm-crusade1-9-0a1b2c"}
	for i, m := range markers {
		p := sent[i+1]
		if !hasMarker(p.Text, m) || p.Author != "gm-bot" || p.Subject != sentPMs[i+1].subject {
			t.Errorf("PM %s: %+v, want marker %s", p.ID, p, m)
		}
		for j, other := range markers {
			if j != i && hasMarker(p.Text, other) {
				t.Errorf("PM %s holds %s too", p.ID, other)
			}
		}
	}
	if !sent[3].Time.Equal(time.Date(2026, 11, 30, 3, 54, 0, 0, time.UTC)) || sent[3].Text != "Джелу, ваш ход.\nfgm-crusade1-9-0a1b2c" {
		t.Errorf("PM 4: %+v", sent[3])
	}
	goldenSent := make([]forum.Post, len(sent))
	for i, p := range sent {
		p.Permalink = strings.Replace(p.Permalink, srv.srv.URL, "http://127.0.0.1:8082", 1)
		goldenSent[i] = p
	}
	fixture.Golden(t, "sent-one-at-a-time.json", goldenSent, *update)

	for _, c := range []struct {
		after, ids string
		requests   []string
	}{
		{"4", "", []string{"GET " + sentQuery}},
		{"2", "3,4", []string{"GET " + sentQuery, "GET action=pm;f=sent;sort=date;desc;start=2"}},
		{"", "1,2,3,4", []string{"GET " + sentQuery, "GET action=pm;f=sent;sort=date;desc;start=2"}},
	} {
		n := len(srv.requests())
		got, next, err := fm.Sent(ctx, forum.Cursor{PostID: c.after})
		if err != nil {
			t.Fatal(err)
		}
		wantCur := c.after
		if c.ids != "" {
			wantCur = "4"
		}
		if strings.Join(ids(got), ",") != c.ids || next.PostID != wantCur {
			t.Errorf("after %q: %v, cursor %+v", c.after, ids(got), next)
		}
		if r := srv.requests()[n:]; !equalStrings(r, c.requests) {
			t.Errorf("after %q: requests %q, want %q", c.after, r, c.requests)
		}
	}
}

// A session the board dropped: the folder answers the guest's login page, the Forum logs in once
// and reads the folder again.
func TestSentLoggedOut(t *testing.T) {
	srv := newFakeSMF(t)
	srv.pages[sentQuery] = "35-pm-sent.gm-bot.html"
	fm, _ := newForum(t, srv, nil)
	ctx := context.Background()
	if err := fm.Login(ctx); err != nil {
		t.Fatal(err)
	}
	srv.mu.Lock()
	srv.dropped, srv.loggedIn = true, false
	srv.mu.Unlock()
	n := len(srv.requests())
	sent, _, err := fm.Sent(ctx, forum.Cursor{})
	if err != nil || len(sent) != 1 || sent[0].ID != "1" {
		t.Fatalf("%+v %v", sent, err)
	}
	logins, folders := 0, 0
	for _, r := range srv.requests()[n:] {
		if strings.HasPrefix(r, "POST ") && strings.Contains(r, "action=login2") {
			logins++
		}
		if r == "GET "+sentQuery {
			folders++
		}
	}
	if logins != 1 || folders != 2 {
		t.Errorf("%d logins and %d folder reads, want 1 and 2: %q", logins, folders, srv.requests()[n:])
	}
}

// A conversation view (pm_prefs 2) also shows the messages the bot answered: only the bot's own
// are returned.
func TestSentSkipsOthersMessages(t *testing.T) {
	srv := newFakeSMF(t)
	srv.loggedIn = true
	page := srv.file("35-pm-sent.gm-bot.html")
	other := reSentMsg.FindString(page)
	other = strings.NewReplacer(`id="msg1"`, `id="msg5"`, `id="msg_1"`, `id="msg_5"`,
		`action=profile;u=2" title="View the profile of gm-bot">gm-bot</a>`, `action=profile;u=3" title="View the profile of Джелу">Джелу</a>`).Replace(other)
	srv.bodies = map[string]string{sentQuery: strings.Replace(page, "</div><!-- .windowbg -->", "</div><!-- .windowbg -->\n"+other, 1)}
	fm, _ := newForum(t, srv, nil)
	sent, _, err := fm.Sent(context.Background(), forum.Cursor{})
	if err != nil || len(sent) != 1 || sent[0].ID != "1" {
		t.Fatalf("%+v %v", sent, err)
	}
	if _, ok := fm.sent.posts["5"]; ok {
		t.Error("Джелу's message kept as the bot's")
	}
}

func ids(ps []forum.Post) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}
