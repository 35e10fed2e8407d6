package game

import (
	"time"

	"forumgm/forum"

	"go.yaml.in/yaml/v3"
)

// Game is a game plug-in: one value registered under its name (cmd/forumgm links the games by
// blank imports, as it links the forum dialects). It decodes a configured game into Rules; the
// referee does the rest. Nothing outside a game's own packages names a game.
type Game interface {
	// Name is the game's identifier in config.yaml (game.kind) and transcripts (game:).
	Name() string
	// Title is the game's Russian name as the moderators' pages show it ("Крестовый поход").
	Title() string
	// Setup decodes a game as written in config.yaml's game section or in a transcript (both
	// give a Spec) and checks it, reporting every problem with the field it is in.
	Setup(spec Spec) (*Setup, error)
}

// Spec is a configured game: the game's own keys as YAML (its settings by the game's own names,
// roster or teams, deployment, question bank, ...) and what the shared layer knows.
type Spec struct {
	// Node is a mapping of the game's own keys (possibly empty).
	Node yaml.Node
	// Start is when the game starts (its opening post).
	Start time.Time
	// Timezone and WorkingDays are the game's calendar when config.yaml sets them (game.timezone,
	// game.calendar); empty in transcripts, which set them in the settings.
	Timezone    string
	WorkingDays []string
	// Dir is the folder relative file names (a question bank) resolve against.
	Dir string
	// Zone is the game zone's name to write beside the times the game posts when the forum shows
	// another zone ("" when the same: nothing is added).
	Zone string
	// NoPM is set when the forum has no private messages: what the game would send privately
	// goes to the thread, and secrets that need private messages are off.
	NoPM bool
	// Staff are the accounts that cannot play (the bot, the moderators): a sign-up from one is
	// refused.
	Staff []string
}

// Setup is a configured game, ready to build fresh instances of its rules (the start, and again
// whenever the log is re-folded: restore, undo).
type Setup struct {
	// New builds the rules at the game's start.
	New func() (Rules, error)
	// Players are the roster's forum names (config checks them against moderators and the bot).
	Players []string
	// SignUp: the roster is formed in the thread (a sign-up phase): Players is empty.
	SignUp bool
	// Fixed names the settings set (their YAML names) that fix a draw or the starting position
	// (test positions: fixed die faces, start cells, balances, a given salt). Players cannot see
	// or check them, so check-config refuses them in a live config (docs/fairness.md).
	Fixed []string
	// Warnings are what check-config should say about a game that is valid but cannot play
	// well (English, naming the setting): a football group with no opponent, say.
	Warnings []string
}

// Rules is one running game: the pure engine's state with the game's grammar (post → intent),
// voice (templates) and views over it. It is deterministic and does no I/O.
type Rules interface {
	// The engine (see Engine): Tick gets the game's source of chance; Decide gets it in
	// Input.Rand. Every draw is recorded in the events decided.
	Decide(in Act) ([]Event, error)
	Apply(ev Event) error
	NextTimer(t time.Time) (time.Time, bool)
	Tick(at time.Time, rnd *Rand) ([]Event, error)
	DecodeEvent(kind string, data []byte) (Event, error)

	// Title is the game's Russian name (private messages' subjects).
	Title() string
	// IsPlayer reports whether a forum user plays in this game.
	IsPlayer(name string) bool
	// Read is the grammar: what a post holds for the game, on the current state.
	Read(in Input) Reading
	// Say renders one of the game's templates for a situation the referee reaches itself (see
	// the Say* names) or the game's own.
	Say(name string, c Context) (string, error)
	// Messages renders what one accepted event causes (Context.Event is nil: the event is ev).
	// A message To Sender answers the input's author (privately when the input came privately).
	Messages(c Context, ev Event) ([]Message, error)
	// Refusal renders the answer to an input the engine refused with err (a typed refusal);
	// quiet: nothing is said (an implicit answer that was wrong). An error that is not a
	// refusal is returned as is.
	Refusal(c Context, err error) (body string, quiet bool, e error)
	// Over reports whether the game has ended (the referee then reveals the seed).
	Over() bool
	// Ender is the intent that ends the game by a moderator's decision.
	Ender(winner, reason string) any
	// Undoable reports whether moderators may undo ev (a move), with a label naming it.
	Undoable(ev Event) (label string, ok bool)
	// Snapshot is the state as `replay --json` shows it ("final").
	Snapshot() any
	// Required lists every template name the rules may render (events, refusal codes, parser
	// reasons); the conformance suite checks each exists.
	Required() []string
	// Defined reports whether a template exists.
	Defined(name string) bool
}

// Adjuster is Rules whose moderators may add a player to the roster and change a side's or a
// team's count (Crusade: wounds owed): each returns the intent for the game's engine.
type Adjuster interface {
	AddPlayer(name, role string) (any, error)                     // role: a side or a team, in the game's terms
	Adjust(target string, amount int, reason string) (any, error) // amount may be negative
}

