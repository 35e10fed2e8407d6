package sandbox

import (
	"context"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"

	_ "github.com/mattn/go-sqlite3" // SQLite driver

	"forumgm/forum"
)

const schema = `
CREATE TABLE IF NOT EXISTS settings(name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users(
	uid INTEGER PRIMARY KEY,
	username TEXT NOT NULL,
	lname TEXT NOT NULL UNIQUE,
	salt TEXT NOT NULL,
	password TEXT NOT NULL,
	loginkey TEXT NOT NULL,
	regdate INTEGER NOT NULL,
	lastpost INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS sessions(sid TEXT PRIMARY KEY, uid INTEGER NOT NULL, time INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS forums(
	fid INTEGER PRIMARY KEY,
	parent INTEGER NOT NULL DEFAULT 0,
	type TEXT NOT NULL,
	name TEXT NOT NULL,
	description TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS threads(
	tid INTEGER PRIMARY KEY,
	fid INTEGER NOT NULL,
	subject TEXT NOT NULL,
	uid INTEGER NOT NULL,
	dateline INTEGER NOT NULL,
	firstpost INTEGER NOT NULL DEFAULT 0,
	lastpost INTEGER NOT NULL DEFAULT 0,
	lastposteruid INTEGER NOT NULL DEFAULT 0,
	views INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS posts(
	pid INTEGER PRIMARY KEY,
	tid INTEGER NOT NULL,
	replyto INTEGER NOT NULL DEFAULT 0,
	uid INTEGER NOT NULL,
	subject TEXT NOT NULL,
	message TEXT NOT NULL,
	dateline INTEGER NOT NULL,
	edituid INTEGER NOT NULL DEFAULT 0,
	edittime INTEGER NOT NULL DEFAULT 0,
	editreason TEXT NOT NULL DEFAULT '',
	visible INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS posts_tid ON posts(tid, dateline, pid);
CREATE TABLE IF NOT EXISTS sticky(tid INTEGER PRIMARY KEY);
CREATE TABLE IF NOT EXISTS moderators(fid INTEGER NOT NULL, uid INTEGER NOT NULL, PRIMARY KEY(fid, uid));
CREATE TABLE IF NOT EXISTS pms(
	pmid INTEGER PRIMARY KEY,
	uid INTEGER NOT NULL,
	toid INTEGER NOT NULL,
	fromid INTEGER NOT NULL,
	folder INTEGER NOT NULL,
	subject TEXT NOT NULL,
	message TEXT NOT NULL,
	dateline INTEGER NOT NULL,
	status INTEGER NOT NULL DEFAULT 0,
	readtime INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS pms_owner ON pms(uid, folder, dateline);
`

// openDB opens (creating) the SQLite file in WAL mode with a busy timeout.
func openDB(path string) (*sql.DB, error) {
	if path == "" {
		return nil, errors.New("sandbox: Options.DBPath is required")
	}
	dsn := "file:" + url.PathEscape(path) + "?_journal_mode=WAL&_busy_timeout=10000&_synchronous=NORMAL&_txlock=immediate"
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(8)
	if _, err := db.Exec(schema + attachSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("sandbox: schema: %w", err)
	}
	if err := addVisible(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("sandbox: schema: %w", err)
	}
	return db, nil
}

func randHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func md5hex(parts ...string) string {
	h := md5.Sum([]byte(strings.Join(parts, "|")))
	return hex.EncodeToString(h[:])
}

func hashPassword(salt, pw string) string {
	h := sha256.Sum256([]byte(salt + "\x00" + pw))
	return hex.EncodeToString(h[:])
}

// userRow is a row of users.
type userRow struct {
	UID      int
	Name     string
	Salt     string
	Password string
	LoginKey string
	RegDate  int64
	LastPost int64
}

