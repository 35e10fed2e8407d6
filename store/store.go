// Package store owns forumgm's durable state in one SQLite file: the games, every post and private
// message seen (with its verdict), each game's event log, the outbox of replies and private
// messages to post, the moderator's queue of flags, the readers' cursors and the game clocks.
//
// The key operation is Commit: one transaction that records a post's verdict, appends the events it
// caused, queues the replies, adds flags and moves the cursor and clock, all or nothing. Judging a
// post twice is refused (ErrAlreadyJudged) and a timed rule cannot fire twice (ErrTimerFired), so
// a daemon that crashes anywhere and starts again neither loses nor repeats anything. A referee's
// outcome becomes a Commit's parts by Commit.Fill (the daemon and the moderators' tools alike),
// with a private message to each moderator about each new flag (the notices, notice.go).
//
// Connections: one writer connection (all writes are serialized through it, transactions start
// with BEGIN IMMEDIATE, so this process never meets SQLITE_BUSY from itself, and another process
// such as the moderator CLI waits busy_timeout instead of failing), and a small pool of query-only
// reader connections that read committed snapshots while the writer works (WAL).
//
// Durability: synchronous=FULL. In WAL mode NORMAL already survives the process being killed
// (SIGKILL) since a commit has reached the OS when it returns; FULL also survives an OS crash or
// power loss, because WAL is fsynced at every commit. forumgm acts on the outside world right after
// a commit (posts a reply that cannot be taken back), and it commits a few times a minute, so the
// fsync per commit is the right trade.
//
// Times: every time is stored in UTC with fixed-width nanoseconds and comes back in UTC. Event
// times (Commit.At) are game time chosen by the caller; bookkeeping times (first seen, created,
// resolved) come from the store's clock (WithClock), never from inside an engine.
package store

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"time"

	"forumgm/forum"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" database/sql driver (cgo)
)

// Errors the store reports, wrapped with details (errors.Is works on them).
var (
	// ErrAlreadyJudged: the post already has a verdict; the Commit changed nothing.
	ErrAlreadyJudged = errors.New("store: post already judged")
	// ErrTimerFired: the game clock is already at or past the timer; the Commit changed nothing.
	ErrTimerFired = errors.New("store: timer already fired")
	// ErrNotFound: no such game, post, outbox item or flag.
	ErrNotFound = errors.New("store: not found")
	// ErrFlagNotOpen: the flag was already resolved.
	ErrFlagNotOpen = errors.New("store: flag not open")
	// ErrOutboxState: the outbox item is not in a state that allows the change.
	ErrOutboxState = errors.New("store: outbox item in wrong state")
	// ErrLogMoved: the game's event log is not at the Commit's ExpectSeq (see LogMovedError); the
	// Commit changed nothing.
	ErrLogMoved = errors.New("store: event log moved")
	// ErrInvalid: the arguments are malformed (nothing was written).
	ErrInvalid = errors.New("store: invalid argument")
)

// BusyTimeout is how long a connection waits for a lock held by another process before
// reporting SQLITE_BUSY.
const BusyTimeout = 10 * time.Second

// Store is the SQLite storage of forumgm. It is safe for concurrent use.
type Store struct {
	w      *sql.DB // the single writer connection
	r      *sql.DB // query-only readers
	now    func() time.Time
	shared bool        // no lock (Shared)
	lock   *os.File    // the held lock file (see lock)
	path   string      // the database's absolute path
	file   os.FileInfo // the database file as opened (CheckFile)
	pg     bool        // a PostgreSQL database (openPostgres), not a SQLite file
	lease  *leaseState // the daemon's leases (WithOwner); nil: writes unfenced
}

// Option configures Open.
type Option func(*Store)

// WithClock sets the clock used for bookkeeping times (first seen, created, resolved).
func WithClock(now func() time.Time) Option {
	return func(s *Store) { s.now = now }
}