// Rester is Rules that keep what they can derive again only to answer faster (a board's text, its
// position, the last board drawn): Rest drops it between the daemon's cycles, and the rules derive
// it again when next asked. It changes nothing a rule, a message or a view depends on: a process
// of thousands of idle games does not keep each one's drawings (issue 23: memory).
type Rester interface {
	Rest()
}

// Illustrated is Rules whose opening post carries pictures (the field, the board): attached where
// the forum takes pictures, linked from the media server elsewhere, as any message's attachments.
type Illustrated interface {
	StartAttachments() ([]forum.Attachment, error)
}

// Penalizer is Rules that can take back a penalty (a moderator overturning a disputed decision).
type Penalizer interface {
	// Penalty is the intent taking back the last penalty given to author's side that is still
	// owed (ok false: none to take back).
	Penalty(author string) (intent any, ok bool)
}

// ClockStarter is Rules whose replies start a side's clock (a time limit counted from when the
// side got the move): such a message carries the game's key for the clock (Message.Clock) and may
// hold DeadlineSlot. Once it is on the forum the referee reports its posting time (Delivered): the
// time a side has counts from when it could see the position, not from the move it answers when
// the reply came later (flood control, an outage). Both get PostingMinute times.
type ClockStarter interface {
	// Delivered is the message carrying clock key posted at at: the events that move that clock
	// (none when nothing changes: the clock is no longer the current one, its limit has passed,
	// the message was not late).
	Delivered(key string, at time.Time) ([]Event, error)
	// Deadline is what a message carrying clock key posted at at (game time) says in its
	// DeadlineSlot (the deadline that follows, in the game's words, at c.RealTime of it; "" to say
	// nothing).
	Deadline(c Context, key string, at time.Time) (string, error)
	// Clock is the key of the clock that runs now ("" none): the opening post carries it (it
	// shows the position the side to move answers).
	Clock() string
}

// Opener is Rules whose start needs events (a starting position): the referee calls Open once,
// when the game starts, before it renders the opening post. Open draws nothing: the opening post
// comes before any player post, so chance there would be the operator's to foresee; a start that
// needs chance is a StartDrawer.
type Opener interface {
	Open(at time.Time, rnd *Rand) ([]Event, error)
}

// StartDrawer is Rules whose start needs chance the operator must not be able to foresee (a
// random group split, a first die table, the balls' directions): those draws wait for the first
// public entropy made after the commitment, the first post of a player in the thread. After
// absorbing a thread post into the chain, and before judging it, the referee asks StartPending;
// while it is true it calls DrawStart with the game's source of chance (the chain includes that
// post), commits the events and puts their messages (Messages) first in the reply to the post
// (docs/fairness.md, section 4). A setup that leaves nothing to draw reports false from the start.
type StartDrawer interface {
	StartPending() bool
	DrawStart(at time.Time, rnd *Rand) ([]Event, error)
}

// PrivateExpecter is Rules that know when a private message can matter to the game (a private
// deployment pending, wounds to allocate, orders due, a question open): the daemon reads the
// bot's inbox only then (or when a page shows an unread message). Rules without it expect private
// messages always.
type PrivateExpecter interface {
	// ExpectsPrivate reports whether a private message to the bot can be for the game at now.
	ExpectsPrivate(now time.Time) bool
}

// Verifier is Rules with fairness checks of their own beyond the seed's draws (forumgm verify):
// a game that commits to secrets of its own (a die table) re-checks its log against what it
// revealed. Verify gets the game's events in order (the referee's included) and returns the first
// mismatch; a log of a game that has not ended is checked as far as it can be.
type Verifier interface {
	Verify(evs []Event) error
}

// Describer is Rules that put their state and events into words for the moderators (the web
// UI's game page and event log), in Russian, from the game's own templates.
type Describer interface {
	// Describe is one of the game's events in words ("ход 3 (Джелу)"); "" when the game has no
	// words for it (the web UI then shows its kind).
	Describe(ev Event) string
	// Status is the state in words: whose turn it is, what a side owes ("" when nothing to say).
	Status() string
	// Winners are the names a moderator may give when ending the game (Ender's winner), with
	// their Russian labels; none when the game decides its winner itself.
	Winners() []Winner
}

// Winner is a winner a moderator may name when ending the game.
type Winner struct {
	Name  string // as Ender takes it ("crusaders", "draw")
	Label string // Russian, for the moderator ("крестоносцы", "ничья")
}

