package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"forumgm/internal/fixture"
)

// capturedBoard serves the pages captured from a real MyBB 1.8.37 as the bot saw them
// (testdata/forums/mybb/section): before the bot was made a moderator of the forum ("member"),
// after ("moderator"), and after its close and stick rights were taken ("moderator-noclose").
func capturedBoard(t *testing.T, as string) *httptest.Server {
	t.Helper()
	dir := filepath.Join(fixture.Dir(t, "mybb"), "section")
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		send := func(name string) {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Error(err)
				http.NotFound(w, r)
				return
			}
			if strings.HasSuffix(name, ".json") {
				w.Header().Set("Content-Type", "application/json; charset=UTF-8")
			} else {
				w.Header().Set("Content-Type", "text/html; charset=UTF-8")
			}
			w.Write(bytes.ReplaceAll(b, []byte("http://127.0.0.1:18437"), []byte(srv.URL)))
		}
		pick := func(member, mod string) string {
			if as != "member" {
				return mod
			}
			return member
		}
		_, err := r.Cookie("mybbuser")
		in := err == nil
		q := r.URL.Query()
		switch {
		case r.URL.Path == "/member.php" && r.Method == http.MethodPost:
			http.SetCookie(w, &http.Cookie{Name: "mybbuser", Value: "2_key", Path: "/"})
			send("30-login-success.gm-bot.html")
		case r.URL.Path == "/member.php":
			send("29-login-form.guest.html")
		case !in:
			t.Errorf("%s before the login", r.URL)
			http.NotFound(w, r)
		case r.URL.Path == "/showthread.php" && q.Get("tid") == "2" && q.Get("page") == "":
			if as == "moderator-noclose" {
				send("37-showthread-tid2.gm-bot.moderator-noclose-nostick.html")
				return
			}
			send(pick("05-showthread-tid2.gm-bot.html", "21-showthread-tid2.gm-bot.moderator.html"))
		case r.URL.Path == "/forumdisplay.php" && q.Get("fid") == "2":
			send(pick("03-forumdisplay-fid2.gm-bot.html", "22-forumdisplay-fid2.gm-bot.moderator.html"))
		case r.URL.Path == "/private.php" && q.Get("action") == "":
			send("31-pm-inbox.gm-bot.moderator.html")
		case r.URL.Path == "/private.php" && q.Get("action") == "read" && q.Get("pmid") == "5":
			send("32-pm-read-pmid5.gm-bot.moderator.html")
		case r.URL.Path == "/xmlhttp.php" && q.Get("query") == "Джелу":
			send("33-get-users-dzhelu.json")
		case r.URL.Path == "/xmlhttp.php" && q.Get("query") == "snovaya":
			send("34-get-users-snovaya.json")
		case r.Method != http.MethodGet:
			t.Errorf("forum-check posted: %s %s", r.Method, r.URL)
			http.Error(w, "no", http.StatusForbidden)
		default:
			t.Errorf("unexpected request %s", r.URL)
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// forum-check on a real MyBB's pages: whether the flood check applies to the bot (the thread
// page's moderation tools, shown to the forum's moderators only), the merging note, and the
// thread's section with its thread list.
func TestForumCheckFloodOnCapturedPages(t *testing.T) {
	t.Setenv("FORUMGM_TEST_FC_PW", "GmBotPass1")
	for _, c := range []struct {
		as   string
		want []string
	}{
		{"member", []string{
			"flood control: applies to the bot (the thread page shows the bot no moderation tools",
			"make the bot a moderator of the game's forum",
			"section 2: 4 threads on its first page; the game's thread listed, 3 replies, last post by snovaya at 2026-12-01 07:33",
		}},
		{"moderator", []string{
			"flood control: the bot is exempt (the thread page shows the bot the moderation tools",
			"section 2: 4 threads on its first page; the game's thread listed, 4 replies, last post by gm-bot at 2026-12-01 07:35",
		}},
		{"moderator-noclose", []string{
			"flood control: the bot is exempt (the thread page shows the bot the moderation tools",
		}},
	} {
		t.Run(c.as, func(t *testing.T) {
			srv := capturedBoard(t, c.as)
			p := filepath.Join(t.TempDir(), "game.yaml")
			src := fmt.Sprintf(`forum: {url: %q, dialect: mybb, thread: "2", extra: {rate: "50"}}
bot: {username: gm-bot, password_env: FORUMGM_TEST_FC_PW}
game:
  kind: crusade
  roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]
`, srv.URL+"/")
			if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			if code := run([]string{"forum-check", "--config", p}, &out, &errb); code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
			}
			want := append([]string{"login as gm-bot: OK", "thread 2: ", "merging: no merged post of the bot",
				"inbox: 1 messages", "player Джелу: exists", "player snovaya: exists", "nothing was posted"}, c.want...)
			for _, w := range want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}
