package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"forumgm/sandbox"
)

// A Crusade game played through the daemon on the sandbox forum over loopback HTTP — moves,
// chatter, the day's question drawn at its time, then ended by a moderator's `end` — checks out
// with `forumgm verify URL`, read as a guest, and with `verify --file` on the saved page; the
// saved page with a player's post changed, or with another seed in the final post, fails on that
// post.
func TestVerifyThreadAsGuest(t *testing.T) {
	bin := buildBinary(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, mskZone)
	clockPath := filepath.Join(dir, "clock")
	setClock := func(at time.Time) {
		if err := os.WriteFile(clockPath, []byte(at.Format(time.RFC3339)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	setClock(start)
	users := []sandbox.User{{Name: "Moderator", Password: "p3"}, {Name: "gm-bot", Password: "bot-secret-pw-1"},
		{Name: "Джелу", Password: "p-1"}, {Name: "snovaya", Password: "p-2"}, {Name: "Гость", Password: "p-3"}}
	now := start
	board, url := testBoard(t, sandbox.Options{DBPath: filepath.Join(dir, "board.db"), Now: func() time.Time { return now },
		Location: mskZone, Users: users, FloodSeconds: -1, PMFloodSeconds: -1, MergeMinutes: -1,
		Threads: []sandbox.Thread{{Subject: "Крестовый поход", Posts: []sandbox.SeedPost{{Author: "Moderator", Message: "Тема игры."}}}}})
	cfgPath := filepath.Join(dir, "config.yaml")
	cfg := fmt.Sprintf(`forum: {url: %q, dialect: mybb, thread: "1", timezone: Europe/Moscow}
bot: {username: gm-bot, password_env: FORUMGM_TEST_BOT_PW}
moderators: [Moderator]
game:
  id: cr
  kind: crusade
  start: %q
  timezone: Europe/Moscow
  roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]
store: {path: forumgm.db}
ops: {log_format: json}
`, url+"/", start.Format(time.RFC3339))
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	d := startDaemon(t, bin, cfgPath, clockPath)
	botPosts := func() int {
		ps, err := board.Posts(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, p := range ps {
			if p.Author == "gm-bot" {
				n++
			}
		}
		return n
	}
	d.waitFor(t, "the opening post", func() bool { return botPosts() == 1 })
	posts := []struct{ at, author, text string }{
		{"19:05", "Джелу", "1-й ход крестоносца к1 на K16"},
		{"19:20", "snovaya", "1-й ход сарацина в1 на E6"},
		{"19:45", "Джелу", "всем привет, хорошей игры"},
		{"19:50", "Гость", "а можно посмотреть?"},
		{"20:10", "Джелу", "2-й ход крестоносца к2 на L16"},
	}
	for _, p := range posts {
		at, _ := time.ParseInLocation("15:04", p.at, mskZone)
		now = time.Date(2026, 12, 1, at.Hour(), at.Minute(), 0, 0, mskZone)
		setClock(now)
		before := botPosts()
		if _, _, err := board.Reply(ctx, p.author, 1, p.text); err != nil {
			t.Fatal(err)
		}
		if p.author != "Гость" && !strings.Contains(p.text, "привет") {
			d.waitFor(t, "the reply to "+p.text, func() bool { return botPosts() > before })
		}
	}
	// The day's question is drawn at its time, after the posts above.
	now = time.Date(2026, 12, 1, 21, 20, 0, 0, mskZone)
	before := botPosts()
	setClock(now)
	d.waitFor(t, "the day's question", func() bool { return botPosts() > before })
	var o, e strings.Builder
	if code := run([]string{"review", "--config", cfgPath, "end", "--by", "Moderator", "--reason", "проверка", "--winner", "draw"}, &o, &e); code != 0 {
		t.Fatalf("review end: %d %s %s", code, o.String(), e.String())
	}
	before = botPosts()
	d.waitFor(t, "the final post", func() bool { return botPosts() > before })

	thread := url + "/showthread.php?tid=1"
	verify := func(args ...string) (int, string) {
		var out, errb strings.Builder
		code := run(append([]string{"verify"}, args...), &out, &errb)
		return code, out.String() + errb.String()
	}
	code, out := verify(thread)
	if code != 0 || !strings.Contains(out, "verified") || !strings.Contains(out, "the bot, as the post revealing the seed names it: gm-bot") {
		t.Fatalf("the honest game, as a guest reads it: exit %d\n%s", code, out)
	}
	for _, want := range []string{"chain post 1: post", "chain post 4: post", "draw 0 (after post", "the game's setup in the final post", "fixes no chance"} {
		if !strings.Contains(out, want) {
			t.Errorf("the check lacks %q:\n%s", want, out)
		}
	}

	// The saved pages (the thread runs over several): honest, then tampered.
	var pages []string
	for n := 1; n <= 4; n++ {
		resp, err := http.Get(fmt.Sprintf("%s&page=%d", thread, n))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		pages = append(pages, string(b))
	}
	saveAll := func(name string, edit func(string) string) []string {
		var args []string
		for i, html := range pages {
			p := filepath.Join(dir, fmt.Sprintf("%s-%d.html", name, i+1))
			if err := os.WriteFile(p, []byte(edit(html)), 0o644); err != nil {
				t.Fatal(err)
			}
			args = append(args, "--file", p)
		}
		return args
	}
	same := func(s string) string { return s }
	if code, out := verify(append([]string{"--dialect", "mybb"}, saveAll("page", same)...)...); code != 0 || !strings.Contains(out, "verified") {
		t.Fatalf("the saved honest pages: exit %d\n%s", code, out)
	}
	if code, out := verify(saveAll("detected", same)...); code != 0 {
		t.Fatalf("the saved pages, their dialect recognised: exit %d\n%s", code, out)
	}
	page := []byte(strings.Join(pages, ""))
	if !strings.Contains(string(page), "всем привет, хорошей игры") || !strings.Contains(string(page), "Зерно партии: ") {
		t.Fatal("the pages lack the chatter post or the final post")
	}
	code, out = verify(saveAll("changed", func(s string) string {
		return strings.Replace(s, "всем привет, хорошей игры", "всем привет, хорошей игры!", 1)
	})...)
	if code == 0 || !firstFail(out, "chain post 3: post") {
		t.Errorf("a player's post changed: exit %d\n%s", code, out)
	}
	code, out = verify(saveAll("swapped", func(s string) string {
		s = strings.Replace(s, "1-й ход сарацина в1 на E6", "@@", 1)
		s = strings.Replace(s, "1-й ход крестоносца к1 на K16", "1-й ход сарацина в1 на E6", 1)
		return strings.Replace(s, "@@", "1-й ход крестоносца к1 на K16", 1)
	})...)
	if code == 0 || !firstFail(out, "chain post 1: post") {
		t.Errorf("two posts swapped: exit %d\n%s", code, out)
	}
	code, out = verify(saveAll("seed", func(s string) string {
		i := strings.LastIndex(s, "Зерно партии: ")
		if i < 0 {
			return s
		}
		return s[:i] + "Зерно партии: 0" + s[i+len("Зерно партии: "):]
	})...)
	if code == 0 || !firstFail(out, "commitment") {
		t.Errorf("another seed: exit %d\n%s", code, out)
	}
	code, out = verify(saveAll("setting", func(s string) string {
		i := strings.Index(s, "Настройки партии:")
		if i < 0 {
			return s
		}
		return s[:i] + strings.Replace(s[i:], "crusaders", "saracens", 1)
	})...)
	if code == 0 || !firstFail(out, "the game's setup in the final post") {
		t.Errorf("a setting changed: exit %d\n%s", code, out)
	}
	code, out = verify(saveAll("face", func(s string) string {
		return regexpFirstDraw.ReplaceAllStringFunc(s, func(d string) string {
			m := regexpFirstDraw.FindStringSubmatch(d)
			v := map[bool]string{true: "1", false: "0"}[m[2] == "0"]
			return "0:" + m[1] + ":" + v + "@"
		})
	})...)
	if code == 0 || !firstFail(out, "draw 0 (after post") {
		t.Errorf("a face changed: exit %d\n%s", code, out)
	}
}

// regexpFirstDraw is the final post's first draw (number 0): its bound and value.
var regexpFirstDraw = regexp.MustCompile(`\b0:(\d+):(\d+)@`)

// firstFail reports whether the first FAIL line of a report holds want.
func firstFail(out, want string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "FAIL") {
			return strings.Contains(l, want)
		}
	}
	return false
}
