package fleet

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"forumgm/daemon"
	"forumgm/forum"
)

// session is one forum account shared by every game on it: one login, one cookie jar, one
// request rate (the dialect's client), and the sections its games sit in.
type session struct {
	forum.Forum
	key string

	loginMu  sync.Mutex // one login at a time; the games starting together wait for it
	loggedIn bool

	pmMu sync.Mutex // one look at the PM signal at a time

	bot   string           // the account's user name: its own posts are not a reply path
	rate  float64          // the forum's requests per second (the dialect's politeness)
	sched *forum.Scheduler // the forum host's request scheduler (nil: unknown)

	mu       sync.Mutex
	sections map[string]*section

	board boardWatch
	inbox sharedInbox
	looks idleLooks
}

// idleLooks paces the session's idle looks that are not a shared list: the games that look at
// their own thread (MyBB's lastpost probe) take turns, so that together they cost at most one
// request per poll interval — what one look at the board index would — however many they are,
// leaving room for the looks at the PM signal while a game expects private messages.
type idleLooks struct {
	mu       sync.Mutex
	probed   map[string]*probeTurn // by thread: the game's turns to probe
	pmWanted time.Time             // the last time a game asked for the PM signal (LookPM)
}

// probeTurn is a game's share of the probes: credit grows by one every spacing and a probe spends
// one, at most two kept (a game that polls at the poll interval while its spacing is a little
// longer probes on most of its polls, not on every other one).
type probeTurn struct {
	credit float64
	at     time.Time // when credit was counted
}

// probeForget is how long a game that asked for no probe keeps its turn.
const probeForget = 15 * time.Minute

// maxProbeGames is the most games of a session that probe their threads in turn rather than
// share the board index: each is looked at every maxProbeGames poll intervals at worst.
const maxProbeGames = 4

// probing reports whether the session's games look at their own threads (one probe each, in
// turn) rather than at the board index and their sections' lists: the dialect has a probe, and
// the session's games probed together cost less than one read of the index (or the forum has
// none). The index stands for many games, the probes for a few.
func (s *session) probing() bool {
	lc, ok := forum.As[forum.LookCoster](s.Forum)
	if !ok {
		return false
	}
	probe, board := lc.LookCosts()
	if probe <= 0 {
		return false
	}
	n := s.games()
	return n <= maxProbeGames && (board <= 0 || n*probe < board)
}

// games counts the games in the session's sections.
func (s *session) games() int {
	s.mu.Lock()
	secs := make([]*section, 0, len(s.sections))
	for _, sec := range s.sections {
		secs = append(secs, sec)
	}
	s.mu.Unlock()
	n := 0
	for _, sec := range secs {
		sec.mu.Lock()
		n += len(sec.games)
		sec.mu.Unlock()
	}
	return n
}

// probeDue reports whether the game of thread may take its idle probe now (and notes it): each
// of the session's n probing games once per n poll intervals (every), stretched by the share
// the PM signal's looks and full inbox reads take while a game expects private messages.
func (s *session) probeDue(thread string, every time.Duration, now time.Time) bool {
	l := &s.looks
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.probed == nil {
		l.probed = map[string]*probeTurn{}
	}
	for th, t := range l.probed {
		if now.Sub(t.at) > probeForget {
			delete(l.probed, th) // a game stopped (a reload) or gone over to the index
		}
	}
	turn, known := l.probed[thread]
	if !known {
		turn = &probeTurn{credit: 1, at: now}
		l.probed[thread] = turn
	}
	if known && !now.After(turn.at) {
		// A clock that stands still (a test's clock file, a stuck host) earns no credit; the
		// looks must go on all the same, or a post made after the last one is never seen.
		return true
	}
	n := len(l.probed)
	share := 1.0
	if !l.pmWanted.IsZero() && now.Sub(l.pmWanted) < 2*daemon.PMLookEvery {
		share -= float64(every)/float64(daemon.PMLookEvery) + float64(n)*float64(every)/float64(daemon.PMNetEvery)
	}
	spacing := float64(n) * float64(every) / max(share, 0.5)
	if now.After(turn.at) {
		turn.credit = min(2, turn.credit+float64(now.Sub(turn.at))/spacing) // a turn missed may be made up once
		turn.at = now
	}
	if turn.credit < 1-1e-9 {
		return false
	}
	turn.credit--
	return true
}