// Open opens (creating it if needed) the database at path and applies the pending migrations.
// It takes the store's lock for the life of the Store (one daemon per database: a second Open
// fails with a *LockedError naming the holder) unless Shared is given, checks that the folder and
// the file are writable, and runs PRAGMA quick_check.
//
// A path that is a postgres:// URL opens that PostgreSQL database instead (openPostgres).
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	ms, err := embeddedMigrations(IsURL(path))
	if err != nil {
		return nil, err
	}
	if IsURL(path) {
		return openPostgres(ctx, path, ms, opts...)
	}
	return open(ctx, path, ms, opts...)
}

func open(ctx context.Context, path string, ms []migration, opts ...Option) (*Store, error) {
	if path == "" || path == ":memory:" {
		return nil, fmt.Errorf("store: open %q: %w: a file path is required", path, ErrInvalid)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s := &Store{now: time.Now, path: abs}
	for _, o := range opts {
		o(s)
	}
	if err := checkPath(abs); err != nil {
		return nil, err
	}
	if !s.shared {
		if s.lock, err = lock(abs); err != nil {
			return nil, err
		}
	}
	ok := false
	defer func() {
		if !ok {
			_ = unlock(s.lock)
		}
	}()
	if err := createPrivate(abs); err != nil {
		return nil, err
	}
	busy := fmt.Sprint(BusyTimeout.Milliseconds())
	s.w, err = sql.Open("sqlite3", dsn(abs, url.Values{
		"_journal_mode": {"WAL"},
		"_synchronous":  {"FULL"},
		"_busy_timeout": {busy},
		"_foreign_keys": {"1"},
		"_txlock":       {"immediate"},
		"_cache_size":   {cacheKiB},
	}))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s.w.SetMaxOpenConns(1)
	s.w.SetMaxIdleConns(1)
	s.w.SetConnMaxLifetime(0)
	s.w.SetConnMaxIdleTime(0)
	if err := s.w.PingContext(ctx); err != nil {
		s.w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	var mode string
	if err := s.w.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		s.w.Close()
		return nil, fmt.Errorf("store: open %s: journal mode %q, want wal (%v)", path, mode, err)
	}
	if err := quickCheck(ctx, s, path); err != nil {
		s.w.Close()
		return nil, err
	}
	if err := migrate(ctx, s.w, ms, s.now, false); err != nil {
		s.w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s.r, err = sql.Open("sqlite3", dsn(abs, url.Values{
		"_busy_timeout": {busy},
		"_foreign_keys": {"1"},
		"_query_only":   {"1"},
		"_cache_size":   {cacheKiB},
	}))
	if err != nil {
		s.w.Close()
		return nil, fmt.Errorf("store: open %s: readers: %w", path, err)
	}
	n := min(runtime.GOMAXPROCS(0), 4)
	s.r.SetMaxOpenConns(n)
	s.r.SetMaxIdleConns(n)
	if err := s.fileIdentity(); err != nil {
		s.r.Close()
		s.w.Close()
		return nil, err
	}
	ok = true
	return s, nil
}

// cacheKiB is each connection's page cache (SQLite's cache_size in KiB, negative): 1 MiB, half
// SQLite's default. The store's hot rows (cursors, clocks, a game's last events) are a small part
// of the file, the operating system's page cache holds the rest, and the daemon's memory is what
// its many idle games are measured by (issue 23: 500 games in 40 MB).
const cacheKiB = "-1024"

// dsn builds a file: URI so that any character in the path is escaped.
func dsn(abs string, q url.Values) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	return u.String()
}

// Close closes the database.
func (s *Store) Close() error {
	l := s.lock
	s.lock = nil
	err := errors.Join(s.r.Close(), s.w.Close(), unlock(l))
	if err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return nil
}

// write runs fn in one write transaction (BEGIN IMMEDIATE on the writer connection), unless the
// database file was deleted or replaced (CheckFile).
func (s *Store) write(ctx context.Context, what string, fn func(tx *sql.Tx) error) error {
	if err := s.CheckFile(); err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %s: begin: %w", what, err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return fmt.Errorf("store: %s: %w", what, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %s: commit: %w", what, err)
	}
	return nil
}

