package sandbox

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"log"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Handler is the board's HTTP handler (the pages MyBB serves under its base URL).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/", s.wrap((*req).index))
	mux.HandleFunc("/index.php", s.wrap((*req).index))
	mux.HandleFunc("/forumdisplay.php", s.wrap((*req).forumdisplay))
	mux.HandleFunc("/showthread.php", s.wrap((*req).showthread))
	mux.HandleFunc("/member.php", s.wrap((*req).member))
	mux.HandleFunc("/newreply.php", s.wrap((*req).newreply))
	mux.HandleFunc("/newthread.php", s.wrap((*req).newthread))
	mux.HandleFunc("/editpost.php", s.wrap((*req).editpost))
	mux.HandleFunc("/private.php", s.wrap((*req).private))
	mux.HandleFunc("/attachment.php", s.wrap((*req).attachment))
	mux.HandleFunc("/xmlhttp.php", s.wrap((*req).xmlhttp))
	mux.HandleFunc("/images/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/gif")
		_, _ = w.Write(blankGIF)
	})
	return mux
}

// blankGIF is a 1×1 transparent GIF served for the theme's images.
var blankGIF, _ = base64.StdEncoding.DecodeString("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")

// req is one request with its session.
type req struct {
	s    *Server
	w    http.ResponseWriter
	r    *http.Request
	ctx  context.Context
	bb   string
	now  time.Time
	user *userRow
	sid  string
	key  string
	post url.Values
	raw  []string // textarea contents, put in after templating (see textarea)
}

func (s *Server) wrap(h func(*req)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := &req{s: s, w: w, r: r, ctx: r.Context(), bb: "http://" + r.Host, now: s.Now()}
		if err := q.load(); err != nil {
			q.fail(err)
			return
		}
		h(q)
	}
}

func (q *req) fail(err error) {
	log.Printf("sandbox: %s %s: %v", q.r.Method, q.r.URL, err)
	http.Error(q.w, "internal error", http.StatusInternalServerError)
}

// load reads the form and resolves the session: the mybbuser cookie ("uid_loginkey") says who
// is logged in, the sid cookie names the session (a guest's my_post_key derives from it).
func (q *req) load() error {
	if q.r.Method == http.MethodPost {
		if err := q.r.ParseMultipartForm(8 << 20); err != nil && !errors.Is(err, http.ErrNotMultipart) {
			return err
		}
		q.post = url.Values{}
		for k, vs := range q.r.PostForm {
			for _, v := range vs {
				if q.s.cp1251() {
					v = decodeCP1251(v)
				}
				q.post.Add(k, v)
			}
		}
	}
	if c, err := q.r.Cookie("mybbuser"); err == nil {
		if uid, key, ok := strings.Cut(c.Value, "_"); ok {
			if id, err := strconv.Atoi(uid); err == nil {
				if u, err := getUser(q.ctx, q.s.db, "uid = ?", id); err == nil && u.LoginKey == key {
					q.user = u
				}
			}
		}
	}
	uid := 0
	if q.user != nil {
		uid = q.user.UID
	}
	if c, err := q.r.Cookie("sid"); err == nil && len(c.Value) == 32 {
		var suid int
		err := q.s.db.QueryRowContext(q.ctx, `SELECT uid FROM sessions WHERE sid = ?`, c.Value).Scan(&suid)
		if err == nil {
			q.sid = c.Value
			if suid != uid {
				if _, err := q.s.db.ExecContext(q.ctx, `UPDATE sessions SET uid = ?, time = ? WHERE sid = ?`, uid, q.now.Unix(), q.sid); err != nil {
					return err
				}
			}
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
	}
	if q.sid == "" {
		if err := q.newSession(uid); err != nil {
			return err
		}
	}
	q.setKey()
	return nil
}

func (q *req) newSession(uid int) error {
	q.sid = randHex(16)
	if _, err := q.s.db.ExecContext(q.ctx, `INSERT INTO sessions(sid, uid, time) VALUES(?,?,?)`, q.sid, uid, q.now.Unix()); err != nil {
		return err
	}
	http.SetCookie(q.w, &http.Cookie{Name: "sid", Value: q.sid, Path: "/", HttpOnly: true})
	return nil
}

func (q *req) setKey() {
	if q.user != nil {
		q.key = md5hex(q.s.secret, "member", q.user.LoginKey, q.user.Salt)
	} else {
		q.key = md5hex(q.s.secret, "guest", q.sid)
	}
}

func (q *req) logoutKey() string {
	if q.user == nil {
		return ""
	}
	return md5hex(q.user.LoginKey)
}

// in is MyBB's $mybb->input: a POST field, else a query parameter.
func (q *req) in(name string) string {
	if vs, ok := q.post[name]; ok && len(vs) > 0 {
		return vs[0]
	}
	return q.r.URL.Query().Get(name)
}

func (q *req) inInt(name string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(q.in(name)))
	return n
}

