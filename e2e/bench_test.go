package e2e

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"forumgm/dialects/mybb"
	"forumgm/forum"
	"forumgm/sandbox"
)

// benchThread fills a thread with n posts of the kinds a game thread holds (moves, the bot's
// boards in [code], quotes of the bot, formatting), one minute apart.
func benchThread(b *board, n int) (tid int, pids []int) {
	posts := []post{{botName, "Партия начинается. Правила: [b]один ход[/b] за пост, ходы до 21:00."}}
	for i := 1; i < n; i++ {
		switch i % 4 {
		case 0:
			posts = append(posts, post{botName, fmt.Sprintf("Ход %d принят.\n[code]    A  B  C  D\n 4 .  в1 .  .\n 3 н2 .  .  к1\n 2 .  .  с1 .\n 1 .  .  .  в2[/code]\nСледующим ходит [i]Джелу[/i].", i)})
		case 1:
			posts = append(posts, post{p1Name, fmt.Sprintf("%d-й ход крестоносца в1 на C%d", i, i%8+1)})
		case 2:
			posts = append(posts, post{p2Name, fmt.Sprintf("[quote=\"%s\"]\n%d-й ход крестоносца в1 на C%d\n[/quote]\n\nсарацин н2 G5 → F4 :)", p1Name, i-1, (i-1)%8+1)})
		default:
			posts = append(posts, post{p1Name, "Вопрос к ведущему: а [u]рокировка[/u] разрешена? https://example.org/rules#castle"})
		}
	}
	return b.thread("Крестовый поход — партия 1", posts...)
}

// BenchmarkIdlePollSandbox is one idle poll (Posts from the newest post's cursor, nothing new)
// against the sandbox over loopback HTTP: one GET of the last page, its extraction, the cursor.
func BenchmarkIdlePollSandbox(b *testing.B) {
	bd := newBoard(b, noFloodNoMerge)
	tid, _ := benchThread(bd, 12) // two pages of 8: the idle poll reads page 2
	bot := bd.dial(botName, botPass)
	th := forum.Thread{ID: itoa(tid)}
	_, cur, err := bot.Posts(bd.ctx, th, forum.Cursor{})
	if err != nil {
		b.Fatal(err)
	}
	bd.clock.Advance(2 * time.Hour)
	m := bot.rec.mark()
	b.ReportAllocs()
	for b.Loop() {
		got, c, err := bot.Posts(bd.ctx, th, cur)
		if err != nil || len(got) != 0 || c != cur {
			b.Fatal(err, len(got), c)
		}
	}
	b.ReportMetric(float64(len(bot.rec.since(m)))/float64(b.N), "requests/op")
}

// BenchmarkExtract20Posts extracts the posts of a sandbox thread page holding 20 posts
// (PostsPerPage 20): parse the HTML and read every post (text, quotes, code, times).
func BenchmarkExtract20Posts(b *testing.B) {
	bd := newBoard(b, func(o *sandbox.Options) {
		noFloodNoMerge(o)
		o.PostsPerPage = 20
	})
	tid, _ := benchThread(bd, 20)
	bd.clock.Advance(3 * time.Hour)
	resp, err := http.Get(bd.base + "/showthread.php?tid=" + itoa(tid))
	if err != nil {
		b.Fatal(err)
	}
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	ct := resp.Header.Get("Content-Type")
	cfg := bd.config(botName, botPass)
	posts, err := mybb.Extractor(page, ct, cfg)
	if err != nil || len(posts) != 20 || !strings.Contains(posts[4].Text, "Ход 4 принят.") || len(posts[4].Code) != 1 || len(posts[2].Quotes) != 1 {
		b.Fatalf("%d posts %v", len(posts), err)
	}
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := mybb.Extractor(page, ct, cfg); err != nil {
			b.Fatal(err)
		}
	}
}
