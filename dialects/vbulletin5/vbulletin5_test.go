package vbulletin5

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

func cfg() forum.Config {
	return forum.Config{Location: time.UTC, Now: func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }}
}

// The real vBulletin 5.5.2 page (testdata/realboards/generic, see its README) reads right: the
// golden was checked against the page (ids, authors and member ids, Unix publication times,
// quote authors and quoted post ids, signatures and the ad block left out).
func TestRealPages(t *testing.T) {
	name := "vbulletin552-fandompost"
	raw, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "generic", name+".html"))
	if err != nil {
		t.Fatal(err)
	}
	posts, err := Extract(raw, "", cfg())
	if err != nil || len(posts) != 15 {
		t.Fatalf("%d posts, %v", len(posts), err)
	}
	for _, p := range posts {
		if p.ID == "" || p.Author == "" || p.AuthorID == "" || p.Time.IsZero() || p.Text == "" || len(p.Problems) > 0 {
			t.Errorf("post %s: %q (%s) %v %q", p.ID, p.Author, p.AuthorID, p.Time, p.Problems)
		}
	}
	// data-node-publishdate is the instant; the <time datetime> beside it has no zone.
	if !posts[0].Time.Equal(time.Unix(1554824243, 0)) || posts[0].Subject != "[Spring 2019] Isekai Quartet Discussion Thread" {
		t.Errorf("first post: %v %q", posts[0].Time, posts[0].Subject)
	}
	fixture.Golden(t, filepath.Join("real", name+".json"), posts, *update)
}

// A post the real page lacks: a Russian quote holding a code block (a quote, not code), a code
// block of the post's own, the edit line; and a page of no vBulletin 5 posts.
func TestQuoteCodeEdit(t *testing.T) {
	page := `<html><body><ul class="conversation-list">
<li data-node-id="42" data-node-publishdate="1709283600" class="b-post js-post">
<div class="b-userinfo__details"><div class="author h-text-size--14"><strong><a href="https://f.example/member/7-vasya">Вася</a></strong></div></div>
<div class="js-post__content-wrapper"><div class="b-post__body">
<a class="b-post__count" href="https://f.example/forum/t/1-game#post42">#2</a>
<div class="b-post__timestamp"><time itemprop="dateCreated" datetime="2024-03-01T01:00:00">03-01-2024, 03:00 AM</time></div>
<div class="js-post__content-text restore h-wordwrap" itemprop="text">
<div class="bbcode_container"><div class="bbcode_quote"><div class="quote_container">
<div class="bbcode_quote_container b-icon b-icon__ldquo-l--gray"></div>
<div class="bbcode_postedby">Сообщение от <strong>Петя</strong> <a href="https://f.example/forum/t/1-game?p=41#post41" class="b-icon">Посмотреть сообщение</a></div>
<div class="message">Ход:<div class="bbcode_container"><div class="bbcode_description">Код:</div><pre class="bbcode_code">E2-E4</pre></div></div>
</div></div></div>Отвечаю:<div class="bbcode_container"><div class="bbcode_description">Код:</div><pre class="bbcode_code">  H7-H5</pre></div>
</div>
<div class="post-signature restore">подпись</div>
<div class="edit-info">Последний раз редактировалось Вася; 03-01-2024, 03:05 AM.</div>
</div></div></li></ul></body></html>`
	posts, err := Extract([]byte(page), "", cfg())
	if err != nil || len(posts) != 1 {
		t.Fatalf("%d posts, %v", len(posts), err)
	}
	p := posts[0]
	if p.ID != "42" || p.Author != "Вася" || p.AuthorID != "7" || !p.Time.Equal(time.Unix(1709283600, 0)) || !p.Edited ||
		p.Text != "Отвечаю:\n  H7-H5" || len(p.Code) != 1 || p.Code[0] != "  H7-H5" ||
		len(p.Quotes) != 1 || p.Quotes[0].Author != "Петя" || p.Quotes[0].PostID != "41" || p.Quotes[0].Text != "Ход:\nE2-E4" {
		t.Errorf("got %+v", p)
	}
	if _, err := Extract([]byte(`<html><body><p>no forum</p></body></html>`), "", cfg()); !errors.Is(err, forum.ErrMarkupChanged) {
		t.Errorf("not a thread: %v", err)
	}
}