type navItem struct {
	URL, Name string
	Pages     *pagination // a forum's thread list pages (the breadcrumb popup)
}

// pageData is what the layout templates need.
type pageData struct {
	BB, Board, Title, Charset, Key string
	Refresh                        string
	User                           *userRow
	LogoutKey                      string
	Unread, TotalPMs               int
	PMAlert                        *pmRow
	Nav                            []navItem
	NavActive                      string
	CurrentTime                    string
	Content                        template.HTML
}

func (q *req) base(title string) *pageData {
	_, cs := q.s.pageCharset()
	d := &pageData{BB: q.bb, Board: q.s.opts.BoardName, Title: title, Charset: cs, Key: q.key, User: q.user,
		LogoutKey: q.logoutKey(), CurrentTime: q.s.pack.absDate(q.now, q.s.opts.Location)}
	if d.Title == "" {
		d.Title = d.Board
	}
	if q.user != nil {
		_ = q.s.db.QueryRowContext(q.ctx, `SELECT COUNT(CASE WHEN folder = 1 AND status = 0 THEN 1 END), COUNT(*) FROM pms WHERE uid = ? AND visible = 1`,
			q.user.UID).Scan(&d.Unread, &d.TotalPMs)
	}
	return d
}

// textarea returns a placeholder for a textarea's text. The text goes in after templating,
// escaped like PHP's htmlspecialchars (apostrophes stay), so that a textarea reads byte for byte
// like MyBB's (html/template would write &#39;).
func (q *req) textarea(text string) string {
	q.raw = append(q.raw, escapeAttr(text))
	return fmt.Sprintf("%s%d;", q.s.marker, len(q.raw)-1)
}

// write sends a rendered page in the board's charset.
func (q *req) write(status int, html []byte) {
	for i := len(q.raw) - 1; i >= 0; i-- {
		html = bytes.ReplaceAll(html, []byte(fmt.Sprintf("%s%d;", q.s.marker, i)), []byte(q.raw[i]))
	}
	h := q.w.Header()
	h.Set("Cache-Control", "no-cache, private")
	sent, declared := q.s.pageCharset()
	h.Set("Content-Type", "text/html; charset="+declared)
	if isCP1251(sent) {
		html = encodeCP1251(string(html))
	}
	q.w.WriteHeader(status)
	_, _ = q.w.Write(html)
}

func (q *req) exec(name string, data any) (template.HTML, error) {
	var b bytes.Buffer
	if err := q.s.pack.tmpl.ExecuteTemplate(&b, name, data); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}

// page renders a content template inside the board layout.
func (q *req) page(title string, nav []navItem, active, name string, data any) {
	content, err := q.exec(name, data)
	if err != nil {
		q.fail(err)
		return
	}
	d := q.base(title)
	d.Nav, d.NavActive, d.Content = nav, active, content
	if q.user != nil && d.Unread > 0 && q.r.URL.Path != "/private.php" {
		if ms, err := q.s.pmFolder(q.ctx, q.user.UID, 1, true); err == nil && len(ms) > 0 {
			d.PMAlert = ms[0]
		}
	}
	var b bytes.Buffer
	if err := q.s.pack.tmpl.ExecuteTemplate(&b, "layout", d); err != nil {
		q.fail(err)
		return
	}
	q.write(http.StatusOK, b.Bytes())
}

// redirect renders MyBB's "Thank you" page: HTTP 200 with a meta refresh to target.
func (q *req) redirect(target string, msg template.HTML) {
	msg = template.HTML(q.s.pack.tr(string(msg)))
	d := q.base("")
	d.Refresh, d.Content = target, msg
	var b bytes.Buffer
	if err := q.s.pack.tmpl.ExecuteTemplate(&b, "redirect", d); err != nil {
		q.fail(err)
		return
	}
	q.write(http.StatusOK, b.Bytes())
}

// errorPage renders MyBB's generic error page.
func (q *req) errorPage(msg template.HTML) {
	msg = template.HTML(q.s.pack.tr(string(msg)))
	q.page("", nil, "", "error", map[string]any{"Board": q.s.opts.BoardName, "Message": msg})
}

func (q *req) noPermission() {
	msg, err := q.exec("nopermission", nil)
	if err != nil {
		q.fail(err)
		return
	}
	q.errorPage(msg)
}

func (q *req) badKey() {
	q.errorPage("Authorization code mismatch. Are you accessing this function correctly? Please go back and try again.")
}

func (q *req) keyOK() bool { return q.in("my_post_key") == q.key }

// moderates tells whether the logged-in user moderates forum fid (the reply forms then show the
// moderator options, as MyBB's do).
func (q *req) moderates(fid int) (bool, error) {
	if q.user == nil {
		return false, nil
	}
	return q.s.isModerator(q.ctx, q.user.UID, fid)
}

func (q *req) renderer() *renderer {
	loc := q.s.opts.Location
	return &renderer{bburl: q.bb, now: q.now, date: func(t time.Time) string { return q.s.pack.relDate(t, q.now, loc) }, words: q.s.pack.markup}
}

