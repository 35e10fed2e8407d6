package invision

import (
	"fmt"
	"html"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"forumgm/forum/forumtest"
	"forumgm/internal/fixture"
)

// The stand-in Invision Community 4.7 board of the tests (README.md says where every piece
// comes from). Topic pages hold the two real comments of forum.armbian.com's topic 34923
// (testdata/realboards/invision) and the comments the tests add, each a copy of the real second
// comment with its id, author, time and content replaced, three a page, with the pagination
// template; the user bar, login form, comment form and error page follow Invision 4.7's
// templates. csrfKey is bound to the session cookie, as \IPS\Session's is.

const (
	botName  = "gm-bot"
	botPass  = "secret"
	topicID  = "34923"
	slugPath = "/forum/topic/34923-csc-armbian-for-rk322x-tv-box-boards/"
	perPage  = 3
)

type fakeComment struct {
	id     int
	author string
	html   string
}

type fakeIPS struct {
	t     *testing.T
	srv   *httptest.Server
	front *forumtest.Front // cuts an answer (the conformance suite's page cut short)

	mu       sync.Mutex
	template string // the real second comment's article
	comments []fakeComment
	log      []string
	forms    map[string][]url.Values
	sessions map[string]bool // session cookie -> a member's
	nextSess int
	nextID   int
	nowUnix  int64
	flood    []int // seconds the next replies are refused for
	locked   bool  // no comment form: the bot may not reply
	merge    bool  // the next reply is merged into the bot's last comment
	stale    bool  // the next reply's csrfKey is refused (the session's key changed)
	convs    []*fakeConv
	members  map[string]bool // display name -> may receive messages
	nextConv int
	nextMsg  int
	slug     string // the topic's full path as Invision writes it (percent-encoded): slugPath, or a Cyrillic one
}

type fakeConv struct {
	id       int
	title    string
	unread   bool
	latest   int64
	messages []fakeComment
}

func newFakeIPS(t *testing.T) *fakeIPS {
	raw, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "invision", "ips47-armbian-rk322x-comments.html"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	f := &fakeIPS{t: t, forms: map[string][]url.Values{}, sessions: map[string]bool{}, nextID: 93300, nowUnix: 1764500000,
		members: map[string]bool{"Игрок": true, "Закрытый": false}, nextConv: 41, nextMsg: 7001, slug: slugPath}
	second := strings.Index(s, "<a id=\"comment-93235\"></a>")
	first := strings.Index(s, "<a id=\"comment-92583\"></a>")
	f.comments = []fakeComment{{id: 92583, author: "fabiobassa", html: s[first:second]}, {id: 93235, author: "knaerzche", html: s[second:]}}
	f.template = s[second:]
	f.front = forumtest.NewFront(http.HandlerFunc(f.serve))
	f.srv = httptest.NewServer(f.front)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeIPS) base() string { return f.srv.URL + "/forum/" }

// session is the request's session cookie, a new guest session when it has none.
func (f *fakeIPS) session(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie("ips4_IPSSessionFront"); err == nil {
		return c.Value
	}
	f.nextSess++
	id := fmt.Sprintf("guest-%d", f.nextSess)
	http.SetCookie(w, &http.Cookie{Name: "ips4_IPSSessionFront", Value: id, Path: "/"})
	return id
}

func csrfKey(session string) string { return fmt.Sprintf("%x", []byte(session)) }

// comment is a comment built from the real second one: id, author, time and content replaced.
func (f *fakeIPS) comment(id int, author string, unix int64, content string) string {
	h := strings.ReplaceAll(f.template, "93235", strconv.Itoa(id))
	h = strings.ReplaceAll(h, "14286-knaerzche", "7-"+url.PathEscape(author))
	h = strings.ReplaceAll(h, "knaerzche", html.EscapeString(author))
	h = regexp.MustCompile(`datetime='[^']*'`).ReplaceAllString(h, "datetime='"+time.Unix(unix, 0).UTC().Format("2006-01-02T15:04:05Z")+"'")
	open := strings.Index(h, `data-role="commentContent"`)
	open += strings.Index(h[open:], ">") + 1
	end := strings.Index(h[open:], "\n\t\t</div>") + open
	return h[:open] + content + h[end:]
}

