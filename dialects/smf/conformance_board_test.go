package smf

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/forum/forumtest"
	"forumgm/internal/fixture"
)

// The dialect conformance suite (forum/forumtest) on a stateful SMF 2.1.4 board (smfBoard).
func TestConformance(t *testing.T) {
	forumtest.Run(t, forumtest.Harness{Start: func(t *testing.T) *forumtest.Board {
		b := newSMFBoard(t)
		fm, err := New(forum.Config{BaseURL: b.URL + "/", Username: "gm-bot", Password: "GmBotPass1",
			Location: time.UTC, Now: b.Now}, withClient(forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100})))
		if err != nil {
			t.Fatal(err)
		}
		return b.Board(fm, "2", "999")
	}})
}

// smfBoard is a stateful SMF 2.1.4 board (forumtest.FakeBoard) in the markup of the pages captured
// from a real one (testdata/forums/smf, README there): topic 2 of board 2 at SMF's 8 posts a page
// (defaultMaxMessages as configured there), each post the captured msg 16 block of 22b (member)
// or 11 (guest) with its id, poster, date and body replaced; the page links, rel=prev/next and
// the board's feed (50) as SMF builds them; the login form (01), the reply form (20, last_msg
// the topic's last), the PM form (30), the inbox (33, seen by gm-bot) and Sent Items (35) with
// their list rows and message blocks; refusals as captured: flood (28, 32: 403, SMF's 5 s), no
// permission for a guest (26), the too-long message in the error box of 24 (worded as SMF's
// error_long_message). A missing topic is SMF's not_a_topic fatal error in the markup of 28.
type smfBoard struct {
	*forumtest.FakeBoard
	t *testing.T

	member, guest threadSkeleton
	inbox, sent   folderSkeleton
	feedHead      string
	feedItem      string
	feedTail      string
}

// threadSkeleton is a topic page cut in three: before the posts, one post block with slots,
// after the posts.
type threadSkeleton struct{ head, block, tail string }

// folderSkeleton is a PM folder page: before the list rows, a row, between the rows and the
// messages, a message, after the messages.
type folderSkeleton struct{ head, row, mid, msg, tail string }

const smfPerPage = 8

// smfUsers are the captured board's member ids.
var smfUsers = map[string]string{"gm-bot": "2", "Джелу": "3", "snovaya": "4"}

var (
	smfPostStart = regexp.MustCompile(`<div class="windowbg" id="msg\d+">`)
	smfRowStart  = regexp.MustCompile(`<tr class="windowbg`)
	smfToday     = regexp.MustCompile(`<strong>Today</strong> at \d\d:\d\d [AP]M`)
	smfPageLinks = regexp.MustCompile(`<span class="pages">Pages</span>.*`)
	smfRelLinks  = regexp.MustCompile(`\t<link rel="(?:prev|next)" href="[^"]*">\n`)
)

func newSMFBoard(t *testing.T) *smfBoard {
	b := &smfBoard{t: t, FakeBoard: forumtest.NewFakeBoard(t, forumtest.FakeOptions{
		Bot: "gm-bot", Player: "Джелу", Other: "snovaya", Start: time.Date(2026, 11, 30, 3, 44, 0, 0, time.UTC),
		FirstPost: 19, FirstMessage: 2, FloodWait: 5 * time.Second, MaxLen: defaultMaxPostLength, Seed: smfPerPage,
		Dir: fixture.Dir(t, "smf"), Host: "http://127.0.0.1:8082",
		OtherThread: "7", Relabel: []string{"topic=2.", "topic=7.", `name="topic" value="2"`, `name="topic" value="7"`}})}
	b.member = b.threadSkeleton("22b-reply-redirect-target.gm-bot.html")
	b.guest = b.threadSkeleton("11-thread-p2.guest.html")
	b.inbox = b.folderSkeleton(b.File("33-pm-inbox.dzhelu.html"), b.asBot)
	b.sent = b.folderSkeleton(b.File("35-pm-sent.gm-bot.html"), func(s string) string { return s })
	head, items, tail := forumtest.Blocks(t, b.File("50-rss-board2.xml"), regexp.MustCompile(`\t\t<item>`), "</item>\n")
	b.feedHead, b.feedTail = head, tail
	b.feedItem = strings.NewReplacer("msg17", "msg{{ID}}", "msg=17", "msg={{ID}}", "Mon, 30 Nov 2026 03:47:41 GMT", "{{DATE}}").
		Replace(regexp.MustCompile(`(?s)<!\[CDATA\[.*?\]\]>`).ReplaceAllString(items[0], "<![CDATA[{{BODY}}]]>"))
	b.Serve(http.HandlerFunc(b.serve))
	return b
}

