package punbb

import (
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

// The dialect conformance suite (forum/forumtest) on a stateful PunBB 1.4.4 board (punbbBoard).
// PunBB core has no private messages.
func TestConformance(t *testing.T) {
	forumtest.Run(t, forumtest.Harness{
		Lacks: map[forumtest.Lack]string{forumtest.LackPM: "PunBB and FluxBB core have none (pun_pm is an extension)"},
		Start: func(t *testing.T) *forumtest.Board {
			b := newPunBBBoard(t)
			fm, err := New(forum.Config{BaseURL: b.URL + "/", Username: "gm-bot", Password: "GmBotPass1", Location: time.UTC, Now: b.Now},
				withClient(forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100})))
			if err != nil {
				t.Fatal(err)
			}
			return b.Board(fm, "2", "999")
		}})
}

// punbbBoard is a stateful PunBB 1.4.4 board (forumtest.FakeBoard) in the markup of the pages
// captured from a real one (testdata/forums/punbb, README there): topic 2 of forum 2 at that
// board's 8 posts a page, each post the captured post 11 block of 13 (member) or 11 (guest)
// with its id, number, poster, time and body replaced, the paging, "(Page N of M)" and the
// rel=prev/next/first/last links as PunBB writes them; viewtopic.php?id=T&action=last a 302 to
// the newest post, a pid the page holding it; the login form (01, then the 302 of 02), the reply
// form (20, its topic review as captured), a reply's 302 to its post (22). Refusals as captured:
// flood (25b: the form again with the error list; the Members group's 10 s), the "Forum message"
// of a guest without permission (26), a message over FORUM_MAX_POSTSIZE bytes in the error list
// of 24 worded as PunBB's 'Too long message'; a missing topic is 'Bad request' in the "Forum
// message" of 26.
type punbbBoard struct {
	*forumtest.FakeBoard
	t *testing.T

	member, guest punbbThread
}

type punbbThread struct{ head, block, tail string }

const punbbPerPage = 8

var punbbUsers = map[string]string{"gm-bot": "3", "Джелу": "4", "snovaya": "5"}

var (
	punbbPostStart = regexp.MustCompile(`\t\t<div class="post (?:odd|even)[^"]*">`)
	punbbPaging    = regexp.MustCompile(`<p class="paging">.*</p>`)
	punbbRelLinks  = regexp.MustCompile(`<link rel="(?:prev|next|first|last)" [^>]*/>\n`)
	punbbPageOf    = regexp.MustCompile(`Page \d+ of \d+`)
	punbbPageN     = regexp.MustCompile(`\(Page \d+\)`)
	punbbItemInfo  = regexp.MustCompile(`Posts: \d+ to \d+ of \d+`)
	punbbToday     = regexp.MustCompile(`Today \d\d:\d\d:\d\d`)
)

func newPunBBBoard(t *testing.T) *punbbBoard {
	b := &punbbBoard{t: t, FakeBoard: forumtest.NewFakeBoard(t, forumtest.FakeOptions{
		Bot: "gm-bot", Player: "Джелу", Other: "snovaya", Start: time.Date(2026, 11, 30, 3, 50, 0, 0, time.UTC),
		FirstPost: 21, FloodWait: 10 * time.Second, MaxLen: defaultMaxPostBytes, Bytes: true, Seed: punbbPerPage,
		Dir: fixture.Dir(t, "punbb"), Host: "http://127.0.0.1:8083", ContentType: "text/html; charset=utf-8",
		OtherThread: "7", Relabel: []string{"viewtopic.php?id=2&", "viewtopic.php?id=7&", `viewtopic.php?id=2"`, `viewtopic.php?id=7"`,
			"tid=2&", "tid=7&", `tid=2"`, `tid=7"`}})}
	b.member = b.thread("13-thread-p2.gm-bot.html")
	b.guest = b.thread("11-thread-p2.guest.html")
	b.Serve(http.HandlerFunc(b.serve))
	return b
}