// lowerName folds a user name the way MyBB on MySQL compares names (Unicode, not only ASCII).
func lowerName(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

type querier interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

func getUser(ctx context.Context, q querier, where string, arg any) (*userRow, error) {
	u := &userRow{}
	err := q.QueryRowContext(ctx, `SELECT uid, username, salt, password, loginkey, regdate, lastpost FROM users WHERE `+where, arg).
		Scan(&u.UID, &u.Name, &u.Salt, &u.Password, &u.LoginKey, &u.RegDate, &u.LastPost)
	if err != nil {
		return nil, err
	}
	return u, nil
}

// threadRow is a row of threads with its reply count.
type threadRow struct {
	TID, FID      int
	Subject       string
	UID           int
	Author        string
	Dateline      int64
	LastPost      int64
	LastPosterUID int
	LastPoster    string
	Views         int
	Posts         int
	Sticky        bool
	firstPID      int
}

const threadSelect = `SELECT t.tid, t.fid, t.subject, t.uid, COALESCE(u.username,''), t.dateline, t.lastpost, t.lastposteruid,
	COALESCE(l.username,''), t.views, (SELECT COUNT(*) FROM posts p WHERE p.tid = t.tid AND p.visible = 1), t.firstpost,
	EXISTS(SELECT 1 FROM sticky s WHERE s.tid = t.tid)
	FROM threads t LEFT JOIN users u ON u.uid = t.uid LEFT JOIN users l ON l.uid = t.lastposteruid `

func scanThread(sc interface{ Scan(...any) error }) (*threadRow, error) {
	t := &threadRow{}
	err := sc.Scan(&t.TID, &t.FID, &t.Subject, &t.UID, &t.Author, &t.Dateline, &t.LastPost, &t.LastPosterUID, &t.LastPoster, &t.Views, &t.Posts, &t.firstPID, &t.Sticky)
	return t, err
}

// postRow is a row of posts with the author's and editor's names.
type postRow struct {
	PID, TID, ReplyTo, UID int
	Author                 string
	Subject, Message       string
	Dateline               int64
	EditUID                int
	Editor                 string
	EditTime               int64
	EditReason             string
}

const postSelect = `SELECT p.pid, p.tid, p.replyto, p.uid, COALESCE(u.username,''), p.subject, p.message, p.dateline,
	p.edituid, COALESCE(e.username,''), p.edittime, p.editreason
	FROM posts p LEFT JOIN users u ON u.uid = p.uid LEFT JOIN users e ON e.uid = p.edituid `

func scanPost(sc interface{ Scan(...any) error }) (*postRow, error) {
	p := &postRow{}
	err := sc.Scan(&p.PID, &p.TID, &p.ReplyTo, &p.UID, &p.Author, &p.Subject, &p.Message, &p.Dateline,
		&p.EditUID, &p.Editor, &p.EditTime, &p.EditReason)
	return p, err
}

// pmRow is a row of pms with the sender's and recipient's names.
type pmRow struct {
	PMID, Owner, ToID, FromID, Folder int
	FromName, ToName                  string
	Subject, Message                  string
	Dateline                          int64
	Status                            int
	ReadTime                          int64
}

const pmSelect = `SELECT m.pmid, m.uid, m.toid, m.fromid, m.folder, COALESCE(f.username,''), COALESCE(t.username,''),
	m.subject, m.message, m.dateline, m.status, m.readtime
	FROM pms m LEFT JOIN users f ON f.uid = m.fromid LEFT JOIN users t ON t.uid = m.toid `

func scanPM(sc interface{ Scan(...any) error }) (*pmRow, error) {
	m := &pmRow{}
	err := sc.Scan(&m.PMID, &m.Owner, &m.ToID, &m.FromID, &m.Folder, &m.FromName, &m.ToName,
		&m.Subject, &m.Message, &m.Dateline, &m.Status, &m.ReadTime)
	return m, err
}

func (s *Server) thread(ctx context.Context, tid int) (*threadRow, error) {
	t, err := scanThread(s.db.QueryRowContext(ctx, threadSelect+`WHERE t.tid = ?`, tid))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sandbox: thread %d: %w", tid, forum.ErrNotFound)
	}
	return t, err
}

