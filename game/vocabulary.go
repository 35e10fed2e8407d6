package game

import (
	"time"

	"forumgm/forum"
)

// Source says where a post came from.
type Source string

const (
	Thread Source = "thread" // the game's thread
	PM     Source = "pm"     // a private message to the game's bot account
)

// Input is one post or private message for the referee.
type Input struct {
	Source Source
	PostID string
	Author string
	At     time.Time
	Post   forum.Post // the text as the forum shows it: own text, quotes, code blocks
}

// Verdict is what the referee made of an input.
type Verdict string

const (
	Accepted Verdict = "accepted" // judged and applied (a move, an allocation, an answer...)
	Refused  Verdict = "refused"  // judged and refused; nothing changed
	Ignored  Verdict = "ignored"  // chatter, or nothing for the game
	Flagged  Verdict = "flagged"  // handed to a moderator
	Pending  Verdict = "pending"  // seen but not judged yet (the store's state of a post)
)

// Message is a text to post: a reply in the thread (To empty) or a private message.
type Message struct {
	To      string `json:"to,omitempty"`
	Subject string `json:"subject,omitempty"`
	Body    string `json:"body"`
	// Attachments are files posted with the message (a picture of the field); the body must
	// read well without them (forums and readers without images).
	Attachments []forum.Attachment `json:"attachments,omitempty"`
	// Clock is set when the message starts a side's clock (it shows the position a side must
	// answer): the game's key for that clock (see ClockStarter). The poster reports the
	// message's posting time (the referee's Delivered) and fills its DeadlineSlot (FillDeadline)
	// when it sends.
	Clock string `json:"clock,omitempty"`
}

// DeadlineSlot is where a message that starts a clock states its deadline: the poster replaces it
// with the game's words for the deadline that follows from the posting time (FillDeadline). It
// cannot come from a player's text (templates escape "[").
const DeadlineSlot = "[deadline]"

// PostingMinute is a posting time as forums show it: to the minute.
func PostingMinute(t time.Time) time.Time { return t.Truncate(time.Minute) }

// FlagKind is why a post goes to the moderator queue.
type FlagKind string

const (
	FlagUnreadable  FlagKind = "unreadable"    // looks like a move but cannot be read
	FlagEdited      FlagKind = "edited"        // a judged move post was edited
	FlagDeleted     FlagKind = "deleted"       // a judged move post vanished
	FlagNotInRoster FlagKind = "not_in_roster" // a move-like post from someone not playing
	FlagDispute     FlagKind = "dispute"       // a player disputes a decision
	FlagLate        FlagKind = "late"          // a move that reached the bot late (first seen after later posts were judged)
	FlagClockJump   FlagKind = "clock_jump"    // the daemon's clock jumped forward: timed rules held until a moderator confirms
	FlagOther       FlagKind = "other"         // anything else a moderator must decide
)

// Flag is a case for a moderator.
type Flag struct {
	Kind   FlagKind `json:"kind"`
	PostID string   `json:"post_id,omitempty"`
	Detail string   `json:"detail"`
	// Was is an edited post's first-seen text (the moderators' notice shows what changed).
	Was string `json:"was,omitempty"`
	// Warning is what the moderators must be told first (Russian; their notice shows it), also
	// at the head of Detail: the author's name looks like a player's (an impostor?).
	Warning string `json:"warning,omitempty"`
}

// Outcome is the result of one input or one timer: the events to append to the log (already
// folded into the referee's state), the messages to post, and the flags to raise.
type Outcome struct {
	Verdict  Verdict
	Events   []Event
	Messages []Message
	Flags    []Flag
	// Link is set when the judged post was absorbed into the game's chain (a roster player's
	// thread post): the store keeps it, so a restored referee continues the chain (Rechain).
	Link *Link
}

// Link is one post absorbed into a game's chain (Chain): the chain's K-th post, as absorbed, and
// the chain's head after it.
type Link struct {
	K      uint64
	PostID string
	Author string
	Text   string
	Head   string
}

// ModAction is a moderator command.
type ModAction string

const (
	// ModAccept settles a flag in the post's favour: an unreadable move or a stranger's move is
	// judged as the moderator retyped it (ModCommand.Text; the post itself when empty); for an
	// edited or deleted post the first-seen version stands, for a dispute the decision stands:
	// nothing is judged again.
	ModAccept ModAction = "accept"
	ModReject ModAction = "reject" // refuse the flagged post with the moderator's reason
	// ModClose closes a flag (settled elsewhere); the reason is logged. A dispute's author is
	// told the outcome (the game's "mod_closed"); other flags close without a post.
	ModClose ModAction = "close"
	// Dispute settlement (a FlagDispute): ModUphold keeps the disputed decision and tells the
	// player why (Reason); ModOverturn rules for the player: the last penalty the player's side
	// was given is taken back (games that implement Penalizer) and, when ModCommand.Text holds
	// the move as the player meant it, that move is judged as the player's; ModSettle posts the
	// moderator's message (Text, else Reason) to the player and changes nothing else.
	ModUphold   ModAction = "uphold"
	ModOverturn ModAction = "overturn"
	ModSettle   ModAction = "settle"
	// ModAddPlayer adds a player (ModCommand.Player, .Role) to the roster; ModAdjust changes a
	// side's or team's count (ModCommand.Target, .Amount): games that implement Adjuster.
	ModAddPlayer ModAction = "add_player"
	ModAdjust    ModAction = "adjust"
	// ModReplace puts a new player (ModCommand.Replacement) in a player's place (.Player);
	// ModRemove takes a player out (a sign-up game first asks his team for a replacement):
	// games whose Rules implement Replacer.
	ModReplace ModAction = "replace"
	ModRemove  ModAction = "remove"
	ModUndo    ModAction = "undo"  // undo the last applied move (a compensating event; board re-posted)
	ModPause   ModAction = "pause" // stop judging and the clock's penalties until resumed
	ModResume  ModAction = "resume"
	ModEnd     ModAction = "end" // end the game (the game master's decision), Reason says why
	// The game master's powers over time (referee/master.go), each announced in the thread:
	// ModExtend moves the next deadline later by ModCommand.Delay; ModHoliday stops the game's
	// clock for the whole day ModCommand.Day (game zone): moves that day are refused, and every
	// later time moves one day on; ModClarify posts ModCommand.Text as a rules clarification;
	// ModLength makes the game ModCommand.Amount units long (games that implement Lengthener).
	ModExtend  ModAction = "extend"
	ModHoliday ModAction = "holiday"
	ModClarify ModAction = "clarify"
	ModLength  ModAction = "length"
)

// ModCommand is one moderator action, logged with who and why.
type ModCommand struct {
	Action ModAction
	By     string
	Reason string
	At     time.Time
	Post   *Input        // the flagged post for accept/reject/close
	Flag   FlagKind      // why the post was flagged (accept settles each kind its own way)
	Text   string        // accept, overturn: the move as the player meant it, typed by the moderator; settle: the message; clarify: the clarification
	Winner string        // end: the winner in the game's terms ("" : the game decides; "draw")
	Player string        // add_player: the forum user
	Role   string        // add_player: the side or team
	Target string        // adjust: the side or team
	Amount int           // adjust: how much (negative: taken back); length: the new length
	Delay  time.Duration // extend: how much later the next deadline comes
	Day    time.Time     // holiday: any time in the day (game zone) the clock stops
	// Deadline is the deadline an extension moves (its real time); zero: the next one.
	Deadline time.Time
	// Replacement is replace's new player (Player: the one who leaves).
	Replacement string
}
