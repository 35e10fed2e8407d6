package sandbox

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/internal/fixture"
	"forumgm/internal/testkit"
)

// fixtureBase is the base URL of the captured board.
const fixtureBase = "http://127.0.0.1:8081"

type rawPost struct {
	PID        int    `json:"pid"`
	TID        int    `json:"tid"`
	UID        int    `json:"uid"`
	Username   string `json:"username"`
	Subject    string `json:"subject"`
	Dateline   int64  `json:"dateline"`
	EditUID    int    `json:"edituid"`
	EditTime   int64  `json:"edittime"`
	EditReason string `json:"editreason"`
	Message    string `json:"message"`
}

type rawFile struct {
	Users map[string]string `json:"users"`
	Posts []rawPost         `json:"posts"`
	PMs   []struct {
		PMID     int    `json:"pmid"`
		Folder   int    `json:"folder"`
		FromID   int    `json:"fromid"`
		ToID     string `json:"toid"`
		Subject  string `json:"subject"`
		Message  string `json:"message"`
		Dateline int64  `json:"dateline"`
	} `json:"private_messages"`
}

func loadRaw(t *testing.T) *rawFile {
	t.Helper()
	b := fixture.Read(t, "mybb", "posts-raw.json")
	var r rawFile
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// fixtureUsers are the captured board's accounts, in uid order.
var fixtureUsers = []User{
	{"admin", "AdminPass123"}, {"Джелу", "DzheluPass1"}, {"snovaya", "SnovayaPass1"},
	{"Moderator", "WatchTower7"}, {"gm-bot", "GmBotPass1"},
}

// captureTime is when the thread pages were captured.
var captureTime = time.Date(2026, 11, 30, 3, 22, 30, 0, time.UTC)

// fixtureThreads rebuilds the captured threads from posts-raw.json.
func fixtureThreads(t *testing.T) []Thread {
	raw := loadRaw(t)
	byTID := map[int]*Thread{}
	var order []int
	for _, p := range raw.Posts {
		th := byTID[p.TID]
		if th == nil {
			th = &Thread{FID: DefaultFID, Subject: p.Subject}
			byTID[p.TID] = th
			order = append(order, p.TID)
		}
		sp := SeedPost{Author: p.Username, Message: p.Message, Time: time.Unix(p.Dateline, 0)}
		if p.EditUID != 0 {
			sp.EditedBy = raw.Users[strconv.Itoa(p.EditUID)]
			sp.EditTime = time.Unix(p.EditTime, 0)
			sp.EditReason = p.EditReason
		}
		th.Posts = append(th.Posts, sp)
	}
	var out []Thread
	for _, tid := range order {
		out = append(out, *byTID[tid])
	}
	return out
}

// newBoard starts a board with the fixture users (and, when seed, the fixture threads) on a
// loopback port, with a manual clock.
func newBoard(t *testing.T, seed bool, clock *testkit.Clock, mod func(*Options)) (*Server, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	opts := Options{DBPath: filepath.Join(t.TempDir(), "board.db"), Now: clock.Now, Users: fixtureUsers}
	if seed {
		opts.Threads = fixtureThreads(t)
	}
	if mod != nil {
		mod(&opts)
	}
	s, err := New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	base, err := s.Start(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, base
}

// client is a browser-like HTTP client with a cookie jar that does not follow redirects.
type client struct {
	t    *testing.T
	base string
	hc   *http.Client
}

func newClient(t *testing.T, base string) *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: t, base: base, hc: &http.Client{Jar: jar, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (c *client) do(req *http.Request) (*http.Response, string) {
	c.t.Helper()
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp, string(b)
}

func (c *client) get(path string) (*http.Response, string) {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, c.base+"/"+path, nil)
	return c.do(req)
}

func (c *client) postForm(path string, v url.Values) (*http.Response, string) {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, c.base+"/"+path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(req)
}

func doc(t *testing.T, html string) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(strings.NewReader(html))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

var reJSKey = regexp.MustCompile(`var my_post_key = "([0-9a-f]+)"`)

// key reads my_post_key the way the README suggests (the script variable).
func key(t *testing.T, html string) string {
	t.Helper()
	m := reJSKey.FindStringSubmatch(html)
	if m == nil {
		t.Fatalf("no my_post_key in page")
	}
	return m[1]
}

// login logs the client in through the login form.
func (c *client) login(name, password string) (string, bool) {
	c.t.Helper()
	_, page := c.get("member.php?action=login")
	k, _ := doc(c.t, page).Find(`form[action="member.php"] input[name=my_post_key]`).Attr("value")
	_, body := c.postForm("member.php", url.Values{"action": {"do_login"}, "url": {c.base + "/showthread.php?tid=1"},
		"my_post_key": {k}, "username": {name}, "password": {password}, "remember": {"yes"}, "submit": {"Login"}})
	return body, strings.Contains(body, "You have successfully been logged in.")
}

var reRefreshPID = regexp.MustCompile(`content="2;URL=showthread\.php\?tid=(\d+)&amp;pid=(\d+)#pid(\d+)"`)

// reply posts through the full reply form (GET the form, replay its hidden fields).
func (c *client) reply(tid int, message string) (pid int, body string) {
	c.t.Helper()
	_, page := c.get("newreply.php?tid=" + strconv.Itoa(tid))
	d := doc(c.t, page)
	v := url.Values{}
	d.Find(`form[name=input] input[type=hidden]`).Each(func(_ int, s *goquery.Selection) {
		n, _ := s.Attr("name")
		val, _ := s.Attr("value")
		v.Set(n, val)
	})
	subj, _ := d.Find(`input[name=subject]`).Attr("value")
	v.Set("subject", subj)
	v.Set("message", message)
	v.Set("submit", "Post Reply")
	_, body = c.postForm("newreply.php?tid="+strconv.Itoa(tid)+"&processed=1", v)
	if m := reRefreshPID.FindStringSubmatch(body); m != nil {
		pid, _ = strconv.Atoi(m[2])
	}
	return pid, body
}