// lookPM refreshes the PM signal for the session's games (forum.PMWatcher): one look however
// many games ask, none while the signal is younger than daemon.PMLookEvery.
func (s *session) lookPM(ctx context.Context, now time.Time) error {
	w, ok := forum.As[forum.PMWatcher](s.Forum)
	if !ok {
		return fmt.Errorf("fleet: %w: the forum's pages do not tell of unread private messages", forum.ErrNoPM)
	}
	l := &s.looks
	l.mu.Lock()
	l.pmWanted = now
	l.mu.Unlock()
	s.pmMu.Lock()
	defer s.pmMu.Unlock()
	if daemon.PMFresh(w, now) {
		return nil // another game looked meanwhile
	}
	return w.LookPM(ctx)
}

// boardWatch is the session's look at the board index (forum.BoardReader): one request tells
// which sections got a post, so only their thread lists are read again.
type boardWatch struct {
	mu    sync.Mutex
	at    time.Time // when the last read came back (the game clock)
	seq   uint64    // reads so far: a look is fresh for a game that has not used it yet
	heads map[string]forum.SectionHead
}

// sectionMaxAge is how long a section's list stands while the board index shows the section
// unchanged (a safety net: the index counts every post).
const sectionMaxAge = 10 * time.Minute

// boardHead is section id as the board index shows it, the index read again when older than
// every, or when the clock did not move since the read the caller already used (seen: the read it
// used last; a clock that stands still must not hide a post made after a look). Sections the new
// index shows changed (other than the caller's, and not only by the bot's own posts) have their
// games woken: the first of them to poll reads the section's list. ok is false when the forum has
// no index or reading it failed (then the section's list is paced on its own).
func (s *session) boardHead(ctx context.Context, id string, every time.Duration, now func() time.Time, seen *uint64) (forum.SectionHead, bool) {
	br, ok := forum.As[forum.BoardReader](s.Forum)
	if !ok {
		return forum.SectionHead{}, false
	}
	b := &s.board
	b.mu.Lock()
	var changed []string
	t := now()
	if b.heads == nil || t.Sub(b.at) >= every || t.Before(b.at) || !t.After(b.at) && *seen == b.seq {
		list, err := br.Board(forum.WithClass(ctx, forum.ClassPoll))
		if err != nil {
			b.mu.Unlock()
			return forum.SectionHead{}, false
		}
		heads := make(map[string]forum.SectionHead, len(list))
		for _, h := range list {
			heads[h.ID] = h
			if old, was := b.heads[h.ID]; b.heads != nil && (!was || !old.Same(h)) && h.ID != id {
				changed = append(changed, h.ID)
			}
		}
		// The look's time is when its answer came, not when it was asked: under load the
		// request waits in the queue, and the next look is due a whole interval after it.
		b.heads, b.at = heads, now()
		b.seq++
	}
	*seen = b.seq
	h, ok := b.heads[id]
	heads := b.heads
	b.mu.Unlock()
	for _, sid := range changed {
		s.mu.Lock()
		sec := s.sections[sid]
		s.mu.Unlock()
		if sec != nil && !sec.ownOnly(heads[sid]) {
			sec.wakeAll()
		}
	}
	return h, ok
}

// Login logs in once for every game of the session; a game starting later finds the session
// logged in. A session lost later is the dialect's business (it logs in again on ErrLoggedOut).
func (s *session) Login(ctx context.Context) error {
	s.loginMu.Lock()
	defer s.loginMu.Unlock()
	if s.loggedIn {
		return nil
	}
	if err := s.Forum.Login(ctx); err != nil {
		return err
	}
	s.loggedIn = true
	return nil
}

// own reports whether name is the session's bot account (its own reply read back is a poll, not
// the reply path).
func (s *session) own(name string) bool {
	return name != "" && strings.EqualFold(strings.TrimSpace(name), strings.TrimSpace(s.bot))
}

