// Package forum owns the contract between the forum engines and everything above them:
//
//   - Forum, the one interface through which the daemon reads and writes a forum (a thread, the
//     bot's private messages, the login), and the optional capabilities a dialect may add
//     (UserFinder, PMNotifier, Attacher, Editor, SectionReader, BoardReader, FloodExempter),
//     reached through wrappers with As;
//   - the post model the dialects extract (Post, Quote, Spoiler, Attachment), with the typed
//     problems of a post read only in part (Problem, ProblemKind: the daemon decides by kind
//     whether a post can be judged), and the cursor a read resumes from (Cursor);
//   - the one order of post ids (CompareIDs, IDLess, SortPosts, Before): every dialect's ids
//     follow it, so nothing above the dialects parses an id;
//   - the typed errors a dialect reports (ErrLoggedOut, ErrTooLong, *FloodError, ErrTruncated,
//     *WrongThreadError, …), CheckThread (a page is the thread's asked for) and Relogin, which
//     logs in again once on ErrLoggedOut;
//   - the polite HTTP session every HTML dialect goes through (Client: per-host request
//     limits, cookies, charsets of pages and forms, CheckWhole for a page cut short);
//   - the dialect descriptor (Dialect: the name, the Opener, the page Extractor, the thread URL and
//     the Fingerprints of one engine, each built by its dialects/<engine> package) and the Registry
//     of them that package dialects builds from one explicit list.
package forum

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"
)

// Quote is a quoted part of a post: whose words, which post when the forum shows it, and the
// quoted text (a quote nested inside stays inside this text).
type Quote struct {
	Author string `json:"author"`
	PostID string `json:"post_id,omitempty"`
	Text   string `json:"text"`
}

// Spoiler is a spoiler block of a post, with its title when one is shown.
type Spoiler struct {
	Title string `json:"title,omitempty"`
	Text  string `json:"text"`
}

// Post is a post of a thread or a private message, as a reader sees it.
type Post struct {
	ID        string    `json:"id"`
	Permalink string    `json:"permalink,omitempty"`
	Author    string    `json:"author"`
	AuthorID  string    `json:"author_id,omitempty"`
	Time      time.Time `json:"time"`
	Subject   string    `json:"subject,omitempty"` // private messages; a thread post's title when shown
	// Text is the author's own text: markup removed, line breaks kept, code blocks verbatim, quotes
	// and spoilers and signatures and edit notices left out.
	Text     string    `json:"text"`
	Quotes   []Quote   `json:"quotes"`
	Code     []string  `json:"code,omitempty"`     // code blocks of the author's own text, whitespace intact
	Spoilers []Spoiler `json:"spoilers,omitempty"` // spoilers of the author's own text
	Edited   bool      `json:"edited"`
	// Problems lists the parts of this post the dialect could not read (a missing author, a
	// date not understood); the rest of the post is still right. A page that is not a thread at
	// all is an error, never a list of posts with problems.
	Problems []Problem `json:"problems,omitempty"`
	// Parts are the posts the forum merged into this one, in order, when the dialect can tell
	// them apart by its engine's own merge separator (MyBB's postmergesep, "[hr]"): each with
	// its own Text, Quotes, Code and Spoilers (the other fields are this post's). Nil: one part,
	// or a dialect whose engine does not merge. Text and the other fields above stay the whole
	// post as shown. Not kept in JSON: a post is split when it is read.
	Parts []Post `json:"-"`
}

// UserFinder is a forum that can tell whether a user name exists (forum-check checks the players
// and moderators of a game with it: a misspelt name would make the game's private messages
// undeliverable).
type UserFinder interface {
	UserExists(ctx context.Context, name string) (bool, error)
}

// Cursor marks how far a reader has read: the last post id seen (ids are ordered by CompareIDs)
// and, where it helps, the page it was on.
type Cursor struct {
	PostID string `json:"post_id,omitempty"`
	Page   int    `json:"page,omitempty"`
	// Include asks for the cursor's own post too (not stored): forums merge a user's consecutive
	// posts into the last one, so the reader checks whether that post grew.
	Include bool `json:"-"`
	// Head is the thread as its section's list showed it when the cursor was taken: a section
	// watch compares it with the list now, also after a restart. nil: not known.
	Head *ThreadHead `json:"head,omitempty"`
}

type includeIfReadKey struct{}

