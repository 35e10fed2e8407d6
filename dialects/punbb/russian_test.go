package punbb

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
)

// russianBoards are captures of boards running a real Russian language pack (testdata/forums/<dir>,
// README there): topic 2 holds pids 2-10, 5 a page.
var russianBoards = []oldVersion{
	{dir: "fluxbb15-russian", base: "http://127.0.0.1:18551", referer: true, tokens: true,
		loginPath: "/login.php?action=in", postPath: "/post.php?action=post&tid=2", lastPID: 10, page2From: 7},
	{dir: "punbb-russian", base: "http://127.0.0.1:18552", referer: false, tokens: true,
		loginPath: "/login.php", postPath: "/post.php?tid=2", lastPID: 10, page2From: 7},
}

func newRussianForum(t *testing.T, f *fakeOld, password string) (*Forum, *sleeps) {
	sl := &sleeps{}
	c := forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100, BaseDelay: time.Millisecond,
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
	fm, err := New(forum.Config{BaseURL: f.srv.URL, Username: "gm-bot", Password: password, Location: time.UTC,
		Now: func() time.Time { return time.Date(2026, 12, 1, 11, 7, 0, 0, time.UTC) }}, withClient(c))
	if err != nil {
		t.Fatal(err)
	}
	return fm, sl
}

// End to end on the Russian pages: a wrong password («Неверное имя и/или пароль…», PunBB 1.4
// «Неправильное имя или пароль.») is a bad login; with the right one, a reply from the logged-out
// bot meets «У вас нет прав…» (FluxBB 403, PunBB 200), logs in through the form (a fresh
// csrf_token), is refused by flood control in the pack's words («Хотя бы 5 секунд…», also with
// «подождите 1 секунд» left; PunBB «Должно пройти не менее 5 секунд…») with the interval as the
// wait, and the daemon's next try after it: the success (FluxBB's 200 «Перенаправление» page, PunBB's 302) names the new post.
func TestRussianLoginAndReply(t *testing.T) {
	for _, v := range russianBoards {
		floods := []string{"25b-reply-error-flood.gm-bot.html"}
		if v.dir == "fluxbb15-russian" {
			floods = append(floods, "28-reply-error-flood-wait1.gm-bot.html")
		}
		for _, flood := range floods {
			t.Run(v.dir+"/"+flood, func(t *testing.T) {
				srv := newFakeOld(t, v)
				fm, _ := newRussianForum(t, srv, "WrongPass9")
				if err := fm.Login(context.Background()); !errors.Is(err, forum.ErrBadLogin) {
					t.Fatalf("wrong password: %v", err)
				}
				fm, sl := newRussianForum(t, srv, "GmBotPass1")
				srv.replies = []string{flood, "ok"}
				var id string
				err := sl.send(func() (err error) {
					id, _, err = fm.Reply(context.Background(), forum.Thread{ID: "2"}, "Ход принят: в2 H3 → H4.")
					return err
				})
				if err != nil {
					t.Fatalf("%v\nrequests:\n%s", err, strings.Join(srv.requests(), "\n"))
				}
				if id != "11" {
					t.Errorf("id %q, want 11", id)
				}
				if len(sl.d) != 1 || sl.d[0] != 5*time.Second {
					t.Errorf("sleeps %v, want [5s]", sl.d)
				}
				if len(srv.posts) != 4 {
					t.Fatalf("%d POSTs, want 4 (two logins, two replies): %v", len(srv.posts), srv.requests())
				}
				for i, want := range []string{"WrongPass9", "GmBotPass1"} {
					p := srv.posts[i]
					if p.Get("req_username") != "gm-bot" || p.Get("req_password") != want || p.Get("csrf_token") == "" || p.Get("form_sent") != "1" {
						t.Errorf("login %d fields %v", i, p)
					}
				}
				for i, p := range srv.posts[2:] {
					if p.Get("req_message") != "Ход принят: в2 H3 → H4." || p.Get("form_sent") != "1" || p.Get("submit")+p.Get("submit_button") == "" || p.Has("preview") {
						t.Errorf("reply POST %d fields %v", i, p)
					}
					if !strings.HasPrefix(srv.referers[i+2], srv.srv.URL+"/post.php?tid=2") {
						t.Errorf("reply POST %d Referer %q", i, srv.referers[i+2])
					}
				}
			})
		}
	}
}

// Reading from a cursor on the Russian pages: «Сегодня», «Вчера» and dates all read, pagination
// by «Назад» (rel=prev), the topic list of the forum.
func TestRussianPosts(t *testing.T) {
	for _, v := range russianBoards {
		t.Run(v.dir, func(t *testing.T) {
			srv := newFakeOld(t, v)
			fm, _ := newRussianForum(t, srv, "GmBotPass1")
			for _, c := range []struct {
				after     string
				ids       string
				nRequests int
			}{
				{"", "2 3 4 5 6 7 8 9 10", 3},
				{"7", "8 9 10", 2},
				{"5", "6 7 8 9 10", 3},
				{"10", "", 1},
			} {
				n := len(srv.requests())
				posts, next, err := fm.Posts(context.Background(), forum.Thread{ID: "2"}, forum.Cursor{PostID: c.after})
				if err != nil {
					t.Fatal(err)
				}
				var ids []string
				for _, p := range posts {
					ids = append(ids, p.ID)
					if p.Author == "" || p.Time.IsZero() || len(p.Problems) > 0 {
						t.Errorf("post %+v", p)
					}
				}
				if got := srv.requests()[n:]; strings.Join(ids, " ") != c.ids || next.PostID != "10" || len(got) != c.nRequests {
					t.Errorf("after %q: %v, cursor %+v, requests %v", c.after, ids, next, got)
				}
			}
			if s := fm.SectionOf(forum.Thread{ID: "2"}); s != "2" {
				t.Errorf("section of topic 2: %q", s)
			}
			heads, err := fm.Section(context.Background(), "2")
			if err != nil {
				t.Fatal(err)
			}
			if len(heads) != 1 || heads[0].ID != "2" || heads[0].Title != "Крестовый поход — партия 1" || heads[0].LastPostID != "10" || heads[0].Replies != 8 {
				t.Errorf("section 2: %+v", heads)
			}
		})
	}
}

// A login refused for its csrf_token (FluxBB 1.5: 404 «Неверный CSRF хэш…»; PunBB 1.4: the
// «Подтверждение» page «Невозможно подтвердить маркер доступа…») is retried once with a fresh form.
func TestRussianLoginBadToken(t *testing.T) {
	for _, v := range russianBoards {
		t.Run(v.dir, func(t *testing.T) {
			srv := newFakeOld(t, v)
			srv.logins = []string{"04-login-error-badtoken.guest.html", "ok"}
			fm, _ := newRussianForum(t, srv, "GmBotPass1")
			if err := fm.Login(context.Background()); err != nil {
				t.Fatalf("%v\nrequests:\n%s", err, strings.Join(srv.requests(), "\n"))
			}
			var forms int
			for _, r := range srv.requests() {
				if r == "GET /login.php" {
					forms++
				}
			}
			if len(srv.posts) != 2 || forms != 2 {
				t.Errorf("%d login POSTs, %d forms fetched, want 2 and 2: %v", len(srv.posts), forms, srv.requests())
			}
			srv.logins = []string{"04-login-error-badtoken.guest.html", "04-login-error-badtoken.guest.html"}
			if err := fm.Login(context.Background()); !errors.Is(err, forum.ErrBadToken) {
				t.Errorf("token refused twice: %v", err)
			}
		})
	}
}