// asBot is a page captured for Джелу as gm-bot would see it.
func (b *smfBoard) asBot(page string) string {
	return strings.NewReplacer("var smf_member_id = 3;", "var smf_member_id = 2;", "u=3", "u=2", "Джелу", "gm-bot").Replace(page)
}

func (b *smfBoard) threadSkeleton(name string) threadSkeleton {
	head, blocks, tail := forumtest.Blocks(b.t, b.File(name), smfPostStart, `<hr class="post_separator">`)
	block := blocks[len(blocks)-2] // msg 16 (snovaya), with the space before the next block
	block = forumtest.Slot(b.t, block, `<div class="inner" data-msgid="16"`, "{{BODY}}")
	block = smfToday.ReplaceAllString(block, "{{DATE}}")
	block = strings.NewReplacer(`msg16"`, `msg{{ID}}"`, "msg=16", "msg={{ID}}", "_16", "_{{ID}}", `"16"`, `"{{ID}}"`,
		"(16)", "({{ID}})", "quote=16", "quote={{ID}}", "#14", "#{{N}}", "u=4", "u={{UID}}", "snovaya", "{{AUTHOR}}").Replace(block)
	if strings.Contains(block, "16") {
		b.t.Fatalf("msg 16 left in the post template of %s", name)
	}
	head = strings.ReplaceAll(smfRelLinks.ReplaceAllString(head, ""), "topic=2.8", "topic=2.{{START}}")
	head = strings.Replace(head, "\t<link rel=\"canonical\"", "{{REL}}\t<link rel=\"canonical\"", 1)
	return threadSkeleton{head: head, block: block, tail: strings.ReplaceAll(tail, "topic=2.8", "topic=2.{{START}}")}
}

// folderSkeleton cuts a folder page; as is how the member's own parts of it are made the bot's.
func (b *smfBoard) folderSkeleton(page string, as func(string) string) folderSkeleton {
	head, rows, rest := forumtest.Blocks(b.t, page, smfRowStart, "</tr>\n")
	mid, msgs, tail := forumtest.Blocks(b.t, rest, smfPostStart, "</div><!-- .windowbg -->\n")
	ids := strings.NewReplacer(`#msg1"`, `#msg{{ID}}"`, `"msg1"`, `"msg{{ID}}"`, `msg_1"`, `msg_{{ID}}"`, `subject_1"`, `subject_{{ID}}"`,
		"pmsg=1;", "pmsg={{ID}};", "deletelisting1", "deletelisting{{ID}}", "deletedisplay1", "deletedisplay{{ID}}",
		"%5b1%5D", "%5b{{ID}}%5D", `value="1"`, `value="{{ID}}"`, "Партия 1: ваш 3-й ход", "{{SUBJECT}}")
	// A row names the other member (the sender in the inbox, the recipient in Sent Items).
	row := ids.Replace(smfToday.ReplaceAllString(rows[0], "{{DATE}}"))
	row = strings.NewReplacer(`u=2" title="View the profile of gm-bot">gm-bot`, `u={{UID}}" title="View the profile of {{NAME}}">{{NAME}}`,
		`u=3">Джелу`, `u={{UID}}">{{NAME}}`).Replace(row)
	msg := forumtest.Slot(b.t, msgs[0], `<div class="inner" id="msg_1"`, "{{BODY}}")
	msg = ids.Replace(smfToday.ReplaceAllString(msg, "{{DATE}}"))
	msg = strings.NewReplacer(`u=3">Джелу`, `u={{TO_ID}}">{{TO}}`, "gm-bot", "{{FROM}}", "u=2", "u={{FROM_ID}}").Replace(msg)
	return folderSkeleton{head: as(head), row: row, mid: as(mid), msg: msg, tail: as(tail)}
}

// date is how SMF shows t with the board's time_format (%b %d, %Y, %I:%M %p).
func smfDate(t time.Time) string { return t.Format("Jan 02, 2006, 03:04 PM") }

// smfBody is a post's text as SMF's BBCode parser renders plain text.
func smfBody(text string) string { return forumtest.HTML(text, "<br>") }

