package mybb

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// fakeMyBB serves the captured pages over loopback HTTP in the order a real MyBB 1.8 would:
// login form (sid cookie) → login result (mybbuser cookie on success); thread pages as guest or
// member; action=lastpost → 302; newreply form for members, the no-permission page for guests;
// POSTs answered from a script of captured result pages.
type fakeMyBB struct {
	t   testing.TB
	srv *httptest.Server
	dir string

	mu       sync.Mutex
	requests []string     // "GET /showthread.php?tid=1&page=2"
	posts    []url.Values // bodies of POSTs to newreply.php / private.php
	logins   []url.Values
	password string
	sessions map[string]bool // valid mybbuser cookie values
	replies  []string        // pages answering newreply POSTs, in order
	pms      []string        // pages answering private.php POSTs
	lastPID  string          // what action=lastpost points at
	// themeDir serves the thread pages of a themed capture (testdata/forums/mybb-*) instead, and
	// location is then its action=lastpost redirect as captured (SEO URL forms).
	themeDir, location string
	// uploads are the files of "Add Attachment" POSTs (newattachment), in order; each is listed
	// in the form shown back with aid 100+its index. refuseUpload answers an upload with
	// MyBB's error_attachtype instead.
	uploads      []upload
	refuseUpload bool
	// oldField serves the reply form with MyBB's old single "attachment" file field.
	oldField bool
	// moderator serves the thread page the bot sees once it moderates the forum (the capture of
	// the second board, testdata/forums/mybb/section).
	moderator bool
	nextLogin int
	// sentPage builds the read page of gm-bot's Sent Items copy (pmid 2) from the recipient's
	// captured read page (pmid 1); the capture has no page of the sender's copy. nil: 404.
	sentPage func(recipientPage []byte) []byte
	// russian replaces texts of the captured pages with the Russian pack's wording (a board in
	// Russian answers with the same markup).
	russian *strings.Replacer
}

func newFake(t testing.TB) *fakeMyBB {
	f := &fakeMyBB{t: t, dir: fixture.Dir(t, "mybb"), password: "GmBotPass1", sessions: map[string]bool{}, lastPID: "16"}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeMyBB) page(name string) []byte {
	b, err := os.ReadFile(filepath.Join(f.dir, name))
	if err != nil {
		f.t.Fatal(err)
	}
	// The pages carry the capture board's absolute URLs; point them at this server.
	page := strings.NewReplacer("http://127.0.0.1:8081", f.srv.URL, "http://127.0.0.1:18437", f.srv.URL).Replace(string(b))
	if f.russian != nil {
		page = f.russian.Replace(page)
	}
	return []byte(page)
}

// themePage is a page of the themed capture f.themeDir, pointed at this server.
func (f *fakeMyBB) themePage(name string) []byte {
	b, err := os.ReadFile(filepath.Join(fixture.Dir(f.t, f.themeDir), name))
	if err != nil {
		f.t.Fatal(err)
	}
	return []byte(strings.ReplaceAll(string(b), "http://127.0.0.1:18400", f.srv.URL))
}

func (f *fakeMyBB) member(r *http.Request) bool {
	c, err := r.Cookie("mybbuser")
	return err == nil && f.sessions[c.Value]
}

// expire drops every session (the board logged the bot out).
func (f *fakeMyBB) expire() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sessions = map[string]bool{}
}

func (f *fakeMyBB) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