// editorValue is what Invision makes of a no-script editor field: its lines joined with <br>
// (nl2br), the BBCode the tests use parsed.
func editorValue(s string) string {
	s = strings.NewReplacer("[b]", "<strong>", "[/b]", "</strong>").Replace(s)
	return "<p>" + strings.ReplaceAll(s, "\n", "<br>\n") + "</p>"
}

func (f *fakeIPS) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log = append(f.log, r.Method+" "+r.URL.RequestURI())
	sess := f.session(w, r)
	if r.Method == http.MethodPost {
		if err := r.ParseForm(); err != nil {
			f.t.Error(err)
		}
		f.forms[r.URL.EscapedPath()] = append(f.forms[r.URL.EscapedPath()], r.PostForm)
	}
	switch {
	case r.URL.Path == "/forum/login/" && r.Method == http.MethodGet:
		f.page(w, sess, 200, "Sign In", loginPage(csrfKey(sess), ""))
	case r.URL.Path == "/forum/login/" && r.Method == http.MethodPost:
		f.login(w, r, sess)
	case r.URL.Path == "/forum/":
		f.page(w, sess, 200, "Forums", `<section class="ipsBox"></section>`)
	case r.URL.Path == "/forum/topic/"+topicID+"/" && r.Method == http.MethodGet:
		// \IPS\Dispatcher\Front::checkUrl: on to the URL with the SEO title, the query kept.
		target := f.slug
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, target, http.StatusMovedPermanently)
	case r.URL.EscapedPath() == f.slug && r.URL.Query().Get("do") == "getLastComment":
		last := f.comments[len(f.comments)-1]
		http.Redirect(w, r, f.pageURL(len(f.comments))+fmt.Sprintf("#comment-%d", last.id), http.StatusMovedPermanently)
	case r.URL.Path == "/forum/forum/12/":
		http.Redirect(w, r, forumPath, http.StatusMovedPermanently)
	case r.URL.Path == forumPath && r.Method == http.MethodGet:
		f.forumView(w, sess)
	case r.URL.Path == "/forum/index.php" && r.URL.Query().Get("do") == "findMember":
		f.findMember(w, r)
	case r.URL.Path == "/forum/messenger/compose/" && r.Method == http.MethodPost:
		f.compose(w, r, sess)
	case r.URL.Path == "/forum/messenger/compose/":
		f.page(w, sess, 200, "Compose new", composeForm(csrfKey(sess), "", ""))
	case r.URL.Path == "/forum/messenger/":
		f.messengerList(w, sess)
	case strings.HasPrefix(r.URL.Path, "/forum/messenger/"):
		f.messengerView(w, r, sess)
	case strings.HasPrefix(r.URL.EscapedPath(), f.slug) && r.Method == http.MethodPost:
		f.reply(w, r, sess)
	case strings.HasPrefix(r.URL.EscapedPath(), f.slug):
		n := 1
		if m := regexp.MustCompile(`page/(\d+)/$`).FindStringSubmatch(r.URL.Path); m != nil {
			n, _ = strconv.Atoi(m[1])
		}
		f.topicPage(w, sess, n, "")
	default:
		f.errorPage(w, sess, 404, "We could not locate the item you are trying to view.")
	}
}

// pageURL is the page holding the n-th comment.
func (f *fakeIPS) pageURL(n int) string {
	p := (n + perPage - 1) / perPage
	if p <= 1 {
		return f.slug
	}
	return fmt.Sprintf("%spage/%d/", f.slug, p)
}

