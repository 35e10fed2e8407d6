package rules

import (
	"testing"
	"time"

	"forumgm/game"
)

// driver runs a game with a recorded event log and fires every timer up to a time.
type driver struct {
	t   *testing.T
	g   *Game
	log []game.Record
	now time.Time
	mk  func() *Game
}

func newDriver(t *testing.T, mk func() *Game, start time.Time) *driver {
	return &driver{t: t, g: mk(), mk: mk, now: start}
}

func (d *driver) apply(evs []game.Event) {
	d.t.Helper()
	for _, ev := range evs {
		rec, err := game.Encode(ev)
		if err != nil {
			d.t.Fatal(err)
		}
		d.log = append(d.log, rec)
		if err := d.g.Apply(ev); err != nil {
			d.t.Fatal(err)
		}
	}
}

// advance fires the timers up to and including `to`, returning the events.
func (d *driver) advance(to time.Time) []game.Event {
	d.t.Helper()
	var all []game.Event
	for {
		next, ok := d.g.NextTimer(d.now)
		if !ok || next.After(to) {
			break
		}
		if !next.After(d.now) {
			d.t.Fatalf("NextTimer(%v) = %v, not after", d.now, next)
		}
		evs, err := d.g.Tick(next, testRand)
		if err != nil {
			d.t.Fatal(err)
		}
		d.apply(evs)
		// a second tick at the same moment fires nothing
		if again, _ := d.g.Tick(next, testRand); len(again) != 0 {
			d.t.Fatalf("tick at %v fired twice: %s", next, jsonOf(again))
		}
		all = append(all, evs...)
		d.now = next
	}
	d.now = to
	return all
}

func (d *driver) decide(in game.Act) []game.Event {
	d.t.Helper()
	d.advance(in.At)
	evs, err := d.g.Decide(in)
	if err != nil {
		d.t.Fatalf("decide: %v", err)
	}
	d.apply(evs)
	d.now = in.At
	return evs
}

// replayEqual folds the log into a fresh game and compares snapshots.
func (d *driver) replayEqual() {
	d.t.Helper()
	fresh := d.mk()
	if err := game.Replay(fresh, d.log); err != nil {
		d.t.Fatal(err)
	}
	if a, b := snap(d.t, d.g), snap(d.t, fresh); a != b {
		d.t.Fatalf("replayed state differs:\nlive   %s\nreplay %s", a, b)
	}
}

func kinds(evs []game.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.EventKind())
	}
	return out
}

func at(day, h, m int) time.Time { return time.Date(2026, 3, day, h, m, 0, 0, msk) } // 2 March 2026 is a Monday