func (f *fakeMyBB) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, r.Method+" "+r.URL.RequestURI())
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	w.Header().Set("Cache-Control", "no-cache, private")
	http.SetCookie(w, &http.Cookie{Name: "sid", Value: "s1", Path: "/", HttpOnly: true})
	q := r.URL.Query()
	send := func(name string) { w.Write(f.page(name)) }
	member := f.member(r)
	switch {
	case r.URL.Path == "/member.php" && r.Method == http.MethodGet && q.Get("action") == "login":
		send("01-login-form.guest.html")
	case r.URL.Path == "/member.php" && r.Method == http.MethodPost:
		f.logins = append(f.logins, r.PostForm)
		if r.PostForm.Get("my_post_key") != "4c7d7fde5b65eef36e067d79743ac45d" {
			send("27-reply-error-badkey.gm-bot.html")
			return
		}
		if r.PostForm.Get("username") != "gm-bot" || r.PostForm.Get("password") != f.password {
			send("03-login-error.guest.html")
			return
		}
		f.nextLogin++
		token := "5_key" + string(rune('a'+f.nextLogin))
		f.sessions[token] = true
		http.SetCookie(w, &http.Cookie{Name: "mybbuser", Value: token, Path: "/", HttpOnly: true})
		send("02-login-success.gm-bot.html")
	case r.URL.Path == "/showthread.php":
		if q.Get("action") == "lastpost" {
			loc := "showthread.php?tid=1&pid=" + f.lastPID + "#pid" + f.lastPID
			if f.location != "" {
				loc = f.location
			}
			w.Header().Set("Location", loc)
			w.WriteHeader(http.StatusFound)
			return
		}
		page := q.Get("page")
		if pid := q.Get("pid"); pid != "" {
			page = "1"
			if len(pid) > 1 || pid > "8" {
				page = "2"
			}
		}
		if f.themeDir != "" {
			send = func(name string) { w.Write(f.themePage(name)) }
		}
		switch {
		case f.moderator && member:
			send("section/21-showthread-tid2.gm-bot.moderator.html")
		case page == "2" && member:
			send("13-thread-p2.gm-bot.html")
		case page == "2":
			send("11-thread-p2.guest.html")
		case member:
			send("12-thread-p1.gm-bot.html")
		default: // page 1, and MyBB's answer to an out-of-range page
			send("10-thread-p1.guest.html")
		}
	case r.URL.Path == "/forumdisplay.php" && (q.Get("fid") == "3" || q.Get("fid") == "4"):
		// fid 4 stands for a link forum: the board answers another forum's list.
		send("16-forumdisplay-fid3.guest.html")
	case r.URL.Path == "/newreply.php" && r.Method == http.MethodGet:
		if !member {
			send("26-newreply-noperm.guest.html")
			return
		}
		if f.oldField {
			w.Write(oldAttachField(f.page("20-newreply-form.gm-bot.html")))
			return
		}
		send("20-newreply-form.gm-bot.html")
	case r.URL.Path == "/newreply.php" && r.Method == http.MethodPost:
		if !member {
			send("26-newreply-noperm.guest.html")
			return
		}
		if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
			if err := r.ParseMultipartForm(8 << 20); err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
		}
		f.posts = append(f.posts, r.PostForm)
		if r.PostForm.Get("newattachment") != "" {
			w.Write(f.afterUpload(r))
			return
		}
		if len(f.replies) == 0 {
			f.t.Errorf("unexpected reply POST")
			send("27-reply-error-badkey.gm-bot.html")
			return
		}
		next := f.replies[0]
		f.replies = f.replies[1:]
		send(next)
	case r.URL.Path == "/private.php" && r.Method == http.MethodPost:
		if !member {
			send("26-newreply-noperm.guest.html")
			return
		}
		f.posts = append(f.posts, r.PostForm)
		if len(f.pms) == 0 {
			f.t.Errorf("unexpected PM POST")
			send("27-reply-error-badkey.gm-bot.html")
			return
		}
		next := f.pms[0]
		f.pms = f.pms[1:]
		send(next)
	case r.URL.Path == "/private.php":
		if !member {
			send("26-newreply-noperm.guest.html")
			return
		}
		switch {
		case q.Get("action") == "send":
			send("30-pm-compose.gm-bot.html")
		case q.Get("action") == "read" && q.Get("pmid") == "1":
			send("34-pm-read.dzhelu.html")
		case q.Get("action") == "read" && q.Get("pmid") == "2" && f.sentPage != nil:
			w.Write(f.sentPage(f.page("34-pm-read.dzhelu.html")))
		case q.Get("action") == "" && q.Get("fid") == "2":
			send("35-pm-sent-folder.gm-bot.html")
		case q.Get("action") == "":
			send("33-pm-inbox.dzhelu.html")
		default:
			http.NotFound(w, r)
		}
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeMyBB) forum(tb testing.TB, extra map[string]string, opts ...Option) *Forum {
	tb.Helper()
	client := forum.NewClient(forum.ClientConfig{Rate: 10000, Burst: 1000, BaseDelay: time.Millisecond,
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
	cfg := forum.Config{
		BaseURL:  f.srv.URL + "/",
		Username: "gm-bot",
		Password: "GmBotPass1",
		Location: time.UTC,
		Now:      func() time.Time { return time.Date(2026, 11, 30, 3, 23, 0, 0, time.UTC) },
		Extra:    extra,
	}
	fm, err := New(cfg, append([]Option{WithClient(client)}, opts...)...)
	if err != nil {
		tb.Fatal(err)
	}
	return fm
}

// upload is one file of an "Add Attachment" POST.
type upload struct {
	aid, posthash, name, ctype string
	data                       []byte
}

// afterUpload answers an "Add Attachment" POST the way MyBB 1.8's newreply.php does: the reply
// form again (the capture 20-newreply-form, same posthash), listing every file uploaded under the
// posthash in a post_attachments_attachment row (the template of MyBB 1.8.37's
// install/resources/mybb_theme.xml: <tr id="attachment_AID"> … <span
// class="attachment_filename">NAME</span> (SIZE) … [attachment=AID] insert button), or with the
// inline error MyBB shows for a refused type. The capture has no page with an attachment listed.
func (f *fakeMyBB) afterUpload(r *http.Request) []byte {
	page := string(f.page("20-newreply-form.gm-bot.html"))
	if f.refuseUpload {
		box := "<div class=\"error\">\n\t<p><em>Please correct the following errors before continuing:</em></p>\n\t<ul>\n<li>The type of file that you attached is not allowed. Please remove the attachment or choose a different type.</li>\n\t</ul>\n</div>\n"
		return []byte(strings.Replace(page, "<form action=\"newreply.php", box+"<form action=\"newreply.php", 1))
	}
	hash := r.PostForm.Get("posthash")
	for _, fh := range append(r.MultipartForm.File["attachments[]"], r.MultipartForm.File["attachment"]...) {
		file, _ := fh.Open()
		data, _ := io.ReadAll(file)
		file.Close()
		f.uploads = append(f.uploads, upload{aid: strconv.Itoa(100 + len(f.uploads)), posthash: hash, name: fh.Filename,
			ctype: fh.Header.Get("Content-Type"), data: data})
	}
	var rows strings.Builder
	for _, u := range f.uploads {
		if u.posthash != hash {
			continue
		}
		fmt.Fprintf(&rows, `<tr id="attachment_%s">
<td class="trow2" width="1" align="center"><img src="images/attachtypes/image.png" alt="" /></td>
<td class="trow2" width="60%%" style="white-space: nowrap"><span class="attachment_filename">%s</span> (%d bytes)</td>
<td class="trow2" style="white-space: nowrap; text-align: center;"> <input type="submit" class="button" name="rem_%s" value="Remove" onclick="return Post.removeAttachment(%s);" /> <input type="button" class="button" name="insert" value="Insert Into Post" onclick="$('#message').sceditor('instance').insertText('[attachment=%s]'); return false;" /></td>
</tr>
`, u.aid, html.EscapeString(u.name), len(u.data), u.aid, u.aid, u.aid)
	}
	page = strings.Replace(page, "<!-- end: post_attachments_new -->", "<!-- end: post_attachments_new -->\n"+rows.String(), 1)
	// The same posthash comes back (the capture's, or the one posted).
	out := []byte(strings.ReplaceAll(page, "269400a14267e4bf9ab5414811018eab", hash))
	if f.oldField {
		out = oldAttachField(out)
	}
	return out
}

// oldAttachField is the reply form of MyBB before 1.8.18: one file per upload, field "attachment".
func oldAttachField(page []byte) []byte {
	return []byte(strings.Replace(string(page), `name="attachments[]" size="30" class="fileupload" multiple="multiple"`, `name="attachment" size="30" class="fileupload"`, 1))
}