// Admit lets a background request out now or says it would wait (forum.Admitter).
func (s *session) Admit(ctx context.Context) (context.Context, bool) {
	if s.sched == nil {
		return forum.WithClass(ctx, forum.ClassBackground), true
	}
	return s.sched.Admit(ctx)
}

// Unwrap is the dialect's forum (its optional interfaces: attachments, the sent folder, ...).
func (s *session) Unwrap() forum.Forum { return s.Forum }

// section is the session's look at one section's thread list, shared by the games in it; a
// game joins it (join) when it knows its section, from the config or its stored cursor, or once
// the dialect learnt it from a page.
func (s *session) section(id string, every time.Duration, now func() time.Time) *section {
	s.mu.Lock()
	defer s.mu.Unlock()
	sec, ok := s.sections[id]
	if !ok {
		sec = &section{id: id, every: every, now: now, games: map[string]func(){}, session: s}
		s.sections[id] = sec
	}
	if every < sec.every {
		sec.every = every // the most eager game sets the pace
	}
	return sec
}

// pace is how long one look at a section's list stands: at least its games' wish, and at least
// two seconds of the forum's request budget per section of the session, so that the lists of
// many sections never take more than half the politeness rate.
func (s *session) pace(sec *section) time.Duration {
	s.mu.Lock()
	n, every := len(s.sections), sec.every
	s.mu.Unlock()
	if s.rate <= 0 {
		return every
	}
	return max(every, time.Duration(float64(2*n)/s.rate*float64(time.Second)))
}

// section caches one section's first page of threads: the first game to poll after the cache
// aged past the session's pace reads it (one request), the others use it. A section with one
// game is not used: the game's own idle check (MyBB's lastpost redirect: half a kilobyte) is
// cheaper than a list page.
type section struct {
	id      string
	every   time.Duration
	now     func() time.Time
	session *session

	mu      sync.Mutex
	games   map[string]func() // the threads of the games in it, and how to wake each game
	board   forum.SectionHead // the section on the board index when its list was read
	indexed bool              // board holds the index's view (the forum has an index)
	at      time.Time
	seq     uint64 // reads of the list so far (a look is fresh for a game that has not used it)
	heads   map[string]forum.ThreadHead
	// ownIn counts the bot's own new posts in the section since board was taken, by thread
	// (ownLocked: their sum), ownThread the thread of the latest: an index that differs from board by exactly these shows nothing a
	// player wrote, and the list is not read for it.
	// It is counted before the post goes out (a count too low costs a read, one too high could
	// hide a player's post) and taken back when it failed or merged, unless the list was read
	// meanwhile (ownGen: the list reads so far reset it).
	ownIn     map[string]int
	ownThread string
	// named is the thread whose head the board index named (onePostLocked) until its game's
	// read refines it.
	named string
	// spill is the seq of the last list read whose every thread had moved since the read
	// before (0: none): threads off its first page may have been pushed off by posts of their
	// own, not only by the threads above them, so their games read them once (gameForum.Posts).
	spill uint64
}

// spilled is the seq of the last list read that may have pushed threads with new posts off
// the first page (0: none).
func (s *section) spilled() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.spill
}

// posting notes that the bot is about to post in thread; the answer is for unposted.
func (s *section) posting(thread string) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ownThread = thread
	if s.ownIn == nil {
		s.ownIn = map[string]int{}
	}
	s.ownIn[thread]++
	return s.seq
}

// unposted takes back a posting whose post failed or merged into the bot's previous one.
func (s *section) unposted(seq uint64, thread string) {
	s.mu.Lock()
	if s.seq == seq && s.ownIn[thread] > 0 {
		s.ownIn[thread]--
	}
	s.mu.Unlock()
}

// ownLocked is the bot's own new posts in the section since board was taken.
func (s *section) ownLocked() int {
	n := 0
	for _, k := range s.ownIn {
		n += k
	}
	return n
}

