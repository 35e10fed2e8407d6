package mybb

import (
	"bufio"
	"bytes"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// capturedAt is the Date header of a captured page (its .headers.txt): the clock the board's
// relative dates on it were written against.
func capturedAt(t testing.TB, name string) time.Time {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(fixture.Read(t, "mybb", name+".headers.txt")))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "Date: "); ok {
			at, err := http.ParseTime(strings.TrimSpace(v))
			if err != nil {
				t.Fatal(err)
			}
			return at
		}
	}
	t.Fatalf("%s: no Date header", name)
	return time.Time{}
}

func sectionFile(t testing.TB, name string) *section {
	t.Helper()
	doc, err := parse(fixture.Read(t, "mybb", name))
	if err != nil {
		t.Fatal(err)
	}
	at := capturedAt(t, name)
	s, err := extractSection(doc, options{Location: time.UTC, Now: func() time.Time { return at }})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// The thread lists of the captured forum pages, pinned whole (go test -update rewrites them).
func TestSectionGolden(t *testing.T) {
	for _, name := range []string{
		"16-forumdisplay-fid3.guest.html",
		"section/01-forumdisplay-fid2.guest.html",
		"section/02-forumdisplay-fid2-page2.guest.html",
		"section/03-forumdisplay-fid2.gm-bot.html",
		"section/04-forumdisplay-fid2-page2.gm-bot.html",
		"section/10-forumdisplay-fid2-before-merge.guest.html",
		"section/13-forumdisplay-fid2-after-merge.guest.html",
		"section/22-forumdisplay-fid2.gm-bot.moderator.html",
		"section/25-forumdisplay-fid2.guest.html",
	} {
		t.Run(name, func(t *testing.T) {
			s := sectionFile(t, name)
			golden := strings.NewReplacer("section/", "section-", ".html", ".json").Replace(name)
			fixture.Golden(t, golden, s, *update)
		})
	}
}

func at(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		panic(err)
	}
	return t
}