// WithIncludeIfRead is ctx for a read whose cursor's Include is wanted only if the thread is read
// anyway: a reader or watch that would skip the read (its idle look shows nothing new) skips it
// as for a cursor without Include; one that reads returns the cursor's post too. (The daemon's
// first read after a start takes the bot's last reply along, so that its reply needs no marker
// look of its own.)
func WithIncludeIfRead(ctx context.Context) context.Context {
	return context.WithValue(ctx, includeIfReadKey{}, true)
}

// HardInclude reports whether a read with ctx must return cursor c's own post even when the
// thread shows nothing new: c.Include, unless ctx is WithIncludeIfRead.
func HardInclude(ctx context.Context, c Cursor) bool {
	soft, _ := ctx.Value(includeIfReadKey{}).(bool)
	return c.Include && !soft
}

// Listed reports whether a post with id belongs in a read after the cursor: newer than it, or
// the cursor's own post when Include asks for it.
func (c Cursor) Listed(id string) bool {
	if c.PostID == "" {
		return true
	}
	return IDLess(c.PostID, id) || c.Include && id == c.PostID
}

// Thread names a thread on a forum in the dialect's own terms (a topic id, usually).
type Thread struct {
	ID string `json:"id"`
}

// Forum is a forum as forumgm uses it, logged in as the bot account.
type Forum interface {
	// Login logs in (again) with the configured account.
	Login(ctx context.Context) error
	// Posts lists the posts of thread after the cursor, oldest first, and the new cursor.
	Posts(ctx context.Context, t Thread, after Cursor) ([]Post, Cursor, error)
	// Reply posts body (the forum's markup) to thread and returns the new post's id. When the
	// forum merged the text into the bot's previous post, the id is that post's and merged is true.
	Reply(ctx context.Context, t Thread, body string) (id string, merged bool, err error)
	// SendPM sends a private message; ErrNoPM when the forum has none.
	SendPM(ctx context.Context, to, subject, body string) error
	// Inbox lists the private messages received after the cursor, oldest first.
	Inbox(ctx context.Context, after Cursor) ([]Post, Cursor, error)
	// Capabilities says what this forum supports.
	Capabilities() Capabilities
}

// Linker is a Forum that names the addresses people open: its thread and a post in it (the
// players' public game pages link the thread's posts), each as the engine's own pages link it
// (the conformance suite compares them with captured pages' permalinks). PostURL is "" when the
// forum cannot address a post (a generic table without permalink_format): the thread's address
// stands in. A forum without it is linked by its thread alone, where the config gives one. Both
// may be called while the Forum reads (the pages are served beside the polls).
type Linker interface {
	ThreadURL(t Thread) string
	PostURL(t Thread, id string) string
}

// PMNotifier is a Forum whose pages tell the bot it has an unread private message (MyBB's
// new-PM notice and header counter): the daemon reads the inbox when a page said so, not on
// every poll.
type PMNotifier interface {
	// UnreadPM reports whether the last page read showed an unread private message.
	UnreadPM() bool
}

// PMWatcher is a PMNotifier whose signal says when it was read and can be refreshed by the
// cheapest request that carries it (MyBB: the board index, whose header shows the counter "Private
// Messages (Unread N, Total M)"). While a game expects private messages the daemon then reads the
// inbox only when the signal shows mail (and seldom in full, as a net), not on every poll. A
// dialect without it has its inbox read in full on every poll that expects a message.
type PMWatcher interface {
	PMNotifier
	// PMSeen is when the signal was last read from the forum: a logged-in page that shows the
	// counter, or the inbox itself (zero: not yet).
	PMSeen() time.Time
	// LookPM refreshes the signal with the dialect's cheapest request that carries it.
	LookPM(ctx context.Context) error
}

// Merger is a Forum that appends a user's next post to their previous one (no new post id) when
// that is the thread's last post and younger than MergeWindow (MyBB's postmergemins). A player's
// last post can grow only within that window, so the daemon reads it again only then. 0: the
// forum never merges. A dialect without it is taken to merge at any age.
type Merger interface {
	MergeWindow() time.Duration
}

// LookCoster is a Forum that tells what its idle looks cost, in bytes both ways (request and
// answer, headers included): a probe of one thread (MyBB's lastpost redirect) and a read of the
// board index (BoardReader). 0: the forum has no such look, or its cost is not known yet. The
// fleet probes a few games' threads one by one where that costs less than the index.
type LookCoster interface {
	LookCosts() (probe, board int)
}

