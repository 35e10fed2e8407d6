package sandbox

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"forumgm/forum"
	"forumgm/internal/loopback"
)

// User is a board account to create.
type User struct {
	Name     string
	Password string
}

// Forum is a board forum (sub-forum of the one category "My Category", fid 1).
type Forum struct {
	FID         int
	Name        string
	Description string
}

// SeedPost is a post written straight into the database (no flood control, no merging), at Time
// (zero: the clock's now). EditedBy/EditTime/EditReason make it show the "last modified" mark.
type SeedPost struct {
	Author     string
	Message    string
	Time       time.Time
	EditedBy   string
	EditTime   time.Time
	EditReason string
}

// Thread is a thread to seed: its first post starts it (its author is the thread's author).
type Thread struct {
	FID     int // 0: DefaultFID
	Subject string
	Posts   []SeedPost
	Sticky  bool // listed first, under "Important Threads"
}

// Moderator makes a user a moderator of a forum (MyBB's Admin CP "Add Moderator").
type Moderator struct {
	Name string
	FID  int // 0: DefaultFID
}

// Options configure a sandbox board.
type Options struct {
	// DBPath is the SQLite file (created when missing; an existing board is reopened as it is).
	DBPath string
	// Now is the board's clock (flood control, auto-merge, dates); nil means time.Now.
	Now func() time.Time
	// Location is the board time zone for shown dates; nil means UTC (GMT+0 like the fixtures).
	Location *time.Location
	// BoardName is the board title; default "ForumGM Test Board".
	BoardName string
	// Forums replace the default forums (fid 2 "My Forum", fid 3 "Игры по переписке").
	Forums []Forum
	// Users are created when missing.
	Users []User
	// Threads are seeded when the board has no threads yet (a fresh database).
	Threads []Thread
	// Moderators are made when missing: a moderator of a forum is not held by flood control there
	// (nor for private messages), and sees the moderator options in the reply forms.
	Moderators []Moderator
	// PostsPerPage on showthread.php; default 8 like the captured board.
	PostsPerPage int
	// ThreadsPerPage on forumdisplay.php; default 20 (MyBB's threadsperpage).
	ThreadsPerPage int
	// FloodSeconds (posts) and PMFloodSeconds; default 60; negative disables.
	FloodSeconds   int
	PMFloodSeconds int
	// MergeMinutes is MyBB's postmergemins: a user's post is merged into their previous post when
	// it is the thread's last post and at most this old; default 60; negative disables.
	MergeMinutes int
	// MergeExempt are the accounts whose posts are never merged (MyBB's postmergeuignore, which
	// exempts user groups; here accounts): the operations guide advises exempting the bot, so
	// that its reports and answers stay posts of their own.
	MergeExempt []string
	// MinMessageLength; default 5.
	MinMessageLength int
	// MaxMessageLength is MyBB's maxmessagelength; default 65535.
	MaxMessageLength int
	// Language is the pages' language pack: English (MyBB's own, the default) or Russian (a
	// Russian board's words and dates: lang.go).
	Language Language
	// Charset of the pages: "" or "UTF-8", or "windows-1251" (pages encoded in cp1251, characters
	// outside it as &#NNNN;, form posts decoded from cp1251). SetCharset changes it at run time.
	Charset string
}

// DefaultFID is the forum "Игры по переписке" of the captured board.
const DefaultFID = 3

// Server is a sandbox MyBB 1.8 board.
type Server struct {
	opts   Options
	db     *sql.DB
	secret string
	marker string     // random placeholder prefix for textarea contents
	mu     sync.Mutex // serialises writes (flood, merge and insert happen atomically)

	pack *pack // the pages' language

	cfgMu    sync.RWMutex
	charset  string
	declared string // the charset the pages say they are in, when it is not charset (a lie)
	now      func() time.Time

	srvMu sync.Mutex
	srv   *http.Server
	ln    net.Listener
	base  string
}