func (b *punbbBoard) thread(name string) punbbThread {
	head, blocks, tail := forumtest.Blocks(b.t, b.File(name), punbbPostStart, "\n\t\t</div>\n")
	block := blocks[1] // post 11 (Джелу), with the space before the next post
	block = forumtest.Slot(b.t, block, `<div class="entry-content">`, "\n\t\t\t\t\t\t<p>{{BODY}}</p>\n\t\t\t\t\t")
	block = punbbPostStart.ReplaceAllString(block, "\t\t<div class=\"{{CLASS}}\">")
	block = strings.NewReplacer(`"p11"`, `"p{{ID}}"`, `"pc11"`, `"pc{{ID}}"`, "pid=11#p11", "pid={{ID}}#p{{ID}}", "report=11", "report={{ID}}",
		"qid=11", "qid={{ID}}", `post-num">10<`, `post-num">{{N}}<`, "Post 10", "Post {{N}}", "id=4", "id={{UID}}", "email=4", "email={{UID}}",
		"Джелу", "{{AUTHOR}}").Replace(punbbToday.ReplaceAllString(block, "{{DATE}}"))
	if regexp.MustCompile(`\D1[01]\D`).MatchString(block) {
		b.t.Fatalf("post 11 left in the post template of %s", name)
	}
	head = punbbRelLinks.ReplaceAllString(head, "")
	head = strings.Replace(head, `<link rel="search" type="text/html"`, `{{REL}}<link rel="search" type="text/html"`, 1)
	return punbbThread{head: head, block: block, tail: tail}
}

// punbbDate is how PunBB shows t (o_date_format Y-m-d, o_time_format H:i:s).
func punbbDate(t time.Time) string { return t.Format("2006-01-02 15:04:05") }

// punbbBody is a post's text as PunBB's parser renders plain text: paragraphs, lines broken.
func punbbBody(text string) string {
	return strings.ReplaceAll(forumtest.HTML(text, "<br />"), "<br /><br />", "</p>\n\t\t\t\t\t\t<p>")
}

func (b *punbbBoard) serve(w http.ResponseWriter, r *http.Request) {
	b.Lock()
	defer b.Unlock()
	member := b.Member(r, "forum_cookie_414004")
	q := r.URL.Query()
	page := strings.TrimPrefix(r.URL.Path, "/")
	if r.Method == http.MethodPost {
		vals := b.Form(r)
		switch {
		case page == "login.php":
			if vals.Get("req_username") != b.Bot || vals.Get("req_password") != "GmBotPass1" {
				b.Write(w, 200, b.File("03-login-error.guest.html"))
				return
			}
			http.SetCookie(w, &http.Cookie{Name: "forum_cookie_414004", Value: b.LogIn(), Path: "/"})
			http.Redirect(w, r, "/viewtopic.php?id=2&login=1", http.StatusFound)
		case !member:
			b.Write(w, 200, b.File("26-reply-noperm.guest.html"))
		case page == "post.php" && q.Get("tid") == "2":
			p, refused := b.Reply(vals.Get("req_message"))
			switch refused {
			case forumtest.Flooded:
				b.Write(w, 200, b.File("25b-reply-error-flood.gm-bot.html"))
			case forumtest.TooLong:
				b.Write(w, 200, strings.Replace(b.File("24-reply-error-empty.gm-bot.html"), "You must enter a message.",
					fmt.Sprintf("Posts cannot be longer than %d bytes.", b.MaxLen), 1))
			default:
				http.Redirect(w, r, fmt.Sprintf("/viewtopic.php?pid=%d#p%d", p.ID, p.ID), http.StatusFound)
			}
		default:
			b.t.Errorf("unexpected POST %s", r.URL)
			w.WriteHeader(http.StatusNotFound)
		}
		return
	}
	switch {
	case page == "login.php":
		b.Write(w, 200, b.File("01-login-form.guest.html"))
	case page == "viewtopic.php" && q.Get("id") == "2" && q.Get("action") == "last":
		last := b.Posts[len(b.Posts)-1].ID
		w.Header().Set("Location", fmt.Sprintf("/viewtopic.php?pid=%d#p%d", last, last))
		w.WriteHeader(http.StatusFound)
	case page == "viewtopic.php" && q.Get("id") == "2":
		n, _ := strconv.Atoi(q.Get("p"))
		if _, last := b.Page(1, punbbPerPage); n < 1 || n > last {
			n = 1 // PunBB shows the first page for a page out of range
		}
		b.Write(w, 200, b.topic(n, member))
	case page == "viewtopic.php" && q.Get("pid") != "" && b.Has(q.Get("pid")):
		id, _ := strconv.Atoi(q.Get("pid"))
		b.Write(w, 200, b.topic(b.PageOf(id, punbbPerPage), member))
	case page == "viewtopic.php":
		b.Write(w, 200, strings.NewReplacer("You do not have permission to access this page.", "Bad request. The link you followed is incorrect or outdated.").
			Replace(b.File("26-reply-noperm.guest.html")))
	case page == "post.php" && !member:
		b.Write(w, 200, b.File("26-reply-noperm.guest.html"))
	case page == "post.php" && q.Get("tid") == "2":
		b.Write(w, 200, b.File("20-reply-form.gm-bot.html"))
	default:
		b.t.Errorf("unexpected GET %s", r.URL)
		w.WriteHeader(http.StatusNotFound)
	}
}