// Capabilities are the features a dialect and its forum support.
type Capabilities struct {
	PrivateMessages bool `json:"private_messages"`
	MaxPostLength   int  `json:"max_post_length,omitempty"` // characters; 0 = unknown
	// Attachments: the dialect posts files with a thread reply (it implements Attacher).
	Attachments bool `json:"attachments,omitempty"`
	// MaxAttachmentSize is the largest file the forum takes, in bytes; 0 = unknown (no check).
	MaxAttachmentSize int64 `json:"max_attachment_size,omitempty"`
	// AttachmentTypes are the file extensions the forum takes (lower case, no dot: "png");
	// empty = any.
	AttachmentTypes []string `json:"attachment_types,omitempty"`
}

// Takes says whether the forum takes file a as an attachment of a thread reply: the dialect
// posts attachments, and a's size and extension are within the forum's limits.
func (c Capabilities) Takes(a Attachment) bool {
	if !c.Attachments || len(a.Data) == 0 {
		return false
	}
	if c.MaxAttachmentSize > 0 && int64(len(a.Data)) > c.MaxAttachmentSize {
		return false
	}
	if len(c.AttachmentTypes) == 0 {
		return true
	}
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(a.Name), "."))
	return slices.Contains(c.AttachmentTypes, ext)
}

// Attacher is implemented by dialects whose forum takes files with a reply
// (Capabilities.Attachments). ReplyWithAttachments is Reply with files: each file is uploaded
// with the reply and shown where the body holds its Placeholder, or at the top of the post when
// the body holds none (PlaceAttachments). The caller checks each file with Capabilities.Takes.
// A reply whose upload went through but whose post failed leaves at most an unattached upload on
// the forum, shown nowhere (an administrator may delete it); a new attempt uploads afresh and
// attaches only its own.
type Attacher interface {
	ReplyWithAttachments(ctx context.Context, t Thread, body string, files []Attachment) (id string, merged bool, err error)
}

// Editor is implemented by dialects that can change the text of one of the bot's own posts: edit
// gets the post's current text (the forum's markup, as its edit form shows it) and returns the new
// text; an error from edit leaves the post as it is. The daemon uses it to mark the top of a reply
// the forum merged into the bot's previous post.
type Editor interface {
	EditPost(ctx context.Context, t Thread, id string, edit func(text string) (string, error)) error
}

// SentFolder is implemented by dialects that can list the bot's sent private messages after the
// cursor: the daemon uses it to find a private message whose earlier attempt may have gone out.
// Without it such a message is sent again (a possible duplicate private message rather than a
// lost one).
type SentFolder interface {
	Sent(ctx context.Context, after Cursor) ([]Post, Cursor, error)
}

// Errors every dialect reports, wrapped with the details (errors.Is works on them).
var (
	ErrLoggedOut     = errors.New("forum: not logged in")
	ErrBadToken      = errors.New("forum: form token rejected")
	ErrTooLong       = errors.New("forum: message too long")
	ErrTooShort      = errors.New("forum: message too short")
	ErrNoPermission  = errors.New("forum: no permission")
	ErrBadLogin      = errors.New("forum: wrong user name or password")
	ErrNoPM          = errors.New("forum: private messages not available")
	ErrMarkupChanged = errors.New("forum: page markup not recognised (forum upgraded or theme changed?)")
	ErrNotFound      = errors.New("forum: not found")
	// ErrRecipient: the recipient of a private message cannot receive it (private messages
	// disabled, a full inbox); an unknown recipient is ErrNotFound.
	ErrRecipient = errors.New("forum: the recipient cannot receive private messages")
	// ErrAttachmentRefused: the forum did not take a file (attachments off for the bot or the
	// board, a type or size it refuses, its quota full); nothing was posted. The file can be
	// linked instead.
	ErrAttachmentRefused = errors.New("forum: attachment refused")
	// ErrWrongThread: a page read for a thread is another thread's (a moderator moved or merged
	// threads, a caching front mixed pages up, a wrong redirect): nothing on it is the thread's.
	// It comes as a *WrongThreadError naming both threads.
	ErrWrongThread = errors.New("forum: the page is another thread's")
)

// WrongThreadError is ErrWrongThread with the thread asked for and the thread the page showed
// itself to be (errors.Is(err, ErrWrongThread) holds).
type WrongThreadError struct {
	Asked string // the thread read
	Found string // the thread the page is of
}

func (e *WrongThreadError) Error() string {
	return fmt.Sprintf("%v: thread %s asked for, the page is thread %s's", ErrWrongThread, e.Asked, e.Found)
}

// Is makes errors.Is(err, ErrWrongThread) hold.
func (e *WrongThreadError) Is(target error) bool { return target == ErrWrongThread }