// Each row's facts, as the board's database had them when the page was captured (see
// testdata/forums/mybb/section/README.md): the order (sticky first, then by last post), the
// sticky flag, replies, the last post's minute and its poster, whatever form the date takes
// (absolute title with relative text, "Yesterday" with the time beside it, a plain date).
func TestSectionRows(t *testing.T) {
	type row struct {
		id, title string
		replies   int
		last      string
		poster    string
		sticky    bool
	}
	cases := []struct {
		file           string
		fid            string
		page, lastPage int
		loggedIn       bool
		rows           []row
	}{
		{"16-forumdisplay-fid3.guest.html", "3", 1, 1, false, []row{
			{"2", "Крестовый поход — партия 2: набор игроков", 0, "2026-11-30 03:22", "snovaya", false},
			{"1", "Крестовый поход — партия 1", 15, "2026-11-30 03:21", "gm-bot", false},
		}},
		{"section/01-forumdisplay-fid2.guest.html", "2", 1, 2, false, []row{
			{"1", "Правила игрового раздела", 0, "2026-12-01 07:33", "admin", true},
			{"5", "Крестовый поход — партия 2", 1, "2026-12-01 07:33", "snovaya", false},
			{"6", "Болталка игроков", 17, "2026-12-01 07:33", "snovaya", false},
			{"2", "Крестовый поход — партия 1", 3, "2026-12-01 07:33", "snovaya", false},
		}},
		{"section/02-forumdisplay-fid2-page2.guest.html", "2", 2, 2, false, []row{
			{"3", "Футбол — матч 1", 2, "2026-11-30 11:33", "gm-bot", false},
			{"4", "Набор игроков на новую партию", 1, "2026-11-26 07:33", "Джелу", false},
		}},
		{"section/03-forumdisplay-fid2.gm-bot.html", "2", 1, 2, true, []row{
			{"1", "Правила игрового раздела", 0, "2026-12-01 07:33", "admin", true},
			{"5", "Крестовый поход — партия 2", 1, "2026-12-01 07:33", "snovaya", false},
			{"6", "Болталка игроков", 17, "2026-12-01 07:33", "snovaya", false},
			{"2", "Крестовый поход — партия 1", 3, "2026-12-01 07:33", "snovaya", false},
		}},
		{"section/22-forumdisplay-fid2.gm-bot.moderator.html", "2", 1, 2, true, []row{
			{"1", "Правила игрового раздела", 0, "2026-12-01 07:33", "admin", true},
			{"2", "Крестовый поход — партия 1", 4, "2026-12-01 07:35", "gm-bot", false},
			{"5", "Крестовый поход — партия 2", 1, "2026-12-01 07:33", "snovaya", false},
			{"6", "Болталка игроков", 17, "2026-12-01 07:33", "snovaya", false},
		}},
		{"section/25-forumdisplay-fid2.guest.html", "2", 1, 2, false, []row{
			{"1", "Правила игрового раздела", 0, "2026-12-01 07:33", "admin", true},
			{"3", "Футбол — матч 1", 3, "2026-12-01 07:37", "gm-bot", false},
			{"5", "Крестовый поход — партия 2", 2, "2026-12-01 07:37", "gm-bot", false},
			{"2", "Крестовый поход — партия 1", 4, "2026-12-01 07:35", "gm-bot", false},
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			s := sectionFile(t, c.file)
			if s.ForumID != c.fid || s.Page != c.page || s.LastPage != c.lastPage || s.LoggedIn != c.loggedIn {
				t.Errorf("forum %q page %d/%d logged in %v, want %q %d/%d %v", s.ForumID, s.Page, s.LastPage, s.LoggedIn, c.fid, c.page, c.lastPage, c.loggedIn)
			}
			if len(s.Threads) != len(c.rows) {
				t.Fatalf("%d threads, want %d: %+v", len(s.Threads), len(c.rows), s.Threads)
			}
			for i, w := range c.rows {
				g := s.Threads[i]
				if g.ID != w.id || g.Title != w.title || g.Replies != w.replies || !g.LastAt.Equal(at(w.last)) ||
					g.LastPoster != w.poster || g.Sticky != w.sticky || g.LastPostID != "" {
					t.Errorf("row %d: %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

// MyBB's auto-merge appends the text to the bot's last post without touching the thread's last
// post time or reply count, so the thread list looks the same before and after a merge (the
// captures 10 and 13 were taken around the merged reply 12, more than a minute after the post
// it grew): a section poll cannot see a merge; only reading the thread (Cursor.Include) can.
func TestSectionMergeInvisible(t *testing.T) {
	before := sectionFile(t, "section/10-forumdisplay-fid2-before-merge.guest.html")
	after := sectionFile(t, "section/13-forumdisplay-fid2-after-merge.guest.html")
	find := func(s *section, id string) forum.ThreadHead {
		for _, h := range s.Threads {
			if h.ID == id {
				return h
			}
		}
		t.Fatalf("thread %s not listed: %+v", id, s.Threads)
		return forum.ThreadHead{}
	}
	b, a := find(before, "2"), find(after, "2")
	if !b.Same(a) {
		t.Fatalf("the merge changed the list: before %+v, after %+v", b, a)
	}
	if b.LastPoster != "gm-bot" || b.Replies != 4 || !b.LastAt.Equal(at("2026-12-01 07:35")) {
		t.Fatalf("before the merge: %+v", b)
	}
	// A new post does change it: the list captured after the bot's new post in thread 2 (09)
	// differs from the first capture (01).
	first := find(sectionFile(t, "section/01-forumdisplay-fid2.guest.html"), "2")
	if first.Same(b) {
		t.Fatalf("a new post left the head unchanged: %+v / %+v", first, b)
	}
}

// The thread's forum comes from the breadcrumb of a thread page; the moderation tools show only
// to a moderator of that forum.
func TestThreadForumAndModerator(t *testing.T) {
	for _, c := range []struct {
		file      string
		fid       string
		moderator bool
	}{
		{"10-thread-p1.guest.html", "3", false},
		{"12-thread-p1.gm-bot.html", "3", false},
		{"section/05-showthread-tid2.gm-bot.html", "2", false},
		{"section/21-showthread-tid2.gm-bot.moderator.html", "2", true},
		// A moderator without the close and stick rights: no options in the quick reply, but
		// the inline moderation is there.
		{"section/37-showthread-tid2.gm-bot.moderator-noclose-nostick.html", "2", true},
	} {
		p := extractFile(t, c.file)
		if p.ForumID != c.fid || p.Moderator != c.moderator {
			t.Errorf("%s: forum %q moderator %v, want %q %v", c.file, p.ForumID, p.Moderator, c.fid, c.moderator)
		}
		if strings.HasPrefix(c.file, "section/") && (p.Page != 1 || p.LastPage != 1) {
			// A one-page thread in a forum of two pages: the breadcrumb's popup of the
			// forum's pages is not the thread's pagination.
			t.Errorf("%s: page %d of %d, want 1 of 1", c.file, p.Page, p.LastPage)
		}
	}
	for _, c := range []struct {
		file      string
		moderator bool
	}{
		{"20-newreply-form.gm-bot.html", false},
		{"section/06-newreply-tid2.gm-bot.member.html", false},
		{"section/20-newreply-tid2.gm-bot.moderator.html", true},
		// The limit of the reply form: that moderator sees no options there (and still skips
		// the flood check: captures 38, 39).
		{"section/36-newreply-tid2.gm-bot.moderator-noclose-nostick.html", false},
	} {
		doc, err := parse(fixture.Read(t, "mybb", c.file))
		if err != nil {
			t.Fatal(err)
		}
		if got := moderates(doc); got != c.moderator {
			t.Errorf("%s: moderator options %v, want %v", c.file, got, c.moderator)
		}
	}
}

// Theme and URL variants of the real list: SEO URLs (thread-T.html, forum-F-page-N.html), a
// guest's last post (a plain name, no profile link), counts with thousands separators, a theme
// without the <br> in the last-post cell.
func TestSectionVariants(t *testing.T) {
	page := string(fixture.Read(t, "mybb", "section/01-forumdisplay-fid2.guest.html"))
	base := sectionFile(t, "section/01-forumdisplay-fid2.guest.html")
	read := func(name, html string) *section {
		doc, err := parse([]byte(html))
		if err != nil {
			t.Fatal(err)
		}
		s, err := extractSection(doc, options{Location: time.UTC, Now: func() time.Time { return at("2026-12-01 07:34") }})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return s
	}
	seo := regexp.MustCompile(`showthread\.php\?tid=(\d+)"`).ReplaceAllString(page, `thread-$1.html"`)
	seo = strings.ReplaceAll(seo, "forumdisplay.php?fid=2&amp;page=2", "forum-2-page-2.html")
	seo = strings.ReplaceAll(seo, "forumdisplay.php?fid=2&amp;", "forum-2.html?")
	seo = strings.ReplaceAll(seo, `href="newthread.php?fid=2"`, `href="newthread.php"`)
	seo = strings.ReplaceAll(seo, "misc.php?action=markread&amp;fid=2", "misc.php?action=markread")
	s := read("SEO URLs", seo)
	if s.ForumID != "2" || s.LastPage != 2 || len(s.Threads) != len(base.Threads) {
		t.Fatalf("SEO URLs: %+v", s)
	}
	for i, h := range s.Threads {
		if h != base.Threads[i] {
			t.Errorf("SEO URLs: row %d %+v, want %+v", i, h, base.Threads[i])
		}
	}

	guest := strings.Replace(page, `Last Post</a>: <a href="http://127.0.0.1:18437/member.php?action=profile&amp;uid=4">snovaya</a>`, `Last Post</a>: Гость Вася`, 1)
	thousands := strings.Replace(guest, `onclick="MyBB.whoPosted(6); return false;">17</a>`, `onclick="MyBB.whoPosted(6); return false;">1,017</a>`, 1)
	nobr := regexp.MustCompile(`(<span class="lastpost smalltext">.*?)<br />`).ReplaceAllString(thousands, `$1 `)
	s = read("guest, thousands, no <br>", nobr)
	h5, _ := headOf(s.Threads, "5")
	h6, _ := headOf(s.Threads, "6")
	if h5.LastPoster != "Гость Вася" || !h5.LastAt.Equal(at("2026-12-01 07:33")) {
		t.Errorf("a guest's last post: %+v", h5)
	}
	if h6.Replies != 1017 || !h6.LastAt.Equal(at("2026-12-01 07:33")) || h6.LastPoster != "snovaya" {
		t.Errorf("thousands separator, no <br>: %+v", h6)
	}
}

func headOf(hs []forum.ThreadHead, id string) (forum.ThreadHead, bool) {
	for _, h := range hs {
		if h.ID == id {
			return h, true
		}
	}
	return forum.ThreadHead{}, false
}

// FuzzExtractSection: no input makes the list reader panic, and a list it returns has threads
// with ids.
func FuzzExtractSection(f *testing.F) {
	for _, name := range []string{"16-forumdisplay-fid3.guest.html", "section/02-forumdisplay-fid2-page2.guest.html"} {
		f.Add(fixture.Read(f, "mybb", name))
	}
	f.Add(fixture.Read(f, "mybb16", "16-forumdisplay-fid2.guest.html")) // MyBB 1.6's rows
	f.Add([]byte(`<table><tr class="inline_row"><td class="forumdisplay_sticky"><span id="tid_1"><a href="showthread.php?tid=1">x</a></span></td><td><a href="misc.php?action=whoposted&tid=1">1,2</a></td><td><span class="lastpost"><span title="">Yesterday</span>, 25:99 PM</span></td></tr></table>`))
	f.Fuzz(func(t *testing.T, page []byte) {
		doc, err := parse(page)
		if err != nil {
			return
		}
		s, err := extractSection(doc, testOptions())
		if err != nil {
			return
		}
		for _, h := range s.Threads {
			if h.ID == "" {
				t.Fatalf("a head without an id: %+v", s.Threads)
			}
		}
		_ = breadcrumbFID(doc)
		_ = moderates(doc)
	})
}

// A page that is not a thread list is an error (its own, or ErrMarkupChanged), never an empty
// list.
func TestSectionNotAList(t *testing.T) {
	for _, name := range []string{"10-thread-p1.guest.html", "26-newreply-noperm.guest.html", "section/07-reply-error-flood-tid2.gm-bot.member.html"} {
		doc, err := parse(fixture.Read(t, "mybb", name))
		if err != nil {
			t.Fatal(err)
		}
		s, err := extractSection(doc, testOptions())
		if err == nil {
			t.Errorf("%s: read as a thread list: %+v", name, s)
			continue
		}
		var flood *forum.FloodError
		if !errors.Is(err, forum.ErrMarkupChanged) && !errors.Is(err, forum.ErrLoggedOut) && !errors.As(err, &flood) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// BenchmarkExtractSection reads the captured thread list as the bot sees it (parse and extract).
func BenchmarkExtractSection(b *testing.B) {
	page := fixture.Read(b, "mybb", "section/03-forumdisplay-fid2.gm-bot.html")
	o := testOptions()
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		doc, err := parse(page)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := extractSection(doc, o); err != nil {
			b.Fatal(err)
		}
	}
}