// isModerator tells whether user uid moderates forum fid (fid 0: any forum), MyBB's
// is_moderator: it skips flood control (posts: in that forum; private messages: anywhere) and
// sees the moderator options of the reply forms.
func (s *Server) isModerator(ctx context.Context, uid, fid int) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM moderators WHERE uid = ? AND (fid = ? OR ? = 0)`, uid, fid, fid).Scan(&n)
	return n > 0, err
}

// forumThreads lists forum fid's threads by last post, newest first (sticky ones among them).
func (s *Server) forumThreads(ctx context.Context, fid int) ([]*threadRow, error) {
	rows, err := s.db.QueryContext(ctx, threadSelect+`WHERE t.fid = ? ORDER BY t.lastpost DESC, t.tid DESC`, fid)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*threadRow
	for rows.Next() {
		t, err := scanThread(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

type forumRow struct {
	FID         int
	Name        string
	Description string
}

func (s *Server) forum(ctx context.Context, fid int) (*forumRow, error) {
	f := &forumRow{}
	err := s.db.QueryRowContext(ctx, `SELECT fid, name, description FROM forums WHERE fid = ? AND type = 'f'`, fid).Scan(&f.FID, &f.Name, &f.Description)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sandbox: forum %d: %w", fid, forum.ErrNotFound)
	}
	return f, err
}

func (s *Server) forums(ctx context.Context) ([]*forumRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT fid, name, description FROM forums WHERE type = 'f' ORDER BY fid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*forumRow
	for rows.Next() {
		f := &forumRow{}
		if err := rows.Scan(&f.FID, &f.Name, &f.Description); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

func (s *Server) post(ctx context.Context, pid int) (*postRow, error) {
	p, err := scanPost(s.db.QueryRowContext(ctx, postSelect+`WHERE p.pid = ?`, pid))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sandbox: post %d: %w", pid, forum.ErrNotFound)
	}
	return p, err
}

// threadPosts lists a thread's posts in display order (limit < 0: all).
func (s *Server) threadPosts(ctx context.Context, tid, offset, limit int) ([]*postRow, error) {
	rows, err := s.db.QueryContext(ctx, postSelect+`WHERE p.tid = ? AND p.visible = 1 ORDER BY p.dateline, p.pid LIMIT ? OFFSET ?`, tid, limit, offset)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*postRow
	for rows.Next() {
		p, err := scanPost(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// postIndex is the 0-based position of a post in its thread.
func (s *Server) postIndex(ctx context.Context, p *postRow) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM posts WHERE tid = ? AND visible = 1 AND (dateline < ? OR (dateline = ? AND pid < ?))`,
		p.TID, p.Dateline, p.Dateline, p.PID).Scan(&n)
	return n, err
}

// postsUpTo counts thread tid's visible posts made at or before dateline.
func (s *Server) postsUpTo(ctx context.Context, tid int, dateline int64) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM posts WHERE tid = ? AND visible = 1 AND dateline <= ?`, tid, dateline).Scan(&n)
	return n, err
}

// userStats counts a user's posts and threads.
func (s *Server) userStats(ctx context.Context, uid int) (posts, threads int) {
	_ = s.db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM posts WHERE uid = ?), (SELECT COUNT(*) FROM threads WHERE uid = ?)`, uid, uid).Scan(&posts, &threads)
	return
}

func (s *Server) pmFolder(ctx context.Context, uid, folder int, unreadOnly bool) ([]*pmRow, error) {
	q := pmSelect + `WHERE m.uid = ? AND m.folder = ? AND m.visible = 1`
	if unreadOnly {
		q += ` AND m.status = 0`
	}
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY m.dateline DESC, m.pmid DESC`, uid, folder)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*pmRow
	for rows.Next() {
		m, err := scanPM(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

func (s *Server) pm(ctx context.Context, pmid int) (*pmRow, error) {
	m, err := scanPM(s.db.QueryRowContext(ctx, pmSelect+`WHERE m.pmid = ? AND m.visible = 1`, pmid))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sandbox: pm %d: %w", pmid, forum.ErrNotFound)
	}
	return m, err
}
