package signup

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"forumgm/game"
)

type phase int

const (
	signing    phase = iota // players sign up in the thread
	organising              // teams formed; roles and pieces being named
	playing                 // the game itself runs (Rules.inner)
	cancelled               // ended by a moderator before play began
)

// vacancy is a departed player's place, open for a replacement until Until.
type vacancy struct {
	Player, Team string
	Until        time.Time
}

// signed is one sign-up in order.
type signed struct{ Name, Team string }

// Rules is a game with a sign-up phase: its own state until play begins, then the game's Rules
// (inner), with departures and replacements around them.
type Rules struct {
	p        *prepared
	phase    phase
	deadline time.Time
	signed   []signed
	teams    []game.Formed // formed (organising), then the playing roster
	named    map[string]bool
	sent     map[string]bool
	orgUntil time.Time
	inner    game.Rules
	open     []vacancy
	// opening counts the game's opening events still to fold after Started; quiet holds them:
	// their words are in the opening post Started's message carries.
	opening int
	quiet   map[game.Event]bool
}

func (p *prepared) rules() *Rules {
	return &Rules{p: p, deadline: p.cfg.Deadline, named: map[string]bool{}, sent: map[string]bool{}}
}

// Inner is the game's own Rules once play began (nil before).
func (r *Rules) Inner() game.Rules { return r.inner }

// cur is the game's Rules for texts and queries: the game once it runs, else the placeholder.
func (r *Rules) cur() game.Rules {
	if r.inner != nil {
		return r.inner
	}
	return r.p.probe
}

// everyone is every name the sign-up knows: signed-up players, team members, open places.
func (r *Rules) everyone() []string {
	var out []string
	for _, s := range r.signed {
		out = append(out, s.Name)
	}
	for _, t := range r.teams {
		out = append(out, t.Players...)
	}
	for _, v := range r.open {
		out = append(out, v.Player)
	}
	return out
}

// ---- the refusals ----

// Code is a sign-up refusal's code (a template of the voice explains it).
type Code string

const (
	CodeClosed      Code = "closed"       // the sign-up is over
	CodeAlreadyIn   Code = "already_in"   // signed up already
	CodeStaff       Code = "staff"        // a moderator's or the bot's account
	CodeFull        Code = "full"         // the team (or every team) is full
	CodeNoTeam      Code = "no_team"      // the team named does not exist
	CodeNotSigned   Code = "not_signed"   // «выхожу» from someone not signed up
	CodeNotPlaying  Code = "not_playing"  // «выхожу из игры» from someone not in the game
	CodeNoVacancy   Code = "no_vacancy"   // a replacement where no place is open
	CodeWhichPlace  Code = "which_place"  // several places are open: name whose
	CodeNotMember   Code = "not_member"   // a role or pieces list from outside the team, or naming outsiders
	CodeNotNow      Code = "not_now"      // organisation outside the organisation phase
	CodeBadPieces   Code = "bad_pieces"   // a pieces list that does not give every piece once, evenly
	CodeLeftAlready Code = "left_already" // the player already left
	CodeNotStarted  Code = "not_started"  // a move before play began
)

// Problem is one reason a sign-up input is refused.
type Problem struct {
	Code  Code     `json:"code"`
	Name  string   `json:"name,omitempty"`  // the player or team concerned
	Valid []string `json:"valid,omitempty"` // what would be valid (teams, players, places)
	Lines []string `json:"lines,omitempty"` // the lines at fault
}

func (p Problem) ProblemCode() Code { return p.Code }
func (p Problem) String() string {
	return fmt.Sprintf("%s %s %s", p.Code, p.Name, strings.Join(append(p.Valid, p.Lines...), ","))
}

// Refusal is the sign-up phase's typed refusal.
type Refusal = game.Refusal[Code, Problem]

func refuse(ps ...Problem) error { return &Refusal{Game: "signup", Problems: ps} }

// ---- the engine ----

