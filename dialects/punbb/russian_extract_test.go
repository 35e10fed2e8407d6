package punbb

import (
	"errors"
	"html"
	"path"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// russianCapture is a board running a real Russian language pack (testdata/forums/<dir>, README
// there): topic 2, pids 2-10 by three users, 5 a page, dated long ago (an absolute date),
// yesterday («Вчера») and today («Сегодня»).
type russianCapture struct {
	dir       string
	now       time.Time // "Сегодня" on the pages
	base      string
	permalink string // the page of the permalink of pid 8 (page 2)
	noPerm    int    // the status of "no permission"
}

var russianCaptures = []russianCapture{
	{"fluxbb15-russian", time.Date(2026, 12, 1, 11, 7, 0, 0, time.UTC), "http://127.0.0.1:18551/", "15-post-permalink-pid8.guest.html", 403},
	{"punbb-russian", time.Date(2026, 12, 1, 11, 11, 0, 0, time.UTC), "http://127.0.0.1:18552/", "15-post-permalink-pid8.guest.html", 200},
}

func (v russianCapture) config() forum.Config {
	return forum.Config{Location: time.UTC, Now: func() time.Time { return v.now }, BaseURL: v.base}
}

func (v russianCapture) pages() []string {
	return []string{"10-thread-p1.guest.html", "11-thread-p2.guest.html", "12-thread-p1.gm-bot.html", "13-thread-p2.gm-bot.html", v.permalink}
}

func TestRussianGolden(t *testing.T) {
	for _, v := range russianCaptures {
		for _, name := range v.pages() {
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

// TestRussianAgainstDatabase checks every post of topic 2 against the engine's database: author
// and id, time to the second whether the page says «Сегодня», «Вчера» or a date, the edit mark
// («Отредактировано …»), code blocks byte for byte, quotes with their authors from «… пишет:»
// (nested and unnamed ones too), and the typed text of markup-free posts.
func TestRussianAgainstDatabase(t *testing.T) {
	for _, v := range russianCaptures {
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
			if len(posts) != 9 {
				t.Fatalf("%d posts, want 9", len(posts))
			}
			var raw struct {
				Posts []rawPost `json:"posts"`
			}
			fixture.Raw(t, v.dir, &raw)
			days := map[string]bool{}
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
				want, _ := time.Parse(time.RFC3339, r.TimeUTC)
				if !p.Time.Equal(want) {
					t.Errorf("pid %d time %v, want %v", r.ID, p.Time, want)
				}
				days[want.Format("2006-01-02")] = true
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
				for _, leak := range []string{"gm-bot — ведущий", "Deus vult", "Отредактировано", "пишет:"} {
					if strings.Contains(p.Text, leak) && !strings.Contains(typed, leak) {
						t.Errorf("pid %d: %q (signature, edit note or cite) in the text: %q", r.ID, leak, p.Text)
					}
				}
			}
			if len(days) != 3 {
				t.Errorf("posts on %d days, want 3 (a date, yesterday, today): %v", len(days), days)
			}
			for id, line := range map[string]string{
				"4": "1-й ход сарацина н2 на G5", "6": "1-й ход крестоносца в1 на C4", "9": "2-й ход сарацина G5 на E4",
			} {
				if !hasLine(posts[id].Text, line) {
					t.Errorf("pid %s: no line %q in %q", id, line, posts[id].Text)
				}
			}
			if p := posts["5"]; len(p.Quotes) != 1 || p.Quotes[0].Author != "snovaya" || p.Quotes[0].Text != "1-й ход сарацина н2 на G5" {
				t.Errorf("pid 5 quote: %+v", p.Quotes)
			}
			// The nested quote: the outer one's author, the inner one kept in its text with its cite
			// (as on the English pages: "Джелу wrote:").
			if p := posts["7"]; len(p.Quotes) != 1 || p.Quotes[0].Author != "gm-bot" ||
				p.Quotes[0].Text != "snovaya пишет:\n1-й ход сарацина н2 на G5\nХод принят." || p.Text != "Спасибо! Следующий ход за мной." {
				t.Errorf("pid 7: %+v / %q", p.Quotes, p.Text)
			}
			if p := posts["9"]; len(p.Quotes) != 1 || p.Quotes[0].Author != "" || p.Quotes[0].Text != "Ходы пишите одной строкой" {
				t.Errorf("pid 9 (a quote without author): %+v", p.Quotes)
			}
			if p := posts["10"]; len(p.Quotes) != 1 || p.Quotes[0].Author != "Джелу" {
				t.Errorf("pid 10 quote: %+v", p.Quotes)
			}
			if p := posts["8"]; p.Text != "Latin и кириллица в одной строке: CHECK и СНЕСК, Deus vult." {
				t.Errorf("pid 8 (look-alike letters, [i]): %q", p.Text)
			}
		})
	}
}

// Pagination in Russian («Страницы», «Вперед»/«Назад» links with rel next/prev), the member
// named on the page, the topic and its forum.
func TestRussianPageInfo(t *testing.T) {
	for _, v := range russianCaptures {
		for _, c := range []struct {
			file      string
			cur, last int
			user      string
		}{
			{"10-thread-p1.guest.html", 1, 2, ""},
			{"11-thread-p2.guest.html", 2, 2, ""},
			{"12-thread-p1.gm-bot.html", 1, 2, "gm-bot"},
			{"13-thread-p2.gm-bot.html", 2, 2, "gm-bot"},
			{v.permalink, 2, 2, ""},
		} {
			p, _, err := parseBytes(decoded(t, fixture.Read(t, v.dir, c.file)), options{Base: mustURL(t, v.base), Now: v.now})
			if err != nil {
				t.Fatal(err)
			}
			prevOK := (c.cur == 1) == (p.PrevURL == "") && (p.PrevURL == "" || idFromHref(p.PrevURL) == "2" && !strings.Contains(p.PrevURL, "p=2"))
			nextOK := (c.cur == 2) == (p.NextURL == "") && (p.NextURL == "" || strings.Contains(p.NextURL, "p=2"))
			if p.TopicID != "2" || p.Current != c.cur || p.Last != c.last || !prevOK || !nextOK || p.User != c.user ||
				p.LoggedIn != (c.user != "") || p.Section != "2" {
				t.Errorf("%s/%s: %+v", v.dir, c.file, p)
			}
		}
	}
}

// The pack's refusals as the engine showed them, typed.
func TestRussianErrors(t *testing.T) {
	for _, v := range russianCaptures {
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
		if err := check("26-reply-noperm.guest.html", v.noPerm); !errors.Is(err, forum.ErrNoPermission) || !errors.Is(err, forum.ErrLoggedOut) {
			t.Errorf("%s no permission: %v", v.dir, err)
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

// FluxBB 1.5.11 with Visman's pack: the flood refusal names the interval and what is left of it
// ("Хотя бы 5 секунд … подождите 1 секунд"): the interval is the wait, as in English; a login
// with a stale csrf_token is refused 404 with 'Bad csrf hash', a reply without Referer with 'Bad
// referrer' (Visman's wording mentions csrf_hash too).
func TestRussianFluxBB15Refusals(t *testing.T) {
	v := russianCaptures[0]
	check := func(name string, status int) error {
		_, doc, _ := parseBytes(decoded(t, fixture.Read(t, v.dir, name)), options{Now: v.now})
		return checkError(doc, status)
	}
	var fe *forum.FloodError
	if err := check("28-reply-error-flood-wait1.gm-bot.html", 200); !errors.As(err, &fe) || fe.Wait != 5*time.Second {
		t.Errorf("flood with 1 s left: %v", err)
	}
	if err := check("04-login-error-badtoken.guest.html", 404); !errors.Is(err, forum.ErrBadToken) {
		t.Errorf("login with a bad token: %v", err)
	}
	if err := check("27-reply-bad-referer.gm-bot.html", 200); !errors.Is(err, forum.ErrBadToken) {
		t.Errorf("reply without Referer: %v", err)
	}
}

// PunBB 1.4.4 with lang/Russian: a login with a stale csrf_token gets the «Подтверждение
// действия» page («Невозможно подтвердить маркер доступа…»), a bad token; a member's reply without
// any csrf_token is taken (the engine checks the token of replies only for admins and
// moderators): its 302 is no error.
func TestRussianPunBB14Refusals(t *testing.T) {
	v := russianCaptures[1]
	check := func(name string, status int) error {
		_, doc, _ := parseBytes(decoded(t, fixture.Read(t, v.dir, name)), options{Now: v.now})
		return checkError(doc, status)
	}
	if err := check("04-login-error-badtoken.guest.html", 200); !errors.Is(err, forum.ErrBadToken) || !strings.Contains(err.Error(), "маркер доступа") {
		t.Errorf("login with a bad token: %v", err)
	}
	if err := check("27-reply-notoken-accepted.gm-bot.html", 302); err != nil {
		t.Errorf("reply without a token (taken): %v", err)
	}
}