// CheckThread checks that a page read for thread asked is that thread's: found is the thread id
// the page shows of its own (its reply form, canonical link, pagination, in the dialect's own
// terms, as asked is). A page that shows none ("": an old theme) is not refused for that alone;
// one that shows another is a *WrongThreadError.
func CheckThread(asked, found string) error {
	if found == "" || found == asked {
		return nil
	}
	return &WrongThreadError{Asked: asked, Found: found}
}

// FloodError is the forum's flood control: try again after Wait. A dialect returns it at once,
// never waits it out: the daemon does, reading and judging meanwhile. Likewise a message the
// board finds too long comes back as ErrTooLong, never split by the dialect: the daemon splits it,
// each part with its own marker.
type FloodError struct {
	Wait time.Duration
}

func (e *FloodError) Error() string { return fmt.Sprintf("forum: flood control, wait %s", e.Wait) }

// Config is what a dialect needs to reach a forum.
type Config struct {
	BaseURL  string // e.g. http://127.0.0.1:8081/
	Username string
	Password string
	// Location is the forum's time zone for times shown without one.
	Location *time.Location
	// Now is the clock used to resolve relative times ("Сегодня, 12:34").
	Now func() time.Time
	// UserAgent is sent with every request.
	UserAgent string
	// Extra holds dialect-specific settings (the generic dialect's selectors, say).
	Extra map[string]string
	// Limits are the per-host request limits shared by every session of the process (nil: the
	// dialect's client keeps its own).
	Limits *HostLimits
	// Slow, if set, is told of each slow request (ClientConfig.Slow): the daemon logs it.
	Slow func(method, url string, took time.Duration, err error)
}

// ClientConfig is the polite client a dialect builds for this config: its User-Agent, rate and
// shared limits.
func (c Config) ClientConfig() ClientConfig {
	return ClientConfig{UserAgent: c.UserAgent, Rate: c.Rate(), Burst: c.Burst(), Limits: c.Limits, Slow: c.Slow}
}

// Burst is the most requests per host the config lets out at once, and in any second while the
// rate is below it: Extra["burst"] (a positive whole number), else 0, the client's default (3).
func (c Config) Burst() int {
	if v, err := strconv.Atoi(c.Extra["burst"]); err == nil && v > 0 {
		return v
	}
	return 0
}

// Rate is the request rate per host the config asks for: Extra["rate"] in requests per second
// (a positive number), else 1, the polite default.
func (c Config) Rate() rate.Limit {
	if v, err := strconv.ParseFloat(c.Extra["rate"], 64); err == nil && v > 0 {
		return rate.Limit(v)
	}
	return 1
}

// Attachment is a file posted with a reply (a picture of the field). The body says where it goes
// with its Placeholder, "[attachment=NAME]"; without one it goes at the top of the post.
type Attachment struct {
	Name        string `json:"name"`         // file name, e.g. "round-2.png"
	ContentType string `json:"content_type"` // e.g. "image/png"
	Data        []byte `json:"data"`
}

// Placeholder is the text a message's body holds where attachment name is to be shown:
// "[attachment=NAME]". Dialects and the daemon replace it before posting (PlaceAttachments).
func Placeholder(name string) string { return "[attachment=" + name + "]" }

// PlaceAttachments puts markup(i, files[i]) where the body holds files[i]'s Placeholder (every
// occurrence), and the markup of each file whose placeholder the body lacks at the top of the
// body, one line each, in order. A markup of "" removes the placeholder (and puts nothing on top).
func PlaceAttachments(body string, files []Attachment, markup func(i int, a Attachment) string) string {
	var top []string
	for i, a := range files {
		m := markup(i, a)
		ph := Placeholder(a.Name)
		if strings.Contains(body, ph) {
			body = strings.ReplaceAll(body, ph, m)
		} else if m != "" {
			top = append(top, m)
		}
	}
	if len(top) == 0 {
		return body
	}
	return strings.Join(top, "\n") + "\n" + body
}