// Decide judges a sign-up intent, or hands the game's own to the game.
func (r *Rules) Decide(in game.Act) ([]game.Event, error) {
	switch b := in.Body.(type) {
	case *Join:
		return r.decideJoin(in, b)
	case *Leave:
		return r.decideLeave(in)
	case *Depart:
		return r.decideDepart(in, b)
	case *Takeover:
		return r.decideTakeover(in, b)
	case *NameRole:
		return r.decideRole(in, b)
	case *SendPieces:
		return r.decidePieces(in, b)
	case *Early:
		return nil, refuse(Problem{Code: CodeNotStarted})
	}
	if r.inner != nil {
		return r.inner.Decide(in)
	}
	if r.phase == cancelled {
		return nil, refuse(Problem{Code: CodeClosed})
	}
	// Before play only a moderator's end reaches the game: the sign-up is called off.
	return []game.Event{&Cancelled{At: in.At, By: in.Author}}, nil
}

func (r *Rules) teamIndex(key string) int {
	return slices.IndexFunc(r.p.shape.Teams, func(t game.Slot) bool { return t.Key == key })
}

func (r *Rules) isStaff(name string) bool {
	return slices.ContainsFunc(r.p.sp.Staff, func(s string) bool { return fold(s) == fold(name) })
}

func (r *Rules) signedIndex(name string) int {
	return slices.IndexFunc(r.signed, func(s signed) bool { return fold(s.Name) == fold(name) })
}

// counts are the players each team has chosen so far.
func (r *Rules) counts() []int {
	c := make([]int, len(r.p.shape.Teams))
	for _, s := range r.signed {
		if i := r.teamIndex(s.Team); i >= 0 {
			c[i]++
		}
	}
	return c
}

// capacity is how many players the game takes (0: no limit).
func (r *Rules) capacity() int {
	n := 0
	for _, t := range r.p.shape.Teams {
		if t.Size == 0 {
			return 0
		}
		n += t.Size
	}
	return n
}

// withRoom are the Russian names of the teams with room left.
func (r *Rules) withRoom() []string {
	var out []string
	c := r.counts()
	for i, t := range r.p.shape.Teams {
		if t.Size == 0 || c[i] < t.Size {
			out = append(out, t.Label)
		}
	}
	return out
}

func (r *Rules) decideJoin(in game.Act, j *Join) ([]game.Event, error) {
	if r.phase == organising && !r.isStaff(in.Author) {
		if i, in2 := r.teamOf(in.Author); in2 {
			return nil, refuse(Problem{Code: CodeAlreadyIn, Name: r.label(r.teams[i].Key)})
		}
		if t := r.gap(); t != "" { // someone left before play: his place is open
			return []game.Event{&Joined{At: in.At, Player: in.Author, Team: t}}, nil
		}
	}
	if r.phase != signing {
		if len(r.open) > 0 {
			return r.decideTakeover(in, &Takeover{})
		}
		return nil, refuse(Problem{Code: CodeClosed})
	}
	if r.isStaff(in.Author) {
		return nil, refuse(Problem{Code: CodeStaff, Name: in.Author})
	}
	if i := r.signedIndex(in.Author); i >= 0 {
		return nil, refuse(Problem{Code: CodeAlreadyIn, Name: r.label(r.signed[i].Team)})
	}
	if j.Asked != "" {
		return nil, refuse(Problem{Code: CodeNoTeam, Name: j.Asked, Valid: r.labels()})
	}
	c := r.counts()
	if j.Team != "" {
		i := r.teamIndex(j.Team)
		if t := r.p.shape.Teams[i]; t.Size > 0 && c[i] >= t.Size {
			return nil, refuse(Problem{Code: CodeFull, Name: t.Label, Valid: r.withRoom()})
		}
	}
	if n := r.capacity(); n > 0 && len(r.signed) >= n {
		return nil, refuse(Problem{Code: CodeFull})
	}
	evs := []game.Event{&Joined{At: in.At, Player: in.Author, Team: j.Team}}
	if n := r.capacity(); r.p.cfg.UntilFull && n > 0 && len(r.signed)+1 == n {
		next := append(slices.Clone(r.signed), signed{Name: in.Author, Team: j.Team})
		more, err := r.form(in.At, next, in.Rand)
		if err != nil {
			return nil, err
		}
		evs = append(evs, more...)
	}
	return evs, nil
}

