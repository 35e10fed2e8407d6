package discourse

import (
	"encoding/json"
	"fmt"
	"io"
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

	"forumgm/forum"
	"forumgm/forum/forumtest"
	"forumgm/internal/testkit"
)

// fakeDiscourse is a loopback Discourse answering the JSON API the way Discourse does (see
// testdata/README.md): the session cookie and its CSRF token (every POST of a cookie session
// carries X-CSRF-Token, else 403 ["BAD CSRF"]), the login, API keys, topics served twenty posts a
// request, posts created through /posts.json with Discourse's refusals (rate limit, too short,
// too long, unknown recipient), private-message topics and a category list.
type fakeDiscourse struct {
	t     testing.TB
	srv   *httptest.Server
	front *forumtest.Front // cuts an answer (the conformance suite's page cut short)

	mu        sync.Mutex
	log       []hit // every request, in order
	password  string
	apiKey    string
	sessions  map[string]string // _forum_session cookie -> CSRF token
	users     map[string]string // _t cookie -> user name
	topics    map[int]*fakeTopic
	nextPost  int
	nextTopic int
	// rateLimit refuses the next n posts with a rate limit of wait seconds.
	rateLimit, wait int
	maxLen          int
	known           []string // users that exist
	// oldPosts: /t/<id>/posts.json takes post_ids only (a Discourse before the post_number
	// filter): 400 for anything else.
	oldPosts  bool
	csrfPosts []string // the X-CSRF-Token of each POST /posts.json
	uploads   []string // the file names uploaded, in order
	raws      []string // the raw of each post created, in order
	apiPosts  []http.Header

	template map[string]any // a post (testdata/topic_posts.json)
	topicTop map[string]any // a topic's top level (testdata/topic.json)
}

type hit struct {
	method, uri string
	status      int
	bytes       int
}

type fakeTopic struct {
	id       int
	title    string
	pm       bool
	users    []string // private message: who takes part
	posts    []map[string]any
	category int
}

func newFake(t testing.TB) *fakeDiscourse {
	f := &fakeDiscourse{t: t, password: "GmBotPass1", apiKey: "k3y", sessions: map[string]string{}, users: map[string]string{},
		topics: map[int]*fakeTopic{}, nextPost: 1000, nextTopic: 500, maxLen: 32000, known: []string{"gm-bot", "alice", "bob"}}
	var tp struct {
		PostStream struct {
			Posts []map[string]any `json:"posts"`
		} `json:"post_stream"`
	}
	if err := json.Unmarshal(f.file("topic_posts.json"), &tp); err != nil {
		t.Fatal(err)
	}
	f.template = tp.PostStream.Posts[0]
	if err := json.Unmarshal(f.file("topic.json"), &f.topicTop); err != nil {
		t.Fatal(err)
	}
	f.front = forumtest.NewFront(http.HandlerFunc(f.serve))
	f.srv = httptest.NewServer(f.front)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeDiscourse) file(name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		f.t.Fatal(err)
	}
	return b
}

// open builds the dialect against the fake with a fast client and a recording clock.
func (f *fakeDiscourse) open(t testing.TB, extra map[string]string, mod func(*forum.Config)) (*Forum, *testkit.Clock) {
	clock := testkit.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	cfg := forum.Config{BaseURL: f.srv.URL + "/", Username: "gm-bot", Password: "GmBotPass1", Extra: extra}
	if mod != nil {
		mod(&cfg)
	}
	c := forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100, BaseDelay: time.Millisecond, Sleep: clock.Sleep})
	d, err := New(cfg, WithClient(c))
	if err != nil {
		t.Fatal(err)
	}
	return d, clock
}

// addTopic makes a topic of n posts by alternating players; cooked(i) is post i's HTML.
func (f *fakeDiscourse) addTopic(n int, cooked func(i int) string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextTopic++
	tp := &fakeTopic{id: f.nextTopic, title: "Партия №" + strconv.Itoa(f.nextTopic), category: 2}
	f.topics[tp.id] = tp
	for i := 1; i <= n; i++ {
		f.addPostLocked(tp, []string{"alice", "bob"}[i%2], cooked(i), 1)
	}
	return tp.id
}