func (q *req) date(unix int64) template.HTML {
	return template.HTML(q.s.pack.relDate(time.Unix(unix, 0), q.now, q.s.opts.Location))
}

// ---- index and forum list ----

type forumView struct {
	*forumRow
	Row            string
	Threads, Posts int
	Last           *threadRow
	LastDate       template.HTML
}

func (q *req) index() {
	if p := q.r.URL.Path; p != "/" && p != "/index.php" {
		http.NotFound(q.w, q.r)
		return
	}
	fs, err := q.s.forums(q.ctx)
	if err != nil {
		q.fail(err)
		return
	}
	var views []forumView
	for i, f := range fs {
		v := forumView{forumRow: f, Row: []string{"trow1", "trow2"}[i%2]}
		ts, err := q.s.forumThreads(q.ctx, f.FID)
		if err != nil {
			q.fail(err)
			return
		}
		v.Threads = len(ts)
		for _, t := range ts {
			v.Posts += t.Posts
		}
		if len(ts) > 0 {
			v.Last = ts[0]
			v.LastDate = q.date(ts[0].LastPost)
		}
		views = append(views, v)
	}
	q.page("", nil, "", "index", map[string]any{"BB": q.bb, "Forums": views})
}

type threadView struct {
	T         *threadRow
	Row       string
	Kind      string // forumdisplay_sticky or forumdisplay_regular (the cells' class)
	Sep       string // a separator row before this one ("Important Threads", "Normal Threads")
	Replies   int
	Started   template.HTML
	LastDate  template.HTML
	PageLinks []pageLink
}

type pageLink struct {
	N       int
	URL     string
	Current bool
	Dots    bool
}

func (q *req) forumdisplay() {
	f, err := q.s.forum(q.ctx, q.inInt("fid"))
	if err != nil {
		q.errorPage("The specified forum does not exist.")
		return
	}
	ts, err := q.s.forumThreads(q.ctx, f.FID)
	if err != nil {
		q.fail(err)
		return
	}
	// MyBB lists sticky threads first ("Important Threads"), then the others ("Normal
	// Threads"), each by last post, newest first; a page holds threadsperpage of them.
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Sticky && !ts[j].Sticky })
	tpp := q.s.opts.ThreadsPerPage
	pages := max(1, (len(ts)+tpp-1)/tpp)
	page := min(max(q.inInt("page"), 1), pages)
	ts = ts[(page-1)*tpp : min(len(ts), page*tpp)]
	var views []threadView
	for i, t := range ts {
		v := threadView{T: t, Row: []string{"trow1", "trow2"}[i%2], Replies: t.Posts - 1,
			Started: q.date(t.Dateline), LastDate: q.date(t.LastPost), Kind: "forumdisplay_regular"}
		if t.Sticky {
			v.Kind = "forumdisplay_sticky"
			if i == 0 {
				v.Sep = q.s.pack.tr("Important Threads")
			}
		} else if i == 0 || ts[i-1].Sticky {
			if i > 0 {
				v.Sep = q.s.pack.tr("Normal Threads")
			}
		}
		if pages := (t.Posts + q.s.opts.PostsPerPage - 1) / q.s.opts.PostsPerPage; pages > 1 {
			for n := 1; n <= pages; n++ {
				v.PageLinks = append(v.PageLinks, pageLink{N: n, URL: threadPageURL(t.TID, n)})
			}
		}
		views = append(views, v)
	}
	q.page(f.Name, []navItem{{URL: "forumdisplay.php?fid=1", Name: q.s.pack.tr("My Category")}}, f.Name, "forumdisplay",
		map[string]any{"BB": q.bb, "FID": f.FID, "Name": f.Name, "Threads": views, "CanPost": q.user != nil,
			"Pagination": forumPagination(f.FID, page, pages)})
}

// forumURL is page n of forum fid's thread list.
func forumURL(fid, page int) string {
	if page <= 1 {
		return fmt.Sprintf("forumdisplay.php?fid=%d", fid)
	}
	return fmt.Sprintf("forumdisplay.php?fid=%d&page=%d", fid, page)
}

// forumPagination is the pagination of a forum's thread list (MyBB's multipage, as for a thread).
func forumPagination(fid, page, pages int) pagination {
	return paginate(page, pages, func(n int) string { return forumURL(fid, n) })
}

// forumNav is the breadcrumb item of forum f on a thread's pages: when the forum's thread list
// has several pages, MyBB adds a (hidden) popup listing them, a second div.pagination on the page.
func (q *req) forumNav(f *forumRow) (navItem, error) {
	ts, err := q.s.forumThreads(q.ctx, f.FID)
	if err != nil {
		return navItem{}, err
	}
	it := navItem{URL: fmt.Sprintf("forumdisplay.php?fid=%d", f.FID), Name: f.Name}
	if pages := (len(ts) + q.s.opts.ThreadsPerPage - 1) / q.s.opts.ThreadsPerPage; pages > 1 {
		pg := forumPagination(f.FID, 1, pages)
		it.Pages = &pg
	}
	return it, nil
}