// page writes a whole page with the user bar (userBar template) of the session's visitor.
func (f *fakeIPS) page(w http.ResponseWriter, sess string, status int, title, body string) {
	bar := `<ul id='elUserNav' class='ipsList_inline cSignedOut ipsResponsive_showDesktop'><li id='elSignInLink'><a href='/forum/login/' data-ipsMenu-closeOnClick="false" data-ipsMenu id='elUserSignIn'>Existing user? Sign In</a></li></ul>`
	if f.sessions[sess] {
		n := 0
		for _, c := range f.convs {
			if c.unread {
				n++
			}
		}
		hide := ""
		if n == 0 {
			hide = " ipsHide"
		}
		bar = fmt.Sprintf(`<ul id='elUserNav' class='ipsList_inline cSignedIn ipsResponsive_showDesktop' data-controller='core.front.core.userbar'><li class='cInbox cUserNav_icon'><a href='/forum/messenger/' id='elFullInbox' data-ipsTooltip title='Messages' data-ipsMenu data-ipsMenu-closeOnClick='false'><i class='fa fa-envelope'></i> <span class='ipsNotificationCount%s' data-notificationType='inbox' data-currentCount='%d'>%d</span></a></li><li id='cUserLink'><a href='#elUserLink_menu' id='elUserLink' data-ipsMenu>%s</a></li></ul>`, hide, n, n, botName)
	}
	w.Header().Set("Content-Type", "text/html;charset=UTF-8")
	if status != 200 {
		w.WriteHeader(status)
	}
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"en-US\" dir=\"ltr\">\n<head><meta charset=\"utf-8\"><title>%s</title></head>\n<body class='ipsApp ipsApp_front ipsJS_none ipsClearfix'>\n<div id='ipsLayout_header'>%s</div>\n<main id='ipsLayout_body'>\n%s\n</main>\n</body>\n</html>\n",
		html.EscapeString(title), bar, body)
}

// errorPage is the error template (#elError).
func (f *fakeIPS) errorPage(w http.ResponseWriter, sess string, status int, msg string) {
	f.page(w, sess, status, "Sorry!", fmt.Sprintf(`<section id='elError' class='ipsType_center'><div class='ipsBox ipsPad'><p class='ipsPadding:half ipsType_reset ipsType_light ipsType_large'>Sorry, there is a problem</p><div id='elErrorMessage' class='ipsPadding:half ipsPos_center'>%s</div></div></section>`, html.EscapeString(msg)))
}

