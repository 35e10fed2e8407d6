package punbb

import (
	"errors"
	"html"
	"net/url"
	"path"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// versionCapture is a topic captured on a local install of an older engine (testdata/forums/<dir>,
// README there): the same 16 posts as the PunBB 1.4.4 capture, pids 2-17, 8 a page.
type versionCapture struct {
	dir     string
	now     time.Time // "Today" on the pages
	base    string    // the board's URL, as absolute links show it
	absLink bool      // permalinks are absolute in the page (PunBB 1.3)
}

var versionCaptures = []versionCapture{
	{"punbb13", time.Date(2026, 12, 1, 9, 48, 0, 0, time.UTC), "http://127.0.0.1:18510/", true},
	{"fluxbb12", time.Date(2026, 12, 1, 9, 48, 0, 0, time.UTC), "http://127.0.0.1:18520/", false},
	{"fluxbb14", time.Date(2026, 12, 1, 9, 48, 0, 0, time.UTC), "http://127.0.0.1:18540/", false},
	{"fluxbb15", time.Date(2026, 12, 1, 9, 48, 0, 0, time.UTC), "http://127.0.0.1:18550/", false},
}

func (v versionCapture) config() forum.Config {
	return forum.Config{Location: time.UTC, Now: func() time.Time { return v.now }, BaseURL: v.base}
}

func TestVersionGolden(t *testing.T) {
	for _, v := range versionCaptures {
		for _, name := range append(extractPages[:len(extractPages):len(extractPages)], "30-thread-guestpost.guest.html") {
			t.Run(v.dir+"/"+name, func(t *testing.T) {
				posts, err := extract(fixture.Read(t, v.dir, name), "", v.config())
				if err != nil {
					t.Fatal(err)
				}
				fixture.Golden(t, path.Join(v.dir, strings.TrimSuffix(name, ".html")+".json"), posts, *update)
			})
		}
	}
}

// TestVersionsAgainstDatabase checks every post of each capture against the engine's database:
// author and id, time to the second, edit mark, code block byte for byte, quotes, the typed text of
// markup-free posts (PunBB 1.2's windows-1251 board keeps what the charset lacks as &#NNNN;, which
// the page shows as the character), the move lines and the nested quote.
func TestVersionsAgainstDatabase(t *testing.T) {
	for _, v := range versionCaptures {
		t.Run(v.dir, func(t *testing.T) {
			posts := map[string]forum.Post{}
			for _, name := range []string{"10-thread-p1.guest.html", "11-thread-p2.guest.html"} {
				ps, err := extract(fixture.Read(t, v.dir, name), "", v.config())
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range ps {
					if len(p.Problems) > 0 {
						t.Errorf("pid %s problems %q", p.ID, p.Problems)
					}
					posts[p.ID] = p
				}
			}
			if len(posts) != 16 {
				t.Fatalf("%d posts, want 16", len(posts))
			}
			var raw struct {
				Posts []rawPost `json:"posts"`
			}
			fixture.Raw(t, v.dir, &raw)
			for _, r := range raw.Posts {
				if r.Topic != 2 {
					continue
				}
				id := strconv.Itoa(r.ID)
				p, ok := posts[id]
				if !ok {
					t.Errorf("pid %d missing", r.ID)
					continue
				}
				typed := html.UnescapeString(r.Message)
				if p.Author != r.Poster || p.AuthorID != strconv.Itoa(r.PosterID) {
					t.Errorf("pid %d author %q/%q, want %q/%d", r.ID, p.Author, p.AuthorID, r.Poster, r.PosterID)
				}
				if want, _ := time.Parse(time.RFC3339, r.TimeUTC); !p.Time.Equal(want) {
					t.Errorf("pid %d time %v, want %v", r.ID, p.Time, want)
				}
				if p.Edited != (r.Edited != nil) {
					t.Errorf("pid %d edited %v, database %v", r.ID, p.Edited, r.Edited)
				}
				if c := codeBlock(typed); c != "" {
					if len(p.Code) != 1 || p.Code[0] != c || !strings.Contains(p.Text, c) {
						t.Errorf("pid %d code block not intact:\n got %q\nwant %q", r.ID, p.Code, c)
					}
				} else if len(p.Code) != 0 {
					t.Errorf("pid %d has code %q, database has none", r.ID, p.Code)
				}
				if strings.Contains(typed, "[quote") != (len(p.Quotes) > 0) {
					t.Errorf("pid %d quotes %v vs raw %q", r.ID, p.Quotes, typed)
				}
				if p.Permalink != v.base+"viewtopic.php?pid="+id+"#p"+id {
					t.Errorf("pid %d permalink %q", r.ID, p.Permalink)
				}
				if !strings.ContainsAny(typed, "[:;") && p.Text != typed {
					t.Errorf("pid %d text %q, typed %q", r.ID, p.Text, typed)
				}
				if strings.Contains(p.Text, "gm-bot — ведущий") || strings.Contains(p.Text, "Deus vult") || strings.Contains(p.Text, "edited by") {
					t.Errorf("pid %d: signature or edit note in the text: %q", r.ID, p.Text)
				}
			}
			for id, line := range map[string]string{
				"4": "1-й ход сарацина н2 на G5", "7": "1-й ход крестоносца в1 на C4", "9": "gl hf. 2-й ход сарацина н1 на D6",
				"11": "2-й ход крестоносца в1 на Z9", "14": "2-й ход крестоносца в2 на H4", "16": "3-й ход сарацина н2 на F4",
			} {
				if !hasLine(posts[id].Text, line) {
					t.Errorf("pid %s: no line %q in %q", id, line, posts[id].Text)
				}
			}
			p5 := posts["5"]
			if len(p5.Quotes) != 1 || p5.Quotes[0].Author != "snovaya" || p5.Quotes[0].Text != "Играю за сарацин, поехали.\n\n1-й ход сарацина н2 на G5" {
				t.Errorf("pid 5 quote: %+v", p5.Quotes)
			}
			p13 := posts["13"]
			if len(p13.Quotes) != 1 || p13.Quotes[0].Author != "gm-bot" ||
				!strings.Contains(p13.Quotes[0].Text, "2-й ход крестоносца в1 на Z9") ||
				!strings.Contains(p13.Quotes[0].Text, "Ход отклонён: клетки Z9 нет на доске") ||
				p13.Text != "Джелу, проверяй координаты перед отправкой ;)" {
				t.Errorf("pid 13: %+v / %q", p13.Quotes, p13.Text)
			}
			if posts["3"].Text != "Играю за крестоносцев. Готов! Удачи, snovaya :)" {
				t.Errorf("pid 3 (smiley): %q", posts["3"].Text)
			}
		})
	}
}

func TestVersionPageInfo(t *testing.T) {
	for _, v := range versionCaptures {
		for _, c := range []struct {
			file      string
			cur, last int
			prev      string
			user      string
		}{
			{"10-thread-p1.guest.html", 1, 2, "", ""},
			{"12-thread-p1.gm-bot.html", 1, 2, "", "gm-bot"},
			{"13-thread-p2.gm-bot.html", 2, 2, "page 1", "gm-bot"},
			{"15-post-permalink-pid12.guest.html", 2, 2, "page 1", ""},
		} {
			u := mustURL(t, v.base)
			p, _, err := parseBytes(decoded(t, fixture.Read(t, v.dir, c.file)), options{Base: u, Now: v.now})
			if err != nil {
				t.Fatal(err)
			}
			prevOK := (c.prev == "") == (p.PrevURL == "") && (p.PrevURL == "" || idFromHref(p.PrevURL) == "2" && !strings.Contains(p.PrevURL, "p=2"))
			if p.TopicID != "2" || p.Current != c.cur || p.Last != c.last || !prevOK || p.User != c.user || p.LoggedIn != (c.user != "") {
				t.Errorf("%s/%s: %+v", v.dir, c.file, p)
			}
		}
	}
}

func TestVersionErrors(t *testing.T) {
	for _, v := range versionCaptures {
		check := func(name string, status int) error {
			_, doc, err := parseBytes(decoded(t, fixture.Read(t, v.dir, name)), options{Now: v.now})
			if doc == nil {
				t.Fatalf("%s/%s: %v", v.dir, name, err)
			}
			return checkError(doc, status)
		}
		var fe *forum.FloodError
		if err := check("25b-reply-error-flood.gm-bot.html", 200); !errors.As(err, &fe) || fe.Wait != 5*time.Second {
			t.Errorf("%s flood: %v", v.dir, err)
		}
		if err := check("24-reply-error-empty.gm-bot.html", 200); !errors.Is(err, forum.ErrTooShort) {
			t.Errorf("%s empty: %v", v.dir, err)
		}
		if err := check("03-login-error.guest.html", 200); !errors.Is(err, forum.ErrBadLogin) {
			t.Errorf("%s login: %v", v.dir, err)
		}
		status := 200
		if strings.HasPrefix(v.dir, "fluxbb1") && v.dir != "fluxbb12" {
			status = 403
		}
		if err := check("26-reply-noperm.guest.html", status); !errors.Is(err, forum.ErrNoPermission) || !errors.Is(err, forum.ErrLoggedOut) {
			t.Errorf("%s no permission: %v", v.dir, err)
		}
		if v.dir == "fluxbb14" || v.dir == "fluxbb15" {
			if err := check("27-reply-bad-referer.gm-bot.html", 200); !errors.Is(err, forum.ErrBadToken) {
				t.Errorf("%s bad referer: %v", v.dir, err)
			}
		}
		for _, ok := range []string{"17-index.gm-bot.html", "10-thread-p1.guest.html", "20-reply-form.gm-bot.html", "22-reply-success.gm-bot.html", "02-login-success.gm-bot.html"} {
			if err := check(ok, 200); err != nil {
				t.Errorf("%s/%s: %v", v.dir, ok, err)
			}
		}
		for _, name := range []string{"16-viewforum-fid2.guest.html", "18-index.guest.html", "20-reply-form.gm-bot.html"} {
			if _, err := extract(fixture.Read(t, v.dir, name), "", v.config()); !errors.Is(err, forum.ErrMarkupChanged) {
				t.Errorf("%s/%s: %v", v.dir, name, err)
			}
		}
	}
}

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// decoded is a captured page as UTF-8 (FluxBB 1.2's board is windows-1251, named in its meta).
func decoded(t testing.TB, raw []byte) []byte {
	t.Helper()
	body, _, err := forum.Decode(raw, "")
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// codeBlock is the text of the [code] block of a stored message: PunBB 1.2 stores it without the
// line break after [code] that 1.3+ keep.
func codeBlock(raw string) string {
	i := strings.Index(raw, "[code]")
	j := strings.Index(raw, "[/code]")
	if i < 0 || j < i {
		return ""
	}
	return strings.TrimSuffix(strings.TrimPrefix(raw[i+len("[code]"):j], "\n"), "\n")
}

// A guest's post (a name without a profile link: PunBB 1.3's byline <strong>, the blockposts'
// dt > strong) has its author and no author id, and no problem.
func TestVersionGuestPost(t *testing.T) {
	for _, v := range versionCaptures {
		posts, err := extract(fixture.Read(t, v.dir, "30-thread-guestpost.guest.html"), "", v.config())
		if err != nil {
			t.Fatalf("%s: %v", v.dir, err)
		}
		if len(posts) != 2 || posts[0].ID != "19" || posts[0].Author != "gm-bot" || posts[0].AuthorID != "3" ||
			posts[1].ID != "20" || posts[1].Author != "Гость Вася" || posts[1].AuthorID != "" || len(posts[1].Problems) != 0 ||
			posts[1].Text != "Можно мне за крестоносцев? Я новенький." || posts[1].Time.IsZero() {
			t.Errorf("%s: %+v", v.dir, posts)
		}
	}
}

// On blockposts too, an unreadable part costs that part: dates nobody can read leave every post
// with a "time:" problem and the rest as read from the intact page; profile links gone leave the
// authors' names (dt > strong) without ids.
func TestBlockpostPartLost(t *testing.T) {
	v := versionCaptures[2] // FluxBB 1.4
	page := string(fixture.Read(t, v.dir, "11-thread-p2.guest.html"))
	intact, err := extract([]byte(page), "", v.config())
	if err != nil {
		t.Fatal(err)
	}
	got, err := extract([]byte(strings.ReplaceAll(page, `>Today 09:4`, `>someday`)), "", v.config())
	if err != nil || len(got) != len(intact) {
		t.Fatalf("dates unreadable: %d posts, %v", len(got), err)
	}
	for i, p := range got {
		if len(p.Problems) != 1 || !strings.HasPrefix(p.Problems[0].String(), "time: ") {
			t.Errorf("post %s problems %q", p.ID, p.Problems)
		}
		p.Problems, p.Time = nil, intact[i].Time
		if !reflect.DeepEqual(p, intact[i]) {
			t.Errorf("post %s differs beyond its date: %+v", p.ID, p)
		}
	}
	got, err = extract([]byte(strings.ReplaceAll(page, `<a href="profile.php?id=`, `<a href="user.php?u=`)), "", v.config())
	if err != nil || len(got) != len(intact) {
		t.Fatalf("profile links gone: %d posts, %v", len(got), err)
	}
	for i, p := range got {
		if p.Author != intact[i].Author || p.AuthorID != "" || len(p.Problems) != 0 {
			t.Errorf("post %s: author %q id %q problems %q", p.ID, p.Author, p.AuthorID, p.Problems)
		}
	}
}