// Names of the templates the referee itself renders; every game defines them.
const (
	SayStart       = "start"          // the opening post (Context.Fair has the commitment)
	SayHelp        = "help"           // a player asked for help
	SayUnreadable  = "unreadable"     // looks like a move but cannot be read (Context.Lines)
	SayNotInRoster = "not_in_roster"  // a move from someone who does not play
	SayDispute     = "dispute"        // a player disputes a decision
	SayPaused      = "paused"         // a move while the game is paused
	SayPMUnknown   = "pm_unknown"     // a private message the game cannot use
	SayPause       = "pause"          // a moderator paused the game
	SayResume      = "resume"         // a moderator resumed it
	SayUndone      = "undone"         // a moderator undid a move (Context.Event: the move)
	SayModRejected = "mod_rejected"   // a moderator rejected a flagged post
	SayModAccepted = "mod_accepted"   // added to the reply to a post a moderator accepted
	SayModKept     = "mod_kept"       // an edited post's first version, or a disputed decision, stands
	SayModOverturn = "mod_overturned" // a dispute ruled for the player (Context.Event: the penalty taken back, or nil)
	SayModSettled  = "mod_settled"    // a moderator's message settling a dispute (Mod.Text)
	SayModClosed   = "mod_closed"     // a dispute closed (settled elsewhere), the player told the outcome
	SayReveal      = "seed_reveal"    // the seed and salt, published at the end (Context.Fair)
	SayLate        = "late"           // a player's post appeared late and went to a moderator
)

// RefereeTemplates are the templates every game must define.
var RefereeTemplates = []string{SayStart, SayHelp, SayUnreadable, SayNotInRoster, SayDispute, SayPaused,
	SayPMUnknown, SayPause, SayResume, SayUndone, SayModRejected, SayModAccepted, SayModKept, SayModOverturn, SayModSettled, SayModClosed, SayReveal, SayLate}

// Sender as a message's To means: answer the input's author, privately when the input came
// privately and the forum has private messages, else in the thread.
const Sender = "\x00sender"

// ReadKind is what a post holds for the game.
type ReadKind int

const (
	Chatter    ReadKind = iota // nothing for the game
	Help                       // a request for help
	Intent                     // something to judge (Reading.Intent)
	Unreadable                 // looks like a move but cannot be read (Reading.Lines, Detail)
)

// Reading is the grammar's verdict on a post.
type Reading struct {
	Kind ReadKind
	// Intent is the engine body (Kind Intent).
	Intent any
	// Move: the intent is a move (a stranger's move is flagged; chatter-like intents such as an
	// answer to a question are not).
	Move bool
	// Lines are the unreadable parts, for the template (Kind Unreadable).
	Lines any
	// Detail is a short English description for the moderator's flag.
	Detail string
	// Note is appended to the first reply when the intent is accepted (a remark on the post).
	Note string
	// Open: anyone may post it, not only the roster's players (a sign-up, a replacement): the
	// referee judges it from a stranger too instead of ignoring or flagging it.
	Open bool
}

// Context is what templates get from the referee.
type Context struct {
	In      *Input      // the input answered (nil: the clock, a moderator)
	Mod     *ModCommand // the moderator command answered
	Event   Event       // the event a template is about
	Lines   any         // Reading.Lines
	Fair    Fair        // the seed's commitment (and, at the end, the seed)
	Page    string      // the game's public page (package public); "" when none is served
	Dispute string      // the dispute keyword players write to call a moderator
	Private bool        // the answer goes by private message
	// Due is when a time the rules name (a window's opening, a deadline: game time) comes in real
	// time — the game master's extensions and holidays move it (referee/master.go). Every text that
	// names a time of the rules writes RealTime of it. Nil: as named.
	Due func(time.Time) time.Time
}

// RealTime is when the rules' time t comes in real time (Due; t itself when Due is nil).
func (c Context) RealTime(t time.Time) time.Time {
	if c.Due == nil || t.IsZero() {
		return t
	}
	return c.Due(t)
}

// Fair is the game's commit-reveal of its seed.
type Fair struct {
	Commitment string // hex sha256 of salt:seed, posted at the start
	Seed, Salt string // revealed at the end
	Check      string // the in-browser fair-play check's address ("" when none is served)
}

// Sandboxed is a game that can be tried in the embedded sandbox forum (`forumgm sandbox --game`).
type Sandboxed interface {
	Sandbox() SandboxGame
}

// SandboxGame is what the sandbox needs to open a game: the thread, the players' throwaway logins
// and the game's own keys for config.yaml. The moderator and the bot accounts are the sandbox's.
type SandboxGame struct {
	Title   string        // English, for the banner ("Crusade")
	Subject string        // the thread's subject (Russian)
	Intro   string        // the thread's first post (Russian BBCode)
	Players []SandboxUser // the players' accounts
	// Spec is the game's own keys as config.yaml lines, indented by two spaces (under game:).
	Spec string
	// Try is the banner's "what to try" lines (English; a player's example in Russian).
	Try []string
	// For `forumgm sandbox --signup` (games with a sign-up phase, game.Enroller): SignupSpec
	// replaces Spec — the game's keys without a roster, the players sign up in the thread —
	// Signup is the signup: block's keys beside the deadline and organising time the sandbox
	// sets ("team_size: 1, until_full: true"), and SignupTry replaces Try.
	SignupSpec, Signup string
	SignupTry          []string
}

// SandboxUser is one throwaway sandbox login.
type SandboxUser struct {
	Name, Password, Role string
}