// loginPage is the login and loginForm templates (one username/password method).
func loginPage(key, errText string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<form accept-charset='utf-8' method='post' action='/forum/login/' class='ipsBox_alt'>
<input type="hidden" name="csrfKey" value="%s">
<div class='cLogin_single ipsPos_center'>`, key)
	if errText != "" {
		fmt.Fprintf(&b, `<p class="ipsMessage ipsMessage_error">%s</p>`, html.EscapeString(errText))
	}
	b.WriteString(`<div class="ipsBox ipsResponsive_pull ipsPadding"><h1 class='ipsType_reset ipsType_pageTitle'>Sign In</h1>
<ul class='ipsForm'>
<li class="ipsFieldRow ipsFieldRow_fullWidth ipsClearfix"><label class="ipsFieldRow_label" for="auth">Display Name</label><div class="ipsFieldRow_content"><input type="text" placeholder="Display Name" name="auth" id="auth" autocomplete="username"></div></li>
<li class="ipsFieldRow ipsFieldRow_fullWidth ipsClearfix"><label class="ipsFieldRow_label" for="password">Password</label><div class="ipsFieldRow_content"><input type="password" placeholder="Password" name="password" id="password" autocomplete="current-password"></div></li>
<li class="ipsFieldRow ipsFieldRow_checkbox ipsClearfix"><span class="ipsCustomInput"><input type="checkbox" name="remember_me" id="remember_me_checkbox" value="1" checked aria-checked="true"><span></span></span><div class="ipsFieldRow_content"><label class="ipsFieldRow_label" for="remember_me_checkbox">Remember me</label></div></li>
<li class="ipsFieldRow ipsFieldRow_fullWidth"><button type="submit" name="_processLogin" value="usernamepassword" class="ipsButton ipsButton_primary ipsButton_small" id="elSignIn_submit">Sign In</button></li>
</ul></div></div></form>`)
	return b.String()
}

func (f *fakeIPS) login(w http.ResponseWriter, r *http.Request, sess string) {
	if r.PostForm.Get("csrfKey") != csrfKey(sess) || r.PostForm.Get("_processLogin") != "usernamepassword" {
		f.page(w, sess, 200, "Sign In", loginPage(csrfKey(sess), "")) // \IPS\Login ignores it
		return
	}
	if r.PostForm.Get("auth") != botName || r.PostForm.Get("password") != botPass {
		f.page(w, sess, 200, "Sign In", loginPage(csrfKey(sess), "The display name or password was incorrect. Please try again (make sure your caps lock is off)."))
		return
	}
	f.nextSess++
	member := fmt.Sprintf("member-%d", f.nextSess)
	f.sessions[member] = true
	http.SetCookie(w, &http.Cookie{Name: "ips4_IPSSessionFront", Value: member, Path: "/"})
	http.Redirect(w, r, "/forum/?_fromLogin=1", http.StatusMovedPermanently)
}

// topicPage is page n of the topic: pagination, its comments and, for a member who may reply,
// the comment form (commentTemplate, editor and editorRaw templates) with errText under it.
func (f *fakeIPS) topicPage(w http.ResponseWriter, sess string, n int, errText string) {
	pages := (len(f.comments) + perPage - 1) / perPage
	if n < 1 || n > pages {
		f.errorPage(w, sess, 404, "We could not locate the item you are trying to view.")
		return
	}
	var b strings.Builder
	b.WriteString(topicCrumbs)
	if pages > 1 {
		b.WriteString(pagination(f.slug, n, pages))
	}
	b.WriteString(`<div data-role='commentFeed' data-controller='core.front.core.moderation'>`)
	for _, c := range f.comments[(n-1)*perPage : min(n*perPage, len(f.comments))] {
		b.WriteString(c.html)
	}
	b.WriteString(`</div>`)
	if f.sessions[sess] && !f.locked {
		key := csrfKey(sess)
		fmt.Fprintf(&b, `<div class='ipsAreaBackground_light ipsPad' data-role='replyArea'>
<form accept-charset='utf-8' class="ipsForm ipsForm_vertical" action="%s" method="post" enctype="multipart/form-data">
	<input type="hidden" name="commentform_%s_submitted" value="1">
	<input type="hidden" name="csrfKey" value="%s">
	<input type="hidden" name="_contentReply" value="1">
	<input type="hidden" name="MAX_FILE_SIZE" value="2097152">
	<input type="hidden" name="plupload" value="5f8e3c1d2b4a69788d0e1f2a3b4c5d6e">
	<div class='ipsComposeArea ipsComposeArea_withPhoto ipsClearfix ipsContained'>
		<div class='ipsComposeArea_editor'>
			<div class='ipsComposeArea_editor' data-role="editor"><div class='ipsType_normal ipsType_richText ipsType_break' data-ipsEditor>
				<div data-role='editorComposer'>
					<noscript><textarea name="topic_comment_%s_noscript" rows="15"></textarea></noscript>
					<div class="ipsHide norewrite" data-role="mainEditorArea"><textarea name="topic_comment_%s" data-role='contentEditor' class="ipsHide" tabindex='1'></textarea></div>
				</div>
			</div></div>`, f.slug, topicID, key, topicID, topicID)
		if errText != "" {
			fmt.Fprintf(&b, `<div class="ipsType_warning ipsSpacer_top" data-role="commentFormError">%s</div>`, html.EscapeString(errText))
		}
		b.WriteString(`<ul class='ipsToolList ipsToolList_horizontal ipsClear ipsClearfix ipsJS_hide' data-ipsEditor-toolList><li><button type="submit" class="ipsButton ipsButton_primary" tabindex="2" accesskey="s" role="button">Submit Reply</button></li></ul>
		</div>
	</div>
</form></div>`)
	}
	if f.sessions[sess] && f.locked {
		// A closed topic's compose area, as the real go-piratia.ru page (ips47-gopiratia-t16.html) shows it.
		b.WriteString(`<div class="ipsComposeArea ipsComposeArea_withPhoto ipsComposeArea_unavailable ipsClearfix">
	<div class="ipsComposeArea_editor">
		<div class="ipsComposeArea_dummy">
			<span class="ipsType_warning"><i class="fa fa-warning"></i> This topic is now closed to further replies. </span>
		</div>
	</div>
</div>`)
	}
	f.page(w, sess, 200, "CSC Armbian for RK322x TV box boards", b.String())
}

// pagination is the pagination template for page n of pages.
func pagination(slug string, n, pages int) string {
	u := func(p int) string {
		if p == 1 {
			return slug
		}
		return fmt.Sprintf("%spage/%d/", slug, p)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<ul class='ipsPagination' id='elPagination_x_1' data-ipsPagination-seoPagination='true' data-pages='%d'>`, pages)
	if n != 1 {
		fmt.Fprintf(&b, `<li class='ipsPagination_first'><a href='%s' rel="first" data-page='1'>«</a></li><li class='ipsPagination_prev'><a href='%s' rel="prev" data-page='%d'>Prev</a></li>`, u(1), u(n-1), n-1)
	} else {
		fmt.Fprintf(&b, `<li class='ipsPagination_first ipsPagination_inactive'><a href='%s' rel="first" data-page='1'>«</a></li><li class='ipsPagination_prev ipsPagination_inactive'><a href='%s' rel="prev" data-page='0'>Prev</a></li>`, u(1), u(1))
	}
	for p := 1; p <= pages; p++ {
		cls := "ipsPagination_page"
		if p == n {
			cls += " ipsPagination_active"
		}
		fmt.Fprintf(&b, `<li class='%s'><a href='%s' data-page='%d'>%d</a></li>`, cls, u(p), p, p)
	}
	if n != pages {
		fmt.Fprintf(&b, `<li class='ipsPagination_next'><a href='%s' rel="next" data-page='%d'>Next</a></li>`, u(n+1), n+1)
	} else {
		fmt.Fprintf(&b, `<li class='ipsPagination_next ipsPagination_inactive'><a href='%s' rel="next" data-page='%d'>Next</a></li>`, u(pages), pages)
	}
	b.WriteString(`</ul>`)
	return b.String()
}