func (b *smfBoard) serve(w http.ResponseWriter, r *http.Request) {
	b.Lock()
	defer b.Unlock()
	q := r.URL.RawQuery
	member := b.Member(r, "SMFCookie956")
	if r.Method == http.MethodPost {
		vals := b.Form(r)
		switch {
		case strings.Contains(q, "action=login2"):
			if vals.Get("user") != b.Bot || vals.Get("passwrd") != "GmBotPass1" {
				b.Write(w, 200, b.File("03-login-error.guest.html"))
				return
			}
			http.SetCookie(w, &http.Cookie{Name: "SMFCookie956", Value: b.LogIn(), Path: "/"})
			http.Redirect(w, r, "/index.php?action=login2;sa=check;member=2", http.StatusFound)
		case !member:
			b.Write(w, 200, b.File("26-reply-noperm.guest.html"))
		case q == "action=post2;start=0;board=2":
			_, refused := b.Reply(vals.Get("message"))
			b.refusal(w, r, refused, "28-reply-error-flood.gm-bot.html", "/index.php?topic=2.new#new")
		case q == "action=pm;sa=send2":
			_, refused := b.SendPM(vals.Get("to"), vals.Get("subject"), vals.Get("message"))
			b.refusal(w, r, refused, "32-pm-send-error-flood.gm-bot.html", "/index.php?action=pm;f=inbox;l=-1;done=sent")
		default:
			b.t.Errorf("unexpected POST %s", q)
			w.WriteHeader(http.StatusNotFound)
		}
		return
	}
	switch {
	case q == "action=login":
		b.Write(w, 200, b.File("01-login-form.guest.html"))
	case q == "action=login2;sa=check;member=2":
		http.Redirect(w, r, "/index.php", http.StatusFound)
	case q == "" && member:
		b.Write(w, 200, b.asBot(b.File("17-boardindex-pm-notice.dzhelu.html")))
	case q == "":
		b.Write(w, 200, b.File("18-boardindex.guest.html"))
	case q == "action=.xml;type=rss;board=2;limit=5":
		w.Header().Set("Content-Type", "application/rss+xml; charset=UTF-8")
		b.Write(w, 200, b.feed())
	case strings.HasPrefix(q, "topic=2."):
		b.Write(w, 200, b.thread(strings.TrimPrefix(q, "topic=2."), member))
	case strings.HasPrefix(q, "topic="):
		b.Write(w, http.StatusNotFound, b.notATopic())
	case !member && (strings.HasPrefix(q, "action=post;") || strings.HasPrefix(q, "action=pm")):
		// SMF's is_not_guest(): the login form with "Only registered members are allowed…".
		b.Write(w, 200, b.File("26-reply-noperm.guest.html"))
	case q == "action=post;topic=2.0":
		last := b.Posts[len(b.Posts)-1].ID
		b.Write(w, 200, strings.Replace(b.File("20-reply-form.gm-bot.html"), `name="last_msg" value="17"`, fmt.Sprintf(`name="last_msg" value="%d"`, last), 1))
	case q == "action=pm;sa=send":
		b.Write(w, 200, b.File("30-pm-compose.gm-bot.html"))
	case q == "action=pm;f=inbox;start=0", q == "action=pm;f=inbox;l=-1;done=sent":
		b.Write(w, 200, b.folder(b.inbox, b.Inbox, true))
	case q == sentFolderQuery:
		b.Write(w, 200, b.folder(b.sent, b.Sent, false))
	default:
		b.t.Errorf("unexpected GET %q", q)
		w.WriteHeader(http.StatusNotFound)
	}
}

// refusal answers a write: SMF's fatal flood error (403), the form's error box for a message
// too long, or the redirect of a write taken.
func (b *smfBoard) refusal(w http.ResponseWriter, r *http.Request, refused forumtest.Refusal, flood, next string) {
	switch refused {
	case forumtest.Flooded:
		b.Write(w, http.StatusForbidden, b.File(flood))
	case forumtest.TooLong:
		page := b.File("24-reply-error-empty.gm-bot.html")
		b.Write(w, 200, strings.Replace(page, "The message body was left empty.",
			fmt.Sprintf("The message exceeds the maximum allowed length (%d characters).", b.MaxLen), 1))
	default:
		http.Redirect(w, r, next, http.StatusFound)
	}
}

