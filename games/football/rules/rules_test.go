package rules

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"forumgm/game"
)

// TestSeedRankingExample: the seed's example table after 12 turns.
func TestSeedRankingExample(t *testing.T) {
	scores := []Score{
		{"Команда 1", 3, 2, 2}, {"Команда 2", 0, 2, 3}, {"Команда 3", 4, 1, 5},
		{"Команда 4", 4, 4, 0}, {"Команда 5", 4, 5, 1}, {"Команда 6", 3, 4, 0},
	}
	table, ranking := Rank(scores, RankFormula, 6)
	results := map[string]int{}
	places := map[string]int{}
	for _, s := range table {
		results[s.Team], places[s.Team] = s.Result, s.Place
	}
	want := map[string]int{"Команда 1": 8, "Команда 2": -9, "Команда 3": 23, "Команда 4": 0, "Команда 5": -5, "Команда 6": -6}
	if !reflect.DeepEqual(results, want) {
		t.Errorf("results %v, want %v", results, want)
	}
	// the seed: №1 — 2 место, №3 — 1 место, №4 — 3 место
	if places["Команда 3"] != 1 || places["Команда 1"] != 2 || places["Команда 4"] != 3 {
		t.Errorf("places %v", places)
	}
	if fmt.Sprint(ranking) != "[[Команда 3] [Команда 1] [Команда 4] [Команда 5] [Команда 6] [Команда 2]]" {
		t.Errorf("ranking %v", ranking)
	}
}

func TestRankTiesSharePlaces(t *testing.T) {
	scores := []Score{{"A", 1, 0, 0}, {"B", 2, 0, 0}, {"C", 1, 0, 0}, {"D", 0, 0, 6}}
	table, ranking := Rank(scores, RankGoals, 6)
	if fmt.Sprint(ranking) != "[[B] [A C] [D]]" {
		t.Errorf("ranking by goals %v", ranking)
	}
	var places []int
	for _, s := range table {
		places = append(places, s.Place)
	}
	if fmt.Sprint(places) != "[1 2 2 4]" {
		t.Errorf("places %v", places)
	}
	_, ranking = Rank(scores, RankFormula, 6)
	if fmt.Sprint(ranking) != "[[B] [A C D]]" {
		t.Errorf("ranking by formula %v", ranking)
	}
	if _, r := Rank(nil, RankFormula, 6); r == nil || len(r) != 0 {
		t.Errorf("empty ranking %v", r)
	}
}

func TestDecided(t *testing.T) {
	sc := func(goals ...int) []Score {
		var out []Score
		for i, g := range goals {
			out = append(out, Score{Team: fmt.Sprint(i), GoalsFor: g})
		}
		return out
	}
	cases := []struct {
		goals []int
		want  bool
	}{
		{[]int{3, 2, 1, 0}, true},
		{[]int{3, 2, 1, 1}, false}, // third not ahead of fourth
		{[]int{3, 3, 1, 0}, false}, // first two tied
		{[]int{0, 1, 2}, true},     // three teams: a missing fourth counts as lower
		{[]int{0, 0, 0}, false},
		{[]int{5, 1}, false}, // fewer than three teams: no early end
		{[]int{4, 1, 2, 3, 0, 0}, true},
	}
	for _, c := range cases {
		if got := Decided(sc(c.goals...)); got != c.want {
			t.Errorf("Decided(%v) = %v, want %v", c.goals, got, c.want)
		}
	}
}

