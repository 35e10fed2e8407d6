package mybb

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// themeBoards are the captures of MyBB 1.8.37 with imported themes (testdata/forums/mybb-*): one
// thread of 13 posts over two pages per theme, read as a guest and as gm-bot, with the board's
// built-in SEO URLs (Cerise), the Google SEO plugin (Premium Multicolors) or plain URLs
// (simplerealistic).
var themeBoards = []struct {
	dir, tid, fid string
	lastPID       string
	edited        []string // posts with an edit notice
	permalink     string   // the capture of a post permalink and the post it names
	permalinkPID  string
	forumPage     string
	seo           string // how a post's permalink starts
}{
	{"mybb-cerise", "1", "3", "13", []string{"5", "12"}, "15-post-permalink-pid11.guest.html", "11",
		"16-forumdisplay-fid3.guest.html", "http://127.0.0.1:18400/thread-1-post-"},
	{"mybb-multicolors", "2", "4", "26", []string{"18", "25"}, "15-post-permalink-pid24.guest.html", "24",
		"16-forumdisplay-fid4.guest.html", "http://127.0.0.1:18400/Thread-%D0%9A%D1%80%D0%B5%D1%81%D1%82%D0%BE%D0%B2%D1%8B%D0%B9-"},
	{"mybb-simplerealistic", "3", "5", "39", []string{"31", "38"}, "15-post-permalink-pid37.guest.html", "37",
		"16-forumdisplay-fid5.guest.html", "http://127.0.0.1:18400/showthread.php?tid=3&pid="},
}

// themeNow is a moment just after the theme captures (2026-12-01 09:43–09:45 UTC).
var themeNow = time.Date(2026, 12, 1, 9, 45, 0, 0, time.UTC)

func themeOptions() options {
	return options{BaseURL: "http://127.0.0.1:18400/", Location: time.UTC, Now: func() time.Time { return themeNow }}
}