// New opens (or creates) the board database and seeds it.
func New(ctx context.Context, opts Options) (*Server, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Location == nil {
		opts.Location = time.UTC
	}
	if opts.BoardName == "" {
		opts.BoardName = "ForumGM Test Board"
	}
	pk, err := packOf(opts.Language)
	if err != nil {
		return nil, err
	}
	if opts.PostsPerPage <= 0 {
		opts.PostsPerPage = 8
	}
	if opts.ThreadsPerPage <= 0 {
		opts.ThreadsPerPage = 20
	}
	if opts.FloodSeconds == 0 {
		opts.FloodSeconds = 60
	}
	if opts.PMFloodSeconds == 0 {
		opts.PMFloodSeconds = 60
	}
	if opts.MergeMinutes == 0 {
		opts.MergeMinutes = 60
	}
	if opts.MinMessageLength == 0 {
		opts.MinMessageLength = 5
	}
	db, err := openDB(opts.DBPath)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, db: db, pack: pk, charset: opts.Charset, now: opts.Now, marker: "sbxta" + randHex(8) + "x"}
	if err := s.init(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func (s *Server) init(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE name='secret'`).Scan(&s.secret)
	if errors.Is(err, sql.ErrNoRows) {
		s.secret = randHex(16)
		_, err = s.db.ExecContext(ctx, `INSERT INTO settings(name, value) VALUES('secret', ?)`, s.secret)
	}
	if err != nil {
		return fmt.Errorf("sandbox: settings: %w", err)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM forums`).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		forums := s.opts.Forums
		if len(forums) == 0 {
			forums = []Forum{
				{FID: 2, Name: "My Forum"},
				{FID: DefaultFID, Name: "Игры по переписке", Description: "Play-by-post: партии ведёт бот-ведущий gm-bot"},
			}
		}
		if _, err := s.db.ExecContext(ctx, `INSERT INTO forums(fid, parent, type, name) VALUES(1, 0, 'c', 'My Category')`); err != nil {
			return err
		}
		for _, f := range forums {
			if _, err := s.db.ExecContext(ctx, `INSERT INTO forums(fid, parent, type, name, description) VALUES(?, 1, 'f', ?, ?)`,
				f.FID, f.Name, f.Description); err != nil {
				return fmt.Errorf("sandbox: forum %d: %w", f.FID, err)
			}
		}
	}
	for _, u := range s.opts.Users {
		if _, err := s.addUserLocked(ctx, u.Name, u.Password); err != nil {
			return err
		}
	}
	for _, m := range s.opts.Moderators {
		if err := s.addModeratorLocked(ctx, m); err != nil {
			return err
		}
	}
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM threads`).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		for _, t := range s.opts.Threads {
			if _, _, err := s.seedLocked(ctx, t); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Server) addModeratorLocked(ctx context.Context, m Moderator) error {
	if m.FID == 0 {
		m.FID = DefaultFID
	}
	u, err := getUser(ctx, s.db, "lname = ?", lowerName(m.Name))
	if err != nil {
		return fmt.Errorf("sandbox: moderator %q: %w", m.Name, err)
	}
	_, err = s.db.ExecContext(ctx, `INSERT OR IGNORE INTO moderators(fid, uid) VALUES(?, ?)`, m.FID, u.UID)
	return err
}

// Now is the board's current time.
func (s *Server) Now() time.Time {
	s.cfgMu.RLock()
	defer s.cfgMu.RUnlock()
	return s.now()
}

// SetCharset switches the pages' charset ("UTF-8" or "windows-1251").
func (s *Server) SetCharset(cs string) {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	s.charset = cs
}

// DeclareCharset makes the pages declare cs (in the Content-Type header and the <meta>) whatever
// charset they are sent in, as a misconfigured board or proxy does: a UTF-8 page declared as
// windows-1251, or the reverse. "" makes them declare the charset they are in again.
func (s *Server) DeclareCharset(cs string) {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	s.declared = cs
}

// pageCharset is the charset the pages are sent in, and the one they declare.
func (s *Server) pageCharset() (sent, declared string) {
	s.cfgMu.RLock()
	defer s.cfgMu.RUnlock()
	sent = "UTF-8"
	if isCP1251(s.charset) {
		sent = "windows-1251"
	}
	if s.declared != "" {
		return sent, s.declared
	}
	return sent, sent
}

func (s *Server) cp1251() bool {
	s.cfgMu.RLock()
	defer s.cfgMu.RUnlock()
	return isCP1251(s.charset)
}

// Start serves the board on addr ("127.0.0.1:0" for a free loopback port) until Close or ctx
// ends, and returns the base URL ("http://127.0.0.1:PORT"). Only a loopback address is accepted:
// the board's accounts have throwaway passwords printed for anyone to read.
func (s *Server) Start(ctx context.Context, addr string) (string, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	if h, _, err := net.SplitHostPort(addr); err != nil || !loopback.Host(h) {
		return "", fmt.Errorf("sandbox: %q is not a loopback address: the sandbox serves this machine only (127.0.0.1:PORT)", addr)
	}
	s.srvMu.Lock()
	defer s.srvMu.Unlock()
	if s.srv != nil {
		return "", errors.New("sandbox: already started")
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return "", err
	}
	s.ln = ln
	s.base = "http://" + ln.Addr().String()
	s.srv = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	srv := s.srv
	go func() { _ = srv.Serve(ln) }()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	return s.base, nil
}

// Close stops the server and closes the database.
func (s *Server) Close() error {
	s.srvMu.Lock()
	srv := s.srv
	s.srvMu.Unlock()
	var err error
	if srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = srv.Shutdown(ctx)
		cancel()
	}
	return errors.Join(err, s.db.Close())
}

func (s *Server) addUserLocked(ctx context.Context, name, password string) (int, error) {
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsAny(name, ",<>&\"") {
		return 0, fmt.Errorf("sandbox: bad user name %q", name)
	}
	salt := randHex(4)
	if u, err := getUser(ctx, s.db, "lname = ?", lowerName(name)); err == nil {
		_, err := s.db.ExecContext(ctx, `UPDATE users SET salt=?, password=? WHERE uid=?`, salt, hashPassword(salt, password), u.UID)
		return u.UID, err
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO users(username, lname, salt, password, loginkey, regdate) VALUES(?,?,?,?,?,?)`,
		name, lowerName(name), salt, hashPassword(salt, password), randHex(25), s.Now().Unix())
	if err != nil {
		return 0, fmt.Errorf("sandbox: add user %q: %w", name, err)
	}
	id, _ := res.LastInsertId()
	return int(id), nil
}

