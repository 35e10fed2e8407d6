package forumtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/text/encoding"

	"forumgm/forum"
)

// FakeBoard is the state of a stateful fake board, the core of the fake-board kit: one thread of
// posts, the bot's session, its private messages both ways and the refusals the suite arms. A
// dialect's test renders this state in its engine's real markup (Template: blocks cut from its
// captured pages, one per post) and serves it with Serve; Board gives the suite's hooks on it.
//
// The dialect's handler holds the lock (Lock, Unlock) while it answers a request and may read
// the exported fields and call the methods documented "lock held" meanwhile.
type FakeBoard struct {
	sync.Mutex
	// Bot is the bot's account; Player and Other are players with posts in the thread (the bot
	// sends Player private messages, Player sends the bot some).
	Bot, Player, Other string
	// Posts are the thread's posts, oldest first.
	Posts []FakePost
	// Inbox holds the messages sent to the bot, Sent those the bot sent, oldest first.
	Inbox, Sent []FakeMessage
	// Session is the bot's valid session ("" when the board has forgotten it).
	Session string
	// FloodWait is the wait the board's flood refusal names (its captured flood page's).
	FloodWait time.Duration
	// MaxLen is the longest post the board takes, in characters (in bytes with Bytes).
	MaxLen int
	// Bytes: the board counts MaxLen in bytes of UTF-8 (PunBB's FORUM_MAX_POSTSIZE).
	Bytes bool
	// Front is the front the board is served through (set by Serve).
	Front *Front
	// URL is the served board's root, with no trailing slash (set by Serve).
	URL string

	t     testing.TB
	pages FakeOptions // where the captured pages are and how they are served

	flood    bool      // the bot's next write is refused with flood control
	now      time.Time // the time of the last write
	nextPost int
	nextMsg  int
	sessions int
}

// FakePost is a post of a FakeBoard's thread.
type FakePost struct {
	ID     int
	Author string
	Time   time.Time
	Text   string
}

// FakeMessage is a private message of a FakeBoard.
type FakeMessage struct {
	ID            int
	From, To      string
	Subject, Text string
	Time          time.Time
}

// FakeOptions set up a FakeBoard.
type FakeOptions struct {
	Bot, Player, Other string
	// Start is the time of the first post; every write comes a minute after the one before.
	Start time.Time
	// FirstPost and FirstMessage are the first ids given (the engine's numbering past what its
	// captured pages show).
	FirstPost, FirstMessage int
	// FloodWait and MaxLen are the board's (see FakeBoard).
	FloodWait time.Duration
	MaxLen    int
	Bytes     bool
	// Seed is how many posts the thread starts with, Player's and Other's in turn (at least 3;
	// as many as fill a page make the suite's reads cross pages).
	Seed int
	// Dir holds the captured pages (File), made at Host (the captured board's address, which
	// File turns into the slot {{HOST}}), in Charset (nil: UTF-8); ContentType is the pages'
	// (default "text/html; charset=UTF-8").
	Dir, Host   string
	Charset     encoding.Encoding
	ContentType string
	// OtherThread is another thread's id, and Relabel the pairs (old, new, ...) that make the
	// board's pages that thread's wherever they name their own (Front.Relabel): the suite's
	// WrongThread.
	OtherThread string
	Relabel     []string
}

// NewFakeBoard is a board whose thread holds o.Seed posts of the players.
func NewFakeBoard(t testing.TB, o FakeOptions) *FakeBoard {
	if o.ContentType == "" {
		o.ContentType = "text/html; charset=UTF-8"
	}
	f := &FakeBoard{Bot: o.Bot, Player: o.Player, Other: o.Other, FloodWait: o.FloodWait, MaxLen: o.MaxLen,
		Bytes: o.Bytes, t: t, pages: o, now: o.Start.Add(-time.Minute), nextPost: o.FirstPost, nextMsg: o.FirstMessage}
	f.Add(o.Player, "Начинаем партию.")
	f.Add(o.Other, "Первый ход: e2-e4.")
	f.Add(o.Player, "Ответ: e7-e5.")
	for i := 3; i < o.Seed; i++ {
		author := o.Player
		if i%2 == 1 {
			author = o.Other
		}
		f.Add(author, fmt.Sprintf("Ход %d.", i))
	}
	return f
}

