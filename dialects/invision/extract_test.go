package invision

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

func cfg() forum.Config {
	return forum.Config{Location: time.UTC, Now: func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }}
}

func realPage(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "invision", "ips47-armbian-rk322x-comments.html"))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// The real Invision Community 4.7 comments read right (golden checked against the page).
func TestRealPages(t *testing.T) {
	posts, err := extract([]byte(realPage(t)), "", cfg())
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) != 2 {
		t.Fatalf("%d posts", len(posts))
	}
	p := posts[0]
	if p.ID != "92583" || p.Author != "fabiobassa" || p.AuthorID != "13603" || !p.Time.Equal(time.Date(2020, 1, 8, 22, 9, 53, 0, time.UTC)) ||
		!strings.HasPrefix(p.Text, "@jock\n\nWell, simply speachless .") || !strings.HasSuffix(p.Text, "Thank you Jock") || p.Edited || len(p.Problems) > 0 ||
		p.Permalink != "https://forum.armbian.com/topic/34923-csc-armbian-for-rk322x-tv-box-boards/?do=findComment&comment=92583" {
		t.Errorf("first post: %+v", p)
	}
	if q := posts[1]; q.ID != "93235" || q.Author != "knaerzche" || q.AuthorID != "14286" || len(q.Problems) > 0 {
		t.Errorf("second post: %+v", q)
	}
	fixture.Golden(t, "ips47-armbian-rk322x-comments.json", posts, *update)
}

// Whole topic pages of a Russian Invision Community 4.7 board (go-piratia.ru, see
// testdata/realboards/invision/README.md): every post read, quotes with their author and comment,
// code blocks, edit lines; goldens checked against the pages post by post.
func TestRealTopicPages(t *testing.T) {
	for _, c := range []struct {
		name                        string
		posts, quotes, code, edited int
	}{
		{"ips47-gopiratia-t230", 4, 1, 9, 1},
		{"ips47-gopiratia-t9", 4, 2, 0, 1},
		{"ips47-gopiratia-t16", 5, 1, 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "invision", c.name+".html"))
			if err != nil {
				t.Fatal(err)
			}
			posts, err := extract(raw, "", cfg())
			if err != nil {
				t.Fatal(err)
			}
			quotes, code, edited := 0, 0, 0
			for _, p := range posts {
				if p.ID == "" || p.Author == "" || p.AuthorID == "" || p.Time.IsZero() || len(p.Problems) > 0 {
					t.Errorf("post %s: %q (%s) %v %q", p.ID, p.Author, p.AuthorID, p.Time, p.Problems)
				}
				for _, q := range p.Quotes {
					if q.Author != "" && q.PostID != "" {
						quotes++
					}
					if strings.Contains(q.Author, ",") { // the citation's "13 часов назад, Graf сказал:"
						t.Errorf("post %s: quote author %q", p.ID, q.Author)
					}
				}
				code += len(p.Code)
				if p.Edited {
					edited++
				}
			}
			if len(posts) != c.posts || quotes != c.quotes || code != c.code || edited != c.edited {
				t.Errorf("%d posts, %d quotes with author and comment, %d code blocks, %d edited; want %d, %d, %d, %d",
					len(posts), quotes, code, edited, c.posts, c.quotes, c.code, c.edited)
			}
			fixture.Golden(t, c.name+".json", posts, *update)
		})
	}
}

// withContent is the real second comment with its content replaced by content (and the edit
// line the commentEditLine template writes, when edited is set).
func withContent(t *testing.T, content, edited string) string {
	t.Helper()
	page := realPage(t)
	start := strings.Index(page, `<article  id="elComment_93235"`)
	article := page[start:]
	open := strings.Index(article, `data-role="commentContent"`)
	open += strings.Index(article[open:], ">") + 1
	end := strings.Index(article[open:], "\n\t\t</div>") + open
	if edited != "" {
		content += "\n<span class='ipsType_reset ipsType_medium ipsType_light' data-excludequote>\n\t<strong>Edited <time datetime='2020-01-19T10:00:00Z' title='01/19/20 10:00  AM' data-short='4 yr'>January 19, 2020</time> by " + edited + "</strong>\n</span>"
	}
	return article[:open] + content + article[end:]
}

