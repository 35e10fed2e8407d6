package public

import (
	"context"
	"html/template"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

func get(t testing.TB, e *env, path string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// TestGamePages plays each game's example to its end and reads its page: the position drawn by
// the game, the standings, the story linking the thread's posts, the revealed seed with the check
// one click away, and a moment replayed from the log.
func TestGamePages(t *testing.T) {
	for _, c := range []struct {
		name, path string
		want       []string // in the page at the end
	}{
		{"crusade", "games/crusade/examples/crusade-flag.yaml", []string{`<table class="board crusade"`, `class="forest`, "Крестоносцы", `id="standings"`}},
		{"dragonball", "games/dragonball/examples/dragonball-score.yaml", []string{`<table class="players dragonball"`, `../../g/g1/pic/round-`, "Очки"}},
		{"football", "games/football/examples/football-twelve.yaml", []string{`class="football-ring fside-9"`, "Забито", "итоговая таблица"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, c.path)
			e.play(t, -1)
			resp, body := get(t, e, "/g/g1/")
			if resp.StatusCode != 200 {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			for _, w := range c.want {
				if !strings.Contains(body, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			if !strings.Contains(body, `id="seed"`) || !strings.Contains(body, `href="../../check#c=`) {
				t.Errorf("an ended game's page lacks the revealed seed and the check link")
			}
			if !strings.Contains(body, `href="http://forum.invalid/showthread.php?pid=101#pid101"`) {
				t.Errorf("the story does not link the opening post")
			}
			for _, h := range []string{"Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy", "ETag"} {
				if resp.Header.Get(h) == "" {
					t.Errorf("no %s header", h)
				}
			}
			if resp.Header.Get("Set-Cookie") != "" {
				t.Errorf("a cookie was set")
			}
			// The same page again: 304 for the client that has it.
			if r2, _ := get(t, e, "/g/g1/", "If-None-Match", resp.Header.Get("ETag")); r2.StatusCode != http.StatusNotModified {
				t.Errorf("If-None-Match: status %d, want 304", r2.StatusCode)
			}
			// The pictures the page shows are served (PNG).
			for _, m := range regexp.MustCompile(`src="\.\./\.\.(/g/g1/pic/[^"]+)"`).FindAllStringSubmatch(body, -1) {
				r, b := get(t, e, m[1])
				if r.StatusCode != 200 || r.Header.Get("Content-Type") != "image/png" || !strings.HasPrefix(b, "\x89PNG") {
					t.Errorf("%s: status %d, type %s", m[1], r.StatusCode, r.Header.Get("Content-Type"))
				}
			}
			// A moment links from the story and opens as it stood.
			m := regexp.MustCompile(`href="\.\./\.\.(/g/g1/at/\d+)"`).FindStringSubmatch(body)
			if m == nil {
				t.Fatal("no moment link in the story")
			}
			if r3, b3 := get(t, e, m[1]); r3.StatusCode != 200 || !strings.Contains(b3, `id="moment"`) || strings.Contains(b3, `id="seed"`) {
				t.Errorf("moment %s: status %d, moment banner %v, seed shown %v", m[1], r3.StatusCode, strings.Contains(b3, `id="moment"`), strings.Contains(b3, `id="seed"`))
			}
			if r4, b4 := get(t, e, "/"); r4.StatusCode != 200 || !strings.Contains(b4, `href="g/g1/"`) {
				t.Errorf("list: status %d, game linked %v", r4.StatusCode, strings.Contains(b4, `href="g/g1/"`))
			}
			for _, p := range []string{"/g/nope/", "/g/g1/at/99999", "/admin", "/g/g1/pic/nope.png", "/g/g1"} {
				if r5, _ := get(t, e, p); r5.StatusCode != http.StatusNotFound {
					t.Errorf("%s: status %d, want 404", p, r5.StatusCode)
				}
			}
		})
	}
}

// TestPageFollowsTheGame: a page served before a move shows the move once it is in the store, at
// one store read per view (the page's own referee folds what the log gained).
func TestPageFollowsTheGame(t *testing.T) {
	e := newEnv(t, "games/crusade/examples/crusade-flag.yaml")
	e.play(t, 1)
	r1, b1 := get(t, e, "/g/g1/")
	e.play(t, 4)
	r2, b2 := get(t, e, "/g/g1/")
	if r1.Header.Get("ETag") == r2.Header.Get("ETag") || b1 == b2 {
		t.Fatal("the page did not change with the moves")
	}
	if !strings.Contains(b2, `last`) {
		t.Error("no last move marked after moves")
	}
}

// TestPageNamesMovedDeadlines: after the game master extends a deadline, the page's next
// deadline (its text and the countdown's instant) is the moved time, as the bot's replies name
// it, not the time the rules first set — before the turn opens and while its window is open
// (moving the opening leaves the window's close where it was: the football ruling).
func TestPageNamesMovedDeadlines(t *testing.T) {
	e := newEnv(t, "public/testdata/football-extended.yaml")
	for _, c := range []struct {
		to        int
		want, not string // the countdown's instant, UTC
	}{
		{1, "2026-12-01T17:35:00Z", "2026-12-01T17:30:00Z"}, // the opening 20:30 moved to 20:35
		{2, "2026-12-01T17:40:00Z", "2026-12-01T17:30:00Z"}, // its window closes when the rules said
		{4, "2026-12-01T17:43:00Z", "2026-12-01T17:40:00Z"}, // the window's close moved 3 minutes
	} {
		e.play(t, c.to)
		_, body := get(t, e, "/g/g1/")
		if !strings.Contains(body, `data-deadline="`+c.want+`"`) || strings.Contains(body, `data-deadline="`+c.not+`"`) {
			i := strings.Index(body, `id="deadline"`)
			t.Errorf("after post %d: the deadline is not %s:\n%s", c.to, c.want, body[max(i, 0):min(max(i, 0)+400, len(body))])
		}
	}
}

// TestEscapesPlayerText: a player's name or text with markup is shown as text.
func TestEscapesPlayerText(t *testing.T) {
	if got := plain("[b]<script>x</script>[/b]"); got != "<script>x</script>" {
		t.Fatalf("plain: %q", got)
	}
	e := newEnv(t, "games/crusade/examples/crusade-flag.yaml")
	e.play(t, -1)
	_, body := get(t, e, "/g/g1/")
	if strings.Contains(strings.ToLower(body), "<script>x") {
		t.Fatal("unescaped")
	}
}

// TestRateLimit: a client over its rate gets 429.
func TestRateLimit(t *testing.T) {
	e := newEnv(t, "games/crusade/examples/crusade-flag.yaml")
	e.pages.opt.Rate, e.pages.opt.Burst = 1, 2
	clear(e.pages.lim)
	codes := map[int]int{}
	for range 5 {
		r, _ := get(t, e, "/style.css")
		codes[r.StatusCode]++
	}
	if codes[http.StatusTooManyRequests] == 0 {
		t.Fatalf("no 429 in %v", codes)
	}
}

// TestNoOrdersBeforeTheDeadline: Dragonball's page (and every moment of it) served before the
// round's deadline holds no part of either team's orders, only who has sent them.
func TestNoOrdersBeforeTheDeadline(t *testing.T) {
	e := newEnv(t, "games/dragonball/examples/dragonball-score.yaml")
	to := e.beforeFirstDeadline(t)
	// What the thread shows anyway (players' posts, the bot's help with its examples) is no secret.
	public := ""
	d, err := e.st.Since(context.Background(), "g1", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range d.Said {
		public += s.Body + "\n"
	}
	for _, p := range e.tr.Posts[:to] {
		if !p.Private {
			public += p.Text + "\n"
		}
	}
	var secrets []string
	for _, p := range e.tr.Posts[:to] {
		if !p.Private {
			continue
		}
		for _, l := range strings.Split(p.Text, "\n") {
			if i := strings.IndexAny(l, ":)"); i >= 0 {
				l = l[i+1:]
			}
			if l = strings.TrimSpace(l); len([]rune(l)) >= 4 && !strings.Contains(public, l) {
				secrets = append(secrets, l)
			}
		}
	}
	if len(secrets) < 5 {
		t.Fatalf("the example has too few orders before the deadline to check: %q", secrets)
	}
	_, body := get(t, e, "/g/g1/")
	pages := []string{body}
	for _, m := range regexp.MustCompile(`href="\.\./\.\.(/g/g1/at/\d+)"`).FindAllStringSubmatch(body, -1) {
		_, b := get(t, e, m[1])
		pages = append(pages, b)
	}
	for i, b := range pages {
		for _, s := range secrets {
			if strings.Contains(b, s) || strings.Contains(b, template.HTMLEscapeString(s)) {
				t.Errorf("page %d holds an order before the deadline: %q", i, s)
			}
		}
	}
	if !strings.Contains(body, "ждём приказов от") && !strings.Contains(body, "приказы всех игроков получены") {
		t.Error("the page does not say who still owes orders")
	}
	if !strings.Contains(body, `class="countdown" data-deadline="`) {
		t.Error("no countdown to the deadline")
	}
	// The round's pictures tact by tact exist only once it is resolved: none before its deadline,
	// on the page, on a moment or asked for by name.
	const tact1, tact2 = "/g/g1/pic/round-1-tact-1.png", "/g/g1/pic/round-1-tact-2.png"
	for i, b := range pages {
		if strings.Contains(b, "tact-") {
			t.Errorf("page %d shows a tact's picture before the deadline", i)
		}
	}
	if r, _ := get(t, e, tact1); r.StatusCode != http.StatusNotFound {
		t.Errorf("%s before the deadline: status %d, want 404", tact1, r.StatusCode)
	}
	e.play(t, to+1) // past the deadline: the round is resolved
	_, body = get(t, e, "/g/g1/")
	for _, p := range []string{tact1, tact2} {
		if !strings.Contains(body, `src="../..`+p+`"`) {
			t.Errorf("the page after the deadline does not show %s", p)
		}
		if r, b := get(t, e, p); r.StatusCode != 200 || !strings.HasPrefix(b, "\x89PNG") {
			t.Errorf("%s after the deadline: status %d", p, r.StatusCode)
		}
	}
	if strings.Index(body, tact1) > strings.Index(body, tact2) || strings.Index(body, tact2) > strings.Index(body, "/g/g1/pic/round-1.png") {
		t.Error("the round's pictures are not in the order of its tacts")
	}
}

// TestPostsLinkThePage: with public_url set, the opening post, each round report and the final
// post link the game's page (once each); without it nothing is said.
func TestPostsLinkThePage(t *testing.T) {
	const page = "https://games.example.org/g/g1/"
	for _, c := range []struct {
		name, path, report string // report: how a round report begins
	}{
		{"crusade", "games/crusade/examples/crusade-flag.yaml", "[b]Итоги дня"},
		{"dragonball", "games/dragonball/examples/dragonball-score.yaml", "[b]Раунд "},
		{"football", "games/football/examples/football-twelve.yaml", "[b]Итоги "},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, url := range []string{page, ""} {
				e := newEnvPage(t, c.path, url)
				e.play(t, -1)
				d, err := e.st.Since(context.Background(), "g1", 0, 0)
				if err != nil {
					t.Fatal(err)
				}
				links := func(body string) int { return strings.Count(body, "[url="+page+"]") }
				// The final post is the one revealing the seed; the summary in numbers follows it.
				summary := func(body string) bool { return strings.HasPrefix(body, "[b]Итоги игры") }
				final := len(d.Said) - 1
				for i, s := range d.Said {
					if summary(s.Body) && i > 0 {
						final = i - 1
					}
				}
				reports := 0
				for i, s := range d.Said {
					want := 0
					switch {
					case url == "":
					case i == 0, i == final, strings.HasPrefix(s.Body, c.report) && !summary(s.Body):
						want = 1
					}
					if strings.HasPrefix(s.Body, c.report) {
						reports++
					}
					if got := links(s.Body); got != want {
						t.Errorf("public_url %q: post %d links the page %d times, want %d:\n%s", url, i+1, got, want, s.Body)
					}
				}
				if reports == 0 {
					t.Errorf("no round report in the example")
				}
			}
		})
	}
}