// Serve serves the board with h (which answers for it, holding its lock) through a Front, until
// the test ends.
func (f *FakeBoard) Serve(h http.Handler) {
	f.Front = NewFront(h)
	srv := httptest.NewServer(f.Front)
	f.t.Cleanup(srv.Close)
	f.URL = srv.URL
}

// File is the captured page name (in Dir), in UTF-8, the captured board's address made the slot
// {{HOST}} (Write fills it).
func (f *FakeBoard) File(name string) string {
	raw, err := os.ReadFile(filepath.Join(f.pages.Dir, name))
	if err != nil {
		f.t.Fatal(err)
	}
	s := string(raw)
	if f.pages.Charset != nil {
		if s, err = f.pages.Charset.NewDecoder().String(s); err != nil {
			f.t.Fatal(err)
		}
	}
	return strings.ReplaceAll(s, f.pages.Host, "{{HOST}}")
}

// Write answers with page, {{HOST}} filled with the board's address, in the board's charset and
// content type (unless the handler set one). A slot left unfilled ("{{…") fails the test.
func (f *FakeBoard) Write(w http.ResponseWriter, status int, page string) {
	page = strings.ReplaceAll(page, "{{HOST}}", f.URL)
	if i := strings.Index(page, "{{"); i >= 0 {
		f.t.Errorf("forumtest: a slot left unfilled: %.40q", page[i:])
	}
	if f.pages.Charset != nil {
		var err error
		if page, err = forum.EncodeString(f.pages.Charset, page); err != nil {
			f.t.Fatal(err)
		}
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", f.pages.ContentType)
	}
	w.WriteHeader(status)
	_, _ = w.Write([]byte(page))
}

// Has reports whether the thread holds post id (lock held).
func (f *FakeBoard) Has(id string) bool { return f.index(id) >= 0 }

// index is the place of post id in the thread, -1 when it holds none (lock held).
func (f *FakeBoard) index(id string) int {
	for i, p := range f.Posts {
		if fmt.Sprint(p.ID) == id {
			return i
		}
	}
	return -1
}

// Now is the board's clock: a minute after its last write (for forum.Config.Now).
func (f *FakeBoard) Now() time.Time {
	f.Lock()
	defer f.Unlock()
	return f.now.Add(time.Minute)
}

// tick is the time of a new write (lock held).
func (f *FakeBoard) tick() time.Time {
	f.now = f.now.Add(time.Minute)
	return f.now
}

// Add adds a post by author to the thread (lock held).
func (f *FakeBoard) Add(author, text string) FakePost {
	p := FakePost{ID: f.nextPost, Author: author, Time: f.tick(), Text: text}
	f.nextPost++
	f.Posts = append(f.Posts, p)
	return p
}

// LogIn starts a new session of the bot and returns it (lock held).
func (f *FakeBoard) LogIn() string {
	f.sessions++
	f.Session = fmt.Sprintf("fake-session-%d", f.sessions)
	return f.Session
}

// Member reports whether r carries the bot's valid session in the cookie named cookie (lock
// held).
func (f *FakeBoard) Member(r *http.Request, cookie string) bool {
	c, err := r.Cookie(cookie)
	return err == nil && f.Session != "" && c.Value == f.Session
}

// Refusal is why the board refused a write of the bot.
type Refusal int

const (
	// Taken: not refused.
	Taken Refusal = iota
	// Flooded: flood control (the board names FloodWait).
	Flooded
	// TooLong: the text is over MaxLen characters.
	TooLong
)

// refuse is the refusal of a write of text by the bot, if any (lock held).
func (f *FakeBoard) refuse(text string) Refusal {
	switch {
	case f.flood:
		f.flood = false
		return Flooded
	case f.MaxLen > 0 && f.Bytes && len(text) > f.MaxLen, f.MaxLen > 0 && !f.Bytes && len([]rune(text)) > f.MaxLen:
		return TooLong
	}
	return Taken
}

// Reply is the bot's reply with text: the post added, or why it was refused (lock held).
func (f *FakeBoard) Reply(text string) (FakePost, Refusal) {
	if r := f.refuse(text); r != Taken {
		return FakePost{}, r
	}
	return f.Add(f.Bot, text), Taken
}