// ownHeadsLocked is the list's heads with the bot's own posts since it was read (ownIn) added:
// each such thread one reply more a post, bot the last poster, the last post's time and id not
// known (forum.ThreadHead.Same then compares the rest). A head whose reply count the list did
// not show is left as it is.
func (s *section) ownHeadsLocked(bot string) map[string]forum.ThreadHead {
	heads := maps.Clone(s.heads)
	for th, n := range s.ownIn {
		h, ok := heads[th]
		if !ok || h.Unlisted || h.Replies < 0 || n <= 0 {
			continue
		}
		h.Replies += n
		h.LastPoster, h.LastAt, h.LastPostID = bot, time.Time{}, ""
		heads[th] = h
	}
	return heads
}

// ownOnly reports whether the board index's head h differs from the one the list was read
// under only by the bot's own posts: as many more posts as the bot made, no new thread, the bot
// the last poster in the thread it posted to last.
func (s *section) ownOnly(h forum.SectionHead) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ownOnlyLocked(h)
}

func (s *section) ownOnlyLocked(h forum.SectionHead) bool {
	b := s.board
	own := s.ownLocked()
	return s.indexed && own > 0 && b.Posts >= 0 && h.Posts-b.Posts == own && h.Threads == b.Threads &&
		s.session.own(h.LastPoster) && (h.LastThread == "" || h.LastThread == s.ownThread)
}

// onePostLocked reports whether the board index's head h differs from the one the list was read
// under by exactly one post, a player's, in a game's thread, no new thread, while the list is younger than
// sectionMaxAge and no post of the bot's is counted (own: one in flight, counted before it lands,
// would make two players' posts look like one): then that post is the section's last, in
// h.LastThread (th).
func (s *section) onePostLocked(h forum.SectionHead, indexed bool, now time.Time) (th string, ok bool) {
	b := s.board
	if !indexed || !s.indexed || s.heads == nil || now.Before(s.at) || now.Sub(s.at) >= sectionMaxAge {
		return "", false
	}
	_, game := s.games[h.LastThread]
	ok = b.Posts >= 0 && s.ownLocked() == 0 && h.Posts-b.Posts == 1 && h.Threads == b.Threads && game &&
		h.LastPoster != "" && !s.session.own(h.LastPoster)
	return h.LastThread, ok
}

// misnamed notes that the read of thread th, named by the index, found nothing new: the index
// named another thread than the post's (MyBB orders a section's threads by their last post's
// second, so two posts in one second can name the older one): the list is read at the next look.
func (s *section) misnamed(th string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.named == th {
		s.named, s.at = "", time.Time{}
	}
}

// refine puts the head a read of thread th gave in place of the one the index named it with
// (onePostLocked), so that the thread stands unchanged for its next polls.
func (s *section) refine(th string, h forum.ThreadHead) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.named == th && s.heads != nil {
		heads := maps.Clone(s.heads)
		h.Section = s.id
		heads[th] = h
		s.heads, s.named = heads, ""
	}
}

// join adds a game's thread to the section; wake (nil: none) cuts the game's wait short when a
// look at the list shows its thread changed.
func (s *section) join(thread string, wake func()) {
	s.mu.Lock()
	s.games[thread] = wake
	s.mu.Unlock()
}

// shared reports whether more than one game sits in the section.
func (s *section) shared() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.games) > 1
}

