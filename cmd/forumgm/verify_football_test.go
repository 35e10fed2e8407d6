package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"forumgm/fairness"
	"forumgm/internal/chrome"
	"forumgm/sandbox"
)

// A football game played through the daemon on the sandbox forum over loopback HTTP and ended by
// its rules (turns_max) checks out with `forumgm verify URL` read as a guest; the saved pages with
// one face of the die table changed fail on that draw. The final post links the draws file from
// the pictures folder the daemon serves (the sandbox, like MyBB, takes only pictures as
// attachments) beside the check page: in Debian's chromium, the page opened from the final post's
// link with that file chosen passes every chain post and draw; the file with a face changed fails
// that draw.
func TestVerifyFootballThreadAsGuest(t *testing.T) {
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
	users := []sandbox.User{{Name: "Moderator", Password: "p3"}, {Name: "gm-bot", Password: "bot-secret-pw-1"}}
	for _, u := range []string{"Вася", "Петя", "Гоша", "Оля", "Катя", "Миша", "Дима", "Лена"} {
		users = append(users, sandbox.User{Name: u, Password: "p-" + u})
	}
	now := start
	board, url := testBoard(t, sandbox.Options{DBPath: filepath.Join(dir, "board.db"), Now: func() time.Time { return now },
		Location: mskZone, Users: users, FloodSeconds: -1, PMFloodSeconds: -1, MergeMinutes: -1,
		Threads: []sandbox.Thread{{Subject: "Футбол", Posts: []sandbox.SeedPost{{Author: "Moderator", Message: "Тема игры."}}}}})
	pics := freeAddr(t)
	cfgPath := filepath.Join(dir, "config.yaml")
	cfg := fmt.Sprintf(`forum: {url: %q, dialect: mybb, thread: "1", timezone: Europe/Moscow}
bot: {username: gm-bot, password_env: FORUMGM_TEST_BOT_PW}
moderators: [Moderator]
game:
  id: fb
  kind: football
  start: %q
  timezone: Europe/Moscow
  teams:
    - {name: Команда 1, captain: Вася, members: [Петя]}
    - {name: Команда 2, captain: Гоша, members: [Оля]}
    - {name: Команда 3, captain: Катя, members: [Миша]}
    - {name: Команда 4, captain: Дима, members: [Лена]}
  board: default
  settings: {first_turn: "2026-12-01T19:00:00+03:00", turn_every: 30m, window: 10m, question_time: 10m, turns_early: 2, turns_max: 2}
attachments: {dir: pics, public_url: "http://%s/", listen: %q}
store: {path: forumgm.db}
ops: {log_format: json}
`, url+"/", start.Format(time.RFC3339), pics, pics)
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	d := startDaemon(t, bin, cfgPath, clockPath)
	botPosts := func() []sandbox.StoredPost {
		ps, err := board.Posts(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		var out []sandbox.StoredPost
		for _, p := range ps {
			if p.Author == "gm-bot" {
				out = append(out, p)
			}
		}
		return out
	}
	d.waitFor(t, "the opening post", func() bool { return len(botPosts()) >= 1 })
	at := func(hhmm string) {
		tm, _ := time.ParseInLocation("15:04", hhmm, mskZone)
		now = time.Date(2026, 12, 1, tm.Hour(), tm.Minute(), 0, 0, mskZone)
		setClock(now)
	}
	posts := []struct{ at, author, text string }{
		{"19:01", "Петя", "Бросаю 11"},
		{"19:02", "Оля", "Бросаю 37"},
		{"19:03", "Миша", "Бросаю 44"},
		{"19:04", "Лена", "кубик 20"},
		{"19:05", "Петя", "всем удачи!"},
		{"19:31", "Петя", "Бросаю 12"},
		{"19:32", "Оля", "Бросаю 38"},
		{"19:33", "Миша", "Бросаю 45"},
		{"19:34", "Лена", "Бросаю 21"},
	}
	for _, p := range posts {
		at(p.at)
		before := len(botPosts())
		if _, _, err := board.Reply(ctx, p.author, 1, p.text); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(p.text, "удачи") {
			d.waitFor(t, "the reply to "+p.text, func() bool { return len(botPosts()) > before })
		}
	}
	final := func() string {
		for _, p := range botPosts() {
			if strings.Contains(p.Message, "Зерно партии: ") {
				return p.Message
			}
		}
		return ""
	}
	for _, hhmm := range []string{"19:45", "20:00", "20:30"} {
		if final() != "" {
			break
		}
		at(hhmm)
		time.Sleep(time.Second)
	}
	d.waitFor(t, "the final post", func() bool { return final() != "" })
	last := final()
	if !strings.Contains(last, "Игра окончена") {
		t.Fatalf("the game did not end by its rules:\n%s", last)
	}

	thread := url + "/showthread.php?tid=1"
	verify := func(args ...string) (int, string) {
		var out, errb strings.Builder
		code := run(append([]string{"verify"}, args...), &out, &errb)
		return code, out.String() + errb.String()
	}
	code, out := verify(thread)
	if code != 0 || !strings.Contains(out, "verified") {
		t.Fatalf("the honest game, as a guest reads it: exit %d\n%s", code, out)
	}
	for _, want := range []string{"chain post 9: post", "draw 0 (after post ", "fixes no chance"} {
		if !strings.Contains(out, want) {
			t.Errorf("the check lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "after the chain's start") {
		t.Errorf("a draw made before any player post (the start's draws wait for the first one):\n%s", out)
	}
	var pages []string
	for n := 1; ; n++ {
		resp, err := http.Get(fmt.Sprintf("%s&page=%d", thread, n))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if n > 1 && string(b) == pages[len(pages)-1] || n > 10 {
			break
		}
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
	if code, out := verify(saveAll("page", func(s string) string { return s })...); code != 0 {
		t.Fatalf("the saved honest pages: exit %d\n%s", code, out)
	}
	// The first face of the first table (draw 0, bound 6) changed in the final post's list.
	code, out = verify(saveAll("face", func(s string) string {
		return regexpFirstDraw.ReplaceAllStringFunc(s, func(d string) string {
			m := regexpFirstDraw.FindStringSubmatch(d)
			v := map[bool]string{true: "1", false: "0"}[m[2] == "0"]
			return "0:" + m[1] + ":" + v + "@"
		})
	})...)
	if code == 0 || !firstFail(out, "draw 0 (after post ") {
		t.Errorf("a face changed: exit %d\n%s", code, out)
	}

	// The final post links the check page and the draws file, both served by the daemon.
	check := regexp.MustCompile(`\[url=(http://` + regexp.QuoteMeta(pics) + `/[0-9a-f]{32}\.html#[^\]]+)\]страница проверки\[/url\]`).FindStringSubmatch(last)
	file := regexp.MustCompile(`\[url=(http://` + regexp.QuoteMeta(pics) + `/[0-9a-f]{32}\.json)\]draws\.json\[/url\]`).FindStringSubmatch(last)
	if check == nil || file == nil || !strings.Contains(last, "Файл розыгрышей для страницы проверки") {
		t.Fatalf("the final post lacks the check page's or the draws file's link:\n%s", last)
	}
	resp, err := http.Get(file[1])
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var f fairness.File
	if err := json.Unmarshal(data, &f); err != nil || resp.StatusCode != 200 {
		t.Fatalf("the draws file: %d %v\n%s", resp.StatusCode, err, data)
	}
	if len(f.Chain) != 9 || len(f.Draws) < 116 || len(f.Check(f.Commitment)) != 0 || !strings.Contains(last, f.Commitment) {
		t.Fatalf("the draws file: %d chain posts, %d draws, problems %v", len(f.Chain), len(f.Draws), f.Check(f.Commitment))
	}

	// The file the final post carries is the one the operator's check writes from the store.
	stored := filepath.Join(dir, "stored.json")
	if code, out := verify("--config", cfgPath, "--draws", stored); code != 0 {
		t.Fatalf("verify --config: exit %d\n%s", code, out)
	}
	sb, err := os.ReadFile(stored)
	if err != nil {
		t.Fatal(err)
	}
	var fromStore fairness.File
	if err := json.Unmarshal(sb, &fromStore); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f, fromStore) {
		t.Errorf("the final post's draws file differs from the store's:\n%s\n---\n%s", data, sb)
	}

	b := chrome.Start(t, 3*time.Minute)
	p := b.MustPage(check[1]).MustWaitLoad()
	choose := func(name string, data []byte) (rows []string, summary string) {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		p.MustEval(`() => { const r = document.getElementById("result"); r.textContent = ""; }`)
		p.MustElement("#file").MustSetFiles(path)
		summary = p.MustElement("#summary").MustText()
		for _, tr := range p.MustElements("#draws-result tr[id^=draw-]") {
			rows = append(rows, *tr.MustAttribute("class"))
		}
		for _, tr := range p.MustElements("#chain-result tr[id^=chain-]") {
			if c := *tr.MustAttribute("class"); c != "ok" {
				rows = append(rows, "chain:"+c)
			}
		}
		if c := p.MustElement("#commitment-result").MustText(); !strings.Contains(c, "совпадает") {
			rows = append(rows, "commitment:"+c)
		}
		return rows, summary
	}
	rows, summary := choose("draws.json", data)
	if len(rows) != len(f.Draws) || strings.Contains(strings.Join(rows, " "), "fail") || !strings.Contains(summary, "Все розыгрыши") {
		t.Fatalf("the honest draws file in the page: %d rows of %d draws, %v, %q", len(rows), len(f.Draws), rows, summary)
	}
	bad := f
	bad.Draws = append([]fairness.Draw(nil), f.Draws...)
	bad.Draws[0].Value = (bad.Draws[0].Value + 1) % bad.Draws[0].Bound
	tampered, err := bad.JSON()
	if err != nil {
		t.Fatal(err)
	}
	rows, summary = choose("tampered.json", tampered)
	for i, r := range rows {
		if want := map[bool]string{true: "fail", false: "ok"}[i == 0]; r != want {
			t.Errorf("a face changed in the file: row %d is %s", i+1, r)
		}
	}
	if !strings.Contains(summary, "Не сходятся 1 из") {
		t.Errorf("a face changed in the file: %q", summary)
	}
}