// SendPM is the bot's private message to to: kept in Sent, or why it was refused (lock held).
func (f *FakeBoard) SendPM(to, subject, text string) (FakeMessage, Refusal) {
	if r := f.refuse(text); r != Taken {
		return FakeMessage{}, r
	}
	m := FakeMessage{ID: f.nextMsg, From: f.Bot, To: to, Subject: subject, Text: text, Time: f.tick()}
	f.nextMsg++
	f.Sent = append(f.Sent, m)
	return m, Taken
}

// receive is a message from Player to the bot (lock held).
func (f *FakeBoard) receive(subject, text string) {
	f.Inbox = append(f.Inbox, FakeMessage{ID: f.nextMsg, From: f.Player, To: f.Bot, Subject: subject, Text: text, Time: f.tick()})
	f.nextMsg++
}

// Page is page n (1-based) of the thread at per posts a page, and the number of pages (lock
// held). A page past the last is the last.
func (f *FakeBoard) Page(n, per int) ([]FakePost, int) {
	last := max(1, (len(f.Posts)+per-1)/per)
	n = min(max(n, 1), last)
	return f.Posts[(n-1)*per : min(n*per, len(f.Posts))], last
}

// PageOf is the page (1-based) holding post id at per posts a page; past the last post, the
// last page (lock held).
func (f *FakeBoard) PageOf(id, per int) int {
	for i, p := range f.Posts {
		if p.ID >= id {
			return i/per + 1
		}
	}
	return max(1, (len(f.Posts)+per-1)/per)
}

// Board is the suite's Board on f for fm, the bot's Forum: Post adds a post of Player, Grow
// makes it longer under its id, LogOut forgets the bot's session, Flood refuses the bot's next
// write, TooLong is a text over MaxLen, PM is a message from Player, Cut cuts an answer,
// WrongThread relabels every answer as FakeOptions.OtherThread's.
func (f *FakeBoard) Board(fm forum.Forum, thread, notThread string) *Board {
	return &Board{
		Forum: fm, Thread: forum.Thread{ID: thread}, NotThread: forum.Thread{ID: notThread}, Player: f.Player,
		Post: func(_ testing.TB, text string) string {
			f.Lock()
			defer f.Unlock()
			return fmt.Sprint(f.Add(f.Player, text).ID)
		},
		Grow: func(t testing.TB, id, text string) {
			f.Lock()
			defer f.Unlock()
			i := f.index(id)
			if i < 0 {
				t.Fatalf("forumtest: no post %s on the fake board", id)
			}
			f.Posts[i].Text += "\n\n" + text
		},
		LogOut: func(testing.TB) {
			f.Lock()
			defer f.Unlock()
			f.Session = ""
		},
		Flood: func(testing.TB) time.Duration {
			f.Lock()
			defer f.Unlock()
			f.flood = true
			return f.FloodWait
		},
		TooLong: func(testing.TB) string {
			f.Lock()
			defer f.Unlock()
			return strings.Repeat("Очень длинный ход. ", f.MaxLen/19+1)
		},
		PM: func(_ testing.TB, subject, text string) {
			f.Lock()
			defer f.Unlock()
			f.receive(subject, text)
		},
		Cut: func(_ testing.TB, text string) { f.Front.Cut(text) },
		WrongThread: func(t testing.TB) forum.Thread {
			if f.pages.OtherThread == "" || len(f.pages.Relabel) == 0 {
				t.Fatal("forumtest: FakeOptions.OtherThread or Relabel is empty")
			}
			f.Front.Relabel(f.pages.Relabel...)
			return forum.Thread{ID: f.pages.OtherThread}
		},
	}
}

// Form is the form of a POST, urlencoded or multipart (its body alone: the query of a URL such as
// SMF's "action=post2;start=0" is not a form); a form that cannot be read fails the test.
func (f *FakeBoard) Form(r *http.Request) url.Values {
	query := r.URL.RawQuery
	r.URL.RawQuery = ""
	defer func() { r.URL.RawQuery = query }()
	var err error
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		err = r.ParseMultipartForm(1 << 20)
	} else {
		err = r.ParseForm()
	}
	if err != nil {
		f.t.Errorf("forumtest: the form of POST %s: %v", r.URL, err)
	}
	return r.PostForm
}
