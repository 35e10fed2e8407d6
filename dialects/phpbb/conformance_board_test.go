package phpbb

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/forum/forumtest"
	"forumgm/internal/fixture"
)

// The dialect conformance suite (forum/forumtest) on a stateful phpBB 3.3.10 board (phpbbBoard).
func TestConformance(t *testing.T) {
	forumtest.Run(t, forumtest.Harness{Start: func(t *testing.T) *forumtest.Board {
		b := newPHPBBBoard(t)
		return b.Board(b.forum(t), "2", "999")
	}})
}

// forum is the bot's Forum on b.
func (b *phpbbBoard) forum(t *testing.T) *Forum {
	noSleep := func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	fm, err := New(forum.Config{BaseURL: b.URL + "/", Username: "gm-bot", Password: "GmBotPass1", Location: time.UTC, Now: b.Now,
		Extra: map[string]string{"flood_wait": "5s"}}, // the captured board's flood_interval
		options{Client: forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100}), Sleep: noSleep})
	if err != nil {
		t.Fatal(err)
	}
	return fm
}

// Found by the suite: the idle check reads from start=k (the cursor's place), which need not
// begin a page of phpBB's pagination; its next link goes to the next multiple of posts_per_page,
// a page repeating posts of the first. Each post is read once.
func TestPostsFromCursorOverlappingPages(t *testing.T) {
	b := newPHPBBBoard(t)
	fm := b.forum(t)
	ctx := context.Background()
	_, c, err := fm.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	b.Lock()
	b.Add("Джелу", "Ход 5.")
	b.Add("snovaya", "Ход 6.")
	b.Unlock()
	posts, _, err := fm.Posts(ctx, forum.Thread{ID: "2"}, c)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range posts {
		ids = append(ids, p.ID)
	}
	if strings.Join(ids, ",") != "19,20" {
		t.Errorf("after post %s: %v, want 19,20", c.PostID, ids)
	}
}

// Found by the suite: an empty inbox ("No messages", no list) is no message, not a changed
// markup; a missing topic (NO_TOPIC, 404) is forum.ErrNotFound.
func TestEmptyInboxAndMissingTopic(t *testing.T) {
	b := newPHPBBBoard(t)
	fm := b.forum(t)
	ctx := context.Background()
	if err := fm.Login(ctx); err != nil {
		t.Fatal(err)
	}
	if pms, _, err := fm.Inbox(ctx, forum.Cursor{}); err != nil || len(pms) != 0 {
		t.Errorf("empty inbox: %d messages, %v", len(pms), err)
	}
	if _, _, err := fm.Posts(ctx, forum.Thread{ID: "999"}, forum.Cursor{}); !errors.Is(err, forum.ErrNotFound) {
		t.Errorf("missing topic: %v, want forum.ErrNotFound", err)
	}
}

// phpbbBoard is a stateful phpBB 3.3.10 board (forumtest.FakeBoard) in the markup of the pages
// captured from a real one (testdata/forums/phpbb33, README there): topic 2 of forum 2 at that
// board's 5 posts a page, each post the captured post 9 block of 13 (member) or 11 (guest) with
// its id, poster, time and body replaced, the pagination ("N posts", pages, rel=prev/next) as
// phpBB's pagination.html writes it for any start (validate_start clamps a start past the end to
// the last page); the login form (01, then the 302 of 02 to the index 02b), the reply form (20,
// topic_cur_post_id the topic's last), the PM form (30: its recipient list empty until "Add"),
// the inbox (33, seen by gm-bot), Sent messages (35) with its rows, an empty folder as
// ucp_pm_viewfolder.html writes it ("No messages", no list), a message (34). Refusals as
// captured: flood (28, 32: the form again with p.error), the login box for a guest (26), a
// message too long in the error of 28 worded as TOO_MANY_CHARS_POST; a missing topic is NO_TOPIC
// (404) in the message panel of 31. Every message the bot sends is in Sent messages at once (the
// Outbox, where phpBB keeps it until the recipient's next visit, stays empty).
type phpbbBoard struct {
	*forumtest.FakeBoard
	t *testing.T

	member, guest phpbbThread
	inbox, sent   phpbbFolder
	view          struct{ head, msg, tail string } // a message page
}

type phpbbThread struct{ head, block, tail string }