func threadPageURL(tid, page int) string {
	if page <= 1 {
		return fmt.Sprintf("showthread.php?tid=%d", tid)
	}
	return fmt.Sprintf("showthread.php?tid=%d&page=%d", tid, page)
}

type pagination struct {
	Pages      int
	Prev, Next string
	Links      []pageLink
}

func makePagination(tid, page, pages int) pagination {
	return paginate(page, pages, func(n int) string { return threadPageURL(tid, n) })
}

// paginate is MyBB's multipage: previous and next, the pages around the current one, the first
// and last with dots between, each page's URL from url.
func paginate(page, pages int, url func(n int) string) pagination {
	p := pagination{Pages: pages}
	if pages <= 1 {
		return p
	}
	if page > 1 {
		p.Prev = url(page - 1)
	}
	if page < pages {
		p.Next = url(page + 1)
	}
	from, to := max(1, page-2), min(pages, page+2)
	if from > 1 {
		p.Links = append(p.Links, pageLink{N: 1, URL: url(1)})
		if from > 2 {
			p.Links = append(p.Links, pageLink{Dots: true})
		}
	}
	for n := from; n <= to; n++ {
		p.Links = append(p.Links, pageLink{N: n, URL: url(n), Current: n == page})
	}
	if to < pages {
		if to < pages-1 {
			p.Links = append(p.Links, pageLink{Dots: true})
		}
		p.Links = append(p.Links, pageLink{N: pages, URL: url(pages)})
	}
	return p
}

// ---- posts ----

type postbit struct {
	BB                     string
	PID, UID, Num          int
	Author, Subject        string
	UserTitle              string
	Stars                  template.HTML
	NPosts, NThreads       int
	Joined                 string
	Permalink              string
	Date                   template.HTML
	Edited                 bool
	EditDate               template.HTML
	EditUID                int
	Editor, EditReason     string
	ToUID                  int
	ToName                 string
	Body                   template.HTML
	Attachments            template.HTML // the files the body does not place
	PMLink, EditLink       bool
	QuoteLink, PMReplyLink string
}

func userTitle(posts int) (string, int) {
	switch {
	case posts >= 500:
		return "Posting Freak", 5
	case posts >= 250:
		return "Senior Member", 4
	case posts >= 50:
		return "Member", 3
	case posts >= 1:
		return "Junior Member", 2
	}
	return "Newbie", 1
}

func (q *req) authorInfo(b *postbit) {
	b.NPosts, b.NThreads = q.s.userStats(q.ctx, b.UID)
	var stars int
	b.UserTitle, stars = userTitle(b.NPosts)
	b.Stars = template.HTML(strings.Repeat(`<img src="images/star.png" border="0" alt="*" />`, stars))
	var reg int64
	_ = q.s.db.QueryRowContext(q.ctx, `SELECT regdate FROM users WHERE uid = ?`, b.UID).Scan(&reg)
	b.Joined = time.Unix(reg, 0).In(q.s.opts.Location).Format("Jan 2006")
}

func (q *req) postbit(p *postRow, num int, r *renderer) postbit {
	b := postbit{BB: q.bb, PID: p.PID, UID: p.UID, Num: num, Author: p.Author, Subject: p.Subject,
		Permalink: fmt.Sprintf("showthread.php?tid=%d&pid=%d#pid%d", p.TID, p.PID, p.PID),
		Date:      q.date(p.Dateline),
		QuoteLink: fmt.Sprintf("newreply.php?tid=%d&replyto=%d", p.TID, p.PID),
	}
	body, rest := q.placeAttachments(p.PID, r.Render(p.Message, true))
	b.Body, b.Attachments = template.HTML(body), rest
	if p.EditUID > 0 && p.EditTime > 0 {
		b.Edited, b.EditUID, b.Editor, b.EditReason, b.EditDate = true, p.EditUID, p.Editor, p.EditReason, q.date(p.EditTime)
	}
	if q.user != nil {
		b.EditLink = q.user.UID == p.UID
		b.PMLink = q.user.UID != p.UID
	}
	q.authorInfo(&b)
	return b
}