func TestDiceCommitment(t *testing.T) {
	rnd := game.NewRand("seed", 0, game.Mix{})
	d := drawDice(rnd, 1, 6, map[int]int{37: 4}, "")
	draws := rnd.Take()
	if len(draws) != 99+saltBytes {
		t.Errorf("%d draws, want 99 faces and %d salt bytes", len(draws), saltBytes)
	}
	if d.Face(37) != 4 || len(d.Salt) != 2*saltBytes {
		t.Errorf("face 37 %d, salt %q", d.Face(37), d.Salt)
	}
	seen := map[int]int{}
	for _, f := range d.Faces {
		if f < 1 || f > 6 {
			t.Fatalf("face %d", f)
		}
		seen[f]++
	}
	if len(seen) != 6 {
		t.Errorf("100 draws of a die show only faces %v", seen)
	}
	if err := VerifyDice(d.Commitment, d.Faces, d.Salt, 6); err != nil {
		t.Fatal(err)
	}
	bad := append([]int(nil), d.Faces...)
	bad[0] = bad[0]%6 + 1
	if err := VerifyDice(d.Commitment, bad, d.Salt, 6); !errors.Is(err, ErrCommitment) {
		t.Errorf("a changed face: %v", err)
	}
	if err := VerifyDice(d.Commitment, d.Faces, d.Salt+"x", 6); !errors.Is(err, ErrCommitment) {
		t.Errorf("a changed salt: %v", err)
	}
	if err := VerifyDice(d.Commitment, d.Faces[:99], d.Salt, 6); err == nil {
		t.Error("a short mapping passed")
	}
	// the commitment is game.Commitment over the canonical text
	if !strings.HasPrefix(MappingText(d.Faces), "1:") || Commit(d.Faces, d.Salt) != game.Commitment(MappingText(d.Faces), d.Salt) {
		t.Error("the commitment is not game.Commitment(MappingText, salt)")
	}
	// the same seed draws the same mapping; another seed another
	d2 := drawDice(game.NewRand("seed", 0, game.Mix{}), 1, 6, map[int]int{37: 4}, "")
	d3 := drawDice(game.NewRand("other", 0, game.Mix{}), 1, 6, map[int]int{37: 4}, "")
	if d2.Commitment != d.Commitment || d3.Commitment == d.Commitment {
		t.Error("the mapping is not a function of the seed")
	}
	// a given salt draws no salt
	r4 := game.NewRand("seed", 0, game.Mix{})
	drawDice(r4, 1, 6, nil, "given")
	if n := len(r4.Take()); n != 100 {
		t.Errorf("given salt: %d draws", n)
	}
}

// TestRedrawAfterHundred: the 100th number redraws and recommits the mapping at once, `used`
// starts again, numbers of the old mapping may be named again, and the log verifies.
func TestRedrawAfterHundred(t *testing.T) {
	s := testSettings()
	s.Questions = nil
	s.TurnsMax, s.TurnsEarly = 60, 0
	s.TurnEvery = "10m"
	s.Window = "10m"
	h := newHarness(t, s, testTeams(4))
	first := h.g.Commitment()
	n := 1
	var redrawn *Rolled
	for turn := 0; n <= Numbers; turn++ {
		at := s.FirstTurn.Add(time.Duration(turn) * 10 * time.Minute).Add(time.Minute)
		for _, who := range []string{"Игрок 1", "Игрок 2", "Игрок 3", "Игрок 4"} {
			if n > Numbers {
				break
			}
			ev := h.play(at, who, &Roll{Number: n}).(*Rolled)
			if ev.Redraw != nil {
				redrawn = ev
			}
			n++
		}
	}
	if redrawn == nil || redrawn.Number != 100 || redrawn.Redraw.Epoch != 2 {
		t.Fatalf("no redraw at the 100th number: %+v", redrawn)
	}
	if h.g.Commitment() == first || h.g.Commitment() != redrawn.Redraw.Commitment {
		t.Error("the commitment did not change")
	}
	if len(h.g.Used()) != 0 || len(h.g.Final().Used) != 0 {
		t.Errorf("used after the redraw: %v", h.g.Used())
	}
	if len(redrawn.Draws) != 100+saltBytes {
		t.Errorf("the redraw recorded %d draws", len(redrawn.Draws))
	}
	// 37 may be named again, on mapping 2
	at := h.now.Add(10 * time.Minute).Truncate(10 * time.Minute).Add(time.Minute)
	h.until(at)
	if !h.g.WindowOpen() {
		at = at.Add(10 * time.Minute)
	}
	ev := h.play(at, "Игрок 1", &Roll{Number: 37}).(*Rolled)
	if ev.Epoch != 2 || ev.Face != redrawn.Redraw.Face(37) {
		t.Errorf("37 on mapping 2: %+v", ev)
	}
	h.until(s.FirstTurn.Add(24 * time.Hour))
	if h.g.Phase() != PhaseOver {
		t.Fatalf("phase %s", h.g.Phase())
	}
	end := h.log[len(h.log)-1].(*GameEnded)
	if len(end.Reveal) != 2 {
		t.Fatalf("reveal %d mappings", len(end.Reveal))
	}
	if err := VerifyLog(h.log); err != nil {
		t.Fatal(err)
	}
	// a forged face is caught
	forged := append([]game.Event(nil), h.log...)
	for i, e := range forged {
		if r, ok := e.(*Rolled); ok && r.Number == 5 {
			c := *r
			c.Face = c.Face%6 + 1
			forged[i] = &c
			break
		}
	}
	if err := VerifyLog(forged); err == nil {
		t.Error("a forged face verified")
	}
}