// reply is \IPS\Content\Item::commentForm for a POST: a csrfKey not the session's leaves the
// form unsubmitted (the page again, no error); flood control and an empty editor re-show the
// form with the error; a comment redirects to its page and #comment-ID.
func (f *fakeIPS) reply(w http.ResponseWriter, r *http.Request, sess string) {
	form := r.PostForm
	n := len(f.comments)
	stale := f.stale
	f.stale = false
	if form.Get("commentform_"+topicID+"_submitted") == "" || form.Get("csrfKey") != csrfKey(sess) || stale || !f.sessions[sess] || f.locked {
		f.topicPage(w, sess, (n+perPage-1)/perPage, "")
		return
	}
	if len(f.flood) > 0 {
		s := f.flood[0]
		f.flood = f.flood[1:]
		if s > 0 {
			f.topicPage(w, sess, (n+perPage-1)/perPage, fmt.Sprintf("New posts within a short time frame are limited. Please wait %d seconds before submitting.", s))
			return
		}
	}
	text, ok := form["topic_comment_"+topicID+"_noscript"]
	if !ok || strings.TrimSpace(text[0]) == "" {
		f.topicPage(w, sess, (n+perPage-1)/perPage, "This field is required.")
		return
	}
	if len([]rune(text[0])) > 50000 {
		f.topicPage(w, sess, (n+perPage-1)/perPage, "The value must be shorter than 50000 characters.")
		return
	}
	f.nowUnix += 60
	if f.merge && f.comments[n-1].author == botName {
		f.merge = false
		last := &f.comments[n-1]
		last.html = f.comment(last.id, botName, f.nowUnix, editorValue(text[0]))
		http.Redirect(w, r, f.pageURL(n)+fmt.Sprintf("#comment-%d", last.id), http.StatusMovedPermanently)
		return
	}
	id := f.nextID
	f.nextID++
	f.comments = append(f.comments, fakeComment{id: id, author: botName, html: f.comment(id, botName, f.nowUnix, editorValue(text[0]))})
	http.Redirect(w, r, f.pageURL(len(f.comments))+fmt.Sprintf("#comment-%d", id), http.StatusMovedPermanently)
}

// addComment is a comment by another member.
func (f *fakeIPS) addComment(author, content string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.nextID
	f.nextID++
	f.nowUnix += 60
	f.comments = append(f.comments, fakeComment{id: id, author: author, html: f.comment(id, author, f.nowUnix, content)})
	return id
}