func (q *req) showthread() {
	ppp := q.s.opts.PostsPerPage
	tid := q.inInt("tid")
	page := q.inInt("page")
	if pid := q.inInt("pid"); pid > 0 {
		if p, err := q.s.post(q.ctx, pid); err == nil && (tid == 0 || tid == p.TID) {
			tid = p.TID
			idx, err := q.s.postIndex(q.ctx, p)
			if err != nil {
				q.fail(err)
				return
			}
			page = idx/ppp + 1
		} else if err == nil {
			// A post of another thread, as MyBB 1.8's showthread.php answers it: the page of
			// this thread a post of that time would be on (its posts up to that time).
			n, err := q.s.postsUpTo(q.ctx, tid, p.Dateline)
			if err != nil {
				q.fail(err)
				return
			}
			page = (n + ppp - 1) / ppp
		}
	}
	t, err := q.s.thread(q.ctx, tid)
	if err != nil {
		q.errorPage("The specified thread does not exist.")
		return
	}
	switch q.in("action") {
	case "lastpost", "newpost":
		var pid int
		if err := q.s.db.QueryRowContext(q.ctx, `SELECT pid FROM posts WHERE tid = ? AND visible = 1 ORDER BY dateline DESC, pid DESC LIMIT 1`, tid).Scan(&pid); err != nil {
			q.fail(err)
			return
		}
		q.w.Header().Set("Cache-Control", "no-cache, private")
		q.w.Header().Set("Location", fmt.Sprintf("showthread.php?tid=%d&pid=%d#pid%d", tid, pid, pid))
		q.w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		q.w.WriteHeader(http.StatusFound)
		return
	}
	pages := max(1, (t.Posts+ppp-1)/ppp)
	page = min(max(page, 1), pages)
	if _, err := q.s.db.ExecContext(q.ctx, `UPDATE threads SET views = views + 1 WHERE tid = ?`, tid); err != nil {
		q.fail(err)
		return
	}
	ps, err := q.s.threadPosts(q.ctx, tid, (page-1)*ppp, ppp)
	if err != nil {
		q.fail(err)
		return
	}
	r := q.renderer()
	var bits []postbit
	for i, p := range ps {
		bits = append(bits, q.postbit(p, (page-1)*ppp+i+1, r))
	}
	var lastPID int
	_ = q.s.db.QueryRowContext(q.ctx, `SELECT pid FROM posts WHERE tid = ? AND visible = 1 ORDER BY dateline DESC, pid DESC LIMIT 1`, tid).Scan(&lastPID)
	f, _ := q.s.forum(q.ctx, t.FID)
	nav := []navItem{{URL: "forumdisplay.php?fid=1", Name: q.s.pack.tr("My Category")}}
	if f != nil {
		it, err := q.forumNav(f)
		if err != nil {
			q.fail(err)
			return
		}
		nav = append(nav, it)
	}
	mod, err := q.moderates(t.FID)
	if err != nil {
		q.fail(err)
		return
	}
	q.page(t.Subject, nav, t.Subject, "showthread", map[string]any{
		"TID": tid, "Subject": t.Subject, "Posts": bits, "Pagination": makePagination(tid, page, pages),
		"CanReply": q.user != nil, "Key": q.key, "PostHash": randHex(16), "LastPID": lastPID, "Page": page,
		"ModOptions": mod,
	})
}

type reviewPost struct {
	Author string
	Date   template.HTML
	Body   template.HTML
	Even   bool
}

