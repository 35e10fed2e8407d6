package mybb

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenPages are the captured pages whose extraction is pinned in testdata/golden.
var goldenPages = []struct {
	file string
	kind Kind
}{
	{"10-thread-p1.guest.html", kindThread},
	{"11-thread-p2.guest.html", kindThread},
	{"12-thread-p1.gm-bot.html", kindThread},
	{"13-thread-p2.gm-bot.html", kindThread},
	{"15-post-permalink-pid12.guest.html", kindThread},
	{"33-pm-inbox.dzhelu.html", kindPMList},
	{"34-pm-read.dzhelu.html", kindPM},
	{"35-pm-sent-folder.gm-bot.html", kindPMList},
	{"36-pm-inbox-after-read.dzhelu.html", kindPMList},
}

// golden is what a golden file pins (the page's facts, without its session token).
type golden struct {
	Kind     string       `json:"kind"`
	ThreadID string       `json:"thread_id,omitempty"`
	Subject  string       `json:"subject,omitempty"`
	Page     int          `json:"page"`
	LastPage int          `json:"last_page"`
	LastPID  string       `json:"last_pid,omitempty"`
	LoggedIn bool         `json:"logged_in"`
	Posts    []forum.Post `json:"posts"`
}

func extractFile(t testing.TB, name string) *Page {
	t.Helper()
	doc, err := parse(fixture.Read(t, "mybb", name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := extract(doc, testOptions())
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

func TestGolden(t *testing.T) {
	for _, g := range goldenPages {
		t.Run(g.file, func(t *testing.T) {
			p := extractFile(t, g.file)
			if p.Kind != g.kind {
				t.Fatalf("kind %v, want %v", p.Kind, g.kind)
			}
			got, err := json.MarshalIndent(golden{Kind: p.Kind.String(), ThreadID: p.ThreadID, Subject: p.Subject,
				Page: p.Page, LastPage: p.LastPage, LastPID: p.LastPID, LoggedIn: p.LoggedIn, Posts: p.Posts}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", "golden", strings.TrimSuffix(g.file, ".html")+".json")
			if *update {
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

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + strconv.Itoa(i+1) + ":\n want " + x + "\n got  " + y
		}
	}
	return ""
}

func jsonInt(i int) string { return strconv.Itoa(i) }

// rawPost is a post of posts-raw.json (the MyCode as stored in the database).
type rawPost struct {
	PID      int    `json:"pid"`
	Username string `json:"username"`
	UID      int    `json:"uid"`
	Message  string `json:"message"`
	Dateline int64  `json:"dateline"`
	EditTime int64  `json:"edittime"`
	PMID     int    `json:"pmid"`
	FromID   int    `json:"fromid"`
	Subject  string `json:"subject"`
}

func loadRaw(t *testing.T) (posts map[string]rawPost, pms map[string]rawPost) {
	t.Helper()
	var raw struct {
		Posts []rawPost `json:"posts"`
		PMs   []rawPost `json:"private_messages"`
	}
	fixture.Raw(t, "mybb", &raw)
	posts, pms = map[string]rawPost{}, map[string]rawPost{}
	for _, p := range raw.Posts {
		posts[jsonInt(p.PID)] = p
	}
	for _, p := range raw.PMs {
		pms[jsonInt(p.PMID)] = p
	}
	return posts, pms
}

var (
	reQuoteOpen  = regexp.MustCompile(`(?i)\[quote(=[^\]]*|\s[^\]]*)?\]`)
	reQuoteClose = regexp.MustCompile(`(?i)\[/quote\]`)
	reSpoiler    = regexp.MustCompile(`(?is)\[spoiler(=[^\]]*)?\].*?\[/spoiler\]`)
	reTags       = regexp.MustCompile(`(?i)\[/?(b|i|u|s|code|hr|url(=[^\]]*)?|color(=[^\]]*)?|size(=[^\]]*)?|font(=[^\]]*)?)\]`)
	reCodeBlock  = regexp.MustCompile(`(?is)\[code\]\n?(.*?)\n?\[/code\]`)
)

// stripQuotes removes [quote]…[/quote] blocks, nested ones included.
func stripQuotes(s string) string {
	for {
		opens := reQuoteOpen.FindAllStringIndex(s, -1)
		closes := reQuoteClose.FindAllStringIndex(s, -1)
		if len(opens) == 0 || len(closes) == 0 {
			return s
		}
		// innermost: the last open before the first close
		c := closes[0]
		o := -1
		for _, op := range opens {
			if op[0] < c[0] {
				o = op[0]
			}
		}
		if o < 0 {
			return s
		}
		s = s[:o] + "\n" + s[c[1]:]
	}
}

// ownText is the raw MyCode reduced to what the author's own text should say: quotes and
// spoilers out, tags off.
func ownText(raw string) string {
	return reTags.ReplaceAllString(reSpoiler.ReplaceAllString(stripQuotes(raw), "\n"), "")
}

// lines are the non-empty lines of s, trimmed (HTML cannot keep leading spaces outside code,
// and MyBB trims a code block's leading white space).
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func postsByID(t *testing.T, files ...string) map[string]forum.Post {
	t.Helper()
	out := map[string]forum.Post{}
	for _, f := range files {
		for _, p := range extractFile(t, f).Posts {
			out[p.ID] = p
		}
	}
	return out
}

// Every post's own text says what its raw MyCode says (markup, quotes and spoilers aside);
// authors, ids and times match the database.
func TestTextMatchesRawMyCode(t *testing.T) {
	raw, _ := loadRaw(t)
	got := postsByID(t, "10-thread-p1.guest.html", "11-thread-p2.guest.html")
	if len(got) != 16 {
		t.Fatalf("%d posts, want 16", len(got))
	}
	for id, p := range got {
		r, ok := raw[id]
		if !ok {
			t.Fatalf("post %s not in posts-raw.json", id)
		}
		if p.Author != r.Username || p.AuthorID != jsonInt(r.UID) {
			t.Errorf("post %s: author %q/%s, want %q/%d", id, p.Author, p.AuthorID, r.Username, r.UID)
		}
		want := time.Unix(r.Dateline, 0).UTC().Truncate(time.Minute)
		if !p.Time.Equal(want) {
			t.Errorf("post %s: time %v, want %v", id, p.Time, want)
		}
		if p.Edited != (r.EditTime != 0) {
			t.Errorf("post %s: edited %v, raw edittime %d", id, p.Edited, r.EditTime)
		}
		if g, w := strings.Join(lines(p.Text), "\n"), strings.Join(lines(ownText(r.Message)), "\n"); g != w {
			t.Errorf("post %s text:\n got  %q\n want %q", id, g, w)
		}
		if p.Permalink != "http://127.0.0.1:8081/showthread.php?tid=1&pid="+id+"#pid"+id {
			t.Errorf("post %s: permalink %q", id, p.Permalink)
		}
	}
}

// Code blocks keep every row exactly; only the block's leading white space is lost (MyBB trims
// it when rendering).
func TestCodeKeepsRows(t *testing.T) {
	raw, pms := loadRaw(t)
	got := postsByID(t, "10-thread-p1.guest.html", "11-thread-p2.guest.html")
	n := 0
	for id, p := range got {
		blocks := reCodeBlock.FindAllStringSubmatch(stripQuotes(raw[id].Message), -1)
		if len(blocks) != len(p.Code) {
			t.Fatalf("post %s: %d code blocks, want %d", id, len(p.Code), len(blocks))
		}
		for i, b := range blocks {
			want := strings.TrimLeft(b[1], " \t\n")
			if p.Code[i] != want {
				t.Errorf("post %s code %d:\n got  %q\n want %q", id, i, p.Code[i], want)
			}
			if !strings.Contains(p.Text, p.Code[i]) {
				t.Errorf("post %s: code block not verbatim in the text", id)
			}
			if rows := strings.Count(p.Code[i], "\n") + 1; rows != 11 {
				t.Errorf("post %s: %d rows, want 11 (header + 10)", id, rows)
			}
			n++
		}
	}
	if n != 6 {
		t.Errorf("%d code blocks in the thread, want 6", n)
	}
	pm := extractFile(t, "34-pm-read.dzhelu.html").Posts[0]
	b := reCodeBlock.FindStringSubmatch(pms["1"].Message)
	if len(pm.Code) != 1 || pm.Code[0] != strings.TrimLeft(b[1], " \t\n") {
		t.Errorf("PM code %q", pm.Code)
	}
	if !strings.Contains(pm.Code[0], "\n 9|__|") {
		t.Errorf("a row's leading space was lost: %q", pm.Code[0])
	}
}

func TestSpecificPosts(t *testing.T) {
	got := postsByID(t, "10-thread-p1.guest.html", "11-thread-p2.guest.html")
	hasLine := func(s, line string) bool {
		for _, l := range strings.Split(s, "\n") {
			if l == line {
				return true
			}
		}
		return false
	}
	// pid 3: the move line is a line of its own.
	if p := got["3"]; !hasLine(p.Text, "1-й ход сарацина н2 на G5") || len(p.Quotes) != 0 {
		t.Errorf("pid 3: %q", p.Text)
	}
	// pid 4 quotes pid 3: the quoted move is not the bot's own text.
	if p := got["4"]; len(p.Quotes) != 1 || p.Quotes[0].Author != "snovaya" || p.Quotes[0].PostID != "3" ||
		!hasLine(p.Quotes[0].Text, "1-й ход сарацина н2 на G5") || strings.Contains(p.Text, "1-й ход сарацина") {
		t.Errorf("pid 4: text %q quotes %+v", p.Text, p.Quotes)
	}
	// pid 5: titled spoiler, <> and «» as text, link text kept.
	if p := got["5"]; len(p.Spoilers) != 1 || p.Spoilers[0].Title != "Правила партии (коротко)" ||
		!strings.Contains(p.Spoilers[0].Text, "«N-й ход <сторона> <фигура> на <клетка>»") ||
		strings.Contains(p.Text, "Доска 20×10") || !strings.Contains(p.Text, "раздел игр") {
		t.Errorf("pid 5: %q %+v", p.Text, p.Spoilers)
	}
	// pid 6: edited; the text is the edited one, the edit notice is not in it.
	if p := got["6"]; !p.Edited || !hasLine(p.Text, "1-й ход крестоносца в1 на C4") ||
		strings.Contains(p.Text, "last modified") || strings.Contains(p.Text, "Edit Reason") {
		t.Errorf("pid 6: edited=%v %q", p.Edited, p.Text)
	}
	// pid 8: Latin and Cyrillic on one line.
	if p := got["8"]; p.Text != "gl hf. 2-й ход сарацина н1 на D6" {
		t.Errorf("pid 8: %q", p.Text)
	}
	// pid 12: nested quote stays inside the outer quote; own text alone.
	p := got["12"]
	if len(p.Quotes) != 1 {
		t.Fatalf("pid 12: %d quotes", len(p.Quotes))
	}
	q := p.Quotes[0]
	if q.Author != "gm-bot" || q.PostID != "11" || !hasLine(q.Text, "2-й ход крестоносца в1 на Z9") ||
		!strings.Contains(q.Text, "Ход отклонён:") {
		t.Errorf("pid 12 quote: %+v", q)
	}
	if p.Text != "Джелу, проверяй координаты перед отправкой ;)" {
		t.Errorf("pid 12 text: %q", p.Text)
	}
	// pid 15: untitled spoiler kept apart.
	if p := got["15"]; p.Text != "3-й ход сарацина н2 на F4" || len(p.Spoilers) != 1 ||
		p.Spoilers[0].Text != "план: дальше давить на в2" {
		t.Errorf("pid 15: %q %+v", p.Text, p.Spoilers)
	}
	// pid 16: auto-merged (shown as edited), both texts, separated by an empty line.
	if p := got["16"]; !p.Edited || len(p.Code) != 1 ||
		!strings.Contains(p.Text, "Ход крестоносцев (3-й ход).\n\nПовторная публикация позиции (проверка флуд-контроля).") {
		t.Errorf("pid 16: edited=%v %q", p.Edited, p.Text)
	}
}

func TestPageInfo(t *testing.T) {
	cases := []struct {
		file            string
		page, last      int
		lastPID, tid    string
		loggedIn        bool
		first, lastPost string
	}{
		{"10-thread-p1.guest.html", 1, 2, "", "1", false, "1", "8"},
		{"11-thread-p2.guest.html", 2, 2, "", "1", false, "9", "16"},
		{"12-thread-p1.gm-bot.html", 1, 2, "16", "1", true, "1", "8"},
		{"13-thread-p2.gm-bot.html", 2, 2, "16", "1", true, "9", "16"},
		{"15-post-permalink-pid12.guest.html", 2, 2, "", "1", false, "9", "16"},
	}
	for _, c := range cases {
		p := extractFile(t, c.file)
		if p.Page != c.page || p.LastPage != c.last || p.LastPID != c.lastPID || p.ThreadID != c.tid ||
			p.LoggedIn != c.loggedIn || p.Posts[0].ID != c.first || p.Posts[len(p.Posts)-1].ID != c.lastPost {
			t.Errorf("%s: page %d/%d lastpid %q tid %q in %v posts %s..%s", c.file, p.Page, p.LastPage, p.LastPID,
				p.ThreadID, p.LoggedIn, p.Posts[0].ID, p.Posts[len(p.Posts)-1].ID)
		}
	}
	if k := extractFile(t, "12-thread-p1.gm-bot.html").MyPostKey; k != "f8405dfcf6435de0e756d5130990f6b8" {
		t.Errorf("my_post_key %q", k)
	}
}

func TestPMPages(t *testing.T) {
	_, pms := loadRaw(t)
	pm := extractFile(t, "34-pm-read.dzhelu.html").Posts[0]
	r := pms["1"]
	if pm.ID != "1" || pm.Author != "gm-bot" || pm.AuthorID != "5" || pm.Subject != r.Subject ||
		!pm.Time.Equal(time.Unix(r.Dateline, 0).UTC().Truncate(time.Minute)) ||
		pm.Permalink != "http://127.0.0.1:8081/private.php?action=read&pmid=1" {
		t.Errorf("PM: %+v", pm)
	}
	if g, w := strings.Join(lines(pm.Text), "\n"), strings.Join(lines(ownText(r.Message)), "\n"); g != w {
		t.Errorf("PM text:\n got  %q\n want %q", g, w)
	}
	for _, f := range []string{"33-pm-inbox.dzhelu.html", "36-pm-inbox-after-read.dzhelu.html"} {
		l := extractFile(t, f)
		if len(l.Posts) != 1 || l.Posts[0].ID != "1" || l.Posts[0].Author != "gm-bot" || l.Posts[0].Subject != r.Subject {
			t.Errorf("%s: %+v", f, l.Posts)
		}
	}
	if s := extractFile(t, "35-pm-sent-folder.gm-bot.html").Posts; len(s) != 1 || s[0].ID != "2" || s[0].Author != "Джелу" {
		t.Errorf("sent folder: %+v", s)
	}
}

// Every captured error page is its typed error.
func TestErrorPages(t *testing.T) {
	cases := []struct {
		file string
		want error
		wait time.Duration
	}{
		{"03-login-error.guest.html", forum.ErrBadLogin, 0},
		{"24-reply-error-empty.gm-bot.html", forum.ErrTooShort, 0},
		{"25-reply-error-tooshort.gm-bot.html", forum.ErrTooShort, 0},
		{"26-newreply-noperm.guest.html", forum.ErrLoggedOut, 0},
		{"27-reply-error-badkey.gm-bot.html", forum.ErrBadToken, 0},
		{"28-reply-error-flood.snovaya.html", nil, 60 * time.Second},
		{"32-pm-send-error-flood.gm-bot.html", nil, 61 * time.Second},
		{"section/07-reply-error-flood-tid2.gm-bot.member.html", nil, 6 * time.Second},
		// The same reply twice within ten minutes: it is on the board; look for it.
		{"section/35-reply-error-duplicate.gm-bot.moderator.html", ErrAlreadyPosted, 0},
		{"section/35-reply-error-duplicate.gm-bot.moderator.html", forum.ErrAmbiguous, 0},
	}
	for _, c := range cases {
		doc, err := parse(fixture.Read(t, "mybb", c.file))
		if err != nil {
			t.Fatal(err)
		}
		_, err = result(doc, nil)
		if err == nil {
			t.Errorf("%s: no error", c.file)
		}
		if c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.file, err, c.want)
		}
		if c.wait > 0 {
			var fe *forum.FloodError
			if !errors.As(err, &fe) || fe.Wait != c.wait {
				t.Errorf("%s: %v, want flood %v", c.file, err, c.wait)
			}
		}
	}
	// A member without permission is ErrNoPermission, a guest ErrLoggedOut.
	if err := classifyMessage("You are either not logged in or do not have permission to view this page.", true); !errors.Is(err, forum.ErrNoPermission) {
		t.Errorf("member no-permission: %v", err)
	}
	// Too long, with the board's limit.
	err := classifyMessage("The message is too long. Please enter a message shorter than 65535 characters (currently 70001).", true)
	var tl *tooLongError
	if !errors.Is(err, forum.ErrTooLong) || !errors.As(err, &tl) || tl.Limit != 65535 {
		t.Errorf("too long: %v", err)
	}
	if err := classifyMessage("You have failed to login within the required number of attempts. You must now wait 0h 14m 59s before you can login again.", false); !errors.Is(err, forum.ErrBadLogin) || !strings.Contains(err.Error(), "locked out") {
		t.Errorf("lockout: %v", err)
	}
}

// Success pages are redirect pages whose refresh URL names the post.
func TestSuccessPages(t *testing.T) {
	cases := map[string]string{
		"02-login-success.gm-bot.html":    "http://127.0.0.1:8081/showthread.php?tid=1",
		"22-reply-success.gm-bot.html":    "http://127.0.0.1:8081/showthread.php?tid=1&pid=16#pid16",
		"23-reply-automerged.gm-bot.html": "http://127.0.0.1:8081/showthread.php?tid=1&pid=16#pid16",
		"31-pm-send-success.gm-bot.html":  "http://127.0.0.1:8081/private.php",
	}
	base := testOptions().BaseURL
	for file, want := range cases {
		doc, _ := parse(fixture.Read(t, "mybb", file))
		u := baseURL(doc, options{BaseURL: base})
		got, err := result(doc, u)
		if err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", file, got, err, want)
		}
	}
	if pid := pidFromURL(cases["22-reply-success.gm-bot.html"]); pid != "16" {
		t.Errorf("pid %q", pid)
	}
	for _, file := range []string{"20-newreply-form.gm-bot.html", "10-thread-p1.guest.html"} {
		doc, _ := parse(fixture.Read(t, "mybb", file))
		if _, err := result(doc, nil); !errors.Is(err, forum.ErrMarkupChanged) {
			t.Errorf("%s as a result page: %v", file, err)
		}
	}
}

// A part of a post that cannot be read costs that part of each post (a problem it reports), not
// the page.
func TestFieldCostsField(t *testing.T) {
	page := string(fixture.Read(t, "mybb", "11-thread-p2.guest.html"))
	for name, c := range map[string]struct{ broken, problem string }{
		"no body":   {strings.ReplaceAll(page, `class="post_body`, `class="message`), "body:"},
		"no author": {strings.ReplaceAll(strings.ReplaceAll(page, `class="author_information"`, `class="who"`), `class="post_author`, `class="who2`), "author:"},
		"no date":   {strings.ReplaceAll(page, `class="post_date"`, `class="when"`), "time:"},
	} {
		doc, _ := parse([]byte(c.broken))
		p, err := extractThread(doc, testOptions())
		if err != nil || len(p.Posts) == 0 {
			t.Fatalf("%s: %v", name, err)
		}
		for _, post := range p.Posts {
			if post.ID == "" || len(post.Problems) != 1 || !strings.HasPrefix(post.Problems[0].String(), c.problem) {
				t.Errorf("%s: post %s problems %q", name, post.ID, post.Problems)
			}
		}
	}
}

// Themes: the largetext name renamed (the profile link is still read), profile links in the
// User-Name.html form (the uid comes from the post's other buttons), edit marks in a div.
func TestThemeFallbacks(t *testing.T) {
	page := string(fixture.Read(t, "mybb", "11-thread-p2.guest.html"))
	want := map[string]forum.Post{}
	doc, _ := parse([]byte(page))
	orig, err := extractThread(doc, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range orig.Posts {
		want[p.ID] = p
	}
	seo := regexp.MustCompile(`<span class="largetext"><a href="[^"]*member\.php\?action=profile&amp;uid=\d+">([^<]+)</a>`)
	for name, broken := range map[string]string{
		"largetext renamed": strings.ReplaceAll(page, `class="largetext"`, `class="name"`),
		"User-Name.html":    seo.ReplaceAllString(page, `<span class="largetext"><a href="http://127.0.0.1:8081/User-$1.html">$1</a>`),
	} {
		doc, _ := parse([]byte(broken))
		p, err := extractThread(doc, testOptions())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, post := range p.Posts {
			w := want[post.ID]
			if post.Author != w.Author || post.AuthorID != w.AuthorID || post.AuthorID == "" || len(post.Problems) > 0 {
				t.Errorf("%s: post %s author %q (%s), want %q (%s); problems %q", name, post.ID, post.Author, post.AuthorID, w.Author, w.AuthorID, post.Problems)
			}
		}
	}
	// div.post_edit holding the notice as plain text (themes that drop span.edited_post).
	edited := regexp.MustCompile(`<span class="post_edit" id="edited_by_(\d+)"></span>`).ReplaceAllString(page,
		`<div class="post_edit" id="edited_by_$1">(This post was last modified: 11-30-2026, 03:20 AM by gm-bot.)</div>`)
	doc, _ = parse([]byte(edited))
	p, err := extractThread(doc, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, post := range p.Posts {
		if !post.Edited {
			t.Errorf("div.post_edit: post %s not edited", post.ID)
		}
	}
	for _, post := range orig.Posts {
		if post.Edited != (post.ID == "16") { // the page's one edited post
			t.Errorf("post %s edited %v on the page", post.ID, post.Edited)
		}
	}
}

// A page whose markup does not match is an error, never an empty list.
func TestMarkupChanged(t *testing.T) {
	page := string(fixture.Read(t, "mybb", "11-thread-p2.guest.html"))
	for name, broken := range map[string]string{
		"no post container": strings.ReplaceAll(page, `id="post_`, `id="entry_`),
		"no author, no body": strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(page, `class="post_body`, `class="message`),
			`class="author_information"`, `class="who"`), `class="post_author`, `class="who2`),
	} {
		doc, _ := parse([]byte(broken))
		p, err := extractThread(doc, testOptions())
		if !errors.Is(err, forum.ErrMarkupChanged) {
			t.Errorf("%s: %v, %v", name, p, err)
		}
	}
	for _, f := range []string{"16-forumdisplay-fid3.guest.html", "53-archive-thread-1.html", "55-printthread.guest.html"} {
		x := Dialect().Extract
		posts, err := x(fixture.Read(t, "mybb", f), "text/html; charset=UTF-8", forum.Config{})
		if !errors.Is(err, forum.ErrMarkupChanged) || posts != nil {
			t.Errorf("%s: %d posts, %v", f, len(posts), err)
		}
	}
	// The no-permission page read as a thread page is its typed error, not a markup change.
	doc, _ := parse(fixture.Read(t, "mybb", "26-newreply-noperm.guest.html"))
	if _, err := extractThread(doc, testOptions()); !errors.Is(err, forum.ErrLoggedOut) {
		t.Errorf("no-permission page: %v", err)
	}
}

func TestRegisteredExtractor(t *testing.T) {
	x := Dialect().Extract
	posts, err := x(fixture.Read(t, "mybb", "13-thread-p2.gm-bot.html"), "text/html; charset=UTF-8",
		forum.Config{BaseURL: "http://127.0.0.1:8081", Now: func() time.Time { return captureNow }})
	if err != nil || len(posts) != 8 || posts[7].ID != "16" {
		t.Fatalf("%d posts, %v", len(posts), err)
	}
}

func TestDates(t *testing.T) {
	msk, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 12, 30, 40, 0, msk)
	o := options{Location: msk, Now: func() time.Time { return now }}
	cases := []struct {
		html string
		want time.Time
	}{
		{`<span title="11-30-2026, 03:17 AM">5 minutes ago</span>`, time.Date(2026, 11, 30, 3, 17, 0, 0, msk)},
		{`<span title="11-30-2026">Today</span>, 03:14 AM`, time.Date(2026, 11, 30, 3, 14, 0, 0, msk)},
		{`<span title="11-29-2026">Yesterday</span>, 11:02 PM`, time.Date(2026, 11, 29, 23, 2, 0, 0, msk)},
		{`Today, 03:16 AM`, time.Date(2026, 11, 30, 3, 16, 0, 0, msk)},
		{`Yesterday, 12:05 AM`, time.Date(2026, 11, 29, 0, 5, 0, 0, msk)},
		{`Сегодня, 09:16`, time.Date(2026, 11, 30, 9, 16, 0, 0, msk)},
		{`Вчера, 23:02`, time.Date(2026, 11, 29, 23, 2, 0, 0, msk)},
		{`5 minutes ago`, time.Date(2026, 11, 30, 12, 25, 0, 0, msk)},
		{`1 hour ago`, time.Date(2026, 11, 30, 11, 30, 0, 0, msk)},
		{`Less than 1 minute ago`, time.Date(2026, 11, 30, 12, 30, 0, 0, msk)},
		{`5 минут назад`, time.Date(2026, 11, 30, 12, 25, 0, 0, msk)},
		{`Менее 1 минуты назад`, time.Date(2026, 11, 30, 12, 30, 0, 0, msk)},
		{`2 часа назад`, time.Date(2026, 11, 30, 10, 30, 0, 0, msk)},
		{`11-28-2026, 07:45 PM`, time.Date(2026, 11, 28, 19, 45, 0, 0, msk)},
		{`28.11.2026, 19:45`, time.Date(2026, 11, 28, 19, 45, 0, 0, msk)},
		{`30-12-2012, 16h30`, time.Date(2012, 12, 30, 16, 30, 0, 0, msk)}, // French pack (starbound-fr.net)
		{`30-12-2012, 18h17 <span class="post_edit" id="edited_by_4531"><span class="edited_post">(Modification du message : 31-12-2012, 00h09 par X.)</span></span>`, time.Date(2012, 12, 30, 18, 17, 0, 0, msk)},
	}
	for _, c := range cases {
		doc, _ := parse([]byte(`<div class="post_head"><span class="post_date">` + c.html +
			` <span class="post_edit" id="edited_by_1"></span></span></div>`))
		got, ok := postTime(doc.Find(selectors.PostDate), &o)
		if !ok || !got.Equal(c.want) {
			t.Errorf("%s: %v %v, want %v", c.html, got, ok, c.want)
		}
	}
	doc, _ := parse([]byte(`<span class="post_date">sometime</span>`))
	if _, ok := postTime(doc.Find("span.post_date"), &o); ok {
		t.Error("nonsense date accepted")
	}
}

func TestReadForm(t *testing.T) {
	doc, _ := parse(fixture.Read(t, "mybb", "20-newreply-form.gm-bot.html"))
	f := readForm(doc.Find(selectors.ReplyForm).Not("#quick_reply_form").First(), nil)
	want := map[string]string{
		"my_post_key": "f8405dfcf6435de0e756d5130990f6b8", "posthash": "269400a14267e4bf9ab5414811018eab",
		"subject": "RE: Крестовый поход — партия 1", "action": "do_newreply", "tid": "1", "replyto": "0",
		"icon": "-1", "postoptions[subscriptionmethod]": "", "quoted_ids": "", "message": "",
	}
	for k, v := range want {
		if got, ok := f.Values[k]; !ok || got[0] != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if f.Action != "newreply.php?tid=1&processed=1" {
		t.Errorf("action %q", f.Action)
	}
	for _, k := range []string{"submit", "previewpost", "attachments[]", "postoptions[signature]"} {
		if f.Values.Has(k) {
			t.Errorf("%s sent", k)
		}
	}
	doc, _ = parse(fixture.Read(t, "mybb", "01-login-form.guest.html"))
	lf := readForm(doc.Find(selectors.LoginForm).First(), nil)
	if lf.Values.Get("my_post_key") != "4c7d7fde5b65eef36e067d79743ac45d" || lf.Values.Get("action") != "do_login" || lf.Values.Has("quick_login") {
		t.Errorf("login form %v", lf.Values)
	}
}

// fuzzSeeds are small pieces of the captured pages (single post blocks, a PM row, an error
// box): whole 45 KB pages make the fuzzer crawl.
func fuzzSeeds(f *testing.F) [][]byte {
	var out [][]byte
	page := string(fixture.Read(f, "mybb", "11-thread-p2.guest.html"))
	for _, blk := range strings.SplitAfter(page, "<!-- end: postbit -->") {
		if i := strings.Index(blk, "<!-- start: postbit -->"); i >= 0 {
			out = append(out, []byte(`<div id="posts">`+blk[i:]+`</div>`))
		}
	}
	cut := func(file, from, to string) {
		s := string(fixture.Read(f, "mybb", file))
		i := strings.Index(s, from)
		j := -1
		if i >= 0 {
			j = strings.Index(s[i:], to)
		}
		if i < 0 || j < 0 {
			f.Fatalf("%s: %q..%q not found", file, from, to)
		}
		out = append(out, []byte(s[i:i+j+len(to)]))
	}
	cut("33-pm-inbox.dzhelu.html", `<form action="private.php" method="post" name="pmForm">`, "</form>")
	cut("28-reply-error-flood.snovaya.html", `<div class="error">`, "</div>")
	cut("27-reply-error-badkey.gm-bot.html", `<table border="0" cellspacing="0" cellpadding="5" class="tborder">`, "</table>")
	cut("22-reply-success.gm-bot.html", "<head>", "</head>")
	// MyBB 1.6's table postbit, both layouts (testdata/forums/mybb16).
	for _, file := range []string{"11-thread-p2.guest.html", "61-thread-p2-classic.guest.html"} {
		page := string(fixture.Read(f, "mybb16", file))
		for _, blk := range strings.SplitAfter(page, "<!-- end: postbit") {
			if i := strings.Index(blk, "<!-- start: postbit"); i >= 0 {
				out = append(out, []byte(`<div id="posts">`+blk[i:]+`</div>`))
			}
		}
	}
	return out
}

func FuzzExtract(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Add([]byte(`<div class="post" id="post_1"><div class="author_information"><span class="largetext">x</span></div><div class="post_head"><span class="post_date">Today, 1:00 PM</span></div><div class="post_body"><blockquote class="mycode_quote"><cite>Quote:</cite><blockquote class="mycode_quote"></blockquote></blockquote><div class="codeblock"><code>a<br>b</code></div><div class="spoiler"></div><hr><img class="smilie"></div></div>`))
	f.Fuzz(func(t *testing.T, page []byte) {
		doc, err := parse(page)
		if err != nil {
			return
		}
		p, err := extract(doc, testOptions())
		if err == nil && p == nil {
			t.Fatal("nil page without error")
		}
		if err == nil && p.Kind == kindThread && len(p.Posts) == 0 {
			t.Fatal("thread page with no posts and no error")
		}
		_, _ = result(doc, nil)
		_ = readForm(doc.Find("form").First(), nil)
	})
}

// twentyPosts synthesises a 20-post thread page from the captured one by repeating post blocks.
func twentyPosts(b *testing.B) []byte {
	page := string(fixture.Read(b, "mybb", "10-thread-p1.guest.html"))
	start := strings.Index(page, "<!-- start: postbit -->")
	end := strings.LastIndex(page, "<!-- end: postbit -->") + len("<!-- end: postbit -->")
	blocks := strings.SplitAfter(page[start:end], "<!-- end: postbit -->")
	var sb strings.Builder
	for i := 0; i < 20; i++ {
		blk := blocks[i%8]
		if i >= 8 {
			blk = strings.ReplaceAll(blk, `id="post_`, `id="post_`+jsonInt(i/8)+`0`)
		}
		sb.WriteString(blk)
	}
	return []byte(page[:start] + sb.String() + page[end:])
}

func BenchmarkExtractThreadPage(b *testing.B) {
	pages := map[string][]byte{"8posts": fixture.Read(b, "mybb", "10-thread-p1.guest.html"), "20posts": twentyPosts(b)}
	for _, name := range []string{"8posts", "20posts"} {
		page := pages[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			want := 8
			if name == "20posts" {
				want = 20
			}
			for b.Loop() {
				doc, err := parse(page)
				if err != nil {
					b.Fatal(err)
				}
				p, err := extractThread(doc, testOptions())
				if err != nil || len(p.Posts) != want {
					b.Fatalf("%v, %d posts", err, len(p.Posts))
				}
			}
		})
	}
}

// TestUnreadPM: the new-PM notice and the header's counter tell an unread private message; a
// member's page without either and a guest's page tell none.
func TestUnreadPM(t *testing.T) {
	for _, c := range []struct {
		file string
		want bool
	}{
		{"17-index-with-pm-notice.dzhelu.html", true},
		{"12-thread-p1.gm-bot.html", false},
		{"10-thread-p1.guest.html", false},
	} {
		doc, err := parse(fixture.Read(t, "mybb", c.file))
		if err != nil {
			t.Fatal(err)
		}
		if got := UnreadPM(doc); got != c.want {
			t.Errorf("%s: UnreadPM %v, want %v", c.file, got, c.want)
		}
	}
	// The counter alone (a dismissed notice), in another language pack's words.
	for page, want := range map[string]bool{
		`<ul><li><a href="http://x/private.php">Личные сообщения</a> (Новых: 2, Всего: 5)</li></ul>`: true,
		`<ul><li><a href="http://x/private.php">Private Messages</a> (Unread 0, Total 5)</li></ul>`:  false,
	} {
		doc, err := parse([]byte(page))
		if err != nil {
			t.Fatal(err)
		}
		if got := UnreadPM(doc); got != want {
			t.Errorf("%s: UnreadPM %v, want %v", page, got, want)
		}
	}
}
