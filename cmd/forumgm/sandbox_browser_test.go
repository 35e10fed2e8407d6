package main

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"forumgm/internal/chrome"
)

// lockedBuffer collects the daemon's log for the failure message.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// boardCell is the token in row, column col (1-based) of the boards drawn in text: the line of the
// row ends with "|-<row>", its cells are separated by '|' (or '<' '>' on the forest rows). It
// returns the cell of the last such line, and whether there was one.
func boardCell(text string, row byte, col int) (string, bool) {
	cell, found := "", false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.ReplaceAll(line, "\u00a0", " "))
		if !strings.HasSuffix(line, "|-"+string(row)) || !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.FieldsFunc(strings.TrimSuffix(line, "|-"+string(row)), func(r rune) bool { return r == '|' || r == '<' || r == '>' })
		if len(cells) == 20 {
			cell, found = strings.Trim(cells[col-1], "_"), true
		}
	}
	return cell, found
}

// TestSandboxNewcomerInBrowser is the README's first command as a newcomer lives it: start what
// `forumgm sandbox` starts (the same Go function), open the thread in Debian's chromium (which may
// only reach loopback), log in as Джелу, post "1-й ход крестоносца к1 на K16" through the page's
// reply form, and wait until the game master's reply with the new board (к1 on K16) is on the page.
func TestSandboxNewcomerInBrowser(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs := &lockedBuffer{}
	// The moderator web UI on a port of the user's choosing (--review-addr).
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	reviewAddr := ln.Addr().String()
	ln.Close()
	sb, err := startSandbox(ctx, sandboxOptions{Addr: "127.0.0.1:0", Dir: t.TempDir(), Log: logs, ReviewAddr: reviewAddr})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if sb.Review != "http://"+reviewAddr+"/" && sb.Review != "http://"+reviewAddr {
		t.Errorf("moderator web UI on %s, want %s", sb.Review, reviewAddr)
	}
	if !strings.HasPrefix(sb.URL, "http://127.0.0.1:") {
		t.Fatalf("sandbox on %s, want loopback", sb.URL)
	}
	banner := sb.Banner()
	thread := sb.URL + "/showthread.php?tid=1"
	if !strings.Contains(banner, thread) || !strings.Contains(banner, "Джелу") {
		t.Fatalf("banner:\n%s", banner)
	}
	runErr := make(chan error, 1)
	go func() { runErr <- sb.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-runErr; err != nil {
			t.Errorf("daemon: %v", err)
		}
	}()

	browser := chrome.Start(t, 5*time.Minute)
	page := browser.MustPage("")
	page.MustSetViewport(1200, 1600, 1, false)
	shots := t.TempDir()
	shot := func(name string) string {
		t.Helper()
		b, err := page.Screenshot(true, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(shots, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	waitText := func(sel, text string) *rod.Element {
		t.Helper()
		el, err := page.Timeout(time.Minute).ElementR(sel, text)
		if err != nil {
			shot("failed.png")
			t.Fatalf("waiting for %s %q: %v (url %s)", sel, text, err, page.MustInfo().URL)
		}
		return el
	}
	load := func(url string) {
		t.Helper()
		if err := page.Navigate(url); err != nil {
			t.Fatalf("open %s: %v", url, err)
		}
		page.MustWaitLoad()
	}

	// The newcomer opens the thread the sandbox printed: the game master has opened the game,
	// on a forum in Russian like the players' own (a Russian MyBB's greeting, buttons, dates).
	load(thread)
	waitText("div.post_body", "Крестовый поход")
	waitText(".welcome", "Привет, Гость!")
	if has, _, _ := page.HasR("span.post_date", `\d\d\.\d\d\.\d{4}|Сегодня|Вчера|назад`); !has {
		shot("dates.png")
		t.Error("no Russian post date on the thread page")
	}
	if has, _, _ := page.HasR("body", "Hello There|Welcome back|Post Reply"); has {
		t.Error("English words on the sandbox's thread page")
	}

	// Logs in as Джелу with the printed password.
	load(sb.URL + "/member.php?action=login")
	form := page.MustElement(`#content form[action="member.php"]`)
	form.MustElement(`input[name=username]`).MustInput("Джелу")
	form.MustElement(`input[name=password]`).MustInput(sb.sg.Players[0].Password)
	wait := page.WaitNavigation(proto.PageLifecycleEventNameLoad)
	form.MustElement(`input[type=submit]`).MustClick()
	wait()
	waitText("td.trow1", "Вы успешно вошли")

	// Posts the move through the thread's reply form.
	load(thread + "&action=lastpost")
	waitText(".welcome", "С возвращением")
	const move = "1-й ход крестоносца к1 на K16"
	page.MustElement("#quick_reply_form textarea#message").MustInput(move)
	wait = page.WaitNavigation(proto.PageLifecycleEventNameLoad)
	page.MustElement("#quick_reply_submit").MustClick()
	wait()
	waitText("td.trow1", "Спасибо, ваш ответ был отправлен.")

	// Waits (reloading the thread, as a person would) until the game master's reply with the
	// new board is on the page: row K holds к1 in column 16 (it started on K17).
	deadline, stop := context.WithTimeout(ctx, 3*time.Minute)
	defer stop()
	var found *rod.Element
	sawMove := false
	for found == nil {
		load(thread + "&action=lastpost")
		posts, err := page.Elements("div.post")
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range posts {
			author, err := p.Element(".author_information a")
			if err != nil {
				continue
			}
			body, err := p.Element("div.post_body")
			if err != nil {
				continue
			}
			who, text := author.MustText(), body.MustText()
			if who == "Джелу" && strings.Contains(text, move) {
				sawMove = true
			}
			if who == "gm-bot" && sawMove {
				if c, ok := boardCell(text, 'K', 16); ok && c == "к1" {
					found = body
				}
			}
		}
		if found != nil {
			break
		}
		select {
		case <-deadline.Done():
			path := shot("timeout.png")
			t.Fatalf("no reply with к1 on K16 (player's post seen: %v; screenshot %s); daemon log:\n%s", sawMove, path, logs.String())
		case <-time.After(500 * time.Millisecond):
		}
	}
	found.MustScrollIntoView()
	text := found.MustText()
	if c, _ := boardCell(text, 'K', 17); c != "" {
		t.Errorf("K17 still holds %q in the reply's board", c)
	}
	path := shot("gm-reply.png")
	t.Logf("the game master's reply (screenshot %s):\n%s", path, text)
	if dst := os.Getenv("FORUMGM_SCREENSHOT"); dst != "" {
		b, _ := os.ReadFile(path)
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Error(err)
		}
	}

	// The game's public page the banner printed shows the move: к1 on K16, marked as the last
	// turn's cell, the story linking the thread's posts.
	if sb.Page == "" || !strings.Contains(banner, sb.Page) {
		t.Fatalf("the banner does not print the game page (%q):\n%s", sb.Page, banner)
	}
	load(sb.Page)
	cell := page.MustElement(`#position td[title^="K16"]`)
	if txt := cell.MustText(); txt != "к1" {
		t.Errorf("the game page's K16 holds %q, want к1", txt)
	}
	if cls := cell.MustAttribute("class"); cls == nil || !strings.Contains(*cls, "last") {
		t.Errorf("K16 is not marked as the last turn's cell")
	}
	if link := page.MustElement(`#story a[href*="pid="]`); !strings.HasPrefix(*link.MustAttribute("href"), thread+"&pid=") {
		t.Errorf("the story links %s, not a post of the thread", *link.MustAttribute("href"))
	}
	shot("game-page.png")
	if err := errors.Join(page.Close()); err != nil {
		t.Log(err)
	}
}