func extractTheme(t testing.TB, dir, name string) *Page {
	t.Helper()
	doc, err := parse(fixture.Read(t, dir, name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := extract(doc, themeOptions())
	if err != nil {
		t.Fatalf("%s/%s: %v", dir, name, err)
	}
	return p
}

// The theme captures' extraction is pinned in testdata/golden/themes (go test -update rewrites
// them; read every rewritten file against its page).
func TestThemeGolden(t *testing.T) {
	for _, b := range themeBoards {
		for _, f := range []string{"10-thread-p1.guest.html", "11-thread-p2.guest.html", "12-thread-p1.gm-bot.html",
			"13-thread-p2.gm-bot.html", b.permalink} {
			t.Run(b.dir+"/"+f, func(t *testing.T) {
				p := extractTheme(t, b.dir, f)
				got, err := json.MarshalIndent(golden{Kind: p.Kind.String(), ThreadID: p.ThreadID, Subject: p.Subject,
					Page: p.Page, LastPage: p.LastPage, LastPID: p.LastPID, LoggedIn: p.LoggedIn, Posts: p.Posts}, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, '\n')
				path := filepath.Join("testdata", "golden", "themes", b.dir+"-"+strings.TrimSuffix(f, ".html")+".json")
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
}

var reCodeAny = regexp.MustCompile(`(?is)\[code\].*?\[/code\]`)

// themeOwnText is ownText with code blocks kept whole (a code block may show "[quote]…[/quote]"
// as text).
func themeOwnText(raw string) string {
	var blocks []string
	raw = reCodeAny.ReplaceAllStringFunc(raw, func(c string) string {
		blocks = append(blocks, c)
		return "\x00" + string(rune('A'+len(blocks)-1)) + "\x00"
	})
	s := ownText(raw)
	for i, c := range blocks {
		s = strings.Replace(s, "\x00"+string(rune('A'+i))+"\x00", reTags.ReplaceAllString(c, ""), 1)
	}
	return s
}

// Every theme's posts say what the database says: author and uid (from the name's link, or with
// Google SEO's User-Name links from the post's other links), time, edit mark, own text (quotes,
// spoilers, signatures and edit notices out; a quote inside a spoiler stays in the spoiler; a
// "[quote]" inside a code block is code), quotes with their author and quoted post id, the
// permalink in the board's URL form; and the page facts (thread, forum, pages, member or guest).
func TestThemeCapturesMatchRaw(t *testing.T) {
	for _, b := range themeBoards {
		t.Run(b.dir, func(t *testing.T) {
			var raw struct {
				Posts []rawPost `json:"posts"`
			}
			fixture.Raw(t, b.dir, &raw)
			byID := map[string]rawPost{}
			for _, r := range raw.Posts {
				byID[jsonInt(r.PID)] = r
			}
			got := map[string]forum.Post{}
			for i, f := range []string{"10-thread-p1.guest.html", "11-thread-p2.guest.html", "12-thread-p1.gm-bot.html", "13-thread-p2.gm-bot.html"} {
				p := extractTheme(t, b.dir, f)
				member := strings.Contains(f, "gm-bot")
				if p.ThreadID != b.tid || p.ForumID != b.fid || p.Page != i%2+1 || p.LastPage != 2 || p.LoggedIn != member {
					t.Errorf("%s: thread %q forum %q page %d/%d logged in %v", f, p.ThreadID, p.ForumID, p.Page, p.LastPage, p.LoggedIn)
				}
				if member && p.LastPID != b.lastPID || !member && p.LastPID != "" {
					t.Errorf("%s: last pid %q", f, p.LastPID)
				}
				for _, post := range p.Posts {
					got[post.ID] = post
				}
			}
			if len(got) != 13 || len(raw.Posts) != 13 {
				t.Fatalf("%d posts read, %d in the database, want 13", len(got), len(raw.Posts))
			}
			for id, p := range got {
				r := byID[id]
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
				if !strings.HasPrefix(p.Permalink, b.seo) || pidFromURL(p.Permalink) != id {
					t.Errorf("post %s: permalink %q", id, p.Permalink)
				}
				for _, sig := range []string{"GL HF", "Sig:", "Бот-ведущий", "last modified", "Edit Reason"} {
					if strings.Contains(p.Text, sig) {
						t.Errorf("post %s: %q in the text", id, sig)
					}
				}
				quotes := reQuoteOpen.FindAllString(reSpoiler.ReplaceAllString(reCodeAny.ReplaceAllString(stripQuotesOuter(r.Message), ""), ""), -1)
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
			var edited []string
			for _, id := range b.edited {
				if got[id].Edited {
					edited = append(edited, id)
				}
			}
			if len(edited) != len(b.edited) {
				t.Errorf("edited %v, want %v", edited, b.edited)
			}
			// The bot's post 7 of the thread: a quote inside a spoiler, kept in the spoiler.
			first := atoi(t, b.lastPID) - 12
			p7 := got[jsonInt(first+6)]
			if len(p7.Quotes) != 0 || len(p7.Spoilers) != 1 || !strings.Contains(p7.Spoilers[0].Text, "1-й ход крестоносца в1 на C5") ||
				strings.Contains(p7.Text, "1-й ход") {
				t.Errorf("post %d: text %q quotes %+v spoilers %+v", first+6, p7.Text, p7.Quotes, p7.Spoilers)
			}
			// Post 8: "[quote]" written inside a code block is code, not a quote.
			p8 := got[jsonInt(first+7)]
			if len(p8.Quotes) != 0 || len(p8.Code) != 1 || !strings.Contains(p8.Code[0], `[quote="not a quote"]`) {
				t.Errorf("post %d: code %q quotes %+v", first+7, p8.Code, p8.Quotes)
			}
			// Post 6: a quote of a post that quotes another: the inner quote stays in the outer one.
			p6 := got[jsonInt(first+5)]
			if len(p6.Quotes) != 1 || p6.Quotes[0].Author != "gm-bot" || !strings.Contains(p6.Quotes[0].Text, "1-й ход сарацина н2 на G5") {
				t.Errorf("post %d: quotes %+v", first+5, p6.Quotes)
			}

			perm := extractTheme(t, b.dir, b.permalink)
			found := false
			for _, post := range perm.Posts {
				found = found || post.ID == b.permalinkPID
			}
			if !found || perm.Page != 2 {
				t.Errorf("%s: page %d does not hold post %s", b.permalink, perm.Page, b.permalinkPID)
			}

			doc, err := parse(fixture.Read(t, b.dir, b.forumPage))
			if err != nil {
				t.Fatal(err)
			}
			s, err := extractSection(doc, themeOptions())
			if err != nil {
				t.Fatal(err)
			}
			if s.ForumID != b.fid || len(s.Threads) != 1 || s.Threads[0].ID != b.tid || s.Threads[0].Replies != 12 ||
				s.Threads[0].LastPoster != "gm-bot" || s.Threads[0].LastAt.IsZero() {
				t.Errorf("%s: %+v", b.forumPage, s)
			}
		})
	}
}

// stripQuotesOuter leaves only the outermost quote openings of s (a nested quote belongs to its
// outer quote).
func stripQuotesOuter(s string) string {
	var out strings.Builder
	depth := 0
	for len(s) > 0 {
		o := reQuoteOpen.FindStringIndex(s)
		c := reQuoteClose.FindStringIndex(s)
		switch {
		case o != nil && (c == nil || o[0] < c[0]):
			if depth == 0 {
				out.WriteString(s[:o[1]])
			}
			depth++
			s = s[o[1]:]
		case c != nil:
			if depth > 0 {
				depth--
			}
			s = s[c[1]:]
		default:
			if depth == 0 {
				out.WriteString(s)
			}
			s = ""
		}
	}
	return out.String()
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// The board's redirect targets and permalinks name their post in every URL form MyBB 1.8 and
// Google SEO write (the lastpost probe's Location, a reply's redirect, a quote's jump link).
func TestPIDFromURLForms(t *testing.T) {
	for u, want := range map[string]string{
		"showthread.php?tid=1&pid=16#pid16":            "16",
		"http://b/showthread.php?tid=1&amp;pid=7#pid7": "7",
		"thread-1-post-13.html#pid13":                  "13",
		"http://b/post-3.html#pid3":                    "3",
		"http://b/post-3.html":                         "3",
		"Thread-%D0%9A-x?pid=26#pid26":                 "26",
		"Thread-Name#pid9":                             "9",
		"thread-1-page-2.html":                         "",
		"showthread.php?tid=1":                         "",
		"http://b/user-3.html":                         "",
	} {
		if got := pidFromURL(u); got != want {
			t.Errorf("PIDFromURL(%q) = %q, want %q", u, got, want)
		}
	}
	// Every capture's lastpost redirect (built-in SEO, Google SEO, plain) names the thread's last post.
	for _, b := range themeBoards {
		h := string(fixture.Read(t, b.dir, "14-thread-lastpost.guest.html.headers.txt"))
		m := regexp.MustCompile(`(?m)^Location: (\S+)`).FindStringSubmatch(h)
		if m == nil || pidFromURL(m[1]) != b.lastPID {
			t.Errorf("%s: Location %v, want pid %s", b.dir, m, b.lastPID)
		}
	}
}

// The "Spoiler MyCode" plugin (Sephiroth, for 1.8; testdata/forums/mybb-simplerealistic 20, 21):
// its div.spoiler_wrap is a spoiler like the board's div.spoiler, so a quote inside it is no
// quote of the post and its text is not the author's own; "[quote]" in a code block inside it
// stays code in the spoiler; a title the plugin's pattern refuses (Cyrillic) leaves the raw tags
// in the text, as the page shows them.
func TestSpoilerPluginPage(t *testing.T) {
	var raw struct {
		Posts []rawPost `json:"posts"`
	}
	if err := json.Unmarshal(fixture.Read(t, "mybb-simplerealistic", "posts-raw-spoilerplugin.json"), &raw); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"20-thread-spoilerplugin.guest.html", "21-thread-spoilerplugin.gm-bot.html"} {
		t.Run(f, func(t *testing.T) {
			p := extractTheme(t, "mybb-simplerealistic", f)
			if len(p.Posts) != len(raw.Posts) || p.ThreadID != "4" || p.LoggedIn != strings.Contains(f, "gm-bot") {
				t.Fatalf("%d posts, thread %q, logged in %v", len(p.Posts), p.ThreadID, p.LoggedIn)
			}
			for i, post := range p.Posts {
				r := raw.Posts[i]
				if post.ID != jsonInt(r.PID) || post.Author != r.Username || post.AuthorID != jsonInt(r.UID) || len(post.Problems) > 0 {
					t.Errorf("post %s: %q/%q, want %d %q/%d", post.ID, post.Author, post.AuthorID, r.PID, r.Username, r.UID)
				}
			}
			want := []struct {
				text    string
				quotes  int
				spoiler forum.Spoiler
			}{
				{"Тема для проверки спойлеров плагина.\nПример хода: 1-й ход крестоносца в1 на C5", 0, forum.Spoiler{}},
				{"Мой ход: 2-й ход крестоносца в2 на H4", 0, forum.Spoiler{Title: "Quote inside",
					Text: "Тема для проверки спойлеров плагина.\nПример хода: 1-й ход крестоносца в1 на C5\nЦитата в спойлере — не мой ход."}},
				{"3-й ход сарацина н1 на D6", 0, forum.Spoiler{Title: "Spoiler", Text: "[quote=\"x\"]не цитата[/quote]\n 8|__|н1|__|"}},
				{"[spoiler=Правила]кириллический заголовок[/spoiler]\nХоды приняты.", 0, forum.Spoiler{}},
				{"ok, spasibo", 1, forum.Spoiler{}},
			}
			for i, w := range want {
				post := p.Posts[i]
				var sp forum.Spoiler
				if len(post.Spoilers) == 1 {
					sp = post.Spoilers[0]
				}
				if post.Text != w.text || len(post.Quotes) != w.quotes || sp != w.spoiler || len(post.Spoilers) > 1 {
					t.Errorf("post %s: text %q quotes %+v spoilers %+v", post.ID, post.Text, post.Quotes, post.Spoilers)
				}
			}
			if q := p.Posts[4].Quotes; len(q) != 1 || q[0].Author != "gm-bot" || q[0].PostID != "43" {
				t.Errorf("post 44 quote %+v", q)
			}
		})
	}
}

// A reply's result page names the post in the board's URL form: a new post, or the bot's
// previous one when MyBB merged the reply into it (the captures 22 and 23 of the SEO boards).
// Before SEO URLs were read, thread-T-post-P.html made an accepted reply an unrecognised result.
func TestReplyResultSEO(t *testing.T) {
	for _, c := range []struct{ dir, file, pid string }{
		{"mybb-cerise", "22-reply-success.gm-bot.html", "13"},
		{"mybb-cerise", "23-reply-success-newpost.gm-bot.html", "50"},
		{"mybb-multicolors", "22-reply-success.gm-bot.html", "26"},
		{"mybb-multicolors", "23-reply-success-newpost.gm-bot.html", "46"},
	} {
		doc, err := parse(fixture.Read(t, c.dir, c.file))
		if err != nil {
			t.Fatal(err)
		}
		base, _ := url.Parse("http://127.0.0.1:18400/newreply.php?tid=1&processed=1")
		target, err := result(doc, base)
		if err != nil || pidFromURL(target) != c.pid {
			t.Errorf("%s/%s: %q %v, want pid %s", c.dir, c.file, target, err, c.pid)
		}
	}
}