func TestRandomSplit(t *testing.T) {
	s := testSettings()
	s.GroupSplit = SplitRandom
	teams := testTeams(7)
	g, err := New(s, DefaultBoard(), teams)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := g.Begin(day.Add(19*time.Hour), game.NewRand("split", 0, game.Mix{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Draws) != 6+100+saltBytes {
		t.Errorf("%d draws: want 6 for the shuffle, 100 faces, the salt", len(ev.Draws))
	}
	sizes := map[int]int{}
	seen := map[string]bool{}
	var order []string
	for _, ts := range ev.Teams {
		sizes[ts.Group]++
		seen[ts.Name] = true
		order = append(order, ts.Name)
		if ts.Cell != DefaultBoard().Starts[ts.Group] {
			t.Errorf("%s starts on %d", ts.Name, ts.Cell)
		}
	}
	if sizes[1] != 4 || sizes[2] != 3 || len(seen) != 7 {
		t.Errorf("groups %v, teams %v", sizes, seen)
	}
	ev2, _ := g.Begin(day.Add(19*time.Hour), game.NewRand("split", 0, game.Mix{}))
	if !reflect.DeepEqual(ev, ev2) {
		t.Error("the split is not a function of the seed")
	}
	roster := testSettings()
	g2, _ := New(roster, DefaultBoard(), teams)
	ev3, _ := g2.Begin(day.Add(19*time.Hour), game.NewRand("split", 0, game.Mix{}))
	for i, ts := range ev3.Teams {
		if ts.Name != teams[i].Name || ts.Group != 1+boolInt(i >= 4) {
			t.Errorf("roster split: %d %+v", i, ts)
		}
	}
	if fmt.Sprint(order) == fmt.Sprint(teamNames(ev3.Teams)) {
		t.Log("the shuffle kept the roster order (possible, unlikely)")
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func teamNames(ts []TeamStart) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

func TestNoRand(t *testing.T) {
	s := testSettings()
	s.Dice = map[int]int{37: 3}
	h := newHarness(t, s, testTeams(4))
	h.until(hm(t, "20:00"))
	// landing on a question cell draws the question: no Rand, no decision
	_, err := h.g.Decide(game.Act{At: hm(t, "20:01"), Author: "Игрок 1", Body: &Roll{Number: 37}})
	if !errors.Is(err, ErrNoRand) {
		t.Errorf("want ErrNoRand, got %v", err)
	}
	g, _ := New(s, DefaultBoard(), testTeams(4))
	if _, err := g.Begin(hm(t, "19:00"), nil); !errors.Is(err, ErrNoRand) {
		t.Errorf("Begin without a Rand: %v", err)
	}
}

func TestNotStartedAndTickOpens(t *testing.T) {
	s := testSettings()
	g, err := New(s, DefaultBoard(), testTeams(2))
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Decide(game.Act{At: hm(t, "20:01"), Author: "Игрок 1", Body: &Roll{Number: 1}})
	if r := refusalOf(t, err); !r.Has(CodeNotStarted) {
		t.Errorf("codes %v", r.Codes())
	}
	at, ok := g.NextTimer(hm(t, "19:00"))
	if !ok || !at.Equal(hm(t, "20:00")) {
		t.Fatalf("next timer %v %v", at, ok)
	}
	rnd := game.NewRand("x", 0, game.Mix{})
	evs, err := g.Tick(at, rnd)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].EventKind() != KindTurnOpened || rnd.Pending() != 0 {
		t.Fatalf("events %v (the clock must not draw the start)", jsonOf(evs))
	}
	if g.Phase() != PhaseNew {
		t.Fatal("Tick changed the state")
	}
	for _, ev := range evs {
		if err := g.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	if again, _ := g.Tick(at, rnd); len(again) != 0 {
		t.Errorf("a tick fired twice: %v", jsonOf(again))
	}
}

func TestValidate(t *testing.T) {
	s := testSettings()
	s.Window = "40m"
	s.Groups = 3
	s.Dice = map[int]int{0: 1, 5: 7}
	s.StartCells = map[string]int{"Команда 9": 3}
	s.GroupSplit = "alphabet"
	_, err := New(s, DefaultBoard(), testTeams(4))
	if err == nil {
		t.Fatal("bad settings accepted")
	}
	for _, want := range []string{"before turn 1's window closes", "groups is 3", "number 0", "face 7", "no team \"Команда 9\"", "group_split"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in %v", want, err)
		}
	}
	if _, err := New(testSettings(), DefaultBoard(), testTeams(1)); err == nil {
		t.Error("one team accepted")
	}
	bad := testTeams(2)
	bad[1].Members = []string{"Игрок 1"}
	if _, err := New(testSettings(), DefaultBoard(), bad); err == nil || !strings.Contains(err.Error(), "in both") {
		t.Errorf("a player in two teams: %v", err)
	}
	same := testTeams(2)
	same[1].Name = "команда 1"
	if _, err := New(testSettings(), DefaultBoard(), same); err == nil {
		t.Error("two teams with one name accepted")
	}
	tt := testSettings()
	tt.TurnTimes = []time.Time{hm(t, "20:00")}
	if _, err := New(tt, DefaultBoard(), testTeams(2)); err == nil || !strings.Contains(err.Error(), "turn_times") {
		t.Errorf("too few turn_times: %v", err)
	}
}

func TestTurnTimes(t *testing.T) {
	s := testSettings()
	s.TurnsMax, s.TurnsEarly = 2, 0
	s.TurnTimes = []time.Time{hm(t, "20:00"), hm(t, "21:15")}
	s.FirstTurn = time.Time{}
	s.TurnEvery = ""
	h := newHarness(t, s, testTeams(2))
	h.until(hm(t, "20:10"))
	at, ok := h.g.NextTimer(hm(t, "20:10"))
	if !ok || !at.Equal(hm(t, "21:15")) {
		t.Fatalf("turn 2 at %v", at)
	}
	_, err := h.decide(hm(t, "21:00"), "Игрок 1", false, &Roll{Number: 1})
	r := refusalOf(t, err)
	if !r.Has(CodeWindowClosed) || !r.Problems[0].Next.Equal(hm(t, "21:15")) {
		t.Errorf("refusal %+v", r.Problems)
	}
	h.until(hm(t, "21:25"))
	if h.g.Phase() != PhaseOver {
		t.Errorf("phase %s", h.g.Phase())
	}
}

func TestTeamKey(t *testing.T) {
	same := []string{"Команда 2", "команду 2", "КОМАНДА 2", "2", "Kоманда 2", "команда  2!", "Команде 2"}
	for _, s := range same {
		if TeamKey(s) != "2" {
			t.Errorf("TeamKey(%q) = %q", s, TeamKey(s))
		}
	}
	if TeamKey("Спартак") != TeamKey("спартак") || TeamKey("Спартак") == TeamKey("Динамо") {
		t.Error("names")
	}
	if AnswerKey(" Пеле! ") != AnswerKey("пеле") || AnswerKey("Пелe") != AnswerKey("Пеле") || AnswerKey("ёж") != AnswerKey("еж") {
		t.Error("answer keys")
	}
}

func TestDecodeEveryKind(t *testing.T) {
	evs := []game.Event{&GameStarted{}, &TurnOpened{}, &Rolled{}, &AttackDeclared{}, &DefenceRolled{},
		&PointsSpent{}, &AnswerJudged{}, &QuestionExpired{}, &TurnClosed{}, &GameEnded{}}
	seen := map[string]bool{}
	for _, ev := range evs {
		if !strings.HasPrefix(ev.EventKind(), "football.") || seen[ev.EventKind()] {
			t.Errorf("kind %q", ev.EventKind())
		}
		seen[ev.EventKind()] = true
		r, err := game.Encode(ev)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeEvent(r.Kind, r.Data)
		if err != nil || reflect.TypeOf(back) != reflect.TypeOf(ev) {
			t.Errorf("%s: %v %T", r.Kind, err, back)
		}
	}
	if _, err := DecodeEvent("football.nope", []byte("{}")); !errors.Is(err, ErrUnknownEvent) {
		t.Errorf("unknown kind: %v", err)
	}
	g, _ := New(testSettings(), DefaultBoard(), testTeams(2))
	if err := g.Apply(nil); err == nil {
		t.Error("nil event applied")
	}
}

func TestUnsupportedBody(t *testing.T) {
	h := newHarness(t, testSettings(), testTeams(2))
	_, err := h.decide(hm(t, "20:01"), "Игрок 1", false, "Бросаю 37")
	if r := refusalOf(t, err); !r.Has(CodeUnsupportedBody) {
		t.Errorf("codes %v", r.Codes())
	}
	// value bodies are accepted like pointers
	if _, err := h.decide(hm(t, "20:02"), "Игрок 1", false, Roll{Number: 50}); err != nil {
		t.Error(err)
	}
}

// TestTurnsOpenBeforeTheDraw: the clock never draws the start (that waits for the first player
// post): turn 1 opens on time without groups or a table, and the draw made mid-turn lets the
// turn's moves be judged.
func TestTurnsOpenBeforeTheDraw(t *testing.T) {
	g, err := New(testSettings(), DefaultBoard(), testTeams(2))
	if err != nil {
		t.Fatal(err)
	}
	at, ok := g.NextTimer(hm(t, "19:00"))
	if !ok || !at.Equal(hm(t, "20:00")) {
		t.Fatalf("first timer %v", at)
	}
	rnd := game.NewRand("b", 0, game.Mix{})
	evs, err := g.Tick(at, rnd)
	if err != nil || len(evs) != 1 || evs[0].EventKind() != KindTurnOpened || !evs[0].(*TurnOpened).Undrawn {
		t.Fatalf("%v %s", err, jsonOf(evs))
	}
	if rnd.Pending() != 0 || g.Phase() != PhaseNew {
		t.Fatalf("the clock drew %d numbers; phase %s", rnd.Pending(), g.Phase())
	}
	if err := g.Apply(evs[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Decide(game.Act{At: hm(t, "20:01"), Author: "Игрок 1", Body: &Roll{Number: 5}, Rand: rnd}); !refusalOf(t, err).Has(CodeNotStarted) {
		t.Fatalf("a roll before the draw: %v", err)
	}
	ev, err := g.Begin(hm(t, "20:02"), rnd)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Apply(ev); err != nil {
		t.Fatal(err)
	}
	if !g.WindowOpen() || g.Phase() != PhasePlaying {
		t.Fatalf("after the draw: open %v, phase %s", g.WindowOpen(), g.Phase())
	}
	if _, err := g.Decide(game.Act{At: hm(t, "20:03"), Author: "Игрок 1", Body: &Roll{Number: 5}, Rand: rnd}); err != nil {
		t.Fatalf("a roll after the draw: %v", err)
	}
}