// addPost adds a post to a topic (a player's reply, a small action with postType 3).
func (f *fakeDiscourse) addPost(topic int, user, cooked string, postType int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.addPostLocked(f.topics[topic], user, cooked, postType)
}

func (f *fakeDiscourse) addPostLocked(tp *fakeTopic, user, cooked string, postType int) int {
	f.nextPost++
	p := map[string]any{}
	for k, v := range f.template {
		p[k] = v
	}
	n := len(tp.posts) + 1
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(f.nextPost) * time.Minute).Format("2006-01-02T15:04:05.000Z")
	p["id"], p["post_number"], p["topic_id"], p["username"], p["cooked"] = f.nextPost, n, tp.id, user, cooked
	p["created_at"], p["updated_at"], p["post_type"], p["version"] = at, at, postType, 1
	p["topic_slug"] = "partiya"
	p["raw"] = nil
	tp.posts = append(tp.posts, p)
	return f.nextPost
}

func (f *fakeDiscourse) postID(topic, number int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return fmt.Sprint(f.topics[topic].posts[number-1]["id"])
}

// requests are the requests since mark (an index of the log).
func (f *fakeDiscourse) requests(mark int) []hit {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]hit(nil), f.log[mark:]...)
}

func (f *fakeDiscourse) mark() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.log)
}

// expire ends every cookie session (the forum logged the bot out).
func (f *fakeDiscourse) expire() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.users = map[string]string{}
}

// rotateCSRF gives every session a new token (the one the client holds turns stale).
func (f *fakeDiscourse) rotateCSRF() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for k := range f.sessions {
		f.sessions[k] = "rotated-" + k
	}
}

type countingWriter struct {
	http.ResponseWriter
	status, n int
}

func (w *countingWriter) WriteHeader(s int) { w.status = s; w.ResponseWriter.WriteHeader(s) }
func (w *countingWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.n += n
	return n, err
}