// thread is the topic page that start asks for: an offset ("8"), a message ("msg19", past the
// last: the last page) or "new" (the last page).
func (b *smfBoard) thread(start string, member bool) string {
	n := 1
	switch {
	case strings.HasPrefix(start, "msg"):
		var id int
		fmt.Sscan(strings.TrimPrefix(start, "msg"), &id)
		n = b.PageOf(id, smfPerPage)
	case start == "new":
		n = b.PageOf(1<<30, smfPerPage)
	default:
		var off int
		fmt.Sscan(start, &off)
		n = off/smfPerPage + 1
	}
	posts, last := b.Page(n, smfPerPage)
	sk := b.guest
	if member {
		sk = b.member
	}
	pageURL := func(n int) string { return fmt.Sprintf("{{HOST}}/index.php?topic=2.%d", (n-1)*smfPerPage) }
	links := `<span class="pages">Pages</span>`
	rel := ""
	if n > 1 {
		links += fmt.Sprintf(`<a class="nav_page" href="%s"><span class="main_icons previous_page"></span></a> `, pageURL(n-1))
		rel += fmt.Sprintf("\t<link rel=\"prev\" href=\"%s\">\n", pageURL(n-1))
	}
	for i := 1; i <= last; i++ {
		if i == n {
			links += fmt.Sprintf(`<span class="current_page">%d</span> `, i)
		} else {
			links += fmt.Sprintf(`<a class="nav_page" href="%s">%d</a> `, pageURL(i), i)
		}
	}
	if n < last {
		links += fmt.Sprintf(`<a class="nav_page" href="%s"><span class="main_icons next_page"></span></a> `, pageURL(n+1))
		rel += fmt.Sprintf("\t<link rel=\"next\" href=\"%s\">\n", pageURL(n+1))
	}
	var page strings.Builder
	page.WriteString(sk.head)
	for i, p := range posts {
		page.WriteString(strings.NewReplacer("{{ID}}", fmt.Sprint(p.ID), "{{N}}", fmt.Sprint((n-1)*smfPerPage+i), "{{UID}}", smfUsers[p.Author],
			"{{AUTHOR}}", p.Author, "{{DATE}}", smfDate(p.Time), "{{BODY}}", smfBody(p.Text)).Replace(sk.block))
	}
	page.WriteString(sk.tail)
	return strings.NewReplacer("{{START}}", fmt.Sprint((n-1)*smfPerPage), "{{REL}}", rel).Replace(smfPageLinks.ReplaceAllString(page.String(), links))
}

// folder is a PM folder's first page, newest first, every message shown under the list.
func (b *smfBoard) folder(sk folderSkeleton, msgs []forumtest.FakeMessage, inbox bool) string {
	var rows, shown strings.Builder
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		other := m.To
		if inbox {
			other = m.From
		}
		fill := strings.NewReplacer("{{ID}}", fmt.Sprint(m.ID), "{{SUBJECT}}", m.Subject, "{{DATE}}", smfDate(m.Time),
			"{{UID}}", smfUsers[other], "{{NAME}}", other, "{{FROM}}", m.From, "{{FROM_ID}}", smfUsers[m.From],
			"{{TO}}", m.To, "{{TO_ID}}", smfUsers[m.To], "{{BODY}}", smfBody(m.Text))
		rows.WriteString(fill.Replace(sk.row))
		shown.WriteString(fill.Replace(sk.msg))
	}
	return sk.head + rows.String() + sk.mid + shown.String() + sk.tail
}

// feed is the board's RSS feed of its 5 newest posts, newest first.
func (b *smfBoard) feed() string {
	var items strings.Builder
	for i := len(b.Posts) - 1; i >= 0 && i >= len(b.Posts)-5; i-- {
		p := b.Posts[i]
		items.WriteString(strings.NewReplacer("{{ID}}", fmt.Sprint(p.ID), "{{DATE}}", p.Time.UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT"),
			"{{BODY}}", smfBody(p.Text)).Replace(b.feedItem))
	}
	return b.feedHead + items.String() + b.feedTail
}

// notATopic is SMF's fatal error for a topic that does not exist, in the markup of the captured
// fatal error (28).
func (b *smfBoard) notATopic() string {
	return strings.NewReplacer(`id="post_WaitTime_broken"`, `id="not_a_topic"`,
		"The last posting from your IP was less than 5 seconds ago. Please try again later.",
		"The topic or board you are looking for appears to be either missing or off limits to you.").
		Replace(b.File("28-reply-error-flood.gm-bot.html"))
}