// look returns the section's threads, read again when the last read is older than the pace.
// The games whose thread the new list shows changed are woken (all but the caller's, which is
// reading anyway), so that a move is answered within a look, not a game's whole poll interval.
//
// seen is the caller's record of the looks it used (its board index read and list read): with a
// clock that does not move, a look the caller already used is not fresh for it again.
func (s *section) look(ctx context.Context, r forum.SectionReader, caller string, seen *looksSeen) (map[string]forum.ThreadHead, error) {
	every := s.session.pace(s)
	bh, indexed := s.session.boardHead(ctx, s.id, s.boardEvery(), s.now, &seen.board)
	s.mu.Lock()
	now := s.now()
	age := now.Sub(s.at)
	unused := now.After(s.at) || seen.list != s.seq
	fresh := s.heads != nil && !now.Before(s.at) && age < every && unused
	if indexed {
		if s.heads != nil && !bh.Same(s.board) && s.ownOnlyLocked(bh) {
			// Only the bot's own posts since the list was read: nothing to read for them. The
			// threads they went to get the heads the list would show now (as far as it is
			// known), so that their games' cursors take them: a restart before the next list
			// read then finds those threads unchanged, not a thread to read each.
			s.heads = s.ownHeadsLocked(bh.LastPoster)
			s.board, s.ownIn = bh, nil
			s.seq++
		}
		// The board index tells: the list stands while the section's counts did not move.
		fresh = s.heads != nil && !now.Before(s.at) && age < sectionMaxAge && s.indexed && bh.Same(s.board) // (an index the caller already used at this instant was read again above)
	}
	if fresh {
		defer s.mu.Unlock()
		seen.list = s.seq
		return s.heads, nil
	}
	if th, ok := s.onePostLocked(bh, indexed, now); ok {
		// The index names the one thread a player posted in: no list read on the reply path.
		// The thread's head says only that (its game reads it; the head the read gives
		// replaces it: refine); the list is read again when the index shows anything else,
		// or once it is sectionMaxAge old.
		heads := maps.Clone(s.heads)
		w := s.games[th]
		if _, game := s.games[th]; game {
			heads[th] = forum.ThreadHead{ID: th, Replies: -1, LastPoster: bh.LastPoster, Section: s.id}
			s.named = th
		}
		s.heads, s.board, s.ownIn = heads, bh, nil
		s.seq++
		seen.list = s.seq
		s.mu.Unlock()
		if w != nil && th != caller {
			w()
		}
		return heads, nil
	}
	class := forum.ClassPoll
	if indexed && s.indexed && !bh.Same(s.board) && !s.session.own(bh.LastPoster) {
		class = forum.ClassReply // the index shows a player's new post in the section: the reply path
	}
	list, err := r.Section(forum.WithClass(ctx, class), s.id)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	heads := make(map[string]forum.ThreadHead, len(list))
	for _, h := range list {
		h.Section = s.id
		heads[h.ID] = h
	}
	var wake []func()
	// Every thread on the page moved since the last read (a burst of posts in more threads
	// than the page holds): a thread off the page now may have a post of its own.
	spill := s.heads != nil && len(list) > 0
	for _, h := range list {
		if old, was := s.heads[h.ID]; was && old.Same(h) {
			spill = false
			break
		}
	}
	if s.heads != nil {
		for th, w := range s.games {
			old, was := s.heads[th]
			h, is := heads[th]
			// A thread that only moved off the first page, or onto it without a post since the
			// last look (threads above it moved away), is not woken (issue 23, item 4), unless
			// the page spilled.
			moved := was && !old.Same(h) || !was && (h.LastAt.IsZero() || h.LastAt.After(s.at))
			if w != nil && th != caller && (is && moved || spill && !is) {
				wake = append(wake, w)
			}
		}
	}
	s.at, s.heads, s.named = now, heads, ""
	s.board, s.indexed, s.ownIn = bh, indexed, nil
	s.seq++
	if spill {
		s.spill = s.seq
	}
	seen.list = s.seq
	s.mu.Unlock()
	for _, w := range wake {
		w()
	}
	return heads, nil
}

// looksSeen is one game's record of the looks it used: the board index read and the section
// list read (their sequence numbers).
type looksSeen struct {
	board, list uint64
}

// wakeAll wakes every game of the section (the board index showed it changed).
func (s *section) wakeAll() {
	s.mu.Lock()
	var wake []func()
	for _, w := range s.games {
		if w != nil {
			wake = append(wake, w)
		}
	}
	s.mu.Unlock()
	for _, w := range wake {
		w()
	}
}

// boardEvery is how long one look at the board index stands: the section's games' wish, and at
// least two seconds of the forum's request budget.
func (s *section) boardEvery() time.Duration {
	s.session.mu.Lock()
	every := s.every
	s.session.mu.Unlock()
	if s.session.rate <= 0 {
		return every
	}
	return max(every, time.Duration(2/s.session.rate*float64(time.Second)))
}

