package mybb

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// MyBB 1.6.18 pages captured on loopback (testdata/forums/mybb16, see its README): the table
// postbit in both layouts, horizontal (the board default) and classic (the board setting, or a
// member's option).

// capture16Now is a moment just after the 1.6 pages were captured (2026-12-01 09:46–09:47 UTC).
var capture16Now = time.Date(2026, 12, 1, 9, 47, 0, 0, time.UTC)

func options16() options {
	return options{BaseURL: "http://127.0.0.1:18300/", Location: time.UTC, Now: func() time.Time { return capture16Now }}
}

func extract16(t testing.TB, name string) *Page {
	t.Helper()
	doc, err := parse(fixture.Read(t, "mybb16", name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := extract(doc, options16())
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

// The thread pages of each layout: page 1 (pids 1-8) and page 2 (9-14).
var layouts16 = map[string][2]string{
	"horizontal guest":  {"10-thread-p1.guest.html", "11-thread-p2.guest.html"},
	"horizontal member": {"12-thread-p1.gm-bot.html", "13-thread-p2.gm-bot.html"},
	"classic guest":     {"60-thread-p1-classic.guest.html", "61-thread-p2-classic.guest.html"},
	"classic member":    {"62-thread-p1-classic.gm-bot.html", "63-thread-p2-classic.gm-bot.html"},
}

var golden16Pages = []struct {
	file string
	kind Kind
}{
	{"10-thread-p1.guest.html", kindThread},
	{"11-thread-p2.guest.html", kindThread},
	{"12-thread-p1.gm-bot.html", kindThread},
	{"13-thread-p2.gm-bot.html", kindThread},
	{"15-post-permalink-pid10.guest.html", kindThread},
	{"60-thread-p1-classic.guest.html", kindThread},
	{"61-thread-p2-classic.guest.html", kindThread},
	{"62-thread-p1-classic.gm-bot.html", kindThread},
	{"63-thread-p2-classic.gm-bot.html", kindThread},
	{"33-pm-inbox.dzhelu.html", kindPMList},
	{"34-pm-read.dzhelu.html", kindPM},
	{"35-pm-sent-folder.gm-bot.html", kindPMList},
	{"36-pm-inbox-after-read.dzhelu.html", kindPMList},
}

// The extraction of every 1.6 page is pinned in testdata/golden/mybb16 (checked by hand against
// the pages and posts-raw.json).
func TestMyBB16Golden(t *testing.T) {
	for _, g := range golden16Pages {
		t.Run(g.file, func(t *testing.T) {
			p := extract16(t, g.file)
			if p.Kind != g.kind {
				t.Fatalf("kind %v, want %v", p.Kind, g.kind)
			}
			got, err := json.MarshalIndent(golden{Kind: p.Kind.String(), ThreadID: p.ThreadID, Subject: p.Subject,
				Page: p.Page, LastPage: p.LastPage, LastPID: p.LastPID, LoggedIn: p.LoggedIn, Posts: p.Posts}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", "golden", "mybb16", strings.TrimSuffix(g.file, ".html")+".json")
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

type raw16 struct {
	Posts []struct {
		rawPost
		TID int `json:"tid"`
	} `json:"posts"`
	Signatures map[string]string `json:"signatures"`
	PMs        []rawPost         `json:"private_messages"`
}

func loadRaw16(t *testing.T) raw16 {
	t.Helper()
	var r raw16
	fixture.Raw(t, "mybb16", &r)
	return r
}

// In both layouts, as a guest and as a member, every post of the thread reads as the database
// stores it: id, permalink, author and uid, time (minute precision: absolute, "Yesterday",
// "Today"), the edit mark, the own text (quotes apart, signature left out), the quotes' authors
// and post ids, the code blocks row by row.
func TestMyBB16MatchesRaw(t *testing.T) {
	raw := loadRaw16(t)
	byID := map[string]rawPost{}
	for _, p := range raw.Posts {
		if p.TID == 1 {
			byID[jsonInt(p.PID)] = p.rawPost
		}
	}
	for name, files := range layouts16 {
		t.Run(name, func(t *testing.T) {
			got := map[string]forum.Post{}
			for _, f := range files {
				for _, p := range extract16(t, f).Posts {
					got[p.ID] = p
				}
			}
			if len(got) != len(byID) {
				t.Fatalf("%d posts, want %d", len(got), len(byID))
			}
			for id, p := range got {
				r := byID[id]
				if len(p.Problems) > 0 {
					t.Errorf("post %s: problems %q", id, p.Problems)
				}
				if p.Author != r.Username || p.AuthorID != jsonInt(r.UID) {
					t.Errorf("post %s: author %q/%s, want %q/%d", id, p.Author, p.AuthorID, r.Username, r.UID)
				}
				if want := time.Unix(r.Dateline, 0).UTC().Truncate(time.Minute); !p.Time.Equal(want) {
					t.Errorf("post %s: time %v, want %v", id, p.Time, want)
				}
				if p.Edited != (r.EditTime != 0) {
					t.Errorf("post %s: edited %v, raw edittime %d", id, p.Edited, r.EditTime)
				}
				if g, w := strings.Join(lines(p.Text), "\n"), strings.Join(lines(ownText(r.Message)), "\n"); g != w {
					t.Errorf("post %s text:\n got  %q\n want %q", id, g, w)
				}
				if p.Permalink != "http://127.0.0.1:18300/showthread.php?tid=1&pid="+id+"#pid"+id {
					t.Errorf("post %s: permalink %q", id, p.Permalink)
				}
				if !strings.Contains(p.Subject, "Крестовый поход — партия 1") {
					t.Errorf("post %s: subject %q", id, p.Subject)
				}
				for _, sig := range []string{"Deus vult", "Saracen team", "ведущий партий"} {
					if strings.Contains(p.Text, sig) {
						t.Errorf("post %s: signature %q in the text", id, sig)
					}
				}
				blocks := reCodeBlock.FindAllStringSubmatch(stripQuotes(r.Message), -1)
				if len(blocks) != len(p.Code) {
					t.Errorf("post %s: %d code blocks, want %d", id, len(p.Code), len(blocks))
					continue
				}
				for i, b := range blocks {
					if want := strings.TrimLeft(b[1], " \t\n"); p.Code[i] != want {
						t.Errorf("post %s code %d:\n got  %q\n want %q", id, i, p.Code[i], want)
					}
				}
			}
			// Quotes: author and post id from the cite; the nested quote stays in its outer
			// quote's text.
			for id, want := range map[string][2]string{"4": {"Снежана", "3"}, "6": {"Джелу", "5"}, "9": {"Джелу", "8"}, "10": {"gm-bot", "9"}} {
				q := got[id].Quotes
				if len(q) != 1 || q[0].Author != want[0] || q[0].PostID != want[1] {
					t.Errorf("post %s quotes %+v, want %v", id, q, want)
				}
			}
			if q := got["10"].Quotes[0].Text; !strings.Contains(q, "2-й ход крестоносца в1 на Z9") || !strings.Contains(q, "Ход отклонён") {
				t.Errorf("nested quote text %q", q)
			}
			// The smilie is its code again, the look-alike letters are kept as typed.
			if !strings.Contains(got["2"].Text, "хода :)") || !strings.Contains(got["7"].Text, "Ноd нe") {
				t.Errorf("texts %q / %q", got["2"].Text, got["7"].Text)
			}
		})
	}
}

func TestMyBB16PageInfo(t *testing.T) {
	cases := []struct {
		file          string
		page, last    int
		lastPID       string
		loggedIn      bool
		first, lastID string
	}{
		{"10-thread-p1.guest.html", 1, 2, "", false, "1", "8"},
		{"11-thread-p2.guest.html", 2, 2, "", false, "9", "14"},
		{"12-thread-p1.gm-bot.html", 1, 2, "14", true, "1", "8"},
		{"13-thread-p2.gm-bot.html", 2, 2, "14", true, "9", "14"},
		{"15-post-permalink-pid10.guest.html", 2, 2, "", false, "9", "14"},
		{"62-thread-p1-classic.gm-bot.html", 1, 2, "14", true, "1", "8"},
		{"64-post-permalink-pid10-classic.guest.html", 2, 2, "", false, "9", "14"},
	}
	for _, c := range cases {
		p := extract16(t, c.file)
		if p.Page != c.page || p.LastPage != c.last || p.LastPID != c.lastPID || p.ThreadID != "1" || p.ForumID != "2" ||
			p.LoggedIn != c.loggedIn || p.Posts[0].ID != c.first || p.Posts[len(p.Posts)-1].ID != c.lastID {
			t.Errorf("%s: page %d/%d lastpid %q tid %q fid %q in %v posts %s..%s", c.file, p.Page, p.LastPage, p.LastPID,
				p.ThreadID, p.ForumID, p.LoggedIn, p.Posts[0].ID, p.Posts[len(p.Posts)-1].ID)
		}
	}
	if k := extract16(t, "12-thread-p1.gm-bot.html").MyPostKey; k != "b18233f3fcd4bf0b6741c81c8bd1e8f1" {
		t.Errorf("my_post_key %q", k)
	}
}

// Private messages of 1.6: the folder listings and a message read in full.
func TestMyBB16PMPages(t *testing.T) {
	raw := loadRaw16(t)
	in := extract16(t, "33-pm-inbox.dzhelu.html").Posts
	if len(in) != 1 || in[0].ID != "1" || in[0].Author != "gm-bot" || in[0].AuthorID != "2" || in[0].Subject != raw.PMs[0].Subject ||
		!in[0].Time.Equal(time.Unix(raw.PMs[0].Dateline, 0).UTC().Truncate(time.Minute)) {
		t.Errorf("inbox %+v", in)
	}
	sent := extract16(t, "35-pm-sent-folder.gm-bot.html").Posts
	if len(sent) != 1 || sent[0].ID != "2" || sent[0].Author != "Джелу" {
		t.Errorf("sent %+v", sent)
	}
	pm := extract16(t, "34-pm-read.dzhelu.html").Posts
	b := reCodeBlock.FindStringSubmatch(raw.PMs[0].Message)
	if len(pm) != 1 || pm[0].ID != "1" || pm[0].Author != "gm-bot" || len(pm[0].Code) != 1 || pm[0].Code[0] != strings.TrimLeft(b[1], " \t\n") ||
		strings.Contains(pm[0].Text, "ведущий партий") {
		t.Errorf("PM %+v", pm)
	}
}

// The 1.6 result pages: redirects name the new post, errors are typed.
func TestMyBB16ResultPages(t *testing.T) {
	ok := map[string]string{
		"02-login-success.gm-bot.html":       "http://127.0.0.1:18300/showthread.php?tid=1",
		"22-reply-success.gm-bot.html":       "http://127.0.0.1:18300/showthread.php?tid=1&pid=14#pid14",
		"31-pm-send-success.gm-bot.html":     "http://127.0.0.1:18300/private.php",
		"41-editpost-success.dzhelu.html":    "http://127.0.0.1:18300/showthread.php?tid=1&pid=5#pid5",
		"42-newthread-success.snezhana.html": "http://127.0.0.1:18300/showthread.php?tid=2",
		// merged into pid 15: the redirect names the old post
		"23-reply-automerged-tid2.snezhana.html": "http://127.0.0.1:18300/showthread.php?tid=2&pid=15#pid15",
	}
	for file, want := range ok {
		doc, _ := parse(fixture.Read(t, "mybb16", file))
		got, err := result(doc, baseURL(doc, options16()))
		if err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", file, got, err, want)
		}
	}
	bad := []struct {
		file string
		want error
		wait time.Duration
	}{
		{"03-login-error.guest.html", forum.ErrBadLogin, 0},
		{"24-reply-error-empty.gm-bot.html", forum.ErrTooShort, 0},
		{"26-newreply-noperm.guest.html", forum.ErrLoggedOut, 0},
		{"27-reply-error-badkey.gm-bot.html", forum.ErrBadToken, 0},
		{"28-reply-error-flood.snezhana.html", nil, 31 * time.Second},
		{"37-pm-send-error-flood.gm-bot.html", nil, 55 * time.Second},
		{"32-pm-send-error-duplicate.gm-bot.html", ErrAlreadyPosted, 0},
	}
	for _, c := range bad {
		doc, _ := parse(fixture.Read(t, "mybb16", c.file))
		_, err := result(doc, nil)
		if err == nil {
			t.Errorf("%s: no error", c.file)
			continue
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
}

// Each 1.6 fallback costs only its own field when its markup is gone: the date of the table
// postbit (both layouts), the author of the classic layout, the permalink.
func TestMyBB16FieldCostsField(t *testing.T) {
	for name, c := range map[string]struct {
		file, from, to, problem string
	}{
		"horizontal date": {"11-thread-p2.guest.html", `class="float_left smalltext"`, `class="float_left"`, "time:"},
		"classic date":    {"61-thread-p2-classic.guest.html", `vertical-align: middle;"><span class="smalltext">`, `vertical-align: middle;"><span>`, "time:"},
		"classic author":  {"61-thread-p2-classic.guest.html", `<span class="largetext">`, `<span>`, "author:"},
	} {
		page := string(fixture.Read(t, "mybb16", c.file))
		broken := strings.ReplaceAll(page, c.from, c.to)
		if broken == page {
			t.Fatalf("%s: nothing replaced", name)
		}
		doc, _ := parse([]byte(broken))
		p, err := extractThread(doc, options16())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, post := range p.Posts {
			if len(post.Problems) != 1 || !strings.HasPrefix(post.Problems[0].String(), c.problem) || post.Text == "" && len(post.Quotes) == 0 {
				t.Errorf("%s: post %s problems %q", name, post.ID, post.Problems)
			}
		}
	}
}

// The 1.6 thread list (rows without a class, the id on the title link, the "who posted" count a
// javascript: link, the last post's date as plain text) and the board index.
func TestMyBB16SectionAndBoard(t *testing.T) {
	doc, _ := parse(fixture.Read(t, "mybb16", "16-forumdisplay-fid2.guest.html"))
	s, err := extractSection(doc, options16())
	if err != nil {
		t.Fatal(err)
	}
	want := []forum.ThreadHead{
		{ID: "2", Title: "Крестовый поход — партия 2: набор игроков", Replies: 0, LastAt: time.Date(2026, 12, 1, 9, 46, 0, 0, time.UTC), LastPoster: "Снежана"},
		{ID: "1", Title: "Крестовый поход — партия 1", Replies: 13, LastAt: time.Date(2026, 12, 1, 9, 46, 0, 0, time.UTC), LastPoster: "gm-bot"},
	}
	if s.ForumID != "2" || len(s.Threads) != len(want) {
		t.Fatalf("forum %q threads %+v", s.ForumID, s.Threads)
	}
	for i, h := range s.Threads {
		if h.ID != want[i].ID || h.Title != want[i].Title || h.Replies != want[i].Replies || !h.LastAt.Equal(want[i].LastAt) ||
			h.LastPoster != want[i].LastPoster || h.Sticky {
			t.Errorf("thread %d: %+v, want %+v", i, h, want[i])
		}
	}
	doc, _ = parse(fixture.Read(t, "mybb16", "17-index-with-pm-notice.dzhelu.html"))
	b, err := extractBoard(doc)
	if err != nil || len(b) != 1 || b[0].ID != "2" || b[0].Threads != 2 || b[0].Posts != 15 || b[0].LastThread != "2" || b[0].LastPoster != "Снежана" {
		t.Errorf("board %+v, %v", b, err)
	}
	if !UnreadPM(doc) {
		t.Error("the index's new-PM notice not seen")
	}
}

// The moderation tools of 1.6 (the administrator's page: a moderator of every forum, whom the
// flood check skips) tell a moderator; the bot's pages show none. The posts read the same.
func TestMyBB16Moderator(t *testing.T) {
	admin := extract16(t, "19-thread-p1-classic.admin.html")
	if !admin.Moderator || !admin.LoggedIn || len(admin.Posts) != 8 {
		t.Errorf("admin page: moderator %v, logged in %v, %d posts", admin.Moderator, admin.LoggedIn, len(admin.Posts))
	}
	bot := extract16(t, "62-thread-p1-classic.gm-bot.html")
	for i, p := range admin.Posts {
		q := bot.Posts[i]
		if p.ID != q.ID || p.Author != q.Author || p.Text != q.Text || !p.Time.Equal(q.Time) || p.Edited != q.Edited || len(p.Problems) > 0 {
			t.Errorf("post %s differs: %+v / %+v", p.ID, p, q)
		}
	}
	for _, f := range []string{"12-thread-p1.gm-bot.html", "62-thread-p1-classic.gm-bot.html"} {
		if extract16(t, f).Moderator {
			t.Errorf("%s: the bot seen as a moderator", f)
		}
	}
}

// A reply MyBB 1.6 merged into the thread's last post (tid 2, pid 15) leaves the thread list as
// it was: the same replies, last-post time and poster (as on 1.8).
func TestMyBB16MergeInvisibleInList(t *testing.T) {
	var lists [2][]forum.ThreadHead
	for i, f := range []string{"16-forumdisplay-fid2.guest.html", "25-forumdisplay-fid2-after-merge.guest.html"} {
		doc, _ := parse(fixture.Read(t, "mybb16", f))
		s, err := extractSection(doc, options16())
		if err != nil {
			t.Fatal(err)
		}
		lists[i] = s.Threads
	}
	if len(lists[0]) != 2 || len(lists[1]) != 2 {
		t.Fatalf("lists %+v", lists)
	}
	for i := range lists[0] {
		a, b := lists[0][i], lists[1][i]
		if a.ID != b.ID || a.Replies != b.Replies || !a.LastAt.Equal(b.LastAt) || a.LastPoster != b.LastPoster {
			t.Errorf("thread %s changed: %+v → %+v", a.ID, a, b)
		}
	}
}