func (r *Rules) decideLeave(in game.Act) ([]game.Event, error) {
	switch r.phase {
	case signing:
		if r.signedIndex(in.Author) < 0 {
			return nil, refuse(Problem{Code: CodeNotSigned})
		}
	case organising:
		if _, ok := r.teamOf(in.Author); !ok {
			return nil, refuse(Problem{Code: CodeNotSigned})
		}
	default:
		return r.decideDepart(in, &Depart{})
	}
	return []game.Event{&Left{At: in.At, Player: r.player(in.Author)}}, nil
}

// short are the keys of the teams below the game's minimum.
func (r *Rules) short(teams []game.Formed) []string {
	var out []string
	for _, t := range teams {
		if len(t.Players) < r.p.shape.Min {
			out = append(out, t.Key)
		}
	}
	return out
}

// gap is the formed team a newcomer joins during organisation: the smallest below its size
// (or below the biggest team, for equal teams); "" none.
func (r *Rules) gap() string {
	best, most := -1, 0
	for _, t := range r.teams {
		most = max(most, len(t.Players))
	}
	for i, t := range r.teams {
		slot := r.p.shape.Teams[r.teamIndex(t.Key)]
		room := slot.Size > 0 && len(t.Players) < slot.Size || slot.Size == 0 && r.p.shape.Equal && len(t.Players) < most ||
			len(t.Players) < r.p.shape.Min
		if room && (best < 0 || len(t.Players) < len(r.teams[best].Players)) {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return r.teams[best].Key
}

// teamOf is the team a player is in (formed teams).
func (r *Rules) teamOf(name string) (int, bool) {
	for i, t := range r.teams {
		if slices.ContainsFunc(t.Players, func(p string) bool { return fold(p) == fold(name) }) {
			return i, true
		}
	}
	return 0, false
}

func (r *Rules) decideDepart(in game.Act, d *Depart) ([]game.Event, error) {
	who := d.Player
	if d.By == "" {
		who = in.Author
	}
	if r.phase != playing {
		if d.By != "" { // a moderator's remove before play: the player simply leaves
			if r.signedIndex(who) < 0 {
				if _, ok := r.teamOf(who); !ok {
					return nil, refuse(Problem{Code: CodeNotSigned, Name: who})
				}
			}
			return []game.Event{&Left{At: in.At, Player: r.player(who)}}, nil
		}
		return r.decideLeave(in)
	}
	if slices.ContainsFunc(r.open, func(v vacancy) bool { return fold(v.Player) == fold(who) }) {
		return nil, refuse(Problem{Code: CodeLeftAlready, Name: who})
	}
	ti, ok := r.teamOf(who)
	if !ok || !r.inner.IsPlayer(who) {
		return nil, refuse(Problem{Code: CodeNotPlaying, Name: who})
	}
	return []game.Event{&Departed{At: in.At, Player: r.player(who), Team: r.teams[ti].Key,
		Until: in.At.Add(r.p.replace), By: d.By, Reason: d.Reason}}, nil
}

func (r *Rules) decideTakeover(in game.Act, t *Takeover) ([]game.Event, error) {
	if r.phase != playing {
		if t.By != "" {
			return nil, fmt.Errorf("signup: replace: the game has not begun yet (players sign up in the thread)")
		}
		return r.decideJoin(in, &Join{})
	}
	newName, old := t.New, t.Old
	if t.By == "" {
		newName = in.Author
		if r.isStaff(newName) {
			return nil, refuse(Problem{Code: CodeStaff, Name: newName})
		}
		if r.inner.IsPlayer(newName) {
			return nil, refuse(Problem{Code: CodeAlreadyIn})
		}
		var places []string
		for _, v := range r.open {
			places = append(places, v.Player)
		}
		switch {
		case len(places) == 0:
			return nil, refuse(Problem{Code: CodeNoVacancy})
		case old == "" && len(places) == 1:
			old = places[0]
		case !slices.Contains(places, old):
			return nil, refuse(Problem{Code: CodeWhichPlace, Name: old, Valid: places})
		}
	} else if !r.inner.IsPlayer(old) {
		return nil, refuse(Problem{Code: CodeNotPlaying, Name: old})
	}
	rep, ok := r.inner.(game.Replacer)
	if !ok {
		return nil, fmt.Errorf("signup: the game cannot replace players")
	}
	intent, err := rep.Replace(old, newName)
	if err != nil {
		return nil, err
	}
	evs, err := r.inner.Decide(game.Act{At: in.At, Author: newName, Body: intent, Rand: in.Rand})
	if err != nil {
		return nil, err
	}
	ti, _ := r.teamOf(old)
	return append([]game.Event{&Replaced{At: in.At, Old: old, New: newName, Team: r.teams[ti].Key, By: t.By, Reason: t.Reason, Follows: len(evs)}}, evs...), nil
}

// Moderated marks a moderator's intent with who gave it and why.
func (d *Depart) Moderated(by, reason string)   { d.By, d.Reason = by, reason }
func (t *Takeover) Moderated(by, reason string) { t.By, t.Reason = by, reason }

func (r *Rules) decideRole(in game.Act, n *NameRole) ([]game.Event, error) {
	if r.phase != organising {
		return nil, refuse(Problem{Code: CodeNotNow})
	}
	ti, ok := r.teamOf(in.Author)
	slot := r.p.shape.Teams[r.teamIndex(r.teams[ti].Key)]
	if !ok || slot.Role == "" {
		return nil, refuse(Problem{Code: CodeNotMember, Name: in.Author})
	}
	if !slices.Contains(r.teams[ti].Players, n.Player) {
		return nil, refuse(Problem{Code: CodeNotMember, Name: n.Player, Valid: r.teams[ti].Players})
	}
	evs := []game.Event{&RoleNamed{At: in.At, By: in.Author, Team: r.teams[ti].Key, Player: n.Player}}
	return r.maybeStart(in, evs)
}

func (r *Rules) decidePieces(in game.Act, s *SendPieces) ([]game.Event, error) {
	if r.phase != organising {
		return nil, refuse(Problem{Code: CodeNotNow})
	}
	ti, ok := r.teamOf(in.Author)
	if !ok {
		return nil, refuse(Problem{Code: CodeNotMember, Name: in.Author})
	}
	team := r.teams[ti]
	slot := r.p.shape.Teams[r.teamIndex(team.Key)]
	var ps []Problem
	if len(s.Bad) > 0 {
		ps = append(ps, Problem{Code: CodeBadPieces, Lines: s.Bad})
	}
	got := map[string][]string{}
	owner := map[string]string{}
	var bad []string
	for _, l := range s.Lines {
		if !slices.Contains(team.Players, l.Player) {
			ps = append(ps, Problem{Code: CodeNotMember, Name: l.Player, Valid: team.Players})
			continue
		}
		for _, p := range l.Pieces {
			if !slices.Contains(slot.Pieces, p) || owner[p] != "" {
				bad = append(bad, p)
				continue
			}
			owner[p] = l.Player
			got[l.Player] = append(got[l.Player], p)
		}
	}
	want := deal(slot.Pieces, team.Players)
	for _, p := range team.Players {
		if len(got[p]) != len(want[p]) && len(bad) == 0 {
			bad = append(bad, fmt.Sprintf("%s: %d", p, len(got[p])))
		}
	}
	if len(bad) > 0 || len(owner) != len(slot.Pieces) && len(ps) == 0 {
		ps = append(ps, Problem{Code: CodeBadPieces, Name: fmt.Sprint(len(want[team.Players[0]])), Lines: bad, Valid: slot.Pieces})
	}
	if len(ps) > 0 {
		return nil, refuse(ps...)
	}
	evs := []game.Event{&PiecesSent{At: in.At, By: in.Author, Team: team.Key, Pieces: got}}
	return r.maybeStart(in, evs)
}

// maybeStart adds the start to evs when, after them, every team has organised everything.
func (r *Rules) maybeStart(in game.Act, evs []game.Event) ([]game.Event, error) {
	named, sent := maps(r.named), maps(r.sent)
	teams := r.cloneTeams()
	for _, ev := range evs {
		switch e := ev.(type) {
		case *RoleNamed:
			named[e.Team] = true
			teams[r.formedIndex(e.Team)].Role = e.Player
		case *PiecesSent:
			sent[e.Team] = true
			teams[r.formedIndex(e.Team)].Pieces = e.Pieces
		}
	}
	for _, t := range r.p.shape.Teams {
		if t.Role != "" && !named[t.Key] || len(t.Pieces) > 0 && !sent[t.Key] {
			return evs, nil
		}
	}
	if len(r.short(teams)) > 0 {
		return evs, nil
	}
	more, err := r.start(in.At, teams, in.Rand)
	if err != nil {
		return nil, err
	}
	return append(evs, more...), nil
}

func maps(m map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (r *Rules) formedIndex(key string) int {
	return slices.IndexFunc(r.teams, func(t game.Formed) bool { return t.Key == key })
}

func (r *Rules) cloneTeams() []game.Formed { return cloneFormed(r.teams) }

// cloneFormed is a deep copy of teams (the state never shares an event's slices: a later fold
// changes the state, never the log).
func cloneFormed(teams []game.Formed) []game.Formed {
	out := make([]game.Formed, len(teams))
	for i, t := range teams {
		out[i] = game.Formed{Key: t.Key, Players: slices.Clone(t.Players), Role: t.Role}
		if t.Pieces != nil {
			out[i].Pieces = map[string][]string{}
			for k, v := range t.Pieces {
				out[i].Pieces[k] = slices.Clone(v)
			}
		}
	}
	return out
}

// form forms the teams from the sign-ups (or extends the sign-up when a team would be too
// small), then starts play when there is nothing to organise.
func (r *Rules) form(at time.Time, ss []signed, rnd *game.Rand) ([]game.Event, error) {
	shape := r.p.shape
	teams := make([]game.Formed, len(shape.Teams))
	var free []string
	for i, t := range shape.Teams {
		teams[i].Key = t.Key
	}
	for _, s := range ss {
		if i := r.teamIndex(s.Team); i >= 0 {
			teams[i].Players = append(teams[i].Players, s.Name)
		} else {
			free = append(free, s.Name)
		}
	}
	f := &Formed{At: at}
	chosen := teams
	place := func(order []string) ([]game.Formed, []string) {
		out := make([]game.Formed, len(chosen))
		for i := range chosen {
			out[i] = game.Formed{Key: chosen[i].Key, Players: slices.Clone(chosen[i].Players)}
		}
		room := func(i int) bool { return shape.Teams[i].Size == 0 || len(out[i].Players) < shape.Teams[i].Size }
		for _, name := range order {
			best := -1
			for i := range out {
				if room(i) && (best < 0 || len(out[i].Players) < len(out[best].Players)) {
					best = i
				}
			}
			out[best].Players = append(out[best].Players, name)
		}
		var moved []string
		for shape.Equal {
			lo, hi := 0, 0
			for i := range out {
				if len(out[i].Players) < len(out[lo].Players) {
					lo = i
				}
				if len(out[i].Players) > len(out[hi].Players) {
					hi = i
				}
			}
			if len(out[hi].Players)-len(out[lo].Players) <= 1 {
				break
			}
			n := len(out[hi].Players) - 1 // the latest to choose the bigger team moves
			moved = append(moved, out[hi].Players[n])
			out[lo].Players = append(out[lo].Players, out[hi].Players[n])
			out[hi].Players = out[hi].Players[:n]
		}
		return out, moved
	}
	teams, f.Moved = place(free) // the sizes do not depend on the draw: check them before drawing
	if short := r.short(teams); len(short) > 0 {
		return []game.Event{&Extended{At: at, Until: at.Add(r.p.extend), Short: short}}, nil
	}
	if len(free) > 1 && rnd != nil {
		perm := rnd.Perm(len(free))
		f.Order = make([]string, len(free))
		for i, j := range perm {
			f.Order[i] = free[j]
		}
		f.Draws = rnd.Take()
		teams, f.Moved = place(f.Order)
	}
	f.Teams = teams
	organise := false
	for _, t := range shape.Teams {
		organise = organise || t.Role != "" || len(t.Pieces) > 0
	}
	f.Until = at
	if organise && r.p.organise > 0 {
		f.Until = at.Add(r.p.organise)
		return []game.Event{f}, nil
	}
	more, err := r.start(at, teams, rnd)
	if err != nil {
		return nil, err
	}
	return append([]game.Event{f}, more...), nil
}

// start begins play with teams (what they did not name given by default), the game's own
// opening events after.
func (r *Rules) start(at time.Time, teams []game.Formed, rnd *game.Rand) ([]game.Event, error) {
	st := &Started{At: at}
	for i := range teams {
		slot := r.p.shape.Teams[r.teamIndex(teams[i].Key)]
		role, pieces := defaults(slot, &teams[i])
		if role {
			st.Defaults = append(st.Defaults, "role:"+teams[i].Key)
		}
		if pieces {
			st.Defaults = append(st.Defaults, "pieces:"+teams[i].Key)
		}
	}
	st.Teams = teams
	evs := []game.Event{st}
	inner, err := r.p.build(teams, at)
	if err != nil {
		return nil, err
	}
	if o, ok := inner.(game.Opener); ok {
		more, err := o.Open(at, rnd)
		if err != nil {
			return nil, fmt.Errorf("signup: open the game: %w", err)
		}
		evs = append(evs, more...)
		st.Opened = len(more)
	}
	return evs, nil
}

// Apply folds an event: the sign-up's own, or the game's.
func (r *Rules) Apply(ev game.Event) error {
	switch e := ev.(type) {
	case *Joined:
		if r.phase == organising {
			t := &r.teams[r.formedIndex(e.Team)]
			t.Players = append(slices.Clone(t.Players), e.Player)
			t.Pieces, r.sent[t.Key] = nil, false // the list no longer fits the team
			break
		}
		r.signed = append(r.signed, signed{Name: e.Player, Team: e.Team})
	case *Left:
		if i := r.signedIndex(e.Player); i >= 0 {
			r.signed = slices.Delete(r.signed, i, i+1)
		}
		if i, ok := r.teamOf(e.Player); ok {
			t := &r.teams[i]
			t.Players = slices.DeleteFunc(t.Players, func(p string) bool { return fold(p) == fold(e.Player) })
			if t.Role == e.Player {
				t.Role, r.named[t.Key] = "", false
			}
			t.Pieces, r.sent[t.Key] = nil, false
		}
	case *Extended:
		if r.phase == organising {
			r.orgUntil = e.Until
			break
		}
		r.deadline = e.Until
	case *Formed:
		r.teams, r.phase, r.orgUntil = cloneFormed(e.Teams), organising, e.Until
	case *RoleNamed:
		r.teams[r.formedIndex(e.Team)].Role, r.named[e.Team] = e.Player, true
	case *PiecesSent:
		r.teams[r.formedIndex(e.Team)].Pieces, r.sent[e.Team] = cloneFormed([]game.Formed{{Pieces: e.Pieces}})[0].Pieces, true
	case *Started:
		inner, err := r.p.build(e.Teams, e.At)
		if err != nil {
			return err
		}
		r.inner, r.teams, r.phase = inner, cloneFormed(e.Teams), playing
		r.opening, r.quiet = e.Opened, map[game.Event]bool{}
	case *Departed:
		r.open = append(r.open, vacancy{Player: e.Player, Team: e.Team, Until: e.Until})
	case *Replaced:
		r.opening += e.Follows
		r.open = slices.DeleteFunc(r.open, func(v vacancy) bool { return v.Player == e.Old })
		for i := range r.teams {
			t := &r.teams[i]
			if j := slices.Index(t.Players, e.Old); j >= 0 {
				t.Players[j] = e.New
				if t.Role == e.Old {
					t.Role = e.New
				}
				if p, ok := t.Pieces[e.Old]; ok {
					delete(t.Pieces, e.Old)
					t.Pieces[e.New] = p
				}
			}
		}
	case *Removed:
		r.opening += e.Follows
		r.open = slices.DeleteFunc(r.open, func(v vacancy) bool { return v.Player == e.Player })
		if i, ok := r.teamOf(e.Player); ok {
			r.teams[i].Players = slices.DeleteFunc(r.teams[i].Players, func(p string) bool { return p == e.Player })
		}
	case *Cancelled:
		r.phase = cancelled
	default:
		if r.inner == nil {
			return fmt.Errorf("signup: the game's event %s before play began", ev.EventKind())
		}
		if r.opening > 0 {
			r.opening--
			r.quiet[ev] = true
		}
		return r.inner.Apply(ev)
	}
	return nil
}

// NextTimer is the sign-up deadline, the organisation deadline, or the game's next timer and the
// replacements' deadlines.
func (r *Rules) NextTimer(t time.Time) (time.Time, bool) {
	var best time.Time
	ok := false
	take := func(at time.Time) {
		if at.After(t) && (!ok || at.Before(best)) {
			best, ok = at, true
		}
	}
	switch r.phase {
	case signing:
		take(r.deadline)
	case organising:
		take(r.orgUntil)
	case playing:
		if r.inner.Over() {
			return time.Time{}, false
		}
		if at, in := r.inner.NextTimer(t); in {
			take(at)
		}
		for _, v := range r.open {
			take(v.Until)
		}
	}
	return best, ok
}

// Tick fires what is due at at.
func (r *Rules) Tick(at time.Time, rnd *game.Rand) ([]game.Event, error) {
	switch r.phase {
	case signing:
		if at.Equal(r.deadline) {
			return r.form(at, r.signed, rnd)
		}
	case organising:
		if at.Equal(r.orgUntil) {
			if short := r.short(r.teams); len(short) > 0 {
				// Someone left before play and nobody took the place: the start waits.
				return []game.Event{&Extended{At: at, Until: at.Add(r.p.extend), Short: short}}, nil
			}
			return r.start(at, r.cloneTeams(), rnd)
		}
	case playing:
		var evs []game.Event
		for _, v := range r.open {
			if !v.Until.Equal(at) {
				continue
			}
			rep, ok := r.inner.(game.Replacer)
			if !ok {
				return nil, errors.New("signup: the game cannot remove players")
			}
			intent, err := rep.Remove(v.Player)
			if err != nil {
				return nil, fmt.Errorf("signup: remove %s: %w", v.Player, err)
			}
			more, err := r.inner.Decide(game.Act{At: at, Author: v.Player, Body: intent, Rand: rnd})
			if err != nil {
				return nil, fmt.Errorf("signup: remove %s: %w", v.Player, err)
			}
			evs = append(evs, &Removed{At: at, Player: v.Player, Team: v.Team})
			evs = append(evs, more...)
		}
		if len(evs) > 0 {
			return evs, nil // the game's own timer, if due now too, fires on the next call
		}
		if next, ok := r.inner.NextTimer(at.Add(-time.Nanosecond)); ok && next.Equal(at) {
			return r.inner.Tick(at, rnd)
		}
	}
	return nil, nil
}

// DecodeEvent rebuilds a stored event, the sign-up's own or the game's.
func (r *Rules) DecodeEvent(kind string, data []byte) (game.Event, error) {
	if own(kind) {
		return decodeOwn(kind, data)
	}
	return r.cur().DecodeEvent(kind, data)
}

// ---- the rest of game.Rules ----

func (r *Rules) Title() string { return r.p.probe.Title() }

// IsPlayer: before play, the signed-up players and the teams' members; then the game's.
func (r *Rules) IsPlayer(name string) bool {
	switch r.phase {
	case signing:
		return r.signedIndex(name) >= 0
	case organising:
		_, ok := r.teamOf(name)
		return ok
	case playing:
		return r.inner.IsPlayer(name)
	}
	return false
}

// Read is the sign-up grammar first, then the game's own once it runs.
func (r *Rules) Read(in game.Input) game.Reading {
	if rd, ok := r.read(in); ok {
		return rd
	}
	if r.inner != nil {
		return r.inner.Read(in)
	}
	if r.phase != cancelled {
		// A move before play: answered with when play begins, never dropped.
		if rd := r.p.probe.Read(in); rd.Kind == game.Unreadable || rd.Kind == game.Intent && rd.Move {
			return game.Reading{Kind: game.Intent, Move: true, Intent: &Early{}}
		}
	}
	return game.Reading{Kind: game.Chatter}
}

func (r *Rules) Over() bool {
	return r.phase == cancelled || r.inner != nil && r.inner.Over()
}

func (r *Rules) Ender(winner, reason string) any {
	if r.inner != nil {
		return r.inner.Ender(winner, reason)
	}
	return &struct{ Winner, Reason string }{winner, reason}
}

func (r *Rules) Undoable(ev game.Event) (string, bool) {
	if own(ev.EventKind()) || r.inner == nil {
		return "", false
	}
	return r.inner.Undoable(ev)
}

// Snapshot is the game's once it runs; before, the sign-up's.
func (r *Rules) Snapshot() any {
	if r.inner != nil {
		return r.inner.Snapshot()
	}
	type entry struct {
		Name string `json:"name"`
		Team string `json:"team,omitempty"`
	}
	s := struct {
		Phase    string        `json:"signup_phase"`
		Deadline time.Time     `json:"deadline"`
		Signed   []entry       `json:"signed"`
		Teams    []game.Formed `json:"teams,omitempty"`
	}{Phase: [...]string{"signing", "organising", "playing", "cancelled"}[r.phase], Deadline: r.deadline, Signed: []entry{}, Teams: r.teams}
	for _, x := range r.signed {
		s.Signed = append(s.Signed, entry{x.Name, x.Team})
	}
	return s
}

// ownTemplates are the sign-up's templates (Required).
var ownTemplates = []string{"signup_start", "signup_help", KindJoined, KindLeft, KindExtended, KindFormed, KindRole,
	KindPieces, KindStarted, KindDeparted, KindReplaced, KindRemoved, KindCancelled, "refusal"}

func (r *Rules) Required() []string {
	out := append([]string(nil), r.p.probe.Required()...)
	return append(out, ownTemplates...)
}

func (r *Rules) Defined(name string) bool { return r.p.set.Defined(name) || r.cur().Defined(name) }

// Replace and Remove are the moderators' commands (game.Replacer): a new player takes the place
// over now; a removed player's team is asked for a replacement first.
func (r *Rules) Replace(old, new string) (any, error) {
	return &Takeover{Old: r.player(old), New: strings.TrimSpace(new)}, nil
}

func (r *Rules) Remove(name string) (any, error) { return &Depart{Player: r.player(name)}, nil }

// ---- optional parts, forwarded to the game once it runs ----

func (r *Rules) Delivered(key string, at time.Time) ([]game.Event, error) {
	if cs, ok := r.inner.(game.ClockStarter); ok {
		return cs.Delivered(key, at)
	}
	return nil, nil
}

func (r *Rules) Deadline(c game.Context, key string, at time.Time) (string, error) {
	if cs, ok := r.inner.(game.ClockStarter); ok {
		return cs.Deadline(c, key, at)
	}
	return "", nil
}

func (r *Rules) Clock() string {
	if cs, ok := r.inner.(game.ClockStarter); ok {
		return cs.Clock()
	}
	return ""
}

// ExpectsPrivate: before play, while a team may still send its pieces or role by private
// message; then the game's.
func (r *Rules) ExpectsPrivate(now time.Time) bool {
	switch r.phase {
	case organising:
		return true
	case playing:
		if e, ok := r.inner.(game.PrivateExpecter); ok {
			return e.ExpectsPrivate(now)
		}
		return true
	}
	return false
}

// Verify checks the game's own events (the sign-up's draws are the referee's to check).
func (r *Rules) Verify(evs []game.Event) error {
	v, ok := r.cur().(game.Verifier)
	if !ok {
		return nil
	}
	var inner []game.Event
	for _, e := range evs {
		if !own(e.EventKind()) {
			inner = append(inner, e)
		}
	}
	return v.Verify(inner)
}

func (r *Rules) AddPlayer(name, role string) (any, error) {
	if a, ok := r.inner.(game.Adjuster); ok {
		return a.AddPlayer(name, role)
	}
	return nil, errors.New("signup: add-player: the game has not begun: players sign up in the thread")
}

func (r *Rules) Adjust(target string, amount int, reason string) (any, error) {
	if a, ok := r.inner.(game.Adjuster); ok {
		return a.Adjust(target, amount, reason)
	}
	return nil, errors.New("signup: adjust: the game has not begun")
}

// StartPending reports whether the game's start draws wait for the first player post
// (game.StartDrawer): once play has begun, as the game says; never during the sign-up (the teams
// are not formed yet, so there is nothing to draw).
func (r *Rules) StartPending() bool {
	sd, ok := r.inner.(game.StartDrawer)
	return r.phase == playing && ok && sd.StartPending()
}

// DrawStart makes the game's start draws (StartPending).
func (r *Rules) DrawStart(at time.Time, rnd *game.Rand) ([]game.Event, error) {
	sd, ok := r.inner.(game.StartDrawer)
	if r.phase != playing || !ok {
		return nil, fmt.Errorf("signup: the game has no start draws to make now")
	}
	return sd.DrawStart(at, rnd)
}