// composeForm is the compose page: the content item form "form" (popupTemplate, row templates)
// with messenger_to (autocomplete's textarea), messenger_title and the editor, errText under the
// row named errRow.
func composeForm(key, errRow, errText string) string {
	row := func(name, field string) string {
		if name == errRow {
			return `<li class='ipsFieldRow ipsClearfix ipsFieldRow_error'>` + field + `<br><span class="ipsType_warning">` + html.EscapeString(errText) + `</span></li>`
		}
		return `<li class='ipsFieldRow ipsClearfix '>` + field + `</li>`
	}
	return `<form accept-charset='utf-8' class="ipsForm ipsForm_vertical" action="/forum/messenger/compose/" method="post" enctype="multipart/form-data" data-ipsForm>
	<input type="hidden" name="form_submitted" value="1">
	<input type="hidden" name="csrfKey" value="` + key + `">
	<input type="hidden" name="MAX_FILE_SIZE" value="2097152">
	<input type="hidden" name="plupload" value="0a1b2c3d4e5f60718293a4b5c6d7e8f9">
	<ul class='ipsForm'>` +
		row("messenger_to", `<textarea name="messenger_to" id='elInput_messenger_to' aria-required='true' data-ipsAutocomplete></textarea>`) +
		row("messenger_title", `<input type="text" name="messenger_title" value="" class="ipsField_fullWidth" maxlength="255" aria-required='true'>`) +
		row("messenger_content", `<div class='ipsComposeArea_editor' data-role="editor"><div class='ipsType_normal ipsType_richText ipsType_break' data-ipsEditor><div data-role='editorComposer'><noscript><textarea name="messenger_content_noscript" rows="15"></textarea></noscript><div class="norewrite" data-role="mainEditorArea"><textarea name="messenger_content" data-role='contentEditor' class="ipsHide" tabindex='1'></textarea></div></div></div></div>`) +
		`</ul><ul class="ipsToolList ipsToolList_vertical ipsClearfix"><li><button type="submit" class="ipsButton ipsButton_primary" tabindex="2" accesskey="s" role="button">Send</button></li></ul></form>`
}

// message is a messenger message as the comment and commentContainer templates write it.
func message(conv, id int, author string, unix int64, content string) string {
	return fmt.Sprintf(`<a id='findComment-%[2]d'></a>
<a id='comment-%[2]d'></a>
<article id='elComment_%[2]d' class='ipsBox ipsBox--child ipsComment  ipsComment_parent ipsClearfix ipsClear  '>
<div id='comment-%[2]d_wrap' data-controller='core.front.core.comment' data-commentApp='core' data-commentType='messaging' data-commentID="%[2]d" class='ipsComment_content ipsType_medium'>
	<div class='ipsComment_header ipsFlex ipsFlex-ai:start ipsFlex-jc:between'>
		<div class='ipsPhotoPanel ipsPhotoPanel_mini'>
			<div>
				<h3 class='ipsComment_author ipsType_blendLinks'>
					<strong class='ipsType_normal'><a href="/forum/profile/8-%[3]s/" rel="nofollow" data-ipshover class="ipsType_break">%[3]s</a></strong>
				</h3>
				<p class='ipsComment_meta ipsType_light ipsType_medium'>
					<a href='/forum/messenger/%[1]d/?do=findComment&amp;comment=%[2]d' class='ipsType_blendLinks'>Posted <time datetime='%[4]s' title='x' data-short='1 hr'>x</time></a>
				</p>
			</div>
		</div>
	</div>
	<div class='ipsPad'>
		<div data-role='commentContent' class='ipsType_normal ipsType_richText ipsContained' data-controller='core.front.core.lightboxedImages'>%[5]s</div>
	</div>
</div>
</article>
`, conv, id, html.EscapeString(author), time.Unix(unix, 0).UTC().Format("2006-01-02T15:04:05Z"), content)
}