const timeLayout = "2006-01-02T15:04:05.000000000Z"

func fmtTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("bad stored time %q: %w", s, err)
	}
	return t, nil
}

// parseNullTime turns a nullable time column into a time (zero when NULL).
func parseNullTime(ns sql.NullString) (time.Time, error) {
	if !ns.Valid {
		return time.Time{}, nil
	}
	return parseTime(ns.String)
}

func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return fmtTime(t)
}

// TextHash is the hex sha256 of a text. It was the hash stored for a post before migration 0003
// (the own text only); ContentHash is what is stored now.
func TextHash(text string) string {
	h := sha256.Sum256([]byte(text))
	return hex.EncodeToString(h[:])
}

// ContentHash is the hash stored for a post (posts.text_hash) and the one the daemon compares to
// find an edited move post: the hex sha256 of what the referee reads of the post, its own text
// (code blocks are in it), then each quote's text, then each own code block.
//
// Quotes are included on purpose: in Crusade the quoted board is the player's own work (the
// position after the move, drawn into a quote of the last board), and whether it matches decides
// the sloppiness wound; a player who fixes the quoted board after the verdict has changed what
// was judged, and other players reading the thread see a different post, so that edit is flagged
// like an edit of the move lines. Left out: what the referee does not read and a forum may
// re-render without the author touching the post (quote attributions, spoilers, the "edited"
// notice, the permalink), so they never raise a false "edited" flag.
//
// A post without quotes or code blocks hashes exactly like TextHash(p.Text), the hash stored
// before migration 0003, so rows recorded then keep comparing equal (see PostRecord.HashOf).
func ContentHash(p forum.Post) string {
	if len(p.Quotes) == 0 && len(p.Code) == 0 {
		return TextHash(p.Text)
	}
	h := sha256.New()
	h.Write([]byte(p.Text))
	for _, q := range p.Quotes {
		h.Write([]byte("\x00quote\x00"))
		h.Write([]byte(q.Text))
	}
	for _, c := range p.Code {
		h.Write([]byte("\x00code\x00"))
		h.Write([]byte(c))
	}
	return hex.EncodeToString(h.Sum(nil))
}

var gameIDRe = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func checkGame(id string) error {
	if !gameIDRe.MatchString(id) {
		return fmt.Errorf("%w: game id %q (want 1-64 of A-Za-z0-9_-)", ErrInvalid, id)
	}
	return nil
}

// Marker is the unique marker of a game's n-th outbox item under the game's secret key (see
// markerKey): "fgm-GAME-N-" and 12 hex digits of HMAC-SHA256(key, game NUL n). Nobody without the
// key can tell the next item's marker, so a player cannot post it first to make the daemon think a
// reply already landed. The fixed-length MAC after the number keeps markers prefix-free ("…-1-"
// never starts "…-10-"), so searching a thread for one never finds another.
func Marker(key []byte, game string, n int64) string {
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s\x00%d", game, n)
	return fmt.Sprintf("fgm-%s-%d-%s", game, n, hex.EncodeToString(mac.Sum(nil)[:6]))
}

// markerKeySize is the length of a game's marker key.
const markerKeySize = 32

// markerKey returns the game's marker key, making it (random, once per game) in tx when the game
// has none yet. The key never leaves the store.
func markerKey(ctx context.Context, tx *sql.Tx, game string) ([]byte, error) {
	var key []byte
	err := tx.QueryRowContext(ctx, `SELECT key FROM marker_keys WHERE game_id = ?`, game).Scan(&key)
	if err == nil {
		return key, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("marker key: %w", err)
	}
	key = make([]byte, markerKeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("marker key: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO marker_keys (game_id, key) VALUES (?, ?)`, game, key); err != nil {
		return nil, fmt.Errorf("marker key: %w", err)
	}
	return key, nil
}

// scanner is *sql.Row or *sql.Rows.
type scanner interface {
	Scan(dest ...any) error
}

// queryer is *sql.DB or *sql.Tx.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}