func questionGame(t *testing.T) func() *Game {
	return func() *Game {
		s := testSettings()
		s.Questions = []Question{{Text: "Столица Франции?", Answers: []string{"Париж"}}, {Text: "Ёж?", Answers: []string{"ёж"}}}
		g, err := New(s, testRoster(), Setup{Mode: SetupCustom, At: at(2, 14, 0), Cells: map[WarriorID]Cell{
			"р1": *cellPtrS("E5"), "р2": *cellPtrS("F5"), "ш1": *cellPtrS("K2"), "ш2": *cellPtrS("L2")}})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
}

func TestClockQuestionCloseAndTimeLimit(t *testing.T) {
	d := newDriver(t, questionGame(t), at(2, 14, 0))
	// the crusaders have the move since 14:00; the evening window opens at 19:00: violations at
	// 20:01, 21:01, 22:01, 23:01 (each 2 wounds: a move stamped 20:00 is still in time); the question at 21:10; the close at 00:00.
	evs := d.advance(at(3, 0, 0))
	want := []string{KindTimeLimitExceeded, KindTimeLimitExceeded, KindQuestionAsked, KindTimeLimitExceeded, KindTimeLimitExceeded, KindDayClosed}
	if got := kinds(evs); len(got) != len(want) {
		t.Fatalf("events %v", got)
	}
	for i, k := range want {
		if evs[i].EventKind() != k {
			t.Fatalf("event %d: %s, want %s (%v)", i, evs[i].EventKind(), k, kinds(evs))
		}
	}
	if tl := evs[0].(*TimeLimitExceeded); !tl.At.Equal(at(2, 20, 1)) || tl.Side != Crusaders || tl.Wounds != 2 || tl.Violation != 1 {
		t.Fatalf("first violation %+v", tl)
	}
	if tl := evs[4].(*TimeLimitExceeded); tl.Violation != 4 {
		t.Fatalf("fourth violation %+v", tl)
	}
	if q := evs[2].(*QuestionAsked); !q.At.Equal(at(2, 21, 10)) || q.Number != 1 {
		t.Fatalf("question %+v", q)
	}
	dc := evs[5].(*DayClosed)
	// 8 time-limit wounds unallocated: the game allocates them, +3; the question unanswered by
	// both: +4 each; idle players: the start day is not a whole day
	if dc.Penalties[Crusaders] != 3+4 || dc.Penalties[Saracens] != 4 || len(dc.Idle) != 0 || dc.Day != "2026-03-02" {
		t.Fatalf("close %s", jsonOf(dc))
	}
	if len(dc.AutoAllocated) != 1 || dc.AutoAllocated[0].Side != Crusaders {
		t.Fatalf("auto %s", jsonOf(dc.AutoAllocated))
	}
	// р2 takes the defence wounds before the commander: 8 wounds, defence 9 -> 1
	if v, _ := d.g.Warrior("р2"); v.Defence != 1 {
		t.Fatalf("р2 after auto allocation %+v", v)
	}
	if v, _ := d.g.Warrior("р1"); v.Defence != 9 {
		t.Fatalf("р1 after auto allocation %+v", v)
	}
	d.replayEqual()

	// Tuesday: the crusaders move at 19:30, the saracens have the move from then on
	d.advance(at(3, 19, 30))
	d.decide(turnIn(Crusaders, at(3, 19, 30), Turn{Moves: []Move{{Warrior: "р1", Ordinal: 1, To: *cellPtrS("E6")}}}))
	evs = d.advance(at(3, 21, 0))
	if len(evs) != 1 || !evs[0].(*TimeLimitExceeded).At.Equal(at(3, 20, 31)) || evs[0].(*TimeLimitExceeded).Side != Saracens {
		t.Fatalf("saracen violation %s", jsonOf(evs))
	}
	// the question: a wrong answer, then right answers (the saracens first)
	evs = d.advance(at(3, 21, 10))
	q := evs[0].(*QuestionAsked)
	right := "  Париж!! "
	if q.Text == "Ёж?" {
		right = "ЕЖ."
	}
	r := refused(t, d.g, game.Act{At: at(3, 21, 11), Author: "Crus", Body: Answer{Text: "Лондон"}})
	if !r.Has(CodeWrongAnswer) {
		t.Fatal(r)
	}
	d.decide(game.Act{At: at(3, 21, 12), Author: "Sara", Body: Answer{Text: right}})
	d.decide(game.Act{At: at(3, 21, 12), Author: "Crus", Body: Answer{Text: right}})
	r = refused(t, d.g, game.Act{At: at(3, 21, 13), Author: "Crus", Body: Answer{Text: right}})
	if !r.Has(CodeAlreadyAnswered) {
		t.Fatal(r)
	}
	if d.g.CurrentQuestion() == nil || len(d.g.CurrentQuestion().Answers) != 2 {
		t.Fatal("answers not recorded")
	}
	// the crusaders allocate what they owe before 00:00
	owed := d.g.WoundsOwed(Crusaders).Unallocated
	if owed != 7 {
		t.Fatalf("owed %d", owed)
	}
	r = refused(t, d.g, game.Act{At: at(3, 22, 0), Author: "Crus", Body: Allocation{Wounds: []Wound{{Warrior: "р1", Stat: StatDefence, Count: 8}}}})
	if !r.Has(CodeAllocationTooMany) || r.Problems[0].Limit != 7 {
		t.Fatal(r)
	}
	r = refused(t, d.g, game.Act{At: at(3, 22, 0), Author: "Crus", Body: Allocation{Wounds: []Wound{{Warrior: "р2", Stat: StatDefence, Count: 2}}}})
	if !r.Has(CodeStatAlreadyZero) {
		t.Fatal(r)
	}
	r = refused(t, d.g, game.Act{At: at(3, 22, 0), Author: "Crus", Body: Allocation{Wounds: []Wound{{Warrior: "ш1", Stat: StatDefence}}}})
	if !r.Has(CodeEnemyWarrior) {
		t.Fatal(r)
	}
	d.decide(game.Act{At: at(3, 22, 0), Author: "Crus", Private: true, Body: Allocation{Wounds: []Wound{
		{Warrior: "р2", Stat: StatDefence, Count: 1}, {Warrior: "р2", Stat: StatAttack, Count: 6}}}})
	if o := d.g.WoundsOwed(Crusaders); o.Unallocated != 0 || o.Total != 7 {
		t.Fatalf("owed after allocation %+v", o)
	}
	// р2 is not dead yet: wounds apply at 00:00
	if v, _ := d.g.Warrior("р2"); !v.Alive {
		t.Fatal("р2 died early")
	}
	evs = d.advance(at(4, 0, 0))
	t.Logf("tuesday evening: %v", kinds(evs))
	dc = evs[len(evs)-1].(*DayClosed)
	// р2: defence 0 and every attack value 10-10 = 0 -> dies; р2's sword 9-... = 0 as well
	// р2: defence 9-9 = 0, attack wounds 6 of 10 leave the lance at 4: alive
	if v, _ := d.g.Warrior("р2"); !v.Alive || v.Defence != 0 || v.Attack["lance"] != 4 || v.Attack["sword"] != 3 {
		t.Fatalf("р2 after close %+v", v)
	}
	for _, sw := range dc.AutoAllocated {
		if sw.Side == Crusaders {
			t.Fatalf("crusaders allocated everything: %s", jsonOf(dc.AutoAllocated))
		}
	}
	// the saracens answered first: only the crusaders take the question's 4 wounds; the
	// saracens owed 4 from Monday and allocated nothing: +3; Sara moved no turn on a whole day
	// (the saracens had the move since 19:30): +2
	if dc.Penalties[Crusaders] != 4 || dc.Penalties[Saracens] != 3+2 || len(dc.Idle) != 1 || dc.Idle[0].Name != "Sara" {
		t.Fatalf("close %s", jsonOf(dc))
	}
	d.replayEqual()
}

func TestDeathByWounds(t *testing.T) {
	mk := func() *Game {
		g, err := New(testSettings(), testRoster(), Setup{Mode: SetupCustom, At: at(2, 9, 0), Cells: map[WarriorID]Cell{
			"р1": *cellPtrS("E5"), "к1": *cellPtrS("F5"), "ш1": *cellPtrS("K2")}})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	d := newDriver(t, mk, at(2, 9, 0))
	d.g.st.Owed[Crusaders] = 11 // as if earned by sloppiness; mirrored in the fresh game below
	d.mk = func() *Game { g := mk(); g.st.Owed[Crusaders] = 11; return g }
	// к1: sword 2, lance 10, defence 1 -> 10 attack wounds and 1 defence wound kill it
	d.decide(game.Act{At: at(2, 10, 0), Author: "Crus", Body: Allocation{Wounds: []Wound{
		{Warrior: "к1", Stat: StatAttack, Count: 10}, {Warrior: "к1", Stat: StatDefence, Count: 1}}}})
	evs := d.advance(at(3, 0, 0))
	dc := evs[len(evs)-1].(*DayClosed)
	if len(dc.Died) != 1 || dc.Died[0].Warrior != "к1" || d.g.Killed(Crusaders) != 1 {
		t.Fatalf("died %s", jsonOf(dc))
	}
	v, _ := d.g.Warrior("к1")
	if v.Alive || v.Defence != 0 || v.Attack["lance"] != 0 {
		t.Fatalf("к1 %+v", v)
	}
	d.replayEqual()
}

func TestWoundedValues(t *testing.T) {
	g := place(t, testSettings(), map[string]string{"а1": "E5", "в1": "E7", "ш1": "K2"})
	g.st.Warriors["а1"].AttackWounds = 3
	evs := play(t, g, turnIn(Crusaders, t0, Turn{Attacks: []Attack{{Kind: AttackShot, Attackers: []WarriorID{"а1"}, Target: Target{Cell: cellPtrS("E7")}}}}))
	// 8 - 3 = 5 against defence 5: survives
	if h := evs[0].(*TurnPlayed).Attacks[0].Hits[0]; h.Strength != 5 || h.Outcome != OutcomeSurvived {
		t.Fatalf("hit %+v", h)
	}
}

func TestNextTimerAlwaysAfter(t *testing.T) {
	g := questionGame(t)()
	for i := 0; i < 24*60*3; i += 7 {
		now := at(2, 0, 0).Add(time.Duration(i) * time.Minute)
		next, ok := g.NextTimer(now)
		if !ok || !next.After(now) || next.Sub(now) > 24*time.Hour {
			t.Fatalf("NextTimer(%v) = %v %v", now, next, ok)
		}
	}
	// exactly at midnight, the next one is 21:10? no: a time-limit or the question first
	if next, _ := g.NextTimer(at(3, 0, 0)); !next.After(at(3, 0, 0)) {
		t.Fatal(next)
	}
}

func TestWeekendNoTimeLimit(t *testing.T) {
	mk := func() *Game {
		s := testSettings()
		s.DailyQuestion = false
		g, err := New(s, testRoster(), Setup{Mode: SetupCustom, At: at(7, 10, 0), Cells: map[WarriorID]Cell{
			"р1": *cellPtrS("E5"), "ш1": *cellPtrS("K2")}})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	d := newDriver(t, mk, at(7, 10, 0)) // Saturday 7 March
	evs := d.advance(at(9, 0, 0))       // to Monday 00:00
	for _, e := range evs {
		if e.EventKind() == KindTimeLimitExceeded {
			t.Fatalf("time limit on a weekend: %s", jsonOf(e))
		}
	}
	if len(evs) != 2 {
		t.Fatalf("want two daily closes, got %v", kinds(evs))
	}
	// Sunday's close: Crus had the move all day and did not move (2 wounds); Sara never had the move
	dc := evs[1].(*DayClosed)
	if len(dc.Idle) != 1 || dc.Idle[0].Name != "Crus" || dc.Penalties[Crusaders] != 2 {
		t.Fatalf("sunday close %s", jsonOf(dc))
	}
	evs = d.advance(at(9, 23, 59))
	if len(evs) != 4 || !evs[0].(*TimeLimitExceeded).At.Equal(at(9, 20, 1)) {
		t.Fatalf("monday %v", kinds(evs))
	}
	d.replayEqual()
}

func TestPrivateDeployment(t *testing.T) {
	deadline := at(2, 23, 0)
	mk := func() *Game {
		s := testSettings()
		s.DeploymentDeadline = &deadline
		g, err := New(s, testRoster(), Setup{Mode: SetupPrivate})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	d := newDriver(t, mk, at(2, 12, 0))
	if d.g.Phase() != PhaseDeploying {
		t.Fatal(d.g.Phase())
	}
	refused(t, d.g, turnIn(Crusaders, at(2, 12, 0), Turn{Moves: []Move{{Warrior: "р1", To: *cellPtrS("P17")}}}))
	sar := map[WarriorID]Cell{}
	for w, c := range DefaultDeployment() {
		if w.Side() == Saracens {
			sar[w] = c
		}
	}
	r := refused(t, d.g, game.Act{At: at(2, 13, 0), Author: "Sara", Body: Deployment{Cells: sar}})
	if !r.Has(CodeDeploymentPublic) {
		t.Fatal(r)
	}
	bad := cloneMap(sar)
	bad["ш1"] = *cellPtrS("I5")
	bad["н1"] = *cellPtrS("A1")
	bad["н2"] = *cellPtrS("A2")
	bad["н3"] = *cellPtrS("B1")
	bad["н4"] = *cellPtrS("B2")
	delete(bad, "в8")
	r = refused(t, d.g, game.Act{At: at(2, 13, 0), Author: "Sara", Private: true, Body: Deployment{Cells: bad}})
	for _, c := range []Code{CodeDeployOutside, CodeDeployMissing, CodeForestFull} {
		if !r.Has(c) {
			t.Errorf("want %s in %v", c, r.Codes())
		}
	}
	sar["ш1"] = *cellPtrS("A1") // forest deployment is allowed
	d.decide(game.Act{At: at(2, 13, 0), Author: "Sara", Private: true, Body: Deployment{Cells: sar}})
	if d.g.Phase() != PhaseDeploying {
		t.Fatal("started with one side")
	}
	evs := d.advance(at(2, 23, 30))
	gs, ok := evs[0].(*GameStarted)
	if !ok || len(gs.Defaulted) != 1 || gs.Defaulted[0] != Crusaders || !gs.At.Equal(deadline) {
		t.Fatalf("deadline start %s", jsonOf(evs))
	}
	if v, _ := d.g.Warrior("ш1"); v.Cell.String() != "A1" {
		t.Fatal(v)
	}
	if v, _ := d.g.Warrior("р1"); v.Cell.String() != "P18" {
		t.Fatal(v)
	}
	d.replayEqual()
}

func TestPrivateDeploymentBothIn(t *testing.T) {
	g, err := New(testSettings(), testRoster(), Setup{Mode: SetupPrivate})
	if err != nil {
		t.Fatal(err)
	}
	split := func(s Side) map[WarriorID]Cell {
		m := map[WarriorID]Cell{}
		for w, c := range DefaultDeployment() {
			if w.Side() == s {
				m[w] = c
			}
		}
		return m
	}
	play(t, g, game.Act{At: t0, Author: "Crus", Private: true, Body: Deployment{Cells: split(Crusaders)}})
	evs := play(t, g, game.Act{At: t0.Add(time.Minute), Author: "Sara", Private: true, Body: Deployment{Cells: split(Saracens)}})
	if len(evs) != 2 || evs[1].EventKind() != KindGameStarted || g.Phase() != PhasePlaying || g.SideToMove() != Crusaders {
		t.Fatalf("both in: %v", kinds(evs))
	}
}

func TestSettingsValidation(t *testing.T) {
	s := DefaultSettings()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	s.FirstSide = "vikings"
	s.WorkingDays = []string{"Moonday"}
	s.WoundsSloppy = -1
	s.Location = nil
	s.MoveLimit = "soon"
	err := s.Validate()
	if err == nil {
		t.Fatal("bad settings accepted")
	}
	for _, part := range []string{"first_side", "Moonday", "wounds_sloppy", "location", "move_limit"} {
		if !contains(err.Error(), part) {
			t.Errorf("error lacks %q: %v", part, err)
		}
	}
	if _, err := New(DefaultSettings(), Roster{Players: []Player{{Name: "a", Side: Crusaders, Warriors: []WarriorID{"ш1"}}}}, Setup{}); err == nil {
		t.Fatal("bad roster accepted")
	}
	if _, err := New(DefaultSettings(), testRoster(), Setup{Mode: SetupCustom, Cells: map[WarriorID]Cell{"р1": {9, 20}}}); err == nil {
		t.Fatal("warrior on a flag accepted")
	}
}

func contains(s, sub string) bool {
	return len(s) >= len(sub) && (s == sub || len(sub) == 0 || indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
