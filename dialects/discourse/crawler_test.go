package discourse

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
)

// A topic's HTML page (testdata/html, see its README) is read from its crawler view: the layout
// of Discourse 2026 as the server sends it, and Discourse 2.8's inside the <noscript> of the page
// a browser gets. Ids are post numbers; quotes of the topic name the quoted post's number.
func TestExtractCrawler(t *testing.T) {
	posts, err := Extract(readTestdata(t, "html/crawler-2026.html"), "", forum.Config{})
	if err != nil {
		t.Fatal(err)
	}
	var ids, authors []string
	for _, p := range posts {
		ids, authors = append(ids, p.ID), append(authors, p.Author)
		if p.Text == "" || p.Time.IsZero() || len(p.Problems) > 0 || p.Quotes == nil {
			t.Errorf("post %s: %+v", p.ID, p)
		}
	}
	if !slices.Equal(ids, []string{"1", "2", "4"}) || !slices.Equal(authors, []string{"gm_bot", "anna", "boris"}) {
		t.Fatalf("ids %v authors %v", ids, authors)
	}
	first, reply := posts[0], posts[2]
	if !first.Time.Equal(time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)) || len(first.Code) != 1 || !strings.Contains(first.Code[0], "1 . K .") ||
		!strings.HasPrefix(first.Text, "Партия 3 начинается.") || first.Permalink != "https://forum.example/t/krestovyj-pohod-partiya-3/4242/1" {
		t.Errorf("first post %+v", first)
	}
	if posts[1].Text != "Ход 1: K b1-b2 :crossed_swords:" || !posts[1].Time.Equal(time.Date(2026, 11, 28, 10, 15, 42, 0, time.UTC)) {
		t.Errorf("second post %+v", posts[1])
	}
	if q := reply.Quotes; reply.Text != "Отвечаю: a2-a3." || len(q) != 1 || q[0].Author != "anna" || q[0].PostID != "2" || q[0].Text != "Ход 1: K b1-b2" {
		t.Errorf("reply %+v", reply)
	}

	posts, err = Extract(readTestdata(t, "html/noscript-2.8.html"), "text/html; charset=utf-8", forum.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) != 2 || posts[0].ID != "1" || posts[1].ID != "3" || posts[1].Author != "carol" ||
		!posts[1].Time.Equal(time.Date(2021, 11, 18, 14, 39, 17, 0, time.UTC)) || posts[1].Text != "Did you read the rules?\nMove: c3-c4" ||
		len(posts[1].Quotes) != 1 || posts[1].Quotes[0].Text != "One move a round" || posts[1].Permalink != "https://club.example/forum/t/crusade-game-2/777/3" {
		t.Fatalf("%+v", posts)
	}

	// A page with no crawler view says what to save.
	_, err = Extract([]byte(`<html><body><div id="ember-shell"></div></body></html>`), "", forum.Config{})
	if !errors.Is(err, forum.ErrMarkupChanged) || !strings.Contains(err.Error(), "/t/<id>.json") {
		t.Errorf("no crawler view: %v", err)
	}
}
