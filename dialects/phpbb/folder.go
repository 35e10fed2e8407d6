package phpbb

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum/scrape"
)

// Selectors of a private-message folder (ucp.php?i=pm&folder=…), from prosilver's
// ucp_pm_viewfolder.html (messagerow), ucp_header.html (the folder menu) and pagination.html.
var folderSel = struct {
	List, Row, Title, Mark, Next, OutboxLink string
}{
	List:       "#page-body ul.pmlist",
	Row:        "li.row",
	Title:      "a.topictitle",
	Mark:       "input[name='marked_msg_id[]']",
	Next:       "div.pagination li.next a[rel=next]",
	OutboxLink: "#navigation a[href*='folder=outbox']",
}

// folderRow is one message of a folder list.
type folderRow struct {
	ID      string // msg_id
	Href    string // the message's view link as written (relative to the page), "" when removed
	Subject string
}

// Folder is what a poller needs from a folder page.
type Folder struct {
	Rows []folderRow // in page order (newest first by default)
	Next string      // the next page's link as written, "" on the last page
	// Outbox is the number of messages in the Outbox as the folder menu says ("Outbox (2)"; phpBB
	// counts every outbox message as unread), 0 when it shows no number, -1 without the menu.
	Outbox int
}

var (
	reFolderP     = regexp.MustCompile(`[?&](?:amp;)?p=(\d+)`)
	reFolderCount = regexp.MustCompile(`\((\d+)\)`)
)

// parseFolder reads a private-message folder page. A page without the message list (and without
// phpBB's "no messages" paragraph of an empty folder) is an error wrapping
// forum.ErrMarkupChanged.
// A row whose message was deleted (its link removes the row, phpBB's MESSAGE_REMOVED_FROM_OUTBOX)
// has an empty Href.
func parseFolder(doc *goquery.Document) (Folder, error) {
	f := Folder{Outbox: -1}
	if a := doc.Find(folderSel.OutboxLink).First(); a.Length() > 0 {
		f.Outbox = 0
		if m := reFolderCount.FindStringSubmatch(a.Text()); m != nil {
			f.Outbox, _ = strconv.Atoi(m[1])
		}
	}
	list := doc.Find(folderSel.List)
	if list.Length() == 0 {
		if doc.Find("#page-body form#viewfolder").Length() > 0 && doc.Find("#page-body form#viewfolder "+folderSel.Row).Length() == 0 {
			return f, nil // an empty folder: {L_NO_MESSAGES}
		}
		return f, scrape.Markup("phpbb", "no private-message list on the page")
	}
	list.Find(folderSel.Row).Each(func(_ int, li *goquery.Selection) {
		a := li.Find(folderSel.Title).First()
		href := a.AttrOr("href", "")
		id := strings.TrimSpace(li.Find(folderSel.Mark).First().AttrOr("value", ""))
		if m := reFolderP.FindStringSubmatch(href); id == "" && m != nil {
			id = m[1]
		}
		if _, err := strconv.Atoi(id); err != nil {
			return
		}
		row := folderRow{ID: id, Subject: strings.Join(strings.Fields(a.Text()), " ")}
		if !strings.Contains(href, "action=delete") {
			row.Href = href
		}
		f.Rows = append(f.Rows, row)
	})
	f.Next = doc.Find(folderSel.Next).First().AttrOr("href", "")
	return f, nil
}