// Quotes as Invision stores them (processwire.com posts, see testdata/README.md): the quoted
// member and comment from the data-ipsquote attributes, a code block staying inside its quote,
// an unattributed quote; an edit line marks the post edited and stays out of the text.
func TestQuotesAndEdit(t *testing.T) {
	content, err := os.ReadFile(filepath.Join("testdata", "processwire-post-34997.content.html"))
	if err != nil {
		t.Fatal(err)
	}
	posts, err := extract([]byte(withContent(t, string(content), "knaerzche")), "", cfg())
	if err != nil || len(posts) != 1 {
		t.Fatalf("%d posts, %v", len(posts), err)
	}
	p := posts[0]
	if len(p.Quotes) != 2 || p.Quotes[0].Author != "diogo" || p.Quotes[0].PostID != "34996" ||
		!strings.Contains(p.Quotes[0].Text, "Shoes>Men (Any Brand)") || !strings.Contains(p.Quotes[0].Text, `find("name=men")`) ||
		p.Quotes[1].Author != "" || !strings.Contains(p.Quotes[1].Text, "only specify one page at a time") {
		t.Errorf("quotes: %+v", p.Quotes)
	}
	if !strings.HasPrefix(p.Text, "From the Docs") || !strings.Contains(p.Text, "has_parent!=2") || strings.Contains(p.Text, "Surprise") ||
		strings.Contains(p.Text, "Edited") || !p.Edited || len(p.Code) != 0 {
		t.Errorf("text %q edited %v code %q", p.Text, p.Edited, p.Code)
	}

	nested, err := os.ReadFile(filepath.Join("testdata", "processwire-post-34996.content.html"))
	if err != nil {
		t.Fatal(err)
	}
	posts, err = extract([]byte(withContent(t, string(nested), "")), "", cfg())
	if err != nil || len(posts) != 1 {
		t.Fatalf("%d posts, %v", len(posts), err)
	}
	p = posts[0]
	if p.Edited || len(p.Quotes) != 2 || len(p.Code) != 2 || !strings.HasPrefix(p.Text, "Great! This is the selector") {
		t.Errorf("post 34996: %+v", p)
	}
}

// The pagination template: the active page, Prev and Next unless inactive.
func TestPagination(t *testing.T) {
	nav := func(prev, next string) string {
		return `<ul class='ipsPagination' id='elPagination_x' data-ipsPagination-seoPagination='true' data-pages='3'>` + prev +
			`<li class='ipsPagination_page ipsPagination_active'><a href='https://board.example/topic/7-t/page/2/' data-page='2'>2</a></li>` + next + `</ul>`
	}
	page := func(prev, next string) string {
		return "<html><body>" + nav(prev, next) + withContent(t, "<p>Ход</p>", "") + "</body></html>"
	}
	doc, err := docOf(page(
		`<li class='ipsPagination_prev'><a href='https://board.example/topic/7-t/' rel="prev" data-page='1'>Prev</a></li>`,
		`<li class='ipsPagination_next'><a href='https://board.example/topic/7-t/page/3/' rel="next" data-page='3'>Next</a></li>`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ReadPage(doc, ips4, cfg())
	if err != nil || p.Current != 2 || p.Prev != "https://board.example/topic/7-t/" || p.Next != "https://board.example/topic/7-t/page/3/" {
		t.Fatalf("%+v %v", p, err)
	}
	doc, _ = docOf(page(`<li class='ipsPagination_first ipsPagination_inactive'><a href='x' rel="first">«</a></li>`,
		`<li class='ipsPagination_next ipsPagination_inactive'><a href='https://board.example/topic/7-t/page/2/' rel="next">Next</a></li>`))
	if p, err = ReadPage(doc, ips4, cfg()); err != nil || p.Next != "" || p.Prev != "" {
		t.Errorf("last page: %+v %v", p, err)
	}
}

func TestNotInvision(t *testing.T) {
	if _, err := extract([]byte(`<html><body><article class="message--post">x</article></body></html>`), "", cfg()); !errors.Is(err, forum.ErrMarkupChanged) {
		t.Errorf("%v", err)
	}
}

func FuzzExtract(f *testing.F) {
	f.Add([]byte(`<article id="elComment_1" class="ipsComment"><div data-role="commentContent">x</div></article>`))
	f.Fuzz(func(t *testing.T, page []byte) {
		posts, err := extract(page, "", cfg())
		if err == nil && len(posts) == 0 {
			t.Error("no error and no posts")
		}
	})
}

func docOf(page string) (*goquery.Document, error) {
	return goquery.NewDocumentFromReader(strings.NewReader(page))
}