// ThreadHead is one thread as a section's thread list (MyBB's forumdisplay.php, phpBB's and
// PunBB's viewforum.php, SMF's board index) shows it: enough to tell whether the thread changed
// since the last look without opening it. A field the list does not show is left zero
// (Replies -1); two heads of one thread are compared field by field (Same).
type ThreadHead struct {
	ID         string    `json:"id"`
	Title      string    `json:"title,omitempty"`
	LastPostID string    `json:"last_post_id,omitempty"` // "" when the list does not show it
	Replies    int       `json:"replies"`                // -1 when the list does not show it
	LastAt     time.Time `json:"last_at,omitzero"`       // the last post's time (zero: not shown)
	LastPoster string    `json:"last_poster,omitempty"`
	Sticky     bool      `json:"sticky,omitempty"` // pinned: its place says nothing of its age
	// Unlisted: the thread was not on the list's first page (no post since the oldest there).
	Unlisted bool `json:"unlisted,omitempty"`
	// Section is the section whose list this is (kept with a cursor, so that a restarted
	// reader knows where to look without reading the thread first).
	Section string `json:"section,omitempty"`
}

// Same reports whether h and o describe the same state of one thread: every field both show is
// equal, and they show at least one field that changes with a new post; or both say the thread
// was off the list's first page.
func (h ThreadHead) Same(o ThreadHead) bool {
	if h.ID != o.ID || h.Unlisted != o.Unlisted {
		return false
	}
	if h.Unlisted {
		return true // still below the first page: no new post moved it up
	}
	shown := false
	if h.LastPostID != "" && o.LastPostID != "" {
		if h.LastPostID != o.LastPostID {
			return false
		}
		shown = true
	}
	if h.Replies >= 0 && o.Replies >= 0 {
		if h.Replies != o.Replies {
			return false
		}
		shown = true
	}
	if !h.LastAt.IsZero() && !o.LastAt.IsZero() {
		if !h.LastAt.Equal(o.LastAt) {
			return false
		}
		shown = true
	}
	if h.LastPoster != "" && o.LastPoster != "" && h.LastPoster != o.LastPoster {
		return false
	}
	return shown
}

// SectionReader is a forum that lists a section's threads in one request: when several games sit
// in one section, one look at its first page stands for all of them (a thread with a new post
// moves to the top of the list, so a thread missing from the first page, sticky ones aside, has
// none since it was last seen there).
type SectionReader interface {
	// Section lists the threads on the first page of section (the dialect's forum/board id),
	// in the order the forum shows them (sticky threads first, then by last post, newest first).
	Section(ctx context.Context, section string) ([]ThreadHead, error)
	// SectionOf names the section thread t is in ("" when its pages do not tell), learnt from a
	// thread page already read (the breadcrumb), with no request of its own.
	SectionOf(t Thread) string
}

// wrapper is a Forum built around another (a shared session, a section watch) that adds or
// changes some methods; the optional interfaces (Attacher, PMNotifier, ...) are the inner
// forum's, found with As.
type wrapper interface {
	Unwrap() Forum
}

// As finds the first forum in f's chain of wrappers (f itself first) that implements T.
func As[T any](f Forum) (T, bool) {
	for f != nil {
		if t, ok := f.(T); ok {
			return t, true
		}
		w, ok := f.(wrapper)
		if !ok {
			break
		}
		f = w.Unwrap()
	}
	var zero T
	return zero, false
}

// FloodExempter is a forum that can tell from a page of the bot's own whether the board's flood
// control (the least time between two posts of one user) applies to the bot in a thread: MyBB
// skips it for a moderator of the thread's forum, and shows such a moderator the moderation
// tools on the thread's pages.
type FloodExempter interface {
	// FloodExempt reports whether the bot posts in t without flood control, and what the page
	// showed for it (for the operator).
	FloodExempt(ctx context.Context, t Thread) (exempt bool, evidence string, err error)
}

// SectionHead is one section as the board's index shows it: enough to tell whether any of its
// threads got a post since the last look (the post count grows with every new post).
type SectionHead struct {
	ID         string `json:"id"`
	Threads    int    `json:"threads"` // -1 when not shown
	Posts      int    `json:"posts"`   // -1 when not shown
	LastThread string `json:"last_thread,omitempty"`
	LastPoster string `json:"last_poster,omitempty"`
}

// Same reports whether h and o show one state of the section: the counts both show are equal,
// as are the last thread and poster, and at least one count is shown.
func (h SectionHead) Same(o SectionHead) bool {
	if h.ID != o.ID || h.Posts < 0 || o.Posts < 0 {
		return false
	}
	return h.Posts == o.Posts && h.Threads == o.Threads && h.LastThread == o.LastThread && h.LastPoster == o.LastPoster
}

// BoardReader is a forum whose index lists every section with its post count (MyBB's index.php):
// one request tells which sections changed, and only their thread lists are read.
type BoardReader interface {
	Board(ctx context.Context) ([]SectionHead, error)
}