func (q *req) newreply() {
	if q.user == nil {
		q.noPermission()
		return
	}
	t, err := q.s.thread(q.ctx, q.inInt("tid"))
	if err != nil {
		q.errorPage("The specified thread does not exist.")
		return
	}
	data := map[string]any{
		"TID": t.TID, "Subject": t.Subject, "Key": q.key, "Username": q.user.Name, "LogoutKey": q.logoutKey(),
		"PostSubject": "RE: " + t.Subject, "Message": "", "ReplyTo": 0, "QuotedIDs": "",
		"PostHash": randHex(16),
	}
	if q.r.Method == http.MethodPost {
		if !q.keyOK() {
			q.badKey()
			return
		}
		message := q.in("message")
		posthash := q.in("posthash")
		var upErrs []string
		if files := q.uploads(); len(files) > 0 && posthash != "" && (q.in("newattachment") != "" || q.in("submit") != "") {
			upErrs = q.s.addAttachments(q.ctx, q.user.UID, posthash, files)
		}
		var pid int
		var err error
		if q.in("newattachment") != "" && q.in("submit") == "" || len(upErrs) > 0 {
			// An upload without "Post Reply" (or a refused one) shows the form again.
			err = &RuleError{Messages: upErrs}
		} else {
			dup, derr := q.s.duplicateReply(q.ctx, q.user.UID, t, q.in("subject"), message)
			if derr != nil {
				q.fail(derr)
				return
			}
			if dup {
				q.errorPage("You have already posted this reply to the specified thread. Please visit the thread to see your reply.")
				return
			}
			pid, _, err = q.s.reply(q.ctx, q.user, t.TID, q.in("subject"), message, q.inInt("replyto"))
			if err == nil {
				err = q.s.bindAttachments(q.ctx, q.user.UID, posthash, pid)
			}
		}
		var re *RuleError
		switch {
		case errors.As(err, &re):
			data["Errors"] = q.list(re.Messages)
			data["Message"] = q.textarea(message)
			data["PostSubject"] = q.in("subject")
			data["ReplyTo"] = q.inInt("replyto")
			data["QuotedIDs"] = q.in("quoted_ids")
			if ph := q.in("posthash"); ph != "" {
				data["PostHash"] = ph
			}
		case err != nil:
			q.fail(err)
			return
		default:
			q.redirect(fmt.Sprintf("showthread.php?tid=%d&pid=%d#pid%d", t.TID, pid, pid),
				template.HTML(fmt.Sprintf(`Thank you, your reply has been posted.<br />You will now be taken to your post.<br /><br />Alternatively, <a href="forumdisplay.php?fid=%d">return to the forum</a>.`, t.FID)))
			return
		}
	} else if rt := q.inInt("replyto"); rt > 0 {
		if p, err := q.s.post(q.ctx, rt); err == nil && p.TID == t.TID {
			data["Message"] = q.textarea(fmt.Sprintf("[quote=\"%s\" pid='%d' dateline='%d']\n%s\n[/quote]\n\n", p.Author, p.PID, p.Dateline, p.Message))
			data["ReplyTo"] = p.PID
			data["QuotedIDs"] = strconv.Itoa(p.PID)
		}
	}
	atts, err := q.s.pendingAttachments(q.ctx, q.user.UID, fmt.Sprint(data["PostHash"]))
	if err != nil {
		q.fail(err)
		return
	}
	data["Attachments"] = atts
	ps, err := q.s.threadPosts(q.ctx, t.TID, max(0, t.Posts-10), 10)
	if err != nil {
		q.fail(err)
		return
	}
	r := q.renderer()
	var review []reviewPost
	for i := len(ps) - 1; i >= 0; i-- {
		review = append(review, reviewPost{Author: ps[i].Author, Date: q.date(ps[i].Dateline),
			Body: template.HTML(r.Render(ps[i].Message, true)), Even: len(review)%2 == 1})
	}
	data["Review"] = review
	mod, err := q.moderates(t.FID)
	if err != nil {
		q.fail(err)
		return
	}
	data["ModOptions"] = mod
	f, _ := q.s.forum(q.ctx, t.FID)
	nav := []navItem{{URL: "forumdisplay.php?fid=1", Name: q.s.pack.tr("My Category")}}
	if f != nil {
		it, err := q.forumNav(f)
		if err != nil {
			q.fail(err)
			return
		}
		nav = append(nav, it)
	}
	nav = append(nav, navItem{URL: fmt.Sprintf("showthread.php?tid=%d", t.TID), Name: t.Subject})
	q.page(t.Subject+" - "+q.s.pack.tr("Post Reply"), nav, q.s.pack.tr("Post Reply"), "newreply", data)
}

func (q *req) list(msgs []string) []template.HTML {
	out := make([]template.HTML, len(msgs))
	for i, m := range msgs {
		out[i] = template.HTML(escapeAttr(q.s.pack.tr(m)))
	}
	return out
}

func (q *req) newthread() {
	if q.user == nil {
		q.noPermission()
		return
	}
	f, err := q.s.forum(q.ctx, q.inInt("fid"))
	if err != nil {
		q.errorPage("The specified forum does not exist.")
		return
	}
	data := map[string]any{"FID": f.FID, "Key": q.key, "PostSubject": "", "Message": "", "PostHash": randHex(16)}
	if q.r.Method == http.MethodPost {
		if !q.keyOK() {
			q.badKey()
			return
		}
		tid, _, err := q.s.newThread(q.ctx, q.user, f.FID, q.in("subject"), q.in("message"))
		var re *RuleError
		switch {
		case errors.As(err, &re):
			data["Errors"] = q.list(re.Messages)
			data["Message"] = q.textarea(q.in("message"))
			data["PostSubject"] = q.in("subject")
		case err != nil:
			q.fail(err)
			return
		default:
			q.redirect(fmt.Sprintf("showthread.php?tid=%d", tid),
				template.HTML(fmt.Sprintf(`Thank you, your thread has been posted.<br />You will now be taken to the new thread.<br /><br />Alternatively, <a href="forumdisplay.php?fid=%d">return to the forum</a>.`, f.FID)))
			return
		}
	}
	q.page(f.Name+" - Post a New Thread", []navItem{{URL: "forumdisplay.php?fid=1", Name: q.s.pack.tr("My Category")}, {URL: fmt.Sprintf("forumdisplay.php?fid=%d", f.FID), Name: f.Name}},
		q.s.pack.tr("Post New Thread"), "newthread", data)
}

