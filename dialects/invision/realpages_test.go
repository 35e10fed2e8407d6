package invision

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// What the dialect reads on a topic page, run on the real Invision Community 4.7 pages of
// go-piratia.ru as a guest saw them (testdata/realboards/invision/README.md): the user bar
// (signed out, no messenger count), the sign-in form Login replays, the comment form Reply
// replays and its no-script field, the comments, the forum of the breadcrumb, the topic id of
// the canonical link (a Cyrillic slug, percent-encoded).
func TestRealPagesWrite(t *testing.T) {
	for _, tc := range []struct {
		page, topic string
		comments    int
	}{
		{"ips47-gopiratia-t230.html", "230", 4},
		{"ips47-gopiratia-t9.html", "9", 4},
		{"ips47-gopiratia-t16.html", "16", 5}, // closed: no comment form
	} {
		t.Run(tc.page, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "invision", tc.page))
			if err != nil {
				t.Fatal(err)
			}
			doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(raw)))
			if err != nil {
				t.Fatal(err)
			}
			x, err := New(forum.Config{BaseURL: "https://go-piratia.ru/"})
			if err != nil {
				t.Fatal(err)
			}
			if in, known := signedIn(doc); !known || in {
				t.Errorf("signed in %v (known %v) on a guest's page", in, known)
			}
			x.noteUnread(doc)
			if x.UnreadPM() {
				t.Error("unread messages on a guest's page")
			}

			canon, _ := doc.Find("link[rel='canonical']").Attr("href")
			cu, err := url.Parse(canon)
			if err != nil {
				t.Fatal(err)
			}
			id := strings.TrimSuffix(strings.TrimPrefix(cu.Path, "/topic/"), "/")
			path, number, err := topicRoute(forum.Thread{ID: id})
			if err != nil || number != tc.topic || x.route(path, nil) != (&url.URL{Scheme: "https", Host: "go-piratia.ru", Path: cu.Path}).String() {
				t.Errorf("topic %q: %q %q %v (canonical %s)", id, path, number, err, canon)
			}

			// Login: the user bar's sign-in form (login template's fields, the button's
			// _processLogin=usernamepassword), posted to login/.
			lf := doc.Find("form:has(input[name='auth'])").First()
			if a, _ := lf.Attr("action"); a != x.route("login/", nil) {
				t.Errorf("sign-in form action %q, want %q", a, x.route("login/", nil))
			}
			lv := formValues(lf)
			for _, k := range []string{"csrfKey", "ref", "auth", "password"} {
				if _, ok := lv[k]; !ok {
					t.Errorf("sign-in form has no %s: %v", k, lv)
				}
			}
			if lv.Get("remember_me") != "1" || lf.Find("button[name='_processLogin'][value='usernamepassword']").Length() != 1 {
				t.Errorf("sign-in form: remember_me %q, _processLogin button %d", lv.Get("remember_me"), lf.Find("button[name='_processLogin']").Length())
			}

			gp, err := ReadPage(doc, ips4, forum.Config{})
			if err != nil || len(gp.Posts) != tc.comments {
				t.Fatalf("comments: %d, %v", len(gp.Posts), err)
			}
			section := sectionOf(doc)
			x.noteForumURL(doc, section)
			if section == "" || !strings.HasPrefix(x.forumURL[section], "https://go-piratia.ru/forum/"+section+"-") {
				t.Errorf("forum %q at %q", section, x.forumURL[section])
			}

			// Reply: the comment form, its action the topic, its hidden fields, the editor.
			page := &forum.Page{URL: cu}
			fs, action, vals, err := commentForm(doc, page, tc.topic)
			if tc.topic == "16" {
				if !errors.Is(err, forum.ErrNoPermission) || !strings.Contains(err.Error(), "This topic is now closed to further replies.") {
					t.Errorf("closed topic: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if au, _ := url.Parse(action); au == nil || au.Path != cu.Path {
				t.Errorf("comment form action %q, topic %q", action, canon)
			}
			for k, want := range map[string]string{"commentform_" + tc.topic + "_submitted": "1", "_contentReply": "1", "csrfKey": strings.Repeat("0", 32)} {
				if vals.Get(k) != want {
					t.Errorf("comment form %s = %q, want %q", k, vals.Get(k), want)
				}
			}
			for _, k := range []string{"MAX_FILE_SIZE", "plupload"} {
				if vals.Get(k) == "" {
					t.Errorf("comment form has no %s", k)
				}
			}
			field := noscriptField(fs)
			if field != "topic_comment_"+tc.topic+"_noscript" {
				t.Errorf("no-script field %q", field)
			}
			h, _ := fs.Html()
			if !strings.Contains(h, `name="`+field+`"`) {
				t.Errorf("the form writes no %s", field)
			}

		})
	}
}

