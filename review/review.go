// Package review owns the moderator's side of a game: the queue of flagged cases, the game as it
// stands (Standing, the log in the game's words), and the moderator's commands (accept a flagged
// post, as posted or as the moderator retyped the move; reject it; close it without a post; undo
// the last applied move; pause, resume and end the game). Each command goes through the game's referee, and its outcome is
// committed like any other: events (with the moderator's name and reason in the event log),
// replies queued in the outbox for the daemon's poster, the flag resolved, in one transaction.
// The web UI (Web) serves these tools in a browser for one game or several, each game to its own
// moderators only.
package review

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/referee"
	"forumgm/store"
)

// Referee is what the moderators' tools ask of the game's referee (a *referee.Referee; a test may
// stand in a stub that only knows moderator commands).
type Referee interface {
	Restore(recs []game.Record) error
	Rechain(links []game.Link) error
	Moderate(cmd game.ModCommand) (game.Outcome, error)
	Snapshot() any
	Rules() game.Rules
	View(now time.Time) (game.View, bool, error)
	LastUndoable() (label string, ok bool)
	Describer() game.Describer
	Describe(rec game.Record) string
	UnreadableReply(in game.Input) (body string, ok bool)
}

var _ Referee = (*referee.Referee)(nil)

// Review works on one game's store.
type Review struct {
	Store      *store.Store
	Game       string
	NewReferee func() (Referee, error)
	Now        func() time.Time
	Moderators []string
	Caps       forum.Capabilities
	// Allowed are the names that may act ("by") on this game, and the web UI accounts that may
	// open it (config.Moderating). Empty: any name (tests, tools).
	Allowed []string
	// HowToSettle is how moderators settle flags, as the notices of flags a command raises tell it.
	HowToSettle store.Settle
	// Location is the game's time zone: the web UI shows the game's times in it (nil: the web
	// UI's default).
	Location *time.Location
}

// Case is a flag with the post it is about.
type Case struct {
	Flag    store.Flag
	Post    store.PostRecord
	HasPost bool
	// Said is, for an unreadable move, what the game answers it (Russian, the game's own words;
	// the flag's Detail is the parser's English); filled by Explain.
	Said string
}

// Errors a caller may want to tell apart (the web UI words them for the moderator).
var (
	// ErrNoModerator: an action without the moderator's name.
	ErrNoModerator = errors.New("review: --by NAME is required (the moderator's name goes into the event log)")
	// ErrNoReason: reject, close, undo and end need a reason.
	ErrNoReason = errors.New("review: --reason is required for this action")
	// ErrNotModerator: "by" is not one of the configured moderators.
	ErrNotModerator = errors.New("review: not a moderator of this game")
	// ErrOtherGame: the flag belongs to another game.
	ErrOtherGame = errors.New("review: the flag belongs to another game")
)

// NotOpenError is an accept or reject of a flag that was already resolved.
type NotOpenError struct {
	ID    int64
	State store.FlagState
	By    string
}

func (e *NotOpenError) Error() string {
	return fmt.Sprintf("review: flag %d is already %s (by %s)", e.ID, e.State, e.By)
}

// List returns the open flags, oldest first.
func (r *Review) List(ctx context.Context) ([]store.Flag, error) {
	return r.Store.OpenFlags(ctx, r.Game)
}