func (s *Server) userByName(ctx context.Context, name string) (*userRow, error) {
	u, err := getUser(ctx, s.db, "lname = ?", lowerName(name))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sandbox: no user %q: %w", name, forum.ErrNotFound)
	}
	return u, err
}

func (s *Server) seedLocked(ctx context.Context, t Thread) (int, []int, error) {
	if len(t.Posts) == 0 {
		return 0, nil, errors.New("sandbox: a thread needs a first post")
	}
	if t.FID == 0 {
		t.FID = DefaultFID
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, nil, err
	}
	defer tx.Rollback()
	var tid int
	var pids []int
	for i, p := range t.Posts {
		u, err := getUser(ctx, tx, "lname = ?", lowerName(p.Author))
		if err != nil {
			return 0, nil, fmt.Errorf("sandbox: seed: author %q: %w", p.Author, err)
		}
		when := p.Time
		if when.IsZero() {
			when = s.Now()
		}
		if i == 0 {
			res, err := tx.ExecContext(ctx, `INSERT INTO threads(fid, subject, uid, dateline) VALUES(?,?,?,?)`, t.FID, t.Subject, u.UID, when.Unix())
			if err != nil {
				return 0, nil, err
			}
			id, _ := res.LastInsertId()
			tid = int(id)
		}
		subject := t.Subject
		replyto := 0
		if i > 0 {
			subject = "RE: " + t.Subject
			replyto = pids[0]
		}
		var editUID int
		var editTime int64
		if p.EditedBy != "" {
			e, err := getUser(ctx, tx, "lname = ?", lowerName(p.EditedBy))
			if err != nil {
				return 0, nil, fmt.Errorf("sandbox: seed: editor %q: %w", p.EditedBy, err)
			}
			editUID = e.UID
			editTime = p.EditTime.Unix()
			if p.EditTime.IsZero() {
				editTime = when.Unix()
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO posts(tid, replyto, uid, subject, message, dateline, edituid, edittime, editreason) VALUES(?,?,?,?,?,?,?,?,?)`,
			tid, replyto, u.UID, subject, p.Message, when.Unix(), editUID, editTime, p.EditReason)
		if err != nil {
			return 0, nil, err
		}
		id, _ := res.LastInsertId()
		pids = append(pids, int(id))
		if _, err := tx.ExecContext(ctx, `UPDATE users SET lastpost = MAX(lastpost, ?) WHERE uid = ?`, when.Unix(), u.UID); err != nil {
			return 0, nil, err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE threads SET firstpost = ?,
		lastpost = (SELECT MAX(dateline) FROM posts WHERE tid = ?),
		lastposteruid = (SELECT uid FROM posts WHERE tid = ? ORDER BY dateline DESC, pid DESC LIMIT 1) WHERE tid = ?`,
		pids[0], tid, tid, tid); err != nil {
		return 0, nil, err
	}
	if t.Sticky {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO sticky(tid) VALUES(?)`, tid); err != nil {
			return 0, nil, err
		}
	}
	return tid, pids, tx.Commit()
}

// RuleError is a post or message the board refused, with MyBB's error texts (as the page lists
// them). It unwraps to forum.ErrTooShort, forum.ErrTooLong, *forum.FloodError,
// forum.ErrNotFound or forum.ErrNoPermission.
type RuleError struct {
	Messages []string
	errs     []error
}

func (e *RuleError) Error() string { return "sandbox: " + strings.Join(e.Messages, " ") }

// Unwrap returns the typed errors.
func (e *RuleError) Unwrap() []error { return e.errs }

func (e *RuleError) add(msg string, err error) {
	e.Messages = append(e.Messages, msg)
	e.errs = append(e.errs, err)
}

func (e *RuleError) orNil() error {
	if e == nil || len(e.Messages) == 0 {
		return nil
	}
	return e
}

// checkMessage applies MyBB's message rules (missing, too short, too long).
func (s *Server) checkMessage(re *RuleError, message string) {
	n := utf8.RuneCountInString(strings.TrimSpace(message))
	switch {
	case strings.TrimSpace(message) == "":
		re.add("The message is missing. Please enter a message.", fmt.Errorf("%w: message is missing", forum.ErrTooShort))
	case n < s.opts.MinMessageLength:
		re.add(fmt.Sprintf("The message is too short. Please enter a message longer than %d characters.", s.opts.MinMessageLength), forum.ErrTooShort)
	case utf8.RuneCountInString(message) > cmp.Or(s.opts.MaxMessageLength, 65535):
		re.add(fmt.Sprintf("The message is too long. Please enter a message shorter than %d characters (currently %d).", cmp.Or(s.opts.MaxMessageLength, 65535), utf8.RuneCountInString(message)), forum.ErrTooLong)
	}
}

func (s *Server) floodCheck(re *RuleError, u *userRow, now int64) {
	if s.opts.FloodSeconds < 0 || u.LastPost == 0 {
		return
	}
	elapsed := now - u.LastPost
	if elapsed <= int64(s.opts.FloodSeconds) {
		wait := int64(s.opts.FloodSeconds) - elapsed + 1
		msg := fmt.Sprintf("You are trying to post a message too quickly after posting a previous message. Please wait %d more seconds.", wait)
		if wait == 1 {
			msg = "You are trying to post a message too quickly after posting a previous message. Please wait 1 more second."
		}
		re.add(msg, &forum.FloodError{Wait: time.Duration(wait) * time.Second})
	}
}

// Reply posts message to thread tid as user, with the board's rules (flood control, auto-merge,
// message length), exactly as the reply form does. It returns the post id; merged is true when
// the text was appended to the user's previous post (whose id is returned).
func (s *Server) Reply(ctx context.Context, user string, tid int, message string) (pid int, merged bool, err error) {
	u, err := s.userByName(ctx, user)
	if err != nil {
		return 0, false, err
	}
	return s.reply(ctx, u, tid, "", message, 0)
}

// duplicateReply is newreply.php's duplicate check: a reply whose subject and message equal a
// visible post of the same user in the same thread from the last ten minutes is refused (the
// generic error page "You have already posted this reply…"), before flood control and merging.
func (s *Server) duplicateReply(ctx context.Context, uid int, t *threadRow, subject, message string) (bool, error) {
	subject = strings.TrimSpace(subject)
	if subject == "" {
		subject = "RE: " + t.Subject
	}
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM posts WHERE uid = ? AND tid = ? AND subject = ? AND message = ? AND dateline > ?`,
		uid, t.TID, subject, message, s.Now().Unix()-600).Scan(&n)
	return n > 0, err
}

func (s *Server) reply(ctx context.Context, u *userRow, tid int, subject, message string, replyto int) (int, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, err := getUser(ctx, s.db, "uid = ?", u.UID) // fresh lastpost
	if err != nil {
		return 0, false, err
	}
	t, err := s.thread(ctx, tid)
	if err != nil {
		return 0, false, err
	}
	now := s.Now().Unix()
	re := &RuleError{}
	merge := s.opts.MergeMinutes > 0 && t.LastPosterUID == u.UID && now-t.LastPost <= int64(s.opts.MergeMinutes)*60 &&
		!slices.Contains(s.opts.MergeExempt, u.Name)
	mod, err := s.isModerator(ctx, u.UID, t.FID)
	if err != nil {
		return 0, false, err
	}
	if !merge && !mod {
		s.floodCheck(re, u, now)
	}
	subject = strings.TrimSpace(subject)
	if subject == "" {
		subject = "RE: " + t.Subject
	}
	if utf8.RuneCountInString(subject) > 85 {
		re.add("The subject is too long. Please enter a subject shorter than 85 characters (currently "+fmt.Sprint(utf8.RuneCountInString(subject))+").", forum.ErrTooLong)
	}
	s.checkMessage(re, message)
	if err := re.orNil(); err != nil {
		return 0, false, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, false, err
	}
	defer tx.Rollback()
	if merge {
		var pid int
		var old string
		err := tx.QueryRowContext(ctx, `SELECT pid, message FROM posts WHERE tid = ? AND uid = ? AND dateline = ? ORDER BY pid DESC LIMIT 1`,
			tid, u.UID, t.LastPost).Scan(&pid, &old)
		if err == nil {
			if _, err := tx.ExecContext(ctx, `UPDATE posts SET message = ?, edituid = ?, edittime = ? WHERE pid = ?`,
				old+"\n[hr]\n"+message, u.UID, now, pid); err != nil {
				return 0, false, err
			}
			return pid, true, tx.Commit()
		} else if !errors.Is(err, sql.ErrNoRows) {
			return 0, false, err
		}
	}
	if replyto == 0 {
		replyto = t.firstPID
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO posts(tid, replyto, uid, subject, message, dateline) VALUES(?,?,?,?,?,?)`,
		tid, replyto, u.UID, subject, message, now)
	if err != nil {
		return 0, false, err
	}
	id, _ := res.LastInsertId()
	if _, err := tx.ExecContext(ctx, `UPDATE threads SET lastpost = ?, lastposteruid = ? WHERE tid = ?`, now, u.UID, tid); err != nil {
		return 0, false, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE users SET lastpost = ? WHERE uid = ?`, now, u.UID); err != nil {
		return 0, false, err
	}
	return int(id), false, tx.Commit()
}

// NewThread starts a thread in forum fid as user, with the board's rules (flood control, length).
func (s *Server) NewThread(ctx context.Context, user string, fid int, subject, message string) (tid, pid int, err error) {
	u, err := s.userByName(ctx, user)
	if err != nil {
		return 0, 0, err
	}
	return s.newThread(ctx, u, fid, subject, message)
}

func (s *Server) newThread(ctx context.Context, u *userRow, fid int, subject, message string) (int, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, err := getUser(ctx, s.db, "uid = ?", u.UID)
	if err != nil {
		return 0, 0, err
	}
	if _, err := s.forum(ctx, fid); err != nil {
		return 0, 0, err
	}
	now := s.Now()
	re := &RuleError{}
	mod, err := s.isModerator(ctx, u.UID, fid)
	if err != nil {
		return 0, 0, err
	}
	if !mod {
		s.floodCheck(re, u, now.Unix())
	}
	subject = strings.TrimSpace(subject)
	if subject == "" {
		re.add("The subject is missing. Please enter a subject.", fmt.Errorf("%w: subject is missing", forum.ErrTooShort))
	} else if utf8.RuneCountInString(subject) > 85 {
		re.add(fmt.Sprintf("The subject is too long. Please enter a subject shorter than 85 characters (currently %d).", utf8.RuneCountInString(subject)), forum.ErrTooLong)
	}
	s.checkMessage(re, message)
	if err := re.orNil(); err != nil {
		return 0, 0, err
	}
	tid, pids, err := s.seedLocked(ctx, Thread{FID: fid, Subject: subject, Posts: []SeedPost{{Author: u.Name, Message: message, Time: now}}})
	if err != nil {
		return 0, 0, err
	}
	return tid, pids[0], nil
}

// EditPost replaces a post's text as editor (who must be its author), sets the "last modified"
// mark and the edit reason.
func (s *Server) EditPost(ctx context.Context, editor string, pid int, message, reason string) error {
	u, err := s.userByName(ctx, editor)
	if err != nil {
		return err
	}
	return s.editPost(ctx, u, pid, "", message, reason)
}

func (s *Server) editPost(ctx context.Context, u *userRow, pid int, subject, message, reason string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.post(ctx, pid)
	if err != nil {
		return err
	}
	if p.UID != u.UID {
		return &RuleError{Messages: []string{"You do not have permission to edit this post."}, errs: []error{forum.ErrNoPermission}}
	}
	re := &RuleError{}
	s.checkMessage(re, message)
	if err := re.orNil(); err != nil {
		return err
	}
	if strings.TrimSpace(subject) == "" {
		subject = p.Subject
	}
	_, err = s.db.ExecContext(ctx, `UPDATE posts SET subject = ?, message = ?, edituid = ?, edittime = ?, editreason = ? WHERE pid = ?`,
		subject, message, u.UID, s.Now().Unix(), strings.TrimSpace(reason), pid)
	return err
}

// SendPM sends a private message from one user to others (comma-separated names), with the
// board's rules (PM flood control); the sender keeps a copy in Sent Items.
func (s *Server) SendPM(ctx context.Context, from, to, subject, message string) error {
	u, err := s.userByName(ctx, from)
	if err != nil {
		return err
	}
	return s.sendPM(ctx, u, to, subject, message, true)
}

func (s *Server) sendPM(ctx context.Context, u *userRow, to, subject, message string, saveCopy bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.Now().Unix()
	re := &RuleError{}
	mod, err := s.isModerator(ctx, u.UID, 0)
	if err != nil {
		return err
	}
	if s.opts.PMFloodSeconds > 0 && !mod {
		var last sql.NullInt64
		if err := s.db.QueryRowContext(ctx, `SELECT MAX(dateline) FROM pms WHERE fromid = ?`, u.UID).Scan(&last); err != nil {
			return err
		}
		if last.Valid && now-last.Int64 < int64(s.opts.PMFloodSeconds) {
			wait := int64(s.opts.PMFloodSeconds) - (now - last.Int64) + 1
			re.add(fmt.Sprintf("You are trying to send a message too quickly after sending a previous message. Please wait %d more seconds.", wait),
				&forum.FloodError{Wait: time.Duration(wait) * time.Second})
		}
	}
	var recipients []*userRow
	var missing []string
	seen := map[int]bool{}
	for _, name := range strings.Split(to, ",") {
		if strings.TrimSpace(name) == "" {
			continue
		}
		r, err := getUser(ctx, s.db, "lname = ?", lowerName(name))
		if err != nil {
			missing = append(missing, strings.TrimSpace(name))
			continue
		}
		if !seen[r.UID] {
			seen[r.UID] = true
			recipients = append(recipients, r)
		}
	}
	switch {
	case len(missing) > 0:
		re.add("One or more of the recipients you entered are not registered users: "+strings.Join(missing, ", "), fmt.Errorf("%w: recipient", forum.ErrNotFound))
	case len(recipients) == 0:
		re.add("You did not enter any recipients for this message. You must enter at least one recipient in the 'To' field.", fmt.Errorf("%w: no recipient", forum.ErrNotFound))
	case len(recipients) > 5:
		re.add("You can only send this private message to a maximum of 5 people.", forum.ErrTooLong)
	}
	if strings.TrimSpace(subject) == "" {
		re.add("You did not enter a subject for your message. Please enter one.", fmt.Errorf("%w: subject is missing", forum.ErrTooShort))
	}
	if strings.TrimSpace(message) == "" {
		re.add("You did not enter a message. Please enter a message to send.", fmt.Errorf("%w: message is missing", forum.ErrTooShort))
	}
	if err := re.orNil(); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, r := range recipients {
		if _, err := tx.ExecContext(ctx, `INSERT INTO pms(uid, toid, fromid, folder, subject, message, dateline) VALUES(?,?,?,?,?,?,?)`,
			r.UID, r.UID, u.UID, 1, subject, message, now); err != nil {
			return err
		}
	}
	if saveCopy {
		if _, err := tx.ExecContext(ctx, `INSERT INTO pms(uid, toid, fromid, folder, subject, message, dateline, status) VALUES(?,?,?,?,?,?,?,1)`,
			u.UID, recipients[0].UID, u.UID, 2, subject, message, now); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// DropSessions logs a user out everywhere: their sessions are deleted and their login key
// changes, so the mybbuser cookie and the old my_post_key stop working (a lost session).
func (s *Server) DropSessions(ctx context.Context, user string) error {
	u, err := s.userByName(ctx, user)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.db.ExecContext(ctx, `DELETE FROM sessions WHERE uid = ?`, u.UID); err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `UPDATE users SET loginkey = ? WHERE uid = ?`, randHex(25), u.UID)
	return err
}

// StoredPost is a post as stored (raw MyCode).
type StoredPost struct {
	PID, TID   int
	Author     string
	Subject    string
	Message    string
	Time       time.Time
	EditedBy   string
	EditTime   time.Time
	EditReason string
}

func (p *postRow) stored() StoredPost {
	sp := StoredPost{PID: p.PID, TID: p.TID, Author: p.Author, Subject: p.Subject, Message: p.Message,
		Time: time.Unix(p.Dateline, 0).UTC(), EditedBy: p.Editor, EditReason: p.EditReason}
	if p.EditTime > 0 {
		sp.EditTime = time.Unix(p.EditTime, 0).UTC()
	}
	return sp
}

// Posts lists a thread's posts in order.
func (s *Server) Posts(ctx context.Context, tid int) ([]StoredPost, error) {
	ps, err := s.threadPosts(ctx, tid, 0, -1)
	if err != nil {
		return nil, err
	}
	out := make([]StoredPost, len(ps))
	for i, p := range ps {
		out[i] = p.stored()
	}
	return out, nil
}

// StoredPM is a private message as stored in one user's folder.
type StoredPM struct {
	PMID    int
	Folder  int // 1 inbox, 2 sent items
	From    string
	To      string
	Subject string
	Message string
	Time    time.Time
	Read    bool
}

// PMs lists the private messages in a user's folders, oldest first.
func (s *Server) PMs(ctx context.Context, user string) ([]StoredPM, error) {
	u, err := s.userByName(ctx, user)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, pmSelect+`WHERE m.uid = ? ORDER BY m.dateline, m.pmid`, u.UID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []StoredPM
	for rows.Next() {
		m, err := scanPM(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, StoredPM{PMID: m.PMID, Folder: m.Folder, From: m.FromName, To: m.ToName, Subject: m.Subject,
			Message: m.Message, Time: time.Unix(m.Dateline, 0).UTC(), Read: m.Status != 0})
	}
	return out, rows.Err()
}