func formValues(fs *goquery.Selection) url.Values {
	v := url.Values{}
	fs.Find("input[name]").Each(func(_ int, s *goquery.Selection) {
		if t := s.AttrOr("type", "text"); (t == "checkbox" || t == "radio") && s.AttrOr("checked", "-") == "-" {
			return
		}
		v.Add(s.AttrOr("name", ""), s.AttrOr("value", ""))
	})
	return v
}

// A Russian board's topic URLs carry a Cyrillic SEO title, percent-encoded (go-piratia.ru:
// topic/230-%D0%B0%D0%B2%D1%82%D0%BE-…/). The fake serves its topic under such a path: the SEO
// redirect, the idle poll of one request at the remembered full URL, a reply posted to the
// form's action and read back, and the topic named by its decoded N-slug id.
func TestCyrillicTopicURL(t *testing.T) {
	const enc = "/forum/topic/34923-%D0%B0%D0%B2%D1%82%D0%BE-%D0%B4%D0%BE%D0%B1%D0%B0%D0%B2%D0%BB%D0%B5%D0%BD%D0%B8%D0%B5-%D1%81%D1%82%D0%B0%D1%82%D0%BE%D0%B2/"
	f := newFakeIPS(t)
	f.slug = enc
	x, _ := member(t, f, nil)
	ctx := context.Background()
	posts, cur, err := x.Posts(ctx, topic, forum.Cursor{})
	if err != nil || len(posts) != 2 {
		t.Fatalf("posts %d, %v", len(posts), err)
	}
	f.resetLog()
	if _, _, err := x.Posts(ctx, topic, cur); err != nil {
		t.Fatal(err)
	}
	if reqs := f.requests(); len(reqs) != 1 || reqs[0] != "GET "+enc+"?do=getLastComment" {
		t.Errorf("idle poll: %v", reqs)
	}
	id, _, err := x.Reply(ctx, topic, "Ход 3")
	if err != nil || id == "" || len(f.posted(enc)) != 1 {
		t.Fatalf("reply: %q %v, forms %v", id, err, f.forms)
	}
	named := forum.Thread{ID: "34923-авто-добавление-статов"}
	got, _, err := x.Posts(ctx, named, cur)
	if err != nil || len(got) != 1 || got[0].ID != id {
		t.Fatalf("read back by the Cyrillic id: %+v %v", got, err)
	}
}

// The real topic list of go-piratia.ru's forum 27 "Lua" (testdata/README.md) read as Section
// reads a forum: 25 topics, the pinned documentation topic first, a Cyrillic title with its
// replies, last poster and time.
func TestRealTopicList(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "topiclist-gopiratia-lua.html"))
	if err != nil {
		t.Fatal(err)
	}
	heads, err := sectionBytes(raw, "text/html; charset=utf-8")
	if err != nil || len(heads) != 25 {
		t.Fatalf("%d heads, %v", len(heads), err)
	}
	if h := heads[0]; h.ID != "125" || h.Title != "Документация Lua" || !h.Sticky || h.Replies != 0 || h.LastPoster != "Go-piratia" {
		t.Errorf("first row: %+v", h)
	}
	if h := heads[1]; h.ID != "141" || h.Title != "[Lua]Создаем свой сундук" || h.Sticky || h.Replies != 2 || h.LastPoster != "MoonBox" ||
		!h.LastAt.Equal(time.Date(2025, 10, 11, 13, 10, 48, 0, time.UTC)) {
		t.Errorf("second row: %+v", h)
	}
	for _, h := range heads[1:] {
		if h.Sticky {
			t.Errorf("only one topic is pinned: %+v", h)
		}
	}
}