// gameForum is one game's view of its session: a read of its thread is skipped while the
// section's thread list shows the thread as it was when the cursor was taken (the cursor carries
// that head, so this holds across restarts too).
type gameForum struct {
	*session
	thread    string
	sectionID string // from the config; "" learnt from the dialect after the first read
	every     time.Duration
	verify    time.Duration // a read of the thread itself at least this often
	now       func() time.Time
	wake      func() // cuts the game loop's wait short (nil: none)

	mu       sync.Mutex
	sec      *section
	sectionR forum.SectionReader
	readAt   time.Time // the game's last read of the thread itself (zero: none yet)
	seen     looksSeen
	// base is the head of the last cursor Posts gave, own the bot's new posts in the thread
	// since: a list showing the thread base.Replies+own replies on, the bot its last poster,
	// shows nothing a player wrote, and the thread is not read for it.
	// (Counted before the post goes out, like the section's.)
	base     *forum.ThreadHead
	ownPosts int
	baseGen  uint64 // times base was set
	spilled  uint64 // the section's last spilled list read this game read its thread after
	pmCur    string // the game's inbox cursor as its last Inbox left it (UnreadPM)
}

// Reply posts through the session and notes the bot's own new post, so that the change it makes
// to the board index and the section list is known as the bot's and costs no read.
func (g *gameForum) Reply(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	g.mu.Lock()
	sec, gen := g.sec, g.baseGen
	if t.ID == g.thread {
		g.ownPosts++
	}
	g.mu.Unlock()
	var seq uint64
	if sec != nil && t.ID == g.thread {
		seq = sec.posting(t.ID)
	}
	id, merged, err := g.session.Reply(ctx, t, body)
	if (err != nil || merged) && t.ID == g.thread {
		g.mu.Lock()
		if g.baseGen == gen && g.ownPosts > 0 {
			g.ownPosts--
		}
		g.mu.Unlock()
		if sec != nil {
			sec.unposted(seq, t.ID)
		}
	}
	return id, merged, err
}

// ownOnly reports whether the list's head h shows the thread moved on from the cursor's head c
// by the bot's own posts only.
func (g *gameForum) ownOnly(c *forum.ThreadHead, h forum.ThreadHead) bool {
	return c != nil && g.base != nil && g.ownPosts > 0 && c.Same(*g.base) && c.Replies >= 0 && h.Replies-c.Replies == g.ownPosts &&
		!h.Unlisted && g.own(h.LastPoster)
}

// setBase keeps the head of the cursor Posts gives: the bot's posts are counted from it.
func (g *gameForum) setBase(h *forum.ThreadHead) {
	if h == nil || g.base != nil && g.base.Same(*h) && g.base.Replies == h.Replies {
		return
	}
	b := *h
	g.base, g.ownPosts = &b, 0
	g.baseGen++
}

