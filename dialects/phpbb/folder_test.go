package phpbb

import (
	"errors"
	"strings"
	"testing"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// The bot's sent messages as the message page shows them (ucp_pm_viewmessage.html inside the UCP
// frame): author the bot, the marker line in the text; pinned in testdata/golden.
func TestSentGolden(t *testing.T) {
	for _, name := range []string{"ucp-pm-view-23.html", "ucp-pm-view-24.html", "ucp-pm-view-25.html"} {
		t.Run(name, func(t *testing.T) {
			posts, err := Extract(readPage(t, name), "text/html; charset=UTF-8", testConfig())
			if err != nil {
				t.Fatal(err)
			}
			if len(posts) != 1 || posts[0].Author != "gm-bot" || !strings.Contains(posts[0].Text, "\nfgm-crusade1-") {
				t.Errorf("%+v", posts)
			}
			golden(t, strings.TrimSuffix(name, ".html")+".json", posts)
		})
	}
}

// parseFolder reads the rows of Sent messages and the Outbox (newest first, each with its own
// folder's view link) and the Outbox count of the folder menu.
func TestParseFolder(t *testing.T) {
	for _, c := range []struct {
		page   string
		rows   string // id folder-link subject; …
		outbox int
	}{
		{"ucp-pm-sentbox.html", "25 f=-1&p=25 Партия 1: ход принят; 23 f=-1&p=23 Партия 1: ваш ход", 1},
		{"ucp-pm-outbox.html", "24 f=-2&p=24 Партия 1: ждите", 1},
		{"ucp-pm-inbox.html", "22 f=0&p=22 Вопрос по правилам; 21 f=0&p=21 Тайный ход; 20 f=0&p=20 Привет", -1},
	} {
		doc, err := scrape.Parse(readPage(t, c.page), "")
		if err != nil {
			t.Fatal(err)
		}
		fl, err := parseFolder(doc)
		if err != nil {
			t.Fatalf("%s: %v", c.page, err)
		}
		var rows []string
		for _, r := range fl.Rows {
			link := r.Href
			if i := strings.Index(link, "f="); i >= 0 {
				link = strings.TrimSuffix(link[i:], "&sid=5f1c0a9b2e4d4c7f8a1b2c3d4e5f6a7b")
			}
			rows = append(rows, r.ID+" "+link+" "+r.Subject)
		}
		if got := strings.Join(rows, "; "); got != c.rows || fl.Outbox != c.outbox || fl.Next != "" {
			t.Errorf("%s: rows %q outbox %d next %q", c.page, got, fl.Outbox, fl.Next)
		}
	}
	// The menu without a number: an empty Outbox.
	raw := strings.ReplaceAll(string(readPage(t, "ucp-pm-sentbox.html")), "<strong>Outbox (1)</strong>", "Outbox")
	doc, _ := scrape.Parse([]byte(raw), "")
	if fl, err := parseFolder(doc); err != nil || fl.Outbox != 0 || len(fl.Rows) != 2 {
		t.Errorf("empty outbox: %+v %v", fl, err)
	}
	// A message page is no folder.
	doc, _ = scrape.Parse(readPage(t, "message-no-permission.html"), "")
	if _, err := parseFolder(doc); !errors.Is(err, forum.ErrMarkupChanged) {
		t.Errorf("message page: %v", err)
	}
}
