package mybbru

import (
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"

	"forumgm/forum"
	"forumgm/forum/forumtest"
)

// The dialect conformance suite (forum/forumtest) on a stateful MyBB.ru board (mybbruBoard). The
// dialect has no private messages.
func TestConformance(t *testing.T) {
	forumtest.Run(t, forumtest.Harness{
		Lacks: map[forumtest.Lack]string{forumtest.LackPM: "the hosted PM form could not be confirmed from real pages (README.md)"},
		Start: func(t *testing.T) *forumtest.Board {
			b := newMybbruBoard(t)
			fm, err := New(forum.Config{BaseURL: b.URL + "/", Username: "gm-bot", Password: "GmBotPass1", Location: time.UTC, Now: b.Now},
				options{Client: forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100})})
			if err != nil {
				t.Fatal(err)
			}
			return b.Board(fm, "2", "999")
		}})
}

// mybbruBoard is a stateful MyBB.ru board (forumtest.FakeBoard) in the markup of the dialect's
// test pages (testdata/pages, windows-1251; README.md says where their markup comes from): topic
// 2 at 8 posts a page, each post the block of post 10 of viewtopic-id2-p2.html with its id,
// number, poster, time and body replaced, the page links and "N страница X из Y" as those pages
// show them, a guest's page with the guest's navigation of login-form.html;
// viewtopic.php?id=T&action=last a 302 to the newest post; the login form (then a 302 to its
// redirect_url), the reply form, "Сообщение отправлено" after a reply (redirect-posted.html);
// refusals: flood (post-error-flood.html, 15 s), a message over 65535 bytes of the board's
// charset (post-error-too-long.html), no permission for a guest (message-no-permission.html); a
// missing topic is PunBB 1.2's 'Bad request' in that message page. Pages are sent and forms
// read in windows-1251.
type mybbruBoard struct {
	*forumtest.FakeBoard
	t *testing.T

	member, guest mybbruThread
}

type mybbruThread struct{ head, block, tail string }

const mybbruPerPage = 8

var mybbruUsers = map[string]string{"gm-bot": "3", "Джелу": "4", "snovaya": "5"}

var (
	mybbruPostStart = regexp.MustCompile(`\t\t<div id="p\d+" class="post[^"]*"`)
	mybbruPageLink  = regexp.MustCompile(`<div class="pagelink">.*</div>`)
	mybbruPageOf    = regexp.MustCompile(`\d+ страница \d+ из \d+`)
	mybbruNav       = regexp.MustCompile(`(?s)\t\t\t<li id="navprofile">.*?</li>\n.*?<li id="navlogout">.*?</li>\n`)
	mybbruGuestNav  = regexp.MustCompile(`(?s)\t\t\t<li id="navregister">.*?</li>\n.*?<li id="navlogin">.*?</li>\n`)
)

func newMybbruBoard(t *testing.T) *mybbruBoard {
	b := &mybbruBoard{t: t, FakeBoard: forumtest.NewFakeBoard(t, forumtest.FakeOptions{
		Bot: "gm-bot", Player: "Джелу", Other: "snovaya", Start: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC),
		FirstPost: 14, FloodWait: 15 * time.Second, MaxLen: 65535, Seed: mybbruPerPage,
		Dir: filepath.Join("testdata", "pages"), Host: "http://forum.example.mybb.ru",
		Charset: charmap.Windows1251, ContentType: "text/html; charset=windows-1251",
		OtherThread: "7", Relabel: []string{"viewtopic.php?id=2&", "viewtopic.php?id=7&", `viewtopic.php?id=2"`, `viewtopic.php?id=7"`,
			"tid=2&", "tid=7&", `tid=2"`, `tid=7"`}})}
	page := b.File("viewtopic-id2-p2.html")
	b.member = b.thread(page)
	guestNav := mybbruGuestNav.FindString(b.File("login-form.html"))
	b.guest = b.thread(strings.NewReplacer("var UserID = 3;", "var UserID = 1;", `var UserLogin = "gm-bot";`, `var UserLogin = "";`).
		Replace(mybbruNav.ReplaceAllLiteralString(page, guestNav)))
	b.Serve(http.HandlerFunc(b.serve))
	return b
}

func (b *mybbruBoard) thread(page string) mybbruThread {
	head, blocks, tail := forumtest.Blocks(b.t, page, mybbruPostStart, "\n\t\t</div>\n")
	block := blocks[0] // post 10 (Джелу), with the space before the next post
	block = forumtest.Slot(b.t, block, `<div id="p10-content" class="post-content">`, "\n<p>{{BODY}}</p>\n\t\t\t\t\t\t")
	block = regexp.MustCompile(`Сегодня \d\d:\d\d:\d\d`).ReplaceAllString(block, "{{DATE}}")
	block = strings.NewReplacer(`id="p10" class="post"`, `id="p{{ID}}" class="{{CLASS}}"`, `"p10-content"`, `"p{{ID}}-content"`, "#p10", "#p{{ID}}",
		"pid=10", "pid={{ID}}", "', 10)", "', {{ID}})", `data-posted="1796025600"`, `data-posted="{{UNIX}}"`, `data-user-id="4"`, `data-user-id="{{UID}}"`,
		"<strong>9</strong>", "<strong>{{N}}</strong>", "id=4", "id={{UID}}", "email=4", "email={{UID}}", "/4-1.png", "/{{UID}}-1.png",
		"Джелу", "{{AUTHOR}}").Replace(block)
	if strings.Contains(block, "10") || strings.Contains(block, "=4") {
		b.t.Fatal("post 10 left in the post template")
	}
	return mybbruThread{head: head, block: block, tail: tail}
}