// Posts reads the thread, unless the section's list shows it unchanged since the cursor was
// taken (then no request of its own, and nothing new).
func (g *gameForum) Posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	sec := g.sectionFor(t, after)
	if sec == nil || !sec.shared() || g.session.probing() {
		if _, probes := forum.As[forum.LookCoster](g.session.Forum); probes && after.PostID != "" && !after.Include &&
			!g.session.probeDue(t.ID, g.every, g.now()) {
			return nil, after, nil // another game's turn to probe (idleLooks)
		}
		return g.session.Posts(ctx, t, after)
	}
	heads, err := sec.look(ctx, g.sectionR, t.ID, &g.seen)
	if err != nil {
		// The list failed (a theme change, a hiccup): the thread is read as if there were none.
		return g.session.Posts(ctx, t, after)
	}
	h, listed := heads[t.ID]
	spilled := false // off a page that spilled (section.spill): read once
	if !listed {
		h = forum.ThreadHead{ID: t.ID, Replies: -1, Unlisted: true, Section: sec.id}
		if n := sec.spilled(); n > g.spilled {
			spilled, g.spilled = true, n
		}
	}
	now := g.now()
	if g.readAt.IsZero() {
		// Started with a cursor: its first verifying read comes within verify, spread over it
		// so that a restart does not read every thread at once.
		g.readAt = now.Add(-daemon.Spread(t.ID, g.verify))
	}
	due := now.Sub(g.readAt) >= g.verify || now.Before(g.readAt)
	include := forum.HardInclude(ctx, after) // (a soft Include is honoured only by a read made anyway)
	if after.PostID != "" && !include && !spilled && still(after.Head, h) && !due {
		return nil, after, nil
	}
	if after.PostID != "" && !include && !spilled && !due && g.ownOnly(after.Head, h) {
		// Only the bot's own replies since the cursor: not read now (the next read of the
		// thread gets them with whatever follows); the cursor takes the list's head.
		cur := after
		cur.Head = &h
		g.setBase(cur.Head)
		return nil, cur, nil
	}
	switch {
	case after.PostID != "" && after.Head != nil && !still(after.Head, h) && !g.own(h.LastPoster):
		ctx = forum.Urgent(ctx, forum.ClassReply) // the list shows a player's new post: the page that holds it
	case after.PostID != "" && !include && !spilled && still(after.Head, h) && forum.ClassOf(ctx) == forum.ClassPoll:
		// Only the hourly verifying read is due: in the background share, when it admits one
		// now (else a later poll tries again); it never holds the game's loop in the queue.
		actx, ok := g.session.Admit(ctx)
		if !ok {
			return nil, after, nil
		}
		ctx = actx
	}
	posts, cur, err := g.session.Posts(ctx, t, after)
	if err != nil {
		return posts, cur, err
	}
	g.readAt = now
	switch {
	case len(posts) > 0:
		// New posts: the list looked at may be older than them, so the head kept is the one
		// the newest post gives (compared with the list by last post time and poster).
		last := posts[len(posts)-1]
		seen := forum.ThreadHead{ID: t.ID, Replies: -1, LastAt: last.Time, LastPoster: last.Author, Section: sec.id}
		if listed && h.LastAt.Equal(last.Time) && h.LastPoster == last.Author {
			seen = h // the list shows them already: keep its reply count too
		}
		cur.Head = &seen
	case after.Head != nil && after.Head.Same(h):
		cur.Head = after.Head // nothing new: the cursor as it was (no write)
	case h.Unlisted && after.Head != nil:
		// Off the first page: the last post known stays, so that the thread's coming back onto
		// the page without a new post is seen as such (still).
		off := h
		off.LastAt, off.LastPoster, off.LastPostID = after.Head.LastAt, after.Head.LastPoster, after.Head.LastPostID
		cur.Head = &off
	default:
		cur.Head = &h
	}
	if len(posts) > 0 {
		sec.refine(t.ID, *cur.Head)
	} else {
		sec.misnamed(t.ID)
	}
	g.setBase(cur.Head)
	return posts, cur, nil
}

// still reports whether the list's head h shows the thread as the cursor's head c did: the same
// head, or a thread that only moved off the list's first page (a thread with a new post goes to
// the top; the hourly verifying read is the net under a list read too late to show it), or back
// onto it with the same last post (the threads above it moved away).
func still(c *forum.ThreadHead, h forum.ThreadHead) bool {
	switch {
	case c == nil:
		return false
	case c.Same(h):
		return true
	case h.Unlisted:
		return !c.Unlisted
	case c.Unlisted:
		return !c.LastAt.IsZero() && c.LastAt.Equal(h.LastAt) && c.LastPoster == h.LastPoster &&
			(c.LastPostID == "" || h.LastPostID == "" || c.LastPostID == h.LastPostID)
	}
	return false
}

// Unwrap is the shared session.
func (g *gameForum) Unwrap() forum.Forum { return g.session }

// UnreadPM reports whether the game may have a private message to read: the forum's signal
// (forum.PMNotifier) shows one, or the shared inbox holds messages after the game's cursor
// (another game's read took them off the forum's counter).
func (g *gameForum) UnreadPM() bool {
	if n, ok := forum.As[forum.PMNotifier](g.session.Forum); ok && n.UnreadPM() {
		return true
	}
	g.mu.Lock()
	cur := g.pmCur
	g.mu.Unlock()
	s := &g.session.inbox
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.buf {
		if forum.IDLess(cur, p.ID) {
			return true
		}
	}
	return false
}

