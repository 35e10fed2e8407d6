package xenforo

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

func cfg() forum.Config {
	return forum.Config{Location: time.UTC, Now: func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }}
}

// The real XenForo pages (testdata/realboards/generic, see its README) read right: goldens
// checked against the pages.
func TestRealPages(t *testing.T) {
	for _, name := range []string{"xenforo2-default-xenforo-community.html", "xenforo1-flexgray-sufficientvelocity.html",
		"xenforo23-ragezone-t539161.html", "xenforo23-ragezone-t676761.html", "xenforo23-ragezone-t680281.html",
		"xenforo23-uix-pkodev-t161.html"} {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "generic", name))
			if err != nil {
				t.Fatal(err)
			}
			posts, err := extract(raw, "", cfg())
			if err != nil || len(posts) == 0 {
				t.Fatalf("%d posts, %v", len(posts), err)
			}
			for _, p := range posts {
				if p.ID == "" || p.Author == "" || p.AuthorID == "" || p.Time.IsZero() || len(p.Problems) > 0 {
					t.Errorf("post %s: %q (%s) %v %q", p.ID, p.Author, p.AuthorID, p.Time, p.Problems)
				}
			}
			fixture.Golden(t, strings.TrimSuffix(name, ".html")+".json", posts, *update)
		})
	}
}

// XenForo 2 as a Russian board writes it: "сказал(а):", "Нажмите для раскрытия...", zero-width
// spaces after mentions; a config key overrides the table.
func TestRussianQuoteAndOverride(t *testing.T) {
	page := `<html id="XF"><body>
<article class="message message--post" data-author="Вася" data-content="post-42">
<h4 class="message-name"><a class="username" data-user-id="7">Вася</a></h4>
<ul class="message-attribution-main"><li><a href="/threads/t.1/post-42"><time class="u-dt" datetime="2024-03-01T12:00:00+0300" data-time="1709283600">1 мар 2024</time></a></li></ul>
<div class="message-userContent"><article class="message-body"><div class="bbWrapper">
<blockquote class="bbCodeBlock bbCodeBlock--expandable bbCodeBlock--quote" data-source="post: 41">
<div class="bbCodeBlock-title">Петя сказал(а):</div>
<div class="bbCodeBlock-content"><div class="bbCodeBlock-expandContent">Ход Е2-Е4</div><div class="bbCodeBlock-expandLink"><a>Нажмите для раскрытия...</a></div></div>
</blockquote>@Петя` + "\u200b" + ` отвечаю: Н7-Н5</div></article></div>
<div class="message-lastEdit">Последнее редактирование: 1 мар 2024</div>
</article></body></html>`
	posts, err := extract([]byte(page), "", cfg())
	if err != nil {
		t.Fatal(err)
	}
	p := posts[0]
	if p.ID != "42" || p.Author != "Вася" || p.AuthorID != "7" || !p.Time.Equal(time.Unix(1709283600, 0)) || !p.Edited ||
		p.Text != "@Петя отвечаю: Н7-Н5" || len(p.Quotes) != 1 || p.Quotes[0] != (forum.Quote{Author: "Петя", PostID: "41", Text: "Ход Е2-Е4"}) {
		t.Errorf("got %+v", p)
	}
	c := cfg()
	c.Extra = map[string]string{"author": ".message-name .username@data-user-id"}
	if posts, err = extract([]byte(page), "", c); err != nil || posts[0].Author != "7" {
		t.Errorf("override: %+v %v", posts, err)
	}
	if _, err := extract([]byte(`<html><body><p>no forum</p></body></html>`), "", cfg()); !errors.Is(err, forum.ErrMarkupChanged) {
		t.Errorf("not a thread: %v", err)
	}
}