func (f *fakeDiscourse) serve(w http.ResponseWriter, r *http.Request) {
	cw := &countingWriter{ResponseWriter: w, status: 200}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.route(cw, r)
	f.log = append(f.log, hit{method: r.Method, uri: r.URL.RequestURI(), status: cw.status, bytes: cw.n})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func jsonError(w http.ResponseWriter, status int, typ string, msgs ...string) {
	writeJSON(w, status, map[string]any{"errors": msgs, "error_type": typ})
}

var (
	reTopic      = regexp.MustCompile(`^/t/(\d+)\.json$`)
	reTopicPosts = regexp.MustCompile(`^/t/(\d+)/posts\.json$`)
	rePost       = regexp.MustCompile(`^/posts/(\d+)\.json$`)
	reCategory   = regexp.MustCompile(`^/c/(?:([a-z-]+)/)?(\d+)\.json$`)
	rePMs        = regexp.MustCompile(`^/topics/private-messages(-sent)?/([^/]+)\.json$`)
	reUser       = regexp.MustCompile(`^/u/([^/]+)\.json$`)
)

// user is who the request is made as: the API key's user, the session's, or "" (anonymous).
// bad is set when an API key was sent and refused.
func (f *fakeDiscourse) user(r *http.Request) (name string, api, bad bool) {
	if k := r.Header.Get("Api-Key"); k != "" {
		if k != f.apiKey {
			return "", true, true
		}
		return r.Header.Get("Api-Username"), true, false
	}
	if c, err := r.Cookie("_t"); err == nil {
		return f.users[c.Value], false, false
	}
	return "", false, false
}

func (f *fakeDiscourse) session(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie("_forum_session"); err == nil {
		if _, ok := f.sessions[c.Value]; ok {
			return c.Value
		}
	}
	id := fmt.Sprintf("s%d", len(f.sessions)+1)
	f.sessions[id] = ""
	http.SetCookie(w, &http.Cookie{Name: "_forum_session", Value: id, Path: "/", HttpOnly: true})
	return id
}

// csrfOK: a POST of a cookie session carries the session's token.
func (f *fakeDiscourse) csrfOK(r *http.Request) bool {
	c, err := r.Cookie("_forum_session")
	if err != nil {
		return false
	}
	tok := f.sessions[c.Value]
	return tok != "" && r.Header.Get("X-CSRF-Token") == tok
}

func (f *fakeDiscourse) route(w http.ResponseWriter, r *http.Request) {
	user, api, bad := f.user(r)
	if bad {
		jsonError(w, 403, "invalid_access", "You are not permitted to view the requested resource. The API username or key is invalid.")
		return
	}
	if r.Method == http.MethodPost && !api {
		if !f.csrfOK(r) {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(403)
			io.WriteString(w, `["BAD CSRF"]`)
			return
		}
	}
	p := r.URL.Path
	switch {
	case r.Method == http.MethodGet && p == "/session/csrf":
		id := f.session(w, r)
		tok := "tok-" + id + "-" + strconv.Itoa(len(f.log))
		f.sessions[id] = tok
		writeJSON(w, 200, map[string]string{"csrf": tok})
	case r.Method == http.MethodPost && p == "/session":
		r.ParseForm()
		if r.Form.Get("login") != "gm-bot" || r.Form.Get("password") != f.password {
			writeJSON(w, 200, map[string]string{"error": "Incorrect username, email or password"})
			return
		}
		tok := fmt.Sprintf("t%d", len(f.users)+len(f.log))
		f.users[tok] = "gm-bot"
		http.SetCookie(w, &http.Cookie{Name: "_t", Value: tok, Path: "/", HttpOnly: true})
		writeJSON(w, 200, map[string]any{"user": map[string]any{"id": 2, "username": "gm-bot"}})
	case r.Method == http.MethodGet && p == "/session/current.json":
		if user == "" {
			w.WriteHeader(404)
			return
		}
		writeJSON(w, 200, map[string]any{"current_user": map[string]any{"id": 2, "username": user}})
	case r.Method == http.MethodGet && reTopic.MatchString(p):
		tp, ok := f.visible(w, user, atoi(reTopic.FindStringSubmatch(p)[1]))
		if !ok {
			return
		}
		out := map[string]any{}
		for k, v := range f.topicTop {
			out[k] = v
		}
		var stream []any
		for _, q := range tp.posts {
			stream = append(stream, q["id"])
		}
		last := tp.posts[len(tp.posts)-1]
		out["id"], out["title"], out["posts_count"], out["highest_post_number"] = tp.id, tp.title, len(tp.posts), len(tp.posts)
		out["last_posted_at"], out["category_id"], out["archetype"] = last["created_at"], tp.category, "regular"
		if tp.pm {
			out["archetype"], out["category_id"] = "private_message", nil
		}
		out["post_stream"] = map[string]any{"posts": tp.posts[:min(20, len(tp.posts))], "stream": stream}
		writeJSON(w, 200, out)
	case r.Method == http.MethodGet && reTopicPosts.MatchString(p):
		tp, ok := f.visible(w, user, atoi(reTopicPosts.FindStringSubmatch(p)[1]))
		if !ok {
			return
		}
		q := r.URL.Query()
		var posts []map[string]any
		switch {
		case len(q["post_ids[]"]) > 0:
			for _, q := range tp.posts {
				if slices.Contains(r.URL.Query()["post_ids[]"], fmt.Sprint(q["id"])) {
					posts = append(posts, q)
				}
			}
		case q.Get("post_number") != "" && q.Get("asc") == "true" && !f.oldPosts:
			n := atoi(q.Get("post_number"))
			for _, q := range tp.posts {
				if q["post_number"].(int) > n && len(posts) < 20 {
					posts = append(posts, q)
				}
			}
		default:
			jsonError(w, 400, "invalid_parameters", "param is missing or the value is empty: post_ids")
			return
		}
		writeJSON(w, 200, map[string]any{"post_stream": map[string]any{"posts": posts}, "id": tp.id})
	case r.Method == http.MethodGet && rePost.MatchString(p):
		id := atoi(rePost.FindStringSubmatch(p)[1])
		for _, tp := range f.topics {
			for _, q := range tp.posts {
				if q["id"] == id && (!tp.pm || slices.Contains(tp.users, user)) {
					writeJSON(w, 200, q)
					return
				}
			}
		}
		jsonError(w, 404, "not_found", "The requested URL or resource could not be found.")
	case r.Method == http.MethodPost && p == "/posts.json":
		f.create(w, r, user)
	case r.Method == http.MethodPost && p == "/uploads.json":
		f.upload(w, r, user)
	case r.Method == http.MethodGet && reCategory.MatchString(p):
		m := reCategory.FindStringSubmatch(p)
		if m[2] != "2" {
			jsonError(w, 404, "not_found", "The requested URL or resource could not be found.")
			return
		}
		if m[1] != "games" { // ListController#set_category: the slugged path, keeping .json
			http.Redirect(w, r, "/c/games/2.json", http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(f.file("category_topics.json"))
	case r.Method == http.MethodGet && rePMs.MatchString(p):
		m := rePMs.FindStringSubmatch(p)
		sent, who := m[1] != "", m[2]
		if user == "" {
			jsonError(w, 403, "not_logged_in", "You need to be logged in to do that.")
			return
		}
		if who != user {
			jsonError(w, 403, "invalid_access", "You are not permitted to view the requested resource.")
			return
		}
		var list map[string]any
		json.Unmarshal(f.file("private_messages.json"), &list)
		tl := list["topic_list"].(map[string]any)
		proto := tl["topics"].([]any)[0].(map[string]any)
		var topics []any
		for id := f.nextTopic; id > 0; id-- {
			tp := f.topics[id]
			if tp == nil || !tp.pm || !slices.Contains(tp.users, user) || sent && tp.posts[0]["username"] != user {
				continue
			}
			lt := map[string]any{}
			for k, v := range proto {
				lt[k] = v
			}
			last := tp.posts[len(tp.posts)-1]
			lt["id"], lt["title"], lt["fancy_title"], lt["posts_count"], lt["highest_post_number"] = tp.id, tp.title, tp.title, len(tp.posts), len(tp.posts)
			lt["last_posted_at"], lt["last_poster_username"] = last["created_at"], last["username"]
			topics = append(topics, lt)
		}
		tl["topics"] = topics
		writeJSON(w, 200, list)
	case r.Method == http.MethodGet && reUser.MatchString(p):
		if !slices.Contains(f.known, reUser.FindStringSubmatch(p)[1]) {
			jsonError(w, 404, "not_found", "The requested URL or resource could not be found.")
			return
		}
		writeJSON(w, 200, map[string]any{"user": map[string]any{"username": reUser.FindStringSubmatch(p)[1]}})
	default:
		jsonError(w, 404, "not_found", "The requested URL or resource could not be found.")
	}
}

// visible finds a topic the user may see, else answers as Discourse does.
func (f *fakeDiscourse) visible(w http.ResponseWriter, user string, id int) (*fakeTopic, bool) {
	tp := f.topics[id]
	switch {
	case tp == nil:
		jsonError(w, 404, "not_found", "The requested URL or resource could not be found.")
		return nil, false
	case tp.pm && user == "":
		jsonError(w, 403, "not_logged_in", "You need to be logged in to do that.")
		return nil, false
	case tp.pm && !slices.Contains(tp.users, user):
		jsonError(w, 403, "invalid_access", "You are not permitted to view the requested resource.")
		return nil, false
	}
	return tp, true
}

// create is PostsController#create: a reply or a new private message.
func (f *fakeDiscourse) create(w http.ResponseWriter, r *http.Request, user string) {
	f.csrfPosts = append(f.csrfPosts, r.Header.Get("X-CSRF-Token"))
	f.apiPosts = append(f.apiPosts, r.Header.Clone())
	if user == "" {
		jsonError(w, 403, "not_logged_in", "You need to be logged in to do that.")
		return
	}
	var req struct {
		TopicID    int    `json:"topic_id"`
		Raw        string `json:"raw"`
		Title      string `json:"title"`
		Recipients string `json:"target_recipients"`
		Archetype  string `json:"archetype"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		jsonError(w, 400, "invalid_parameters", err.Error())
		return
	}
	if f.rateLimit > 0 {
		f.rateLimit--
		w.Header().Set("Retry-After", strconv.Itoa(f.wait))
		writeJSON(w, 429, map[string]any{
			"errors":     []string{fmt.Sprintf("You’ve performed this action too many times. Please wait %d seconds before trying again.", f.wait)},
			"error_type": "rate_limit", "extras": map[string]any{"wait_seconds": f.wait, "time_left": fmt.Sprintf("%d seconds", f.wait)},
		})
		return
	}
	if n := len([]rune(strings.TrimSpace(req.Raw))); n < 20 {
		writeJSON(w, 422, map[string]any{"action": "create_post", "errors": []string{"Body is too short (minimum is 20 characters)"}})
		return
	} else if n > f.maxLen {
		writeJSON(w, 422, map[string]any{"action": "create_post", "errors": []string{fmt.Sprintf("Body is limited to %d characters; you entered %d.", f.maxLen, n)}})
		return
	}
	f.raws = append(f.raws, req.Raw)
	cooked := "<p>" + strings.ReplaceAll(req.Raw, "\n", "<br>\n") + "</p>"
	var tp *fakeTopic
	switch {
	case req.Archetype == "private_message":
		if !slices.Contains(f.known, req.Recipients) {
			writeJSON(w, 422, map[string]any{"action": "create_post", "errors": []string{fmt.Sprintf("Sorry, there is no user with the username %q.", req.Recipients)}})
			return
		}
		f.nextTopic++
		tp = &fakeTopic{id: f.nextTopic, title: req.Title, pm: true, users: []string{user, req.Recipients}}
		f.topics[tp.id] = tp
	default:
		tp = f.topics[req.TopicID]
		if tp == nil {
			jsonError(w, 404, "not_found", "The requested URL or resource could not be found.")
			return
		}
	}
	f.addPostLocked(tp, user, cooked, 1)
	writeJSON(w, 200, tp.posts[len(tp.posts)-1])
}

// upload is UploadsController#create for the composer: the file stored, answered as
// testdata/upload_file.json shows (id, url, original_filename, width, height) plus short_url.
func (f *fakeDiscourse) upload(w http.ResponseWriter, r *http.Request, user string) {
	if user == "" {
		jsonError(w, 403, "not_logged_in", "You need to be logged in to do that.")
		return
	}
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		jsonError(w, 400, "invalid_parameters", err.Error())
		return
	}
	file, hdr, err := r.FormFile("file")
	if err != nil || r.FormValue("upload_type") != "composer" || r.FormValue("synchronous") != "true" {
		jsonError(w, 400, "invalid_parameters", "param is missing or the value is empty: file/upload_type")
		return
	}
	data, _ := io.ReadAll(file)
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(hdr.Filename), "."))
	if !slices.Contains([]string{"jpg", "jpeg", "png", "gif", "heic", "heif", "webp", "avif", "svg"}, ext) {
		writeJSON(w, 422, map[string]any{"errors": []string{"Sorry, the file you are trying to upload is not authorized (authorized extensions: jpg, jpeg, png, gif, heic, heif, webp, avif, svg)."}})
		return
	}
	var u map[string]any
	json.Unmarshal(f.file("upload_file.json"), &u)
	f.uploads = append(f.uploads, hdr.Filename)
	sha := fmt.Sprintf("%040x", len(f.uploads))
	u["id"], u["original_filename"], u["filesize"] = 10+len(f.uploads), hdr.Filename, len(data)
	u["url"], u["short_url"], u["human_filesize"] = "/uploads/default/original/1X/"+sha+"."+ext, "upload://"+sha[:27]+"."+ext, fmt.Sprintf("%d Bytes", len(data))
	writeJSON(w, 200, u)
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// uris are the request URIs of hits, "GET /t/1.json".
func uris(hs []hit) []string {
	var out []string
	for _, h := range hs {
		u, _ := url.PathUnescape(h.uri)
		out = append(out, h.method+" "+u)
	}
	return out
}

func bytesOf(hs []hit) int {
	n := 0
	for _, h := range hs {
		n += h.bytes
	}
	return n
}