// phpbbFolder is a folder page: before the lists, the lists around one row, after them.
type phpbbFolder struct{ head, listHead, row, listTail, tail string }

const phpbbPerPage = 5

var phpbbUsers = map[string]string{"gm-bot": "58", "Джелу": "59", "snovaya": "60"}

var (
	phpbbPostStart  = regexp.MustCompile(`<div id="p\d+" class="post has-profile`)
	phpbbTime       = regexp.MustCompile(`<time datetime="[^"]*">[^<]*</time>`)
	phpbbPagination = regexp.MustCompile(`(?s)<div class="pagination">.*?</div>`)
	phpbbRowStart   = regexp.MustCompile(`\t\t\t<li class="row`)
)

func newPHPBBBoard(t *testing.T) *phpbbBoard {
	b := &phpbbBoard{t: t, FakeBoard: forumtest.NewFakeBoard(t, forumtest.FakeOptions{
		Bot: "gm-bot", Player: "Джелу", Other: "snovaya", Start: time.Date(2026, 12, 1, 9, 50, 0, 0, time.UTC),
		FirstPost: 14, FirstMessage: 2, FloodWait: 5 * time.Second, MaxLen: 60000, Seed: phpbbPerPage,
		Dir: fixture.Dir(t, "phpbb33"), Host: "http://127.0.0.1:18233",
		OtherThread: "7", Relabel: []string{"t=2&", "t=7&", `t=2"`, `t=7"`, `name="t" value="2"`, `name="t" value="7"`}})}
	b.member = b.thread("13-thread-p2.gm-bot.html")
	b.guest = b.thread("11-thread-p2.guest.html")
	b.inbox = b.folder(b.asBot(b.File("33-pm-inbox.dzhelu.html")))
	b.sent = b.folder(b.File("35-pm-sentbox.gm-bot.html"))
	page := b.File("34-pm-read.dzhelu.html")
	i, j := strings.Index(page, `<div id="post-1"`), strings.Index(page, "\n<fieldset class=\"display-options\">")
	msg := forumtest.Slot(t, page[i:j], `<div class="content">`, "{{BODY}}")
	msg = strings.NewReplacer("post-1", "post-{{ID}}", "profile1", "profile{{ID}}", "sig1", "sig{{ID}}", "p=1", "p={{ID}}", "pm/1/", "pm/{{ID}}/",
		`u=59" class="username">Джелу`, `u={{TO_ID}}" class="username">{{TO}}`, "u=58", "u={{FROM_ID}}", "gm-bot", "{{FROM}}",
		"Ваш ход", "{{SUBJECT}}", "Tue Dec 01, 2026 9:44 am", "{{DATE}}").Replace(msg)
	ids := strings.NewReplacer("p=1", "p={{ID}}", `value="1"`, `value="{{ID}}"`)
	b.view.head, b.view.msg, b.view.tail = ids.Replace(b.asBot(page[:i])), msg, ids.Replace(b.asBot(page[j:]))
	b.Serve(http.HandlerFunc(b.serve))
	return b
}

// asBot is the header of a page captured for Джелу as gm-bot sees it.
func (b *phpbbBoard) asBot(page string) string {
	return strings.NewReplacer(`<span class="username">Джелу</span>`, `<span class="username">gm-bot</span>`,
		`u=59" title="Profile"`, `u=58" title="Profile"`).Replace(page)
}

func (b *phpbbBoard) thread(name string) phpbbThread {
	head, blocks, tail := forumtest.Blocks(b.t, b.File(name), phpbbPostStart, "\t\t\n\t\t</div>\n\t</div>\n")
	block := blocks[2] // post 9 (Джелу), with the space before the next post
	block = forumtest.Slot(b.t, block, `<div class="content">`, "{{BODY}}")
	block = phpbbTime.ReplaceAllString(block, "{{TIME}}")
	block = strings.NewReplacer(`"p9"`, `"p{{ID}}"`, "profile9", "profile{{ID}}", "post_content9", "post_content{{ID}}", "p=9", "p={{ID}}",
		"#p9", "#p{{ID}}", "sig9", "sig{{ID}}", "post/9/", "post/{{ID}}/", "u=59", "u={{UID}}", "author_id=59", "author_id={{UID}}",
		"Джелу", "{{AUTHOR}}").Replace(block)
	if regexp.MustCompile(`\D9\D`).MatchString(strings.ReplaceAll(block, "9:4", "")) {
		b.t.Fatalf("post 9 left in the post template of %s", name)
	}
	fix := strings.NewReplacer("start=5", "start={{START}}")
	return phpbbThread{head: fix.Replace(head), block: block, tail: fix.Replace(tail)}
}