func (q *req) editpost() {
	if q.user == nil {
		q.noPermission()
		return
	}
	p, err := q.s.post(q.ctx, q.inInt("pid"))
	if err != nil {
		q.errorPage("The specified post does not exist.")
		return
	}
	if p.UID != q.user.UID {
		q.noPermission()
		return
	}
	data := map[string]any{"PID": p.PID, "Key": q.key, "Username": q.user.Name, "LogoutKey": q.logoutKey(),
		"PostSubject": p.Subject, "Message": q.textarea(p.Message), "EditReason": p.EditReason}
	if q.r.Method == http.MethodPost {
		if !q.keyOK() {
			q.badKey()
			return
		}
		err := q.s.editPost(q.ctx, q.user, p.PID, q.in("subject"), q.in("message"), q.in("editreason"))
		var re *RuleError
		switch {
		case errors.As(err, &re):
			data["Errors"] = q.list(re.Messages)
			data["Message"] = q.textarea(q.in("message"))
			data["PostSubject"] = q.in("subject")
			data["EditReason"] = q.in("editreason")
		case err != nil:
			q.fail(err)
			return
		default:
			q.redirect(fmt.Sprintf("showthread.php?tid=%d&pid=%d#pid%d", p.TID, p.PID, p.PID),
				"Thank you, this post has been edited.<br />You will now be returned to the thread.")
			return
		}
	}
	q.page(q.s.pack.tr("Edit Post"), nil, q.s.pack.tr("Edit Post"), "editpost", data)
}

// ---- login ----