func (f *fakeIPS) compose(w http.ResponseWriter, r *http.Request, sess string) {
	form := r.PostForm
	if !f.sessions[sess] {
		f.errorPage(w, sess, 403, "The page you are trying to access is not available to guests, but may be available if you sign in.")
		return
	}
	if form.Get("form_submitted") == "" || form.Get("csrfKey") != csrfKey(sess) {
		f.page(w, sess, 200, "Compose new", composeForm(csrfKey(sess), "", ""))
		return
	}
	to := strings.TrimSpace(form.Get("messenger_to"))
	can, known := f.members[to]
	switch {
	case !known:
		f.page(w, sess, 200, "Compose new", composeForm(csrfKey(sess), "messenger_to", "There is no member with that display name."))
		return
	case !can:
		f.page(w, sess, 200, "Compose new", composeForm(csrfKey(sess), "messenger_to", to+" cannot receive messages."))
		return
	case strings.TrimSpace(form.Get("messenger_content_noscript")) == "":
		f.page(w, sess, 200, "Compose new", composeForm(csrfKey(sess), "messenger_content", "This field is required."))
		return
	}
	f.nowUnix += 60
	c := &fakeConv{id: f.nextConv, title: form.Get("messenger_title"), latest: f.nowUnix}
	f.nextConv++
	c.messages = append(c.messages, fakeComment{id: f.nextMsg, author: botName, html: message(c.id, f.nextMsg, botName, f.nowUnix, editorValue(form.Get("messenger_content_noscript")))})
	f.nextMsg++
	f.convs = append([]*fakeConv{c}, f.convs...)
	http.Redirect(w, r, fmt.Sprintf("/forum/messenger/%d/", c.id), http.StatusMovedPermanently)
}

// receive is a message another member writes into conversation id (a new one when id is 0).
func (f *fakeIPS) receive(convID int, author, title, text string) (conv, msg int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var c *fakeConv
	for _, x := range f.convs {
		if x.id == convID {
			c = x
		}
	}
	if c == nil {
		c = &fakeConv{id: f.nextConv, title: title}
		f.nextConv++
		f.convs = append(f.convs, c)
	}
	f.nowUnix += 60
	c.latest, c.unread = f.nowUnix, true
	c.messages = append(c.messages, fakeComment{id: f.nextMsg, author: author, html: message(c.id, f.nextMsg, author, f.nowUnix, editorValue(text))})
	f.nextMsg++
	return c.id, f.nextMsg - 1
}

// messengerList is the messenger's conversation list (messageListRow for each).
func (f *fakeIPS) messengerList(w http.ResponseWriter, sess string) {
	if !f.sessions[sess] {
		f.errorPage(w, sess, 403, "The page you are trying to access is not available to guests, but may be available if you sign in.")
		return
	}
	var b strings.Builder
	b.WriteString(`<ol class='ipsDataList ipsDataList_readStatus' data-role='messageList'>`)
	for _, c := range f.convs {
		cls, tcls := "", ""
		if c.unread {
			cls, tcls = "ipsDataItem_unread", "cMessageTitle_unread"
		}
		fmt.Fprintf(&b, `<li class='ipsDataItem ipsClearfix %s cMessage ipsCursor_pointer' data-messageid='%d' data-keyNavBlock data-keyAction='return'>
<div class='ipsDataItem_main sm:ipsPadding_left:half'><h4 class='ipsDataItem_title ipsType_normal ipsType_break'><a href='/forum/messenger/%d/?latest=1' class='cMessageTitle %s' data-role="messageURL">%s</a></h4></div>
<div class='ipsDataItem_generic ipsDataItem_size2 ipsPos_top ipsType_right'><p class='ipsType_reset ipsType_medium ipsType_light ipsType_right'><span data-ipsTooltip title="x"><time datetime='%s' title='x' data-short='1 hr'>1 hr</time></span></p></div>
</li>`, cls, c.id, c.id, tcls, html.EscapeString(c.title), time.Unix(c.latest, 0).UTC().Format("2006-01-02T15:04:05Z"))
	}
	b.WriteString(`</ol>`)
	f.page(w, sess, 200, "Messenger", b.String())
}