// Queue returns the open flags with their posts, oldest first.
func (r *Review) Queue(ctx context.Context) ([]Case, error) {
	flags, err := r.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Case, 0, len(flags))
	for _, f := range flags {
		c, err := r.caseOf(ctx, f)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Explain fills in what the game answers each unreadable move among cases (Case.Said), read
// again on the game's current state.
func (r *Review) Explain(ctx context.Context, cases []Case) error {
	var ref Referee
	for i, c := range cases {
		if !c.HasPost || c.Flag.Kind != store.FlagUnreadable {
			continue
		}
		if ref == nil {
			var err error
			if ref, _, err = r.referee(ctx); err != nil {
				return err
			}
		}
		cases[i].Said, _ = ref.UnreadableReply(*Input(c.Post))
	}
	return nil
}

// Show returns a flag and its post.
func (r *Review) Show(ctx context.Context, id int64) (Case, error) {
	f, err := r.Store.Flag(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return Case{}, &wrapped{msg: fmt.Sprintf("review: there is no flag %d (forumgm review list shows the open ones)", id), err: err}
	}
	if err != nil {
		return Case{}, err
	}
	if f.Game != r.Game {
		return Case{}, &wrapped{msg: fmt.Sprintf("review: flag %d belongs to game %s, not %s", id, f.Game, r.Game), err: ErrOtherGame}
	}
	return r.caseOf(ctx, f)
}

func (r *Review) caseOf(ctx context.Context, f store.Flag) (Case, error) {
	c := Case{Flag: f}
	if f.PostID != "" {
		p, ok, err := r.Store.SeenPost(ctx, r.Game, f.Source, f.PostID)
		if err != nil {
			return Case{}, err
		}
		c.Post, c.HasPost = p, ok
	}
	return c, nil
}

// State returns the game as stored: whether it is paused, by whom and why.
func (r *Review) State(ctx context.Context) (store.Game, error) {
	return r.Store.Game(ctx, r.Game)
}

// Log returns the game's last n events in log order (all of them when n <= 0).
func (r *Review) Log(ctx context.Context, n int) ([]store.EventRow, error) {
	evs, err := r.Store.Events(ctx, r.Game)
	if err != nil {
		return nil, err
	}
	if n > 0 && len(evs) > n {
		evs = evs[len(evs)-n:]
	}
	return evs, nil
}

// referee rebuilds the game's referee from the log and returns it with the log's last seq (the
// log is gapless, so it is the number of events folded): a command's commit expects that seq.
func (r *Review) referee(ctx context.Context) (Referee, int64, error) {
	recs, err := r.Store.Records(ctx, r.Game)
	if err != nil {
		return nil, 0, err
	}
	ref, err := r.NewReferee()
	if err != nil {
		return nil, 0, err
	}
	if err := ref.Restore(recs); err != nil {
		return nil, 0, cause(err, "review: restore")
	}
	chain, err := r.Store.ChainPosts(ctx, r.Game)
	if err != nil {
		return nil, 0, err
	}
	if err := ref.Rechain(chain); err != nil {
		return nil, 0, cause(err, "review: restore")
	}
	return ref, int64(len(recs)), nil
}

// maxTries bounds how often a command is decided again because the running daemon committed
// events between the rebuild of the referee and the command's commit.
const maxTries = 5

// retry runs a command until its commit is not refused for a moved log (store.ErrLogMoved): each
// try rebuilds the referee from the log as it is then.
func retry(fn func() (game.Outcome, error)) (game.Outcome, error) {
	for try := 1; ; try++ {
		out, err := fn()
		if !errors.Is(err, store.ErrLogMoved) || try >= maxTries {
			return out, err
		}
	}
}

// Input rebuilds the referee's input from a stored post: the whole post as first seen (own text,
// quotes with the quoted board, code blocks), so a moderator's decision judges exactly what the
// daemon judged; for a post recorded before the store kept whole posts, its own text.
func Input(p store.PostRecord) *game.Input {
	post := p.Post
	if post.ID == "" {
		post.ID = p.ID
	}
	if post.Author == "" {
		post.Author, post.AuthorID = p.Author, p.AuthorID
	}
	if post.Time.IsZero() {
		post.Time = p.PostedAt
	}
	return &game.Input{Source: p.Source, PostID: p.ID, Author: p.Author, At: p.PostedAt, Post: post}
}

// NotModeratorError is an action by a name that is not a configured moderator.
type NotModeratorError struct {
	By      string
	Allowed []string
}

func (e *NotModeratorError) Error() string {
	return fmt.Sprintf("review: %q is not a moderator of this game (config: moderators, review.accounts): use one of %s",
		e.By, strings.Join(e.Allowed, ", "))
}

func (e *NotModeratorError) Unwrap() error { return ErrNotModerator }

// need checks an action's moderator and reason and returns the moderator's name as configured.
func (r *Review) need(by, reason string, needReason bool) (string, error) {
	by = strings.TrimSpace(by)
	if by == "" {
		return "", ErrNoModerator
	}
	if needReason && strings.TrimSpace(reason) == "" {
		return "", ErrNoReason
	}
	if name, ok := r.Moderator(by); ok {
		return name, nil
	}
	return "", &NotModeratorError{By: by, Allowed: r.Allowed}
}

// Moderator reports whether by may act on the game (one of Allowed, case-insensitive; anyone
// when Allowed is empty) and returns the name as configured.
func (r *Review) Moderator(by string) (string, bool) {
	by = strings.TrimSpace(by)
	if by == "" {
		return "", false
	}
	if len(r.Allowed) == 0 {
		return by, true
	}
	for _, a := range r.Allowed {
		if strings.EqualFold(strings.TrimSpace(a), by) {
			return strings.TrimSpace(a), true
		}
	}
	return "", false
}

// cause wraps an error from the referee or the store under a short context, without the other
// package's own prefix ("review: accept flag 3: no readable move", not "…: judge: accept: …").
func cause(err error, format string, args ...any) error {
	msg := err.Error()
	for _, p := range []string{"judge: ", "store: ", "accept: ", "reject: ", "close: ", "end: ", "undo: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return &wrapped{msg: fmt.Sprintf(format, args...) + ": " + msg, err: err}
}

type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }

// AcceptAs settles a flag in the post's favour: an unreadable move or a stranger's move is judged;
// an edited or deleted post's first-seen version stands; a disputed decision stands. A non-empty
// text is the move the moderator types (what the player meant), judged as if the player had
// written it.
func (r *Review) AcceptAs(ctx context.Context, id int64, by, reason, text string) (game.Outcome, error) {
	by, err := r.need(by, reason, false)
	if err != nil {
		return game.Outcome{}, err
	}
	return retry(func() (game.Outcome, error) { return r.decideOnce(ctx, id, game.ModAccept, by, reason, text) })
}

// Uphold settles a dispute: the disputed decision stands and the player is told why (reason).
func (r *Review) Uphold(ctx context.Context, id int64, by, reason string) (game.Outcome, error) {
	return r.decide(ctx, id, game.ModUphold, by, reason)
}

// Overturn settles a dispute for the player: the last penalty the player's side still owes is
// taken back and, when text is given, the move as the player meant it is judged as theirs; the
// ruling and the reason are posted to the player.
func (r *Review) Overturn(ctx context.Context, id int64, by, reason, text string) (game.Outcome, error) {
	by, err := r.need(by, reason, true)
	if err != nil {
		return game.Outcome{}, err
	}
	return retry(func() (game.Outcome, error) { return r.decideOnce(ctx, id, game.ModOverturn, by, reason, text) })
}

// Settle settles a dispute with the moderator's message to the player (message; the reason when
// empty); nothing else changes.
func (r *Review) Settle(ctx context.Context, id int64, by, reason, message string) (game.Outcome, error) {
	by, err := r.need(by, reason, true)
	if err != nil {
		return game.Outcome{}, err
	}
	return retry(func() (game.Outcome, error) { return r.decideOnce(ctx, id, game.ModSettle, by, reason, message) })
}

// Close closes a flag as settled elsewhere; the reason is logged, and a dispute's author is told
// the outcome (other flags close without a post).
func (r *Review) Close(ctx context.Context, id int64, by, reason string) (game.Outcome, error) {
	return r.decide(ctx, id, game.ModClose, by, reason)
}

// Reject refuses a flagged post with the moderator's reason (a refusal is posted).
func (r *Review) Reject(ctx context.Context, id int64, by, reason string) (game.Outcome, error) {
	return r.decide(ctx, id, game.ModReject, by, reason)
}

// decide runs a command about a flag (reject and close need a reason).
func (r *Review) decide(ctx context.Context, id int64, action game.ModAction, by, reason string) (game.Outcome, error) {
	by, err := r.need(by, reason, true)
	if err != nil {
		return game.Outcome{}, err
	}
	return retry(func() (game.Outcome, error) { return r.decideOnce(ctx, id, action, by, reason, "") })
}

func (r *Review) decideOnce(ctx context.Context, id int64, action game.ModAction, by, reason, text string) (game.Outcome, error) {
	c, err := r.Show(ctx, id)
	if err != nil {
		return game.Outcome{}, err
	}
	if c.Flag.State != store.FlagOpen {
		return game.Outcome{}, &NotOpenError{ID: id, State: c.Flag.State, By: c.Flag.ResolvedBy}
	}
	if !c.HasPost {
		return r.settleAlone(ctx, c, action, by, reason)
	}
	// The first-seen post stands, quotes and code blocks included.
	in := Input(c.Post)
	post := in.Post
	ref, seq, err := r.referee(ctx)
	if err != nil {
		return game.Outcome{}, err
	}
	now := r.Now()
	out, err := ref.Moderate(game.ModCommand{Action: action, By: by, Reason: reason, At: now, Post: in,
		Flag: c.Flag.Kind, Text: text})
	if err != nil {
		return game.Outcome{}, cause(err, "review: %s flag %d", action, id)
	}
	state := store.FlagAccepted
	verdict := out.Verdict
	switch action {
	case game.ModReject:
		state, verdict = store.FlagRejected, store.VerdictRefused
	case game.ModClose:
		state = store.FlagDismissed
	case game.ModUphold:
		state = store.FlagRejected // the dispute is refused: the decision stands
	case game.ModSettle:
		state = store.FlagDismissed
	}
	if verdict == "" || verdict == store.VerdictPending {
		verdict = store.VerdictIgnored
	}
	cm := store.Commit{Game: r.Game, At: now, Cause: store.ModeratorCause(by), Actor: by, Reason: reason,
		Post:      &store.Judgement{Source: c.Post.Source, Post: post, Verdict: verdict},
		Resolve:   &store.Resolution{FlagID: id, State: state, By: by, Note: reason, At: now},
		ExpectSeq: store.Expect(seq)}
	if c.Post.Judged() && c.Post.Verdict != store.VerdictFlagged {
		cm.Post = nil // an edited or deleted move post keeps its verdict; the flag is resolved
	}
	if err := cm.Fill(out, in, r.notify()); err != nil {
		return game.Outcome{}, err
	}
	if err := r.Store.Commit(ctx, cm); err != nil {
		return game.Outcome{}, cause(err, "review: %s flag %d", action, id)
	}
	return out, nil
}

// notify is who hears of flags a command raises.
func (r *Review) notify() store.Notify {
	return store.Notify{Moderators: r.Moderators, PM: r.Caps.PrivateMessages, Settle: r.HowToSettle}
}

// Undo undoes the last applied move (a compensating event; the board is posted again).
func (r *Review) Undo(ctx context.Context, by, reason string) (game.Outcome, error) {
	return r.game(ctx, game.ModUndo, by, reason, true)
}

// Pause stops judging and the clock's penalties until Resume.
func (r *Review) Pause(ctx context.Context, by, reason string) (game.Outcome, error) {
	return r.game(ctx, game.ModPause, by, reason, false)
}

// Resume resumes a paused game.
func (r *Review) Resume(ctx context.Context, by, reason string) (game.Outcome, error) {
	return r.game(ctx, game.ModResume, by, reason, false)
}

// game runs a command about the whole game.
func (r *Review) game(ctx context.Context, action game.ModAction, by, reason string, needReason bool) (game.Outcome, error) {
	by, err := r.need(by, reason, needReason)
	if err != nil {
		return game.Outcome{}, err
	}
	return retry(func() (game.Outcome, error) { return r.gameOnce(ctx, action, by, reason, "") })
}

// End ends the game by the moderators' decision: winner in the game's terms, or "draw", or ""
// (the game decides); the reason is logged and posted.
func (r *Review) End(ctx context.Context, by, reason, winner string) (game.Outcome, error) {
	by, err := r.need(by, reason, true)
	if err != nil {
		return game.Outcome{}, err
	}
	return retry(func() (game.Outcome, error) { return r.gameOnce(ctx, game.ModEnd, by, reason, winner) })
}

// AddPlayer adds a forum user to the game's roster as role (a side or a team, in the game's
// terms); the reason is logged.
func (r *Review) AddPlayer(ctx context.Context, by, reason, name, role string) (game.Outcome, error) {
	by, err := r.need(by, reason, true)
	if err != nil {
		return game.Outcome{}, err
	}
	return retry(func() (game.Outcome, error) {
		return r.command(ctx, game.ModCommand{Action: game.ModAddPlayer, By: by, Reason: reason, Player: name, Role: role})
	})
}

// Replace puts the forum user newName in player's place (the same team, warriors or figure);
// the reason is logged and posted.
func (r *Review) Replace(ctx context.Context, by, reason, player, newName string) (game.Outcome, error) {
	by, err := r.need(by, reason, true)
	if err != nil {
		return game.Outcome{}, err
	}
	return retry(func() (game.Outcome, error) {
		return r.command(ctx, game.ModCommand{Action: game.ModReplace, By: by, Reason: reason, Player: player, Replacement: newName})
	})
}

// Remove takes player out of the game: in a game with a sign-up his team is asked for a
// replacement first, else the game's rule for a departure applies now; the reason is logged.
func (r *Review) Remove(ctx context.Context, by, reason, player string) (game.Outcome, error) {
	by, err := r.need(by, reason, true)
	if err != nil {
		return game.Outcome{}, err
	}
	return retry(func() (game.Outcome, error) {
		return r.command(ctx, game.ModCommand{Action: game.ModRemove, By: by, Reason: reason, Player: player})
	})
}

// Adjust changes a side's or team's count by amount (Crusade: wounds owed; negative takes back).
func (r *Review) Adjust(ctx context.Context, by, reason, target string, amount int) (game.Outcome, error) {
	by, err := r.need(by, reason, true)
	if err != nil {
		return game.Outcome{}, err
	}
	return retry(func() (game.Outcome, error) {
		return r.command(ctx, game.ModCommand{Action: game.ModAdjust, By: by, Reason: reason, Target: target, Amount: amount})
	})
}

func (r *Review) gameOnce(ctx context.Context, action game.ModAction, by, reason, winner string) (game.Outcome, error) {
	return r.command(ctx, game.ModCommand{Action: action, By: by, Reason: reason, Winner: winner})
}

// command carries out a moderator's command about the whole game and commits its outcome.
func (r *Review) command(ctx context.Context, cmd game.ModCommand) (game.Outcome, error) {
	action, by, reason := cmd.Action, cmd.By, cmd.Reason
	ref, seq, err := r.referee(ctx)
	if err != nil {
		return game.Outcome{}, err
	}
	now := r.Now()
	cmd.At = now
	out, err := ref.Moderate(cmd)
	if err != nil {
		return game.Outcome{}, cause(err, "review: %s", action)
	}
	cm := store.Commit{Game: r.Game, At: now, Cause: store.ModeratorCause(by), Actor: by, Reason: reason, ExpectSeq: store.Expect(seq)}
	if err := cm.Fill(out, nil, r.notify()); err != nil {
		return game.Outcome{}, err
	}
	if action == game.ModPause || action == game.ModResume {
		cm.Pause = &store.PauseUpdate{Paused: action == game.ModPause, Reason: reason, By: by}
	}
	if err := r.Store.Commit(ctx, cm); err != nil {
		return game.Outcome{}, cause(err, "review: %s", action)
	}
	return out, nil
}

// settleAlone resolves a flag not about a post (the daemon's clock_jump flag, which holds the
// timed rules until a moderator confirms): accept and close resolve it, nothing is judged;
// reject has no post to refuse.
func (r *Review) settleAlone(ctx context.Context, c Case, action game.ModAction, by, reason string) (game.Outcome, error) {
	state := store.FlagAccepted
	switch action {
	case game.ModClose:
		state = store.FlagDismissed
	case game.ModAccept:
	default:
		return game.Outcome{}, fmt.Errorf("review: flag %d is not about a post; nothing to %s (accept or close it)", c.Flag.ID, action)
	}
	now := r.Now()
	cm := store.Commit{Game: r.Game, At: now, Cause: store.ModeratorCause(by), Actor: by, Reason: reason,
		Resolve: &store.Resolution{FlagID: c.Flag.ID, State: state, By: by, Note: reason, At: now}}
	if err := r.Store.Commit(ctx, cm); err != nil {
		return game.Outcome{}, fmt.Errorf("review: %s flag %d: %w", action, c.Flag.ID, err)
	}
	return game.Outcome{Verdict: game.Ignored}, nil
}