func (b *phpbbBoard) folder(page string) phpbbFolder {
	i := strings.Index(page, "\t\t\t<ul class=\"topiclist two-columns\">")
	listHead, rows, rest := forumtest.Blocks(b.t, page[i:], phpbbRowStart, "</li>\n")
	j := strings.Index(rest, "</ul>") + len("</ul>")
	row := strings.NewReplacer("p=1", "p={{ID}}", `value="1"`, `value="{{ID}}"`, "Ваш ход", "{{SUBJECT}}",
		"Tue Dec 01, 2026 9:44 am", "{{DATE}}", `u=58" class="username">gm-bot`, `u={{UID}}" class="username">{{NAME}}`,
		`u=59" class="username">Джелу`, `u={{UID}}" class="username">{{NAME}}`).Replace(rows[0])
	return phpbbFolder{head: page[:i], listHead: listHead, row: row, listTail: rest[:j], tail: rest[j:]}
}

// phpbbDate is how phpBB shows t with the board's default date format (D M d, Y g:i a).
func phpbbDate(t time.Time) string { return t.Format("Mon Jan 02, 2006 3:04 pm") }

// phpbbBody is a post's text as phpBB renders plain text.
func phpbbBody(text string) string { return forumtest.HTML(text, "<br>\n") }

func (b *phpbbBoard) serve(w http.ResponseWriter, r *http.Request) {
	b.Lock()
	defer b.Unlock()
	member := b.Member(r, "phpbb3_hiva5_sid")
	q := r.URL.Query()
	page := strings.TrimPrefix(r.URL.Path, "/")
	if r.Method == http.MethodPost {
		vals := b.Form(r)
		switch {
		case page == "ucp.php" && q.Get("mode") == "login":
			if vals.Get("username") != b.Bot || vals.Get("password") != "GmBotPass1" {
				b.Write(w, 200, b.File("03-login-error.guest.html"))
				return
			}
			sid := b.LogIn()
			http.SetCookie(w, &http.Cookie{Name: "phpbb3_hiva5_sid", Value: sid, Path: "/"})
			http.Redirect(w, r, "/index.php?sid="+sid, http.StatusFound)
		case !member:
			b.Write(w, 200, b.File("26-reply-login-required.guest.html"))
		case page == "posting.php" && q.Get("mode") == "reply" && q.Get("t") == "2":
			p, refused := b.Reply(vals.Get("message"))
			if refused == forumtest.Taken {
				http.Redirect(w, r, fmt.Sprintf("/viewtopic.php?p=%d#p%d", p.ID, p.ID), http.StatusFound)
				return
			}
			b.refuse(w, "28-reply-error-flood.gm-bot.html", refused)
		case page == "ucp.php" && q.Get("mode") == "compose" && vals.Get("add_to") != "":
			b.Write(w, 200, b.compose(vals.Get("username_list")))
		case page == "ucp.php" && q.Get("mode") == "compose" && vals.Get("post") != "":
			to := ""
			for name, id := range phpbbUsers {
				if vals.Get("address_list[u]["+id+"]") == "to" {
					to = name
				}
			}
			if to == "" {
				b.t.Errorf("PM sent without a recipient: %v", vals)
			}
			if _, refused := b.SendPM(to, vals.Get("subject"), vals.Get("message")); refused != forumtest.Taken {
				b.refuse(w, "32-pm-send-error-flood.gm-bot.html", refused)
				return
			}
			b.Write(w, 200, b.File("31-pm-send-success.gm-bot.html"))
		default:
			b.t.Errorf("unexpected POST %s", r.URL)
			w.WriteHeader(http.StatusNotFound)
		}
		return
	}
	switch {
	case page == "ucp.php" && q.Get("mode") == "login" && member, page == "index.php" && member:
		b.Write(w, 200, b.File("02b-login-redirect-target.gm-bot.html"))
	case page == "ucp.php" && q.Get("mode") == "login":
		b.Write(w, 200, b.File("01-login-form.guest.html"))
	case page == "index.php":
		b.Write(w, 200, b.File("18-index.guest.html"))
	case page == "viewtopic.php" && q.Get("t") == "2":
		start, _ := strconv.Atoi(q.Get("start"))
		b.Write(w, 200, b.topic(start, member))
	case page == "viewtopic.php" && q.Get("p") != "":
		// A post's link: the page of the topic that holds it.
		id, _ := strconv.Atoi(q.Get("p"))
		b.Write(w, 200, b.topic((b.PageOf(id, phpbbPerPage)-1)*phpbbPerPage, member))
	case page == "viewtopic.php":
		notFound := strings.NewReplacer("This message has been sent successfully.", "The requested topic does not exist.").
			Replace(regexp.MustCompile(`(?s)<meta http-equiv="refresh"[^>]*>|<br /><br /><a href="./ucp.php\?i=pm.*?</p>`).ReplaceAllString(b.File("31-pm-send-success.gm-bot.html"), "</p>"))
		b.Write(w, http.StatusNotFound, notFound)
	case !member && (page == "posting.php" || page == "ucp.php"):
		b.Write(w, 200, b.File("26-reply-login-required.guest.html"))
	case page == "posting.php" && q.Get("mode") == "reply" && q.Get("t") == "2":
		last := b.Posts[len(b.Posts)-1].ID
		b.Write(w, 200, strings.Replace(b.File("20-reply-form.gm-bot.html"), `name="topic_cur_post_id" value="12"`, fmt.Sprintf(`name="topic_cur_post_id" value="%d"`, last), 1))
	case page == "ucp.php" && q.Get("mode") == "compose":
		b.Write(w, 200, b.compose(""))
	case page == "ucp.php" && q.Get("folder") == "inbox":
		b.Write(w, 200, b.folderPage(b.inbox, b.Inbox, "0"))
	case page == "ucp.php" && q.Get("folder") == "sentbox":
		b.Write(w, 200, b.folderPage(b.sent, b.Sent, "-1"))
	case page == "ucp.php" && q.Get("folder") == "outbox":
		b.Write(w, 200, b.folderPage(b.sent, nil, "-2"))
	case page == "ucp.php" && q.Get("mode") == "view":
		b.Write(w, 200, b.message(q.Get("p")))
	default:
		b.t.Errorf("unexpected GET %s", r.URL)
		w.WriteHeader(http.StatusNotFound)
	}
}