// xmlhttp answers MyBB's xmlhttp.php?action=get_users (the private-message form's name
// autocompletion): a JSON list of at most 15 users whose names start with the query, as
// {"uid", "id", "text"}, for queries of at least 2 characters.
func (q *req) xmlhttp() {
	if q.in("action") != "get_users" {
		http.Error(q.w, "unknown action", http.StatusBadRequest)
		return
	}
	type user struct {
		UID  string `json:"uid"`
		ID   string `json:"id"`
		Text string `json:"text"`
	}
	out := []user{}
	if query := lowerName(q.in("query")); len([]rune(query)) >= 2 {
		rows, err := q.s.db.QueryContext(q.ctx, `SELECT uid, username FROM users WHERE lname >= ? AND lname < ? ORDER BY lname LIMIT 15`,
			query, query+"\U0010FFFF")
		if err != nil {
			q.fail(err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			var uid int
			var name string
			if err := rows.Scan(&uid, &name); err != nil {
				q.fail(err)
				return
			}
			out = append(out, user{UID: strconv.Itoa(uid), ID: name, Text: name})
		}
	}
	q.w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = json.NewEncoder(q.w).Encode(out)
}

func (q *req) member() {
	switch q.in("action") {
	case "do_login":
		if q.r.Method != http.MethodPost {
			break
		}
		if !q.keyOK() {
			q.badKey()
			return
		}
		name, pw, remember := q.in("username"), q.in("password"), q.in("remember") == "yes"
		if q.in("quick_login") == "1" {
			name, pw, remember = q.in("quick_username"), q.in("quick_password"), q.in("quick_remember") == "yes"
		}
		u, err := getUser(q.ctx, q.s.db, "lname = ?", lowerName(name))
		if err != nil || u.Password != hashPassword(u.Salt, pw) {
			q.loginForm(name, q.in("url"), []template.HTML{`You have entered an invalid username/password combination. <br /><br />If you have forgotten your password please <a href="member.php?action=lostpw">retrieve a new one</a>.`})
			return
		}
		c := &http.Cookie{Name: "mybbuser", Value: fmt.Sprintf("%d_%s", u.UID, u.LoginKey), Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode}
		if remember {
			c.Expires = q.now.Add(365 * 24 * time.Hour)
		}
		http.SetCookie(q.w, c)
		q.user = u
		if err := q.newSession(u.UID); err != nil {
			q.fail(err)
			return
		}
		q.setKey()
		target := q.in("url")
		if target == "" || strings.Contains(target, "member.php") || (strings.Contains(target, "://") && !strings.HasPrefix(target, q.bb+"/")) {
			target = q.bb + "/index.php"
		}
		q.redirect(target, "You have successfully been logged in.<br />You will now be taken back to where you came from.")
		return
	case "logout":
		if q.user != nil {
			if q.in("logoutkey") != q.logoutKey() {
				q.errorPage("Your user ID could not be verified to log you out. This may have been because a malicious Javascript was attempting to log you out automatically. If you intended to log out, please click the Log Out button at the top menu.")
				return
			}
			if _, err := q.s.db.ExecContext(q.ctx, `DELETE FROM sessions WHERE sid = ?`, q.sid); err != nil {
				q.fail(err)
				return
			}
			http.SetCookie(q.w, &http.Cookie{Name: "mybbuser", Value: "", Path: "/", MaxAge: -1})
			http.SetCookie(q.w, &http.Cookie{Name: "sid", Value: "", Path: "/", MaxAge: -1})
			q.user = nil
			q.key = ""
		}
		q.redirect("index.php", "You have successfully been logged out.<br />You will now be taken back to the forum index.")
		return
	case "profile":
		var name string
		if err := q.s.db.QueryRowContext(q.ctx, `SELECT username FROM users WHERE uid = ?`, q.inInt("uid")).Scan(&name); err != nil {
			q.errorPage("The member you specified is either invalid or doesn't exist.")
			return
		}
		q.errorPage(template.HTML("Profile of " + template.HTMLEscapeString(name)))
		return
	}
	q.loginForm("", q.in("url"), nil)
}

func (q *req) loginForm(name, target string, errs []template.HTML) {
	q.page("Login", nil, "Login", "login", map[string]any{"Errors": errs, "Username": name, "URL": target, "Key": q.key})
}

// ---- private messages ----

type pmView struct {
	M        *pmRow
	New      bool
	Other    string
	OtherUID int
	Date     template.HTML
}

func (q *req) private() {
	if q.user == nil {
		q.noPermission()
		return
	}
	nav := []navItem{{URL: "usercp.php", Name: "User Control Panel"}}
	switch q.in("action") {
	case "do_send":
		if q.r.Method != http.MethodPost {
			break
		}
		if !q.keyOK() {
			q.badKey()
			return
		}
		to, subject, message := q.in("to"), q.in("subject"), q.in("message")
		saveCopy := q.in("options[savecopy]") == "1"
		err := q.s.sendPM(q.ctx, q.user, to, subject, message, saveCopy)
		var re *RuleError
		switch {
		case errors.As(err, &re):
			q.page("Compose a Private Message", nav, "Compose a Private Message", "pmcompose", map[string]any{
				"Key": q.key, "Errors": q.list(re.Messages), "To": to, "PMSubject": subject,
				"Message": q.textarea(message), "PMID": q.inInt("pmid"), "Do": q.in("do")})
		case err != nil:
			q.fail(err)
		default:
			q.redirect("private.php", "Thank you, your private message has successfully been sent.<br />You will now be returned to your private message inbox.")
		}
		return
	case "send":
		to, subject, message := "", "", ""
		if uid := q.inInt("uid"); uid > 0 {
			_ = q.s.db.QueryRowContext(q.ctx, `SELECT username FROM users WHERE uid = ?`, uid).Scan(&to)
		}
		if pmid := q.inInt("pmid"); pmid > 0 {
			if m, err := q.s.pm(q.ctx, pmid); err == nil && m.Owner == q.user.UID {
				to = m.FromName
				subject = "Re: " + m.Subject
				if q.in("do") == "forward" {
					to, subject = "", "Fw: "+m.Subject
				}
				message = fmt.Sprintf("[quote=\"%s\"]\n%s\n[/quote]\n\n", m.FromName, m.Message)
			}
		}
		q.page("Compose a Private Message", nav, "Compose a Private Message", "pmcompose", map[string]any{
			"Key": q.key, "To": to, "PMSubject": subject, "Message": q.textarea(message),
			"PMID": q.inInt("pmid"), "Do": q.in("do")})
		return
	case "read":
		m, err := q.s.pm(q.ctx, q.inInt("pmid"))
		if err != nil || m.Owner != q.user.UID {
			q.errorPage("The private message you tried to access does not exist or you do not have permission to view it.")
			return
		}
		if m.Status == 0 {
			if _, err := q.s.db.ExecContext(q.ctx, `UPDATE pms SET status = 1, readtime = ? WHERE pmid = ?`, q.now.Unix(), m.PMID); err != nil {
				q.fail(err)
				return
			}
		}
		b := postbit{BB: q.bb, PID: 0, UID: m.FromID, Author: m.FromName, Date: q.date(m.Dateline),
			Body: template.HTML(q.renderer().Render(m.Message, true)), ToUID: m.ToID, ToName: m.ToName}
		replyTo := ""
		if m.Folder == 1 {
			b.PMReplyLink = fmt.Sprintf("private.php?action=send&pmid=%d&do=reply", m.PMID)
			replyTo = m.FromName
		}
		q.authorInfo(&b)
		q.page(m.Subject, nav, m.Subject, "pmread", map[string]any{
			"Key": q.key, "Subject": m.Subject, "Post": b, "PMID": m.PMID, "ReplyTo": replyTo,
			"QuoteText": q.textarea(fmt.Sprintf("[quote=\"%s\"]\n%s\n[/quote]\n\n", m.FromName, m.Message))})
		return
	}
	fid := q.inInt("fid")
	folder, name, unread := 1, "Inbox", false
	switch fid {
	case 1:
		unread, name = true, "Unread"
	case 2:
		folder, name = 2, "Sent Items"
	case 3, 4:
		folder, name = -fid, map[int]string{3: "Drafts", 4: "Trash Can"}[fid]
	default:
		fid = 0
	}
	ms, err := q.s.pmFolder(q.ctx, q.user.UID, folder, unread)
	if err != nil {
		q.fail(err)
		return
	}
	var views []pmView
	for _, m := range ms {
		v := pmView{M: m, New: m.Folder == 1 && m.Status == 0, Other: m.FromName, OtherUID: m.FromID, Date: q.date(m.Dateline)}
		if m.Folder == 2 {
			v.Other, v.OtherUID = m.ToName, m.ToID
		}
		views = append(views, v)
	}
	q.page("Private Messaging", nav, name, "pmfolder", map[string]any{
		"BB": q.bb, "Key": q.key, "FID": fid, "FolderName": name, "Sent": folder == 2, "Messages": views})
}