// topic is page n of topic 2.
func (b *punbbBoard) topic(n int, member bool) string {
	posts, last := b.Page(n, punbbPerPage)
	sk := b.guest
	if member {
		sk = b.member
	}
	link := func(n int) string {
		if n == 1 {
			return "{{HOST}}/viewtopic.php?id=2"
		}
		return fmt.Sprintf("{{HOST}}/viewtopic.php?id=2&amp;p=%d", n)
	}
	paging := `<p class="paging"><span class="pages">Pages</span> `
	rel := ""
	if n > 1 {
		paging += fmt.Sprintf(`<a class="first-item" href="%s">Previous</a> `, link(n-1))
		rel += fmt.Sprintf("<link rel=\"prev\" href=\"%s\" title=\"Page %d\" />\n<link rel=\"first\" href=\"%s\" title=\"Page 1\" />\n", link(n-1), n-1, link(1))
	}
	for i := 1; i <= last; i++ {
		class := ""
		if i == 1 && n == 1 {
			class = ` class="first-item"`
		}
		if i == n {
			paging += fmt.Sprintf(`<strong%s>%d</strong>`, class, i)
		} else {
			paging += fmt.Sprintf(`<a href="%s">%d</a>`, link(i), i)
		}
		if i < last {
			paging += " "
		}
	}
	if n < last {
		paging += fmt.Sprintf(` <a href="%s">Next</a>`, link(n+1))
		rel += fmt.Sprintf("<link rel=\"last\" href=\"%s\" title=\"Page %d\" />\n<link rel=\"next\" href=\"%s\" title=\"Page %d\" />\n", link(last), last, link(n+1), n+1)
	}
	paging += "</p>"
	first := (n - 1) * punbbPerPage
	var page strings.Builder
	for i, p := range posts {
		class := "post odd"
		if i%2 == 1 {
			class = "post even"
		}
		if i == 0 {
			class += " firstpost"
		}
		if first+i == 0 {
			class += " topicpost"
		} else {
			class += " replypost"
		}
		page.WriteString(strings.NewReplacer("{{CLASS}}", class, "{{ID}}", fmt.Sprint(p.ID), "{{N}}", fmt.Sprint(first+i+1),
			"{{UID}}", punbbUsers[p.Author], "{{AUTHOR}}", p.Author, "{{DATE}}", punbbDate(p.Time), "{{BODY}}", punbbBody(p.Text)).Replace(sk.block))
	}
	frame := func(s string) string {
		s = punbbPaging.ReplaceAllLiteralString(s, paging)
		s = punbbPageOf.ReplaceAllLiteralString(s, fmt.Sprintf("Page %d of %d", n, last))
		s = punbbPageN.ReplaceAllLiteralString(s, fmt.Sprintf("(Page %d)", n))
		return punbbItemInfo.ReplaceAllLiteralString(s, fmt.Sprintf("Posts: %d to %d of %d", first+1, first+len(posts), len(b.Posts)))
	}
	return strings.Replace(frame(sk.head), "{{REL}}", rel, 1) + page.String() + frame(sk.tail)
}