// refuse shows the form again with phpBB's error: flood control as captured, a message too long
// worded as TOO_MANY_CHARS_POST.
func (b *phpbbBoard) refuse(w http.ResponseWriter, flood string, refused forumtest.Refusal) {
	page := b.File(flood)
	if refused == forumtest.TooLong {
		page = strings.Replace(page, "You cannot make another post so soon after your last.",
			fmt.Sprintf("Your message contains %d characters. The maximum number of allowed characters is %d.", b.MaxLen+1, b.MaxLen), 1)
	}
	b.Write(w, 200, page)
}

// compose is the PM form, with to among its recipients when given.
func (b *phpbbBoard) compose(to string) string {
	page := b.File("30-pm-compose.gm-bot.html")
	if to == "" {
		page = strings.Replace(page, `<input type="hidden" name="address_list[u][59]" value="to" />`, "", 1)
		return regexp.MustCompile(`(?s)<ul class="recipients">.*?</ul>`).ReplaceAllString(page, `<ul class="recipients"></ul>`)
	}
	return strings.NewReplacer("[59]", "["+phpbbUsers[to]+"]", "u=59", "u="+phpbbUsers[to], `class="username">Джелу`, `class="username">`+to).Replace(page)
}

// topic is the page of topic 2 from the start-th post: phpBB shows per posts from any start
// within the topic, a start past the end is the last page.
func (b *phpbbBoard) topic(start int, member bool) string {
	total := len(b.Posts)
	if start < 0 || start >= total {
		start = (total - 1) / phpbbPerPage * phpbbPerPage
	}
	posts := b.Posts[start:min(start+phpbbPerPage, total)]
	sk := b.guest
	if member {
		sk = b.member
	}
	on, pages := start/phpbbPerPage+1, (total+phpbbPerPage-1)/phpbbPerPage
	link := func(s int) string {
		if s == 0 {
			return "./viewtopic.php?t=2"
		}
		return fmt.Sprintf("./viewtopic.php?t=2&amp;start=%d", s)
	}
	nav := fmt.Sprintf("<div class=\"pagination\">\n\t\t\t%d posts\n", total)
	if pages > 1 {
		nav += "\t\t\t\t\t\t\t<ul>\n"
		if on > 1 {
			nav += fmt.Sprintf("\t\t\t<li class=\"arrow previous\"><a class=\"button button-icon-only\" href=\"%s\" rel=\"prev\" role=\"button\"><i class=\"icon fa-chevron-left fa-fw\" aria-hidden=\"true\"></i><span class=\"sr-only\">Previous</span></a></li>\n", link(max(0, start-phpbbPerPage)))
		}
		for n := 1; n <= pages; n++ {
			if n == on {
				nav += fmt.Sprintf("\t\t\t<li class=\"active\"><span>%d</span></li>\n", n)
			} else {
				nav += fmt.Sprintf("\t\t\t\t<li><a class=\"button\" href=\"%s\" role=\"button\">%d</a></li>\n", link((n-1)*phpbbPerPage), n)
			}
		}
		if on < pages {
			nav += fmt.Sprintf("\t\t\t\t<li class=\"arrow next\"><a class=\"button button-icon-only\" href=\"%s\" rel=\"next\" role=\"button\"><i class=\"icon fa-chevron-right fa-fw\" aria-hidden=\"true\"></i><span class=\"sr-only\">Next</span></a></li>\n", link(start+phpbbPerPage))
		}
		nav += "\t</ul>\n"
	} else {
		nav += "\t\t\t\t\t\t\t&bull; Page <strong>1</strong> of <strong>1</strong>\n"
	}
	nav += "\t\t\t\t\t</div>"
	var page strings.Builder
	page.WriteString(phpbbPagination.ReplaceAllLiteralString(sk.head, nav))
	for _, p := range posts {
		page.WriteString(strings.NewReplacer("{{ID}}", fmt.Sprint(p.ID), "{{UID}}", phpbbUsers[p.Author], "{{AUTHOR}}", p.Author,
			"{{TIME}}", fmt.Sprintf(`<time datetime="%s">%s</time>`, p.Time.UTC().Format("2006-01-02T15:04:05+00:00"), phpbbDate(p.Time)),
			"{{BODY}}", phpbbBody(p.Text)).Replace(sk.block))
	}
	page.WriteString(phpbbPagination.ReplaceAllLiteralString(sk.tail, nav))
	return strings.ReplaceAll(page.String(), "{{START}}", fmt.Sprint(start))
}