// mybbruBody is a post's text as the board renders plain text: a paragraph, lines broken.
func mybbruBody(text string) string { return forumtest.HTML(text, "<br />") }

func (b *mybbruBoard) serve(w http.ResponseWriter, r *http.Request) {
	b.Lock()
	defer b.Unlock()
	member := b.Member(r, "mybb_ru")
	q := r.URL.Query()
	page := strings.TrimPrefix(r.URL.Path, "/")
	if r.Method == http.MethodPost {
		raw := b.Form(r)
		get := func(k string) string {
			s, err := charmap.Windows1251.NewDecoder().String(raw.Get(k))
			if err != nil {
				b.t.Errorf("POST %s %s: %v", r.URL, k, err)
			}
			return s
		}
		switch {
		case page == "login.php" && q.Get("action") == "in":
			if get("req_username") != b.Bot || get("req_password") != "GmBotPass1" {
				b.Write(w, 200, b.File("login-error.html"))
				return
			}
			http.SetCookie(w, &http.Cookie{Name: "mybb_ru", Value: b.LogIn(), Path: "/"})
			http.Redirect(w, r, strings.ReplaceAll(get("redirect_url"), "http://forum.example.mybb.ru", ""), http.StatusFound)
		case !member:
			b.Write(w, 200, b.File("message-no-permission.html"))
		case page == "post.php" && q.Get("tid") == "2":
			p, refused := b.Reply(get("req_message"))
			switch refused {
			case forumtest.Flooded:
				b.Write(w, 200, b.File("post-error-flood.html"))
			case forumtest.TooLong:
				b.Write(w, 200, b.File("post-error-too-long.html"))
			default:
				b.Write(w, 200, strings.ReplaceAll(b.File("redirect-posted.html"), "pid=13#p13", fmt.Sprintf("pid=%d#p%d", p.ID, p.ID)))
			}
		default:
			b.t.Errorf("unexpected POST %s", r.URL)
			w.WriteHeader(http.StatusNotFound)
		}
		return
	}
	switch {
	case page == "login.php":
		b.Write(w, 200, b.File("login-form.html"))
	case page == "viewtopic.php" && q.Get("id") == "2" && q.Get("action") == "last":
		last := b.Posts[len(b.Posts)-1].ID
		w.Header().Set("Location", fmt.Sprintf("/viewtopic.php?pid=%d#p%d", last, last))
		w.WriteHeader(http.StatusFound)
	case page == "viewtopic.php" && q.Get("id") == "2":
		n, _ := strconv.Atoi(q.Get("p"))
		b.Write(w, 200, b.topic(max(n, 1), member))
	case page == "viewtopic.php" && q.Get("pid") != "" && b.Has(q.Get("pid")):
		id, _ := strconv.Atoi(q.Get("pid"))
		b.Write(w, 200, b.topic(b.PageOf(id, mybbruPerPage), member))
	case page == "viewtopic.php":
		b.Write(w, 200, strings.Replace(b.File("message-no-permission.html"), "У вас нет прав для доступа к этой странице.",
			"Неверный запрос. Ссылка, по которой вы пришли, неверная или устаревшая.", 1))
	case page == "post.php" && !member:
		b.Write(w, 200, b.File("message-no-permission.html"))
	case page == "post.php" && q.Get("tid") == "2":
		b.Write(w, 200, b.File("post-reply-form.html"))
	default:
		b.t.Errorf("unexpected GET %s", r.URL)
		w.WriteHeader(http.StatusNotFound)
	}
}

// topic is page n of topic 2 (past the last: the last).
func (b *mybbruBoard) topic(n int, member bool) string {
	posts, last := b.Page(n, mybbruPerPage)
	n = min(n, last)
	sk := b.guest
	if member {
		sk = b.member
	}
	link := func(n int) string { return fmt.Sprintf("{{HOST}}/viewtopic.php?id=2&amp;p=%d", n) }
	nav := `<div class="pagelink">Страница: `
	if n > 1 {
		nav += fmt.Sprintf(`<a class="prev" href="%s">Назад</a> `, link(n-1))
	}
	for i := 1; i <= last; i++ {
		if i > 1 {
			nav += " "
		}
		if i == n {
			nav += fmt.Sprintf("<strong>%d</strong>", i)
		} else {
			nav += fmt.Sprintf(`<a href="%s">%d</a>`, link(i), i)
		}
	}
	if n < last {
		nav += fmt.Sprintf(` <a class="next" href="%s">Вперед</a>`, link(n+1))
	}
	nav += "</div>"
	first := (n - 1) * mybbruPerPage
	var page strings.Builder
	for i, p := range posts {
		class := "post"
		switch {
		case first+i == 0:
			class += " topicpost"
		case i%2 == 1:
			class += " altstyle"
		}
		if i == len(posts)-1 {
			class += " endpost"
		}
		page.WriteString(strings.NewReplacer("{{CLASS}}", class, "{{ID}}", fmt.Sprint(p.ID), "{{N}}", fmt.Sprint(first+i+1),
			"{{UNIX}}", fmt.Sprint(p.Time.Unix()), "{{UID}}", mybbruUsers[p.Author], "{{AUTHOR}}", p.Author,
			"{{DATE}}", p.Time.UTC().Format("2006-01-02 15:04:05"), "{{BODY}}", mybbruBody(p.Text)).Replace(sk.block))
	}
	frame := func(s string) string {
		s = mybbruPageLink.ReplaceAllLiteralString(s, nav)
		return mybbruPageOf.ReplaceAllLiteralString(s, fmt.Sprintf("%d страница %d из %d", first+1, n, last))
	}
	return frame(sk.head) + page.String() + frame(sk.tail)
}