// PMSeen is when the forum's PM signal was last read (zero: the forum has none:
// forum.PMWatcher).
func (g *gameForum) PMSeen() time.Time {
	if w, ok := forum.As[forum.PMWatcher](g.session.Forum); ok {
		return w.PMSeen()
	}
	return time.Time{}
}

// LookPM refreshes the PM signal, once for every game of the session.
func (g *gameForum) LookPM(ctx context.Context) error {
	return g.session.lookPM(ctx, g.now())
}

// sectionFor is the game's section watch: the section from the config, else the one its cursor
// was taken in, else the one the dialect learnt from a page it read; nil when the forum lists no
// sections or the section is not known (yet).
func (g *gameForum) sectionFor(t forum.Thread, after forum.Cursor) *section {
	if g.sec != nil {
		return g.sec
	}
	r, ok := forum.As[forum.SectionReader](g.session.Forum)
	if !ok {
		return nil
	}
	id := g.sectionID
	if id == "" && after.Head != nil {
		id = after.Head.Section
	}
	if id == "" {
		id = r.SectionOf(t)
	}
	if id == "" {
		return nil
	}
	g.sectionR = r
	g.sec = g.session.section(id, g.every, g.now)
	g.sec.join(t.ID, g.wake)
	return g.sec
}

// Join enters the game in its section before its first poll (from the config, or the section its
// stored cursor was taken in), so that a restarted daemon's first polls already share the list.
func (g *gameForum) Join(after forum.Cursor) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sectionFor(forum.Thread{ID: g.thread}, after)
}

// sharedInbox is the session's inbox read once for all its games: the private messages after the
// oldest cursor a game asked with, kept (up to inboxKeep) and served to each game after its own
// cursor. The inbox is read again when the last read is older than every. Message ids are
// ordered by forum.CompareIDs.
type sharedInbox struct {
	mu    sync.Mutex
	base  string       // the buffer holds every message with an id after base
	ready bool         // base is set
	cur   forum.Cursor // the session's cursor: the buffer is complete up to it
	buf   []forum.Post // oldest first
	at    time.Time    // last read
}

// inboxKeep bounds the messages kept; a game whose cursor falls behind them reads for itself.
const inboxKeep = 1000

// Inbox serves a game's inbox read from the shared buffer, reading the forum when the buffer is
// older than every.
func (g *gameForum) Inbox(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	s, now := &g.session.inbox, g.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ready && forum.IDLess(after.PostID, s.base) {
		return g.session.Inbox(ctx, after) // older than the buffer
	}
	if !s.ready {
		s.base, s.cur, s.ready = after.PostID, after, true
	}
	if s.at.IsZero() || now.Sub(s.at) >= g.every || now.Before(s.at) {
		posts, cur, err := g.session.Inbox(ctx, s.cur)
		if err != nil {
			return nil, after, err
		}
		s.at = now
		s.buf = append(s.buf, posts...)
		s.cur = cur
		if n := len(s.buf) - inboxKeep; n > 0 {
			s.base = s.buf[n-1].ID
			s.buf = append([]forum.Post(nil), s.buf[n:]...)
		}
	}
	var out []forum.Post
	for _, p := range s.buf {
		if forum.IDLess(after.PostID, p.ID) {
			out = append(out, p)
		}
	}
	if len(out) == 0 && after.PostID != "" && !forum.IDLess(after.PostID, s.cur.PostID) {
		g.notePMCursor(after.PostID)
		return nil, after, nil // nothing new: the game's cursor stays as it is
	}
	g.notePMCursor(s.cur.PostID)
	return out, s.cur, nil
}

// notePMCursor keeps how far the game has read the shared inbox (UnreadPM).
func (g *gameForum) notePMCursor(id string) {
	g.mu.Lock()
	g.pmCur = id
	g.mu.Unlock()
}