// folderPage is a folder's first page, newest first; an empty folder says "No messages" and has
// no list.
func (b *phpbbBoard) folderPage(sk phpbbFolder, msgs []forumtest.FakeMessage, folder string) string {
	if len(msgs) == 0 {
		return sk.head + "\t\t<p><strong>\n\t\t\t\tNo messages\n\t\t\t</strong></p>\n" + sk.tail
	}
	var rows strings.Builder
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		other := m.From
		if folder != "0" {
			other = m.To
		}
		rows.WriteString(strings.NewReplacer("{{ID}}", fmt.Sprint(m.ID), "{{SUBJECT}}", m.Subject, "{{DATE}}", phpbbDate(m.Time),
			"{{UID}}", phpbbUsers[other], "{{NAME}}", other).Replace(sk.row))
	}
	return sk.head + sk.listHead + rows.String() + sk.listTail + sk.tail
}

// message is the page of message id, in the inbox or sent by the bot.
func (b *phpbbBoard) message(id string) string {
	for _, m := range append(append([]forumtest.FakeMessage(nil), b.Inbox...), b.Sent...) {
		if fmt.Sprint(m.ID) != id {
			continue
		}
		fill := strings.NewReplacer("{{ID}}", id, "{{FROM}}", m.From, "{{FROM_ID}}", phpbbUsers[m.From], "{{TO}}", m.To,
			"{{TO_ID}}", phpbbUsers[m.To], "{{SUBJECT}}", m.Subject, "{{DATE}}", phpbbDate(m.Time), "{{BODY}}", phpbbBody(m.Text))
		return fill.Replace(b.view.head + b.view.msg + b.view.tail)
	}
	b.t.Errorf("no message %s", id)
	return ""
}