// messengerView: ?latest=1 goes to the first unread message (through ?do=findComment), a
// conversation page shows all its messages.
func (f *fakeIPS) messengerView(w http.ResponseWriter, r *http.Request, sess string) {
	m := regexp.MustCompile(`^/forum/messenger/(\d+)/$`).FindStringSubmatch(r.URL.Path)
	if m == nil || !f.sessions[sess] {
		f.errorPage(w, sess, 404, "We could not locate the item you are trying to view.")
		return
	}
	id, _ := strconv.Atoi(m[1])
	for _, c := range f.convs {
		if c.id != id {
			continue
		}
		switch q := r.URL.Query(); {
		case q.Get("latest") != "":
			http.Redirect(w, r, fmt.Sprintf("/forum/messenger/%d/?do=findComment&comment=%d", c.id, c.messages[len(c.messages)-1].id), http.StatusMovedPermanently)
		case q.Get("do") == "findComment":
			http.Redirect(w, r, fmt.Sprintf("/forum/messenger/%d/#comment-%s", c.id, q.Get("comment")), http.StatusMovedPermanently)
		default:
			c.unread = false
			var b strings.Builder
			fmt.Fprintf(&b, `<div class='ipsPageHeader ipsClearfix'><h1 class='ipsType_pageTitle ipsType_break'>%s </h1></div><div data-role='commentFeed'>`, html.EscapeString(c.title))
			for _, msg := range c.messages {
				b.WriteString(msg.html)
			}
			b.WriteString(`</div>`)
			f.page(w, sess, 200, c.title, b.String())
		}
		return
	}
	f.errorPage(w, sess, 404, "We could not locate the item you are trying to view.")
}

// findMember is the ajax controller's findMember: a JSON list of the members whose names start
// with input.
func (f *fakeIPS) findMember(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("app") != "core" || q.Get("module") != "system" || q.Get("controller") != "ajax" {
		f.errorPage(w, "", 404, "We could not locate the item you are trying to view.")
		return
	}
	input := strings.ToLower(q.Get("input"))
	var out []string
	for _, name := range append(slices.Sorted(maps.Keys(f.members)), botName) {
		if strings.HasPrefix(strings.ToLower(name), input) {
			out = append(out, fmt.Sprintf(`{"id":%d,"value":%q,"name":%q,"extra":"Members","photo":""}`, len(out)+10, name, html.EscapeString(name)))
		}
	}
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	fmt.Fprint(w, "["+strings.Join(out, ",")+"]")
}

const forumPath = "/forum/forum/12-igry-po-perepiske/"

// topicCrumbs is a topic page's breadcrumb (core/front/global/breadcrumb, 4.7.19): home, the
// category forum, the topic's forum, the topic.
const topicCrumbs = `<nav class='ipsBreadcrumb ipsBreadcrumb_top ipsFaded_withHover'>
	<ul class='ipsList_inline ipsPos_right'><li><a data-action="defaultStream" class='ipsType_light' href='/forum/discover/'><i class="fa fa-newspaper-o" aria-hidden="true"></i> <span>All Activity</span></a></li></ul>
	<ul data-role="breadcrumbList">
		<li><a title="Home" href='/forum/'><span>Home <i class='fa fa-angle-right'></i></span></a></li>
		<li><a href='/forum/forum/5-igry/'><span>Игры <i class='fa fa-angle-right' aria-hidden="true"></i></span></a></li>
		<li><a href='/forum/forum/12-igry-po-perepiske/'><span>Игры по переписке <i class='fa fa-angle-right' aria-hidden="true"></i></span></a></li>
		<li><a href='/forum/topic/34923-csc-armbian-for-rk322x-tv-box-boards/'><span>CSC Armbian for RK322x TV box boards</span></a></li>
	</ul>
</nav>`

// forumView is the forum's topic list: the forumTable box of the scraper's test page
// dialects/invision/testdata/forum-12.html (forumTable and topicRow of 4.7.19; its README says
// where it came from) under the session's user bar, at forum/12-igry-po-perepiske/ (forum/12/ is
// sent on to it as \IPS\Dispatcher\Front::checkUrl does).
func (f *fakeIPS) forumView(w http.ResponseWriter, sess string) {
	raw, err := os.ReadFile(filepath.Join("testdata", "forum-12.html"))
	if err != nil {
		f.t.Error(err)
		return
	}
	s := string(raw)
	body := s[strings.Index(s, "<nav class='ipsBreadcrumb"):strings.Index(s, "</main>")]
	f.page(w, sess, 200, "Игры по переписке", body)
}
